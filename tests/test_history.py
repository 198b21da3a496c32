"""Match history: kept on every finished match, capped, atomic, damaged files set aside;
HISTORY on the title and the review screens, by stylus and by keys; the kiosk keeps none."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_kiosk import Clock, make, step
from test_remote_protocol import honest, next_code, start, turns
from test_review import play
from test_screens_returning import choose, press

from petitcom_shim import Button, Machine
from royalnine import history
from royalnine.app import App
from royalnine.core import Match, MatchConfig, NextRound
from royalnine.core.errors import CorruptRecord
from royalnine.game import new_game
from royalnine.kiosk.operator import OperatorScene, load_prefs
from royalnine.screens.history import PAGE, HistoryScene
from royalnine.screens.remote import RemoteLink
from royalnine.screens.result import MatchResultScene
from royalnine.screens.review import ReviewScene
from royalnine.screens.title import TitleScene
from royalnine.storage import Settings, Storage

WAIT = 120.0  # seconds: a hang guard for the analysis thread, never a timing assertion


def make_app(home: Path, lang: str = "en") -> App:
    m = Machine(headless=True, seed=1)
    return new_game(m, Storage(home), Settings(sound=False, lang=lang), seed=5)


def keep(storage: Storage, seed: int, *, mode: str = "cpu", now: float = 1.8e9) -> Path:
    match = play(("easy", "hard"), seed, rounds=1)
    meta = {"level": "hard"} if mode == "cpu" else {}
    return history.add(storage, match, mode, meta, seat=None if mode == "local" else 0, now=now)


# --- the files ---


def test_kept_matches_are_listed_newest_first_and_capped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(history, "MAX_MATCHES", 3)
    storage = Storage(tmp_path)
    paths = [keep(storage, 20 + k, now=1.8e9 + 60 * k) for k in range(4)]
    paths.append(keep(storage, 30, now=1.8e9 + 180))  # the same second as the last: -2
    assert paths[-1].name.endswith("-2.json")
    entries = history.entries(storage)
    assert [e.path for e in entries] == [paths[4], paths[3], paths[2]]  # the oldest two went
    assert not paths[0].exists() and not paths[1].exists()
    e = entries[0]
    assert e.mode == "cpu" and e.level == "hard" and e.seat == 0
    assert e.replay().totals() == e.points
    assert e.result in ("won", "lost", "drawn")
    assert not storage.notices
    assert not [p for p in (tmp_path / "history").iterdir() if p.name.startswith(".")]


def test_an_unfinished_match_is_not_kept(tmp_path: Path) -> None:
    storage = Storage(tmp_path)
    with pytest.raises(ValueError, match="finished"):
        history.add(storage, Match.new(MatchConfig()), "cpu")
    assert not (tmp_path / "history").exists()


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        '{"format": "royalnine.match", "version": 9, "config": {}, "actions": []}',
        "META",  # a record whose metadata is odd
        "DATE",  # a date that is no date: drawn as it is, a line break broke the list
    ],
)
def test_a_damaged_file_is_set_aside_with_a_notice(tmp_path: Path, content: str) -> None:
    storage = Storage(tmp_path)
    good = keep(storage, 1)
    bad = tmp_path / "history" / "20000101-000000.json"
    if content in ("META", "DATE"):
        doc = json.loads(good.read_text())
        if content == "META":
            doc["meta"]["seat"] = 7
        else:
            doc["meta"]["date"] = "26-1-1\n\tx"
        content = json.dumps(doc)
    bad.write_text(content)
    assert [e.path for e in history.entries(storage)] == [good]
    assert not bad.exists()
    assert len(list((tmp_path / "history").glob("20000101-000000.json.corrupt-*"))) == 1
    assert [n.key for n in storage.notices] == ["notice_set_aside"]
    assert storage.notices[0].what == "history"


def test_a_damaged_file_is_named_once_and_not_called_reset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 26: the stderr line named the file twice, and the screen said the match
    "is reset" though it was only set aside."""
    storage = Storage(tmp_path)
    bad = tmp_path / "history" / "20000101-000000.json"
    bad.parent.mkdir(parents=True, exist_ok=True)
    bad.write_text("{bad")
    assert history.entries(storage) == []
    err = capsys.readouterr().err
    assert err.count(str(bad)) == 1 and err.count("\n") == 1
    shown = storage.notices[0].text("en")
    assert "reset" not in shown and "is not used" in shown and "corrupt-" in shown


def test_a_record_edited_into_an_impossible_match_is_set_aside_when_opened(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path)
    path = keep(app.storage, 2)
    doc = json.loads(path.read_text())
    doc["meta"]["points0"] += 1  # the list would show a score the rounds do not give
    path.write_text(json.dumps(doc))
    scene = HistoryScene(back=TitleScene())
    app.switch(scene)
    assert len(scene.paths) == 1
    choose(app, "open:0")
    assert app.scene is scene and scene.paths == [] and scene.notice is not None
    assert scene.notice.what == "history" and not path.exists()


def test_the_list_reads_only_the_page_shown_and_a_damaged_one_makes_room(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path)
    kept = [keep(app.storage, 60 + k, now=1.8e9 + 60 * k) for k in range(2 * PAGE + 2)]
    kept[-2].write_text("{damaged")  # on the first page (newest first)
    reads: list[Path] = []
    real = history.read
    monkeypatch.setattr(history, "read", lambda st, p: reads.append(p) or real(st, p))
    scene = HistoryScene(back=TitleScene())
    app.switch(scene)
    assert len(reads) == PAGE + 1  # the page, and the one that moved up into the gap
    assert [e.path for e in scene.shown()] == [kept[-1], *kept[-3 : -PAGE - 2 : -1]]
    assert scene.notice is not None and scene.notice.what == "history"
    assert len(scene.paths) == 2 * PAGE + 1 and scene.pages == 3
    assert not app.storage.notices  # shown here, not again on the title


def test_a_remote_match_is_kept_from_its_transcript_once_over() -> None:
    codes = honest(5, rounds=2)
    match = history.match_of_transcript(codes)
    assert match.is_over and len(match.results) == 2
    with pytest.raises(CorruptRecord, match="unfinished"):
        history.match_of_transcript(codes[:-1])
    with pytest.raises(CorruptRecord, match="not a valid"):
        history.match_of_transcript([codes[0], codes[2]])


# --- keeping a match when it ends ---


def test_the_result_screen_keeps_the_match_once(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    match = play(("hard", "easy"), 3, rounds=1)
    result = MatchResultScene(match, "cpu", "master", ("YOU", "CPU"))
    app.switch(result)
    app.switch(result)  # shown again (e.g. after the rules): not kept twice
    app.switch(MatchResultScene(match, "local", "normal", ("P1", "P2")))
    cpu, local = sorted(history.entries(app.storage), key=lambda e: e.mode)
    assert (cpu.mode, cpu.level, cpu.seat) == ("cpu", "master", 0)
    assert (local.mode, local.seat) == ("local", None)
    assert cpu.record.actions == match.history


def test_a_finished_remote_match_is_kept_from_its_transcript_on_both_devices(
    tmp_path: Path,
) -> None:
    host, guest = start(4, rounds=1)
    for sender, receiver in turns(host, guest):
        receiver.receive(next_code(sender))
    for session in (host, guest):
        app = make_app(tmp_path / f"seat{session.seat}")
        over = session.match.apply(NextRound())
        link = RemoteLink(session, app.storage)
        app.switch(MatchResultScene(over, "remote", "normal", ("YOU", "RIVAL"), remote=link))
        (entry,) = history.entries(app.storage)
        assert (entry.mode, entry.seat) == ("remote", session.seat)
        assert entry.replay().results == over.results


def test_a_kiosk_keeps_no_history_unless_the_operator_turns_it_on(tmp_path: Path) -> None:
    clock = Clock()
    app = make(tmp_path, clock)
    match = play(("hard", "easy"), 3, rounds=1)
    assert app.keep_history is False
    app.switch(MatchResultScene(match, "cpu", "easy", ("YOU", "CPU")))
    step(app, clock, 2)
    assert history.entries(app.storage) == []
    operator = OperatorScene(TitleScene())
    app.switch(operator)
    assert operator.menu is not None
    item = next(i for i in operator.menu.items if i.value == "history")
    assert item.label == "HISTORY OFF"
    app.m.input.touch(*item.rect.centre)
    step(app, clock, 2)
    app.m.input.untouch()
    step(app, clock, 2)
    assert app.keep_history is True and load_prefs(tmp_path).history is True
    app.switch(MatchResultScene(match, "cpu", "easy", ("YOU", "CPU")))
    assert len(history.entries(app.storage)) == 1


# --- HISTORY and the review screens ---


def test_history_pages_by_stylus_and_keys_and_opens_a_review(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    for k in range(PAGE + 1):
        keep(app.storage, 40 + k, now=1.8e9 + 60 * k)
    title = TitleScene()
    app.switch(title)
    choose(app, "history")
    scene = app.scene
    assert isinstance(scene, HistoryScene) and scene.pages == 2 and scene.page == 0
    assert sum(1 for i in scene.menu.items if i.value.startswith("open:")) == PAGE  # type: ignore[union-attr]
    choose(app, "next")
    assert scene.page == 1
    press(app, Button.LEFT)
    assert scene.page == 0
    press(app, Button.RIGHT)
    assert scene.page == 1 and len(scene.shown()) == 1
    press(app, Button.DOWN)  # the pad cursor, then A opens the entry under it
    press(app, Button.A)
    review = app.scene
    assert isinstance(review, ReviewScene)
    assert review.match.history == scene.shown()[0].replay().history
    press(app, Button.B)
    back = app.scene
    assert isinstance(back, HistoryScene) and back.page == 1
    press(app, Button.B)
    assert isinstance(app.scene, TitleScene)


def test_review_steps_forwards_and_backwards_and_shows_the_analysis(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    keep(app.storage, 8)
    app.switch(HistoryScene(back=TitleScene()))
    choose(app, "open:0")
    review = app.scene
    assert isinstance(review, ReviewScene)
    kinds = [s.kind for s in review.steps]
    assert kinds[:7] == ["deal", "place", "place", "deal", "place", "place", "reveal"]
    assert kinds[-1] == "end" and "score" in kinds
    assert review.index == 0
    choose(app, "next")
    assert review.index == 1
    press(app, Button.RIGHT)
    press(app, Button.A)
    assert review.index == 3
    press(app, Button.LEFT)
    choose(app, "prev")
    assert review.index == 1
    press(app, Button.DOWN)  # a round on: the one-round match's summary
    assert review.steps[review.index].kind == "end"
    press(app, Button.UP)
    assert review.index == 0
    choose(app, "prev")  # nothing before the first step
    assert review.index == 0
    assert review.analysis.wait(WAIT)
    review.go(app, 1)
    app.step(1)
    text = screen_text(app)
    d = review.analysis.decisions[0]
    assert f"{float(d.best_ev):.2f}" in text and f"{float(d.played_ev):.2f}" in text
    assert ("BEST MOVE!" in text) == (d.loss == 0)
    if d.loss:
        assert f"LOSS -{float(d.loss):.2f}" in text


def screen_text(app: App) -> str:
    """Both consoles' text, row by row."""
    m = app.m
    rows = []
    for screen in (0, 1):
        m.cpage(screen)
        for y in range(24):
            rows.append("".join(chr(m.chkchr(x, y)) for x in range(32)))
    return "\n".join(rows)


def test_a_review_names_the_seats_from_what_the_record_knows(tmp_path: Path) -> None:
    """A remote transcript does not say which side was this player's (``royalnine review
    transcript.txt``): the seats are HOST and GUEST, not YOU on the host's side."""
    app = make_app(tmp_path)
    match = play(("easy", "hard"), 9, rounds=1)
    names = {
        (("mode", "remote"),): ("HOST", "GUEST"),
        (("mode", "remote"), ("seat", 1)): ("RIVAL", "YOU"),
        (("mode", "remote"), ("seat", 0)): ("YOU", "RIVAL"),
        (("mode", "cpu"), ("seat", 1)): ("CPU", "YOU"),
        (("mode", "local"),): ("PLAYER 1", "PLAYER 2"),
    }
    for meta, expected in names.items():
        assert ReviewScene(match, dict(meta)).names(app) == expected, meta


def test_the_analysis_runs_while_the_review_keeps_drawing(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    match = play(("easy", "hard"), 9, rounds=2)
    review = ReviewScene(match, {"mode": "cpu", "seat": 0})
    app.switch(review)
    review.go(app, 1)  # a placement: "Analysing..." until its judgement arrives
    frames = 0
    while not review.analysis.done and frames < 100_000:
        app.step(1)
        frames += 1
    assert review.analysis.done
    app.step(2)
    assert "Analysing" not in screen_text(app)
    assert review._shown_known > review.steps[1].decision


def test_a_long_match_is_built_a_round_a_frame_and_each_step_finds_its_placement(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path)
    match = play(("easy", "hard"), 10, rounds=3)
    review = ReviewScene(match, {"mode": "cpu", "seat": 0})
    review.analysis.start = lambda: None  # type: ignore[method-assign]
    app.switch(review)
    assert review.steps[-1].round == 1 and len(review.steps) < review.total
    app.step(2)
    assert len(review.steps) == review.total and review.steps[-1].kind == "end"
    points = review.analysis.points
    for shown in review.steps:
        if shown.kind == "place":
            p = points[shown.decision]
            assert (p.round, p.half, p.seat) == (shown.round, shown.half, shown.seat)
            assert set(shown.new) == set(p.played)
            grid = shown.state.round.grids[shown.seat]
            assert all(grid[cell] == card for card, cell in p.played.items())


def test_summary_colours_mean_good_and_bad_the_same_way() -> None:
    """A negative LUCK was green and LOST 0.00 red: a value's colour now says whether it is
    good (green) or bad (red) for its player, white when it is neither."""
    from fractions import Fraction

    from royalnine import art
    from royalnine.screens.review import _judged

    lost_nothing, lost_some = Fraction(0), -Fraction(741, 100)
    assert _judged(lost_nothing, zero_is_good=True) == ("0.00", art.TEXT_GREEN)
    assert _judged(lost_some, zero_is_good=True) == ("-7.41", art.TEXT_RED)
    assert _judged(Fraction(-31, 100)) == ("-0.31", art.TEXT_RED)  # bad luck
    assert _judged(Fraction(13, 10)) == ("+1.30", art.TEXT_GREEN)  # good luck
    assert _judged(Fraction(1, 1000)) == ("0.00", art.TEXT_WHITE)  # shown as zero: neither
