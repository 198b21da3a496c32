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
#: The longest line (in steps along its major axis) :meth:`GrpPage.line` plots point by
#: point: below about this, a Python loop costs less than numpy's set-up (measured).
SHORT_LINE = 32


def _span(start: int, sign: int, limit: int) -> tuple[int, int]:
    """The steps ``k`` for which ``start + sign * k`` lies in ``0 .. limit-1``."""
    if sign > 0:
        return -start, limit - 1 - start
    return start - limit + 1, start


def line_points(x1: int, y1: int, x2: int, y2: int) -> tuple[npt.NDArray[np.intp], ...]:
    """Bresenham line from (x1, y1) to (x2, y2) inclusive, each pixel once, clipped to
    the page: only its visible pixels are made, so a line between far-off ends costs
    what its part on the page costs (issue 23 §5).

    The ``k``-th pixel along the major axis (the longer of the two distances ``n``;
    x when they are equal) is ``k`` steps along it and ``(2*k*d + n) // (2*n)``
    along the other (``d`` its distance): the pixels of the step-by-step algorithm
    (Zingl's error-term Bresenham) this replaced, checked equal on every line up to
    60 pixels long (tests/test_shim_video.py).
    """
    dx, dy = x2 - x1, y2 - y1
    if abs(dx) >= abs(dy):
        major, minor, n, d = (
            (x1, 1 if dx >= 0 else -1, GRP_W),
            (y1, 1 if dy >= 0 else -1, GRP_H),
            abs(dx),
            abs(dy),
        )
    else:
        major, minor, n, d = (
            (y1, 1 if dy >= 0 else -1, GRP_H),
            (x1, 1 if dx >= 0 else -1, GRP_W),
            abs(dy),
            abs(dx),
        )
    low, high = _span(*major)
    low, high = max(low, 0), min(high, n)
    q_low, q_high = _span(*minor)
    if d == 0:
        if not q_low <= 0 <= q_high:
            high = low - 1
    else:
        # q(k) = (2kd + n) // 2n is non-decreasing: the k with q_low <= q(k) <= q_high
        low = max(low, -((n - 2 * n * q_low) // (2 * d)))
        high = min(high, -((n - 2 * n * (q_high + 1)) // (2 * d)) - 1)
    if low > high:
        empty = np.zeros(0, np.intp)
        return empty, empty
    ks = np.arange(low, high + 1, dtype=np.int64)
    q = (2 * ks * d + n) // (2 * n) if n else np.zeros_like(ks)
    along = (major[0] + major[1] * ks).astype(np.intp)
    across = (minor[0] + minor[1] * q).astype(np.intp)
    return (along, across) if abs(dx) >= abs(dy) else (across, along)


def circle_points(cx: int, cy: int, r: int) -> tuple[npt.NDArray[np.intp], ...]:
    """Midpoint circle outline of radius r, each pixel once, clipped to the page: a
    circle costs what its visible pixels cost, whatever its radius (issue 23 §5).

    In the first octant the midpoint algorithm (``x=r, y=0, d=1-r``; keep ``x``
    while ``x*x - x + y*y - r*r < 0``) puts at row ``y`` the largest ``x`` with
    ``x*(x-1) < r*r - y*y``, that is ``(1 + isqrt(4*(r*r - y*y) - 3)) // 2``, for
    as long as ``x >= y``; the other seven octants mirror it. Each octant mirrors
    ``y`` onto one page axis, so only the rows whose mirror lands on the page
    (at most 256 per octant) are worked out. Checked equal to the step-by-step
    algorithm for every radius up to 300 (tests/test_shim_video.py).
    """
    if r < 0:
        empty = np.zeros(0, np.intp)
        return empty, empty
    keys: list[npt.NDArray[np.int64]] = []
    # (which axis y runs along, its sign, the sign of x on the other axis)
    for y_on_x in (False, True):
        centre_y, centre_x = (cx, cy) if y_on_x else (cy, cx)
        limit_y = GRP_W if y_on_x else GRP_H
        for sign_y in (1, -1):
            low, high = _span(centre_y, sign_y, limit_y)
            low, high = max(low, 0), min(high, r)
            if low > high:
                continue
            ys = np.arange(low, high + 1, dtype=np.int64)
            xs = _octant_x(r, ys)
            keep = xs >= ys
            ys, xs = ys[keep], xs[keep]
            for sign_x in (1, -1):
                along_y = centre_y + sign_y * ys
                along_x = centre_x + sign_x * xs
                px, py = (along_y, along_x) if y_on_x else (along_x, along_y)
                visible = (px >= 0) & (px < GRP_W) & (py >= 0) & (py < GRP_H)
                keys.append(py[visible] * GRP_W + px[visible])
    if not keys:
        empty = np.zeros(0, np.intp)
        return empty, empty
    flat = np.unique(np.concatenate(keys))
    return (flat % GRP_W).astype(np.intp), (flat // GRP_W).astype(np.intp)


def _octant_x(r: int, ys: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The midpoint circle's x at rows ``ys`` of its first octant (see :func:`circle_points`)."""
    rest = r * r - ys * ys
    if r == 0:
        return np.where(ys == 0, 0, -1).astype(np.int64)
    value = 4 * rest - 3
    root = np.floor(np.sqrt(np.maximum(value, 0).astype(np.float64))).astype(np.int64)
    root -= root * root > value  # float sqrt may be one off near a square
    root += (root + 1) * (root + 1) <= value
    return np.where(value >= 0, (1 + root) // 2, -1)


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

    def line(self, x1: int, y1: int, x2: int, y2: int, c: int, xor: bool) -> None:
        """GLINE's pixels (:func:`line_points`'s, each once) in colour ``c``.

        A line with both ends on the page is convex with it, so every point is on the
        page: a short one (:data:`SHORT_LINE` steps or fewer) is plotted point by
        point in Python, which costs less than setting up numpy's arrays (about
        25 µs a line, whatever its length); a longer one gets its points from
        :func:`line_points`, already clipped, and skips :meth:`plot`'s clipping mask.
        """
        dx, dy = x2 - x1, y2 - y1
        level = abs(dx) >= abs(dy)  # x is the major axis
        n, d = (abs(dx), abs(dy)) if level else (abs(dy), abs(dx))
        inside = 0 <= x1 < GRP_W and 0 <= x2 < GRP_W and 0 <= y1 < GRP_H and 0 <= y2 < GRP_H
        if not (inside and n <= SHORT_LINE):
            xs, ys = line_points(x1, y1, x2, y2)
            self._put(xs, ys, c, xor)
            return
        c &= 0xFF
        pixels = self.pixels
        sx = 1 if dx >= 0 else -1
        sy = 1 if dy >= 0 else -1
        n2 = 2 * n or 1
        for k in range(n + 1):
            q = (2 * k * d + n) // n2
            x, y = (x1 + sx * k, y1 + sy * q) if level else (x1 + sx * q, y1 + sy * k)
            if xor:
                pixels[y, x] ^= c
            else:
                pixels[y, x] = c
        self.empty = False
        self.version += 1

    def plot(self, xs: npt.NDArray[np.intp], ys: npt.NDArray[np.intp], c: int, xor: bool) -> None:
        """Plot points (clipped to the page), each at most once."""
        keep = (xs >= 0) & (xs < GRP_W) & (ys >= 0) & (ys < GRP_H)
        self._put(xs[keep], ys[keep], c, xor)

    def _put(self, xs: npt.NDArray[np.intp], ys: npt.NDArray[np.intp], c: int, xor: bool) -> None:
        """Plot points that are all on the page, each at most once."""
        if len(xs) == 0:
            return
        if xor:
            self.pixels[ys, xs] ^= c & 0xFF
        else:
            self.pixels[ys, xs] = c & 0xFF
        self.empty = False
        self.version += 1

    def point(self, x: int, y: int, c: int, xor: bool) -> None:
        """GPSET: one pixel (nothing off the page), without the arrays of :meth:`plot`:
        programs plot hundreds a frame (issue 23 §4)."""
        if 0 <= x < GRP_W and 0 <= y < GRP_H:
            if xor:
                self.pixels[y, x] ^= c & 0xFF
            else:
                self.pixels[y, x] = c & 0xFF
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
        # only the page's part of each edge: far-off corners cost nothing (issue 23 §5)
        keys: list[npt.NDArray[np.int64]] = []
        cols = np.arange(max(left, 0), min(right, GRP_W - 1) + 1, dtype=np.int64)
        rows = np.arange(max(top, 0), min(bottom, GRP_H - 1) + 1, dtype=np.int64)
        for y in (top, bottom):
            if 0 <= y < GRP_H:
                keys.append(y * GRP_W + cols)
        for x in (left, right):
            if 0 <= x < GRP_W:
                keys.append(rows * GRP_W + x)
        if not keys:
            return
        flat = np.unique(np.concatenate(keys))
        self.plot((flat % GRP_W).astype(np.intp), (flat // GRP_W).astype(np.intp), c, xor)

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
        # One bytearray per row of the pixels still to fill (1): byte searches in C
        # find a span's ends and the runs beside it, where a numpy call per span
        # made a comb-shaped region (24,000 spans) take 300 ms (issue 23 §5).
        flat = inside.astype(np.uint8).tobytes()
        free = [bytearray(flat[row * GRP_W : (row + 1) * GRP_W]) for row in range(GRP_H)]
        stack = [(x, y)]
        while stack:
            sx, sy = stack.pop()
            row = free[sy]
            if not row[sx]:
                continue  # filled since it was pushed
            left = row.rfind(0, 0, sx) + 1
            right = row.find(0, sx)
            right = GRP_W if right < 0 else right
            row[left:right] = bytes(right - left)
            for ny in (sy - 1, sy + 1):
                if not 0 <= ny < GRP_H:
                    continue
                beside = free[ny]
                at = beside.find(1, left, right)
                while at >= 0:  # one seed per run of fillable pixels
                    stack.append((at, ny))
                    gap = beside.find(0, at, right)
                    if gap < 0:
                        break
                    at = beside.find(1, gap, right)
        done = inside & (np.frombuffer(b"".join(free), np.uint8).reshape(GRP_H, GRP_W) == 0)
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
