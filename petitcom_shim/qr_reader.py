"""Reading QR images off the frame loop: one image at a time, in a worker process.

Decoding one image can take seconds (a 40-megapixel photo with no code in it:
about 3 s on an idle slow machine, 9 s on a loaded one), while a frame has 16 ms.
A program hands images to a :class:`QRReader` and collects the results on a later
frame, so the loop keeps drawing (and can show "reading...") whatever arrives.

Why a process and not just a thread: some Pillow filters hold Python's global
interpreter lock for their whole run (a median filter on a 2400-pixel image held
it for 1.3 s in tools/bench_remote_io.py), which would freeze a frame loop in the
same process for that long. In a process of its own the decoder cannot touch the
loop at all, and an image that takes longer than :data:`TIME_LIMIT` (or crashes a
decoder library) only costs that process, which is replaced.

A thread of the caller's process feeds the worker and waits for it (waiting
releases the lock). The queue is bounded: a flood of dropped files is refused
beyond ``capacity`` with a result that says so, never buffered without end. Every
result is a :class:`Reading` holding either the payload or a one-line reason;
nothing the decoder raises can reach the loop.
"""

from __future__ import annotations

import contextlib
import os
import queue
import struct
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from PIL import Image

from petitcom_shim.qr import ImageSource, QRError, decode_image

__all__ = ["DEFAULT_CAPACITY", "QRReader", "Reading"]

#: Images that may wait for the worker at once; more are refused with a Reading.
DEFAULT_CAPACITY = 8
#: Seconds one image may take in the worker process before the process is stopped and
#: the image refused. The header checks of decode_image keep real images far below
#: this; it bounds what they cannot foresee.
TIME_LIMIT = 30.0
#: Seconds the worker process may take to start (import Pillow, numpy, zxing...) on a
#: busy machine before it is given up for this image.
START_LIMIT = 120.0

Decoder = Callable[[ImageSource], bytes]


@dataclass(frozen=True)
class Reading:
    """What one image gave: its payload, or why it gave none.

    Attributes:
        name: the file name (without folders), or "<image>" for a picture.
        payload: the QR code's bytes; None on failure.
        error: a one-line reason (it names the file); None on success.
        tag: whatever the caller passed to :meth:`QRReader.submit` with the image.
    """

    name: str
    payload: bytes | None
    error: str | None
    tag: object = None


def _name(source: ImageSource) -> str:
    if isinstance(source, str | os.PathLike):
        return Path(os.fsdecode(source)).name
    return "<image>"


def _read(decode: Decoder, source: ImageSource, tag: object) -> Reading:
    name = _name(source)
    try:
        payload = decode(source)
    except QRError as err:
        text = " ".join(str(err).split())
        if isinstance(source, str | os.PathLike):  # name the file, not its folders: the
            full = " ".join(os.fsdecode(source).split())  # reason must fit a small panel
            text = name + text[len(full) :] if text.startswith(full + ":") else text
        return Reading(name, None, text, tag)
    except Exception as err:  # the loop must survive even a decoder bug
        return Reading(name, None, f"{name}: cannot read image ({type(err).__name__})", tag)
    return Reading(name, payload, None, tag)


# The worker is this module run as a program, talking over its stdin and stdout:
#   request:  kind (1 byte: P path, B file bytes, I raw picture) | length u32 | body
#   answer:   status (1 byte: + payload, - one-line error)      | length u32 | body
# A picture's body is: mode length u8 | mode | width u32 | height u32 | pixels.
# Not multiprocessing: its "spawn" start runs the parent's main script again in the
# child, and a launcher without an ``if __name__ == "__main__"`` guard would then
# start a second game there.
_HEADER = struct.Struct(">cI")
_READY = b"R"  # the worker's first byte, once it has imported everything
_SIZE = struct.Struct(">II")


def _request(source: ImageSource) -> bytes:
    if isinstance(source, Image.Image):
        mode = source.mode.encode()
        body = bytes([len(mode)]) + mode + _SIZE.pack(*source.size) + source.tobytes()
        return _HEADER.pack(b"I", len(body)) + body
    if isinstance(source, str | os.PathLike):
        body = os.fsencode(source)
        return _HEADER.pack(b"P", len(body)) + body
    body = bytes(source)
    return _HEADER.pack(b"B", len(body)) + body


def _source_from(kind: bytes, body: bytes) -> ImageSource:
    if kind == b"P":
        return os.fsdecode(body)
    if kind == b"I":
        size = body[0]
        mode = body[1 : 1 + size].decode()
        width, height = _SIZE.unpack_from(body, 1 + size)
        return Image.frombytes(mode, (width, height), body[1 + size + _SIZE.size :])
    return body


def _read_exactly(stream: IO[bytes], count: int) -> bytes:
    data = b""
    while len(data) < count:
        chunk = stream.read(count - len(data))
        if not chunk:
            raise EOFError("the other side closed the pipe")
        data += chunk
    return data


def _serve(requests: IO[bytes], answers: IO[bytes]) -> None:
    """The worker: read each image asked for and answer, until the pipe closes."""
    while True:
        try:
            kind, length = _HEADER.unpack(_read_exactly(requests, _HEADER.size))
            body = _read_exactly(requests, length)
        except EOFError:
            return
        try:
            source = _source_from(kind, body)
        except Exception as err:  # a garbled request: say so, keep serving
            reading = Reading("<image>", None, f"<image>: bad request ({type(err).__name__})")
        else:
            reading = _read(decode_image, source, None)
        if reading.payload is not None:
            answer = _HEADER.pack(b"+", len(reading.payload)) + reading.payload
        else:
            text = (reading.error or "").encode("utf-8", "replace")
            answer = _HEADER.pack(b"-", len(text)) + text
        answers.write(answer)
        answers.flush()


def _worker_env() -> dict[str, str]:
    """The environment for the worker: this package importable whatever the caller did
    to sys.path, and pygame quiet."""
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    env["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    return env


def _stop_process(process: subprocess.Popen[bytes], timed_out: threading.Event) -> None:
    """The watchdog: an image took too long; stop the worker (the read then ends)."""
    timed_out.set()
    process.kill()


class _Worker:
    """One worker process and the pipes to it (started on first use, replaced on failure)."""

    def __init__(self) -> None:
        self._process: subprocess.Popen[bytes] | None = None

    def read(self, source: ImageSource, tag: object) -> Reading:
        name = _name(source)
        request = _request(source)
        for _attempt in range(2):  # a worker that died between images is replaced once
            try:
                process = self._start()
            except (EOFError, OSError):  # could not start (or not within START_LIMIT)
                self.stop()
                continue
            assert process.stdin is not None and process.stdout is not None
            timed_out = threading.Event()
            watchdog = threading.Timer(TIME_LIMIT, _stop_process, (process, timed_out))
            watchdog.daemon = True
            watchdog.start()
            try:
                process.stdin.write(request)
                process.stdin.flush()
                status, length = _HEADER.unpack(_read_exactly(process.stdout, _HEADER.size))
                body = _read_exactly(process.stdout, length)
            except (EOFError, OSError, struct.error):
                self.stop()
                if timed_out.is_set():
                    return Reading(
                        name, None, f"{name}: took over {TIME_LIMIT:g} s to read; refused", tag
                    )
                continue
            finally:
                watchdog.cancel()
            if status == b"+":
                return Reading(name, body, None, tag)
            return Reading(name, None, body.decode("utf-8", "replace"), tag)
        return Reading(name, None, f"{name}: the image reader stopped while reading it", tag)

    def _start(self) -> subprocess.Popen[bytes]:
        process = self._process
        if process is None or process.poll() is not None:
            self.stop()
            process = subprocess.Popen(
                [sys.executable, "-m", "petitcom_shim.qr_reader"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=_worker_env(),
            )
            self._process = process
            assert process.stdout is not None
            started = threading.Event()
            watchdog = threading.Timer(START_LIMIT, _stop_process, (process, started))
            watchdog.daemon = True
            watchdog.start()
            try:
                if _read_exactly(process.stdout, len(_READY)) != _READY:
                    raise EOFError("the image reader did not start")
            finally:
                watchdog.cancel()
        return process

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            process.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(5)  # reaped now, or by the next poll if the machine is slow
            for stream in (process.stdin, process.stdout):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid


class QRReader:
    """Decode QR images in a worker process; collect the results each frame.

    Args:
        capacity: how many images may wait at once.
        threaded: False decodes inside :meth:`submit`, in this process (deterministic
            tests, tools).
        decode: a decoder to run on a thread of this process instead of the worker
            process (tests use slow or failing ones); None = ``decode_image`` in the
            worker process.
    """

    def __init__(
        self,
        *,
        capacity: int = DEFAULT_CAPACITY,
        threaded: bool = True,
        decode: Decoder | None = None,
    ) -> None:
        self.capacity = capacity
        self.threaded = threaded
        self._decode = decode
        self._worker = _Worker()
        self._jobs: queue.Queue[tuple[ImageSource, object]] = queue.Queue(capacity)
        self._done: list[Reading] = []
        self._lock = threading.Lock()
        self._pending = 0  # submitted and not yet collected as a result
        self._idle = threading.Condition(self._lock)
        self._thread: threading.Thread | None = None
        self._closed = False

    @property
    def worker_pid(self) -> int | None:
        """The worker process's id while it runs (None before the first image)."""
        return self._worker.pid

    @property
    def busy(self) -> bool:
        """True while an image is waiting or being read (show "reading...")."""
        with self._lock:
            return self._pending > len(self._done)

    def submit(self, source: ImageSource, tag: object = None) -> bool:
        """Queue an image (a path, file bytes or a Pillow image) to be read.

        Returns:
            True if queued; False if the queue was full or the reader closed, in which
            case a failed :class:`Reading` saying so is among the next results.
        """
        if isinstance(source, Image.Image):
            source = source.copy()  # the caller may draw on or close its picture
        elif isinstance(source, bytearray | memoryview):
            source = bytes(source)  # what the caller does with its buffer is its own
        with self._lock:
            self._pending += 1
        if not self.threaded:
            self._finish(_read(self._decode or decode_image, source, tag))
            return True
        with self._lock:
            if not self._closed:
                try:
                    self._jobs.put_nowait((source, tag))
                except queue.Full:
                    pass
                else:
                    if self._thread is None:
                        # The feeding thread lives only while there is work: no thread
                        # lingers between images or at exit.
                        self._thread = threading.Thread(
                            target=self._work, name="qr-reader", daemon=True
                        )
                        self._thread.start()
                    return True
        name = _name(source)
        reason = "the reader is closed" if self._closed else "too many images at once"
        self._finish(Reading(name, None, f"{name}: not read, {reason}; try it again", tag))
        return False

    def results(self) -> list[Reading]:
        """The readings finished since the last call, oldest first (never blocks)."""
        with self._lock:
            out, self._done = self._done, []
            self._pending -= len(out)
            return out

    def wait(self, timeout: float) -> bool:
        """Block until nothing is waiting or being read, or ``timeout`` seconds passed.

        For tests and tools; a frame loop polls :attr:`busy` instead.

        Returns:
            True if the reader is idle.
        """
        with self._idle:
            return self._idle.wait_for(lambda: self._pending <= len(self._done), timeout)

    def close(self) -> None:
        """Stop reading: images still waiting are dropped (each gives a failed reading)
        and the worker process ends once the image it is on is done."""
        dropped: list[tuple[ImageSource, object]] = []
        with self._lock:
            self._closed = True
            while True:
                try:
                    dropped.append(self._jobs.get_nowait())
                except queue.Empty:
                    break
            idle = self._thread is None
        for source, tag in dropped:
            name = _name(source)
            self._finish(Reading(name, None, f"{name}: not read, the reader closed", tag))
        if idle:
            self._worker.stop()

    def _finish(self, reading: Reading) -> None:
        with self._idle:
            self._done.append(reading)
            self._idle.notify_all()

    def _work(self) -> None:
        while True:
            with self._lock:
                try:
                    source, tag = self._jobs.get_nowait()
                except queue.Empty:
                    self._thread = None
                    if self._closed:
                        self._worker.stop()
                    return
            if self._decode is not None:
                reading = _read(self._decode, source, tag)
            else:
                try:
                    reading = self._worker.read(source, tag)
                except Exception as err:  # never lose an image: every submit gets a reading
                    name = _name(source)
                    reason = f"{name}: the image reader failed ({type(err).__name__})"
                    reading = Reading(name, None, reason, tag)
            self._finish(reading)


def _main() -> None:
    """Run as the worker: requests on stdin, answers on stdout. Anything else that
    would print is sent to stderr, so it cannot garble an answer."""
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    sys.stdout = sys.stderr
    answers.write(_READY)  # imports done: the time limit of the first image starts now
    answers.flush()
    _serve(sys.stdin.buffer, answers)


if __name__ == "__main__":
    _main()
