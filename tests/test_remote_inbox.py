"""Issue 16 item 5: the inbox folder never eats or loses a code.

A code for another match (or for no match open) stays in the inbox for it; slow or huge
images cannot push the honest code out of the reader's queue or hold it up; and a
folder full of other files is not listed again and again.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from test_remote import entropy

from petitcom_shim import qr
from petitcom_shim.qr_reader import QRReader
from royalnine.core import MatchConfig
from royalnine.remote.files import INBOX_DIR
from royalnine.remote.session import RemoteSession
from royalnine.screens import remote_io
from royalnine.screens.remote_io import INBOX_EVERY, Arrival, CodeIntake
from royalnine.storage import Storage

WAIT = 60.0


class Frames:
    """Just what :meth:`CodeIntake.poll` needs of an app and its input, frame by frame."""

    def __init__(self) -> None:
        self.app: Any = SimpleNamespace(frames=0)
        self.inp: Any = SimpleNamespace(dropped=[], edit=set())

    def poll(self, intake: CodeIntake, match_id: bytes | None, reader: QRReader) -> list[Arrival]:
        """One look at the inbox (a frame where the inbox is due), and what finished."""
        self.app.frames += INBOX_EVERY
        arrivals = intake.poll(self.app, self.inp, match_id)
        reader.wait(WAIT)
        return arrivals + intake.poll(self.app, self.inp, match_id)


def two_matches() -> tuple[RemoteSession, RemoteSession, bytes, bytes]:
    """Match A (this device is the guest) and a code 2 of another match B."""
    host_a = RemoteSession.host(MatchConfig(1), entropy(1))
    guest_a = RemoteSession.join(host_a.compose(now=0.0), entropy(2))
    host_b = RemoteSession.host(MatchConfig(1), entropy(3))
    guest_b = RemoteSession.join(host_b.compose(now=0.0), entropy(4))
    return host_a, guest_a, guest_b.compose(now=0.0), host_b.transcript[0]


def test_a_code_for_another_match_stays_in_the_inbox_for_it(tmp_path: Path) -> None:
    _host_a, guest_a, code_b, hello_b = two_matches()
    inbox = tmp_path / INBOX_DIR
    inbox.mkdir(parents=True)
    qr.encode_png(code_b, inbox / "for-b.png")
    reader = QRReader(threaded=False)
    intake, frames = CodeIntake(Storage(tmp_path), reader=reader), Frames()
    for _ in range(3):  # match A open: B's code is read, and left where it is
        assert frames.poll(intake, guest_a.match_id, reader) == []
    assert (inbox / "for-b.png").is_file()
    for _ in range(3):  # the JOIN lobby: not a host's code 1, left too
        assert frames.poll(intake, None, reader) == []
    assert (inbox / "for-b.png").is_file()
    # match B opens: its code arrives, and only now moves to inbox/read
    arrivals = frames.poll(intake, code_b[3:7], reader)
    assert [a.code for a in arrivals] == [code_b]
    assert not (inbox / "for-b.png").exists() and (inbox / "read" / "for-b.png").is_file()
    # a host's code 1 that arrives while a match is open waits for the JOIN lobby
    qr.encode_png(hello_b, inbox / "hello.png")
    assert frames.poll(intake, guest_a.match_id, reader) == []
    assert [a.code for a in frames.poll(intake, None, reader)] == [hello_b]


def test_a_burst_of_slow_huge_images_neither_loses_nor_holds_up_the_honest_code(
    tmp_path: Path,
) -> None:
    """40 big images that each take the reader a while, then the honest code: it is read
    first, and none of them is refused as "too many images" or moved away unread."""
    inbox = tmp_path / INBOX_DIR
    inbox.mkdir(parents=True)
    for k in range(40):
        with open(inbox / f"photo-{k:02d}.jpg", "wb") as f:
            f.truncate(8_000_000)  # sparse: a 40-megapixel photo's size, no disk used
    honest = RemoteSession.host(MatchConfig(1), entropy(9))
    order: list[str] = []
    reply_read = threading.Event()
    held_up: list[str] = []

    def slow(source: qr.ImageSource) -> bytes:
        """A photo takes until the reply has been read (at most 5 s): were the reply
        queued behind it, it would wait the whole 5 s, and say so."""
        name = Path(str(source)).name
        order.append(name)
        if name.startswith("photo"):
            if not reply_read.wait(5.0):
                held_up.append(name)
            raise qr.QRError(f"{name}: no QR code found")
        payload = qr.decode_image(source)
        reply_read.set()
        return payload

    reader, big = QRReader(decode=slow, capacity=4), QRReader(decode=slow, capacity=2)
    intake = CodeIntake(Storage(tmp_path), reader=reader, big_reader=big)
    frames = Frames()
    arrivals: list[Arrival] = []
    for look in range(3000):
        if look == 2:  # the photos are being read when the reply comes in
            assert order and order[0].startswith("photo")
            qr.encode_png(honest.compose(now=0.0), inbox / "reply.png")
        arrivals += frames.poll(intake, honest.match_id, reader)
        if len(order) == 41 and not intake.busy:
            arrivals += frames.poll(intake, honest.match_id, reader)
            break
        time.sleep(0.01)
    intake.close()
    assert held_up == []  # the reply was read at once, never behind a big image
    assert [a.code for a in arrivals if a.code is not None] == [honest.transcript[0]]
    refusals = [a.error or "" for a in arrivals if a.code is None]
    assert len(refusals) == 40 and not any("too many" in r for r in refusals)
    assert sorted(os.listdir(inbox / "read")) == sorted(
        [f"photo-{k:02d}.jpg" for k in range(40)] + ["reply.png"]
    )


def test_a_slow_image_the_reader_gives_up_on_stays_and_is_not_read_again(
    tmp_path: Path,
) -> None:
    inbox = tmp_path / INBOX_DIR
    inbox.mkdir(parents=True)
    (inbox / "slow.png").write_bytes(b"x")
    calls: list[str] = []

    def gives_up(source: qr.ImageSource) -> bytes:
        calls.append(str(source))
        raise qr.QRError("slow.png: took over 30 s to read; refused")

    reader = QRReader(decode=gives_up, threaded=False)
    intake, frames = CodeIntake(Storage(tmp_path), reader=reader), Frames()
    for _ in range(5):
        frames.poll(intake, b"1234", reader)
    assert len(calls) == 1 and (inbox / "slow.png").is_file()


def test_an_image_the_real_reader_times_out_on_stays_and_is_not_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same through the shim's own time limit, not a message written here: the inbox
    knows a timeout by the reader's words, so a change of them must fail a test."""
    import petitcom_shim.qr_reader as qr_reader

    inbox = tmp_path / INBOX_DIR
    inbox.mkdir(parents=True)
    honest = RemoteSession.host(MatchConfig(1), entropy(6))
    qr.encode_png(honest.compose(now=0.0), inbox / "slow.png")
    monkeypatch.setattr(qr_reader, "TIME_LIMIT", 0.0)  # every image takes too long
    reader = QRReader()
    submitted: list[Path] = []
    submit = reader.submit

    def counting(source: Any, tag: object = None) -> bool:
        submitted.append(Path(source))
        return submit(source, tag)

    monkeypatch.setattr(reader, "submit", counting)
    intake, frames = CodeIntake(Storage(tmp_path), reader=reader), Frames()
    arrivals: list[Arrival] = []
    for _ in range(4):
        arrivals += frames.poll(intake, honest.match_id, reader)
    intake.close()
    assert submitted == [inbox / "slow.png"]
    assert [a.code for a in arrivals] == [None] and "refused" in (arrivals[0].error or "")
    assert (inbox / "slow.png").is_file() and not (inbox / "read" / "slow.png").exists()


def test_ten_thousand_junk_files_are_listed_once_not_every_half_second(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inbox = tmp_path / INBOX_DIR
    inbox.mkdir(parents=True)
    for k in range(10_000):
        (inbox / f"junk-{k:05d}.txt").touch()
    reader = QRReader(threaded=False)
    intake, frames = CodeIntake(Storage(tmp_path), reader=reader), Frames()
    listings: list[str] = []
    scandir = os.scandir

    def counting(path: Any = ".") -> Any:
        if Path(path) == inbox:
            listings.append(str(path))
        return scandir(path)

    monkeypatch.setattr(remote_io.os, "scandir", counting)
    for _ in range(15):  # 15 looks = 7.5 s of frames at 60 a second
        frames.poll(intake, b"1234", reader)
    assert len(listings) == 1, listings
    honest = RemoteSession.host(MatchConfig(1), entropy(5))
    qr.encode_png(honest.compose(now=0.0), inbox / "reply.png")
    arrivals = frames.poll(intake, honest.match_id, reader)
    assert [a.code for a in arrivals] == [honest.transcript[0]] and len(listings) == 2
