"""Exchanging codes as a player does: text through the clipboard, the camera, the folders,
several matches at once, and hostile images dropped on the window or put in the inbox
(each refused with a message, none able to stall the frame loop)."""

from __future__ import annotations

import os
import shutil
import sys
import threading
from pathlib import Path

import hostile_images
import pytest
from test_game_remote import WAIT, choose, codes, make_app, settle, start, tap
from test_game_ui import console_row

from petitcom_shim import Machine, qr
from petitcom_shim.camera import FakeCamera, NoCamera
from petitcom_shim.charset import to_ptc
from petitcom_shim.qr_reader import QRReader, Reading
from royalnine.app import App
from royalnine.remote.textcode import from_text, to_text
from royalnine.screens import exchange
from royalnine.screens.autoplay import AutoPlayer
from royalnine.screens.exchange import ExchangeScene
from royalnine.screens.match import MatchScene
from royalnine.screens.match_remote import CODES_RECT
from royalnine.screens.remote import SESSION_FILE
from royalnine.screens.remote_io import CodeIntake, FolderOpener, intake_of, set_intake
from royalnine.screens.remote_list import RemoteListScene
from royalnine.screens.result import MatchResultScene


def screen_text(app: App, screen: int) -> str:
    return "\n".join(console_row(app, screen, row) for row in range(24))


def guest_lobby(tmp_path: Path, seed: int = 2) -> App:
    guest = make_app(tmp_path / "guest", seed)
    choose(guest, "remote")
    choose(guest, "join")
    assert isinstance(guest.scene, ExchangeScene)
    return guest


def host_lobby(tmp_path: Path) -> App:
    host = make_app(tmp_path / "host", 1)
    choose(host, "remote")
    choose(host, "host")
    assert isinstance(host.scene, ExchangeScene)
    return host


def test_the_one_screen_layout_says_how_to_see_the_code(tmp_path: Path) -> None:
    """In the single layout the touch screen is shown and the code, with the line on how
    to send it, is on the other one: the touch screen says which key swaps to it."""
    from royalnine.cli.play import shim_layout
    from royalnine.game import new_game
    from royalnine.storage import Settings, Storage

    m = Machine(headless=True, seed=1, layout=shim_layout("single"))
    app = new_game(m, Storage(tmp_path), Settings(sound=False, layout="single"), seed=1)
    choose(app, "remote")
    choose(app, "host")
    assert isinstance(app.scene, ExchangeScene)
    assert app.t("swap_short") in screen_text(app, 1)
    assert "COPY, then paste it in a chat." in screen_text(app, 0)
    host = host_lobby(tmp_path / "vertical")  # the other layouts show both screens
    assert host.t("swap_short") not in screen_text(host, 1)


# ------------------------------------------------------------------- text codes


def test_copy_with_one_tap_and_paste_with_ctrl_v_start_a_match(tmp_path: Path) -> None:
    host, guest = host_lobby(tmp_path), guest_lobby(tmp_path)
    choose(host, "copy")
    text = host.m.clipboard.get_text()
    (first,) = codes(tmp_path / "host")
    assert from_text(text) == qr.decode_image(first)
    assert "Copied" in screen_text(host, 1)
    guest.m.clipboard.put_text("  " + text.lower() + "\n")  # as a messenger may mangle it
    guest.m.input.edit_key("paste")
    guest.step(2)
    assert isinstance(guest.scene, MatchScene)
    # the guest's reply, copied with Ctrl+C from the match screen, pasted with PASTE
    guest.step(5)
    guest.m.input.edit_key("copy")
    guest.step(1)
    host.m.clipboard.put_text(guest.m.clipboard.get_text())
    choose(host, "paste")
    assert isinstance(host.scene, MatchScene)


@pytest.mark.slow
def test_a_whole_match_by_text_codes(tmp_path: Path) -> None:
    host, guest = start(tmp_path)
    players = {id(a): AutoPlayer(a, mode="remote", seed=i) for i, a in enumerate((host, guest))}
    delivered = set(codes(tmp_path / "host"))  # code 1 was read by the guest in start()
    for _ in range(30_000):
        for app in (host, guest):
            players[id(app)].step()
        for app, other in ((host, guest), (guest, host)):
            for path in codes(app.storage.home):
                if path not in delivered:
                    delivered.add(path)
                    other.m.clipboard.put_text(to_text(qr.decode_image(path)))
                    other.m.input.edit_key("paste")
        if all(isinstance(a.scene, MatchResultScene) for a in (host, guest)):
            break
    h, g = host.scene, guest.scene
    assert isinstance(h, MatchResultScene) and isinstance(g, MatchResultScene)
    assert h.match.results == g.match.results
    # whoever still owes a last code sees its full path and copies it with Ctrl+C
    owing = [(a, s) for a, s in ((host, h), (guest, g)) if s.remote and s.remote.showing()]
    for app, scene in owing:
        assert scene.remote is not None
        number, code = scene.remote.showing() or (0, b"")
        path = str(scene.remote.code_path(number))
        shown = "".join(console_row(app, 1, r) for r in (19, 20)).replace(" ", "")
        assert path.replace(" ", "") in shown or len(path) > 64
        app.m.input.edit_key("copy")
        app.step(1)
        assert from_text(app.m.clipboard.get_text()) == code


def test_a_typo_in_a_pasted_code_is_named_and_changes_nothing(tmp_path: Path) -> None:
    _host, guest = start(tmp_path)
    guest.step(5)
    scene = guest.scene
    assert isinstance(scene, MatchScene) and scene.remote is not None
    before = scene.remote.session.to_json()
    (first,) = codes(tmp_path / "host")
    text = to_text(qr.decode_image(first))
    typo = text[:7] + ("X" if text[7] != "X" else "Y") + text[8:]
    guest.m.clipboard.put_text(typo)
    guest.m.input.edit_key("paste")
    guest.step(2)
    assert "typo in group 2" in (scene.remote.error or "")
    assert scene.remote.session.to_json() == before
    guest.m.clipboard.put_text("")
    guest.m.input.edit_key("paste")
    guest.step(2)
    assert "no text" in (scene.remote.error or "")


# ------------------------------------------------------------------------ camera


def test_scan_joins_from_a_fake_camera_showing_the_hosts_code(tmp_path: Path) -> None:
    host = host_lobby(tmp_path)
    (first,) = codes(tmp_path / "host")
    guest = make_app(tmp_path / "guest", 2)
    blank = qr.Image.new("L", (320, 240), 180)
    shown = qr.Image.new("L", (320, 240), 255)
    shown.paste(qr.Image.open(first).convert("L").resize((200, 200)), (60, 20))
    set_intake(
        guest,
        CodeIntake(guest.storage, camera=lambda: FakeCamera([blank, blank, shown], every=3)),
    )
    choose(guest, "remote")
    choose(guest, "join")
    choose(guest, "scan")
    assert isinstance(guest.scene, ExchangeScene)
    assert intake_of(guest).scanning
    guest.step(1)
    assert guest.m.gspoit(128, 90) in range(200, 216)  # the live picture, in greys
    for _ in range(300):
        scanner = intake_of(guest).scanner
        if scanner is None:
            break
        scanner.reader.wait(WAIT)
        guest.step(1)
    assert isinstance(guest.scene, MatchScene)
    assert not intake_of(guest).scanning  # the camera is let go once the code was read
    assert host.scene is not None


def test_without_a_camera_scan_explains_and_nothing_breaks(tmp_path: Path) -> None:
    guest = make_app(tmp_path / "guest", 2)

    def no_camera() -> FakeCamera:
        raise NoCamera("no camera found")

    set_intake(guest, CodeIntake(guest.storage, camera=no_camera))
    choose(guest, "remote")
    choose(guest, "join")
    choose(guest, "scan")
    assert isinstance(guest.scene, ExchangeScene)
    assert "No camera: no camera found" in screen_text(guest, 1)
    assert not intake_of(guest).scanning
    choose(guest, "back")
    assert isinstance(guest.scene, RemoteListScene)


# ----------------------------------------------------------------------- folders


def test_the_folders_are_on_screen_and_leave_room_for_the_status(tmp_path: Path) -> None:
    """The data folder on its own lines (its middle cut when it is very long), each folder
    by its place in it; a long home path never pushes the status lines away."""
    from royalnine.screens.exchange import home_lines

    host = host_lobby(tmp_path)
    text = " ".join(screen_text(host, 1).split())
    home = tmp_path / "host"
    label = codes(home)[0].parent.name
    assert f"your codes: remote/{label}/" in text
    assert "put theirs in: remote/inbox/" in text
    lines = home_lines(home)
    shown = [line.replace("…", chr(to_ptc("…")[0])) for line in lines]  # as console codes
    assert 1 <= len(lines) <= 2 and all(line in text for line in shown)
    assert str(home).startswith(lines[0]) and str(home).endswith(lines[-1].removeprefix("…"))
    short = Path("/home/ann/.local/share/royalnine")
    assert home_lines(short) == ["/home/ann/.local/share/", "royalnine"]  # whole when it fits
    long = Path("/home/" + "a-very-long-folder-name/" * 9 + "royalnine")
    cut = home_lines(long)
    assert len(cut) == 2 and cut[1].startswith("…") and str(long).endswith(cut[1][1:])
    # the end starts at a separator: no folder name is cut in two ("..-name/.local/...")
    assert cut[1].startswith("…/")
    for line in home_lines(Path("/tmp/tmpdtcxhq2s/home/someone-with-a-long-name/.local/r9")):
        assert "someone" in line or "-name" not in line
    choose(host, "copy")
    assert "Copied as text" in " ".join(screen_text(host, 1).split())


def test_open_folder_runs_the_file_manager_without_waiting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    started: list[list[str]] = []

    def fake(path: Path) -> list[str]:
        started.append([str(path)])
        return [sys.executable, "-c", "import sys; sys.exit(3)"]

    monkeypatch.setattr(exchange, "_OPENER", FolderOpener(fake))
    host = host_lobby(tmp_path)
    choose(host, "open_codes")
    choose(host, "open_inbox")
    assert started == [
        [str(codes(tmp_path / "host")[0].parent)],
        [str(tmp_path / "host" / "remote" / "inbox")],
    ]
    for child, _path in list(exchange._OPENER.running):
        child.wait(WAIT)
    host.step(1)
    said = " ".join(screen_text(host, 1).split())  # folded
    assert "No file manager here" in said and "remote/inbox/" in said
    # no file manager at all (issue 16): where the folder is, not "No such file or directory"
    monkeypatch.setattr(exchange, "_OPENER", FolderOpener(lambda p: ["/no/such/opener"]))
    choose(host, "open_inbox")
    said = " ".join(screen_text(host, 1).split())
    assert "remote/inbox/ in the data folder above" in said and "No such file" not in said
    # the terminal names the missing opener, not the folder (which exists) as missing
    err = capsys.readouterr().err
    assert "cannot open" in err and "/no/such/opener: No such file" in err


# ---------------------------------------------------------------- several matches


def test_several_matches_are_listed_and_each_resumes(tmp_path: Path) -> None:
    host, guest = start(tmp_path)
    # the host starts a second match: the first is not replaced
    choose_from_match_to_list(host)
    choose(host, "host")
    choose(host, "back")
    scene = host.scene
    assert isinstance(scene, RemoteListScene)
    assert len(scene.entries) == 2
    labels = [e.label for e in scene.entries]
    first = codes(tmp_path / "host")[0].parent.name
    assert first in labels
    assert "HOST" not in " ".join(console_row(host, 0, r) for r in range(4, 6))  # rival=guest
    assert "GUEST" in screen_text(host, 0)
    choose(host, f"match:{first}")
    assert isinstance(host.scene, MatchScene) and host.scene.remote is not None
    assert host.scene.remote.session.label == first
    assert guest.scene is not None


def choose_from_match_to_list(app: App) -> None:
    """Leave a match screen for the title, then open the remote list."""
    from royalnine.screens.title import TitleScene

    app.switch(TitleScene())
    choose(app, "remote")
    assert isinstance(app.scene, RemoteListScene)


@pytest.mark.parametrize("damage", ["{not json", "[" * 100_000, '{"format": 3}', "\xff\xfe"])
def test_a_damaged_match_save_is_set_aside_and_the_others_still_listed(
    tmp_path: Path, damage: str
) -> None:
    host, _guest = start(tmp_path)
    choose_from_match_to_list(host)
    choose(host, "host")  # a second match
    choose(host, "back")
    bad = sorted((tmp_path / "host" / "remote").glob(f"*/{SESSION_FILE}"))[0]
    bad.write_text(damage, encoding="utf-8", errors="surrogateescape")
    host.switch(RemoteListScene())
    scene = host.scene
    assert isinstance(scene, RemoteListScene)
    assert len(scene.entries) == 1
    assert "was damaged and is not used" in scene.notices[0].text("en")
    assert list(bad.parent.glob(f"{SESSION_FILE}.corrupt-*"))
    assert "damaged" in screen_text(host, 0).replace("\n", "")  # under the table, in full


# -------------------------------------------------------------- hostile images


class RecordingReader(QRReader):
    """A QR reader that keeps every result it hands out."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.seen: list[Reading] = []

    def results(self) -> list[Reading]:
        out = super().results()
        self.seen += out
        return out


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return hostile_images.build(tmp_path_factory.mktemp("hostile"))


def test_hostile_images_dropped_on_the_window_are_each_refused(
    tmp_path: Path, corpus: list[Path]
) -> None:
    for where in ("lobby", "match"):
        home = tmp_path / where
        if where == "lobby":
            app = guest_lobby(home)
        else:
            app, _host = start(home)[::-1]
            app.step(5)
        reader = RecordingReader()
        set_intake(app, CodeIntake(app.storage, reader=reader))
        scene = app.scene
        for path in corpus:
            app.m.input.drop_file(path)
            settle(app)
            assert app.scene is scene
        assert [r.name for r in reader.seen] == [p.name for p in corpus]
        assert all(r.payload is None and r.error and "\n" not in r.error for r in reader.seen)
        if where == "lobby":
            assert isinstance(scene, ExchangeScene) and scene.link is None
        else:
            assert isinstance(scene, MatchScene) and scene.remote is not None
            assert scene.remote.error is not None


def test_hostile_images_in_the_inbox_are_each_refused(tmp_path: Path, corpus: list[Path]) -> None:
    guest, _host = start(tmp_path)[::-1]
    reader = RecordingReader()
    set_intake(guest, CodeIntake(guest.storage, reader=reader))
    inbox = guest.storage.home / "remote" / "inbox"
    inbox.mkdir(parents=True, exist_ok=True)  # made with the match
    names = []
    left = []
    for path in corpus:
        target = inbox / path.name
        if path.is_symlink():
            os.symlink(os.readlink(path), target)
        elif path.is_dir():
            target.mkdir()
            continue  # a directory is not taken from the inbox at all
        elif not path.is_file():
            os.mkfifo(target)
        else:
            shutil.copy(path, target)
        if target.is_file():
            names.append(path.name)
        else:  # a FIFO, a link to a device: no regular file, never opened at all
            left.append(target)
    for _ in range(2000):
        guest.step(1)
        reader.wait(WAIT)
        if len(reader.seen) == len(names):
            break
    assert sorted(r.name for r in reader.seen) == sorted(names)
    assert all(r.payload is None and r.error for r in reader.seen)
    assert all(os.path.lexists(path) for path in left)
    assert isinstance(guest.scene, MatchScene)


def test_a_slow_image_never_stalls_the_frame_loop(tmp_path: Path) -> None:
    """While the reader is stuck on an image, frames go on and READING... is shown; the
    code is taken on a later frame."""
    _host, guest = start(tmp_path)
    gate = threading.Event()

    def slow(source: qr.ImageSource) -> bytes:
        gate.wait(WAIT)
        return qr.decode_image(source)

    set_intake(guest, CodeIntake(guest.storage, reader=QRReader(decode=slow)))
    junk = tmp_path / "junk.png"
    junk.write_bytes(b"not an image")
    guest.m.input.drop_file(junk)
    frames = guest.frames
    guest.step(30)
    assert guest.frames == frames + 30
    assert "READING..." in screen_text(guest, 1)
    gate.set()
    settle(guest)
    scene = guest.scene
    assert isinstance(scene, MatchScene) and scene.remote is not None
    assert "junk.png" in (scene.remote.error or "")
    assert "READING..." not in screen_text(guest, 1)


def test_codes_button_opens_the_exchange_and_back_returns(tmp_path: Path) -> None:
    _host, guest = start(tmp_path)
    guest.step(5)
    match = guest.scene
    tap(guest, *CODES_RECT.centre)
    assert isinstance(guest.scene, ExchangeScene)
    choose(guest, "back")
    assert guest.scene is match


def test_a_reply_pasted_in_the_exchange_screen_returns_to_the_match(tmp_path: Path) -> None:
    """Protocol v2 opens with host code 1, guest code 2, then the host reveals first (code
    3): the guest, waiting on its code 2, opens CODES and pastes code 3 as text."""
    host, guest = start(tmp_path)
    host.m.input.drop_file(codes(tmp_path / "guest")[0])  # the guest's code 2, to the host
    settle(host)
    assert isinstance(host.scene, MatchScene)
    (reply,) = [p for p in codes(tmp_path / "host") if p.name == "move-03.png"]
    guest.step(5)
    match = guest.scene
    assert isinstance(match, MatchScene) and match.remote is not None
    assert len(match.remote.session.transcript) == 2
    tap(guest, *CODES_RECT.centre)
    assert isinstance(guest.scene, ExchangeScene)
    guest.m.clipboard.put_text(to_text(qr.decode_image(reply)))
    choose(guest, "paste")
    assert guest.scene is match
    transcript = match.remote.session.transcript
    assert len(transcript) >= 3 and transcript[2] == qr.decode_image(reply)


def test_folder_lines_keep_the_whole_path_and_break_after_separators() -> None:
    from royalnine.screens.exchange import folder_lines

    path = Path("/home/player/.local/share/royalnine/remote/7F2A11C0")
    lines = folder_lines(path)
    assert "".join(lines) == str(path)
    assert all(len(line) <= 32 for line in lines)
    assert lines[0].endswith("/")
    very_long = Path("/" + "x" * 200)
    assert len(folder_lines(very_long)) == 3  # the end is kept, marked as cut


def test_the_file_manager_command_by_platform(tmp_path: Path) -> None:
    from royalnine.screens.remote_io import opener_command

    assert opener_command(tmp_path, "linux") == ["xdg-open", str(tmp_path)]
    assert opener_command(tmp_path, "darwin") == ["open", str(tmp_path)]
    assert opener_command(tmp_path, "win32") is None  # os.startfile


def test_last_activity_is_short() -> None:
    from royalnine.screens.remote import ago

    assert [ago(s) for s in (0, 59, 61, 3600 * 5, 86400 * 3, 86400 * 5000)] == [
        "0m",
        "0m",
        "1m",
        "5h",
        "3d",
        "999d",
    ]


def test_bad_files_dropped_during_a_remote_match_say_why_on_screen(tmp_path: Path) -> None:
    """Three bad files dropped mid-match showed only "/tmp/ tmpXXXX/.." (issue 18 item 7):
    the reason names the file without its folders and has the panel's free rows."""
    app, _host = start(tmp_path / "g")[::-1]
    app.step(5)
    folder = tmp_path / "a" / "rather" / "long" / "folder" / "name"
    folder.mkdir(parents=True)
    for i in range(3):
        path = folder / f"bad{i}.png"
        path.write_bytes(b"not a png" * (i + 1))
        app.m.input.drop_file(path)
    settle(app)
    panel = "\n".join(console_row(app, 1, row)[17:] for row in range(15, 18))
    assert "bad2.png: not" in panel and "rather" not in panel


def test_join_with_the_id_of_a_match_here_is_refused_and_replaces_nothing(tmp_path: Path) -> None:
    """Issue 16 item 1: a code 1 whose match id this device already has (a hostile host
    may copy it) never overwrites that match's save or codes."""
    _host, guest = start(tmp_path)
    (save,) = (tmp_path / "guest" / "remote").glob("*/session.json")
    before = save.read_bytes()
    (first,) = [p for p in codes(tmp_path / "host") if p.name == "move-01.png"]
    choose_from_match_to_list(guest)
    choose(guest, "join")
    guest.m.input.drop_file(first)
    settle(guest)
    assert isinstance(guest.scene, ExchangeScene) and guest.scene.link is None
    assert "already has a match" in " ".join(screen_text(guest, 1).split())
    assert save.read_bytes() == before


def _hostile_transcript() -> str:
    """100,000 characters (all a clipboard gives): a transcript header, then lines of
    groups that check, each ending in a tiny code (issue 24: 37 s in one frame)."""
    line = ("ok " + "00000 " * 700)[:3990] + to_text(b"\x00")
    text = "# Royal Nine remote match 01020304, as kept by the host\n" + "\n".join([line] * 30)
    return text[:100_000]


def test_a_hostile_paste_is_read_off_the_frame_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 24 item 2: a paste is read in the paste reader's thread. While its reading is
    held up, frames go on (showing "reading..."), and nothing the paste could do is done
    by the frame loop; the refusal arrives on a later frame."""
    from royalnine.screens import remote_io

    _host, guest = start(tmp_path)
    guest.step(5)
    scene = guest.scene
    assert isinstance(scene, MatchScene) and scene.remote is not None
    before = scene.remote.session.to_json()
    intake = CodeIntake(guest.storage)  # the game's own: a paste may hold a frame 2 ms
    set_intake(guest, intake)
    release = threading.Event()
    readers: list[threading.Thread] = []
    real = remote_io.read_pasted

    def held_up(source: str, text: str) -> remote_io.Arrival:
        readers.append(threading.current_thread())
        assert release.wait(WAIT)
        return real(source, text)

    monkeypatch.setattr(remote_io, "read_pasted", held_up)
    hostile = _hostile_transcript()
    assert len(hostile) == 100_000
    interval = sys.getswitchinterval()
    guest.m.clipboard.put_text(hostile)
    guest.m.input.edit_key("paste")
    guest.step(10)  # the reading is held up: the frames go on all the same
    assert intake.busy and scene.remote.error is None
    assert "reading" in screen_text(guest, 1).lower()
    release.set()
    assert intake.paster.wait(WAIT)
    guest.step(2)
    assert readers and all(t is not threading.main_thread() for t in readers)
    assert "line 2 is not a code" in (scene.remote.error or "")
    assert scene.remote.session.to_json() == before
    assert sys.getswitchinterval() == interval  # short turns only while reading
    intake.close()


def test_a_transcript_pasted_in_the_join_lobby_is_explained(tmp_path: Path) -> None:
    guest = guest_lobby(tmp_path)
    guest.m.clipboard.put_text("# Royal Nine remote match 01020304, as kept by the host\n00\n")
    guest.m.input.edit_key("paste")
    guest.step(2)
    assert isinstance(guest.scene, ExchangeScene) and guest.scene.link is None
    assert "a transcript, not a code 1" in " ".join(screen_text(guest, 1).split())
