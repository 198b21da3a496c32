"""The lower screen's panel: PNLTYPE's keyboards, function keys, icons and PNLSTR's text layer.

:class:`Panel` holds the state the PTC keywords set (PNLTYPE, KEY, ICONSET,
ICONPUSE/ICONPAGE/ICONPMAX, PNLSTR), turns the latched stylus into key presses
once per frame (:meth:`Panel.touch`) and draws itself in two passes that
:class:`~petitcom_shim.video.compose.ScreenVideo` puts among the lower screen's
layers (docs/petitcom-decisions.md "Panel and keyboard"):

* :meth:`Panel.draw_under`: the panel or keyboard with its function keys, and
  the PNLSTR text layer, in front of the console and behind GRP/sprites of
  priority 0 ([SBC] ``display_draw_all``);
* :meth:`Panel.draw_over`: the icons and ICONPAGE's buttons, in front of
  everything and shown even with PNLTYPE "OFF" ([WIKI] ICONPAGE).

Where the keys are and what they type is :mod:`petitcom_shim.keyboard`. The
art (colours, key shapes, the 65 icon pictures) is ours, drawn here in code;
labels use the lower screen's font bank (BGF0L), as PTC's key text does.
"""

from __future__ import annotations

import colorsys
from collections.abc import Callable

import numpy as np
import pygame

from petitcom_shim import keyboard as kb
from petitcom_shim.errors import IllegalFunctionCall, OutOfRange
from petitcom_shim.input import BACKSPACE_KEY, CANCEL_KEY, DELETE_KEY
from petitcom_shim.numbers import to_int
from petitcom_shim.video.chr import ChrStore
from petitcom_shim.video.console import COLS, ROWS, Console
from petitcom_shim.video.palette import Palettes
from petitcom_shim.video.surfaces import keyed_surface, new_surface

__all__ = [
    "ICON_COUNT",
    "PANEL_TYPES",
    "REPEAT_INTERVAL",
    "REPEAT_START",
    "Panel",
    "repeat_fires",
]

#: PNLTYPE's panel names: off, plain panel, alphanumeric, symbol and kana keyboards.
PANEL_TYPES = ("OFF", "PNL", "KYA", "KYM", "KYK")
#: ICONSET's pictures are numbered 0-64 ([SBC] ``cmd_iconset`` range).
ICON_COUNT = 65
#: A held key fires on its first frame, again after REPEAT_START frames and then
#: every REPEAT_INTERVAL frames ([SBC] ``get_pressed_key``: check_repeat 30, 4).
REPEAT_START = 30
REPEAT_INTERVAL = 4
#: Factory text of the function keys ([SBC] ``init_panel``, [EMK] PanelKeyboard).
DEFAULT_FUNCTION_KEYS = ("FILES", 'LOAD"', 'SAVE"', "CONT", "RUN")

# Our own colours (0xRRGGBB).
_BACK = 0x20283A
_BAND = 0x2C3850
_LINE = 0x5A6C90
_KEY = 0xE8E4D8
_KEY_EDGE = 0x8C8878
_KEY_DOWN = 0xB8B4A8
_SPECIAL = 0x9CB4D8
_SPECIAL_EDGE = 0x58709C
_LIT = 0xF8D070
_INK = 0x202020
_PANEL = 0x1C5058
_PANEL_DOT = 0x2A6A74
_PANEL_FRAME = 0x6AA8B0


def repeat_fires(frames: int) -> bool:
    """True on the frames a held key types: its first, then the auto-repeat ones."""
    if frames == 1:
        return True
    return frames > REPEAT_START and (frames - 1 - REPEAT_START) % REPEAT_INTERVAL == 0


def _icon_colour(n: int) -> int:
    r, g, b = colorsys.hsv_to_rgb((n % 16) / 16, 0.65, 0.9)
    return int(r * 255) << 16 | int(g * 255) << 8 | int(b * 255)


class Panel:
    """PTC's lower-screen panel state, touch handling and drawing.

    Args:
        chr_store: the CHR banks; labels use the lower screen's font (BGF0L).
        palettes: the lower screen's palettes (PNLSTR colours are COL0 palettes).
        to_ptc: text -> PTC character codes.
    """

    def __init__(
        self, chr_store: ChrStore, palettes: Palettes, to_ptc: Callable[[str], bytes]
    ) -> None:
        self._chr = chr_store
        self._to_ptc = to_ptc
        self.kind = "OFF"
        self.shift = False
        self.caps = False
        self.insert = True
        self.function_keys = [to_ptc(text) for text in DEFAULT_FUNCTION_KEYS]
        self.icons: list[int | None] = [None, None, None, None]
        self.iconpuse = False
        self._iconpmax = 0
        self._iconpage = 0
        #: PNLSTR's text layer: a 32x24 console of the lower screen's own.
        self.text = Console(1, chr_store, palettes, to_ptc)
        self._text_used = False  # no PNLSTR yet: nothing to blit
        self._pressed: kb.Key | None = None
        self._frames = 0  # frames the pressed key has been held
        self._slid_off = False  # the stylus left its key: nothing more until it lifts
        self._fired = 0  # the code that typed this frame (0: none)
        self.version = 0
        self._cache: dict[tuple[object, ...], pygame.Surface] = {}
        self._under: pygame.Surface | None = None
        self._under_key: tuple[object, ...] = ()

    # -- keyword state ---------------------------------------------------------
    def set_kind(self, kind: str) -> None:
        """PNLTYPE.

        Raises:
            IllegalFunctionCall: a name other than PANEL_TYPES.
        """
        name = str(kind).upper()
        if name not in PANEL_TYPES:
            names = ", ".join(PANEL_TYPES)
            raise IllegalFunctionCall(f"PNLTYPE must be one of {names}, got {kind!r}")
        if name != self.kind:
            self.kind = name
            self._release()
            self._touch()

    @property
    def keyboard_shown(self) -> bool:
        """True while one of the three keyboards is up."""
        return self.kind in kb.KEYBOARD_TYPES

    def set_function_key(self, n: int, text: str) -> None:
        """KEY n,text: what function key n (1-5) types.

        Raises:
            OutOfRange: n not 1-5.
        """
        n = to_int(n)
        if not 1 <= n <= 5:
            raise OutOfRange(f"function key {n} not in 1-5")
        self.function_keys[n - 1] = self._to_ptc(str(text))
        self._touch()

    def iconset(self, slot: int, icon: int) -> None:
        """ICONSET slot,icon: show picture ``icon`` (0-64) in slot 0-3.

        Raises:
            OutOfRange: slot or icon out of range.
        """
        slot, icon = to_int(slot), to_int(icon)
        if not 0 <= slot <= 3:
            raise OutOfRange(f"icon slot {slot} not in 0-3")
        if not 0 <= icon < ICON_COUNT:
            raise OutOfRange(f"icon {icon} not in 0-{ICON_COUNT - 1}")
        self.icons[slot] = icon
        self._touch()

    def iconclr(self, slot: int | None = None) -> None:
        """ICONCLR [slot]: empty one icon slot or all four.

        Raises:
            OutOfRange: slot not 0-3.
        """
        if slot is None:
            self.icons = [None, None, None, None]
        else:
            slot = to_int(slot)
            if not 0 <= slot <= 3:
                raise OutOfRange(f"icon slot {slot} not in 0-3")
            self.icons[slot] = None
        self._touch()

    @property
    def iconpmax(self) -> int:
        """ICONPMAX: the last icon page; negative values become 0, fractions round down."""
        return self._iconpmax

    @iconpmax.setter
    def iconpmax(self, value: float) -> None:
        self._iconpmax = max(int(np.floor(value)), 0)
        self._iconpage = min(self._iconpage, self._iconpmax)

    @property
    def iconpage(self) -> int:
        """ICONPAGE: the icon page, kept within 0..ICONPMAX ([WIKI] ICONPAGE)."""
        return self._iconpage

    @iconpage.setter
    def iconpage(self, value: float) -> None:
        self._iconpage = min(max(int(np.floor(value)), 0), self._iconpmax)

    def set_iconpuse(self, value: bool) -> None:
        """ICONPUSE: show the ICONPAGE up/down buttons."""
        if bool(value) != self.iconpuse:
            self.iconpuse = bool(value)
            self._touch()

    def pnlstr(self, x: int, y: int, text: str, colour: int = 0) -> None:
        """PNLSTR x,y,text[,c]: write on the panel's text layer, stopping at the line's end.

        x or y off the 32x24 grid writes nothing ([SBC] ``cmd_pnlstr`` ignores it).

        Raises:
            OutOfRange: colour not 0-15.
        """
        x, y, colour = to_int(x), to_int(y), to_int(colour)
        if not 0 <= colour <= 15:
            raise OutOfRange(f"PNLSTR colour {colour} not in 0-15")
        if not (0 <= x < COLS and 0 <= y < ROWS):
            return
        codes = bytes(c if c != 0x0D else 0x20 for c in self._to_ptc(str(text)))
        self._text_used = True
        self.text.locate(x, y)
        self.text.color(colour)
        self.text.print_items([codes[: COLS - x]], ";", "")

    # -- touch -----------------------------------------------------------------
    def _areas(self, shown: bool) -> tuple[kb.Key, ...]:
        areas: tuple[kb.Key, ...] = ()
        if shown and self.keyboard_shown:
            areas += kb.KEYS
        if shown:
            areas += tuple(a for n, a in enumerate(kb.ICON_AREAS) if self.icons[n] is not None)
            if self.iconpuse:
                areas += kb.ICON_PAGE_AREAS
        return areas

    def touch(self, down: bool, x: int, y: int, shown: bool = True) -> list[int]:
        """One frame of the latched stylus; returns the key events this frame typed.

        Events are PTC codes, or :data:`BACKSPACE_KEY` / :data:`DELETE_KEY` /
        :data:`CANCEL_KEY`. A key
        stays pressed while the stylus stays on it and auto-repeats
        (:func:`repeat_fires`); sliding off releases it, and nothing more is
        pressed until the stylus lifts ([SBC] ``press_key``, [EMK] ``touch_keys``).
        ``shown`` is VISIBLE's panel flag: a hidden panel has nothing to touch.
        """
        self._fired = 0
        if not down:
            self._release()
            self._slid_off = False
            return []
        if self._pressed is not None:
            if self._pressed.contains(x, y):
                self._frames += 1
            else:
                self._release()
                self._slid_off = True
        elif not self._slid_off:
            key = kb.key_at(x, y, self._areas(shown))
            if key is not None:
                self._pressed = key
                self._frames = 1
                self._touch()
        if self._pressed is None or not repeat_fires(self._frames):
            return []
        self._fired = self._pressed.code
        return self._act(self._pressed.code)

    def _release(self) -> None:
        if self._pressed is not None:
            self._pressed = None
            self._touch()
        self._frames = 0

    def _act(self, code: int) -> list[int]:
        """What a key does when it fires."""
        if code == kb.SHIFT:
            self.shift = not self.shift
        elif code == kb.CAPS:
            self.caps = not self.caps
        elif code in (kb.SWITCH_KYA, kb.SWITCH_KYM, kb.SWITCH_KYK):
            self.kind = kb.KEYBOARD_TYPES[code - kb.SWITCH_KYA]
        elif code == kb.INSERT:
            self.insert = not self.insert
        elif code == kb.BACKSPACE:
            return [BACKSPACE_KEY]
        elif code == kb.DELETE:
            return [DELETE_KEY]  # deletes the character under the cursor
        elif code == kb.ESC:
            return [CANCEL_KEY]
        elif code in kb.FUNCTION_KEYS:
            return list(self.function_keys[code - kb.FUNCTION_KEYS[0]])
        elif code == kb.ICON_UP:
            self.iconpage = self._iconpage - 1
        elif code == kb.ICON_DOWN:
            self.iconpage = self._iconpage + 1
        else:
            typed = kb.typed_codes(self.kind, self.shift != self.caps, code)
            if typed and self.shift:
                self.shift = False  # SHIFT holds for one character
                self._touch()
            return list(typed)
        self._touch()
        return []

    def toggle_insert(self) -> None:
        """INS: switch between insert and overwrite (the key is lit while inserting)."""
        self.insert = not self.insert
        self._touch()

    def function_key_text(self, n: int) -> bytes:
        """What function key ``n`` (1-5) types: its KEY text (FILES, LOAD" ... at start)."""
        return self.function_keys[n - 1] if 1 <= n <= len(self.function_keys) else b""

    @property
    def fired(self) -> int:
        """The code of the touch area that fired this frame (any key, including 70
        HELP, 71 RUN/STOP, 72 EDIT, the icons and function keys, and its
        auto-repeats), else 0."""
        return self._fired

    @property
    def just_pressed(self) -> int:
        """Like :attr:`fired`, but only on the frame the key went down (no auto-repeat):
        a command key (RUN/STOP, EDIT) acts once per press, however long it is held."""
        return self._fired if self._frames == 1 else 0

    @property
    def keyboard_code(self) -> int:
        """KEYBOARD: the keyboard key (1-69) typing this frame, else 0."""
        return self._fired if self._fired <= kb.LAST_KEYBOARD_CODE else 0

    @property
    def funcno(self) -> int:
        """FUNCNO: the function key (1-5) typing this frame, else 0."""
        code = self._fired
        return code - kb.FUNCTION_KEYS[0] + 1 if code in kb.FUNCTION_KEYS else 0

    @property
    def iconchk(self) -> int:
        """ICONCHK(): the icon slot (0-3) being touched this frame, else -1."""
        code = self._fired
        return code - kb.ICON_KEYS[0] if code in kb.ICON_KEYS else -1

    # -- drawing -----------------------------------------------------------------
    def _touch(self) -> None:
        self.version += 1

    def look(self, shown: bool) -> tuple[object, ...]:
        """Everything the panel's picture depends on (for change detection)."""
        text = self.text
        return (
            shown,
            self.version,
            self._chr.version["BGF", 1],
            b"".join(text._codes),
            b"".join(text._fgs),
        )

    def draw_under(self, target: pygame.Surface, shown: bool) -> None:
        """The panel or keyboard (if shown) and the PNLSTR text layer."""
        if shown and self.kind != "OFF":
            key = (self.version, self._chr.version["BGF", 1])
            if self._under is None or key != self._under_key:
                self._under = self._render_under()
                self._under_key = key
            target.blit(self._under, (0, 0))
        if self._text_used and (not self.keyboard_shown or not shown):
            target.blit(self.text.surface(), (0, 0))

    def draw_over(self, target: pygame.Surface, shown: bool) -> None:
        """The icons and the ICONPAGE buttons, in front of every other layer."""
        if not shown:
            return
        for n, area in enumerate(kb.ICON_AREAS):
            icon = self.icons[n]
            if icon is not None:
                down = 1 if self._pressed is area else 0
                target.blit(self._icon(icon), (area.x + down, area.y + down))
        if self.iconpuse:
            for area in kb.ICON_PAGE_AREAS:
                self._draw_page_button(target, area)

    def _render_under(self) -> pygame.Surface:
        surface = new_surface(256, 192)
        if self.kind == "PNL":
            self._draw_plain_panel(surface)
            return surface
        surface.fill(_BACK)
        surface.fill(_BAND, (0, 16, 256, 32))
        pygame.draw.line(surface, _LINE, (0, 16), (255, 16))
        pygame.draw.line(surface, _LINE, (0, 47), (255, 47))
        pygame.draw.line(surface, _LINE, (0, 164), (255, 164))
        for key in kb.KEYS:
            self._draw_key(surface, key)
        return surface

    def _draw_plain_panel(self, surface: pygame.Surface) -> None:
        surface.fill(_PANEL)
        for y in range(4, 192, 8):
            for x in range(4 + (y // 8 % 2) * 4, 256, 8):
                surface.set_at((x, y), _PANEL_DOT)
        pygame.draw.rect(surface, _PANEL_FRAME, (0, 0, 256, 192), 2)
        pygame.draw.rect(surface, _PANEL_FRAME, (4, 4, 248, 184), 1)

    def _label(self, key: kb.Key) -> bytes:
        if key.code in kb.FUNCTION_KEYS:
            text = self.function_keys[key.code - kb.FUNCTION_KEYS[0]]
            return text[:4] + b"." if len(text) > 4 else text  # [SBC] set_function_key
        if key.label:
            return _SPECIAL_LABELS.get(key.label, key.label.encode("ascii"))
        return kb.typed_codes(self.kind, self.shift != self.caps, key.code)

    def _lit(self, key: kb.Key) -> bool:
        code = key.code
        if code == kb.SHIFT:
            return self.shift
        if code == kb.CAPS:
            return self.caps
        if code == kb.INSERT:
            return self.insert
        if code in (kb.SWITCH_KYA, kb.SWITCH_KYM, kb.SWITCH_KYK):
            return self.kind == kb.KEYBOARD_TYPES[code - kb.SWITCH_KYA]
        return False

    def _draw_key(self, surface: pygame.Surface, key: kb.Key) -> None:
        down = self._pressed is key
        special = bool(key.label)
        face = _LIT if self._lit(key) else _SPECIAL if special else _KEY
        edge = _SPECIAL_EDGE if special else _KEY_EDGE
        if down:
            face = _KEY_DOWN
        x, y, w, h = key.x + 1, key.y + 1, key.w - 2, key.h - 2
        if key.code in kb.FUNCTION_KEYS:
            y, h = key.y, key.h - 1
        offset = 1 if down else 0
        if not down:
            pygame.draw.rect(surface, edge, (x, y + 1, w, h), border_radius=3)
        pygame.draw.rect(surface, face, (x, y + offset, w, h - 1), border_radius=3)
        if key.label in _TINY_LABELS:  # INS and DEL: 16-pixel keys side by side
            text = self._tiny_text(key.label, _INK)
            tx = key.x + (key.w - text.get_width()) // 2 + offset
            surface.blit(text, (tx, y + offset + (h - 1 - text.get_height()) // 2))
            return
        label = self._label(key)
        if not label:
            return
        text = self._text(label, _INK)
        if text.get_width() > w:
            text = self._text(label, _INK, 7)  # close the glyphs up a pixel to fit
        tx = key.x + (key.w - text.get_width()) // 2 + offset
        ty = y + offset + (h - 1 - 8) // 2
        surface.blit(text, (tx, ty))

    def _tiny_text(self, text: str, colour: int) -> pygame.Surface:
        """``text`` in our 5-pixel-high key font (:data:`_TINY_FONT`), a pixel between glyphs."""
        key = ("tiny", text, colour)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        glyphs = [_TINY_FONT[char] for char in text]
        width = sum(len(rows[0]) for rows in glyphs) + len(glyphs) - 1
        surface = keyed_surface(width, 5)
        left = 0
        for rows in glyphs:
            for gy, row in enumerate(rows):
                for gx, bit in enumerate(row):
                    if bit == "1":
                        surface.set_at((left + gx, gy), colour)
            left += len(rows[0]) + 1
        self._cache[key] = surface
        return surface

    def _text(self, codes: bytes, colour: int, advance: int = 8) -> pygame.Surface:
        """A string of PTC codes in the lower screen's font, ink only (keyed), its
        glyphs ``advance`` pixels apart."""
        key = ("text", codes, colour, advance, self._chr.version["BGF", 1])
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        font = self._chr.family_tiles("BGF", 1)
        strip = np.zeros((8, advance * max(len(codes) - 1, 0) + 8), np.uint8)
        for i, code in enumerate(codes):
            strip[:, i * advance : i * advance + 8] |= font[code]
        inked = np.flatnonzero(strip.any(axis=0))
        if len(inked):  # measure by the ink, not the 8-pixel cells, so labels centre
            strip = strip[:, inked[0] : inked[-1] + 1]
        surface = keyed_surface(strip.shape[1], 8)
        ink = pygame.surfarray.pixels2d(surface)
        ink[strip.T != 0] = colour
        del ink
        self._cache[key] = surface
        return surface

    def _icon(self, n: int) -> pygame.Surface:
        """Icon picture n: a coloured tile with one of four shapes and its number."""
        key = ("icon", n, self._chr.version["BGF", 1])
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        surface = keyed_surface(24, 24)
        pygame.draw.rect(surface, 0x101010, (0, 0, 24, 24), border_radius=4)
        pygame.draw.rect(surface, _icon_colour(n), (1, 1, 22, 22), border_radius=4)
        shape = n // 16 % 4
        white = 0xF8F8F8
        if shape == 0:
            pygame.draw.circle(surface, white, (12, 9), 5)
        elif shape == 1:
            pygame.draw.rect(surface, white, (7, 4, 10, 10))
        elif shape == 2:
            pygame.draw.polygon(surface, white, [(12, 3), (18, 9), (12, 15), (6, 9)])
        else:
            pygame.draw.polygon(surface, white, [(12, 3), (18, 15), (6, 15)])
        number = self._text(str(n).encode("ascii"), 0x101010)
        surface.blit(number, ((24 - number.get_width()) // 2, 15))
        self._cache[key] = surface
        return surface

    def _draw_page_button(self, target: pygame.Surface, area: kb.Key) -> None:
        down = 1 if self._pressed is area else 0
        x, y = area.x + down, area.y + down
        pygame.draw.rect(target, 0x101010, (x, y, area.w, area.h), border_radius=2)
        pygame.draw.rect(target, _SPECIAL, (x + 1, y + 1, area.w - 2, area.h - 2), border_radius=2)
        cx = x + area.w // 2
        if area.code == kb.ICON_UP:
            points = [(cx, y + 3), (cx + 4, y + 8), (cx - 4, y + 8)]
        else:
            points = [(cx - 4, y + 3), (cx + 4, y + 3), (cx, y + 8)]
        pygame.draw.polygon(target, _INK, points)


#: Our own 5-pixel-high glyphs for the labels of the two 16-pixel keys side by side,
#: INS and DEL: in the 8x8 font their labels fill the keys edge to edge and read as
#: one word ("INDL", issue 26). Rows of pixels, "1" inked.
_TINY_FONT: dict[str, tuple[str, ...]] = {
    "I": ("111", "010", "010", "010", "111"),
    "N": ("1001", "1101", "1011", "1001", "1001"),
    "S": ("011", "100", "010", "001", "110"),
    "D": ("110", "101", "101", "101", "110"),
    "E": ("111", "100", "110", "100", "111"),
    "L": ("100", "100", "100", "100", "111"),
}
_TINY_LABELS = frozenset({"INS", "DEL"})

#: Labels of the special keys that do not fit as plain text (PTC codes).
_SPECIAL_LABELS: dict[str, bytes] = {
    "SHIFT": b"SHFT",
    "ENTER": b"RET",
    "CAPS": b"Aa",
    "KYA": b"A",
    "KYM": b"\xf0",
    "KYK": b"\xb1",
    "SEARCH": b"?",
    "RUN/STOP": b"RUN",
    "EXIT": b"X",
}
