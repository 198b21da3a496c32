"""Reading QR images off the frame loop: one worker thread, one image at a time.

Decoding one image can take a large part of a second (a 40-megapixel photo with
no code in it: about 2-3 s on a slow machine), while a frame has 16 ms. A program
hands images to a :class:`QRReader` and collects the results on a later frame, so
the loop keeps drawing (and can show "reading...") whatever arrives.

The queue is bounded: a flood of dropped files is refused beyond ``capacity``
with a result that says so, never buffered without end. Every result is a
:class:`Reading` holding either the payload or a one-line reason; nothing the
decoder raises can reach the loop.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from petitcom_shim.qr import ImageSource, QRError, decode_image

__all__ = ["DEFAULT_CAPACITY", "QRReader", "Reading"]

#: Images that may wait for the worker at once; more are refused with a Reading.
DEFAULT_CAPACITY = 8

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
        return Reading(name, None, " ".join(str(err).split()), tag)
    except Exception as err:  # the loop must survive even a decoder bug
        return Reading(name, None, f"{name}: cannot read image ({type(err).__name__})", tag)
    return Reading(name, payload, None, tag)


class QRReader:
    """Decode QR images on a worker thread; collect the results each frame.

    Args:
        capacity: how many images may wait at once.
        threaded: False decodes inside :meth:`submit` (deterministic tests, tools).
        decode: the decoder (default :func:`petitcom_shim.qr.decode_image`).
    """

    def __init__(
        self,
        *,
        capacity: int = DEFAULT_CAPACITY,
        threaded: bool = True,
        decode: Decoder = decode_image,
    ) -> None:
        self.capacity = capacity
        self.threaded = threaded
        self._decode = decode
        self._jobs: queue.Queue[tuple[ImageSource, object]] = queue.Queue(capacity)
        self._done: list[Reading] = []
        self._lock = threading.Lock()
        self._pending = 0  # submitted and not yet collected as a result
        self._idle = threading.Condition(self._lock)
        self._thread: threading.Thread | None = None
        self._closed = False

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
        with self._lock:
            self._pending += 1
        if not self.threaded:
            self._finish(_read(self._decode, source, tag))
            return True
        with self._lock:
            if not self._closed:
                try:
                    self._jobs.put_nowait((source, tag))
                except queue.Full:
                    pass
                else:
                    if self._thread is None:
                        # The worker lives only while there is work: no thread lingers
                        # between images or at exit.
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
        """Stop reading: images still waiting are dropped (each gives a failed reading)."""
        dropped: list[tuple[ImageSource, object]] = []
        with self._lock:
            self._closed = True
            while True:
                try:
                    dropped.append(self._jobs.get_nowait())
                except queue.Empty:
                    break
        for source, tag in dropped:
            name = _name(source)
            self._finish(Reading(name, None, f"{name}: not read, the reader closed", tag))

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
                    return
            self._finish(_read(self._decode, source, tag))
