"""DIRECT mode: PTC's prompt, where a person types statements and RUN, LIST, NEW, CONT ...

``petitcom`` alone opens a window in DIRECT mode, as Petit Computer starts; a
program run in a window falls back to it when it ends, as on PTC. The console
shows ``OK`` and the lower screen the software keyboard (PNLTYPE "KYA"); what
is typed on it or on the real keyboard (``Input.read_key``) is echoed at the
cursor; Enter runs the line:

* ``RUN`` runs the program in memory, ``CONT`` continues a stopped one (Esc,
  i.e. SELECT, breaks a running program);
* ``LIST`` opens the full-screen editor (:mod:`petitcom_shim.basic.editor`) as
  PTC's does, at the first line, at line n (``LIST 30``) or at the line of the
  last error (``LIST ERR``); ``EDIT`` opens it at the first line;
* ``NEW`` forgets the program;
* the panel's RUN/STOP key runs the program (and stops a running one, as SELECT
  does) and its EDIT key opens the editor, as on PTC;
* anything else is run as a direct statement by ``Interpreter.direct``: PRINT,
  LOAD "PRG:NAME", SAVE, FILES, EXEC, assignments ...

Errors are shown as PTC shows them, then ``OK`` again. Closing the window ends
DIRECT mode.
"""

from __future__ import annotations

from petitcom_shim import charset
from petitcom_shim import keyboard as kb
from petitcom_shim.basic import Interpreter, RunResult, editor
from petitcom_shim.input import BACKSPACE_KEY
from petitcom_shim.machine import Machine
from petitcom_shim.video.console import COLS

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


def _list_line(it: Interpreter, arg: bytes) -> int | None:
    """The line LIST opens the editor at: 1, ``n`` or ERR's line; None if ``arg`` is
    neither a line number nor ERR."""
    arg = arg.strip()
    if not arg:
        return 1
    if arg == b"ERR":
        return max(it.rt.erl, 1)
    return int(arg) if arg.isdigit() and len(arg) <= 6 else None


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
    elif word == b"LIST" or word.startswith(b"LIST "):
        line_number = _list_line(it, word[4:])
        if line_number is None:
            it.machine.print("Syntax error")
        else:
            editor.edit(it, line=line_number)
        it.machine.print(PROMPT)
    elif word == b"EDIT":
        editor.edit(it)
        it.machine.print(PROMPT)
    elif word:
        _show_result(it, it.direct(line))


#: What the panel's command keys do at the prompt.
_PANEL_COMMANDS = {kb.RUN_STOP: b"RUN", kb.EDIT: b"EDIT"}


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
        panel_command = _PANEL_COMMANDS.get(m.panel_key)
        if panel_command is not None:  # the panel's RUN/STOP and EDIT keys
            if m.csrx:
                m.print("")
            execute(it, panel_command)
            line.clear()
        for code in editor.typed_keys(m):
            if code == editor.ENTER:
                m.print("")
                execute(it, bytes(line))
                line.clear()
            elif code == BACKSPACE_KEY:
                # A line longer than a row wrapped: its last character may be a row up.
                if line and (m.csrx or m.csry):
                    line.pop()
                    x, y = (m.csrx - 1, m.csry) if m.csrx else (COLS - 1, m.csry - 1)
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
