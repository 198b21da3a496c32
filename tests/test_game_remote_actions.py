"""The remote match screen when things go wrong: CLAIM after the wait, and SHOW AGAIN /
ROLL BACK after a damaged code (screens driven headless, codes built by the protocol)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from petitcom_shim import Machine
from petitcom_shim.qr import encode_png
from royalnine.app import App
from royalnine.core import MatchConfig
from royalnine.game import new_game
from royalnine.remote.files import parse_transcript
from royalnine.remote.session import RemoteSession, check_transcript
from royalnine.screens.match import MatchScene
from royalnine.screens.remote import CURRENT_FILE, RemoteLink, remote_match_scene
from royalnine.screens.remote_actions import (
    BUTTON_H,
    BUTTON_W,
    BUTTON_X,
    BUTTON_YS,
    ClaimScene,
    ForfeitScene,
)
from royalnine.screens.remote_io import CodeIntake, PasteReader, intake_of, set_intake
from royalnine.storage import Settings, Storage


def entropy(seed: int) -> Callable[[int], bytes]:
    rng = random.Random(seed)
    return lambda n: bytes(rng.randrange(256) for _ in range(n))


def place(session: RemoteSession, cells: list[int]) -> None:
    session.place(dict(zip(session.view().hand, cells, strict=True)))


def app_with(home: Path, session: RemoteSession, claim_after_s: int = 86_400) -> App:
    """A game on ``home`` showing this remote match (as CONTINUE REMOTE would)."""
    storage = Storage(home)
    app = new_game(
        Machine(headless=True, seed=1),
        storage,
        Settings(sound=False, claim_after_s=claim_after_s),
        seed=1,
    )
    # pastes are read before the frame goes on (tests wait for the event, not for time)
    set_intake(app, CodeIntake(storage, paster=PasteReader(settle_s=60.0)))
    link = RemoteLink(session, storage)
    link.save()
    app.switch(remote_match_scene(link))
    app.step(40)
    return app


def tap_button(app: App, index: int) -> None:
    x, y = BUTTON_X + BUTTON_W // 2, BUTTON_YS[index] + BUTTON_H // 2
    app.m.input.touch(x, y)
    app.step(2)
    app.m.input.untouch()
    app.step(2)


def tap(app: App, scene: ClaimScene, value: str) -> None:
    """Tap a button of the claim question."""
    assert scene.menu is not None
    (rect,) = [item.rect for item in scene.menu.items if item.value == value]
    app.m.input.touch(rect.x + rect.w // 2, rect.y + rect.h // 2)
    app.step(2)
    app.m.input.untouch()
    app.step(2)


def settle(app: App, frames: int) -> None:
    """Let the app's QR reader finish what it was given, then step a few frames."""
    app.step(1)
    assert intake_of(app).reader.wait(30.0)
    app.step(frames)


def drop(app: App, code: bytes, path: Path) -> None:
    """Drop a code's image on the window and let the (off-loop) reader finish with it."""
    encode_png(code, path)
    app.m.input.drop_file(path)
    settle(app, 3)


def test_claim_appears_after_the_wait_and_wins_by_forfeit(tmp_path: Path) -> None:
    host = RemoteSession.host(MatchConfig(2), entropy(1))
    guest = RemoteSession.join(host.compose(), entropy(2))
    host.receive(guest.compose())
    host.compose()  # the host waits for the guest, who never answers
    app = app_with(tmp_path, RemoteSession.from_json(host.to_json()), claim_after_s=0)
    scene = app.scene
    assert isinstance(scene, MatchScene) and scene.remote_actions is not None
    assert scene.remote_actions.values == ("claim",)
    app.m.screenshot(tmp_path / "claim.png", screen=1, scale=2)
    tap_button(app, 0)
    assert isinstance(app.scene, ForfeitScene)
    app.m.screenshot(tmp_path / "forfeit.png", screen=0, scale=2)
    stats = Storage(tmp_path).stats()["remote"]
    assert stats["won"] == 1 and stats["forfeit_won"] == 1
    assert not (tmp_path / CURRENT_FILE).exists()
    (transcript,) = (tmp_path / "remote").glob("*/transcript.txt")
    codes, notes = parse_transcript(transcript.read_text())
    assert check_transcript(codes).due_seat == 1 and any("forfeits" in n for n in notes)


def test_no_claim_before_the_wait(tmp_path: Path) -> None:
    host = RemoteSession.host(MatchConfig(2), entropy(1))
    guest = RemoteSession.join(host.compose(), entropy(2))
    host.receive(guest.compose())
    host.compose()
    app = app_with(tmp_path, host)
    scene = app.scene
    assert isinstance(scene, MatchScene) and scene.remote_actions is not None
    assert scene.remote_actions.values == ()


@pytest.mark.slow
def test_a_damaged_code_offers_show_again_and_is_never_replaced(tmp_path: Path) -> None:
    """The host reads the guest's code 6 with its seal changed in transit and answers; the
    guest's screen says a code was damaged and offers SHOW AGAIN; the host's screen, given
    the true code 6, refuses it and offers nothing (issue 24: a move read is never replaced,
    or a cheat could re-seal after seeing the answer)."""
    host = RemoteSession.host(MatchConfig(1), entropy(1))
    guest = RemoteSession.join(host.compose(), entropy(2))
    host.receive(guest.compose())
    guest.receive(host.compose())
    place(guest, [0, 1, 2, 3])
    host.receive(guest.compose())  # the guest's sealed first half
    place(host, [0, 1, 2, 3])
    guest.receive(host.compose())  # the host's first half in the clear
    place(guest, [5, 6, 7, 8])
    code6 = guest.compose()  # opens the first half, seals the second
    damaged = bytearray(code6)
    damaged[-20] ^= 0x11  # inside the second seal
    host.receive(bytes(damaged))
    place(host, [5, 6, 7, 8])
    code7 = host.compose()

    guest_app = app_with(tmp_path / "guest", guest)
    drop(guest_app, code7, tmp_path / "code7.png")
    scene = guest_app.scene
    assert isinstance(scene, MatchScene) and scene.remote is not None
    assert "damaged or tampered" in (scene.remote.error or "")
    guest_app.step(2)
    assert scene.remote_actions is not None and scene.remote_actions.values == ("show",)
    guest_app.m.screenshot(tmp_path / "damaged.png", screen=1, scale=2)
    tap_button(guest_app, 0)
    assert scene.remote.error is None

    host_app = app_with(tmp_path / "host", host)
    drop(host_app, code6, tmp_path / "code6.png")
    hscene = host_app.scene
    assert isinstance(hscene, MatchScene) and hscene.remote is not None
    assert hscene.remote.remedy is None and "never replaced" in (hscene.remote.error or "")
    host_app.step(40)
    assert hscene.remote_actions is not None and hscene.remote_actions.values == ()
    assert len(hscene.remote.session.transcript) == 7


def test_a_pasted_claim_ends_the_match_here_as_a_forfeit_loss(tmp_path: Path) -> None:
    """Issue 16 item 9: the device that stopped answering comes back; the claimer's
    transcript, pasted, tells it that it lost by forfeit, and its statistics say so."""
    from royalnine.remote.files import transcript_text

    host = RemoteSession.host(MatchConfig(2), entropy(1))
    guest = RemoteSession.join(host.compose(now=0.0), entropy(2))
    host.receive(guest.compose(now=0.0))
    guest.receive(host.compose(now=0.0), now=0.0)  # the guest owes move 4, and goes away
    host.claim(now=2 * 86_400.0, after_s=86_400)
    app = app_with(tmp_path, guest)
    app.m.clipboard.put_text("not a claim")
    app.m.input.edit_key("paste")
    app.step(2)
    assert isinstance(app.scene, MatchScene)  # a refusal, nothing else
    match = app.scene
    app.m.clipboard.put_text(transcript_text(host))
    app.m.input.edit_key("paste")
    app.step(2)
    # issue 24: told what it means first; NOT NOW changes nothing
    assert isinstance(app.scene, ClaimScene)
    tap(app, app.scene, "later")
    assert app.scene is match and not Storage(tmp_path).stats().get("remote")
    app.m.input.edit_key("paste")
    app.step(2)
    assert isinstance(app.scene, ClaimScene)
    tap(app, app.scene, "concede")
    assert isinstance(app.scene, ForfeitScene) and not app.scene.won
    stats = Storage(tmp_path).stats()["remote"]
    assert stats["lost"] == 1 and stats["forfeit_lost"] == 1
    assert not list((tmp_path / "remote").glob("*/session.json"))


def test_a_forged_claim_pasted_in_the_codes_screen_is_read_as_a_move(tmp_path: Path) -> None:
    """Issue 24 items 1 and 2 together: a cheat's claim holding its move 3, never sent,
    pasted in the CODES screen (where a device waiting for a code pastes it) is read by
    the paste reader's thread, then judged here: move 3 is read, the game goes back to
    the match, asks nothing and records no forfeit."""
    from test_game_remote import choose
    from test_game_remote import tap as tap_at

    from royalnine.remote.files import transcript_text
    from royalnine.screens.exchange import ExchangeScene
    from royalnine.screens.match_remote import CODES_RECT

    host = RemoteSession.host(MatchConfig(2), entropy(1))
    guest = RemoteSession.join(host.compose(now=0.0), entropy(2))
    host.receive(guest.compose(now=0.0))
    host.compose(now=0.0)  # move 3, never sent
    host.claimed = True  # what a cheat writes: its claim, whatever its wait
    app = app_with(tmp_path, guest)
    match = app.scene
    assert isinstance(match, MatchScene) and match.remote is not None
    assert isinstance(intake_of(app).paster, PasteReader)
    tap_at(app, *CODES_RECT.centre)  # the guest waits for move 3
    assert isinstance(app.scene, ExchangeScene)
    app.m.clipboard.put_text(transcript_text(host))
    choose(app, "paste")
    assert app.scene is match and match.remote.pending_claim is None
    assert match.remote.session.transcript[:3] == host.transcript
    assert "never had" in (match.remote.error or "")
    assert not Storage(tmp_path).stats().get("remote")


def test_copying_the_code_again_restarts_the_claim_wait(tmp_path: Path) -> None:
    """Issue 16 item 3: the wait counts from when the opponent could first see the code;
    Ctrl+C copies it to send (perhaps for the first time), so the wait starts again."""
    host = RemoteSession.host(MatchConfig(2), entropy(1))
    guest = RemoteSession.join(host.compose(now=0.0), entropy(2))
    host.receive(guest.compose(now=0.0))
    host.compose(now=0.0)  # made long ago, held back
    app = app_with(tmp_path, host, claim_after_s=3600)
    scene = app.scene
    assert isinstance(scene, MatchScene) and scene.remote_actions is not None
    assert scene.remote_actions.values == ("claim",)
    app.m.input.edit_key("copy")
    app.step(40)
    assert scene.remote_actions.values == ()
    saved = RemoteSession.from_json(next((tmp_path / "remote").glob("*/session.json")).read_text())
    assert saved.waiting_since is not None and saved.waiting_since > 0


def test_the_claimer_copies_its_transcript_and_the_other_device_learns_from_it(
    tmp_path: Path,
) -> None:
    """Issue 16 item 9 end to end in the game: CLAIM WIN, COPY on the result screen, and
    the other device, pasting it, shows LOST BY FORFEIT."""
    host = RemoteSession.host(MatchConfig(2), entropy(1))
    guest = RemoteSession.join(host.compose(now=0.0), entropy(2))
    host.receive(guest.compose(now=0.0))
    guest.receive(host.compose(now=0.0), now=0.0)  # the guest owes move 4 and goes away
    claimer = app_with(tmp_path / "host", RemoteSession.from_json(host.to_json()), claim_after_s=0)
    tap_button(claimer, 0)
    assert isinstance(claimer.scene, ForfeitScene) and claimer.scene.won
    claimer.m.input.edit_key("copy")
    claimer.step(2)
    text = claimer.m.clipboard.get_text()
    assert "claimed by the host" in text
    other = app_with(tmp_path / "guest", guest)
    other.m.clipboard.put_text(text)
    other.m.input.edit_key("paste")
    other.step(2)
    assert isinstance(other.scene, ClaimScene)
    tap(other, other.scene, "concede")
    assert isinstance(other.scene, ForfeitScene) and not other.scene.won
    assert Storage(tmp_path / "guest").stats()["remote"]["forfeit_lost"] == 1


def test_a_forged_claim_pasted_in_the_game_is_read_as_a_move(tmp_path: Path) -> None:
    """Issue 24: the host makes its move 3 and, instead of sending it, sends a claimer's
    transcript ending with it. The guest's game reads move 3 from it, stays in the
    match, asks nothing and records no forfeit."""
    from royalnine.remote.files import transcript_text

    host = RemoteSession.host(MatchConfig(2), entropy(1))
    guest = RemoteSession.join(host.compose(now=0.0), entropy(2))
    host.receive(guest.compose(now=0.0))
    host.compose(now=0.0)  # move 3, never sent
    host.claimed = True  # what a cheat writes: its claim, whatever its wait
    app = app_with(tmp_path, guest)
    scene = app.scene
    app.m.clipboard.put_text(transcript_text(host))
    app.m.input.edit_key("paste")
    app.step(2)
    assert app.scene is scene and isinstance(scene, MatchScene) and scene.remote is not None
    assert scene.remote.session.transcript[:3] == host.transcript
    assert "never had" in (scene.remote.error or "")
    assert not Storage(tmp_path).stats().get("remote")
