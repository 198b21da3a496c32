"""Scripted input for ``petitcom run --input FILE``: buttons, stylus and keys by frame.

The same format is what ``petitcom run --record FILE`` writes (:class:`ScriptRecorder`),
so a session in a window replays headless to the same frame.

One event a line; blank lines and lines starting with ``#`` are skipped. FRAME
is the frame from which the event applies (0 = before the program's first
statement, F = once F frames have passed, i.e. from the F-th VSYNC on)::

    0 B A+RIGHT        hold A and RIGHT (names joined by +, or a BUTTON() number)
    30 B 0             release every button
    10 T 128 96        touch the lower screen at (128, 96) and hold
    20 T OFF           lift the stylus
    5 K RUN\\r          queue keys for INKEY$/INPUT: \\r Enter, \\\\ a backslash,
                       \\xNN the PTC code NN (hex), \\b Backspace and \\e Escape
                       (the line editor's erase and cancel), \\d Delete, \\i Insert,
                       \\< Home and \\> End; the text is the rest of the line
    99 Q               the window is closed (the run stops as it did when recorded)

A bad line is a :class:`ScriptError` naming the file and line number. The
feeder drives a :class:`~petitcom_shim.machine.Machine` only through its input
injection API (``press``/``release``/``touch``/``untouch``/``type_text``), by
standing in front of its front-end's ``pump``, which runs once a frame.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import pygame

from petitcom_shim import charset, files
from petitcom_shim.display import Frontend
from petitcom_shim.errors import PetitcomError
from petitcom_shim.input import (
    BACKSPACE_KEY,
    CANCEL_KEY,
    DELETE_KEY,
    END_KEY,
    HOME_KEY,
    INSERT_KEY,
    TOUCH_H,
    TOUCH_W,
    Button,
    Input,
)
from petitcom_shim.machine import MAINCNTL_WRAP, Machine

__all__ = [
    "Event",
    "FrontendStandIn",
    "ScriptError",
    "ScriptFeeder",
    "ScriptRecorder",
    "key_text",
    "parse_script",
    "read_script",
]

#: The largest script read (a million events is far more than any test needs).
MAX_SCRIPT_BYTES = 16 * 1024 * 1024
_ALL_BUTTONS = (1 << len(Button)) - 1
_K_HEAD = re.compile(r"\s*[0-9]+\s+[Kk]\s?")
_NUMBER = re.compile(r"[0-9]+")
_ESCAPE = re.compile(r"\\(x[0-9A-Fa-f]{2}|r|b|e|d|i|<|>|\\)")
#: Escapes of the key events that are no character.
_EVENT_ESCAPES = {
    "r": (0x0D,),
    "\\": (0x5C,),
    "b": (BACKSPACE_KEY,),
    "e": (CANCEL_KEY,),
    "d": (DELETE_KEY,),
    "i": (INSERT_KEY,),
    "<": (HOME_KEY,),
    ">": (END_KEY,),
}


class ScriptError(PetitcomError):
    """A scripted-input file that cannot be read or has a bad line (one line, with its number)."""


@dataclass(frozen=True)
class Event:
    """One scripted event: at ``frame``, ``kind`` "B" (buttons), "T" (touch), "K" (keys)
    or "Q" (the window closed).

    ``value`` is the button mask, the touch point (None to lift), the key events
    (PTC codes, or :data:`~petitcom_shim.input.BACKSPACE_KEY` and
    :data:`~petitcom_shim.input.CANCEL_KEY`) or None (Q).
    """

    frame: int
    kind: str
    value: int | tuple[int, ...] | None


def _buttons(text: str) -> int:
    if _NUMBER.fullmatch(text):
        mask = int(text)
        if mask > _ALL_BUTTONS:
            raise ValueError(f"button number {mask} is over {_ALL_BUTTONS}")
        return mask
    mask = 0
    for name in text.upper().split("+"):
        if name not in Button.__members__:
            names = " ".join(Button.__members__)
            raise ValueError(f"unknown button {name!r} (one of {names}, joined by +)")
        mask |= Button[name]
    return mask


def _touch(args: list[str]) -> tuple[int, int] | None:
    if len(args) == 1 and args[0].upper() == "OFF":
        return None
    if len(args) != 2 or not all(_NUMBER.fullmatch(a) for a in args):
        raise ValueError("T takes X Y (whole numbers) or OFF")
    x, y = int(args[0]), int(args[1])
    if x >= TOUCH_W or y >= TOUCH_H:
        raise ValueError(f"touch ({x}, {y}) is off the {TOUCH_W}x{TOUCH_H} lower screen")
    return x, y


def _keys(text: str) -> tuple[int, ...]:
    out: list[int] = []
    pos = 0
    for match in _ESCAPE.finditer(text):
        out += _plain(text[pos : match.start()])
        code = match.group(1)
        out += _EVENT_ESCAPES.get(code) or (int(code[1:], 16),)
        pos = match.end()
    out += _plain(text[pos:])
    return tuple(out)


def _plain(text: str) -> bytes:
    if "\\" in text:
        raise ValueError("a backslash starts \\r, \\b, \\e, \\d, \\i, \\<, \\>, \\\\ or \\xNN only")
    try:
        return charset.to_ptc(text)
    except charset.UnmappableCharacter:
        raise ValueError("a character PTC does not have (write it as \\xNN)") from None


def _event(line: str) -> Event | None:
    stripped = line.strip()
    if not stripped or stripped.startswith("#"):
        return None
    parts = stripped.split(None, 2)
    if len(parts) < 2 or not _NUMBER.fullmatch(parts[0]):
        raise ValueError("expected FRAME B|T|K ...")
    frame, kind = int(parts[0]), parts[1].upper()
    rest = parts[2] if len(parts) == 3 else ""
    if kind == "K":
        # The text is everything after "K" and one space (or tab), other spaces kept.
        head = _K_HEAD.match(line)
        assert head is not None  # FRAME and K were matched above
        text = line[head.end() :]
        return Event(frame, "K", _keys(text))
    args = rest.split("#", 1)[0].split()
    if kind == "B":
        if len(args) != 1:
            raise ValueError("B takes one argument: names joined by + or a number")
        return Event(frame, "B", _buttons(args[0]))
    if kind == "T":
        return Event(frame, "T", _touch(args))
    if kind == "Q":
        if args:
            raise ValueError("Q takes no argument")
        return Event(frame, "Q", None)
    raise ValueError(f"unknown event {parts[1]!r} (B, T, K or Q)")


def parse_script(text: str, where: str = "<script>") -> list[Event]:
    """The events of a script, sorted by frame (lines of one frame keep their order).

    Raises:
        ScriptError: the first bad line, as ``WHERE:LINE: reason``.
    """
    events: list[Event] = []
    for number, line in enumerate(text.splitlines(), 1):
        try:
            event = _event(line)
        except ValueError as err:
            raise ScriptError(f"{where}:{number}: {err}") from None
        if event is not None:
            events.append(event)
    return sorted(events, key=lambda e: e.frame)


def read_script(path: str | os.PathLike[str]) -> list[Event]:
    """Read and parse a script file (UTF-8, at most 16 MiB, a regular file).

    Raises:
        ScriptError: unreadable, not UTF-8, or a bad line.
    """
    where = os.fspath(path)
    try:
        data = files.read_file(path, MAX_SCRIPT_BYTES)
        text = data.decode("utf-8")
    except FileNotFoundError:
        raise ScriptError(f"{where}: no such file") from None
    except OSError as err:
        raise ScriptError(f"{where}: {err}") from None
    except UnicodeDecodeError as err:
        raise ScriptError(f"{where}: byte {err.start} is not UTF-8") from None
    return parse_script(text, where)


def _apply(event: Event, inp: Input) -> None:
    if event.kind == "B":
        assert isinstance(event.value, int)
        inp.release(_ALL_BUTTONS)
        inp.press(event.value)
    elif event.kind == "T":
        if event.value is None:
            inp.untouch()
        else:
            assert isinstance(event.value, tuple)
            inp.touch(*event.value)
    elif event.kind == "K":
        assert isinstance(event.value, tuple)
        inp.queue_keys(event.value)


class FrontendStandIn:
    """Stands in front of a machine's front-end: ``pump`` is the subclass's, the rest
    (``present``, ``close``, window controls) is handed on to the real one."""

    def __init__(self) -> None:
        self._inner: Frontend | None = None
        self._machine: Machine | None = None

    def _take_place(self, machine: Machine) -> None:
        self._inner = machine.frontend
        self._machine = machine
        machine.frontend = self

    def present(
        self,
        top: pygame.Surface,
        bottom: pygame.Surface,
        *,
        changed: tuple[bool, bool] = (True, True),
    ) -> None:
        """Show a frame on the real front-end."""
        assert self._inner is not None, "attach() first"
        self._inner.present(top, bottom, changed=changed)

    def close(self) -> None:
        """Close the real front-end."""
        if self._inner is not None:
            self._inner.close()

    def __getattr__(self, name: str) -> Any:
        """Everything else (window controls) is the real front-end's."""
        if name == "_inner":
            raise AttributeError(name)
        return getattr(self._inner, name)


def _frames_run(machine: Machine) -> int:
    return machine.maincnth * MAINCNTL_WRAP + machine.maincntl


class ScriptFeeder(FrontendStandIn):
    """Plays a script into a machine, frame by frame, in front of its front-end.

    :meth:`attach` applies the frame-0 events at once (latched, so the first
    statement sees them) and then stands in as ``machine.frontend``: each
    ``pump`` applies the events due by the frame it may start (the machine's
    frame count + 1; the latch that follows a frame's pump makes them visible)
    and hands on to the real one. From a Q event on, ``pump`` says the window
    was closed; with ``close_at_end`` it says so too once the last event is played
    (headless DIRECT mode, which only ends when its window closes).
    """

    def __init__(self, events: list[Event], *, close_at_end: bool = False) -> None:
        super().__init__()
        self._events: Iterator[Event] = iter(sorted(events, key=lambda e: e.frame))
        self._next: Event | None = next(self._events, None)
        self._frame = 0
        self._closed = False
        self._close_at_end = close_at_end

    def _due(self, inp: Input) -> None:
        while self._next is not None and self._next.frame <= self._frame:
            if self._next.kind == "Q":
                self._closed = True
            _apply(self._next, inp)
            self._next = next(self._events, None)

    def attach(self, machine: Machine) -> None:
        """Take the place of ``machine.frontend`` and apply the frame-0 events."""
        self._take_place(machine)
        if self._next is not None and self._next.frame == 0:
            self._due(machine.input)
            machine.input.latch()

    def pump(self, inp: Input) -> bool:
        """Apply the events due by the frame this pump starts, then pump the real front-end."""
        assert self._inner is not None and self._machine is not None, "attach() first"
        # The frame this pump may start: one past the frames run so far. (A busy
        # program's machine also pumps between frames; counting pumps would run ahead.)
        ended = self._next is None and self._close_at_end
        self._frame = _frames_run(self._machine) + 1
        self._due(inp)
        return self._inner.pump(inp) and not (self._closed or ended)


def key_text(codes: Iterable[int]) -> str:
    """Key events as the text of a K line (:func:`parse_script` reads it back).

    Printable ASCII stays as it is (a space at the end is written ``\\x20`` so an
    editor that trims lines keeps it); Enter, Backspace, Escape and the
    backslash have their escapes; every other PTC code is ``\\xNN``.
    """
    names = {code: f"\\{name}" for name, (code,) in _EVENT_ESCAPES.items()}
    out = []
    for code in codes:
        named = names.get(code)
        if named is not None:
            out.append(named)
        elif 0x20 <= code < 0x7F:
            out.append(chr(code))
        else:
            out.append(f"\\x{code & 0xFF:02X}")
    if out and out[-1] == " ":
        out[-1] = "\\x20"
    return "".join(out)


class ScriptRecorder(FrontendStandIn):
    """Records what a player does in a window, by frame, as a script :class:`ScriptFeeder` replays.

    It stands in front of the window's front-end as the feeder does. What it
    writes is what the program saw, not the raw events: at each ``pump`` it
    notes the buttons and the stylus the last frame latched, when they changed
    (a ``B`` or ``T`` line at that frame, which the feeder applies just before
    that frame's latch); the keys the real front-end queues during the pump (a
    ``K`` line at the frame the pump starts, when the feeder queues them too);
    and a ``Q`` line if the window was closed. So a replay at ``--speed dsi``,
    where frames pass by work and not by time, sees the same input at the same
    frames however fast the window ran. Not recorded: the real keyboard's code
    in KEYBOARD, clipboard pastes and files dropped on the window.
    """

    def __init__(self, header: Iterable[str] = ()) -> None:
        super().__init__()
        self._lines = [f"# {line}" if line else "#" for line in header]
        self._buttons = 0
        self._touch: tuple[int, int] | None = None
        self._noted = 0
        self._pumped = False  # a pump (and so a latch) came after the last note

    def attach(self, machine: Machine) -> None:
        """Take the place of ``machine.frontend`` (the state now is the baseline)."""
        self._take_place(machine)
        self._buttons, self._touch = self._latched(machine.input)

    @staticmethod
    def _latched(inp: Input) -> tuple[int, tuple[int, int] | None]:
        return inp.button(0), (inp.tchx, inp.tchy) if inp.tchst else None

    def _note(self, frame: int, inp: Input) -> None:
        buttons, touch = self._latched(inp)
        if buttons != self._buttons:
            names = "+".join(b.name for b in Button if buttons & b and b.name)
            self._lines.append(f"{frame} B {names or 0}")
            self._buttons = buttons
        if touch != self._touch:
            where = "OFF" if touch is None else f"{touch[0]} {touch[1]}"
            self._lines.append(f"{frame} T {where}")
            self._touch = touch

    def pump(self, inp: Input) -> bool:
        """Note the last frame's input, pump the real front-end and note the keys it queued."""
        assert self._inner is not None and self._machine is not None, "attach() first"
        frame = _frames_run(self._machine)
        if self._pumped:
            self._note(frame, inp)
        self._noted = frame
        self._pumped = True
        inp.key_log = []
        try:
            alive = self._inner.pump(inp)
            typed = inp.key_log
        finally:
            inp.key_log = None
        if typed:
            self._lines.append(f"{frame + 1} K {key_text(typed)}")
        if not alive:
            self._lines.append(f"{frame + 1} Q")
        return alive

    def finish(self) -> str:
        """Stop recording (the real front-end is the machine's again); the script's text."""
        assert self._inner is not None and self._machine is not None, "attach() first"
        if self._pumped:  # the latch after the last pump (a SELECT break's, say) is unnoted
            self._note(self._noted + 1, self._machine.input)
            self._pumped = False
        if self._machine.frontend is self:
            self._machine.frontend = self._inner
        return "\n".join(self._lines) + "\n"
