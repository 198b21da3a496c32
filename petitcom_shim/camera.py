"""A camera as a source of pictures, for scanning QR codes as the DSi did.

The DSi's Petit Computer read QR codes through its camera. Here a
:class:`Camera` gives the newest picture from a pluggable backend:

- :class:`PygameCamera`: ``pygame.camera`` from pygame-ce, which is already a
  dependency (V4L2 on Linux, Media Foundation on Windows, and OpenCV where it is
  installed). OpenCV alone would add a package of tens of megabytes for the
  same frames, so it is only used through pygame's own fallback.
- :class:`FakeCamera`: plays back a list of pictures, for tests and demos.

Pictures are only *taken* here (cheap: a copy of the newest frame). Decoding them
is the job of :class:`petitcom_shim.qr_reader.QRReader` in its worker process, and
:class:`Scanner` ties the two so that a frame loop never waits on either.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from typing import Protocol

import numpy as np
import numpy.typing as npt
from PIL import Image

from petitcom_shim.errors import PetitcomError
from petitcom_shim.qr_reader import QRReader, Reading

__all__ = [
    "Camera",
    "CameraBackend",
    "FakeCamera",
    "NoCamera",
    "PygameCamera",
    "Scanner",
    "open_camera",
    "preview_indices",
]

#: Size asked of a real camera: plenty for a QR code held up to it, cheap to decode.
CAMERA_SIZE = (640, 480)


class NoCamera(PetitcomError):
    """No camera can be used here; the message says why, in one line."""


class CameraBackend(Protocol):
    """What :class:`Camera` needs from a device."""

    def start(self) -> None:
        """Start capturing (may raise NoCamera)."""

    def latest(self) -> Image.Image | None:
        """The newest picture if a new one is ready, else None; never blocks."""

    def stop(self) -> None:
        """Stop capturing and let the device go."""


class FakeCamera:
    """A camera that plays back pictures: one new picture every ``every`` calls.

    After the last picture it keeps showing it (``loop=False``) or starts over.

    Args:
        pictures: Pillow images, or paths of image files.
        every: calls to :meth:`latest` per picture (1 = a new picture each call).
        loop: start over after the last picture.
    """

    def __init__(
        self,
        pictures: Iterable[Image.Image | str | os.PathLike[str]],
        *,
        every: int = 1,
        loop: bool = False,
    ) -> None:
        self.pictures = [p if isinstance(p, Image.Image) else Image.open(p) for p in pictures]
        if not self.pictures:
            raise NoCamera("the fake camera has no pictures")
        self.every = max(1, every)
        self.loop = loop
        self.started = False
        self._calls = 0

    def start(self) -> None:
        """Start playing back from the first picture."""
        self.started = True
        self._calls = 0

    def latest(self) -> Image.Image | None:
        """The next picture every ``every`` calls, else None."""
        if not self.started:
            return None
        call = self._calls
        self._calls += 1
        if call % self.every:
            return None
        index = call // self.every
        if index >= len(self.pictures):
            if not self.loop:
                return None
            index %= len(self.pictures)
        return self.pictures[index]

    def stop(self) -> None:
        """Stop playing back."""
        self.started = False


class PygameCamera:
    """The first camera ``pygame.camera`` finds (or ``device``)."""

    def __init__(
        self, device: str | int | None = None, size: tuple[int, int] = CAMERA_SIZE
    ) -> None:
        self.device = device
        self.size = size
        self._camera: object | None = None

    def start(self) -> None:
        """Open the device and start capturing.

        Raises:
            NoCamera: pygame has no camera backend here, or finds no camera, or it
                cannot be opened.
        """
        import pygame
        import pygame.camera

        try:
            pygame.camera.init()
            found = pygame.camera.list_cameras()
        except Exception as err:  # no backend here: ImportError, pygame.error, OSError...
            raise NoCamera(f"no camera support here ({type(err).__name__}: {err})") from err
        if not found and self.device is None:
            raise NoCamera("no camera found")
        device = found[0] if self.device is None else self.device
        try:
            camera = pygame.camera.Camera(device, self.size)
            camera.start()
        except Exception as err:  # a busy or vanished device
            raise NoCamera(f"cannot open the camera {device} ({err})") from err
        self._camera = camera

    def latest(self) -> Image.Image | None:
        """The newest frame if one is ready (``query_image``), else None."""
        import pygame

        camera = self._camera
        if camera is None:
            return None
        try:
            if not camera.query_image():  # type: ignore[attr-defined]
                return None
            surface = camera.get_image()  # type: ignore[attr-defined]
        except Exception:  # unplugged while running: no more pictures
            return None
        data = pygame.image.tobytes(surface, "RGB")
        return Image.frombytes("RGB", surface.get_size(), data)

    def stop(self) -> None:
        """Stop capturing and release the device."""
        camera, self._camera = self._camera, None
        if camera is not None:
            with contextlib.suppress(Exception):  # already gone
                camera.stop()  # type: ignore[attr-defined]


class Camera:
    """A started camera: the newest picture, for a preview and for scanning.

    Args:
        backend: where pictures come from.
    """

    def __init__(self, backend: CameraBackend) -> None:
        self.backend = backend
        self.picture: Image.Image | None = None
        """The newest picture taken (kept for the preview)."""
        backend.start()

    def poll(self) -> Image.Image | None:
        """Take the newest picture if there is a new one (it becomes :attr:`picture`)."""
        picture = self.backend.latest()
        if picture is not None:
            self.picture = picture
        return picture

    def close(self) -> None:
        """Let the device go."""
        self.backend.stop()


def open_camera(backend: CameraBackend | None = None) -> Camera:
    """Start ``backend`` (default: the first real camera through pygame.camera).

    Raises:
        NoCamera: there is no usable camera; the message says why.
    """
    return Camera(backend if backend is not None else PygameCamera())


class Scanner:
    """Scan a camera for QR codes without ever blocking the caller.

    Each :meth:`poll` takes the newest picture and, when the reader is not busy
    with an earlier one, hands it over; pictures that arrive meanwhile only
    update the preview. Failed readings of camera pictures are the normal case
    (no code in view yet) and are not reported; only payloads are.

    Args:
        camera: a started camera.
        reader: the QR reader (default: a threaded one of its own).
    """

    def __init__(self, camera: Camera, reader: QRReader | None = None) -> None:
        self.camera = camera
        self.reader = reader if reader is not None else QRReader(capacity=1)
        self._own_reader = reader is None

    def poll(self) -> list[bytes]:
        """Take a picture, maybe start reading it; the payloads read since the last call."""
        picture = self.camera.poll()
        if picture is not None and not self.reader.busy:
            self.reader.submit(picture, tag=self)
        found: list[Reading] = self.reader.results()
        return [r.payload for r in found if r.payload is not None]

    def close(self) -> None:
        """Stop the camera (and the reader, if it is this scanner's own)."""
        self.camera.close()
        if self._own_reader:
            self.reader.close()


def preview_indices(
    picture: Image.Image, size: tuple[int, int], first: int, levels: int
) -> npt.NDArray[np.uint8]:
    """A picture as GRP colour indices for a live preview: ``levels`` greys from ``first``.

    The picture is scaled to fit ``size`` (width, height), keeping its shape; the
    rest is the darkest grey. Use with ``Machine.gload`` and a palette whose entries
    ``first .. first + levels - 1`` run from black to white.
    """
    width, height = size
    grey = picture.convert("L")
    grey.thumbnail((width, height), Image.Resampling.BILINEAR)
    out = np.full((height, width), first, dtype=np.uint8)
    pixels = np.asarray(grey, dtype=np.uint16) * levels // 256
    top, left = (height - grey.height) // 2, (width - grey.width) // 2
    out[top : top + grey.height, left : left + grey.width] = (pixels + first).astype(np.uint8)
    return out
