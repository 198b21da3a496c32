"""EDIT mode: PTC's full-screen program editor, with line numbers, on the upper console.

``EDIT`` at the DIRECT prompt opens it on the program in memory. Each program
line is shown with its number (5 columns, room for line 99999) and up to 27
characters a row; a longer line continues on the next rows. The cursor is the
cell drawn in the inverse colour. Keys:

* typing inserts at the cursor, or overwrites the character under it when the
  keyboard's INS key (or the PC's Insert) is off; Enter splits the line,
  Backspace deletes the character before the cursor (joining two lines at the
  start of one), Delete and the keyboard's DL key the one under it (joining the
  next line at the end of one);
* the d-pad / arrow keys move the cursor (held, they repeat); Home and End go to
  the start and end of the line;
* Ctrl+Z undoes the last edit, back to :data:`UNDO_DEPTH` edits;
* SELECT (Esc) leaves EDIT mode: the edited text becomes the program and the
  DIRECT prompt comes back.

The program text is kept in the PTC character set with CR line ends, as
``Interpreter.load`` takes it.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from petitcom_shim import charset
from petitcom_shim.basic import Interpreter
from petitcom_shim.input import (
    ARROW_KEYS,
    BACKSPACE_KEY,
    DELETE_KEY,
    END_KEY,
    HOME_KEY,
    INSERT_KEY,
    LEFT_KEY,
    RIGHT_KEY,
    UP_KEY,
    Button,
)
from petitcom_shim.machine import Machine

__all__ = ["Editor", "edit", "typed_keys"]

NUMBER_COLS = 5
TEXT_COLS = 32 - NUMBER_COLS
ROWS = 24
ENTER = 0x0D
BACKSPACE = 0x08
#: COLOR of the line numbers, the text and the cursor cell (text on a background).
NUMBER_COLOR = 9
TEXT_COLOR = 0
CURSOR_COLORS = (1, 15)
#: Most lines a program may have in the editor (a 524288-byte program of empty lines).
MAX_LINES = 524288
#: How many edits Ctrl+Z can undo, newest first.
UNDO_DEPTH = 100


@dataclass(frozen=True)
class _Undo:
    """What one edit replaced: ``lines[start:start + count]`` were ``before``, and the
    cursor was at (``cy``, ``cx``)."""

    start: int
    count: int
    before: tuple[bytes, ...]
    cy: int
    cx: int


class Editor:
    """The text being edited and the cursor; :meth:`key` applies one key, :meth:`draw` shows it."""

    def __init__(self, source: bytes) -> None:
        # Lines end with CR only: a 0x0A inside a line is a character (PTC's own rule).
        self.lines = [bytearray(line) for line in source.removesuffix(b"\r").split(b"\r")]
        self.cx = 0
        self.cy = 0
        self.top = 0
        self.skip = 0  # rows of the top line scrolled off (a line longer than the screen)
        self._undo: deque[_Undo] = deque(maxlen=UNDO_DEPTH)

    @property
    def source(self) -> bytes:
        """The edited program: the lines joined with CR, ending with one."""
        return b"\r".join(bytes(line) for line in self.lines) + b"\r"

    def _rows(self, line: bytearray) -> int:
        return max(1, (len(line) + TEXT_COLS) // TEXT_COLS)

    def _remember(self, start: int, count: int, after: int) -> None:
        """Keep lines ``start``..``start + count - 1`` for undo, before an edit that leaves
        ``after`` lines in their place."""
        before = tuple(bytes(line) for line in self.lines[start : start + count])
        self._undo.append(_Undo(start, after, before, self.cy, self.cx))

    def undo(self) -> bool:
        """Take back the last edit (Ctrl+Z); False when there is none left."""
        if not self._undo:
            return False
        edit = self._undo.pop()
        self.lines[edit.start : edit.start + edit.count] = [bytearray(b) for b in edit.before]
        self.cy, self.cx = edit.cy, edit.cx
        return True

    def key(self, code: int, insert: bool = True) -> None:
        """Type a PTC code at the cursor (Enter splits the line, Backspace deletes);
        ``insert`` False overwrites the character under the cursor."""
        line = self.lines[self.cy]
        if code == ENTER:
            if len(self.lines) < MAX_LINES:
                self._remember(self.cy, 1, 2)
                self.lines.insert(self.cy + 1, line[self.cx :])
                del line[self.cx :]
                self.cy, self.cx = self.cy + 1, 0
        elif code == BACKSPACE:
            if self.cx:
                self._remember(self.cy, 1, 1)
                del line[self.cx - 1]
                self.cx -= 1
            elif self.cy:
                self._remember(self.cy - 1, 2, 1)
                above = self.lines[self.cy - 1]
                self.cx = len(above)
                above += line
                del self.lines[self.cy]
                self.cy -= 1
        else:
            self._remember(self.cy, 1, 1)
            if insert or self.cx == len(line):
                line.insert(self.cx, code)
            else:
                line[self.cx] = code
            self.cx += 1

    def delete(self) -> None:
        """Delete the character under the cursor; at a line's end, join the next line."""
        line = self.lines[self.cy]
        if self.cx < len(line):
            self._remember(self.cy, 1, 1)
            del line[self.cx]
        elif self.cy + 1 < len(self.lines):
            self._remember(self.cy, 2, 1)
            line += self.lines[self.cy + 1]
            del self.lines[self.cy + 1]

    def home(self) -> None:
        """To the start of the cursor's line."""
        self.cx = 0

    def end(self) -> None:
        """To the end of the cursor's line."""
        self.cx = len(self.lines[self.cy])

    def move(self, buttons: int) -> None:
        """Move the cursor by the d-pad bits in ``buttons``."""
        if buttons & Button.UP and self.cy:
            self.cy -= 1
        if buttons & Button.DOWN and self.cy + 1 < len(self.lines):
            self.cy += 1
        self.cx = min(self.cx, len(self.lines[self.cy]))
        if buttons & Button.LEFT:
            if self.cx:
                self.cx -= 1
            elif self.cy:
                self.cy -= 1
                self.cx = len(self.lines[self.cy])
        if buttons & Button.RIGHT:
            if self.cx < len(self.lines[self.cy]):
                self.cx += 1
            elif self.cy + 1 < len(self.lines):
                self.cy, self.cx = self.cy + 1, 0

    def _scroll_to_cursor(self) -> None:
        """Scroll as little as keeps the cursor's row on the screen.

        Walks up from the cursor, so the cost is the rows of one screen whatever the
        line (LIST ERR on line 20000 of a long program); a line longer than the
        screen is shown from the rows that end at the cursor's.
        """
        self.top = min(self.top, self.cy)
        used = self.cx // TEXT_COLS + 1  # the cursor line's rows up to the cursor's
        index = self.cy
        while index > self.top and used + self._rows(self.lines[index - 1]) <= ROWS:
            index -= 1
            used += self._rows(self.lines[index])
        self.top = index
        self.skip = max(0, used - ROWS)

    def screen(self) -> list[tuple[str, bytes, int | None]]:
        """The 24 rows: (number column, text bytes, cursor column in the text or None)."""
        self._scroll_to_cursor()
        rows: list[tuple[str, bytes, int | None]] = []
        index, first = self.top, self.skip
        while len(rows) < ROWS and index < len(self.lines):
            line = bytes(self.lines[index])
            for part in range(first, self._rows(self.lines[index])):
                if len(rows) == ROWS:
                    break
                number = f"{index + 1:>{NUMBER_COLS}}" if part == 0 else " " * NUMBER_COLS
                cursor = None
                if index == self.cy and self.cx // TEXT_COLS == part:
                    cursor = self.cx % TEXT_COLS
                rows.append((number, line[part * TEXT_COLS : (part + 1) * TEXT_COLS], cursor))
            index, first = index + 1, 0
        return rows


def typed_keys(m: Machine) -> list[int]:
    """The key events typed since the last call: PTC codes, ``BACKSPACE_KEY``, ``CANCEL_KEY``.

    CHR$(8), as a script or the software keyboard types it, counts as a backspace.
    """
    events: list[int] = []
    while (event := m.input.read_key()) is not None:
        events.append(BACKSPACE_KEY if event == BACKSPACE else event)
    return events


def _draw(it: Interpreter, editor: Editor) -> None:
    m = it.machine
    m.cls()
    for y, (number, text, cursor) in enumerate(editor.screen()):
        m.locate(0, y)
        m.color(NUMBER_COLOR, 0)
        m.print(number, end="")
        m.color(TEXT_COLOR, 0)
        m.print(charset.from_ptc(text), end="")
        if cursor is not None:
            m.locate(NUMBER_COLS + cursor, y)
            m.color(*CURSOR_COLORS)
            under = text[cursor : cursor + 1] or b" "
            m.print(charset.from_ptc(under), end="")
    m.color(TEXT_COLOR, 0)


def _apply(m: Machine, editor: Editor, code: int) -> bool:
    """One key event in the editor; True if the text or the cursor may have changed."""
    if code in ARROW_KEYS:  # a PC arrow key, in its place among the typed keys
        bits = {LEFT_KEY: Button.LEFT, RIGHT_KEY: Button.RIGHT, UP_KEY: Button.UP}
        editor.move(bits.get(code, Button.DOWN))
    elif code == BACKSPACE_KEY:
        editor.key(BACKSPACE)
    elif code == DELETE_KEY:
        editor.delete()
    elif code == HOME_KEY:
        editor.home()
    elif code == END_KEY:
        editor.end()
    elif code == INSERT_KEY:
        m.toggle_insert()
        return False
    elif code >= 0:
        editor.key(code, m.insert_mode)
    else:
        return False
    return True


def edit(it: Interpreter, frames: int | None = None, line: int = 1) -> None:
    """Edit the program in memory until SELECT (Esc) or the window closes; then load it.

    The cursor starts at the beginning of program line ``line`` (1-based; past the
    end, the last line). ``frames`` stops after that many frames (for tests).
    """
    m = it.machine
    editor = Editor(it.source)
    editor.cy = min(max(line, 1), len(editor.lines)) - 1
    name, package = it.rt.prgname, it.rt.package
    _draw(it, editor)
    while m.running and (frames is None or frames > 0):
        frames = None if frames is None else frames - 1
        m.vsync(1)
        if m.button(2) & Button.SELECT:
            break
        changed = False
        moved = m.button(1) & (Button.UP | Button.DOWN | Button.LEFT | Button.RIGHT)
        codes = typed_keys(m)
        if moved and not any(code in ARROW_KEYS for code in codes):  # a pad's d-pad
            editor.move(moved)
            changed = True
        for code in codes:
            changed = _apply(m, editor, code) or changed
        if "undo" in m.edit_keys():
            changed = editor.undo() or changed
        if changed:
            _draw(it, editor)
    source = editor.source
    it.load(b"" if source == b"\r" else source)
    it.rt.prgname, it.rt.package = name, package
    m.cls()
