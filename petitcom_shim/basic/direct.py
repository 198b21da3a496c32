"""DIRECT mode: PTC's prompt, where a person types statements and RUN, LIST, NEW, CONT ...

``petitcom`` alone opens a window in DIRECT mode, as Petit Computer starts; a
program run in a window falls back to it when it ends, as on PTC. The console
shows ``OK`` and the lower screen the software keyboard (PNLTYPE "KYA"); what
is typed on it or on the real keyboard (``Input.read_key``) is echoed at the
cursor, which Left/Right (and Home/End) move within the line; typing inserts or
overwrites as the keyboard's INS key says, Backspace and Delete (the keyboard's
DL key) delete. Up/Down move to another row of the screen, whose text becomes
the line (:class:`PromptLine`), so a command is repeated by moving up to it and
pressing Enter, as on the handheld. Enter runs the line:

* ``RUN`` runs the program in memory, ``CONT`` continues a stopped one (Esc,
  i.e. SELECT, breaks a running program);
* ``LIST`` opens the full-screen editor (:mod:`petitcom_shim.basic.editor`) as
  PTC's does, at the first line, at line n (``LIST 30``) or at the line of the
  last error (``LIST ERR``); ``EDIT`` opens it at the first line; ``LIST 10-50``
  (also ``10-`` and ``-50``), our extension, prints those lines with their
  numbers on the console;
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
from petitcom_shim.input import (
    ARROW_KEYS,
    BACKSPACE_KEY,
    DELETE_KEY,
    DOWN_KEY,
    END_KEY,
    HOME_KEY,
    INSERT_KEY,
    LEFT_KEY,
    RIGHT_KEY,
    UP_KEY,
    Button,
)
from petitcom_shim.machine import Machine
from petitcom_shim.video.console import COLS

__all__ = ["PromptLine", "after_run", "list_lines", "prompt_loop", "run"]

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


def _list_range(arg: bytes) -> tuple[int, int] | None:
    """``LIST a-b`` (also ``a-`` and ``-b``): the first and last line to print; None if
    ``arg`` is no range."""
    first, dash, last = arg.strip().partition(b"-")
    first, last = first.strip(), last.strip()
    if not dash or not (first or last):
        return None
    if not all(part.isdigit() and len(part) <= 6 for part in (first, last) if part):
        return None
    return int(first or 1), int(last or editor.MAX_LINES)


def list_lines(it: Interpreter, first: int, last: int) -> None:
    """``LIST a-b``: print program lines ``first``..``last`` on the console, each after its
    number in the editor's 5 columns (an extension: PTC's LIST only opens the editor)."""
    m = it.machine
    lines = it.source.replace(b"\r\n", b"\r").removesuffix(b"\r").split(b"\r")
    if lines == [b""]:
        return
    for number in range(max(first, 1), min(last, len(lines)) + 1):
        text = charset.from_ptc(lines[number - 1]).replace("\n", " ")
        m.print(f"{number:>{editor.NUMBER_COLS}} {text}")


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
        span = _list_range(word[4:])
        if span is not None:
            list_lines(it, *span)
        elif line_number is None:
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
    console cursor, shown half of every ``BLINK`` frames and never left behind.

    It is drawn and taken away only when the blink changes (or before the line
    changes), so a still prompt changes nothing on most frames and nothing is
    composed again (the idle cost of issue 26).
    """

    BLINK = 32
    BLOCK = charset.from_ptc(b"\x8f")

    def __init__(self, m: Machine) -> None:
        self.m = m
        self.at: tuple[int, int] | None = None
        self.under = 0

    def show(self, frame: int) -> None:
        """Show or hide the block for blink frame ``frame`` at the console cursor."""
        m = self.m
        on = frame % self.BLINK < self.BLINK // 2 and m.csry < editor.ROWS
        if self.at is not None and (not on or self.at != (m.csrx, m.csry)):
            self.hide()
        if on and self.at is None:
            self.at = (m.csrx, m.csry)
            self.under = m.chkchr(*self.at)
            m.print(self.BLOCK, end="")
            m.locate(*self.at)

    def hide(self) -> None:
        """Put back the character under the block, if it is shown."""
        if self.at is not None:
            m = self.m
            m.locate(*self.at)
            m.print(charset.from_ptc(bytes((self.under or 0x20,))), end="")
            m.locate(*self.at)
            self.at = None


class PromptLine:
    """The line being typed or edited at the prompt: PTC's screen editor on the console.

    The line is kept as PTC codes and drawn on the console from column ``col`` of
    row ``row``, wrapping onto the rows below (at most :data:`MAX_LINE` codes).
    Typing inserts at the cursor or overwrites it (the keyboard's INS key,
    :attr:`Machine.insert_mode`); Backspace deletes the code before the cursor,
    Delete (the keyboard's DL key) the one under it; Left/Right, Home/End move
    within the line. Up and Down move to the row above or below: a row of
    another line is read back from the console and becomes the line being edited,
    so Enter on it runs it again, as on the handheld.
    """

    def __init__(self, m: Machine) -> None:
        self.m = m
        self.line = bytearray()
        self.pos = 0
        self.col = 0
        self.row = 0
        x = m.csrx
        self.read_row(min(m.csry, editor.ROWS - 1))  # the line under the cursor
        self.move_to(x)

    def read_row(self, y: int) -> None:
        """Make console row ``y``'s text (cleared cells read as spaces, trailing spaces
        dropped) the line, with the cursor at its start."""
        m = self.m
        self.begin(0, y, bytes(m.chkchr(c, y) or 0x20 for c in range(COLS)).rstrip(b" "))

    def fresh(self) -> None:
        """A new, empty line at the console cursor; what is left on its row is blanked
        (output of a line run again from higher up may end above old text)."""
        m = self.m
        self.begin(m.csrx, m.csry)
        x, y = self.cell(0)
        if any(m.chkchr(c, y) not in (0, 0x20) for c in range(x, COLS)):
            m.print(" " * (COLS - x), end="")
            m.locate(x, y)

    def begin(self, x: int, y: int, text: bytes = b"") -> None:
        """Edit ``text`` (already on the console) from column ``x`` of row ``y``."""
        self.col, self.row = x, y
        self.line = bytearray(text)
        self.pos = 0
        self._ensure(0)
        self.m.locate(*self.cell(0))

    def cell(self, i: int) -> tuple[int, int]:
        """The console cell of code ``i`` of the line (``len``: just after it)."""
        k = self.col + i
        return k % COLS, self.row + k // COLS

    def _ensure(self, i: int) -> None:
        """Scroll the console up until code ``i``'s cell is on it."""
        m = self.m
        while self.cell(i)[1] >= editor.ROWS:
            m.locate(0, editor.ROWS - 1)
            m.print("")  # a new line on the last row scrolls
            self.row -= 1

    def _put(self, i: int, code: int) -> None:
        self._ensure(i)
        self.m.locate(*self.cell(i))
        self.m.print(charset.from_ptc(bytes((code or 0x20,))), end="")

    def _redraw(self, start: int, clear: int = 0) -> None:
        """Draw the line from code ``start`` on, blank ``clear`` cells after its end and
        put the console cursor at the editing position."""
        for i in range(start, len(self.line) + clear):
            self._put(i, self.line[i] if i < len(self.line) else 0x20)
        self._ensure(self.pos)
        self.m.locate(*self.cell(self.pos))

    def type(self, code: int, insert: bool = True) -> None:
        """A typed code: inserted at the cursor, or over the code under it."""
        if insert or self.pos == len(self.line):
            if len(self.line) >= MAX_LINE:
                return
            self.line.insert(self.pos, code)
        else:
            self.line[self.pos] = code
        self.pos += 1
        self._redraw(self.pos - 1)

    def backspace(self) -> None:
        """Delete the code before the cursor."""
        if self.pos:
            self.pos -= 1
            del self.line[self.pos]
            self._redraw(self.pos, clear=1)

    def delete(self) -> None:
        """Delete the code under the cursor (Delete, the keyboard's DL key)."""
        if self.pos < len(self.line):
            del self.line[self.pos]
            self._redraw(self.pos, clear=1)

    def move_to(self, pos: int) -> None:
        """Put the cursor at code ``pos`` (kept within the line and just after it)."""
        self.pos = min(max(pos, 0), len(self.line))
        self._redraw(len(self.line))

    def vertical(self, step: int) -> None:
        """Up (-1) or Down (+1) one console row; another line's row is read back."""
        x, y = self.cell(self.pos)
        target = y + step
        first, last = self.cell(0)[1], self.cell(max(len(self.line) - 1, 0))[1]
        if first <= target <= max(last, self.cell(len(self.line))[1]):
            self.move_to(self.pos + step * COLS)
        elif 0 <= target < editor.ROWS:
            self.read_row(target)
            self.move_to(x)

    def enter(self) -> bytes:
        """Enter: the line's text; the console cursor goes to the start of the next row."""
        m = self.m
        m.locate(0, self.cell(max(len(self.line) - 1, 0))[1])
        m.print("")
        return bytes(self.line)


#: Frames without input or blink after which the prompt draws one frame in
#: STILL_DRAW_EVERY (as the game's still screens do): the process wakes 20 times a
#: second instead of 60 while nobody types; the first key brings back every frame.
STILL_FRAMES = 60
STILL_DRAW_EVERY = 3
_DPAD = Button.UP | Button.DOWN | Button.LEFT | Button.RIGHT


def _edit_prompt(m: Machine, prompt: PromptLine, moved: int, code: int) -> None:
    """One d-pad move (``moved`` bits) or key event ``code`` (-1: none) at the prompt."""
    if moved & Button.LEFT:
        prompt.move_to(prompt.pos - 1)
    if moved & Button.RIGHT:
        prompt.move_to(prompt.pos + 1)
    if moved & Button.UP:
        prompt.vertical(-1)
    if moved & Button.DOWN:
        prompt.vertical(+1)
    if code in ARROW_KEYS:  # a PC arrow key, in its place among the typed keys
        steps = {LEFT_KEY: (-1, 0), RIGHT_KEY: (1, 0), UP_KEY: (0, -1), DOWN_KEY: (0, 1)}
        dx, dy = steps[code]
        if dx:
            prompt.move_to(prompt.pos + dx)
        else:
            prompt.vertical(dy)
    elif code == BACKSPACE_KEY:
        prompt.backspace()
    elif code == DELETE_KEY:
        prompt.delete()
    elif code == HOME_KEY:
        prompt.move_to(0)
    elif code == END_KEY:
        prompt.move_to(len(prompt.line))
    elif code == INSERT_KEY:
        m.toggle_insert()
    elif code >= 0:
        prompt.type(code, m.insert_mode)


def prompt_loop(it: Interpreter, frames: int | None = None) -> None:
    """Read lines at the prompt until the window is closed (or ``frames`` frames, for tests)."""
    m = it.machine
    prompt = PromptLine(m)
    cursor = _Cursor(m)
    shown = still = 0
    try:
        while m.running and (frames is None or frames > 0):
            frames = None if frames is None else frames - 1
            cursor.show(shown)
            shown += 1
            m.vsync(1, show=still < STILL_FRAMES or shown % STILL_DRAW_EVERY == 0)
            panel_command = _PANEL_COMMANDS.get(m.panel_key)
            moved = m.button(1) & _DPAD
            codes = editor.typed_keys(m)
            m.edit_keys()  # Ctrl+C/V/Z mean nothing at the prompt: do not keep them
            if panel_command is None and not moved and not codes:
                still += 1
                continue
            still = 0
            cursor.hide()
            if panel_command is not None:  # the panel's RUN/STOP and EDIT keys
                if m.csrx:
                    m.print("")
                execute(it, panel_command)
                prompt.fresh()
            if moved and not any(code in ARROW_KEYS for code in codes):
                _edit_prompt(m, prompt, moved, -1)  # a pad's d-pad (a PC arrow is a key event)
            for code in codes:
                if code == editor.ENTER:
                    execute(it, prompt.enter())
                    prompt.fresh()
                else:
                    _edit_prompt(m, prompt, 0, code)
    finally:
        cursor.hide()


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
