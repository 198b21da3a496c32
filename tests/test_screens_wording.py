"""Help and wording (issue 18 item 3): the rules follow the match's options, the key list
names every key, counts read right, the hint's value stays, the record names its level."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_game_ui import console_row, make_app, tap

from royalnine.app import App, InputFrame
from royalnine.core import Match, MatchConfig
from royalnine.i18n import TEXTS, tr
from royalnine.screens.autoplay import AutoPlayer
from royalnine.screens.layout import BUTTON_RECTS, CELL_RECTS, Zone
from royalnine.screens.match import MatchScene
from royalnine.screens.pause import PauseScene
from royalnine.screens.result import MatchResultScene
from royalnine.screens.rules import RulesScene
from royalnine.screens.title import TitleScene

ROOT = Path(__file__).resolve().parent.parent


def bottom_text(app: object) -> str:
    return "\n".join(console_row(app, 1, row) for row in range(24))  # type: ignore[arg-type]


def test_the_rules_follow_rounds_and_tens_from_options(tmp_path: Path) -> None:
    app = make_app(tmp_path, rounds=9, tens=True)
    app.switch(RulesScene(back=TitleScene(), page=0))
    app.step(1)
    page1 = bottom_text(app)
    assert "20 cards: red 1-10, blue 1-10." in page1 and "18 cards" not in page1
    assert "TENS on: 8-9-10 is a straight." in page1
    app.switch(RulesScene(back=TitleScene(), page=3))
    app.step(1)
    assert "Rounds: 9." in bottom_text(app) and "5 rounds" not in bottom_text(app)
    app = make_app(tmp_path / "plain")
    app.switch(RulesScene(back=TitleScene(), page=0))
    app.step(1)
    assert "18 cards: red 1-9, blue 1-9." in bottom_text(app)
    assert "TENS in OPTIONS adds R10, B10." in bottom_text(app)  # what TENS is


def test_the_rules_from_the_pause_menu_follow_the_match_being_played(tmp_path: Path) -> None:
    app = make_app(tmp_path, rounds=9)
    match = MatchScene(Match.new(MatchConfig(rounds=3, tens=False)), "cpu", {"level": "easy"})
    app.switch(match)
    app.step(2)
    pause = match.pause(app)
    assert isinstance(pause, PauseScene)
    app.switch(pause)
    down, up = _choose("rules", pause)
    assert pause.frame(app, down) is None
    rules = pause.frame(app, up)
    assert isinstance(rules, RulesScene)
    rules.page = 3
    app.switch(rules)
    app.step(1)
    assert "Rounds: 3." in bottom_text(app)


def _choose(value: str, scene: PauseScene) -> tuple[InputFrame, InputFrame]:
    """The stylus down on a menu item, then up on it."""
    assert scene.menu is not None
    item = next(i for i in scene.menu.items if i.value == value)
    return InputFrame(touch_down=item.rect.centre), InputFrame(touch_up=item.rect.centre)


def placing(tmp_path: Path) -> tuple[App, MatchScene]:
    """A 1-round match against the CPU, played by stylus up to this seat's placing."""
    app = make_app(tmp_path, rounds=1)
    player = AutoPlayer(app, mode="cpu", seed=3)
    while not (isinstance(app.scene, MatchScene) and app.scene.state == "place"):
        player.step()
    assert isinstance(app.scene, MatchScene)
    return app, app.scene


def test_the_controls_page_and_the_guide_name_hint_and_full_screen(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    app.switch(RulesScene(back=TitleScene(), page=4))
    app.step(1)
    assert "S: hint, F11: full screen" in bottom_text(app)  # S: the default key of X
    guide = (ROOT / "docs" / "playing.md").read_text(encoding="utf-8")
    assert "`S`" in guide and "`F11`" in guide


def test_no_english_text_counts_with_a_plural_that_a_count_of_1_would_break() -> None:
    """ "CPU: 1 points" (the reveal, and the kiosk's "YOU: 1 points")."""
    # (placeholders that can be 1; {cards} is 18 or 20)
    plural_after_count = re.compile(r"\{(n|a|b|pts|rounds)\} (points|rounds|games|codes)\b")
    bad = [key for key, text in TEXTS.items() if plural_after_count.search(text.en)]
    assert bad == []
    assert tr("grid_total", "en", who="CPU", pts=1) == "CPU total: 1"


def test_a_move_onto_the_centre_says_the_centre_is_for_the_common_card(tmp_path: Path) -> None:
    app, scene = placing(tmp_path)
    card = scene.view().hand[0]
    from royalnine.screens.layout import HAND_RECTS

    tap(app, *HAND_RECTS[0].centre)
    tap(app, *CELL_RECTS[4].centre)
    assert scene.view().hand[0] == card  # refused
    text = " ".join(filter(None, (console_row(app, 1, row)[17:].strip() for row in range(4, 12))))
    assert "Centre cell is for the common card only." in text


def test_the_hint_value_stays_until_a_card_moves(tmp_path: Path) -> None:
    app, _ = placing(tmp_path)
    tap(app, *BUTTON_RECTS[Zone.HINT].centre)
    app.step(300)  # far longer than a message shows
    assert "Hint" in console_row(app, 1, 6)
    tap(app, *BUTTON_RECTS[Zone.UNDO].centre)  # a card moves: the value no longer holds
    app.step(3)
    assert "Hint" not in bottom_text(app)


@pytest.mark.parametrize(("lang", "word"), [("en", "HARD GAMES 1"), ("ja", "ﾂﾖｲ ﾀｲｾﾝ1")])
def test_the_record_on_the_result_screen_names_its_cpu_level(
    tmp_path: Path, lang: str, word: str
) -> None:
    from petitcom_shim.charset import to_ptc

    app = make_app(tmp_path, rounds=1, lang=lang)
    AutoPlayer(app, mode="cpu", level="hard", seed=1).play()
    assert isinstance(app.scene, MatchResultScene)
    top = "\n".join(console_row(app, 0, row) for row in range(24))
    assert "".join(chr(c) for c in to_ptc(word)) in top


def test_page_1_shows_the_tens_when_they_are_played() -> None:
    from royalnine.core import Card, Colour
    from royalnine.screens.rules import page_pictures

    shown = page_pictures(0, tens=True)
    cards = {card for card, *_ in shown}
    assert {Card(Colour.RED, 10), Card(Colour.BLUE, 10)} <= cards and len(shown) == 20
    assert all(x >= 0 and x + 24 <= 256 for _, x, _, _ in shown)
    assert len(page_pictures(0)) == 18


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_record_of_years_of_play_still_fits_its_line(lang: str) -> None:
    """A player who comes back for months: 200 games at MASTER, 100 won, 100 lost,
    made "MASTER GAMES 200 WON 100 LOST 100", 33 columns on a 32-column line (it
    wrapped). Four-digit counts must fit, with and without the level."""
    from petitcom_shim.charset import to_ptc
    from royalnine.i18n import tr

    for key, extra in (("stats_line_cpu", {"level": "MASTER"}), ("stats_line", {})):
        line = tr(key, lang, games=9999, won=9999, lost=9999, **extra)
        assert len(to_ptc(line)) <= 32, line
