"""GRP drawing is clipped before it is worked out (issue 23 §5): a call costs what its
visible pixels cost, whatever its arguments within PTC's number range.

The pixels must stay those of the step-by-step algorithms the shim drew with
before (kept here as references): Zingl's error-term Bresenham line and the
midpoint circle, clipped to the 256x192 page afterwards.
"""

from __future__ import annotations

import random
import tracemalloc
from collections.abc import Callable, Iterator

import numpy as np
import pytest

from petitcom_shim import Machine
from petitcom_shim.video.grp import GRP_H, GRP_W, circle_points, line_points

#: The largest PTC number's integer part.
BIG = 524287

Point = tuple[int, int]


def _visible(points: list[Point]) -> list[Point]:
    return [(x, y) for x, y in points if 0 <= x < GRP_W and 0 <= y < GRP_H]


def _reference_line(x1: int, y1: int, x2: int, y2: int) -> list[Point]:
    dx, dy = abs(x2 - x1), -abs(y2 - y1)
    sx = 1 if x1 < x2 else -1
    sy = 1 if y1 < y2 else -1
    err = dx + dy
    out = []
    x, y = x1, y1
    while True:
        out.append((x, y))
        if x == x2 and y == y2:
            return _visible(out)
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x += sx
        if e2 <= dx:
            err += dx
            y += sy


def _reference_circle(cx: int, cy: int, r: int) -> set[Point]:
    pts: set[Point] = set()
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
    return set(_visible(sorted(pts)))


@pytest.fixture
def m() -> Iterator[Machine]:
    machine = Machine(headless=True, seed=7)
    yield machine
    machine.close()


def test_clipped_line_has_the_step_by_step_pixels_in_order() -> None:
    rng = random.Random(23)
    for _ in range(4000):
        x1, y1 = rng.randint(-80, 330), rng.randint(-80, 270)
        x2, y2 = x1 + rng.randint(-60, 60), y1 + rng.randint(-60, 60)
        xs, ys = line_points(x1, y1, x2, y2)
        got = list(zip(xs.tolist(), ys.tolist(), strict=True))
        assert got == _reference_line(x1, y1, x2, y2), (x1, y1, x2, y2)
    for _ in range(200):  # long lines from far off the page
        x1, y1 = rng.randint(-3000, 3000), rng.randint(-3000, 3000)
        x2, y2 = rng.randint(-10, 265), rng.randint(-10, 200)
        xs, ys = line_points(x1, y1, x2, y2)
        got = list(zip(xs.tolist(), ys.tolist(), strict=True))
        assert got == _reference_line(x1, y1, x2, y2), (x1, y1, x2, y2)


def test_clipped_circle_has_the_midpoint_pixels_once_each() -> None:
    rng = random.Random(5)
    cases = [(rng.randint(-100, 350), rng.randint(-100, 300), r) for r in range(0, 300, 3)]
    cases += [(128, 96 - 70000 + 40, 70000), (128 - 70000 + 10, 96, 70000)]
    for cx, cy, r in cases:
        xs, ys = circle_points(cx, cy, r)
        got = set(zip(xs.tolist(), ys.tolist(), strict=True))
        assert len(got) == len(xs)
        assert got == _reference_circle(cx, cy, r), (cx, cy, r)


def test_box_with_far_corners_draws_the_visible_edges(m: Machine) -> None:
    m.gcls(0)
    m.gbox(-BIG, -BIG, 100, 50, 3)
    page = m.grp_pages[0].pixels
    assert (page[50, :101] == 3).all() and (page[:51, 100] == 3).all()
    assert int((page == 3).sum()) == 101 + 51 - 1
    m.gcls(0)
    m.gbox(-BIG, -BIG, BIG, BIG, 3)  # every edge off the page
    assert not page.any()


@pytest.mark.parametrize(
    ("name", "call"),
    [
        ("GCIRCLE", lambda m: m.gcircle(3, 255, BIG, 3)),
        ("GCIRCLE edge", lambda m: m.gcircle(128, 96 - BIG + 40, BIG, 3)),
        ("GBOX", lambda m: m.gbox(-BIG, BIG, BIG, -BIG, 3)),
        ("GBOX edge", lambda m: m.gbox(-BIG, -BIG, 100, 50, 3)),
        ("GLINE", lambda m: m.gline(-BIG, -BIG, BIG, BIG, 3)),
        ("GLINE far", lambda m: m.gline(-BIG, 7, BIG, -9, 3)),
        ("GFILL", lambda m: m.gfill(-BIG, -BIG, BIG, BIG, 3)),
        ("GCOPY", lambda m: m.gcopy(0, -BIG, -BIG, BIG, BIG, -BIG, BIG, 1)),
        ("GPAINT", lambda m: m.gpaint(BIG, -BIG, 3)),
    ],
)
def test_extreme_graphics_call_works_in_proportion_to_the_page(
    m: Machine, name: str, call: Callable[[Machine], None]
) -> None:
    """Each call's peak memory stays within a page's worth of points (the old
    GCIRCLE made 3 million and needed 660 MB; GBOX 640 MB)."""
    tracemalloc.start()
    try:
        call(m)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4_000_000, f"{name} peaked at {peak} bytes"


def test_gpset_plots_one_pixel_on_the_page_and_xors(m: Machine) -> None:
    m.gcls(0)
    page = m.grp_pages[0]
    version = page.version
    m.gpset(-1, 5, 3)
    m.gpset(256, 5, 3)
    m.gpset(BIG, -BIG, 3)
    assert not page.pixels.any() and page.version == version
    m.gpset(255, 191, 3)
    m.gdrawmd(True)
    m.gpset(0, 0, 6)
    m.gpset(0, 0, 5)
    assert page.pixels[191, 255] == 3 and page.pixels[0, 0] == 3
    assert int(np.count_nonzero(page.pixels)) == 2 and page.version == version + 3


def _reference_fill(pixels: np.ndarray, x: int, y: int, border: int | None) -> np.ndarray:
    """The 4-connected region GPAINT fills, by breadth-first search."""
    inside = pixels != border if border is not None else pixels == pixels[y, x]
    region = np.zeros_like(inside)
    todo = [(x, y)]
    while todo:
        px, py = todo.pop()
        if 0 <= px < GRP_W and 0 <= py < GRP_H and inside[py, px] and not region[py, px]:
            region[py, px] = True
            todo += [(px + 1, py), (px - 1, py), (px, py + 1), (px, py - 1)]
    return region


@pytest.mark.parametrize("seed", range(6))
def test_gpaint_fills_the_connected_region(m: Machine, seed: int) -> None:
    rng = np.random.default_rng(seed)
    page = m.grp_pages[0]
    noise = (rng.random((GRP_H, GRP_W)) < 0.3 + 0.05 * seed).astype(np.uint8) * 2
    page.pixels[:] = noise
    x, y = int(rng.integers(GRP_W)), int(rng.integers(GRP_H))
    border = 2 if seed % 2 else None
    expected = np.where(_reference_fill(noise, x, y, border), 7, noise)
    if border is not None and noise[y, x] == 2:
        expected = noise
    m.gpaint(x, y, 7, border)
    assert np.array_equal(page.pixels, expected)


def test_gpaint_of_a_comb_fills_every_tooth(m: Machine) -> None:
    """The worst region for a scanline fill: 128 one-pixel teeth, 24,000 spans."""
    page = m.grp_pages[0]
    cols = np.arange(GRP_W)
    comb = np.zeros((GRP_H, GRP_W), np.uint8)
    comb[1:, cols % 2 == 1] = 1  # walls hanging from a free top row
    page.pixels[:] = comb
    m.gpaint(0, 0, 5)
    assert int((page.pixels == 5).sum()) == GRP_W * GRP_H - int(comb.sum())


@pytest.mark.parametrize("xor", [False, True])
def test_level_and_upright_glines_draw_the_lines_pixels(xor: bool) -> None:
    """GLINE with equal x or equal y fills a slice (issue 23 item 4): the same pixels as
    the line's points, off-page ends, reversed ends and XOR mode included."""
    rng = random.Random(5)
    drawn, reference = Machine(headless=True), Machine(headless=True)
    if xor:
        drawn.gdrawmd(True)
    coords = [-BIG, -300, -1, 0, 1, 100, 191, 192, 255, 256, 400, BIG]
    for k in range(300):
        a, b = rng.choice(coords), rng.choice(coords)
        fixed = rng.choice(coords)
        x1, y1, x2, y2 = (fixed, a, fixed, b) if k % 2 else (a, fixed, b, fixed)
        colour = rng.randrange(1, 256)
        drawn.gline(x1, y1, x2, y2, colour)
        page = reference.grp_pages[0]
        page.plot(*line_points(x1, y1, x2, y2), colour, xor)
    assert np.array_equal(drawn.grp_pages[0].pixels, reference.grp_pages[0].pixels)
    assert drawn.grp_pages[0].pixels.any()


@pytest.mark.parametrize("xor", [False, True])
def test_slanted_glines_draw_the_lines_pixels(xor: bool) -> None:
    """A slanted GLINE (``GrpPage.line``: point by point when short and on the page,
    numpy's points otherwise) draws :func:`line_points`' pixels, each once: short and
    long lines, every octant, ends on, at the edge of and off the page, XOR mode."""
    rng = random.Random(11)
    drawn, reference = Machine(headless=True), Machine(headless=True)
    if xor:
        drawn.gdrawmd(True)
    edges = [-BIG, -40, -1, 0, 1, 254, 255, 256, 300, BIG]
    for k in range(2000):
        if k % 3:
            x1, y1 = rng.randrange(-5, 261), rng.randrange(-5, 197)
            x2, y2 = x1 + rng.randint(-40, 40), y1 + rng.randint(-40, 40)
        else:
            x1, y1, x2, y2 = (rng.choice([*edges, rng.randrange(256)]) for _ in range(4))
        if x1 == x2 or y1 == y2:
            continue
        colour = rng.randrange(1, 256)
        drawn.gline(x1, y1, x2, y2, colour)
        reference.grp_pages[0].plot(*line_points(x1, y1, x2, y2), colour, xor)
        if k % 97 == 0:
            assert np.array_equal(drawn.grp_pages[0].pixels, reference.grp_pages[0].pixels)
    assert np.array_equal(drawn.grp_pages[0].pixels, reference.grp_pages[0].pixels)
    assert drawn.grp_pages[0].pixels.any()
