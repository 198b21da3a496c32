"""The 32x24 text console of one screen: PRINT, LOCATE, COLOR, CLS, CHKCHR.

Text comes from the BGF0 font bank of the screen, coloured with COL0 palette
``fg`` (petitcom.md §1.4); a nonzero ``bg`` puts BGD0 tile 15 in COL0 palette
``bg`` behind the cell. The console is drawn into a cached surface, re-rendering
only the rows that changed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt
import pygame

from petitcom_shim.errors import OutOfRange
from petitcom_shim.numbers import FIXED_ONE, fixed_text, to_int
from petitcom_shim.video.chr import SOLID_TILE, ChrStore
from petitcom_shim.video.palette import Palettes
from petitcom_shim.video.surfaces import keyed_surface, new_surface

__all__ = ["COLS", "ROWS", "Console", "format_number"]

COLS = 32
ROWS = 24
#: A row with one value in every cell, for each value (CLS copies them).
_FILLED = [bytes((value,)) * COLS for value in range(256)]


def format_number(value: float) -> str:
    """Format a number as PRINT shows it: the value as 20.12 fixed point, in PTC's
    text (integers plain, fractions to at most 3 decimals, :func:`fixed_text`)."""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int):
        return str(value)
    return fixed_text(round(float(value) * FIXED_ONE))


#: Above this many changed cells, the whole console is drawn again in one vectorised pass.
_MANY_CELLS = 256


def _grid(rows: list[bytearray]) -> npt.NDArray[np.uint8]:
    return np.frombuffer(b"".join(rows), np.uint8).reshape(ROWS, COLS).copy()


class Console:
    """Console state of one screen plus its cached rendering.

    Args:
        screen: 0 upper, 1 lower.
        chr_store: where BGF0 (font) and BGD0 (background cell) live.
        palettes: this screen's palettes (COL0 colours the console).
        to_ptc: text -> PTC character codes.
    """

    def __init__(
        self,
        screen: int,
        chr_store: ChrStore,
        palettes: Palettes,
        to_ptc: Callable[[str], bytes],
    ) -> None:
        self.screen = screen
        self._chr = chr_store
        self._pal = palettes
        self._to_ptc = to_ptc
        # One bytearray per row: PRINT compares and writes whole runs cheaply.
        self._codes = [bytearray(COLS) for _ in range(ROWS)]
        self._fgs = [bytearray(COLS) for _ in range(ROWS)]
        self._bgs = [bytearray(COLS) for _ in range(ROWS)]
        # (fg, bg) while every cell is as CLS in those colours leaves it, else None:
        # programs CLS every frame or more, often with nothing printed in between.
        self._blank: tuple[int, int] | None = (0, 0)
        self.csrx = 0
        self.csry = 0
        self.fg = 0
        self.bg = 0
        self._tabstep = 4
        self.show_text = True
        self._surface = keyed_surface(COLS * 8, ROWS * 8)
        self._all_dirty = True
        self._dirty_cells: set[tuple[int, int]] = set()
        # (code, fg, bg) -> opaque 8x8 cell image (key pixels where transparent)
        self._glyphs: dict[tuple[int, int, int], pygame.Surface] = {}
        self._seen: tuple[int, int, int, bool] = (-1, -1, -1, True)
        # The cells as the surface shows them (rows of codes, fgs, bgs), None when unknown.
        self._shown: tuple[list[bytearray], ...] | None = None

    # -- state ---------------------------------------------------------------
    @property
    def tabstep(self) -> int:
        """TABSTEP: column spacing of ``,`` in PRINT (default 4)."""
        return self._tabstep

    @tabstep.setter
    def tabstep(self, value: int) -> None:
        if not 1 <= value <= COLS:
            raise OutOfRange(f"TABSTEP {value} not in 1-{COLS}")
        self._tabstep = int(value)

    def locate(self, x: int, y: int) -> None:
        """LOCATE; out-of-range coordinates are ignored as on PTC."""
        x, y = to_int(x), to_int(y)
        if 0 <= x < COLS and 0 <= y < ROWS:
            self.csrx, self.csry = x, y

    def color(self, fg: int, bg: int | None = None) -> None:
        """COLOR fg[,bg]: the COL0 palettes for text and for the cell background."""
        fg = to_int(fg)
        bg = None if bg is None else to_int(bg)
        for v in (fg, bg):
            if v is not None and not 0 <= v <= 15:
                raise OutOfRange(f"COLOR {v} not in 0-15")
        self.fg = fg
        if bg is not None:
            self.bg = bg

    def cls(self) -> None:
        """CLS: blank every cell, cursor home; every cell takes the current COLOR
        (so a COLOR background fills the whole console, as on PTC).

        Only rows that differ are written (a PRINTed screen has few coloured rows),
        and a console already blank in these colours is not touched at all: CLS is
        called every frame or more, and cost 49 µs a call when it rewrote all 72
        rows (issue 23 §4).
        """
        self.csrx = self.csry = 0
        blank = (self.fg, self.bg)
        if self._blank == blank:
            return
        for rows, fill in ((self._codes, 0), (self._fgs, self.fg), (self._bgs, self.bg)):
            target = _FILLED[fill]
            for row in rows:
                if row != target:
                    row[:] = target
        self._blank = blank
        self._all_dirty = True

    def chkchr(self, x: int, y: int) -> int:
        """CHKCHR: the character code in a cell (0 for a cleared cell), -1 for a
        place off the console ([SBC] console.c ``func_chkchr``)."""
        x, y = to_int(x), to_int(y)
        if not (0 <= x < COLS and 0 <= y < ROWS):
            return -1
        return self._codes[y][x]

    @property
    def codes(self) -> npt.NDArray[np.uint8]:
        """Character codes of all cells, (24, 32) [row, column] (a copy)."""
        return _grid(self._codes)

    @property
    def fg_cells(self) -> npt.NDArray[np.uint8]:
        """COLOR text palette of every cell (a copy)."""
        return _grid(self._fgs)

    @property
    def bg_cells(self) -> npt.NDArray[np.uint8]:
        """COLOR background palette of every cell (a copy)."""
        return _grid(self._bgs)

    # -- printing ------------------------------------------------------------
    def print_items(self, items: Sequence[object], sep: str, end: str) -> None:
        """PRINT: items joined by ``;`` (no gap) or ``,`` (tab), then ``end``.

        ``end`` is ``"\\n"`` (new line), ``""``/``";"`` (stay) or ``","`` (tab, stay).
        """
        if end == "" and len(items) == 1 and isinstance(first := items[0], bytes):
            self._write(first)  # the interpreter's PRINT: one item at a time
            return
        if sep not in (";", ","):
            raise ValueError(f"sep must be ';' or ',', got {sep!r}")
        if end not in ("\n", "", ";", ","):
            raise ValueError(f"end must be '\\n', '', ';' or ',', got {end!r}")
        for i, item in enumerate(items):
            if i and sep == ",":
                self._tab()
            for k, codes in enumerate(self._lines(item)):
                if k:
                    self._newline()
                self._write(codes)
        if end == "\n":
            self._newline()
        elif end == ",":
            self._tab()

    def _lines(self, item: object) -> list[bytes]:
        """An item's codes, one entry per line.

        PTC codes (``bytes``, what BASIC prints) are one line whatever they hold:
        code 13 (CHR$(13)) is a character like any other, as [SBC] ``con_put`` and
        [EMK] ``print_str`` put it (docs/petitcom-decisions.md). A Python ``str``
        breaks its lines at ``\\n`` (or CR), the shim API's convenience.
        """
        if isinstance(item, bytes):
            return [item]
        if isinstance(item, int | float):
            return [format_number(item).encode("ascii")]
        text = str(item).replace("\r\n", "\n").replace("\r", "\n")
        return [self._to_ptc(part) for part in text.split("\n")]

    def _write(self, codes: bytes) -> None:
        i, n = 0, len(codes)
        x, y, fg, bg = self.csrx, self.csry, self.fg, self.bg
        if 0 < n < COLS - x and y < ROWS:
            # the usual PRINT: one run that fits the line (most of a frame's PRINT cost;
            # code 13 is a character like any other, so it fits too)
            row_c, row_f, row_b = self._codes[y], self._fgs[y], self._bgs[y]
            end = x + n
            if (
                row_c[x:end] != codes
                or row_f.count(fg, x, end) != n
                or row_b.count(bg, x, end) != n
            ):
                if not self._all_dirty:
                    self._dirty_cells.update(
                        (x + c, y)
                        for c in range(n)
                        if row_c[x + c] != codes[c] or row_f[x + c] != fg or row_b[x + c] != bg
                    )
                row_c[x:end] = codes
                row_f[x:end] = _FILLED[fg][:n]
                row_b[x:end] = _FILLED[bg][:n]
                self._blank = None
            self.csrx = end
            return
        while i < n:
            if self.csry >= ROWS:  # the last cell was filled: scroll only now
                self._scroll()
            y, x = self.csry, self.csrx
            run = codes[i : i + COLS - x]
            k = len(run)
            fgs, bgs = bytes((self.fg,)) * k, bytes((self.bg,)) * k
            row_c, row_f, row_b = self._codes[y], self._fgs[y], self._bgs[y]
            if row_c[x : x + k] != run or row_f[x : x + k] != fgs or row_b[x : x + k] != bgs:
                if not self._all_dirty:  # only cells that really change are redrawn
                    fg, bg = self.fg, self.bg
                    self._dirty_cells.update(
                        (x + c, y)
                        for c in range(k)
                        if row_c[x + c] != run[c] or row_f[x + c] != fg or row_b[x + c] != bg
                    )
                row_c[x : x + k] = run
                row_f[x : x + k] = fgs
                row_b[x : x + k] = bgs
                self._blank = None
            i += k
            self.csrx += k
            if self.csrx == COLS:
                self._newline(scroll=False)

    #: PRINT of one item of PTC codes staying on the line (``print_items((codes,),
    #: ";", "")``) without its checks: the interpreter's PRINT, one call per item.
    write = _write

    def newline(self) -> None:
        """PRINT's line end (``print_items((), ";", "\\n")`` without its checks)."""
        self._newline()

    def settle(self) -> None:
        """Scroll now if the cursor waits below the last row (after the bottom-right
        cell was filled), so the cursor is on a row of the console."""
        if self.csry >= ROWS:
            self._scroll()

    def _tab(self) -> None:
        """``,``: spaces up to the next TABSTEP column; past the last one they run to the
        end of the line, overwriting it, and wrap without scrolling ([SBC] console.c
        ``cmd_print``; tests/test_console.c "the stupid corner")."""
        if self.csry >= ROWS:  # waiting after the bottom-right cell: scroll first
            self._scroll()
        target = min(COLS, (self.csrx // self._tabstep + 1) * self._tabstep)
        self._write(b" " * (target - self.csrx))

    def _newline(self, scroll: bool = True) -> None:
        """Cursor to the start of the next line.

        Filling the last column wraps without scrolling (``scroll=False``): on the
        bottom row the cursor then waits at (0, 24) and the console scrolls when the
        next character or line break needs the space ([SBC] console.c ``con_put``).
        """
        self.csrx = 0
        self.csry += 1
        if scroll:
            while self.csry >= ROWS:
                self._scroll()

    def _scroll(self) -> None:
        """Move every row up one; the new bottom row is blank in the current COLOR."""
        self.csry -= 1
        for rows, fill in ((self._codes, 0), (self._fgs, self.fg), (self._bgs, self.bg)):
            rows.append(bytearray((fill,)) * COLS)
            del rows[0]
        self._blank = None
        self._all_dirty = True

    # -- rendering -----------------------------------------------------------
    def surface(self) -> pygame.Surface:
        """The console (background cells, then text) as a keyed 256x192 surface."""
        seen = (
            self._chr.version["BGF", self.screen],
            self._chr.version["BGD", self.screen],
            self._pal.version[0],
            self.show_text,
        )
        if seen != self._seen:
            self._seen = seen
            self._glyphs.clear()
            self._all_dirty = True
            self._shown = None  # the cell images themselves changed
        if self._all_dirty and self._shown is not None:
            # CLS (or a scroll) then PRINT again: a screen that clears and rewrites its
            # text every redraw changes few cells, so only those are drawn again.
            self._dirty_cells = self._differing_cells(self._shown)
            self._all_dirty = len(self._dirty_cells) > _MANY_CELLS
        if self._all_dirty:
            self._render_all()
        elif self._dirty_cells:
            self._render_cells()
        else:
            return self._surface
        self._all_dirty = False
        self._dirty_cells.clear()
        self._shown = tuple([bytearray(row) for row in rows] for rows in self._grids())
        return self._surface

    def _grids(self) -> tuple[list[bytearray], list[bytearray], list[bytearray]]:
        return self._codes, self._fgs, self._bgs

    def _differing_cells(self, shown: tuple[list[bytearray], ...]) -> set[tuple[int, int]]:
        """The (x, y) cells whose code or colours differ from ``shown``."""
        cells: set[tuple[int, int]] = set()
        for grid, kept in zip(self._grids(), shown, strict=True):
            for y, row in enumerate(grid):
                old = kept[y]
                if row != old:
                    cells.update((x, y) for x in range(COLS) if row[x] != old[x])
        return cells

    def _cell_pixels(
        self,
        codes: npt.NDArray[np.uint8],
        fg: npt.NDArray[np.uint8],
        bg: npt.NDArray[np.uint8],
    ) -> npt.NDArray[np.uint32]:
        """(..., 8, 8) packed pixels of cells: glyph ink over the COLOR background tile."""
        lut = self._pal.lut(0)
        font = self._chr.family_tiles("BGF", self.screen)
        solid = self._chr.family_tiles("BGD", self.screen)[SOLID_TILE]
        bgi = bg.astype(np.intp)[..., None, None]
        back = np.where((bgi != 0) & (solid != 0), bgi * 16 + solid, 256)
        if not self.show_text:
            index = np.broadcast_to(back, (*codes.shape, 8, 8))
        else:
            glyphs = font[codes]
            glyphs[codes == 0] = 0
            fgi = fg.astype(np.intp)[..., None, None]
            index = np.where(glyphs != 0, fgi * 16 + glyphs, back)
        pixels: npt.NDArray[np.uint32] = lut[index]
        return pixels

    def _render_all(self) -> None:
        pixels = self._cell_pixels(self.codes, self.fg_cells, self.bg_cells)
        # (rows, cols, 8, 8) -> [x, y] for surfarray
        pygame.surfarray.blit_array(
            self._surface, pixels.transpose(1, 3, 0, 2).reshape(COLS * 8, ROWS * 8)
        )

    def _render_cells(self) -> None:
        for x, y in self._dirty_cells:
            key = (self._codes[y][x], self._fgs[y][x], self._bgs[y][x])
            glyph = self._glyphs.get(key)
            if glyph is None:
                cell = self._cell_pixels(
                    np.array(key[0], np.uint8), np.array(key[1], np.uint8),
                    np.array(key[2], np.uint8),
                )  # fmt: skip
                glyph = new_surface(8, 8)
                pygame.surfarray.blit_array(glyph, cell.T)
                self._glyphs[key] = glyph
            self._surface.blit(glyph, (x * 8, y * 8))
