"""INPUT's line editor on the console: echo, backspace, ENTER/ESC, a blinking cursor
that LEFT/RIGHT move.

PTC edits an INPUT line on the console row the cursor is on, from column 0, up
to the 32 cells of the row, and ENTER moves the cursor to the next line ([SBC]
source/subsystem/console.c ``shared_input``, whose ``input_keys`` reads the
d-pad there and lists moving the cursor left and right as PTC behaviour it
lacks). LEFT/RIGHT move the cursor within the typed text; typing inserts at
the cursor (PTC's keyboard starts in insert mode) and BS deletes the character
before it. :class:`LineEditor` keeps that
row's state; :meth:`petitcom_shim.Machine.line_input` runs the frames and feeds
it the key events the keyboards queue (petitcom_shim.input).
"""

from __future__ import annotations

from petitcom_shim import charset
from petitcom_shim.input import BACKSPACE_KEY, CANCEL_KEY
from petitcom_shim.video.console import COLS, Console

__all__ = ["CURSOR", "CURSOR_BLINK", "LineEditor"]

#: The cursor's character (an underline) and its blink half-period in frames.
CURSOR = 0x5F
CURSOR_BLINK = 16
_ENTER = 0x0D


class LineEditor:
    """One line being typed on a console row.

    Attributes:
        done: True once ENTER or ESC ended the line.
        text: the line typed (set when ENTER ended it; None after ESC or before the end).
    """

    def __init__(self, console: Console) -> None:
        self._con = console
        console.settle()
        self.row = console.csry
        self._line = bytearray()
        self._pos = 0  # where the next character goes, 0..len(line)
        self._cursor_at = -1  # the column showing the cursor, -1 when hidden
        self._under = 0  # the character the cursor covers
        self.done = False
        self.text: str | None = None

    def _put(self, x: int, code: int) -> None:
        self._con.locate(x, self.row)
        self._con.print_items([bytes((code,))], ";", "")

    def _hide(self) -> None:
        if self._cursor_at >= 0:
            self._put(self._cursor_at, self._under)
            self._cursor_at = -1

    def feed(self, event: int) -> None:
        """One key event: a PTC code, BACKSPACE_KEY or CANCEL_KEY (ENTER is CHR$(13))."""
        if self.done:
            return
        self._hide()
        line = self._line
        if event in (_ENTER, CANCEL_KEY):
            self._con.locate(0, self.row)
            self._con.print_items([], ";", "\n")  # the line stays; the cursor goes below
            self.done = True
            self.text = charset.from_ptc(bytes(line)) if event == _ENTER else None
            return
        start = end = self._pos
        if event == BACKSPACE_KEY:
            if self._pos:
                self._pos -= 1
                del line[self._pos]
                start, end = self._pos, len(line) + 1  # the last cell is blanked
        elif event >= 0 and len(line) < COLS:
            line.insert(self._pos, event)
            self._pos += 1
            end = len(line)
        self._redraw(start, end)

    def move(self, step: int) -> None:
        """LEFT (-1) / RIGHT (+1): move the cursor within the typed text."""
        if self.done:
            return
        self._hide()
        self._pos = min(max(self._pos + step, 0), len(self._line))
        self._con.locate(min(self._pos, COLS - 1), self.row)

    def _redraw(self, start: int, end: int) -> None:
        """Write the line's cells ``start``..``end`` (past its end: blank) and put the
        console cursor back at the editing position."""
        line = self._line
        for x in range(start, min(end, COLS)):
            self._put(x, line[x] if x < len(line) else 0)
        self._con.locate(min(self._pos, COLS - 1), self.row)

    def blink(self, frame: int) -> None:
        """Show or hide the cursor for frame number ``frame`` of the edit."""
        if self.done:
            return
        if frame // CURSOR_BLINK % 2:
            self._hide()
        elif self._cursor_at < 0:
            x = min(self._pos, COLS - 1)
            self._under = self._con.chkchr(x, self.row)
            self._put(x, CURSOR)
            self._cursor_at = x
        self._con.locate(min(self._pos, COLS - 1), self.row)

    def close(self) -> None:
        """Stop editing without a line (the cursor is taken away and the console
        cursor left at the editing position, where it stood before the blink)."""
        self._hide()
        self._con.locate(min(self._pos, COLS - 1), self.row)
