"""Every screen and state the game can show, in both languages and every layout: all text fits.

A :class:`~royalnine.screens.draw.DrawLog` records what the screens draw;
:func:`royalnine.screens.fitcheck.problems` fails any text that leaves the
screen, its box or button, or overlaps other text, a box or a picture. The walk
below visits the title (with and without a save, each menu, each notice), the
options, every rules page, every match state and prompt, the scoring show (roles,
Royal Nine, bust, no roles), the round and match results, the pause menu and the
remote screens. New strings need no new test: a key of ``i18n.TEXTS`` that no
state shows fails :func:`test_every_text_is_shown_by_some_state`.
"""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from petitcom_shim import Button, Machine, qr
from petitcom_shim.camera import FakeCamera, NoCamera
from royalnine import art, i18n
from royalnine.app import App
from royalnine.cli.play import shim_layout
from royalnine.core import (
    CENTRE,
    Card,
    Colour,
    Dealer,
    Match,
    MatchConfig,
    NextRound,
    Phase,
    placement_actions,
    score_grid,
    view,
)
from royalnine.core.match import RoundResult
from royalnine.game import new_game
from royalnine.remote.files import ClaimHere
from royalnine.remote.session import RemoteSession
from royalnine.screens import draw
from royalnine.screens.autoplay import AutoPlayer
from royalnine.screens.exchange import ExchangeScene
from royalnine.screens.fitcheck import problems
from royalnine.screens.layout import BUTTON_RECTS, CELL_RECTS, HAND_RECTS, Zone
from royalnine.screens.match import MatchScene
from royalnine.screens.options import OptionsScene
from royalnine.screens.pause import PauseScene
from royalnine.screens.remote import SESSION_FILE, RemoteLink, host_link
from royalnine.screens.remote_actions import ClaimScene, ForfeitScene
from royalnine.screens.remote_io import (
    CodeIntake,
    PasteReader,
    copy_code,
    intake_of,
    set_intake,
)
from royalnine.screens.remote_list import RemoteListScene
from royalnine.screens.result import MatchResultScene
from royalnine.screens.reveal import reveal_steps
from royalnine.screens.review import ReviewScene
from royalnine.screens.rules import PAGES, RulesScene
from royalnine.screens.title import TitleScene
from royalnine.storage import LAYOUTS, Notice, SaveGame, Settings, Storage

LONG_ERROR = (
    "could not read /home/player/.local/share/royalnine/saves/current.json: "
    "Expecting value: line 1 column 1 (char 0); set aside as current.json.damaged-1"
)
LONG_NOTICE = Notice(
    "notice_set_aside",
    "stats",
    "remote/ABCD1234/session.json.corrupt-20261122-101010-99",
    "Expecting value: line 1 column 1 (char 0)",
)

NOTICES = (
    Notice("notice_cannot_save", "save", reason="No space left on device"),
    Notice("notice_set_aside", "settings", "settings.json.corrupt-20261122-101010-1"),
    Notice("notice_not_moved", "stats", "stats.json"),
    Notice("notice_ignored", "controls", "controls.json"),
    Notice("notice_set_aside", "remote", "remote/7F2A11C0/session.json.corrupt-20261122-1"),
    Notice("notice_cannot_save", "kiosk", reason="Read-only file system"),
    Notice("notice_no_home", "home", "/home/player/.local/share/royalnine"),
)
"""One title state per kind of notice and per kind of file (every ``file_*`` text)."""


def make_app(home: Path, lang: str, layout: str, **settings: object) -> App:
    m = Machine(headless=True, seed=1, layout=shim_layout(layout))
    s = Settings(sound=False, lang=lang, layout=layout, **settings)  # type: ignore[arg-type]
    return new_game(m, Storage(home), s, seed=5)


def play(match: Match, dealer: Dealer, rng: random.Random, until: Phase) -> Match:
    """Advance a match with CPU placements until it reaches ``until``."""
    from royalnine.ai import make_player

    players = [make_player("easy", s, rng) for s in (0, 1)]
    for _ in range(10_000):
        if match.phase is until:
            return match
        phase = match.phase
        if phase.is_deal:
            deal = dealer.deal(match)
            assert deal is not None
            match = match.apply(deal)
        elif phase.is_place:
            for seat in (0, 1):
                if match.awaiting(seat):
                    cells = players[seat].choose(view(match, seat))
                    match = match.apply_all(placement_actions(seat, cells))
        elif phase is Phase.ROUND_OVER:
            match = match.apply(NextRound())
        else:
            raise AssertionError(phase)
    raise AssertionError("did not reach " + until.value)


NO_ROLES = tuple(Card.parse(c) for c in ["B9", "R5", "B1", "R2", "B3", "B6", "B2", "R6", "R8"])


def fake_result(royal: bool) -> RoundResult:
    """A round where seat 0 has a Royal Nine and seat 1 busts, or seat 0 has no roles."""
    red = [Card(Colour.RED, r) for r in range(1, 10)]
    blue = [Card(Colour.BLUE, r) for r in range(1, 10)]
    if royal:
        g0 = tuple(red)
        g1 = (*blue[:4], red[8], *blue[4:8])
    else:
        g0 = NO_ROLES
        g1 = (red[0], blue[4], red[7], blue[1], red[3], blue[8], red[5], blue[2], red[8])
    return RoundResult(1, (g0, g1), (score_grid(g0), score_grid(g1)))


def press(app: App, button: Button) -> None:
    app.m.input.press(button)
    app.step(1)
    app.m.input.release(button)
    app.step(1)


def tap(app: App, x: int, y: int) -> None:
    app.m.input.touch(x, y)
    app.step(2)
    app.m.input.untouch()
    app.step(2)


def steps_until(app: App, ok: Callable[[], bool], limit: int = 600) -> None:
    for _ in range(limit):
        if ok():
            return
        app.step(1)
    raise AssertionError("the state was not reached")


WAIT = 60.0  # seconds: a hang guard for the QR reader thread, never a timing assertion


class BusyIntake(CodeIntake):
    """An intake that is always reading an image (to show "READING...")."""

    @property
    def busy(self) -> bool:
        return True


def no_camera() -> FakeCamera:
    raise NoCamera("no camera found: /dev/video0 does not exist")


def settle(app: App, frames: int = 2) -> None:
    """Let the app's QR reader finish what it was given, then step a few frames."""
    app.step(1)
    assert intake_of(app).reader.wait(WAIT)
    app.step(frames)


def title_states(app: App) -> Iterator[str]:
    """The title with its menus, and the first frames of a match (what depends on the layout)."""
    app.switch(TitleScene())
    app.step(2)
    yield "title"
    title = app.scene
    assert isinstance(title, TitleScene)
    for page in ("level", "remote", "quit", "main"):
        title.show(app, page)
        yield f"title {page}"
    scene = MatchScene(Match.new(MatchConfig()), "cpu", {"level": "master"})
    app.switch(scene)
    steps_until(app, lambda: scene.state == "place")
    yield "place"
    yield from review_layout_states(app)


def review_layout_states(app: App) -> Iterator[str]:
    """HISTORY with a match and the review's steps (what depends on the layout)."""
    from royalnine import history
    from royalnine.screens.history import HistoryScene

    review = review_of_hard_vs_easy()
    history.add(app.storage, review.match, "cpu", {"level": "master"}, now=1.8e9)
    app.switch(HistoryScene(back=TitleScene()))
    yield "history: one match"
    app.switch(review)
    for i in (1, 6, 8, review.total - 1):  # a placement, the common card, a line, the summary
        review.go(app, i)
        yield f"review step {i}"


KEPT = (
    ("cpu", {"level": "master"}, 0, (999, 0)),
    ("cpu", {"level": "easy"}, 0, (3, 999)),
    ("local", {}, None, (12, 30)),
    ("local", {}, None, (30, 12)),
    ("remote", {}, 1, (7, 7)),
    ("remote", {}, 0, (8, 7)),
)
"""Kept matches of every mode, result and side (the list shows the points in the metadata)."""


def review_of_hard_vs_easy() -> ReviewScene:
    """The review of a one-round match, hard at seat 0 against easy, analysed."""
    from royalnine.ai import make_player
    from royalnine.ai.selfplay import play_match

    players = (make_player("hard", 0, random.Random(0)), make_player("easy", 1, random.Random(1)))
    match = play_match(players, 8, MatchConfig(rounds=1))
    scene = ReviewScene(match, {"mode": "cpu", "seat": 0})
    scene.analysis.run_here()
    return scene


def history_states(app: App, home: Path) -> Iterator[str]:
    """HISTORY (empty, pages, a damaged file set aside) and every kind of review step."""
    from royalnine import history
    from royalnine.review import Analysis
    from royalnine.screens.history import HistoryScene

    shutil.rmtree(home / "history", ignore_errors=True)
    app.switch(HistoryScene(back=TitleScene()))
    yield "history: empty"
    rng = random.Random(12)
    match = play(Match.new(MatchConfig(rounds=1)), Dealer(random.Random(7)), rng, Phase.ROUND_OVER)
    over = match.apply(NextRound())
    for k, (mode, meta, seat, points) in enumerate(KEPT):
        path = history.add(app.storage, over, mode, meta, seat=seat, now=1.8e9 + 60 * k)
        doc = json.loads(path.read_text())
        doc["meta"]["points0"], doc["meta"]["points1"] = points
        doc["config"]["rounds"] = 99 if k == 0 else 1
        doc["config"]["tens"] = k == 0
        path.write_text(json.dumps(doc))
    listing = HistoryScene(back=TitleScene())
    app.switch(listing)
    yield "history: page 1"
    press(app, Button.DOWN)
    yield "history: page 1, the pad cursor"
    listing.turn(app, 1)
    yield "history: page 2"
    (home / "history" / "29991231-235959.json").write_text("{not json")  # the newest: page 1
    app.switch(HistoryScene(back=TitleScene()))
    yield "history: a damaged file set aside"
    shutil.rmtree(home / "history", ignore_errors=True)
    # --- the review: every kind of step, before and after the analysis ---
    for mode, seat in (("cpu", 0), ("local", None), ("remote", 1)):
        review = ReviewScene(over, {"mode": mode, "seat": seat})
        review.analysis.start = lambda: None  # type: ignore[method-assign]
        app.switch(review)
        yield f"review ({mode}): the first deal"
        review.go(app, 1)
        yield f"review ({mode}): analysing"
        review.analysis.run_here()
        for i, step in enumerate(review.steps):
            review.go(app, i)
            yield f"review ({mode}): step {i} {step.kind}"
    best = review_of_hard_vs_easy()
    app.switch(best)
    yield "review: hard against easy"
    for i, step in enumerate(best.steps[1:], 1):
        best.go(app, i)
        yield f"review: hard against easy, step {i} {step.kind} (best moves, no mistake)"
    failed = ReviewScene(over, {"mode": "cpu"}, analysis=Analysis(over))
    failed.analysis.start = lambda: None  # type: ignore[method-assign]
    failed.analysis.failed = "test"
    app.switch(failed)
    failed.go(app, 1)
    yield "review: the analysis failed"
    failed.go(app, len(failed.steps) - 1)
    yield "review: the summary with no analysis"


def walk(app: App, home: Path) -> Iterator[str]:
    """Show every screen and state; yields a name after each is drawn."""
    t = app.t
    yield from title_states(app)
    for layout in LAYOUTS:  # every value of every option
        app.settings.layout = layout
        app.switch(OptionsScene())
        yield f"options ({layout})"
    options = app.scene
    assert isinstance(options, OptionsScene) and options.menu is not None
    scale = next(item for item in options.menu.items if item.value == "scale")
    for k in range(8):  # each value of the SCALE row, whatever they are, and round again
        tap(app, *scale.rect.centre)
        yield f"options (scale, {k + 1} taps)"
    app.m.sound.unavailable = "no audio device (test)"
    app.switch(OptionsScene())
    yield "options (no audio device)"
    app.m.sound.unavailable = None
    for k in range(len(PAGES)):
        app.switch(RulesScene(back=TitleScene(), page=k))
        yield f"rules page {k + 1}"
    tens = MatchConfig(rounds=99, tens=True)  # the widest numbers and the other TENS line
    for k in (0, 3):
        app.switch(RulesScene(back=TitleScene(), page=k, config=tens))
        yield f"rules page {k + 1} with 99 rounds and tens"
    # --- notices on the title ---
    app.notices.append(LONG_NOTICE)
    app.switch(TitleScene())
    yield "title with a damaged-file notice"
    for notice in NOTICES:
        app.notices.append(notice)
        app.switch(TitleScene())
        yield f"title with a notice: {notice.key} ({notice.what})"
    (home / "saves").mkdir(parents=True, exist_ok=True)
    (home / "saves" / "current.json").write_text("{not json")
    app.switch(TitleScene())
    yield "title with a damaged save"
    # --- a match vs CPU (the widest level name), then the title with its save ---
    rng = random.Random(3)
    cfg = MatchConfig(rounds=99)
    scene = MatchScene(Match.new(cfg), "cpu", {"level": "master"})
    app.switch(scene)
    app.step(1)
    yield "deal"
    steps_until(app, lambda: scene.state == "place")
    yield "place"
    tap(app, *HAND_RECTS[0].centre)
    yield "card selected"
    for key, args in (
        ("bad_centre", {}),
        ("bad_locked", {}),
        ("bad_full", {}),
        ("bad_off", {}),
        ("bad_hand", {}),
        ("bad_undo", {}),
        ("save_failed", {}),
        ("waiting", {}),
        ("cpu_thinking", {}),
        ("hint_done", {"pts": "99.9"}),
    ):
        scene.say(key, **args)
        scene.render(app)
        yield f"message {key}"
    scene.message = None
    tap(app, *HAND_RECTS[0].centre)  # put the card back
    press(app, Button.RIGHT)
    yield "keys: the cursor on the hand"
    press(app, Button.A)
    yield "keys: a card taken"
    for _ in range(3):
        press(app, Button.UP)
    yield "keys: the cursor on an empty cell"
    press(app, Button.B)
    v = scene.view()
    empty = [c for c in v.empty_cells if c != CENTRE]
    scene.apply(app, placement_actions(0, dict(zip(v.hand, empty, strict=False)))[:-1])
    scene.ctrl[0].selected = None
    scene.ctrl[0].cursor_visible = False
    scene.dirty = True
    app.step(20)
    yield "all placed"
    scene.ctrl[0].cursor_visible = True
    scene.dirty = True
    app.step(1)
    yield "all placed (keys)"
    app.storage.save_game(SaveGame(scene.match, "cpu", {"level": "master"}))
    app.switch(PauseScene(scene))
    yield "pause"
    app.switch(scene)
    scene.ctrl[0].cursor_visible = False
    tap(app, *BUTTON_RECTS[Zone.CONFIRM].centre)
    steps_until(app, lambda: scene.state == "place" and scene.match.phase.half == 2)
    yield "second half"
    tap(app, *HAND_RECTS[2].centre)
    tap(app, *CELL_RECTS[scene.view().empty_cells[0]].centre)
    app.step(20)
    yield "second half, a card placed (the others keep their slots)"
    # --- the title with a save: continue?, then a new match asks first ---
    app.switch(TitleScene())
    yield "title with a save"
    title = app.scene
    assert isinstance(title, TitleScene) and title.menu is not None
    title.show(app, "level")
    yield "title level with a save"
    assert title.new_match(app, "local", "normal") is None
    yield "title: replace the saved match?"
    # --- reveal and round over, from a real round; late rounds fill the table ---
    dealer = Dealer(random.Random(4))
    match = play(Match.new(cfg), dealer, rng, Phase.ROUND_OVER)
    for _ in range(11):
        match = play(match.apply(NextRound()), dealer, rng, Phase.ROUND_OVER)
    scene = MatchScene(match, "cpu", {"level": "master"})
    app.switch(scene)
    app.step(1)
    yield "reveal: common card"
    for result in (match.results[-1], fake_result(True), fake_result(False)):
        scene.steps = reveal_steps(result, (0, 1), scene.names(app), app.lang)
        for i in range(len(scene.steps)):
            scene.step_i = i
            scene.render(app, force=True)
            yield f"reveal step {i} {scene.steps[i].kind}"
    scene.state = "idle"
    for _ in range(5):
        scene.frame(app, app.read_input())
    assert scene.state == "round_over", scene.state
    scene.render(app, force=True)
    yield "round over"
    # --- the last round: RESULT; then the match results (win, lose, draw) ---
    last = play(Match.new(MatchConfig(rounds=1)), Dealer(random.Random(6)), rng, Phase.ROUND_OVER)
    scene = MatchScene(last, "local", {})
    app.switch(scene)
    scene.steps = reveal_steps(last.results[-1], (0, 1), scene.names(app), app.lang)
    scene.state = "round_over"
    scene.enter(app)
    yield "last round over"
    over = last.apply(NextRound())
    names = (t("player1"), t("player2"))
    app.switch(MatchResultScene(over, "local", "normal", names))
    yield "match result (2 players)"
    for seat in (0, 1):
        app.switch(MatchResultScene(over, "cpu", "master", (t("you"), t("cpu"))))
        yield f"match result (vs CPU, seat {seat} wins)"
        over = play(
            Match.new(MatchConfig(rounds=1)), Dealer(random.Random(9)), rng, Phase.ROUND_OVER
        ).apply(NextRound())
    drawn = play(
        Match.new(MatchConfig(rounds=1)),
        Dealer(random.Random(1)),
        random.Random(1),
        Phase.ROUND_OVER,
    ).apply(NextRound())
    app.switch(MatchResultScene(drawn, "cpu", "master", (t("you"), t("cpu"))))
    yield "match result (a draw)"
    yield from history_states(app, home)
    app.demo = True
    scene = MatchScene(Match.new(cfg), "cpu", {"level": "master"})
    app.switch(scene)
    steps_until(app, lambda: scene.state == "place")
    yield "the demo: CPU against CPU"
    app.demo = False
    # --- two players on one machine: the handover ---
    dealt = play(Match.new(cfg), Dealer(random.Random(2)), rng, Phase.FIRST_PLACE)
    scene = MatchScene(dealt, "local", {})
    app.switch(scene)
    assert scene.state == "handover"
    yield "handover"
    # --- remote: the code exchange (host, guest, refusal, notice, camera), then a match ---
    link = host_link(app)
    host_exchange = ExchangeScene(link)
    app.switch(host_exchange)
    yield "exchange: host, code 1"
    host_exchange.say(app, copy_code(app, link.session.transcript[0]))
    yield "exchange: host, copied"
    host_exchange.say(app, LONG_ERROR, art.TEXT_RED)
    yield "exchange: host, a long refusal"
    lobby = ExchangeScene(None)
    app.switch(lobby)
    yield "exchange: guest waiting for code 1"
    reader = intake_of(app).reader  # pastes read before the frame goes on: no "reading..."
    set_intake(app, CodeIntake(app.storage, reader=reader, paster=PasteReader(settle_s=60.0)))
    app.m.clipboard.put_text("")
    lobby.choose(app, "paste")
    yield "exchange: guest, an empty clipboard"
    app.m.clipboard.put_text("HELLO WORLD")
    lobby.choose(app, "paste")
    yield "exchange: guest, a pasted text that is no code"
    intake = intake_of(app)
    set_intake(app, BusyIntake(app.storage, reader=intake.reader))
    lobby.redraw(app)
    yield "exchange: reading..."
    blank = qr.Image.new("L", (320, 240), 180)
    set_intake(
        app, CodeIntake(app.storage, reader=intake.reader, camera=lambda: FakeCamera([blank]))
    )
    lobby.choose(app, "scan")
    app.step(2)
    yield "exchange: scanning"
    lobby.choose(app, "scan")
    app.step(1)
    yield "exchange: scanning stopped"
    set_intake(app, CodeIntake(app.storage, reader=intake.reader, camera=no_camera))
    lobby.choose(app, "scan")
    app.step(1)
    yield "exchange: no camera"
    lobby.say(app, app.t("remote_opened"))
    yield "exchange: opening the folder"
    from royalnine.screens.exchange import no_opener

    lobby.say(app, no_opener(app, app.storage.home / "remote" / "FFFFFFFF"), art.TEXT_RED)
    yield "exchange: no file manager (where the folder is)"
    set_intake(app, intake)
    guest_home = home / "guest"
    recording = draw.log, i18n.used
    draw.log, i18n.used = None, None  # the other device's screens are not this one's
    guest = new_game(Machine(headless=True, seed=2), Storage(guest_home), Settings(sound=False))
    first = sorted((home / "remote").glob("*/move-01.png"))[0]
    guest.switch(ExchangeScene(None))
    guest.m.input.drop_file(first)
    settle(guest)
    draw.log, i18n.used = recording
    second = sorted((guest_home / "remote").glob("*/move-02.png"))[0]
    app.switch(ExchangeScene(link))
    app.m.input.drop_file(second)
    settle(app)
    scene = app.scene
    assert isinstance(scene, MatchScene) and scene.remote is not None
    # the codes that open the match (how many is the protocol's business): the guest
    # plays by itself, and each new code is carried across until this device places
    delivered = {first, second}
    opening: set[int] = set()
    rival = AutoPlayer(guest, mode="remote", seed=1)
    for _ in range(3000):
        if scene.state == "place":
            break
        draw.log, i18n.used = None, None
        rival.step()
        draw.log, i18n.used = recording
        app.step(1)
        sent = scene.remote.showing()
        if scene.state in ("wait", "remote_wait") and sent and sent[0] not in opening:
            opening.add(sent[0])
            yield f"remote: the opening, code {sent[0]} sent"
        for source, target in ((home, guest), (guest_home, app)):
            for code in sorted(set((source / "remote").glob("*/move-*.png")) - delivered):
                delivered.add(code)
                target.m.input.drop_file(code)
                draw.log, i18n.used = recording if target is app else (None, None)
                settle(target, 0)
                draw.log, i18n.used = recording
    steps_until(app, lambda: scene.state == "place")
    app.switch(ExchangeScene(scene.remote, back=scene))
    yield "exchange: during a match with no code of its own to show (WAITING FOR CODE n)"
    app.switch(RemoteListScene())
    yield "remote list: one match, this device's move"
    app.switch(scene)
    steps_until(app, lambda: scene.state == "place")
    placing = scene.view()
    spots = [c for c in placing.empty_cells if c != CENTRE]
    actions = placement_actions(scene.bottom_seat, dict(zip(placing.hand, spots, strict=False)))
    scene.apply(app, actions)
    scene.remote.local_confirmed(scene.match)
    scene.state = "idle"
    app.step(3)
    assert scene.state in ("wait", "remote_wait"), scene.state
    yield "remote: waiting for the reply (CODES)"
    app.m.input.edit_key("copy")
    app.step(2)
    yield "remote: the code copied"
    set_intake(app, BusyIntake(app.storage, reader=intake.reader))
    app.step(2)
    yield "remote: reading..."
    set_intake(app, intake)
    app.step(2)
    scene.remote.error = LONG_ERROR
    scene.dirty = True
    app.step(1)
    yield "remote: a bad code"
    codes_scene = ExchangeScene(scene.remote, back=scene)
    app.switch(codes_scene)
    yield "exchange: during a match (CODES)"
    codes_scene.choose(app, "back")
    app.switch(scene)
    scene.remote.error = None
    app.settings.claim_after_s = 0
    assert scene.remote_actions is not None
    scene.remote_actions.update(app, now=True)
    scene.dirty = True
    app.step(2)
    assert "claim" in scene.remote_actions.values
    yield "remote: CLAIM WIN"
    for remedy in ("show",):
        scene.remote.error = "the camera: code 4 is damaged: " + LONG_ERROR
        scene.remote.remedy = remedy
        scene.remote_actions.update(app, now=True)
        scene.dirty = True
        app.step(2)
        yield f"remote: a damaged code ({remedy})"
    scene.remote.error = scene.remote.remedy = None
    app.settings.claim_after_s = Settings().claim_after_s
    for won in (True, False):
        app.switch(ForfeitScene(scene.remote, won=won))
        yield f"forfeit ({'won' if won else 'lost'})"
    scene.remote.pending_claim = ClaimHere("count", "", scene.remote.session)
    app.switch(ClaimScene(scene.remote, back=scene))
    yield "the other player's claim holds here: count it?"
    scene.remote.pending_claim = None
    app.switch(MatchResultScene(over, "remote", "normal", (t("you"), t("rival")), remote=link))
    yield "match result (remote, the last code to send)"
    # --- the list of remote matches: one, a damaged one set aside, several pages ---
    draw.log, i18n.used = None, None
    other = host_link(guest)  # a match where this device is the guest: the rival hosts
    draw.log, i18n.used = recording
    RemoteLink(RemoteSession.join(other.session.transcript[0]), app.storage).pump()
    app.switch(RemoteListScene())
    yield "remote list: two matches"
    for _ in range(5):
        host_link(app)
    remote_list = RemoteListScene()
    app.switch(remote_list)
    yield "remote list: page 1 (MORE)"
    remote_list.page = 1
    remote_list.redraw(app)
    yield "remote list: page 2"
    damaged = sorted((home / "remote").glob(f"*/{SESSION_FILE}"))[-1]
    damaged.write_text("{not json")
    app.switch(RemoteListScene())
    yield "remote list: a damaged match set aside"
    title = TitleScene()
    app.switch(title)
    title.show(app, "remote")
    yield "title remote (a remote match to continue)"
    for session in (home / "remote").glob(f"*/{SESSION_FILE}"):
        session.unlink()
    app.switch(RemoteListScene())
    yield "remote list: empty"
    shutil.rmtree(guest_home, ignore_errors=True)


@pytest.fixture
def recording() -> Iterator[draw.DrawLog]:
    log = draw.DrawLog()
    draw.log, i18n.used = log, []
    try:
        yield log
    finally:
        draw.log, i18n.used = None, None


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_state_fits(tmp_path: Path, recording: draw.DrawLog, lang: str, layout: str) -> None:
    app = make_app(tmp_path, lang, layout)
    found: list[str] = []
    for state in walk(app, tmp_path):
        found += problems(app.m, recording, f"[{lang} {layout}] {state}:")
    assert not found, "\n".join(dict.fromkeys(found))


def test_every_text_is_shown_by_some_state(tmp_path: Path, recording: draw.DrawLog) -> None:
    """Each key of i18n.TEXTS, in each language, is drawn on screen by some state of the walk
    (the whole walk in one layout, what depends on the layout in the others).

    A text folded over several lines is drawn as consecutive pieces, broken at spaces (or
    after a path separator): it counts as shown when its pieces, joined in the order they
    were drawn, give the text back with the whitespace left out. A text cut short (folded
    text ending in "..") or drawn in part still fails."""
    seen: list[str] = []
    for lang in i18n.LANGS:
        for layout in LAYOUTS:
            home = tmp_path / lang / layout
            app = make_app(home, lang, layout)
            states = walk(app, home) if layout == "vertical" else title_states(app)
            for _ in states:
                seen += [t.text for t in recording.texts]
    assert i18n.used is not None
    drawn = "".join("".join(text.split()) for text in seen)  # folded pieces join up again
    missing = sorted(
        {f"{key} [{lang}]" for key, lang, text in i18n.used if "".join(text.split()) not in drawn}
        | {f"{key} (never used)" for key in i18n.TEXTS if key not in {k for k, _, _ in i18n.used}}
    )
    assert not missing, "not shown by any state: " + ", ".join(missing)
