"""Menus by stylus and pad: options persist, rules pages turn, rematch starts a new match."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from petitcom_shim import Button, Machine
from petitcom_shim.charset import to_ptc
from royalnine.app import App
from royalnine.game import new_game
from royalnine.i18n import tr
from royalnine.screens.autoplay import AutoPlayer
from royalnine.screens.match import MatchScene
from royalnine.screens.menu import Menu
from royalnine.screens.options import OptionsScene
from royalnine.screens.result import MatchResultScene
from royalnine.screens.rules import PAGES, RulesScene
from royalnine.screens.title import TitleScene
from royalnine.storage import Settings, Storage


def make_app(home: Path) -> App:
    return new_game(Machine(headless=True), Storage(home), Settings(sound=False), seed=3)


def tap_item(app: App, value: str) -> None:
    menu = getattr(app.scene, "menu", None)
    assert isinstance(menu, Menu)
    item = next(i for i in menu.items if i.value == value)
    app.m.input.touch(*item.rect.centre)
    app.step(2)
    app.m.input.untouch()
    app.step(2)


def press(app: App, button: int) -> None:
    app.m.input.press(button)
    app.step(1)
    app.m.input.release(button)
    app.step(2)


def test_options_change_the_language_and_rules_and_persist(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    tap_item(app, "options")
    assert isinstance(app.scene, OptionsScene)
    tap_item(app, "lang")
    tap_item(app, "tens")
    tap_item(app, "rounds")  # 5 -> 7
    saved = Storage(tmp_path).load_settings()
    assert (saved.lang, saved.tens, saved.rounds) == ("ja", True, 7)
    app.m.cpage(0)
    row = bytes(app.m.chkchr(x, 4) for x in range(32))
    assert to_ptc(tr("opt_title", "ja")) in row  # the title is now in katakana
    tap_item(app, "back")
    assert isinstance(app.scene, TitleScene)


def test_a_slip_off_a_button_cancels_it(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    menu = app.scene.menu  # type: ignore[attr-defined]
    item = next(i for i in menu.items if i.value == "options")
    app.m.input.touch(*item.rect.centre)
    app.step(2)
    app.m.input.touch(item.rect.centre[0], item.rect.y - 4)  # off it, into the gap above
    app.step(2)
    app.m.input.untouch()
    app.step(2)
    assert isinstance(app.scene, TitleScene)


def test_rules_pages_turn_with_pad_and_stylus(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    tap_item(app, "rules")
    scene = app.scene
    assert isinstance(scene, RulesScene) and scene.page == 0
    tap_item(app, "next")
    assert scene.page == 1
    press(app, Button.L)
    press(app, Button.L)
    assert scene.page == len(PAGES) - 1
    press(app, Button.B)
    assert isinstance(app.scene, TitleScene)


def test_left_and_right_turn_the_rules_pages_as_on_history(tmp_path: Path) -> None:
    """The d-pad's Left/Right turn the page (they moved the button cursor instead)."""
    app = make_app(tmp_path)
    tap_item(app, "rules")
    scene = app.scene
    assert isinstance(scene, RulesScene) and scene.page == 0
    press(app, Button.RIGHT)
    assert scene.page == 1
    press(app, Button.RIGHT)
    press(app, Button.LEFT)
    assert scene.page == 1
    press(app, Button.DOWN)  # the cursor shows on ">" (Up/Down move it) and A takes it
    press(app, Button.A)
    assert scene.page == 2 and isinstance(app.scene, RulesScene)


def test_pad_only_reaches_a_match(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    press(app, Button.DOWN)  # shows the cursor on VS CPU
    press(app, Button.A)  # -> CPU level menu
    press(app, Button.A)  # the preselected level
    assert isinstance(app.scene, MatchScene)


def test_rematch_starts_a_new_match_of_the_same_mode(tmp_path: Path) -> None:
    app = new_game(
        Machine(headless=True), Storage(tmp_path), Settings(sound=False, rounds=1), seed=3
    )
    AutoPlayer(app, seed=1).play(max_frames=10_000)
    result = app.scene
    assert isinstance(result, MatchResultScene)
    tap_item(app, "rematch")
    scene = app.scene
    assert isinstance(scene, MatchScene) and scene.mode == result.mode
    assert scene.match.results == () and scene.match.round.number == 1


def test_options_say_on_screen_when_there_is_no_audio_device(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """MUSIC 80% and SOUND FX 100% showed with no audio device; only stderr said the sound
    was off. The top screen says so now; a run without sound on purpose says nothing."""

    def no_device(*_args: object, **_kwargs: object) -> None:
        raise pygame.error("No available audio device")

    quiet = make_app(tmp_path / "quiet")  # headless: sound off on purpose
    tap_item(quiet, "options")
    assert "audio" not in screen_text(quiet, 0)
    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", no_device)
    m = Machine(headless=True, audio=True)
    assert not m.sound.enabled and m.sound.unavailable is not None
    app = new_game(m, Storage(tmp_path / "home"), Settings(sound=True), seed=3)
    tap_item(app, "options")
    assert isinstance(app.scene, OptionsScene)
    assert tr("opt_no_audio") in screen_text(app, 0)


def screen_text(app: App, screen: int) -> str:
    app.m.cpage(screen)
    return "\n".join(
        bytes(app.m.chkchr(x, y) for x in range(32)).decode("latin-1") for y in range(24)
    )
