"""Captures to share: a PNG of both screens, and both screens as an animated GIF or PNG.

:class:`Animation` collects frames of both screens stacked (256x384, the top
screen above the lower one) and writes them with Pillow: a GIF for a ``.gif``
name, an animated PNG (APNG) for ``.png``/``.apng``. It keeps every second
frame (30 a second: a GIF cannot time 1/60 s), merges frames that did not
change into one longer frame, and holds them zlib-compressed, up to
:data:`MAX_SECONDS` of capture, :data:`MAX_BYTES` held or :data:`MAX_DISTINCT`
different frames, whichever comes first.

:class:`Capturer` stands in front of a machine's front-end (as the scripted
input does): headless it feeds an :class:`Animation` from the first frame
(``petitcom run --headless --capture FILE``); in a window it adds two keys
(:data:`STILL_KEY` saves a PNG, :data:`ANIMATION_KEY` starts and stops an
animation) and draws a red dot on the top screen while it records. Only the
machine's public API is used: ``screen_surface`` for the frames and
``input.host_keys`` for the keys.
"""

from __future__ import annotations

import datetime
import io
import zlib
from collections.abc import Callable
from pathlib import Path

import pygame

from petitcom_shim import files
from petitcom_shim.input import Input
from petitcom_shim.inputscript import FrontendStandIn
from petitcom_shim.machine import MAINCNTL_WRAP, SCREEN_H, SCREEN_W, Machine

__all__ = [
    "ANIMATION_KEY",
    "MAX_BYTES",
    "MAX_DISTINCT",
    "MAX_SECONDS",
    "STILL_KEY",
    "Animation",
    "Capturer",
    "animation_kind",
    "both_screens",
]

#: The key that saves a PNG of both screens (with Shift: at the window's scale): F12.
STILL_KEY = pygame.K_F12
#: The key that starts and stops recording both screens as an animated GIF: F10.
ANIMATION_KEY = pygame.K_F10
#: Frames of the handheld per captured frame (60 / 2 = 30 captured a second).
EVERY = 2
#: The longest animation, in seconds of the handheld's frames.
MAX_SECONDS = 30
#: The most compressed frame data an animation holds before it stops by itself.
MAX_BYTES = 16 * 1024 * 1024
#: The most different frames it holds (each is 288 KB of RGB while the file is
#: written, so this bounds the memory that takes).
MAX_DISTINCT = 240
_SIZE = (SCREEN_W, SCREEN_H * 2)
_RED = (230, 30, 30)


def both_screens(machine: Machine, scale: int = 1) -> pygame.Surface:
    """Both screens stacked (the top one above), at a whole-number scale."""
    image = pygame.Surface(_SIZE)
    image.blit(machine.screen_surface(0), (0, 0))
    image.blit(machine.screen_surface(1), (0, SCREEN_H))
    if scale > 1:
        image = pygame.transform.scale(image, (_SIZE[0] * scale, _SIZE[1] * scale))
    return image


class Animation:
    """Frames of both screens on their way to an animated GIF or PNG.

    Args:
        max_seconds: stop taking frames after this long (handheld frames / 60).
        max_bytes: stop taking frames once this much compressed data is held.
    """

    def __init__(self, max_seconds: float = MAX_SECONDS, max_bytes: int = MAX_BYTES) -> None:
        self.max_frames = int(max_seconds * 60 / EVERY)
        self.max_bytes = max_bytes
        self._frames: list[tuple[bytes, int]] = []  # compressed RGB, captured frames it lasts
        self._last = b""
        self.taken = 0
        self.held = 0
        self.full = False

    def add(self, image: pygame.Surface) -> bool:
        """Take a 256x384 frame; False (and nothing taken) once the cap is reached."""
        if self.full or self.taken >= self.max_frames:
            self.full = True
            return False
        raw = pygame.image.tobytes(image, "RGB")
        self.taken += 1
        if raw == self._last and self._frames:
            packed, count = self._frames[-1]
            self._frames[-1] = (packed, count + 1)
            return True
        packed = zlib.compress(raw, 1)
        if self.held + len(packed) > self.max_bytes or len(self._frames) >= MAX_DISTINCT:
            self.full = True
            return False
        self._last = raw
        self._frames.append((packed, 1))
        self.held += len(packed)
        return True

    @property
    def seconds(self) -> float:
        """How long the animation lasts."""
        return self.taken * EVERY / 60

    def encode(self, kind: str) -> bytes:
        """The animation as "gif" or "png" (APNG) bytes.

        Raises:
            ValueError: no frame was taken.
        """
        if not self._frames:
            raise ValueError("no frame to write")
        from PIL import Image  # only here: nothing on petitcom's start-up path imports PIL

        images = [Image.frombytes("RGB", _SIZE, zlib.decompress(p)) for p, _ in self._frames]
        # Durations on a 1/30 s grid, rounded to what the format can time (GIF: 10 ms).
        unit = 10 if kind == "gif" else 1
        durations, at = [], 0
        for _, count in self._frames:
            end = at + count
            ms = (
                round(end * 1000 * EVERY / 60 / unit) * unit
                - round(at * 1000 * EVERY / 60 / unit) * unit
            )
            durations.append(max(ms, unit))
            at = end
        buffer = io.BytesIO()
        options = {"optimize": False} if kind == "gif" else {}
        images[0].save(
            buffer,
            format="GIF" if kind == "gif" else "PNG",
            save_all=True,
            append_images=images[1:],
            duration=durations,
            loop=0,
            **options,
        )
        return buffer.getvalue()


def animation_kind(path: Path) -> str | None:
    """ "gif" or "png" from a capture file's name, or None for another suffix."""
    suffix = path.suffix.lower()
    return "gif" if suffix == ".gif" else "png" if suffix in (".png", ".apng") else None


class Capturer(FrontendStandIn):
    """Takes captures of a machine's screens, frame by frame, in front of its front-end.

    Args:
        folder: where the keys' captures go (named ``petitcom-YYYYMMDD-HHMMSS``).
        say: where to report a capture written (one line).
        keys: add :data:`STILL_KEY` and :data:`ANIMATION_KEY` (a window).
    """

    def __init__(self, folder: Path, say: Callable[[str], None], *, keys: bool = True) -> None:
        super().__init__()
        self.folder = folder
        self.say = say
        self.keys = keys
        self.animation: Animation | None = None
        self._last_frame = -1
        self._clean = False  # the REC sign was drawn and must be drawn over

    def attach(self, machine: Machine) -> None:
        """Take the place of ``machine.frontend``; in a window, take the capture keys."""
        self._take_place(machine)
        if self.keys:
            machine.input.host_keys[STILL_KEY] = self._still
            machine.input.host_keys[ANIMATION_KEY] = lambda mod: self.toggle()

    def start(self) -> None:
        """Start recording an animation (from the next frame)."""
        self.animation = Animation()
        self._last_frame = -1

    def _grab(self) -> None:
        assert self._machine is not None and self.animation is not None
        m = self._machine
        frame = m.maincnth * MAINCNTL_WRAP + m.maincntl
        if frame == self._last_frame or frame % EVERY:
            return  # a pump between frames (a busy loop in a window), or a frame skipped
        self._last_frame = frame
        if not self.animation.add(both_screens(m)) and self.keys:
            self.say(
                f"capture: the cap was reached ({MAX_SECONDS} s, {MAX_DISTINCT} different "
                f"frames or {MAX_BYTES >> 20} MB of them)"
            )
            self.toggle()

    def pump(self, inp: Input) -> bool:
        """Take a frame of the running animation, then pump the real front-end."""
        assert self._inner is not None
        if self.animation is not None:
            self._grab()
        return self._inner.pump(inp)

    def present(
        self,
        top: pygame.Surface,
        bottom: pygame.Surface,
        *,
        changed: tuple[bool, bool] = (True, True),
    ) -> None:
        """Show the frame, with a red dot in the top screen's corner while recording."""
        assert self._inner is not None
        if self.animation is not None:
            top = top.copy()
            pygame.draw.circle(top, _RED, (SCREEN_W - 8, 8), 5)
            changed, self._clean = (True, changed[1]), True
        elif self._clean:
            changed, self._clean = (True, changed[1]), False
        self._inner.present(top, bottom, changed=changed)

    def finish(self) -> Animation | None:
        """Stop recording and hand back the animation (with the last frame added)."""
        animation, self.animation = self.animation, None
        if animation is not None and self._machine is not None and not animation.full:
            animation.add(both_screens(self._machine))
        return animation

    def toggle(self) -> None:
        """The animation key: start recording, or stop and write the GIF."""
        if self.animation is None:
            self.start()
            self.say("capture: recording both screens (press F10 again to stop)")
            return
        animation = self.finish()
        assert animation is not None
        self._write(animation.encode("gif"), "gif", f", {animation.seconds:.1f} s")

    def _still(self, mod: int) -> None:
        assert self._machine is not None
        scale = 1
        if mod & pygame.KMOD_SHIFT:  # the window's scale: the largest that fits its size
            width, height = pygame.display.get_window_size() if pygame.display.get_init() else _SIZE
            scale = max(1, min(width // _SIZE[0], height // _SIZE[1]))
        buffer = io.BytesIO()
        pygame.image.save(both_screens(self._machine, scale), buffer, "capture.png")
        self._write(buffer.getvalue(), "png", "")

    def _write(self, data: bytes, suffix: str, note: str) -> None:
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        path = self.folder / f"petitcom-{stamp}.{suffix}"
        number = 1
        while path.exists():
            number += 1
            path = self.folder / f"petitcom-{stamp}-{number}.{suffix}"
        try:
            files.write_output(path, data)
        except OSError as err:
            self.say(f"capture: {path} not written: {err}")
            return
        self.say(f"capture: {path} ({len(data) // 1024} KB{note})")
