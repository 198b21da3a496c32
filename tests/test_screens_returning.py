"""What a returning player sees (issue 8): one test per reported case.

The text-fit walk (test_screens_textfit.py) checks every screen for clipped or
overlapping text; these tests pin the individual reports: the title with a save,
one-off flags, asking before a saved match is replaced, texts that did not fit,
keyboard play, cards keeping their hand slots, the single layout, the words.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from petitcom_shim import Button, Machine
from petitcom_shim.charset import from_ptc
from petitcom_shim.config import ShimConfig
from royalnine import art, i18n
from royalnine.app import App
from royalnine.cli import build_parser
from royalnine.cli.play import _options, shim_layout
from royalnine.core import CENTRE, Dealer, Match, MatchConfig, NextRound, Phase, view
from royalnine.game import new_game
from royalnine.screens import draw
from royalnine.screens.draw import fold
from royalnine.screens.fitcheck import problems
from royalnine.screens.layout import CELL_RECTS, HAND_RECTS, TOP
from royalnine.screens.match import MatchScene
from royalnine.screens.options import OptionsScene
from royalnine.screens.pause import PauseScene
from royalnine.screens.placement import hand_slots
from royalnine.screens.reveal import reveal_steps
from royalnine.screens.rules import RulesScene
from royalnine.screens.title import TitleScene
from royalnine.storage import SAVE_FILE, Notice, SaveGame, Settings, Storage


def make_app(
    home: Path, *, lang: str = "en", layout: str = "vertical", config: ShimConfig | None = None
) -> App:
    m = Machine(headless=True, seed=1, layout=shim_layout(layout), config=config)
    return new_game(m, Storage(home), Settings(sound=False, lang=lang), seed=4)


def tap(app: App, x: int, y: int) -> None:
    app.m.input.touch(x, y)
    app.step(2)
    app.m.input.untouch()
    app.step(2)


def press(app: App, button: Button) -> None:
    app.m.input.press(button)
    app.step(1)
    app.m.input.release(button)
    app.step(1)


def choose(app: App, value: str) -> None:
    menu = getattr(app.scene, "menu", None)
    assert menu is not None
    tap(app, *next(i for i in menu.items if i.value == value).rect.centre)


def console_text(app: App, screen: int) -> str:
    app.m.cpage(screen)
    rows = (from_ptc(bytes(app.m.chkchr(x, y) or 32 for x in range(32))) for y in range(24))
    return "\n".join(rows)


def save_a_match(home: Path) -> None:
    match = Match.new(MatchConfig(rounds=3))
    match = match.apply(Dealer(random.Random(1)).deal(match))
    Storage(home).save_game(SaveGame(match, "cpu", {"level": "normal"}))


@pytest.fixture
def log() -> object:
    log = draw.DrawLog()
    draw.log = log
    yield log
    draw.log = None


# --- 1. the title with a saved match ---


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_title_with_a_saved_match_has_every_label_inside_its_button(
    tmp_path: Path, log: draw.DrawLog, lang: str
) -> None:
    save_a_match(tmp_path)
    app = make_app(tmp_path, lang=lang)
    title = app.scene
    assert isinstance(title, TitleScene) and title.menu is not None
    assert len(title.menu.items) == 7  # CONTINUE, VS CPU, 2P, REMOTE, HISTORY, RULES, OPTIONS
    assert problems(app.m, log) == []
    for item in title.menu.items:  # boxes on the text grid, labels on their middle row
        assert item.rect.y % 8 == 0 and item.rect.h == 24


# --- 2. flags apply to that run only ---


def test_flags_apply_to_that_run_only(tmp_path: Path) -> None:
    flags = ["--layout", "side", "--scale", "2", "--fullscreen", "--lang", "ja", "--tens"]
    flags += ["--rounds", "3", "--level", "easy"]
    args = build_parser().parse_args(["play", "--home", str(tmp_path), *flags])
    storage, saved, overrides = _options(args)
    m = Machine(headless=True, layout=shim_layout("side"))
    app = new_game(m, storage, saved, overrides=overrides)
    assert (app.settings.layout, app.settings.scale, app.settings.lang) == ("side", 2, "ja")
    app.choose("music", False)  # anything that saves the settings
    written = json.loads((tmp_path / "settings.json").read_text())
    default = Settings()
    for name in ("layout", "scale", "fullscreen", "lang", "tens", "rounds", "difficulty"):
        assert written[name] == getattr(default, name), name
    assert written["music"] is False
    app.choose("lang", "en")  # chosen in OPTIONS: kept
    assert json.loads((tmp_path / "settings.json").read_text())["lang"] == "en"
    assert Storage(tmp_path).load_settings().layout == "vertical"


# --- 3. a new match asks before replacing the saved one ---


@pytest.mark.parametrize("mode", ["cpu", "local"])
def test_a_new_match_asks_before_replacing_the_saved_one(tmp_path: Path, mode: str) -> None:
    save_a_match(tmp_path)
    before = (tmp_path / SAVE_FILE).read_bytes()
    app = make_app(tmp_path)
    if mode == "cpu":
        choose(app, "cpu")
        choose(app, "normal")
    else:
        choose(app, "local")
    title = app.scene
    assert isinstance(title, TitleScene) and title.page == "confirm_new"
    assert "saved match will be lost" in console_text(app, 1)
    choose(app, "no_keep")
    assert isinstance(app.scene, TitleScene) and app.scene.page == "main"
    assert (tmp_path / SAVE_FILE).read_bytes() == before
    choose(app, "cpu" if mode == "cpu" else "local")
    if mode == "cpu":
        choose(app, "normal")
    choose(app, "yes_new")
    assert isinstance(app.scene, MatchScene) and app.scene.mode == mode


def test_without_a_save_a_new_match_starts_at_once(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    choose(app, "local")
    assert isinstance(app.scene, MatchScene)


# --- 4. texts that did not fit ---


def test_the_all_placed_prompt_stays_on_screen(tmp_path: Path, log: draw.DrawLog) -> None:
    app = make_app(tmp_path)
    scene = MatchScene(Match.new(MatchConfig()), "cpu", {"level": "normal"})
    app.switch(scene)
    app.step(60)
    v = scene.view()
    cells = [c for c in v.empty_cells if c != CENTRE]
    from royalnine.core import Place

    scene.apply(app, [Place(0, c, cell) for c, cell in zip(v.hand, cells, strict=False)])
    scene.render(app, force=True)
    text = console_text(app, 1)
    assert "All placed!" in text and "Tap OK to fix" in text
    assert problems(app.m, log) == []


def test_japanese_rules_page_4_shows_the_whole_bust_line(tmp_path: Path, log: draw.DrawLog) -> None:
    app = make_app(tmp_path, lang="ja")
    app.switch(RulesScene(back=TitleScene(), page=3))
    assert "0ﾃﾝ" in i18n.tr("bust_short", "ja")
    assert problems(app.m, log) == []
    top = [t.text for t in log.texts if t.screen == TOP]
    assert i18n.tr("bust_short", "ja") in top


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_options_fit_with_back_on_screen(tmp_path: Path, log: draw.DrawLog, lang: str) -> None:
    app = make_app(tmp_path, lang=lang)
    app.switch(OptionsScene())
    scene = app.scene
    assert isinstance(scene, OptionsScene) and scene.menu is not None
    assert any(i.value == "back" for i in scene.menu.items)
    for item in scene.menu.items:  # a margin of one text cell at every edge
        r = item.rect
        assert r.x >= 8 and r.y >= 8 and r.x + r.w <= 248 and r.y + r.h <= 184, item
    assert problems(app.m, log) == []


def test_the_top_table_keeps_round_1_after_round_5(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    rng = random.Random(2)
    match = Match.new(MatchConfig(rounds=5))
    dealer = Dealer(random.Random(3))
    from royalnine.ai import make_player
    from royalnine.core import placement_actions

    players = [make_player("easy", s, rng) for s in (0, 1)]
    while len(match.results) < 5:
        if match.phase.is_deal:
            deal = dealer.deal(match)
            assert deal is not None
            match = match.apply(deal)
        elif match.phase.is_place:
            for s in (0, 1):
                if match.awaiting(s):
                    match = match.apply_all(placement_actions(s, players[s].choose(view(match, s))))
        elif match.phase is Phase.ROUND_OVER:
            match = match.apply(NextRound())
    scene = MatchScene(match, "cpu", {"level": "normal"})
    names = scene.names(app)
    scene.steps = reveal_steps(match.results[-1], (0, 1), names, "en")  # the show was seen
    scene.state = "round_over"
    app.switch(scene)
    text = console_text(app, TOP)
    for n in range(1, 6):
        assert f"RND{n} " in text


def test_a_damaged_file_notice_is_translated_and_folded_at_word_and_path_boundaries(
    tmp_path: Path, log: draw.DrawLog
) -> None:
    name = "settings.json.corrupt-20260101-000000"
    detail = Notice("notice_set_aside", "settings", name, "Expecting value: line 1 column 1")
    for lang in i18n.LANGS:
        app = make_app(tmp_path, lang=lang)
        app.notices.append(detail)
        app.switch(TitleScene())
        top = console_text(app, TOP)
        assert i18n.tr("file_problem", lang) in top
        assert str(tmp_path) not in top  # files are named by their place in the data folder
        assert i18n.tr("file_settings", lang) in top
        assert name in "".join(line.strip() for line in top.splitlines())  # folded, whole
        assert problems(app.m, log) == []
    lines = fold("could not read /home/player/.local/share/royalnine/saves/current.json", 30, 4)
    assert lines == [
        "could not read /home/player/",
        ".local/share/royalnine/saves/",
        "current.json",
    ]
    assert fold("a " * 40, 10, 2)[-1].endswith("..")


# --- 5. keyboard play ---


def test_rules_and_prompts_name_the_keys_of_the_mapping_in_use(tmp_path: Path) -> None:
    config = ShimConfig()
    config.keys = {**config.keys, "space": Button.A}
    del config.keys["x"]
    app = make_app(tmp_path, config=config)
    app.switch(RulesScene(back=TitleScene(), page=4))
    assert "SPACE takes/puts, Z undoes," in console_text(app, 1)
    assert "ENTER = OK, ESC = menu." in console_text(app, 1)
    scene = MatchScene(Match.new(MatchConfig()), "cpu", {"level": "normal"})
    app.switch(scene)
    app.step(60)
    assert "a cell, or tap" in console_text(app, 1)
    press(app, Button.RIGHT)  # the player uses the keys: the prompts follow
    assert "SPACE=pick/put" in console_text(app, 1)


def test_escape_pauses_a_match_goes_back_and_never_quits_without_asking(tmp_path: Path) -> None:
    assert ShimConfig().keys["escape"] == Button.SELECT
    app = make_app(tmp_path)
    press(app, Button.SELECT)  # Esc on the title: the question, not the end
    title = app.scene
    assert isinstance(title, TitleScene) and title.page == "quit" and app.m.running
    press(app, Button.SELECT)  # Esc again: back
    assert title.page == "main" and app.m.running
    choose(app, "options")
    press(app, Button.SELECT)
    assert isinstance(app.scene, TitleScene)
    from royalnine.screens.exchange import ExchangeScene
    from royalnine.screens.remote_list import RemoteListScene

    app.switch(RemoteListScene())
    press(app, Button.SELECT)
    assert isinstance(app.scene, TitleScene)
    app.switch(ExchangeScene(None))
    press(app, Button.SELECT)
    assert isinstance(app.scene, RemoteListScene)
    scene = MatchScene(Match.new(MatchConfig()), "cpu", {"level": "normal"})
    app.switch(scene)
    app.step(60)
    press(app, Button.SELECT)
    assert isinstance(app.scene, PauseScene)
    press(app, Button.SELECT)
    assert app.scene is scene
    app.switch(TitleScene())
    press(app, Button.SELECT)
    choose(app, "quit")
    assert not app.m.running


def test_the_cursor_on_an_empty_cell_has_its_own_colour(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    scene = MatchScene(Match.new(MatchConfig()), "cpu", {"level": "normal"})
    app.switch(scene)
    app.step(60)
    press(app, Button.RIGHT)
    press(app, Button.A)  # a card taken: every empty cell is a target
    for _ in range(3):
        press(app, Button.UP)
    cursor = scene.ctrl[0].cursor
    assert cursor.index != CENTRE
    r, other = CELL_RECTS[cursor.index], CELL_RECTS[CENTRE - 1 if cursor.index != 3 else 5]
    pixels = app.m.screen_array(1)
    inside = pixels[r.y + r.h // 2, r.x + r.w // 2]
    target = pixels[other.y + other.h // 2, other.x + other.w // 2]
    assert tuple(inside) != tuple(target)  # not just one more highlighted cell
    assert "▶" not in console_text(app, 1)


# --- 6. cards keep their hand slots ---


def test_a_tap_on_an_empty_cell_shows_the_whole_placing_prompt(
    tmp_path: Path, log: draw.DrawLog
) -> None:
    """With no card chosen, a tap on an empty cell repeats how to place, all of it."""
    app = make_app(tmp_path)
    scene = MatchScene(Match.new(MatchConfig()), "cpu", {"level": "normal"})
    app.switch(scene)
    app.step(60)
    tap(app, *CELL_RECTS[0].centre)
    assert scene.message is not None and scene.message.key == "help_place"
    text = " ".join(console_text(app, 1).split())
    lines = [i18n.tr(key) for key in ("help_place", "help_place2", "help_place3")]
    assert " ".join(lines) in text
    assert problems(app.m, log) == []


def test_cards_keep_their_hand_slots_so_a_second_drag_takes_the_card_aimed_at(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path)
    scene = MatchScene(Match.new(MatchConfig()), "cpu", {"level": "normal"})
    app.switch(scene)
    app.step(60)
    dealt = scene.view().hand
    tap(app, *HAND_RECTS[0].centre)
    tap(app, *CELL_RECTS[0].centre)
    assert hand_slots(scene.view()) == (None, *dealt[1:])
    x, y = HAND_RECTS[2].centre  # drag the card seen in slot 2 (the third one dealt)
    app.m.input.touch(x, y)
    app.step(2)
    cx, cy = CELL_RECTS[2].centre
    for k in range(1, 5):
        app.m.input.touch(x + (cx - x) * k // 4, y + (cy - y) * k // 4)
        app.step(1)
    app.m.input.untouch()
    app.step(2)
    assert scene.view().grid[2] == dealt[2]
    assert scene.boards is not None  # the last card's sprite never moved
    look = scene.boards[1].current[10 + dealt[3].index]
    assert (look.x, look.y) == (HAND_RECTS[3].x, HAND_RECTS[3].y)


# --- 8. the single layout says how to see the other screen ---


def test_the_single_layout_says_how_to_see_the_other_screen(tmp_path: Path) -> None:
    app = make_app(tmp_path, layout="single")
    assert "TAB: see the other screen" in console_text(app, 1)
    scene = MatchScene(Match.new(MatchConfig()), "cpu", {"level": "normal"})
    app.switch(scene)
    app.step(60)
    assert "TAB: swap view" in console_text(app, 1)
    assert "TAB: swap view" in console_text(app, TOP)
    other = make_app(tmp_path / "v")
    assert "TAB" not in console_text(other, 1)


# --- 9. one name for each thing ---


def test_one_name_each_and_old_names_still_work(tmp_path: Path) -> None:
    args = build_parser().parse_args(["play", "--level", "match", "--layout", "horizontal"])
    assert (args.level, args.layout) == ("master", "side")
    help_text = build_parser()._subparsers._group_actions[0].choices["play"].format_help()  # type: ignore[union-attr]
    assert "master" in help_text and "side" in help_text
    assert "horizontal" not in help_text and "match}" not in help_text
    (tmp_path / "settings.json").write_text('{"layout": "horizontal", "difficulty": "match"}')
    settings = Storage(tmp_path).load_settings()
    assert (settings.layout, settings.difficulty) == ("side", "master")
    app = make_app(tmp_path)
    app.settings.layout, app.settings.difficulty = settings.layout, settings.difficulty
    app.switch(OptionsScene())
    text = console_text(app, 1)
    assert "SIDE" in text and "MASTER" in text
    old_save = MatchScene(Match.new(MatchConfig()), "cpu", {"level": "match"})
    assert old_save.level == "master"


def test_the_side_layout_title_says_where_the_menu_is(tmp_path: Path) -> None:
    app = make_app(tmp_path, layout="side")
    assert "Choose on the right" in console_text(app, TOP)
    assert "below" not in console_text(app, TOP)


def test_the_demo_calls_no_cpu_you(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    app.demo = True
    scene = MatchScene(Match.new(MatchConfig()), "cpu", {"level": "normal"})
    app.switch(scene)
    app.step(60)
    assert scene.names(app) == ("CPU 1", "CPU 2")
    assert "YOU" not in console_text(app, 1) + console_text(app, TOP)


def test_english_words_are_players_words() -> None:
    english = " ".join(i18n.widest(key, "en") for key in i18n.TEXTS).lower()
    assert "role" not in english
    assert "ﾔｸ" in i18n.tr("no_roles", "ja")  # Japanese keeps 役


# --- 10. small visual issues ---


def test_fixed_cards_look_plainly_different_from_movable_ones() -> None:
    def rgb(hexa: str) -> tuple[int, int, int]:
        return (int(hexa[0:2], 16), int(hexa[2:4], 16), int(hexa[4:6], 16))

    normal = art.SP_PALETTES[art.SP_NORMAL]
    fixed = art.SP_PALETTES[art.SP_LOCKED]
    for index in (2, 3, 4):  # the face and both suit colours
        a, b = rgb(normal[index]), rgb(fixed[index])
        assert sum(abs(x - y) for x, y in zip(a, b, strict=True)) >= 90, index
