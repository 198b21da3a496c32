"""DIRECT mode: PTC's prompt, where a person types statements and RUN, LIST, NEW, CONT ...

``petitcom`` alone opens a window in DIRECT mode, as Petit Computer starts; a
program run in a window falls back to it when it ends, as on PTC. The console
shows ``OK`` and the lower screen the software keyboard (PNLTYPE "KYA"); what
is typed on it or on the real keyboard (``Input.read_key``) is echoed at the
cursor; Enter runs the line:

* ``RUN`` runs the program in memory, ``CONT`` continues a stopped one (Esc,
  i.e. SELECT, breaks a running program);
* ``LIST`` prints the program on the console (PTC's LIST opens the editor;
  here that is ``EDIT``);
* ``NEW`` forgets the program;
* ``EDIT`` opens the full-screen editor (:mod:`petitcom_shim.basic.editor`);
* anything else is run as a direct statement by ``Interpreter.direct``: PRINT,
  LOAD "PRG:NAME", SAVE, FILES, EXEC, assignments ...

Errors are shown as PTC shows them, then ``OK`` again. Closing the window ends
DIRECT mode.
"""

from __future__ import annotations

from petitcom_shim import charset
from petitcom_shim.basic import Interpreter, RunResult, editor
from petitcom_shim.input import BACKSPACE_KEY
from petitcom_shim.machine import Machine

__all__ = ["after_run", "run"]

BANNER = ("SmileBASIC v2 (petitcom_shim)", "")
PROMPT = "OK"
#: The lower screen in DIRECT mode: PTC's alphanumeric software keyboard.
KEYBOARD = "KYA"
#: The longest line the prompt takes (PTC's line editor holds 100 characters).
MAX_LINE = 100


def _show_result(it: Interpreter, result: RunResult) -> None:
    """After a run: PTC's error line (the runtime may have printed it already) and OK."""
    m = it.machine
    if m.csrx:
        m.print("")
    m.print(PROMPT)


def _list(it: Interpreter) -> None:
    m = it.machine
    text = charset.from_ptc(it.source)
    for line in text.removesuffix("\n").split("\n") if text else []:
        if m.csrx:
            m.print("")
        m.print(line[:MAX_LINE])


def execute(it: Interpreter, line: bytes) -> None:
    """Run one typed line: a DIRECT command or a statement."""
    word = line.strip().upper()
    if word == b"RUN":
        _show_result(it, it.run())
    elif word == b"CONT":
        _show_result(it, it.cont())
    elif word == b"NEW":
        it.new()
        it.machine.print(PROMPT)
    elif word == b"LIST":
        _list(it)
        it.machine.print(PROMPT)
    elif word == b"EDIT":
        editor.edit(it)
        it.machine.print(PROMPT)
    elif word:
        _show_result(it, it.direct(line))


class _Cursor:
    """The prompt's blinking cursor: a full block (0x8F) in the current COLOR at the
    console cursor, shown half of every ``BLINK`` frames and never left behind."""

    BLINK = 32
    BLOCK = charset.from_ptc(b"\x8f")

    def __init__(self, m: Machine) -> None:
        self.m = m
        self.at: tuple[int, int] | None = None
        self.under = 0

    def show(self, frame: int) -> None:
        m = self.m
        self.hide()
        if frame % self.BLINK < self.BLINK // 2 and m.csry < editor.ROWS:
            self.at = (m.csrx, m.csry)
            self.under = m.chkchr(*self.at)
            m.print(self.BLOCK, end="")
            m.locate(*self.at)

    def hide(self) -> None:
        if self.at is not None:
            m = self.m
            m.locate(*self.at)
            m.print(charset.from_ptc(bytes((self.under or 0x20,))), end="")
            m.locate(*self.at)
            self.at = None


def prompt_loop(it: Interpreter, frames: int | None = None) -> None:
    """Read lines at the prompt until the window is closed (or ``frames`` frames, for tests)."""
    m = it.machine
    line = bytearray()
    cursor = _Cursor(m)
    shown = 0
    while m.running and (frames is None or frames > 0):
        frames = None if frames is None else frames - 1
        cursor.show(shown)
        shown += 1
        m.vsync(1)
        cursor.hide()
        for code in editor.typed_keys(m):
            if code == editor.ENTER:
                m.print("")
                execute(it, bytes(line))
                line.clear()
            elif code == BACKSPACE_KEY:
                if line and m.csrx:
                    line.pop()
                    x, y = m.csrx - 1, m.csry
                    m.locate(x, y)
                    m.print(" ", end="")
                    m.locate(x, y)
            elif code >= 0 and len(line) < MAX_LINE:
                line.append(code)
                m.print(charset.from_ptc(bytes((code,))), end="")


def run(it: Interpreter, frames: int | None = None) -> None:
    """DIRECT mode from a fresh start: the banner, OK, then the prompt."""
    it.machine.pnltype(KEYBOARD)
    for text in BANNER:
        it.machine.print(text)
    it.machine.print(PROMPT)
    prompt_loop(it, frames)


def after_run(it: Interpreter, result: RunResult) -> None:
    """DIRECT mode after ``petitcom run`` in a window: OK under the program's output."""
    it.machine.pnltype(KEYBOARD)
    _show_result(it, result)
    prompt_loop(it)
