"""The separate layout on one monitor (issue 18 item 2): both windows fit, with room for
their title bars, at the largest scale that allows it; an optional gap between screens.

``--layout separate`` on one 1920x1200 monitor opened two 1280x960 windows, the bottom
one 75 % off-screen; at ``--scale 2`` its title bar covered the top screen's last line.
"""

from __future__ import annotations

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from petitcom_shim import display
from petitcom_shim.display import SCREEN_H, SCREEN_W, TITLE_BAR, Placement, place_separate

Box = tuple[int, int, int, int]


def boxes(p: Placement, gap: int = 0) -> list[Box]:
    """Each window with its title bar above it: (left, top, right, bottom)."""
    w, h = SCREEN_W * p.scale, SCREEN_H * p.scale
    return [(x, y - TITLE_BAR, x + w, y + h) for x, y in p.positions]


def disjoint(a: Box, b: Box) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def test_on_1920x1200_both_windows_fit_at_the_largest_scale() -> None:
    p = place_separate((1920, 1200))
    assert p.scale == 3
    top, bottom = boxes(p)
    for left, up, right, down in (top, bottom):
        assert left >= 0 and right <= 1920 and up >= 0 and down <= 1200
    assert disjoint(top, bottom)


def test_a_given_scale_is_kept_and_the_title_bar_never_covers_the_top_screen() -> None:
    p = place_separate((1920, 1200), scale=2)
    assert p.scale == 2 and p.stacked  # top above bottom, like the handheld
    (tx, ty), (bx, by) = p.positions
    assert tx == bx and by - TITLE_BAR >= ty + SCREEN_H * 2
    assert disjoint(*boxes(p))


def test_the_gap_separates_the_windows_by_that_many_ds_pixels() -> None:
    p = place_separate((1920, 1200), scale=2, gap=20)
    (_, ty), (_, by) = p.positions
    assert by - (ty + SCREEN_H * 2) == TITLE_BAR + 20 * 2


def test_a_tall_monitor_stacks_and_a_wide_one_goes_side_by_side() -> None:
    assert place_separate((1280, 1024)).stacked
    wide = place_separate((3840, 1080))
    assert not wide.stacked and wide.positions[0][1] == wide.positions[1][1]


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=320, max_value=8000),
    st.integers(min_value=240, max_value=5000),
    st.integers(min_value=0, max_value=96),
)
def test_the_automatic_choice_always_fits(width: int, height: int, gap: int) -> None:
    p = place_separate((width, height), gap=gap, margin=(0, 0))
    top, bottom = boxes(p)
    if p.scale == 1 and not all(b[2] <= width and b[3] <= height for b in (top, bottom)):
        return  # not even scale 1 fits: it is the smallest there is
    for left, up, right, down in (top, bottom):
        assert left >= 0 and right <= width and up >= 0 and down <= height
    assert disjoint(top, bottom)
    bigger = place_separate((width, height), scale=p.scale + 1, gap=gap, margin=(0, 0))
    if p.scale < display.MAX_SCALE:  # one step larger would not fit either way
        t, b = boxes(bigger)
        assert not (disjoint(t, b) and all(x[2] <= width and x[3] <= height for x in (t, b)))


def test_the_separate_windows_open_where_place_separate_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pygame.display, "get_desktop_sizes", lambda: [(1920, 1200)])
    frontend = display.WindowFrontend(layout="separate", gap=8)
    try:
        expected = place_separate((1920, 1200), 0, 8, frontend.config.desktop_margin)
        assert [e.window.size for e in frontend.windows] == [(768, 576)] * 2
        assert [tuple(e.window.position) for e in frontend.windows] == list(expected.positions)
    finally:
        frontend.close()
