"""The QR reader thread, the camera (with a fake that plays back pictures), the clipboard,
the clipboard shortcuts and GLOAD: nothing here may block a frame loop."""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path

import numpy as np
import pygame
import pytest
from PIL import Image

from petitcom_shim import Machine, qr
from petitcom_shim.camera import (
    FakeCamera,
    NoCamera,
    PygameCamera,
    Scanner,
    open_camera,
    preview_indices,
)
from petitcom_shim.clipboard import ClipboardError, MemoryClipboard, SystemClipboard
from petitcom_shim.errors import IllegalFunctionCall
from petitcom_shim.input import Input
from petitcom_shim.qr_reader import QRReader

WAIT = 30.0  # seconds: a hang guard for the worker thread, never a timing assertion


def code_file(tmp_path: Path, data: bytes, name: str = "code.png") -> Path:
    path = tmp_path / name
    qr.encode_png(data, path, module_px=4)
    return path


# ------------------------------------------------------------------------- reader


def test_the_reader_decodes_on_its_thread_and_delivers_later(tmp_path: Path) -> None:
    gate = threading.Event()
    threads: list[str] = []

    def slow_decode(source: qr.ImageSource) -> bytes:
        threads.append(threading.current_thread().name)
        gate.wait(WAIT)
        return qr.decode_image(source)

    reader = QRReader(decode=slow_decode)
    assert reader.submit(code_file(tmp_path, b"hello"))
    # the caller goes on at once: nothing done yet, and it says it is busy
    assert reader.busy
    assert reader.results() == []
    gate.set()
    assert reader.wait(WAIT)
    (reading,) = reader.results()
    assert reading.payload == b"hello" and reading.error is None and reading.name == "code.png"
    assert threads == ["qr-reader"]
    assert not reader.busy
    reader.close()


def test_failures_are_one_line_readings_and_the_queue_is_bounded(tmp_path: Path) -> None:
    gate = threading.Event()

    def blocked(source: qr.ImageSource) -> bytes:
        gate.wait(WAIT)
        raise RuntimeError("a decoder bug")

    reader = QRReader(capacity=2, decode=blocked)
    accepted = [reader.submit(tmp_path / f"{k}.png", tag=k) for k in range(6)]
    # one being read, two waiting at most; the rest refused at once with a reading
    assert accepted.count(False) >= 3
    refused = reader.results()
    assert all("too many images at once" in (r.error or "") for r in refused)
    gate.set()
    assert reader.wait(WAIT)
    rest = reader.results()
    assert len(refused) + len(rest) == 6
    assert all(r.payload is None and "RuntimeError" in (r.error or "") for r in rest)
    reader.close()


def test_by_default_images_are_read_in_a_worker_process(tmp_path: Path) -> None:
    reader = QRReader()
    reader.submit(code_file(tmp_path, b"elsewhere"))
    reader.submit(code_file(tmp_path, b"twice", "two.png").read_bytes(), tag=2)
    assert reader.wait(WAIT)
    first, second = reader.results()
    assert (first.payload, second.payload, second.tag) == (b"elsewhere", b"twice", 2)
    pid = reader.worker_pid
    assert pid is not None and pid != os.getpid()
    reader.close()


def test_a_worker_that_takes_too_long_is_stopped_and_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import petitcom_shim.qr_reader as qr_reader

    reader = QRReader()
    monkeypatch.setattr(qr_reader, "TIME_LIMIT", 0.0)  # not even time to start
    reader.submit(code_file(tmp_path, b"late"))
    assert reader.wait(WAIT)
    (late,) = reader.results()
    assert late.payload is None and "to read; refused" in (late.error or "")
    assert reader.worker_pid is None
    monkeypatch.setattr(qr_reader, "TIME_LIMIT", WAIT)
    reader.submit(code_file(tmp_path, b"again"))
    assert reader.wait(WAIT)
    assert [r.payload for r in reader.results()] == [b"again"]
    # a worker that died between images is replaced without a word
    pid = reader.worker_pid
    assert pid is not None
    os.kill(pid, getattr(signal, "SIGKILL", signal.SIGTERM))
    reader.submit(code_file(tmp_path, b"after"))
    assert reader.wait(WAIT)
    assert [r.payload for r in reader.results()] == [b"after"]
    reader.close()


def test_a_synchronous_reader_for_tests(tmp_path: Path) -> None:
    reader = QRReader(threaded=False)
    reader.submit(code_file(tmp_path, b"now"), tag="t")
    reader.submit(tmp_path / "absent.png")
    ok, missing = reader.results()
    assert (ok.payload, ok.tag) == (b"now", "t")
    assert missing.error is not None and "no such file" in missing.error


# ------------------------------------------------------------------------- camera


def test_scanning_a_fake_camera_finds_the_code_shown_to_it() -> None:
    blank = Image.new("L", (320, 240), 200)
    code = Image.new("L", (320, 240), 255)
    code.paste(qr.encode_image(b"scan me", module_px=4), (40, 10))
    fake = FakeCamera([blank, blank, code], every=2)
    scanner = Scanner(open_camera(fake))
    found: list[bytes] = []
    for _ in range(200):  # frames; each poll returns at once
        found += scanner.poll()
        if found:
            break
        scanner.reader.wait(WAIT)
    assert found == [b"scan me"]
    assert scanner.camera.picture is not None
    scanner.close()
    assert not fake.started


def test_pictures_arriving_while_the_reader_is_busy_only_update_the_preview() -> None:
    gate = threading.Event()
    seen: list[int] = []

    def decode(source: qr.ImageSource) -> bytes:
        assert isinstance(source, Image.Image)
        seen.append(source.getpixel((0, 0)))  # type: ignore[arg-type]
        gate.wait(WAIT)
        raise qr.NoCodeFound("no code")

    pictures = [Image.new("L", (64, 64), k) for k in range(5)]
    scanner = Scanner(open_camera(FakeCamera(pictures)), QRReader(capacity=1, decode=decode))
    for _ in range(5):
        assert scanner.poll() == []
    assert scanner.camera.picture is pictures[4]
    gate.set()
    assert scanner.reader.wait(WAIT)
    assert seen == [0]  # only the first picture went to the reader; failures are quiet
    assert scanner.poll() == []


def test_no_camera_is_a_one_line_no_camera_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import pygame.camera

    monkeypatch.setattr(pygame.camera, "init", lambda *a, **k: None)
    monkeypatch.setattr(pygame.camera, "list_cameras", lambda: [])
    with pytest.raises(NoCamera, match="no camera found"):
        open_camera(PygameCamera())

    def broken() -> None:
        raise pygame.error("no backend")

    monkeypatch.setattr(pygame.camera, "init", broken)
    with pytest.raises(NoCamera, match="no camera support"):
        open_camera()
    with pytest.raises(NoCamera):
        FakeCamera([])


def test_preview_indices_and_gload() -> None:
    picture = Image.linear_gradient("L").resize((320, 240))
    indices = preview_indices(picture, (256, 192), 200, 16)
    assert indices.shape == (192, 256)
    assert indices.min() == 200 and indices.max() == 215
    m = Machine(headless=True)
    m.gpage(0)
    m.gload(0, 0, indices)
    assert m.gspoit(0, 0) == 200 and m.gspoit(128, 191) == 215
    m.gload(250, 190, np.full((10, 10), 7, dtype=np.uint8))  # clipped, no error
    assert m.gspoit(255, 191) == 7
    with pytest.raises(IllegalFunctionCall):
        m.gload(0, 0, np.zeros(5, dtype=np.uint8))
    m.close()


# ----------------------------------------------------------------- clipboard, keys


def test_a_headless_machine_has_a_memory_clipboard() -> None:
    m = Machine(headless=True)
    assert isinstance(m.clipboard, MemoryClipboard)
    m.clipboard.put_text("ABCDE 12345")
    assert m.clipboard.get_text() == "ABCDE 12345"
    m.close()


def test_the_system_clipboard_reports_failures_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def fail(*_: object) -> None:
        raise pygame.error("video system not initialized")

    monkeypatch.setattr(pygame.scrap, "put_text", fail)
    monkeypatch.setattr(pygame.scrap, "has_text", fail)
    with pytest.raises(ClipboardError, match="cannot copy"):
        SystemClipboard().put_text("x")
    with pytest.raises(ClipboardError, match="cannot read"):
        SystemClipboard().get_text()


def test_ctrl_c_and_ctrl_v_are_edit_keys_not_buttons() -> None:
    inp = Input()
    inp.key_down(pygame.K_c, pygame.KMOD_LCTRL)
    inp.key_down(pygame.K_v, pygame.KMOD_LMETA)
    inp.key_down(pygame.K_v)  # without Ctrl: an ordinary key
    inp.edit_key("paste")
    assert inp.edit_keys() == ["copy", "paste", "paste"]
    assert inp.edit_keys() == []
    with pytest.raises(ValueError, match="edit key"):
        inp.edit_key("cut")


def test_edit_keys_arrive_through_the_event_queue() -> None:
    m = Machine(headless=True)
    pygame.display.init()
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_c, mod=pygame.KMOD_CTRL))
    m.vsync()
    assert m.edit_keys() == ["copy"]
    m.close()


def test_the_worker_protocol_answers_every_request_even_a_garbled_one(tmp_path: Path) -> None:
    import io

    import petitcom_shim.qr_reader as qr_reader

    picture = qr.encode_image(b"pic", module_px=3)
    requests = (
        qr_reader._request(code_file(tmp_path, b"path"))
        + qr_reader._request(picture)
        + qr_reader._HEADER.pack(b"I", 3)
        + b"\x09ab"  # a picture request cut short
        + qr_reader._request(b"not an image")
    )
    answers = io.BytesIO()
    qr_reader._serve(io.BytesIO(requests), answers)
    stream = io.BytesIO(answers.getvalue())
    replies = []
    while stream.tell() < len(answers.getvalue()):
        status, length = qr_reader._HEADER.unpack(stream.read(qr_reader._HEADER.size))
        replies.append((status, stream.read(length)))
    assert replies[0] == (b"+", b"path")
    assert replies[1] == (b"+", b"pic")
    assert replies[2][0] == b"-" and b"bad request" in replies[2][1]
    assert replies[3][0] == b"-" and b"<bytes>" in replies[3][1]
