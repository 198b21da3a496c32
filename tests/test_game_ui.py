"""Whole matches played through the screens by stylus; save and resume; corrupt saves; pause."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from petitcom_shim import Machine
from royalnine.app import App
from royalnine.core import score_grid
from royalnine.game import new_game
from royalnine.screens.autoplay import AutoPlayer
from royalnine.screens.layout import BUTTON_RECTS, TOP, Zone
from royalnine.screens.match import MatchScene
from royalnine.screens.result import MatchResultScene
from royalnine.screens.title import TitleScene
from royalnine.storage import SAVE_FILE, Settings, Storage


def make_app(home: Path, *, seed: int = 7, **settings: object) -> App:
    m = Machine(headless=True, seed=seed)
    return new_game(m, Storage(home), Settings(sound=False, **settings), seed=seed)  # type: ignore[arg-type]


def tap(app: App, x: int, y: int, settle: int = 2) -> None:
    """Touch (x, y) for two frames, release, and let ``settle`` frames pass."""
    app.m.input.touch(x, y)
    app.step(2)
    app.m.input.untouch()
    app.step(settle)


def continue_saved_match(home: Path, settle: int) -> App:
    """Start again on ``home`` and tap CONTINUE MATCH on the title."""
    app = make_app(home, seed=8)
    title = app.scene
    assert isinstance(title, TitleScene) and title.menu is not None
    assert title.menu.items[0].value == "continue"
    tap(app, *title.menu.items[0].rect.centre, settle=settle)
    return app


def console_row(app: App, screen: int, row: int) -> str:
    app.m.cpage(screen)
    return "".join(chr(app.m.chkchr(x, row)) for x in range(32)).replace("\x00", " ")


def both_screens(app: App) -> np.ndarray:
    return np.concatenate([app.m.screen_array(0), app.m.screen_array(1)])


def finish_and_check(app: App) -> MatchResultScene:
    scene = app.scene
    assert isinstance(scene, MatchResultScene)
    match = scene.match
    assert match.is_over and len(match.results) == match.config.rounds
    for result in match.results:  # every round's points are the core's score of the grids
        assert result.points == tuple(score_grid(g).total for g in result.grids)
    totals = match.totals()
    assert totals == (
        sum(r.points[0] for r in match.results),
        sum(r.points[1] for r in match.results),
    )
    shown = [console_row(app, TOP, r) for r in range(24)]
    total_row = next(row for row in shown if row.strip().startswith("TOTAL"))
    assert total_row.split()[1:] == [str(totals[0]), str(totals[1])]
    return scene


@pytest.mark.parametrize("drag", [False, True], ids=["taps", "drags"])
def test_a_whole_match_against_the_cpu_through_the_ui(tmp_path: Path, drag: bool) -> None:
    app = make_app(tmp_path, rounds=2)
    player = AutoPlayer(app, mode="cpu", drag=drag, seed=3)
    player.play(max_frames=20_000)
    assert {
        "title",
        "placed_first",
        "second_half",
        "reveal",
        "round_result",
        "match_result",
    } <= player.stages
    finish_and_check(app)
    assert not (tmp_path / SAVE_FILE).exists()  # a finished match leaves no save
    assert Storage(tmp_path).stats()  # and is counted


def test_a_two_player_match_with_hand_over_screens(tmp_path: Path) -> None:
    app = make_app(tmp_path, rounds=1)
    handovers: list[str] = []

    def watch(app_: App) -> None:
        scene = app_.scene
        if isinstance(scene, MatchScene) and scene.state == "handover":
            row = console_row(app_, TOP, 10).strip()
            if not handovers or handovers[-1] != row:
                handovers.append(row)

    app.on_frame.append(watch)
    AutoPlayer(app, mode="local", seed=5).play(max_frames=20_000)
    scene = finish_and_check(app)
    assert scene.mode == "local"
    assert "Pass to PLAYER 2" in handovers and "Pass to PLAYER 1" in handovers


def test_a_match_saved_mid_round_resumes_to_the_same_screen(tmp_path: Path) -> None:
    app = make_app(tmp_path, rounds=3)
    player = AutoPlayer(app, mode="cpu", seed=11)
    while not ("second_half" in player.stages and isinstance(app.scene, MatchScene)):
        player.step()
    app.step(40)  # the deal animation settles; the save was written after the deal
    scene = app.scene
    assert isinstance(scene, MatchScene) and scene.state == "place"
    before = both_screens(app)
    saved_history = scene.match.history
    app.m.close()

    app2 = make_app(tmp_path, seed=99)
    assert isinstance(app2.scene, TitleScene)
    menu = app2.scene.menu
    assert menu is not None and menu.items[0].value == "continue"
    app2.m.input.touch(*menu.items[0].rect.centre)
    app2.step(2)
    app2.m.input.untouch()
    app2.step(40)
    resumed = app2.scene
    assert isinstance(resumed, MatchScene)
    assert resumed.match.history == saved_history
    assert np.array_equal(both_screens(app2), before)


def test_a_corrupt_save_is_set_aside_and_reported(tmp_path: Path) -> None:
    save = tmp_path / SAVE_FILE
    save.parent.mkdir(parents=True)
    save.write_text('{"format": "royalnine.match", "version": 1, "config": ', encoding="utf-8")
    app = make_app(tmp_path)
    app.step(5)
    scene = app.scene
    assert isinstance(scene, TitleScene) and scene.menu is not None
    assert scene.menu.items[0].value == "cpu"  # no CONTINUE
    assert "Damaged save" in console_row(app, 1, 1)
    assert "Damaged save" in console_row(app, TOP, 18)  # a headline, then where it went:
    assert console_row(app, TOP, 19).strip().startswith("The saved match was damaged")
    assert not save.exists()
    kept = [p for p in save.parent.iterdir() if p.name != save.name]
    assert kept and kept[0].read_text(encoding="utf-8").startswith('{"format"')


def test_pause_menu_quits_to_title_and_keeps_the_save(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    player = AutoPlayer(app, mode="cpu", seed=2)
    while not (isinstance(app.scene, MatchScene) and app.scene.state == "place"):
        player.step()
    menu_xy = BUTTON_RECTS[Zone.MENU].centre
    app.m.input.touch(*menu_xy)
    app.step(2)
    app.m.input.untouch()
    app.step(2)
    from royalnine.screens.pause import PauseScene

    pause = app.scene
    assert isinstance(pause, PauseScene) and pause.menu is not None
    quit_item = next(i for i in pause.menu.items if i.value == "quit")
    app.m.input.touch(*quit_item.rect.centre)
    app.step(2)
    app.m.input.untouch()
    app.step(2)
    assert isinstance(app.scene, TitleScene)
    assert (tmp_path / SAVE_FILE).exists()


def test_quitting_during_the_scoring_show_replays_it_on_resume(tmp_path: Path) -> None:
    from petitcom_shim import Button

    app = make_app(tmp_path, rounds=2)
    player = AutoPlayer(app, mode="cpu", seed=6)
    while "reveal" not in player.stages:
        player.step()
    app.m.input.press(Button.SELECT)
    app.step(1)
    app.m.input.release(Button.SELECT)
    app.step(2)
    menu = getattr(app.scene, "menu", None)
    assert menu is not None
    quit_item = next(i for i in menu.items if i.value == "quit")
    app.m.input.touch(*quit_item.rect.centre)
    app.step(2)
    app.m.input.untouch()
    app.step(2)
    app.m.close()

    app2 = continue_saved_match(tmp_path, settle=3)
    scene = app2.scene
    assert isinstance(scene, MatchScene), scene
    assert scene.state == "reveal", (scene.state, scene.match.phase, scene.steps)
    assert len(scene.match.results) == 1
    for _ in range(3000):
        if scene.state == "round_over":
            break
        app2.step()
    assert scene.state == "round_over" and len(scene.match.results) == 1


def test_a_failing_disk_does_not_end_the_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path, rounds=1)

    def broken(*_args: object, **_kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(app.storage, "save_game", broken)
    AutoPlayer(app, mode="cpu", seed=1).play(max_frames=10_000)
    finish_and_check(app)
    assert any("could not save" in str(n) for n in app.notices)


def test_hint_places_the_hand_where_the_ai_would_and_they_can_still_move(tmp_path: Path) -> None:
    from royalnine.ai import hint

    app = make_app(tmp_path, rounds=1)
    player = AutoPlayer(app, mode="cpu", seed=3)
    while not (isinstance(app.scene, MatchScene) and app.scene.state == "place"):
        player.step()
    scene = app.scene
    expected = hint(scene.view(), top=1)[0].cells
    app.m.input.touch(*BUTTON_RECTS[Zone.HINT].centre)
    app.step(2)
    app.m.input.untouch()
    app.step(3)
    v = scene.view()
    assert v.hand == () and not v.confirmed
    assert {card: v.grid.index(card) for card in expected} == expected
    assert "Hint" in console_row(app, 1, 6)
    app.m.input.touch(*BUTTON_RECTS[Zone.UNDO].centre)  # still movable: UNDO takes one back
    app.step(2)
    app.m.input.untouch()
    app.step(3)
    assert len(scene.view().hand) == 1


def test_the_cpu_placement_stays_off_the_match_and_the_save_until_you_confirm(
    tmp_path: Path,
) -> None:
    """Placements are simultaneous: a save written while you place holds no CPU placement."""
    from royalnine.core import Confirm, Place, load_record

    app = make_app(tmp_path, rounds=2)
    player = AutoPlayer(app, mode="cpu", seed=4)
    while not ("second_half" in player.stages and isinstance(app.scene, MatchScene)):
        player.step()
    app.step(40)
    scene = app.scene
    assert isinstance(scene, MatchScene) and scene.state == "place"
    assert scene.opponent_pending is not None  # the CPU has decided...
    assert not scene.match.round.confirmed[1]  # ...but its cards are not on the match
    assert "OK!" in console_row(app, TOP, 22)
    record = load_record(tmp_path / SAVE_FILE)
    second_deal = max(i for i, a in enumerate(record.actions) if type(a).__name__ == "Deal")
    after = record.actions[second_deal + 1 :]
    assert not any(isinstance(a, Place | Confirm) and a.seat == 1 for a in after)
    player.play(max_frames=20_000)
    finish_and_check(app)


def test_two_player_save_never_shows_a_confirmed_placement_to_the_other_player(
    tmp_path: Path,
) -> None:
    """At the hand-over, the save holds no placement of the seat that just confirmed."""
    from royalnine.core import Confirm, Deal, Place, load_record

    app = make_app(tmp_path, rounds=1)
    player = AutoPlayer(app, mode="local", seed=6)
    while not (isinstance(app.scene, MatchScene) and app.scene.state == "handover"):
        player.step()
    scene = app.scene
    assert scene.match.round.confirmed == (True, False)
    record = load_record(tmp_path / SAVE_FILE)
    last_deal = max(i for i, a in enumerate(record.actions) if isinstance(a, Deal))
    assert not any(
        isinstance(a, Place | Confirm) and a.seat == 0 for a in record.actions[last_deal + 1 :]
    )
    app.m.close()
    # on resume, player 1 places again and the match plays on to the end
    app2 = continue_saved_match(tmp_path, settle=40)
    resumed = app2.scene
    assert isinstance(resumed, MatchScene)
    assert resumed.state == "handover" and resumed.handover_to == 0  # "Pass to PLAYER 1"
    tap(app2, 128, 96, settle=40)
    assert resumed.state == "place"
    assert resumed.bottom_seat == 0 and not resumed.match.round.confirmed[0]
    AutoPlayer(app2, mode="local", seed=6).play(max_frames=20_000)
    finish_and_check(app2)
