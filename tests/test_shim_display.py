"""petitcom_shim.display geometry: window pixel <-> DS pixel for every layout, scale and gap.

The expectations are built independently of the code under test: a DS pixel
(screen, x, y) of a layout at scale s, gap g and origin (ox, oy) covers the
window pixels [ox + s*col, ox + s*col + s) x [oy + s*row, oy + s*row + s),
where col/row count DS pixels from the window's content corner (the bottom
screen is offset by 192 + g rows in the vertical layout and 256 + g columns
in the horizontal one). Every DS pixel is checked at all four corners of its
block; sweeps along whole window rows and columns cover the gap and the
letterbox bars.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from petitcom_shim.display import (
    SCREEN_H,
    SCREEN_W,
    Viewport,
    content_size,
    finger_to_window,
    fit_scale,
    fit_viewport,
    horizontal_from_ds,
    horizontal_to_ds,
    separate_from_ds,
    separate_to_ds,
    single_from_ds,
    single_to_ds,
    vertical_from_ds,
    vertical_to_ds,
)

SCALES = range(1, 7)
GAPS = (0, 11)


def block_corner(layout: str, screen: int, x: int, y: int, scale: int, gap: int) -> tuple[int, int]:
    """Independent reference: window pixel of a DS pixel's top-left corner at origin (0, 0)."""
    col, row = x, y
    if layout == "vertical" and screen == 1:
        row += SCREEN_H + gap
    if layout == "horizontal" and screen == 1:
        col += SCREEN_W + gap
    return (col * scale, row * scale)


def _all_pixels() -> tuple[list[int], list[int]]:
    ys, xs = np.mgrid[0:SCREEN_H, 0:SCREEN_W]
    return xs.ravel().tolist(), ys.ravel().tolist()


XS, YS = _all_pixels()


def _check_every_pixel(
    layout: str,
    screens: tuple[int, ...],
    to_ds: Callable[[float, float], object],
    from_ds: Callable[[int, int, int], object],
    scale: int,
    gap: int,
    origin: tuple[int, int],
) -> None:
    last = scale - 1
    ox, oy = origin
    for screen in screens:
        for x, y in zip(XS, YS, strict=True):
            cx, cy = block_corner(layout, screen, x, y, scale, gap)
            left, top = cx + ox, cy + oy
            want = (screen, x, y)
            assert from_ds(screen, x, y) == (left, top)
            # All four corners of the block, and the far edge as a fraction just inside.
            if (
                to_ds(left, top) != want
                or to_ds(left + last, top + last) != want
                or to_ds(left + last, top) != want
                or to_ds(left, top + last) != want
                or to_ds(left + scale - 0.001, top + scale - 0.001) != want
            ):
                pytest.fail(f"{layout} s{scale} g{gap}: pixel {want} block at {(left, top)}")


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("gap", GAPS)
def test_vertical_every_pixel(scale: int, gap: int) -> None:
    origin = (3, 5)
    _check_every_pixel(
        "vertical",
        (0, 1),
        lambda px, py: vertical_to_ds(px, py, scale, gap, origin),
        lambda s, x, y: vertical_from_ds(s, x, y, scale, gap, origin),
        scale,
        gap,
        origin,
    )


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("gap", GAPS)
def test_horizontal_every_pixel(scale: int, gap: int) -> None:
    origin = (0, 7)
    _check_every_pixel(
        "horizontal",
        (0, 1),
        lambda px, py: horizontal_to_ds(px, py, scale, gap, origin),
        lambda s, x, y: horizontal_from_ds(s, x, y, scale, gap, origin),
        scale,
        gap,
        origin,
    )


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("shown", (0, 1))
def test_single_and_separate_every_pixel(scale: int, shown: int) -> None:
    origin = (9, 0)
    _check_every_pixel(
        "single",
        (shown,),
        lambda px, py: single_to_ds(px, py, scale, shown, origin),
        lambda s, x, y: single_from_ds(s, x, y, scale, shown, origin),
        scale,
        0,
        origin,
    )
    # The separate layout is one screen per window, the same mapping.
    for x, y in ((0, 0), (255, 191), (17, 100)):
        corner = separate_from_ds(shown, x, y, scale, shown, origin)
        assert corner == single_from_ds(shown, x, y, scale, shown, origin)
        assert corner is not None
        assert separate_to_ds(corner[0] + scale - 1, corner[1], scale, shown, origin) == (
            shown,
            x,
            y,
        )
    # The other screen is not in this window.
    assert single_from_ds(1 - shown, 0, 0, scale, shown, origin) is None
    assert separate_from_ds(1 - shown, 5, 5, scale, shown, origin) is None


Labels = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _reference_labels(
    layout: str, scale: int, gap: int, size: tuple[int, int], origin: tuple[int, int]
) -> Labels:
    """Per window column and row: the DS coordinate (or -1) and the screen it belongs to."""
    cols = np.full(size[0], -1)
    rows = np.full(size[1], -1)
    col_screen = np.full(size[0], -1)
    row_screen = np.full(size[1], -1)

    def paint(labels: np.ndarray, owner: np.ndarray, start: int, count: int, screen: int) -> None:
        values = np.repeat(np.arange(count), scale)
        lo = start
        hi = start + values.size
        keep = slice(max(lo, 0), min(hi, labels.size))
        labels[keep] = values[keep.start - lo : keep.stop - lo]
        owner[keep] = screen

    ox, oy = origin
    if layout == "vertical":
        paint(cols, col_screen, ox, SCREEN_W, 0)
        paint(rows, row_screen, oy, SCREEN_H, 0)
        paint(rows, row_screen, oy + (SCREEN_H + gap) * scale, SCREEN_H, 1)
    else:  # horizontal
        paint(rows, row_screen, oy, SCREEN_H, 0)
        paint(cols, col_screen, ox, SCREEN_W, 0)
        paint(cols, col_screen, ox + (SCREEN_W + gap) * scale, SCREEN_W, 1)
    return cols, rows, col_screen, row_screen


@pytest.mark.parametrize("layout", ["vertical", "horizontal"])
@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("gap", GAPS)
def test_sweeps_over_gap_and_letterbox_bars(layout: str, scale: int, gap: int) -> None:
    cw, ch = content_size(layout, gap)
    size = (cw * scale + 37, ch * scale + 20)  # bigger window: bars on every side
    view = fit_viewport(layout, size, gap=gap)
    assert view.scale == scale
    assert view.origin == (18, 10)
    cols, rows, col_screen, row_screen = _reference_labels(layout, scale, gap, size, view.origin)

    def expect(px: int, py: int) -> tuple[int, int, int] | None:
        if cols[px] < 0 or rows[py] < 0:
            return None
        screen = row_screen[py] if layout == "vertical" else col_screen[px]
        return (int(screen), int(cols[px]), int(rows[py]))

    # Whole rows: first/last row of each screen, a gap row, bar rows.
    top0 = view.origin[1]
    probe_rows = {0, top0 - 1, top0, top0 + scale - 1, top0 + 96 * scale, size[1] - 1}
    if layout == "vertical":
        bottom0 = top0 + (SCREEN_H + gap) * scale
        probe_rows |= {
            bottom0 - 1,
            bottom0,
            bottom0 + SCREEN_H * scale - 1,
            bottom0 + SCREEN_H * scale,
        }
    else:
        probe_rows |= {top0 + SCREEN_H * scale - 1, top0 + SCREEN_H * scale}
    for py in sorted(r for r in probe_rows if 0 <= r < size[1]):
        for px in range(size[0]):
            assert view.to_ds(px, py) == expect(px, py), (px, py)
    # Whole columns likewise.
    left0 = view.origin[0]
    probe_cols = {0, left0 - 1, left0, left0 + 128 * scale, size[0] - 1}
    if layout == "horizontal":
        right0 = left0 + (SCREEN_W + gap) * scale
        probe_cols |= {right0 - 1, right0, right0 + SCREEN_W * scale - 1, right0 + SCREEN_W * scale}
    else:
        probe_cols |= {left0 + SCREEN_W * scale - 1, left0 + SCREEN_W * scale}
    for px in sorted(c for c in probe_cols if 0 <= c < size[0]):
        for py in range(size[1]):
            assert view.to_ds(px, py) == expect(px, py), (px, py)


@pytest.mark.parametrize("layout", ["vertical", "horizontal", "single", "separate"])
@pytest.mark.parametrize("scale", SCALES)
def test_drag_leaving_the_bottom_screen_is_clamped(layout: str, scale: int) -> None:
    view = Viewport(layout, scale, gap=4, origin=(30, 40), shown=1)
    corner = view.from_ds(1, 0, 0)
    assert corner is not None
    bx, by = corner
    far = 10_000
    assert view.to_bottom_clamped(bx - 1, by - 1) == (0, 0)
    assert view.to_bottom_clamped(-far, -far) == (0, 0)
    assert view.to_bottom_clamped(far, far) == (255, 191)
    assert view.to_bottom_clamped(bx + 100 * scale, -far) == (100, 0)
    assert view.to_bottom_clamped(far, by + 50 * scale + scale - 1) == (255, 50)
    assert view.to_bottom_clamped(bx + 256 * scale, by + 192 * scale) == (255, 191)
    assert view.to_bottom_clamped(bx + 255 * scale, by + 191 * scale) == (255, 191)
    assert view.to_bottom_clamped(bx + 7 * scale + scale - 1, by + 9 * scale) == (7, 9)
    hidden = Viewport(layout, scale, origin=(0, 0), shown=0)
    if layout in ("single", "separate"):
        assert hidden.to_bottom_clamped(5, 5) is None


def test_gap_and_outside_map_to_nothing() -> None:
    assert vertical_to_ds(0, 192 * 2, 2, gap=10) is None  # first gap row
    assert vertical_to_ds(0, (192 + 10) * 2 - 1, 2, gap=10) is None  # last gap row
    assert vertical_to_ds(0, (192 + 10) * 2, 2, gap=10) == (1, 0, 0)
    assert vertical_to_ds(-1, 0, 1) is None
    assert vertical_to_ds(256, 0, 1) is None
    assert vertical_to_ds(0, 384, 1) is None
    assert horizontal_to_ds(256 * 3, 0, 3, gap=1) is None
    assert horizontal_to_ds(257 * 3, 0, 3, gap=1) == (1, 0, 0)
    assert horizontal_to_ds(0, 192, 1) is None
    assert single_to_ds(256, 0, 1, 1) is None
    assert single_to_ds(-0.5, 0, 1, 1) is None


@pytest.mark.parametrize(
    "bad", [(2, 0, 0), (-1, 0, 0), (0, 256, 0), (0, 0, 192), (1, -1, 0), (1, 0, -1)]
)
def test_from_ds_rejects_pixels_that_do_not_exist(bad: tuple[int, int, int]) -> None:
    with pytest.raises(ValueError):
        vertical_from_ds(*bad, scale=1)
    with pytest.raises(ValueError):
        horizontal_from_ds(*bad, scale=1)
    with pytest.raises(ValueError):
        single_from_ds(*bad, scale=1, shown=1)


def test_fit_and_content_sizes() -> None:
    assert content_size("vertical", 5) == (256, 389)
    assert content_size("horizontal", 5) == (517, 192)
    assert content_size("single") == content_size("separate") == (256, 192)
    with pytest.raises(ValueError):
        content_size("diagonal")
    assert fit_scale((1920, 1080), (256, 384)) == 2
    assert fit_scale((1920, 1080), (256, 192)) == 5
    assert fit_scale((100, 100), (256, 192)) == 1
    view = fit_viewport("vertical", (1920, 1080), gap=0)
    assert (view.scale, view.origin) == (2, (704, 156))
    view = fit_viewport("single", (3840, 2160), shown=0)
    assert (view.scale, view.origin, view.shown) == (11, (512, 24), 0)


@pytest.mark.parametrize("size", [(256, 384), (1536, 1152), (517, 200), (1, 1)])
def test_finger_coordinates_round_trip_to_window_pixels(size: tuple[int, int]) -> None:
    w, h = size
    for px in {0, 1, w // 2, w - 2, w - 1}:
        for py in {0, h // 3, h - 1}:
            nx = px / (w - 1) if w > 1 else 0.5
            ny = py / (h - 1) if h > 1 else 0.5
            if w > 1 and h > 1:
                assert finger_to_window(nx, ny, size) == (px, py)
    assert finger_to_window(-0.2, 1.3, size) == (0, h - 1)
