"""Real front-ends under SDL's dummy video driver: posted pointer events land on the right DS pixel.

Each test opens actual pygame windows (in memory under the dummy driver),
posts the events SDL would send, pumps them into an :class:`Input`, latches
and reads TCHX/TCHY. Window coordinates are written out from the layout rules
here, not taken from the code under test.
"""

from __future__ import annotations

import os
import pathlib
from collections.abc import Iterator
from typing import Any

import numpy as np
import pygame
import pytest

from petitcom_shim.config import ShimConfig
from petitcom_shim.display import (
    HeadlessFrontend,
    WindowFrontend,
    create_frontend,
)
from petitcom_shim.input import Button, Input

SCALES = range(1, 7)
REAL_WINDOWS = os.environ.get("SDL_VIDEODRIVER", "dummy") != "dummy"
posted_pointer = pytest.mark.skipif(
    REAL_WINDOWS,
    reason="posts pointer events, which the real pointer of a window system mixes with "
    "(tests/test_display_x11.py taps with a real pointer)",
)


@pytest.fixture(autouse=True)
def _display() -> Iterator[None]:
    pygame.display.init()
    pygame.event.clear()
    yield
    pygame.event.clear()


def open_frontend(layout: str, scale: int, gap: int = 0, **kw: object) -> WindowFrontend:
    fe = create_frontend(headless=False, layout=layout, scale=scale, gap=gap, **kw)  # type: ignore[arg-type]
    assert isinstance(fe, WindowFrontend)
    return fe


def post(kind: int, **attrs: Any) -> None:
    pygame.event.post(pygame.event.Event(kind, **attrs))


def bottom_pixel_in_window(
    layout: str, scale: int, gap: int, x: int, y: int, origin: tuple[int, int] = (0, 0)
) -> tuple[int, int]:
    """Window pixel at the top-left of bottom-screen DS pixel (x, y), from the layout rules."""
    col, row = x, y
    if layout == "vertical":
        row += 192 + gap
    elif layout == "horizontal":
        col += 256 + gap
    return (origin[0] + col * scale, origin[1] + row * scale)


def top_pixel_in_window(layout: str, scale: int, x: int, y: int) -> tuple[int, int]:
    return (x * scale, y * scale)


def mouse(kind: int, window: pygame.Window, pos: tuple[int, int], **kw: object) -> None:
    attrs: dict[str, object] = {"pos": pos, "window": window, "touch": False}
    if kind == pygame.MOUSEMOTION:
        attrs.update(rel=(0, 0), buttons=(1, 0, 0))
    else:
        attrs["button"] = pygame.BUTTON_LEFT
    attrs.update(kw)
    post(kind, **attrs)


def frame(fe: WindowFrontend, inp: Input) -> None:
    assert fe.pump(inp)
    inp.latch()


def bottom_window(fe: WindowFrontend) -> pygame.Window:
    return fe.windows[-1].window


@posted_pointer
@pytest.mark.parametrize("layout", ["vertical", "horizontal", "single", "separate"])
@pytest.mark.parametrize("scale", SCALES)
def test_mouse_stylus_lands_on_the_pixel_under_the_pointer(layout: str, scale: int) -> None:
    gap = 3 if layout in ("vertical", "horizontal") else 0
    fe = open_frontend(layout, scale, gap)
    try:
        inp = Input()
        win = bottom_window(fe)
        expected_size = {
            "vertical": (256 * scale, (384 + gap) * scale),
            "horizontal": ((512 + gap) * scale, 192 * scale),
        }.get(layout, (256 * scale, 192 * scale))
        assert tuple(win.size) == expected_size
        last = scale - 1
        # Press on a block's far corner, then drag over the corners of the screen.
        px, py = bottom_pixel_in_window(layout, scale, gap, 10, 20)
        mouse(pygame.MOUSEBUTTONDOWN, win, (px + last, py + last))
        frame(fe, inp)
        assert (inp.tchst, inp.tchtime, inp.tchx, inp.tchy) == (1, 1, 10, 20)
        for x, y in ((0, 0), (255, 0), (0, 191), (255, 191), (128, 96)):
            px, py = bottom_pixel_in_window(layout, scale, gap, x, y)
            mouse(pygame.MOUSEMOTION, win, (px + last, py))
            frame(fe, inp)
            assert (inp.tchx, inp.tchy) == (x, y)
        # Leaving the bottom screen keeps the stylus on its edge.
        mouse(pygame.MOUSEMOTION, win, (-50, -5000))
        frame(fe, inp)
        assert (inp.tchst, inp.tchx, inp.tchy) == (1, 0, 0)
        mouse(pygame.MOUSEMOTION, win, (win.size[0] + 90, win.size[1] + 90))
        frame(fe, inp)
        assert (inp.tchst, inp.tchx, inp.tchy) == (1, 255, 191)
        mouse(pygame.MOUSEBUTTONUP, win, (win.size[0] + 90, win.size[1] + 90))
        frame(fe, inp)
        assert (inp.tchst, inp.tchtime, inp.tchx, inp.tchy) == (0, 0, 255, 191)
        # A press on the top screen does nothing, and neither does the drag that follows.
        if layout in ("vertical", "horizontal", "separate"):
            top_win = fe.windows[0].window
            mouse(pygame.MOUSEBUTTONDOWN, top_win, top_pixel_in_window(layout, scale, 200, 100))
            mouse(pygame.MOUSEMOTION, top_win, bottom_pixel_in_window(layout, scale, gap, 5, 5))
            frame(fe, inp)
            assert inp.tchst == 0
            mouse(pygame.MOUSEBUTTONUP, top_win, (0, 0))
            frame(fe, inp)
    finally:
        fe.close()


@pytest.mark.parametrize("layout", ["vertical", "horizontal"])
def test_press_on_the_gap_does_nothing(layout: str) -> None:
    fe = open_frontend(layout, 2, gap=10)
    try:
        inp = Input()
        win = bottom_window(fe)
        first = (0, 192 * 2) if layout == "vertical" else (256 * 2, 0)
        lastp = (511, 404 - 1) if layout == "vertical" else ((256 + 10) * 2 - 1, 383)
        for pos in (first, lastp):
            mouse(pygame.MOUSEBUTTONDOWN, win, pos)
            frame(fe, inp)
            assert inp.tchst == 0, pos
            mouse(pygame.MOUSEBUTTONUP, win, pos)
            frame(fe, inp)
        mouse(pygame.MOUSEBUTTONDOWN, win, bottom_pixel_in_window(layout, 2, 10, 0, 0))
        frame(fe, inp)
        assert (inp.tchst, inp.tchx, inp.tchy) == (1, 0, 0)
    finally:
        fe.close()


def test_other_mouse_buttons_and_touch_copies_are_ignored() -> None:
    fe = open_frontend("vertical", 1)
    try:
        inp = Input()
        win = bottom_window(fe)
        pos = bottom_pixel_in_window("vertical", 1, 0, 40, 50)
        mouse(pygame.MOUSEBUTTONDOWN, win, pos, button=pygame.BUTTON_RIGHT)
        mouse(pygame.MOUSEBUTTONDOWN, win, pos, touch=True)  # SDL's copy of a finger
        frame(fe, inp)
        assert inp.tchst == 0
    finally:
        fe.close()


def test_resized_window_letterboxes_and_still_maps_exactly() -> None:
    fe = open_frontend("vertical", 1, gap=2)
    try:
        inp = Input()
        win = bottom_window(fe)
        win.size = (1000, 1300)  # fits scale 3 (768 x 1158), bars 116 | 71
        frame(fe, inp)
        view = fe.viewport()
        assert (view.scale, view.origin) == (3, (116, 71))
        pos = bottom_pixel_in_window("vertical", 3, 2, 255, 191, origin=(116, 71))
        mouse(pygame.MOUSEBUTTONDOWN, win, (pos[0] + 2, pos[1] + 2))
        frame(fe, inp)
        assert (inp.tchst, inp.tchx, inp.tchy) == (1, 255, 191)
        mouse(pygame.MOUSEMOTION, win, (pos[0] + 3, pos[1] + 3))  # onto the letterbox bar
        frame(fe, inp)
        assert (inp.tchx, inp.tchy) == (255, 191)
        mouse(pygame.MOUSEBUTTONUP, win, (0, 0))
        mouse(pygame.MOUSEBUTTONDOWN, win, (115, 1000))  # left bar
        frame(fe, inp)
        assert inp.tchst == 0
    finally:
        fe.close()


@posted_pointer
@pytest.mark.parametrize("how", ["f11", "alt+enter"])
def test_fullscreen_toggle_keeps_the_mapping(how: str) -> None:
    fe = open_frontend("horizontal", 1)
    try:
        inp = Input()
        win = bottom_window(fe)
        if how == "f11":
            post(pygame.KEYDOWN, key=pygame.K_F11, mod=0, window=win)
        else:
            post(pygame.KEYDOWN, key=pygame.K_RETURN, mod=pygame.KMOD_LALT, window=win)
        frame(fe, inp)
        assert fe.fullscreen
        assert inp.button() == 0, "Alt+Enter is not START"
        w, h = win.size
        view = fe.viewport()
        scale = min(w // 512, h // 192)
        assert view.scale == scale
        origin = ((w - 512 * scale) // 2, (h - 192 * scale) // 2)
        assert view.origin == origin
        mouse(
            pygame.MOUSEBUTTONDOWN,
            win,
            bottom_pixel_in_window("horizontal", scale, 0, 3, 4, origin),
        )
        frame(fe, inp)
        assert (inp.tchst, inp.tchx, inp.tchy) == (1, 3, 4)
        post(pygame.KEYDOWN, key=pygame.K_F11, mod=0, window=win)
        frame(fe, inp)
        assert not fe.fullscreen
        assert tuple(win.size) == (512, 192)
    finally:
        fe.close()


@posted_pointer
def test_single_layout_swaps_and_touches_only_on_the_bottom_screen() -> None:
    fe = open_frontend("single", 2)
    try:
        inp = Input()
        win = bottom_window(fe)
        assert fe.shown == 1
        mouse(pygame.MOUSEBUTTONDOWN, win, (2 * 30, 2 * 40))
        frame(fe, inp)
        assert (inp.tchst, inp.tchx, inp.tchy) == (1, 30, 40)
        post(pygame.KEYDOWN, key=pygame.K_TAB, mod=0, window=win)  # swap lifts the stylus
        frame(fe, inp)
        assert fe.shown == 0
        assert inp.tchst == 0
        mouse(pygame.MOUSEMOTION, win, (2 * 50, 2 * 60))
        mouse(pygame.MOUSEBUTTONUP, win, (2 * 50, 2 * 60))
        mouse(pygame.MOUSEBUTTONDOWN, win, (2 * 50, 2 * 60))
        frame(fe, inp)
        assert inp.tchst == 0, "the top screen is not a touch screen"
        mouse(pygame.MOUSEBUTTONUP, win, (2 * 50, 2 * 60))
        post(pygame.CONTROLLERBUTTONDOWN, instance_id=4, button=pygame.CONTROLLER_BUTTON_LEFTSTICK)
        post(pygame.CONTROLLERBUTTONUP, instance_id=4, button=pygame.CONTROLLER_BUTTON_LEFTSTICK)
        frame(fe, inp)
        assert fe.shown == 1
        mouse(pygame.MOUSEBUTTONDOWN, win, (2 * 50 + 1, 2 * 60 + 1))
        frame(fe, inp)
        assert (inp.tchst, inp.tchx, inp.tchy) == (1, 50, 60)
    finally:
        fe.close()


def test_swap_key_is_a_normal_key_outside_the_single_layout() -> None:
    cfg = ShimConfig(swap_key="x")
    fe = open_frontend("vertical", 1, config=cfg)
    try:
        inp = Input(cfg)
        post(pygame.KEYDOWN, key=pygame.K_x, mod=0)
        frame(fe, inp)
        assert inp.button() == Button.A
    finally:
        fe.close()


def finger(kind: int, window: pygame.Window, pos: tuple[int, int], fid: int = 1) -> None:
    w, h = window.size
    post(
        kind,
        x=pos[0] / (w - 1),
        y=pos[1] / (h - 1),
        dx=0.0,
        dy=0.0,
        touch_id=77,
        finger_id=fid,
        pressure=1.0,
        window=window,
    )


@pytest.mark.parametrize(
    ("layout", "scale"), [("vertical", 1), ("vertical", 3), ("horizontal", 2), ("separate", 5)]
)
def test_finger_touches_map_through_normalised_coordinates(layout: str, scale: int) -> None:
    gap = 6 if layout != "separate" else 0
    fe = open_frontend(layout, scale, gap)
    try:
        inp = Input()
        win = bottom_window(fe)
        for x, y in ((0, 0), (255, 191), (77, 150)):
            pos = bottom_pixel_in_window(layout, scale, gap, x, y)
            finger(pygame.FINGERDOWN, win, (pos[0] + scale - 1, pos[1]))
            frame(fe, inp)
            assert (inp.tchst, inp.tchx, inp.tchy) == (1, x, y)
            finger(pygame.FINGERUP, win, pos)
            frame(fe, inp)
            assert inp.tchst == 0
        # Drag off the screen: clamped like the mouse.
        finger(pygame.FINGERDOWN, win, bottom_pixel_in_window(layout, scale, gap, 9, 9))
        finger(pygame.FINGERMOTION, win, (0, 0))
        frame(fe, inp)
        assert (inp.tchst, inp.tchx, inp.tchy) == (1, 0, 0)  # window corner: up-left of it
        finger(pygame.FINGERUP, win, (0, 0))
        frame(fe, inp)
        assert inp.tchst == 0
    finally:
        fe.close()


@posted_pointer
def test_one_pointer_source_at_a_time() -> None:
    fe = open_frontend("vertical", 2)
    try:
        inp = Input()
        win = bottom_window(fe)
        mouse(pygame.MOUSEBUTTONDOWN, win, bottom_pixel_in_window("vertical", 2, 0, 10, 10))
        finger(pygame.FINGERDOWN, win, bottom_pixel_in_window("vertical", 2, 0, 100, 100))
        finger(pygame.FINGERMOTION, win, bottom_pixel_in_window("vertical", 2, 0, 101, 101))
        frame(fe, inp)
        assert (inp.tchx, inp.tchy) == (10, 10)
        finger(pygame.FINGERUP, win, (0, 0))
        frame(fe, inp)
        assert (inp.tchst, inp.tchx) == (1, 10), "the finger's release is not the mouse's"
        mouse(pygame.MOUSEBUTTONUP, win, bottom_pixel_in_window("vertical", 2, 0, 10, 10))
        # A second finger is ignored while the first holds the stylus.
        finger(pygame.FINGERDOWN, win, bottom_pixel_in_window("vertical", 2, 0, 20, 20), fid=1)
        finger(pygame.FINGERDOWN, win, bottom_pixel_in_window("vertical", 2, 0, 30, 30), fid=2)
        frame(fe, inp)
        assert (inp.tchst, inp.tchx, inp.tchy) == (1, 20, 20)
        finger(pygame.FINGERUP, win, (0, 0), fid=2)
        frame(fe, inp)
        assert inp.tchst == 1
    finally:
        fe.close()


def test_keyboard_cursor_through_the_frontend_is_drawn_on_the_bottom_screen() -> None:
    fe = open_frontend("vertical", 1)
    try:
        inp = Input()
        black = pygame.Surface((256, 192))
        post(pygame.KEYDOWN, key=pygame.K_t, mod=0)
        post(pygame.KEYDOWN, key=pygame.K_x, mod=0)
        frame(fe, inp)
        assert inp.cursor_visible
        assert (inp.tchst, inp.tchx, inp.tchy) == (1, 128, 96)
        fe.present(black, black)
        shot = pygame.surfarray.array3d(fe.snapshot()).transpose(1, 0, 2)
        assert shot[192 + 96, 128].any(), "cursor drawn at its DS pixel on the bottom screen"
        assert not shot[96, 128].any(), "nothing on the top screen"
        assert not pygame.surfarray.array3d(black).any(), "the machine's frame is not drawn on"
    finally:
        fe.close()


@pytest.mark.parametrize("renderer", ["texture", "surface"])
@pytest.mark.parametrize(("layout", "scale"), [("vertical", 2), ("horizontal", 3), ("single", 1)])
def test_present_draws_each_ds_pixel_as_a_block(layout: str, scale: int, renderer: str) -> None:
    gap = 4 if layout != "single" else 0
    fe = open_frontend(layout, scale, gap, config=ShimConfig(renderer=renderer))
    try:
        assert fe.renderer == renderer
        rng = np.random.default_rng(5)
        frames = [rng.integers(0, 256, (192, 256, 3), dtype=np.uint8) for _ in range(2)]
        top, bottom = (pygame.surfarray.make_surface(f.transpose(1, 0, 2)) for f in frames)
        win = bottom_window(fe)
        win.size = (win.size[0] + 10, win.size[1] + 6)  # 5 | 3 pixel bars
        fe.pump(Input())
        fe.present(top, bottom)
        shot = pygame.surfarray.array3d(fe.snapshot()).transpose(1, 0, 2)
        assert shot.shape[:2] == (win.size[1], win.size[0])
        big = [f.repeat(scale, 0).repeat(scale, 1) for f in frames]
        ox, oy = 5, 3
        if layout == "single":
            np.testing.assert_array_equal(
                shot[oy : oy + 192 * scale, ox : ox + 256 * scale], big[1]
            )
        else:
            np.testing.assert_array_equal(
                shot[oy : oy + 192 * scale, ox : ox + 256 * scale], big[0]
            )
            bx, by = bottom_pixel_in_window(layout, scale, gap, 0, 0, (ox, oy))
            np.testing.assert_array_equal(
                shot[by : by + 192 * scale, bx : bx + 256 * scale], big[1]
            )
            if layout == "vertical":
                assert not shot[oy + 192 * scale : by].any(), "the gap is black"
            else:
                assert not shot[:, ox + 256 * scale : bx].any(), "the gap is black"
        assert not shot[:oy].any() and not shot[:, :ox].any(), "the bars are black"
    finally:
        fe.close()


def test_separate_windows_each_show_one_screen() -> None:
    fe = open_frontend("separate", 2)
    try:
        assert len(fe.windows) == 2
        titles = [e.window.title for e in fe.windows]
        assert titles == ["Petit Computer (top)", "Petit Computer (bottom)"]
        red = pygame.Surface((256, 192))
        red.fill((255, 0, 0))
        blue = pygame.Surface((256, 192))
        blue.fill((0, 0, 255))
        fe.present(red, blue)
        assert fe.snapshot(0).get_at((300, 200))[:3] == (255, 0, 0)
        assert fe.snapshot(1).get_at((300, 200))[:3] == (0, 0, 255)
        # A press in the top window is not a touch even at the same coordinates.
        inp = Input()
        mouse(pygame.MOUSEBUTTONDOWN, fe.windows[0].window, (20, 20))
        frame(fe, inp)
        assert inp.tchst == 0
    finally:
        fe.close()


def test_window_close_quit_and_close() -> None:
    fe = open_frontend("separate", 1)
    inp = Input()
    post(pygame.WINDOWCLOSE, window=fe.windows[0].window)
    assert not fe.pump(inp)
    assert not fe.pump(inp)
    fe.close()
    fe.close()
    fe = open_frontend("vertical", 1)
    post(pygame.QUIT)
    assert not fe.pump(inp)
    fe.close()


def test_dropped_files_keys_and_focus_loss_through_the_frontend(tmp_path: pathlib.Path) -> None:
    fe = open_frontend("vertical", 1)
    try:
        inp = Input()
        post(pygame.DROPFILE, file=str(tmp_path / "game.ptc"))
        post(pygame.KEYDOWN, key=pygame.K_z, mod=0)
        frame(fe, inp)
        assert inp.dropped_files() == [tmp_path / "game.ptc"]
        assert inp.button() == Button.B
        post(pygame.WINDOWFOCUSLOST, window=bottom_window(fe))
        frame(fe, inp)
        assert inp.button() == 0, "no stuck keys after the window loses focus"
    finally:
        fe.close()


def test_one_frame_loop_with_scale_0_under_the_dummy_driver() -> None:
    fe = create_frontend(headless=False)
    try:
        inp = Input()
        assert fe.pump(inp)
        inp.latch()
        screen = pygame.Surface((256, 192))
        fe.present(screen, screen)
    finally:
        fe.close()


def test_unknown_desktop_falls_back_to_scale_2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pygame.display, "get_desktop_sizes", lambda: [])
    fe = open_frontend("vertical", 0)
    try:
        assert fe.viewport().scale == 2
    finally:
        fe.close()


def test_scale_0_fits_the_desktop_minus_the_margin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pygame.display, "get_desktop_sizes", lambda: [(1920, 1080)])
    fe = open_frontend("vertical", 0)
    try:
        assert fe.viewport().scale == 2  # 384*2 = 768 <= 1080 - 96; 3 would be 1152
    finally:
        fe.close()
    monkeypatch.setattr(pygame.display, "get_desktop_sizes", lambda: [(7680, 4320)])
    fe = open_frontend("single", 0)
    try:
        assert fe.viewport().scale == 6, "windows open at most 6x"
    finally:
        fe.close()


@pytest.mark.parametrize("kw", [{"layout": "diagonal"}, {"scale": 7}, {"scale": -1}, {"gap": -1}])
@pytest.mark.parametrize("headless", [True, False])
def test_bad_arguments(kw: dict[str, object], headless: bool) -> None:
    with pytest.raises(ValueError):
        create_frontend(headless=headless, **kw)  # type: ignore[arg-type]


def test_headless_frontend() -> None:
    fe = create_frontend(headless=True, layout="separate", scale=3)
    assert isinstance(fe, HeadlessFrontend)
    inp = Input()
    post(pygame.KEYDOWN, key=pygame.K_x, mod=0)
    post(pygame.DROPFILE, file="a.ptc")
    assert fe.pump(inp)
    inp.latch()
    assert inp.button() == Button.A
    assert inp.dropped_files() == [pathlib.Path("a.ptc")]
    screen = pygame.Surface((256, 192))
    fe.present(screen, screen)
    assert fe.frames == 1
    post(pygame.QUIT)
    assert not fe.pump(inp)
    fe.close()


def test_headless_pump_without_a_display_does_nothing() -> None:
    fe = create_frontend(headless=True)
    pygame.display.quit()
    try:
        assert fe.pump(Input())
        fe.close()
        assert not fe.pump(Input())
    finally:
        pygame.display.init()


@posted_pointer
def test_separate_drag_ignores_motion_reported_by_the_other_window() -> None:
    fe = open_frontend("separate", 1)
    try:
        inp = Input()
        top_win, bottom_win = fe.windows[0].window, fe.windows[1].window
        mouse(pygame.MOUSEBUTTONDOWN, bottom_win, (40, 50))
        mouse(pygame.MOUSEMOTION, top_win, (200, 100))
        frame(fe, inp)
        assert (inp.tchst, inp.tchx, inp.tchy) == (1, 40, 50)
        mouse(pygame.MOUSEMOTION, bottom_win, (41, 300))  # below the window: clamped
        frame(fe, inp)
        assert (inp.tchx, inp.tchy) == (41, 191)
    finally:
        fe.close()


def test_swap_pad_button_reaches_the_input_outside_the_single_layout() -> None:
    cfg = ShimConfig(pad_buttons={"leftstick": Button.SELECT})
    fe = open_frontend("vertical", 1, config=cfg)
    try:
        inp = Input(cfg)
        post(pygame.CONTROLLERBUTTONDOWN, instance_id=2, button=pygame.CONTROLLER_BUTTON_LEFTSTICK)
        frame(fe, inp)
        assert inp.button() == Button.SELECT
    finally:
        fe.close()


def test_separate_windows_on_one_monitor_stack_like_the_handheld() -> None:
    """Without a second monitor, the bottom screen's window sits below the top one, with
    room for its title bar and the gap (in DS pixels) between (issue 18 item 2)."""
    from petitcom_shim.display import TITLE_BAR

    fe = open_frontend("separate", 2, gap=4)
    try:
        top, bottom = (entry.window for entry in fe.windows)
        if fe.two_monitors:
            pytest.skip("two monitors: each window is on its own")
        if tuple(top.position) == tuple(bottom.position):
            pytest.skip("this video driver ignores window positions")
        assert bottom.position[0] == top.position[0]
        assert bottom.position[1] == top.position[1] + top.size[1] + TITLE_BAR + 4 * 2
    finally:
        fe.close()


def test_hide_pointer_setting_hides_the_mouse_pointer() -> None:
    from petitcom_shim.config import config_from_dict

    config = config_from_dict({"display": {"hide_pointer": True}})
    assert config.hide_pointer
    fe = open_frontend("vertical", 1, config=config)
    try:
        assert not pygame.mouse.get_visible()
    finally:
        fe.close()
        pygame.mouse.set_visible(True)
    fe = open_frontend("vertical", 1)
    try:
        assert pygame.mouse.get_visible()
    finally:
        fe.close()


def test_the_click_that_focuses_a_window_acts(monkeypatch: pytest.MonkeyPatch) -> None:
    """SDL's X11 back-end drops a press that arrives with the window's focus unless
    SDL_MOUSE_FOCUS_CLICKTHROUGH is on (it reads the environment at each press): the
    first tap on a window in the background must act, on every screen (issue 16)."""
    import os

    from petitcom_shim.display import FOCUS_CLICKTHROUGH

    monkeypatch.delenv(FOCUS_CLICKTHROUGH, raising=False)
    fe = open_frontend("vertical", 1)
    try:
        assert os.environ.get(FOCUS_CLICKTHROUGH) == "1"
    finally:
        fe.close()
    monkeypatch.setenv(FOCUS_CLICKTHROUGH, "0")  # a player's own setting wins
    open_frontend("vertical", 1).close()
    assert os.environ[FOCUS_CLICKTHROUGH] == "0"


def test_uncovered_names_a_fullscreen_window_that_does_not_cover_its_monitor() -> None:
    fe = open_frontend("vertical", 1, fullscreen=True)
    try:
        assert fe.uncovered() == []  # it covers the (dummy) desktop
        window = fe.windows[0].window
        window.set_windowed()
        window.size = (300, 200)  # what a window manager refusing fullscreen would leave
        lines = fe.uncovered()
        assert len(lines) == 1 and "not over all of monitor 0" in lines[0]
    finally:
        fe.close()


class _CountingTexture:
    """Stands in for a painter's texture: counts the draws, passes everything on."""

    def __init__(self, texture: Any) -> None:
        self.texture = texture
        self.draws = 0

    def update(self, surface: pygame.Surface) -> None:
        self.texture.update(surface)

    def draw(self, **kw: Any) -> None:
        self.draws += 1
        self.texture.draw(**kw)


def test_software_renderer_redraws_only_the_screen_that_changed() -> None:
    # SDL's software renderer keeps the window's pixels between presents: a blinking
    # text on one screen must not scale and copy the other screen (and the bars) again.
    fe = open_frontend("vertical", 2, 4, config=ShimConfig(renderer="software"))
    try:
        assert fe.renderer == "software"
        rng = np.random.default_rng(7)
        frames = [rng.integers(0, 256, (192, 256, 3), dtype=np.uint8) for _ in range(3)]
        top, bottom, bottom2 = (pygame.surfarray.make_surface(f.transpose(1, 0, 2)) for f in frames)
        fe.present(top, bottom)
        painter: Any = fe.windows[0].painter
        spies = {key: _CountingTexture(t) for key, t in painter._textures.items()}
        painter._textures.update(spies)
        fe.present(top, bottom2, changed=(False, True))
        assert [spies[key].draws for key in sorted(spies)] == [0, 1]
        shot = pygame.surfarray.array3d(painter._renderer.to_surface()).transpose(1, 0, 2)
        big = [f.repeat(2, 0).repeat(2, 1) for f in frames]
        np.testing.assert_array_equal(shot[: 192 * 2, : 256 * 2], big[0])
        bx, by = bottom_pixel_in_window("vertical", 2, 4, 0, 0, (0, 0))
        np.testing.assert_array_equal(shot[by : by + 192 * 2, bx : bx + 256 * 2], big[2])
        fe.present(top, bottom2, changed=(True, True))  # both changed: the whole window
        assert [spies[key].draws for key in sorted(spies)] == [1, 2]
    finally:
        fe.close()
