"""DS buttons and stylus of the emulated Petit Computer, as BUTTON/BTRIG/BREPEAT/TCH* see them.

:class:`Input` gathers raw input between frames — keys, gamepads (hot-plugged),
the stylus from a mouse, a finger or the keyboard/gamepad cursor, dropped files,
and the test/step-mode injection methods — and :meth:`Input.latch` turns it
into the values a program reads, once per frame, like the real hardware
(petitcom.md §6). Nothing a program reads changes between two latches.

Events reach an :class:`Input` only through a display front-end's ``pump``
(petitcom_shim.display), which translates window pixels into bottom-screen
pixels, and through the injection methods. A press and release that both fall
between two latches still shows for one frame, so a quick tap is never lost.
"""

from __future__ import annotations

import pathlib
from collections import deque
from collections.abc import Callable, Hashable, Iterable
from typing import Any, Final

import pygame

from petitcom_shim import charset
from petitcom_shim import keyboard as kb
from petitcom_shim.config import DPAD, PAD_BUTTONS, Button, ShimConfig, key_code

__all__ = [
    "ARROW_KEYS",
    "BACKSPACE_KEY",
    "BUTTON_COUNT",
    "CANCEL_KEY",
    "DELETE_KEY",
    "DOWN_KEY",
    "END_KEY",
    "HOME_KEY",
    "INSERT_KEY",
    "LEFT_KEY",
    "RIGHT_KEY",
    "TOUCH_H",
    "TOUCH_W",
    "UP_KEY",
    "Button",
    "Input",
]

BUTTON_COUNT: Final = 12
"""Number of DS buttons; BREPEAT takes their bit index 0..11."""

TOUCH_W: Final = 256
"""Width of the touch screen; TCHX is 0..TOUCH_W-1."""

TOUCH_H: Final = 192
"""Height of the touch screen; TCHY is 0..TOUCH_H-1."""

KEY_BUFFER: Final = 256
"""Characters INKEY$ keeps before the oldest are dropped ([PEMU] ``KEYBUFFER_MAX``)."""

_AXIS_MAX: Final = 32767.0
"""Full deflection of an SDL game-controller axis."""

_INJECT: Final = ("inject",)
_CURSOR: Final = ("cursor",)
#: Clipboard shortcuts reported by Input.edit_keys, by key with Ctrl (Cmd on macOS).
EDIT_KEYS: Final = ("copy", "paste", "undo")
_EDIT_KEY_CODES: Final = {pygame.K_c: "copy", pygame.K_v: "paste", pygame.K_z: "undo"}

BACKSPACE_KEY: Final = -8
"""Key event of a backspace (the keyboard's BS key or Backspace); not a PTC code."""

CANCEL_KEY: Final = -27
"""Key event of a cancel (the keyboard's ESC key or Escape); not a PTC code."""

DELETE_KEY: Final = -127
"""Key event of a delete of the character under the cursor (the keyboard's DEL key or
Delete); not a PTC code."""

INSERT_KEY: Final = -45
"""Key event of the PC's Insert key: toggles insert/overwrite as the software keyboard's
INS key does (that key toggles the panel's state itself); not a PTC code."""

HOME_KEY: Final = -36
"""Key event of Home (to the start of the line); the handheld has no such key."""

END_KEY: Final = -35
"""Key event of End (to the end of the line); the handheld has no such key."""

LEFT_KEY: Final = -37
UP_KEY: Final = -38
RIGHT_KEY: Final = -39
DOWN_KEY: Final = -40
"""Key events of the PC's arrow keys, queued in order with the typed keys (the keys
press their d-pad buttons as well): a line editor that reads both keeps "Home, Right,
Delete" typed within one frame in order. A game pad's d-pad makes none."""
ARROW_KEYS: Final = (LEFT_KEY, UP_KEY, RIGHT_KEY, DOWN_KEY)

#: Real keys that are software-keyboard keys without typing a character (KEYBOARD codes).
_BOARD_KEYS: Final = {
    pygame.K_ESCAPE: kb.ESC,
    pygame.K_BACKSPACE: kb.BACKSPACE,
    pygame.K_RETURN: kb.ENTER,
    pygame.K_KP_ENTER: kb.ENTER,
    pygame.K_TAB: kb.TAB,
    pygame.K_INSERT: kb.INSERT,
    pygame.K_DELETE: kb.DELETE,
}

#: Real keys that a window's text input does not carry, as key events: ENTER types
#: CHR$(13) like the software keyboard's ENTER key ([SBC] ``keyboard_chr``).
_LINE_KEYS: Final = {
    pygame.K_RETURN: 0x0D,
    pygame.K_KP_ENTER: 0x0D,
    pygame.K_BACKSPACE: BACKSPACE_KEY,
    pygame.K_ESCAPE: CANCEL_KEY,
    pygame.K_DELETE: DELETE_KEY,
    pygame.K_INSERT: INSERT_KEY,
    pygame.K_HOME: HOME_KEY,
    pygame.K_END: END_KEY,
}

#: The PC's arrow keys as key events (they are d-pad buttons too).
_ARROW_EVENTS: Final = {
    pygame.K_LEFT: LEFT_KEY,
    pygame.K_UP: UP_KEY,
    pygame.K_RIGHT: RIGHT_KEY,
    pygame.K_DOWN: DOWN_KEY,
}

#: The PC's F1-F5: the software keyboard's five function keys (FILES, LOAD" ...).
_FUNCTION_KEYS: Final = (pygame.K_F1, pygame.K_F2, pygame.K_F3, pygame.K_F4, pygame.K_F5)


def _clamp(value: int, low: int, high: int) -> int:
    return low if value < low else high if value > high else value


class Input:
    """Latched DS buttons and touch screen, fed by front-ends and injection.

    Args:
        config: key and gamepad maps and cursor settings; ``None`` for the defaults.

    Attributes:
        config: the settings in use.
    """

    def __init__(self, config: ShimConfig | None = None) -> None:
        self.config = config if config is not None else ShimConfig()
        self._key_map = self.config.key_codes()
        self._pad_map = self.config.pad_button_map()
        self._trigger_map = self.config.pad_trigger_map()
        self._toggle_key = _key_or_none(self.config.cursor_toggle_key)
        # Raw state, changed by events at any time.
        self._sources: dict[Hashable, int] = {}  # what each held key/pad input presses
        self._injected = 0
        self._pressed_since = 0  # bits that went down since the last latch
        self._stylus_owner: Hashable | None = None
        #: Touches begun so far, from any source. Taps shorter than a frame count too,
        #: although TCHST can show at most one touch a frame (for counting visitors' taps).
        self.touch_starts = 0
        self._stylus_pos = (0, 0)
        self._stylus_seen = False  # the current touch has been latched at least once
        self._tap: tuple[int, int] | None = None  # a touch that began and ended between latches
        self._cursor_on = False
        self._cursor = (TOUCH_W // 2, TOUCH_H // 2)
        self._cursor_moving = 0
        self._sticks: dict[int, tuple[float, float]] = {}  # instance id -> cursor stick
        self._drops: list[pathlib.Path] = []
        self._typed: deque[int] = deque(maxlen=KEY_BUFFER)  # PTC codes for INKEY$
        #: When a list, every key event typed from a front-end or :meth:`type_text`
        #: (not :meth:`queue_keys`) is also appended to it: a session recorder's tap.
        self.key_log: list[int] | None = None
        #: Keys the host handles itself (pygame key code -> action, e.g. a capture
        #: key): they press no button and type nothing.
        self.host_keys: dict[int, Callable[[int], None]] = {}
        self._board_down = 0  # KEYBOARD code of a real key pressed since the last latch
        #: While True (a line is being typed), Enter, Backspace and Escape only edit
        #: the line: they press no DS button, so Backspace (SELECT by default) cannot
        #: break the program. Other keys bound to SELECT still do.
        self.text_mode = False
        self._board = 0
        self._edit_keys: list[str] = []
        #: What function key n (1-5) types; the machine points it at its panel's KEY
        #: texts, so F1-F5 type what the software keyboard's function keys type.
        self.function_key_text: Callable[[int], bytes] | None = None
        self._devices: dict[int, Any] = {}  # instance id -> open Joystick/Controller
        self._controller_ids: set[int] = set()
        # Latched state, what the program reads.
        self._held = 0
        self._prev = 0
        self._frames = [0] * BUTTON_COUNT
        self._repeat = [(0, 0)] * BUTTON_COUNT
        self._tchx = 0
        self._tchy = 0
        self._tchst = 0
        self._tchtime = 0

    # ------------------------------------------------------------------ program side

    def latch(self) -> None:
        """Take this frame's snapshot: BUTTON modes, BREPEAT counters, touch and the cursor.

        Call exactly once per frame, after the front-end's pump.
        """
        raw = self._raw_buttons() | self._pressed_since
        if self._cursor_on:
            steer = raw & ~self._injected & (DPAD | Button.A)
            self._steer_cursor(steer)
            raw &= ~steer
        self._pressed_since = 0
        self._board, self._board_down = self._board_down, 0
        self._prev = self._held
        self._held = raw
        for bit in range(BUTTON_COUNT):
            self._frames[bit] = self._frames[bit] + 1 if raw >> bit & 1 else 0
        if self._stylus_owner is not None:
            x, y = self._stylus_pos
            self._stylus_seen = True
        elif self._tap is not None:
            x, y = self._tap
        else:
            self._tchst = 0
            self._tchtime = 0
            return
        self._tap = None
        self._tchx, self._tchy = x, y
        self._tchst = 1
        self._tchtime += 1

    def button(self, mode: int = 0) -> int:
        """BUTTON(mode): 0 held, 1 pressed (with BREPEAT repeat), 2 just pressed, 3 just released.

        Raises:
            ValueError: mode is not 0..3.
        """
        if mode == 0:
            return self._held
        if mode == 1:
            return self.btrig()
        if mode == 2:
            return self._held & ~self._prev
        if mode == 3:
            return self._prev & ~self._held
        raise ValueError(f"BUTTON mode must be 0..3, not {mode}")

    def btrig(self) -> int:
        """BTRIG(): BUTTON(1), the just-pressed bits with BREPEAT auto-repeat."""
        out = 0
        for bit, frames in enumerate(self._frames):
            start, interval = self._repeat[bit]
            repeats = interval > 0 and frames > start
            if frames == 1 or (repeats and (frames - 1 - start) % (interval + 1) == 0):
                out |= 1 << bit
        return out

    def brepeat(self, bit: int, start: int | None = None, interval: int | None = None) -> None:
        """BREPEAT bit[,start,interval]: auto-repeat of BUTTON(1)/BTRIG for one button.

        After a press the button fires on its first frame, again on frame
        ``1 + start`` and then every ``interval + 1`` frames while held. Without
        ``start`` and ``interval`` (or with ``interval`` 0, as the emulators
        behave) the button fires only on its first frame.

        Args:
            bit: the button's bit index 0..11 (UP=0 ... SELECT=11), not its mask.
            start: frames before the first repeat, 0 or more.
            interval: frames between repeats minus one, 0 or more.

        Raises:
            ValueError: a value out of range, or only one of start/interval given.
        """
        if not 0 <= bit < BUTTON_COUNT:
            raise ValueError(f"BREPEAT button index must be 0..11, not {bit}")
        if start is None and interval is None:
            self._repeat[bit] = (0, 0)
            return
        if start is None or interval is None:
            raise ValueError("BREPEAT needs both start and interval, or neither")
        if start < 0 or interval < 0:
            raise ValueError(
                f"BREPEAT start and interval must be 0 or more, not {start},{interval}"
            )
        self._repeat[bit] = (start, interval)

    @property
    def tchx(self) -> int:
        """TCHX: stylus x 0..255 at the last latch; keeps its value after release."""
        return self._tchx

    @property
    def tchy(self) -> int:
        """TCHY: stylus y 0..191 at the last latch; keeps its value after release."""
        return self._tchy

    @property
    def tchst(self) -> int:
        """TCHST: 1 while the screen is touched, else 0."""
        return self._tchst

    @property
    def tchtime(self) -> int:
        """TCHTIME: frames the current touch has lasted (1 on its first frame), 0 when released."""
        return self._tchtime

    def dropped_files(self) -> list[pathlib.Path]:
        """Return the files dropped on any window since the last call (oldest first)."""
        out, self._drops = self._drops, []
        return out

    def inkey(self) -> str:
        """INKEY$: the oldest character typed and not yet read, or "" (PTC charset).

        Unlike the buttons this is a queue, not a per-frame snapshot: PTC buffers
        what the keyboard types ([EMK], [SBC] ``get_inkey``). Backspace and
        cancel events (:meth:`read_key`) are skipped: they have no character.
        """
        while self._typed:
            code = self._typed.popleft()
            if code >= 0:
                return charset.from_ptc(bytes((code,)))
        return ""

    @property
    def keyboard_code(self) -> int:
        """KEYBOARD of the real keyboard: the software key (1-69) matching a PC key
        pressed in the last frame, for that one frame; 0 otherwise."""
        return self._board

    def keys_waiting(self) -> bool:
        """Whether a typed key event waits in the queue (INKEY$ or a line editor's)."""
        return bool(self._typed)

    def read_key(self) -> int | None:
        """The oldest typed key event, or None: a PTC code, or one of the negative
        events :data:`BACKSPACE_KEY` and :data:`CANCEL_KEY` (for a line editor)."""
        return self._typed.popleft() if self._typed else None

    def queue_keys(self, events: Iterable[int]) -> None:
        """Queue key events (PTC codes or the negative events) as if typed."""
        self._typed.extend(events)

    def edit_keys(self) -> list[str]:
        """Return the clipboard shortcuts ("copy", "paste") typed since the last call."""
        out, self._edit_keys = self._edit_keys, []
        return out

    @property
    def cursor_visible(self) -> bool:
        """True while the keyboard/gamepad stylus cursor is shown (and steals d-pad and A)."""
        return self._cursor_on

    @property
    def cursor_pos(self) -> tuple[int, int]:
        """Bottom-screen pixel under the stylus cursor."""
        return self._cursor

    @property
    def cursor_touching(self) -> bool:
        """True while the cursor, not a mouse, finger or injection, holds the stylus."""
        return self._stylus_owner == _CURSOR

    # ------------------------------------------------------------------ injection

    def press(self, mask: int) -> None:
        """Hold DS buttons (a mask of :class:`Button` bits) until :meth:`release`."""
        mask &= (1 << BUTTON_COUNT) - 1
        self._pressed_since |= mask & ~self._injected
        self._injected |= mask

    def release(self, mask: int) -> None:
        """Let go of injected DS buttons."""
        self._injected &= ~mask

    def touch(self, x: int, y: int) -> None:
        """Put the stylus down (or move it) at bottom-screen pixel (x, y); overrides other sources.

        Raises:
            ValueError: the pixel is off the 256x192 touch screen.
        """
        if not (0 <= x < TOUCH_W and 0 <= y < TOUCH_H):
            raise ValueError(f"touch position must be inside 0..255, 0..191, not ({x}, {y})")
        if self._stylus_owner != _INJECT:
            self._stylus_owner = None
        self.stylus_down(_INJECT, x, y)
        self.stylus_move(_INJECT, x, y)

    def untouch(self) -> None:
        """Lift an injected stylus (no effect on a mouse, finger or cursor touch)."""
        self.stylus_up(_INJECT)

    def drop_file(self, path: str | pathlib.Path) -> None:
        """Queue a file as if it had been dropped on a window."""
        self._drops.append(pathlib.Path(path))

    def type_text(self, text: str) -> None:
        """Queue typed text for INKEY$ (a window's text input, or a test).

        Characters the PTC charset cannot show are dropped; a line break is CHR$(13).
        """
        for char in text:
            if charset.is_mappable(char):
                codes = charset.to_ptc(char)
                self._typed.extend(codes)
                if self.key_log is not None:
                    self.key_log.extend(codes)

    def edit_key(self, name: str) -> None:
        """Queue a clipboard shortcut ("copy" or "paste") as if typed.

        Raises:
            ValueError: another name.
        """
        if name not in EDIT_KEYS:
            raise ValueError(f"edit key must be one of {EDIT_KEYS}, not {name!r}")
        self._edit_keys.append(name)

    # ------------------------------------------------------------------ front-end side

    def stylus_down(self, source: Hashable, x: int, y: int) -> bool:
        """Start a touch from ``source`` (e.g. ``("mouse",)``) at a bottom-screen pixel.

        Only one source holds the stylus at a time: while another one does, this
        is ignored. Coordinates are clamped to the screen.

        Returns:
            True when ``source`` now holds the stylus.
        """
        if self._stylus_owner is not None and self._stylus_owner != source:
            return False
        if self._stylus_owner is None:
            self._stylus_seen = False
            self.touch_starts += 1
        self._stylus_owner = source
        self._stylus_pos = (_clamp(x, 0, TOUCH_W - 1), _clamp(y, 0, TOUCH_H - 1))
        return True

    def stylus_move(self, source: Hashable, x: int, y: int) -> None:
        """Drag the stylus held by ``source``; the position is clamped to the screen."""
        if self._stylus_owner == source:
            self._stylus_pos = (_clamp(x, 0, TOUCH_W - 1), _clamp(y, 0, TOUCH_H - 1))

    def stylus_up(self, source: Hashable) -> None:
        """End the touch held by ``source`` (ignored for any other source)."""
        if self._stylus_owner != source:
            return
        if not self._stylus_seen:
            self._tap = self._stylus_pos
        self._stylus_owner = None

    def stylus_owner(self) -> Hashable | None:
        """The source holding the stylus now (raw, not latched), or None."""
        return self._stylus_owner

    def key_down(self, key: int, mod: int = 0) -> None:
        """A keyboard key went down (pygame key code and KMOD_* modifier bits).

        Ctrl+C / Ctrl+V (Cmd on macOS) are clipboard shortcuts for :meth:`edit_keys`
        and press no DS button; nor does, in :attr:`text_mode`, a key that types.
        Ctrl+Z is "undo" there and still presses what Z presses. F1-F5 type the
        function keys' texts (:attr:`function_key_text`).
        """
        host = self.host_keys.get(key)
        if host is not None:
            host(mod)
            return
        if mod & (pygame.KMOD_CTRL | pygame.KMOD_META) and key in _EDIT_KEY_CODES:
            self._edit_keys.append(_EDIT_KEY_CODES[key])
            if key != pygame.K_z:  # Ctrl+Z still presses Z's button (the game's undo key)
                return
        if key == self._toggle_key:
            self.toggle_cursor()
            return
        if key in _FUNCTION_KEYS and self.function_key_text is not None:
            text = self.function_key_text(_FUNCTION_KEYS.index(key) + 1)
            self._typed.extend(text)
            if self.key_log is not None:
                self.key_log.extend(text)
        if key in _ARROW_EVENTS:  # not logged: a recording has the arrows as d-pad B lines
            self._typed.append(_ARROW_EVENTS[key])
        event = _LINE_KEYS.get(key)
        if event is not None:
            self._typed.append(event)  # and, unless a line is being typed, its DS button
            if self.key_log is not None:
                self.key_log.append(event)
        board = _BOARD_KEYS.get(key) or (kb.key_for_char(key) if 32 <= key < 127 else 0)
        if board:
            self._board_down = board
        if self.text_mode and (event is not None or 32 <= key < 127):
            # A line is being typed: a key that types (a letter, space) presses no DS
            # button, so typing "x" does not press A, which ends INPUT's line.
            return
        mask = self._key_map.get(key)
        if mask:
            self._set_source(("key", key), int(mask))

    def key_up(self, key: int) -> None:
        """A keyboard key went up."""
        self._set_source(("key", key), 0)

    def release_all(self) -> None:
        """Let go of every held key, pad input and pointer touch.

        Called when a window loses focus: SDL stops sending their releases
        then, and a stuck button or stylus is worse than a lost one. Injected
        buttons and touches, and the cursor, are left alone.
        """
        self._sources.clear()
        self._sticks.clear()
        if self._stylus_owner not in (None, _INJECT, _CURSOR):
            self.stylus_up(self._stylus_owner)

    def toggle_cursor(self) -> None:
        """Show or hide the stylus cursor; hiding it lifts a cursor touch."""
        self._cursor_on = not self._cursor_on
        self._cursor_moving = 0
        if not self._cursor_on:
            self.stylus_up(_CURSOR)

    def handle_pad_event(self, event: pygame.event.Event) -> bool:
        """Feed a joystick or game-controller event (including hot-plug).

        Game controllers SDL knows are opened through ``pygame._sdl2.controller``
        and read by their standard names; the joystick events SDL also sends for
        them are ignored so a press is not counted twice. Other pads are read as
        raw joysticks (buttons by number, first hat and first two axes as d-pad).

        Returns:
            True if the event was a pad event.
        """
        kind = event.type
        if kind == pygame.JOYDEVICEADDED:
            self._open_device(int(event.device_index))
        elif kind in (pygame.JOYDEVICEREMOVED, pygame.CONTROLLERDEVICEREMOVED):
            self._close_device(int(event.instance_id))
        elif kind in (pygame.CONTROLLERBUTTONDOWN, pygame.CONTROLLERBUTTONUP):
            self._controller_button(event)
        elif kind == pygame.CONTROLLERAXISMOTION:
            self._controller_axis(int(event.instance_id), int(event.axis), float(event.value))
        elif kind in (pygame.JOYBUTTONDOWN, pygame.JOYBUTTONUP):
            iid = int(event.instance_id)
            if iid not in self._controller_ids:
                mask = self.config.joystick_buttons.get(int(event.button), 0)
                down = kind == pygame.JOYBUTTONDOWN
                self._set_source(("joy", iid, "button", int(event.button)), mask if down else 0)
        elif kind == pygame.JOYHATMOTION:
            iid = int(event.instance_id)
            if iid not in self._controller_ids and int(event.hat) == 0:
                hx, hy = event.value
                mask = (Button.LEFT if hx < 0 else Button.RIGHT if hx > 0 else 0) | (
                    Button.UP if hy > 0 else Button.DOWN if hy < 0 else 0
                )
                self._set_source(("joy", iid, "hat"), int(mask))
        elif kind == pygame.JOYAXISMOTION:
            iid = int(event.instance_id)
            if iid not in self._controller_ids and int(event.axis) in (0, 1):
                self._stick(("joy", iid, "axis", int(event.axis)), int(event.axis), event.value)
        else:
            return False
        return True

    # ------------------------------------------------------------------ internals

    def _raw_buttons(self) -> int:
        held = self._injected
        for mask in self._sources.values():
            held |= mask
        return held

    def _set_source(self, source: Hashable, mask: int) -> None:
        old = self._sources.get(source, 0)
        if mask:
            self._sources[source] = mask
            self._pressed_since |= mask & ~old
        else:
            self._sources.pop(source, None)

    def _stick(self, source: Hashable, axis: int, value: float) -> None:
        """One stick axis (-1..1) as two d-pad directions past the dead zone."""
        low, high = (Button.LEFT, Button.RIGHT) if axis == 0 else (Button.UP, Button.DOWN)
        dead = self.config.stick_deadzone
        mask = low if value <= -dead else high if value >= dead else 0
        self._set_source(source, int(mask))

    def _controller_button(self, event: pygame.event.Event) -> None:
        iid = int(event.instance_id)
        index = int(event.button)
        down = event.type == pygame.CONTROLLERBUTTONDOWN
        pads = self.config
        if index == _pad_index(pads.cursor_toggle_pad):
            if down:
                self.toggle_cursor()
            return
        mask = int(self._pad_map.get(index, 0))
        self._set_source(("pad", iid, "button", index), mask if down else 0)

    def _controller_axis(self, iid: int, axis: int, raw: float) -> None:
        value = max(-1.0, min(1.0, raw / _AXIS_MAX))
        if axis in self._trigger_map:
            pressed = value >= self.config.stick_deadzone
            mask = int(self._trigger_map[axis]) if pressed else 0
            self._set_source(("pad", iid, "axis", axis), mask)
        elif axis in (pygame.CONTROLLER_AXIS_LEFTX, pygame.CONTROLLER_AXIS_LEFTY):
            self._stick(("pad", iid, "axis", axis), 0 if axis == 0 else 1, value)
        elif axis in (pygame.CONTROLLER_AXIS_RIGHTX, pygame.CONTROLLER_AXIS_RIGHTY):
            sx, sy = self._sticks.get(iid, (0.0, 0.0))
            if axis == pygame.CONTROLLER_AXIS_RIGHTX:
                sx = value
            else:
                sy = value
            self._sticks[iid] = (sx, sy)

    def _open_device(self, index: int) -> None:
        """Open a newly plugged pad so SDL starts sending its events."""
        try:
            from pygame._sdl2 import controller

            if not controller.get_init():
                controller.init()
            if controller.is_controller(index):
                pad = controller.Controller(index)
                iid = int(pad.as_joystick().get_instance_id())
                self._controller_ids.add(iid)
                self._devices[iid] = pad
                return
        except (ImportError, pygame.error):
            pass  # no game-controller support: read it as a raw joystick below
        try:
            joy = pygame.joystick.Joystick(index)
        except pygame.error:
            return  # unplugged again before we got to it
        self._devices[int(joy.get_instance_id())] = joy

    def _close_device(self, iid: int) -> None:
        """Forget an unplugged pad and everything it was pressing."""
        self._devices.pop(iid, None)
        self._controller_ids.discard(iid)
        self._sticks.pop(iid, None)
        for source in list(self._sources):
            if isinstance(source, tuple) and source[0] in ("pad", "joy") and source[1] == iid:
                self._sources.pop(source)

    def _steer_cursor(self, steer: int) -> None:
        """Move the cursor one frame's worth and touch with it while A is held."""
        cfg = self.config
        dx = (1 if steer & Button.RIGHT else 0) - (1 if steer & Button.LEFT else 0)
        dy = (1 if steer & Button.DOWN else 0) - (1 if steer & Button.UP else 0)
        fast = self._cursor_moving >= cfg.cursor_accel_frames
        speed = cfg.cursor_fast_speed if fast else cfg.cursor_speed
        step_x, step_y = dx * speed, dy * speed
        for sx, sy in self._sticks.values():
            # The right stick moves the cursor proportionally (fast speed at full tilt).
            if abs(sx) >= 0.2:
                step_x += round(sx * cfg.cursor_fast_speed)
            if abs(sy) >= 0.2:
                step_y += round(sy * cfg.cursor_fast_speed)
        if step_x or step_y:
            self._cursor_moving += 1
        else:
            self._cursor_moving = 0
        x, y = self._cursor
        self._cursor = (_clamp(x + step_x, 0, TOUCH_W - 1), _clamp(y + step_y, 0, TOUCH_H - 1))
        if steer & Button.A:
            self.stylus_down(_CURSOR, *self._cursor)
        else:
            self.stylus_up(_CURSOR)


def _key_or_none(name: str) -> int | None:
    try:
        return key_code(name)
    except ValueError:
        return None


def _pad_index(name: str) -> int:
    return PAD_BUTTONS.get(name, -1)
