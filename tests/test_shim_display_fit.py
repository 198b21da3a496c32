"""Fit mode: screens scaled smoothly to the largest aspect-keeping size, touches still exact.

The reference is the definition, computed independently with floats: in a
screen drawn into window rectangle R (width w, height h), window pixel (px, py)
shows DS pixel ``floor((px - R.left + 0.5) * 256 / w)``,
``floor((py - R.top + 0.5) * 192 / h)`` (the pixel containing the window
pixel's centre: what nearest-neighbour scaling shows there, and the heaviest
in a bilinear blend). Every DS pixel is mapped to the window and back; sweeps
along rows and columns cover the screens, the gap and the bars.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np
import pygame
import pytest

from petitcom_shim import Machine
from petitcom_shim.config import ShimConfig
from petitcom_shim.display import (
    SCREEN_H,
    SCREEN_W,
    Viewport,
    WindowFrontend,
    content_size,
    create_frontend,
    fit_viewport,
)
from petitcom_shim.input import Input

SIZES = [(700, 1000), (1366, 768), (1000, 1000), (601, 455), (300, 400)]
LAYOUTS = ["vertical", "horizontal", "single", "separate"]


def reference(px: int, py: int, rect: pygame.Rect) -> tuple[int, int]:
    return (
        math.floor((px - rect.left + 0.5) * SCREEN_W / rect.w),
        math.floor((py - rect.top + 0.5) * SCREEN_H / rect.h),
    )


def shown_rects(view: Viewport) -> list[tuple[int, pygame.Rect]]:
    out = []
    for screen in (0, 1):
        rect = view.screen_rect(screen)
        if rect is not None:
            out.append((screen, rect))
    return out


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("gap", (0, 11))
def test_fit_fills_the_window_keeping_the_aspect(
    layout: str, size: tuple[int, int], gap: int
) -> None:
    gap = gap if layout in ("vertical", "horizontal") else 0
    view = fit_viewport(layout, size, gap=gap, shown=1, smooth=True)
    cw, ch = content_size(layout, gap)
    if size[0] < cw or size[1] < ch:  # smaller than scale 1: whole scales (and clipping)
        assert view == fit_viewport(layout, size, gap=gap, shown=1)
        return
    rects = shown_rects(view)
    left = min(r.left for _, r in rects)
    top = min(r.top for _, r in rects)
    right = max(r.right for _, r in rects)
    bottom = max(r.bottom for _, r in rects)
    assert left >= 0 and top >= 0 and right <= size[0] and bottom <= size[1]
    box_w, box_h = right - left, bottom - top
    assert box_w == size[0] or box_h == size[1], "as large as fits"
    assert abs(box_w * ch - box_h * cw) <= max(cw, ch), "the aspect is kept (to a pixel)"
    assert abs(left - (size[0] - right)) <= 1 and abs(top - (size[1] - bottom)) <= 1, "centred"
    for _, rect in rects:
        assert rect.w >= SCREEN_W and rect.h >= SCREEN_H
        assert abs(rect.w * SCREEN_H - rect.h * SCREEN_W) <= 2 * SCREEN_W


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize(
    "size", [SIZES[0], SIZES[3], *(pytest.param(s, marks=pytest.mark.slow) for s in SIZES[1:3])]
)
def test_fit_maps_every_ds_pixel_there_and_back(layout: str, size: tuple[int, int]) -> None:
    gap = 11 if layout in ("vertical", "horizontal") else 0
    view = fit_viewport(layout, size, gap=gap, shown=1, smooth=True)
    assert view.fitted is not None
    for screen, rect in shown_rects(view):
        for y in range(SCREEN_H):
            for x in range(SCREEN_W):
                corner = view.from_ds(screen, x, y)
                assert corner is not None
                if view.to_ds(*corner) != (screen, x, y) or reference(*corner, rect) != (x, y):
                    pytest.fail(f"{layout} {size}: DS pixel {(screen, x, y)} at {corner}")
                if x and reference(corner[0] - 1, corner[1], rect)[0] != x - 1:
                    pytest.fail(f"{layout} {size}: {corner} is not the first column of {x}")


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("size", SIZES)
def test_fit_sweeps_rows_and_columns(layout: str, size: tuple[int, int]) -> None:
    gap = 11 if layout in ("vertical", "horizontal") else 0
    view = fit_viewport(layout, size, gap=gap, shown=1, smooth=True)
    if view.fitted is None:
        return
    rects = shown_rects(view)
    lines = [(r.centery, r.left) for _, r in rects] + [(r.bottom - 1, r.centerx) for _, r in rects]
    for row, col in lines:
        for px in range(size[0]):
            _expect(view, rects, px, row)
        for py in range(size[1]):
            _expect(view, rects, col, py)


def _expect(view: Viewport, rects: list[tuple[int, pygame.Rect]], px: int, py: int) -> None:
    want = None
    for screen, rect in rects:
        if rect.collidepoint(px, py):
            want = (screen, *reference(px, py, rect))
    assert view.to_ds(px, py) == want, (px, py)
    assert view.to_ds(px + 0.999, py + 0.5) == want  # a fraction stays in its window pixel


def test_fit_drag_off_the_screen_is_clamped() -> None:
    view = fit_viewport("vertical", (700, 1000), smooth=True)
    bottom = view.screen_rect(1)
    assert bottom is not None
    assert view.to_bottom_clamped(-50, -50) == (0, 0)
    assert view.to_bottom_clamped(5000, 5000) == (255, 191)
    assert view.to_bottom_clamped(bottom.centerx, 0) == (reference(bottom.centerx, 0, bottom)[0], 0)


@pytest.fixture
def display() -> Iterator[None]:
    pygame.display.init()
    pygame.event.clear()
    yield
    pygame.event.clear()


def _fit_frontend(layout: str, renderer: str = "auto") -> WindowFrontend:
    fe = create_frontend(
        headless=False, layout=layout, scale=1, fit=True, config=ShimConfig(renderer=renderer)
    )
    assert isinstance(fe, WindowFrontend)
    return fe


@pytest.mark.usefixtures("display")
@pytest.mark.parametrize("layout", ["vertical", "separate"])
def test_fit_window_touches_land_on_the_pixel_under_the_pointer(layout: str) -> None:
    fe = _fit_frontend(layout)
    try:
        inp = Input()
        win = fe.windows[-1].window
        win.size = (703, 997) if layout == "vertical" else (641, 397)
        fe.pump(inp)
        view = fe.viewport(len(fe.windows) - 1)
        assert view.fitted is not None and view.scale >= 1
        for x, y in ((0, 0), (255, 191), (17, 100), (128, 96), (254, 1)):
            corner = view.from_ds(1, x, y)
            assert corner is not None
            for px, py in (corner, (corner[0] + 1, corner[1] + 1)):
                if reference(px, py, view.fitted[1] or pygame.Rect(0, 0, 1, 1)) != (x, y):
                    continue  # the block is one window pixel wide here
                pygame.event.post(
                    pygame.event.Event(
                        pygame.MOUSEBUTTONDOWN,
                        pos=(px, py),
                        button=pygame.BUTTON_LEFT,
                        window=win,
                        touch=False,
                    )
                )
                fe.pump(inp)
                inp.latch()
                assert (inp.tchst, inp.tchx, inp.tchy) == (1, x, y)
                pygame.event.post(
                    pygame.event.Event(
                        pygame.MOUSEBUTTONUP,
                        pos=(px, py),
                        button=pygame.BUTTON_LEFT,
                        window=win,
                        touch=False,
                    )
                )
                fe.pump(inp)
                inp.latch()
    finally:
        fe.close()


@pytest.mark.usefixtures("display")
@pytest.mark.parametrize("renderer", ["texture", "surface"])
def test_fit_window_draws_the_screens_into_their_rectangles(renderer: str) -> None:
    fe = _fit_frontend("vertical", renderer)
    try:
        assert fe.renderer == renderer
        top, bottom = pygame.Surface((256, 192)), pygame.Surface((256, 192))
        top.fill((200, 40, 40))
        bottom.fill((40, 40, 200))
        win = fe.windows[0].window
        win.size = (700, 1000)
        fe.pump(Input())
        fe.present(top, bottom)
        shot = pygame.surfarray.array3d(fe.snapshot()).transpose(1, 0, 2)
        view = fe.viewport()
        for screen, colour in ((0, (200, 40, 40)), (1, (40, 40, 200))):
            rect = view.screen_rect(screen)
            assert rect is not None and rect.w > 256
            inside = shot[rect.top : rect.bottom, rect.left : rect.right]
            assert (inside == colour).all(), f"screen {screen} fills its rectangle"
            shot[rect.top : rect.bottom, rect.left : rect.right] = 0
        assert not shot.any(), "everything else (bars, gap) is black"
    finally:
        fe.close()


@pytest.mark.usefixtures("display")
def test_fit_at_a_whole_scale_is_pixel_exact() -> None:
    fe = _fit_frontend("single", "texture")
    try:
        rng = np.random.default_rng(3)
        pixels = rng.integers(0, 256, (192, 256, 3), dtype=np.uint8)
        bottom = pygame.surfarray.make_surface(pixels.transpose(1, 0, 2))
        fe.windows[0].window.size = (512, 384)
        fe.pump(Input())
        fe.present(bottom, bottom)
        shot = pygame.surfarray.array3d(fe.snapshot()).transpose(1, 0, 2)
        np.testing.assert_array_equal(shot, pixels.repeat(2, 0).repeat(2, 1))
    finally:
        fe.close()


def test_machine_takes_fit_and_an_icon() -> None:
    icon = pygame.Surface((32, 32))
    icon.fill((10, 200, 10))
    m = Machine(headless=False, realtime=False, scale=1, fit=True, icon=icon, audio=False)
    try:
        fe = m.frontend
        assert isinstance(fe, WindowFrontend) and fe.fit
        m.vsync()
    finally:
        m.close()


def test_a_bad_icon_file_is_a_one_line_error() -> None:
    from petitcom_shim.errors import IllegalFunctionCall

    with pytest.raises(IllegalFunctionCall, match="window icon"):
        Machine(headless=False, realtime=False, scale=1, icon="/nonexistent/icon.png")
