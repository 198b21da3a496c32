"""Every touch target of every scene can be hit with the mouse at every window layout and scale."""

from __future__ import annotations

from pathlib import Path

import pytest

from petitcom_shim import Machine
from petitcom_shim.display import LAYOUTS, Viewport
from royalnine.app import App, Scene
from royalnine.core import Match, MatchConfig
from royalnine.game import new_game
from royalnine.screens.layout import Rect, all_targets, hit, target_rect
from royalnine.screens.match import NEXT_RECT, MatchScene
from royalnine.screens.menu import Menu
from royalnine.screens.options import OptionsScene
from royalnine.screens.pause import PauseScene
from royalnine.screens.result import MatchResultScene
from royalnine.screens.rules import RulesScene
from royalnine.screens.title import TitleScene
from royalnine.storage import Settings, Storage


def _menu_rects(app: App, scene: Scene) -> list[Rect]:
    app.switch(scene)
    menu = getattr(scene, "menu", None)
    assert isinstance(menu, Menu)
    return [item.rect for item in menu.items]


@pytest.fixture(scope="module")
def all_rects(tmp_path_factory: pytest.TempPathFactory) -> list[Rect]:
    home: Path = tmp_path_factory.mktemp("home")
    app = new_game(Machine(headless=True), Storage(home), Settings(sound=False), seed=1)
    rects = [target_rect(t) for t in all_targets()] + [NEXT_RECT]
    title = TitleScene()
    rects += _menu_rects(app, title)
    title.show(app, "level")
    assert title.menu is not None
    rects += [i.rect for i in title.menu.items]
    match = MatchScene(Match.new(MatchConfig(rounds=1)), "cpu", {})
    rects += _menu_rects(app, PauseScene(match))
    rects += _menu_rects(app, RulesScene(back=title))
    rects += _menu_rects(app, OptionsScene())
    from royalnine.screens.autoplay import AutoPlayer

    player = AutoPlayer(app, seed=1)
    app.switch(TitleScene())
    player.play(max_frames=20_000)
    assert isinstance(app.scene, MatchResultScene)
    rects += _menu_rects(app, app.scene)
    return rects


def test_targets_are_on_screen_and_big_enough(all_rects: list[Rect]) -> None:
    for rect in all_rects:
        assert rect.x >= 0 and rect.x + rect.w <= 256 and rect.y >= 0 and rect.y + rect.h <= 192
        assert rect.w >= 16 and rect.h >= 16, rect  # a fingertip on a 256x192 screen


def test_match_targets_hit_themselves() -> None:
    for target in all_targets():
        assert hit(*target_rect(target).centre) == target


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("scale", [1, 2, 3, 4])
def test_every_target_is_reachable_in_the_window(
    all_rects: list[Rect], layout: str, scale: int
) -> None:
    viewport = Viewport(layout, scale, gap=0, origin=(0, 0), shown=1)
    for rect in all_rects:
        for x, y in (
            rect.centre,
            (rect.x + 1, rect.y + 1),
            (rect.x + rect.w - 2, rect.y + rect.h - 2),
        ):
            corner = viewport.from_ds(1, x, y)
            assert corner is not None, f"{layout} hides the touch screen"
            wx, wy = corner[0] + scale // 2, corner[1] + scale // 2
            assert viewport.to_ds(wx, wy) == (1, x, y)
