"""The game's window: our own icon, the fit setting (option, flag, saved) and idle frames."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pygame

from petitcom_shim import Button, Machine
from royalnine import art
from royalnine.cli import build_parser
from royalnine.cli.play import _settings
from royalnine.game import new_game
from royalnine.screens.layout import HAND_RECTS
from royalnine.screens.options import OptionsScene
from royalnine.storage import Settings, Storage


def test_window_icon_is_our_two_cards() -> None:
    icon = art.window_icon()
    assert icon.get_size() == (art.ICON_SIZE, art.ICON_SIZE)
    rgba = pygame.surfarray.pixels3d(icon).transpose(1, 0, 2)
    alpha = pygame.surfarray.pixels_alpha(icon).T
    assert alpha.any() and (alpha[alpha > 0] == 255).all()
    palette = {
        tuple(int(c[i : i + 2], 16) for i in (0, 2, 4))
        for c in art.SP_PALETTES[art.SP_NORMAL].values()
    }
    opaque = {tuple(int(v) for v in px) for px in rgba[alpha > 0]}
    assert opaque <= palette, "only colours of our card palette"
    red = tuple(int(art.SP_PALETTES[art.SP_NORMAL][3][i : i + 2], 16) for i in (0, 2, 4))
    assert red in opaque, "the red nine shows"
    assert np.array_equal(rgba[::2, ::2], rgba[1::2, 1::2]), "a pixel drawing at twice the size"


def test_fit_setting_is_saved_and_validated(tmp_path: Path) -> None:
    storage = Storage(tmp_path)
    storage.save_settings(Settings(fit=True))
    assert storage.load_settings().fit is True
    assert Settings(fit="yes").validated().fit is False  # type: ignore[arg-type]


def test_fit_flag_is_for_this_run(tmp_path: Path) -> None:
    args = build_parser().parse_args(["play", "--home", str(tmp_path), "--fit"])
    assert _settings(args)[1].fit is True
    args = build_parser().parse_args(["play", "--home", str(tmp_path), "--no-fit"])
    assert _settings(args)[1].fit is False
    args = build_parser().parse_args(["play", "--home", str(tmp_path)])
    assert _settings(args)[1].fit is False


def test_scale_option_steps_through_whole_scales_then_fit(tmp_path: Path) -> None:
    app = new_game(Machine(headless=True), Storage(tmp_path), Settings(sound=False), seed=1)
    app.switch(OptionsScene())
    menu = app.scene.menu  # type: ignore[attr-defined]
    item = next(i for i in menu.items if i.value == "scale")
    seen = []
    for _ in range(7):
        app.m.input.touch(*item.rect.centre)
        app.step(2)
        app.m.input.untouch()
        app.step(2)
        saved = Storage(tmp_path).load_settings()
        seen.append((saved.scale, saved.fit))
    whole = [(1, False), (2, False), (3, False), (4, False)]
    assert seen == [*whole, (0, True), (0, False), (1, False)]


def test_title_and_waiting_match_frames_are_clean(tmp_path: Path) -> None:
    m = Machine(headless=False, realtime=False, scale=1, audio=False)
    try:
        app = new_game(m, Storage(tmp_path), Settings(sound=False), seed=1)
        app.step(120)
        before = list(m.compositions)
        app.step(60)
        assert m.compositions == before, "the title idles without composing"
        for _ in range(2):  # VS CPU, then the preselected level
            m.input.press(Button.START)
            app.step(2)
            m.input.release(Button.START)
            app.step(30)
        app.step(120)
        assert app.scene.state == "place"  # type: ignore[attr-defined]
        before = list(m.compositions)
        app.step(60)
        assert m.compositions == before, "a match waiting for the player composes nothing"
        # ...and still answers at once: tapping a hand card selects it (a new palette).
        m.sppage(1)
        looks = {sid: m.screens[1].sprites.get(sid).pal for sid in range(100)}
        m.input.touch(*HAND_RECTS[0].centre)
        app.step(2)
        m.input.untouch()
        app.step(2)
        changed = [sid for sid, pal in looks.items() if m.screens[1].sprites.get(sid).pal != pal]
        assert changed and m.compositions[1] > before[1]
    finally:
        m.close()


def test_a_still_screen_shows_one_frame_in_three_until_something_happens(tmp_path: Path) -> None:
    """After STILL_FRAMES frames with no input and no change, the game shows one frame in
    STILL_DRAW_EVERY (its logic still runs every frame); a key brings every frame back."""
    from royalnine.app import STILL_DRAW_EVERY, STILL_FRAMES

    m = Machine(headless=False, realtime=False, scale=1, audio=False)
    try:
        app = new_game(m, Storage(tmp_path), Settings(sound=False), seed=1)
        shown: list[bool] = []
        real = m.vsync

        def spy(n: int = 1, *, show: bool = True) -> None:
            shown.append(show)
            real(n, show=show)

        m.vsync = spy  # type: ignore[method-assign]
        app.step(120)  # the title is drawn (and its entrance over)
        app.step(STILL_FRAMES + 60)
        assert shown[-60:].count(True) == 60 // STILL_DRAW_EVERY
        frames = app.frames
        m.input.press(Button.DOWN)  # the title menu moves: every frame at once
        app.step(3)
        m.input.release(Button.DOWN)
        assert app.frames == frames + 3 and shown[-2:] == [True, True]
        app.step(STILL_FRAMES // 2)
        assert all(shown[-STILL_FRAMES // 2 :])  # the menu changed: not still yet
    finally:
        m.close()
