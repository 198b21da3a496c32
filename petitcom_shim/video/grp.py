"""The four 256x192, 8-bpp GRP pages shared by both screens, and their drawing verbs.

A page is a (192, 256) uint8 array. Each screen shows it through its own COL2
(see ``ScreenVideo.grp_surface``, which caches the coloured page until the page
or the palette changes); ``GrpPage.surface`` is an 8-bit view sharing the
pixels for callers that want to set a palette themselves. Colour 0 is
transparent (petitcom.md §1.4). Drawing
honours GDRAWMD: in XOR mode every plotted pixel is XORed with the colour.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pygame

from petitcom_shim.errors import IllegalFunctionCall, OutOfRange

__all__ = ["GRP_H", "GRP_W", "GrpPage", "check_page", "circle_points", "line_points", "on_arc"]

GRP_W = 256
GRP_H = 192


def line_points(x1: int, y1: int, x2: int, y2: int) -> tuple[npt.NDArray[np.intp], ...]:
    """Bresenham line from (x1, y1) to (x2, y2) inclusive, each pixel once."""
    dx, dy = abs(x2 - x1), -abs(y2 - y1)
    sx = 1 if x1 < x2 else -1
    sy = 1 if y1 < y2 else -1
    err = dx + dy
    xs, ys = [], []
    x, y = x1, y1
    while True:
        xs.append(x)
        ys.append(y)
        if x == x2 and y == y2:
            break
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x += sx
        if e2 <= dx:
            err += dx
            y += sy
    return np.array(xs, np.intp), np.array(ys, np.intp)


def circle_points(cx: int, cy: int, r: int) -> tuple[npt.NDArray[np.intp], ...]:
    """Midpoint circle outline of radius r, each pixel once."""
    pts: set[tuple[int, int]] = set()
    x, y, d = r, 0, 1 - r
    while x >= y:
        for px, py in ((x, y), (y, x), (-y, x), (-x, y), (-x, -y), (-y, -x), (y, -x), (x, -y)):
            pts.add((cx + px, cy + py))
        y += 1
        if d < 0:
            d += 2 * y + 1
        else:
            x -= 1
            d += 2 * (y - x) + 1
    ordered = sorted(pts)
    return np.array([p[0] for p in ordered], np.intp), np.array([p[1] for p in ordered], np.intp)


def on_arc(
    xs: npt.NDArray[np.intp], ys: npt.NDArray[np.intp], cx: int, cy: int, start: int, end: int
) -> npt.NDArray[np.bool_]:
    """Which outline pixels lie on the arc from ``start`` to ``end`` degrees, ends included.

    Angles are measured from +X toward +Y (down the screen), so the arc runs
    clockwise on the screen from ``start`` to ``end``, past 360 when ``end`` is
    smaller (docs/petitcom-decisions.md "Published programs").
    """
    angles = np.degrees(np.arctan2(ys - cy, xs - cx)) % 360.0
    span = (end - start) % 360
    offset = (angles - start) % 360.0
    return (offset <= span + 1e-9) | (offset >= 360.0 - 1e-9)


class GrpPage:
    """One GRP page: pixels plus an 8-bit surface sharing them."""

    def __init__(self) -> None:
        self.pixels = np.zeros((GRP_H, GRP_W), np.uint8)
        self.surface = pygame.image.frombuffer(self.pixels.data, (GRP_W, GRP_H), "P")
        self.surface.set_colorkey(0)
        self.empty = True  # known all-zero: nothing to blit
        self.version = 0  # bumped by every drawing verb, for display caches

    def clear(self, c: int = 0) -> None:
        """GCLS: fill the page (XOR mode does not apply)."""
        self.pixels[:] = c & 0xFF
        self.empty = (c & 0xFF) == 0
        self.version += 1

    def plot(self, xs: npt.NDArray[np.intp], ys: npt.NDArray[np.intp], c: int, xor: bool) -> None:
        """Plot points (clipped to the page), each at most once."""
        keep = (xs >= 0) & (xs < GRP_W) & (ys >= 0) & (ys < GRP_H)
        xs, ys = xs[keep], ys[keep]
        if len(xs) == 0:
            return
        if xor:
            self.pixels[ys, xs] ^= c & 0xFF
        else:
            self.pixels[ys, xs] = c & 0xFF
        self.empty = False
        self.version += 1

    def load(self, x: int, y: int, indices: npt.NDArray[np.uint8]) -> None:
        """GLOAD: copy a 2-D array of colour indices to (x, y), clipped (never XOR)."""
        rows, cols = indices.shape
        left, top = max(x, 0), max(y, 0)
        right, bottom = min(x + cols, GRP_W), min(y + rows, GRP_H)
        if left >= right or top >= bottom:
            return
        self.pixels[top:bottom, left:right] = indices[top - y : bottom - y, left - x : right - x]
        self.empty = False
        self.version += 1

    def fill_rect(self, x1: int, y1: int, x2: int, y2: int, c: int, xor: bool) -> None:
        """GFILL: inclusive rectangle, corners in any order, clipped."""
        left, right = sorted((x1, x2))
        top, bottom = sorted((y1, y2))
        left, top = max(left, 0), max(top, 0)
        right, bottom = min(right, GRP_W - 1), min(bottom, GRP_H - 1)
        if left > right or top > bottom:
            return
        area = self.pixels[top : bottom + 1, left : right + 1]
        if xor:
            area ^= c & 0xFF
        else:
            area[:] = c & 0xFF
        self.empty = False
        self.version += 1

    def box(self, x1: int, y1: int, x2: int, y2: int, c: int, xor: bool) -> None:
        """GBOX: rectangle outline, each pixel once (so XOR corners are not undone)."""
        left, right = sorted((x1, x2))
        top, bottom = sorted((y1, y2))
        pts: set[tuple[int, int]] = set()
        for x in range(left, right + 1):
            pts.add((x, top))
            pts.add((x, bottom))
        for y in range(top, bottom + 1):
            pts.add((left, y))
            pts.add((right, y))
        xs = np.array([p[0] for p in pts], np.intp)
        ys = np.array([p[1] for p in pts], np.intp)
        self.plot(xs, ys, c, xor)

    def get(self, x: int, y: int) -> int:
        """GSPOIT: the pixel, or -1 off the page."""
        if 0 <= x < GRP_W and 0 <= y < GRP_H:
            return int(self.pixels[y, x])
        return -1

    def paint(self, x: int, y: int, c: int, border: int | None) -> None:
        """GPAINT: 4-connected flood fill.

        Without ``border`` it recolours the region of the seed's colour; with it,
        the region of pixels that are not ``border``. Scanline algorithm.
        """
        if not (0 <= x < GRP_W and 0 <= y < GRP_H):
            return
        c &= 0xFF
        px = self.pixels
        if border is None:
            seed = int(px[y, x])
            if seed == c:
                return
            inside = px == seed
        else:
            inside = px != (border & 0xFF)
            if not inside[y, x]:
                return
        done = np.zeros_like(inside)
        stack = [(x, y)]
        while stack:
            sx, sy = stack.pop()
            if done[sy, sx] or not inside[sy, sx]:
                continue
            row = inside[sy]
            left = sx
            while left > 0 and row[left - 1]:
                left -= 1
            right = sx
            while right < GRP_W - 1 and row[right + 1]:
                right += 1
            done[sy, left : right + 1] = True
            for ny in (sy - 1, sy + 1):
                if not 0 <= ny < GRP_H:
                    continue
                span = inside[ny, left : right + 1] & ~done[ny, left : right + 1]
                if not span.any():
                    continue
                # one seed per run of fillable pixels
                starts = np.flatnonzero(span & ~np.concatenate(([False], span[:-1])))
                stack.extend((left + int(s), ny) for s in starts)
        px[done] = c
        self.version += 1
        if c:
            self.empty = False

    def blit_chr(self, x: int, y: int, tile: npt.NDArray[np.uint8], pal: int, scale: int) -> None:
        """GPUTCHR's drawing: tile pixel p -> colour 16*pal+p, pixel 0 left untouched."""
        if scale not in (1, 2, 4, 8):
            raise IllegalFunctionCall(f"GPUTCHR scale must be 1, 2, 4 or 8, got {scale}")
        big = np.kron(tile, np.ones((scale, scale), np.uint8))
        ys, xs = np.nonzero(big)
        keep = (xs + x >= 0) & (xs + x < GRP_W) & (ys + y >= 0) & (ys + y < GRP_H)
        xs, ys = xs[keep], ys[keep]
        self.pixels[ys + y, xs + x] = (pal * 16 + big[ys, xs]) & 0xFF
        if len(xs):
            self.empty = False
        self.version += 1

    def copy_from(
        self, src: GrpPage, x1: int, y1: int, x2: int, y2: int, x3: int, y3: int, mode: int
    ) -> None:
        """GCOPY: rectangle (x1,y1)-(x2,y2) of src to (x3,y3); mode 0 skips colour 0."""
        if mode not in (0, 1):
            raise IllegalFunctionCall(f"GCOPY mode must be 0 or 1, got {mode}")
        left, right = sorted((x1, x2))
        top, bottom = sorted((y1, y2))
        block = src.pixels[max(top, 0) : min(bottom, GRP_H - 1) + 1,
                           max(left, 0) : min(right, GRP_W - 1) + 1].copy()  # fmt: skip
        dx = x3 + max(left, 0) - left
        dy = y3 + max(top, 0) - top
        h, w = block.shape
        cx0, cy0 = max(dx, 0), max(dy, 0)
        cx1, cy1 = min(dx + w, GRP_W), min(dy + h, GRP_H)
        if cx0 >= cx1 or cy0 >= cy1:
            return
        part = block[cy0 - dy : cy1 - dy, cx0 - dx : cx1 - dx]
        dest = self.pixels[cy0:cy1, cx0:cx1]
        if mode == 0:
            np.copyto(dest, part, where=part != 0)
        else:
            dest[:] = part
        if part.any():
            self.empty = False
        self.version += 1


def check_page(n: int) -> int:
    """Validate a GRP page number (0-3)."""
    if not 0 <= n <= 3:
        raise OutOfRange(f"GRP page {n} not in 0-3")
    return int(n)
