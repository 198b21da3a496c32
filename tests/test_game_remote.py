"""A remote match by QR codes through the screens: two devices, code images dropped on windows."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from petitcom_shim import Machine
from petitcom_shim.qr import decode_image
from royalnine.app import App
from royalnine.game import new_game
from royalnine.remote.session import verify_transcript
from royalnine.screens.autoplay import AutoPlayer
from royalnine.screens.exchange import ExchangeScene
from royalnine.screens.match import MatchScene
from royalnine.screens.remote import CURRENT_FILE, SESSION_FILE
from royalnine.screens.remote_io import CodeIntake, PasteReader, intake_of, set_intake
from royalnine.screens.remote_list import RemoteListScene
from royalnine.screens.result import MatchResultScene
from royalnine.screens.title import TitleScene
from royalnine.storage import Settings, Storage

WAIT = 60.0  # seconds: a hang guard for the reader thread, never a timing assertion


def make_app(home: Path, seed: int) -> App:
    """A game whose pastes are read before the frame goes on (tests wait for the event;
    the game itself gives a paste a few milliseconds, then reads on in its thread)."""
    m = Machine(headless=True, seed=seed)
    app = new_game(m, Storage(home), Settings(sound=False, rounds=2), seed=seed)
    set_intake(app, CodeIntake(app.storage, paster=PasteReader(settle_s=WAIT)))
    return app


def settle(app: App, frames: int = 2) -> None:
    """Let the app's QR reader finish what it was given, then step a few frames."""
    app.step(1)
    assert intake_of(app).reader.wait(WAIT)
    app.step(frames)


def tap(app: App, x: int, y: int) -> None:
    app.m.input.touch(x, y)
    app.step(2)
    app.m.input.untouch()
    app.step(2)


def choose(app: App, value: str) -> None:
    menu = getattr(app.scene, "menu", None)
    assert menu is not None, app.scene
    item = next(i for i in menu.items if i.value == value)
    tap(app, *item.rect.centre)


def codes(home: Path) -> list[Path]:
    return sorted((home / "remote").glob("*/move-*.png"))


def start(tmp_path: Path) -> tuple[App, App]:
    host = make_app(tmp_path / "host", 1)
    guest = make_app(tmp_path / "guest", 2)
    choose(host, "remote")
    assert isinstance(host.scene, RemoteListScene)
    choose(host, "host")
    assert isinstance(host.scene, ExchangeScene)
    (first,) = codes(tmp_path / "host")
    assert first.name == "move-01.png"
    choose(guest, "remote")
    choose(guest, "join")
    assert isinstance(guest.scene, ExchangeScene)
    guest.m.input.drop_file(first)
    settle(guest)
    assert isinstance(guest.scene, MatchScene)
    assert [p.name for p in codes(tmp_path / "guest")] == ["move-02.png"]
    return host, guest


def exchange(
    tmp_path: Path, host: App, guest: App, max_frames: int = 30_000, *, via_inbox: bool = False
) -> int:
    """Play on both devices, carrying each new code image to the other window (or to the
    other device's inbox folder)."""
    players = {id(a): AutoPlayer(a, mode="remote", seed=i) for i, a in enumerate((host, guest))}
    delivered: set[Path] = {codes(tmp_path / "host")[0]}
    homes = ((host, tmp_path / "host", guest), (guest, tmp_path / "guest", host))
    for frame in range(max_frames):
        for app, _home, _other in homes:
            players[id(app)].step()
        for _app, home, other in homes:
            for path in codes(home):
                if path not in delivered:
                    delivered.add(path)
                    if via_inbox:
                        inbox = other.storage.home / "remote" / "inbox"
                        inbox.mkdir(parents=True, exist_ok=True)
                        shutil.copy(path, inbox / f"from-{path.parent.name}-{path.name}")
                    else:
                        other.m.input.drop_file(path)
                        settle(other, 0)
        if all(isinstance(a.scene, MatchResultScene) for a in (host, guest)):
            return frame
    raise AssertionError("the remote match did not finish")


def test_a_whole_remote_match_through_the_screens(tmp_path: Path) -> None:
    host, guest = start(tmp_path)
    exchange(tmp_path, host, guest)
    h, g = host.scene, guest.scene
    assert isinstance(h, MatchResultScene) and isinstance(g, MatchResultScene)
    assert h.match.results == g.match.results
    assert len(h.match.results) == 2
    # both devices kept the same, complete transcript and forgot the match in progress
    assert h.remote is not None
    expected = [c.hex() for c in h.remote.session.transcript]
    assert verify_transcript(list(h.remote.session.transcript)).results == h.match.results
    for home in (tmp_path / "host", tmp_path / "guest"):
        assert not list((home / "remote").glob(f"*/{SESSION_FILE}"))
        (transcript,) = (home / "remote").glob("*/transcript.txt")
        assert transcript.read_text().split() == expected


def test_codes_put_in_the_inbox_folder_are_read_once(tmp_path: Path) -> None:
    """Where nothing can be dropped on the window (a kiosk), the inbox folder serves."""
    host, guest = start(tmp_path)
    exchange(tmp_path, host, guest, via_inbox=True)
    assert isinstance(host.scene, MatchResultScene) and isinstance(guest.scene, MatchResultScene)
    for app in (host, guest):
        inbox = app.storage.home / "remote" / "inbox"
        assert not list(inbox.glob("*.png"))  # every code was taken...
        assert list((inbox / "read").glob("*.png"))  # ...and kept, read once


def test_the_code_on_screen_is_the_code_in_the_file(tmp_path: Path) -> None:
    _host, guest = start(tmp_path)
    guest.step(5)
    scene = guest.scene
    assert isinstance(scene, MatchScene) and scene.state == "remote_wait"
    shot = tmp_path / "top.png"
    guest.m.screenshot(shot, screen=0, scale=3)
    on_screen = decode_image(shot)
    (file,) = codes(tmp_path / "guest")
    assert on_screen == decode_image(file)


def test_a_wrong_image_is_refused_with_a_message_and_changes_nothing(tmp_path: Path) -> None:
    _host, guest = start(tmp_path)
    guest.step(5)
    scene = guest.scene
    assert isinstance(scene, MatchScene) and scene.remote is not None
    before = scene.remote.session.to_json()
    junk = tmp_path / "junk.png"
    junk.write_bytes(b"not an image")
    guest.m.input.drop_file(junk)
    settle(guest)
    assert scene.remote.error is not None and "junk.png" in scene.remote.error
    # the guest's own code dropped back on itself was already read
    guest.m.input.drop_file(codes(tmp_path / "guest")[0])
    settle(guest)
    assert "already read; this device is waiting for move 3" in (scene.remote.error or "")
    assert scene.remote.session.to_json() == before


def test_a_remote_match_continues_after_a_restart(tmp_path: Path) -> None:
    host, guest = start(tmp_path)
    guest.m.close()
    again = make_app(tmp_path / "guest", 9)
    assert isinstance(again.scene, TitleScene)
    choose(again, "remote")
    assert isinstance(again.scene, RemoteListScene)
    (entry,) = again.scene.entries
    choose(again, f"match:{entry.label}")
    assert isinstance(again.scene, MatchScene)
    again.step(3)
    assert again.scene.state == "remote_wait"
    exchange(tmp_path, host, again)
    assert isinstance(again.scene, MatchResultScene)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_lobby_screens_render(tmp_path: Path, lang: str) -> None:
    app = make_app(tmp_path, 3)
    app.settings.lang = lang
    choose(app, "remote")
    choose(app, "host")
    top = app.m.screen_array(0)
    assert np.count_nonzero(top) > 0
    assert decode_image(_shot(app, tmp_path)) == decode_image(codes(tmp_path)[0])


def _shot(app: App, tmp_path: Path) -> Path:
    path = tmp_path / "lobby.png"
    app.m.screenshot(path, screen=0, scale=3)
    return path


def test_a_damaged_remote_save_is_set_aside_and_reported(tmp_path: Path) -> None:
    app = make_app(tmp_path, 4)
    saved = tmp_path / CURRENT_FILE
    saved.parent.mkdir(parents=True)
    saved.write_text("{not json")
    choose(app, "remote")
    scene = app.scene
    assert isinstance(scene, RemoteListScene)
    assert scene.entries == []
    assert not saved.exists()
    (kept,) = saved.parent.glob("current.json.corrupt-*")
    assert kept.read_text() == "{not json"
    assert "The remote match was damaged" in scene.notices[0].text("en")
