"""The text-fit check: no text leaves the screen, its box or button, or overlaps anything.

:mod:`royalnine.screens.draw` records each console text (with the box it
belongs in), each button or panel box and each GRP picture while a
:class:`~royalnine.screens.draw.DrawLog` is active. :func:`problems` compares
that log with the machine's console as it is now and names every text that

* runs off the 32x24 console, or touches its left or right edge (a text placed
  anywhere on the screen keeps one cell of margin there), or sits on its top row
  (the font's ink starts at a cell's top pixel row, so it would touch the edge),
* leaves its box (a button's label outside the button, a panel line outside the panel),
* sits on a button or box that is not its own, under a GRP picture, or where a
  card (sprite) rests,
* was partly overwritten by later text (two texts overlapping), or
* has a Japanese voicing mark (ﾞ ﾟ, drawn at the top of its cell) right under a
  character of the line above, where the two run into each other, or
* is on the console without having gone through the draw helpers (so unchecked).

Boxes must lie on the 8-pixel tile grid, since they are drawn with BG tiles and
labels with 8x8 console cells; a box off the grid draws elsewhere than it says.
"""

from __future__ import annotations

from petitcom_shim import Machine
from petitcom_shim.charset import to_ptc
from royalnine.screens.draw import SCREEN_RECT, VOICING_MARKS, DrawLog, DrawnText
from royalnine.screens.layout import Rect

COLS, ROWS = 32, 24
BLANK = frozenset((0, 32))


def _overlap(a: Rect, b: Rect) -> bool:
    return a.x < b.x + b.w and b.x < a.x + a.w and a.y < b.y + b.h and b.y < a.y + a.h


def _inside(a: Rect, b: Rect) -> bool:
    return b.x <= a.x and b.y <= a.y and a.x + a.w <= b.x + b.w and a.y + a.h <= b.y + b.h


def text_rect(t: DrawnText) -> Rect:
    """The pixels a text covers."""
    return Rect(t.col * 8, t.row * 8, len(to_ptc(t.text, errors="replace")) * 8, 8)


def problems(m: Machine, log: DrawLog, where: str = "") -> list[str]:
    """Everything wrong with the text now on both screens (empty when all fits)."""
    out: list[str] = []
    for screen in (0, 1):
        m.cpage(screen)
        console = [[m.chkchr(x, y) for x in range(COLS)] for y in range(ROWS)]
        covered = [[False] * COLS for _ in range(ROWS)]
        texts = [t for t in log.texts if t.screen == screen]
        boxes = [b for s, b in log.boxes if s == screen]
        pictures = [p for s, p in log.pictures if s == screen]
        name = f"{where} screen {screen}"
        for box in boxes:
            if box.x % 8 or box.y % 8 or box.w % 8 or box.h % 8:
                out.append(f"{name}: box {box} is off the 8-pixel grid")
        for t in texts:
            codes = to_ptc(t.text, errors="replace")
            say = f"{name}: {t.text!r} at ({t.col},{t.row})"
            end = t.col + len(codes)
            if t.col < 0 or t.row < 0 or t.row >= ROWS or end > COLS:
                out.append(f"{say} leaves the screen")
                continue
            if t.box == SCREEN_RECT and (t.col < 1 or end > COLS - 1):
                out.append(f"{say} touches the edge of the screen")
            if t.row == 0:
                # A glyph's ink starts at its cell's top row: on row 0 it touches the
                # screen's top edge and reads as cut off there.
                out.append(f"{say} touches the top edge of the screen")
            rect = text_rect(t)
            if not _inside(rect, t.box):
                out.append(f"{say} leaves its box {t.box}")
            for box in boxes:
                if box != t.box and _overlap(rect, box) and not _inside(t.box, box):
                    out.append(f"{say} runs into the box {box}")
            for pic in pictures:
                if _overlap(rect, pic):
                    out.append(f"{say} is under a picture at {pic}")
            for sprite in log.sprites_on(screen):
                if _overlap(rect, sprite):
                    out.append(f"{say} runs under a card or sprite at {sprite}")
                    break
            shown = bytes(console[t.row][t.col : end])
            if shown != codes:
                out.append(f"{say} was overwritten: the screen shows {shown!r}")
            for x in range(t.col, end):
                covered[t.row][x] = True
            if t.row > 0:
                above = console[t.row - 1]
                for x, code in enumerate(codes, start=t.col):
                    if code in VOICING_MARKS and above[x] not in BLANK:
                        out.append(f"{say}: a voicing mark runs into the line above")
                        break
        for y in range(ROWS):
            for x in range(COLS):
                if console[y][x] not in (0, 32) and not covered[y][x]:
                    out.append(f"{name}: cell ({x},{y}) was drawn outside the draw helpers")
                    break
    return out
