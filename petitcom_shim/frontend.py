"""What the machine needs from a display, and the headless front-end.

:func:`headless_frontend` makes the :class:`HeadlessFrontend` of a machine without
a window. Windows (the layouts, pointer mapping and
:func:`~petitcom_shim.display.create_frontend`) are in :mod:`petitcom_shim.display`,
which a machine imports only when it opens one, so a headless run does not load
it; that module gives the names here too.
"""

from __future__ import annotations

from typing import Final, Protocol

import pygame

from petitcom_shim.config import ShimConfig
from petitcom_shim.input import Input

__all__ = [
    "LAYOUTS",
    "MAX_SCALE",
    "SCREEN_H",
    "SCREEN_W",
    "Frontend",
    "HeadlessFrontend",
    "content_size",
    "headless_frontend",
]

SCREEN_W: Final = 256
"""Width of one DS screen in DS pixels."""

SCREEN_H: Final = 192
"""Height of one DS screen in DS pixels."""

LAYOUTS: Final = ("vertical", "horizontal", "single", "separate")
"""Layout names accepted by :func:`~petitcom_shim.display.create_frontend`."""

MAX_SCALE: Final = 6
"""Largest scale a window is opened at; fullscreen may scale further to fill a monitor."""


def content_size(layout: str, gap: int = 0) -> tuple[int, int]:
    """Size in DS pixels of what one window of ``layout`` shows (both screens and the gap)."""
    if layout == "vertical":
        return (SCREEN_W, 2 * SCREEN_H + gap)
    if layout == "horizontal":
        return (2 * SCREEN_W + gap, SCREEN_H)
    if layout in ("single", "separate"):
        return (SCREEN_W, SCREEN_H)
    raise ValueError(f"unknown layout {layout!r} (expected one of {', '.join(LAYOUTS)})")


class Frontend(Protocol):
    """What the machine needs from a display: pump events into Input, show frames, close."""

    def pump(self, inp: Input) -> bool:
        """Handle all pending pygame events, feeding ``inp``; False once the window was closed."""
        ...

    def present(
        self,
        top: pygame.Surface,
        bottom: pygame.Surface,
        *,
        changed: tuple[bool, bool] = (True, True),
    ) -> None:
        """Show one composed 256x192 frame per screen.

        ``changed`` says which screens differ from the frames presented before;
        a window showing none of them need not be presented again.
        """
        ...

    def close(self) -> None:
        """Close the windows; later pumps return False."""
        ...


def _feed_common(event: pygame.event.Event, inp: Input) -> bool | None:
    """Events every front-end handles alike. Returns False on quit, True if handled, else None."""
    kind = event.type
    if kind == pygame.QUIT:
        return False
    if kind == pygame.KEYDOWN:
        inp.key_down(int(event.key), int(getattr(event, "mod", 0)))
    elif kind == pygame.KEYUP:
        inp.key_up(int(event.key))
    elif kind == pygame.DROPFILE:
        inp.drop_file(str(event.file))
    elif kind == pygame.TEXTINPUT:
        inp.type_text(str(event.text))
    elif kind == pygame.WINDOWFOCUSLOST:
        inp.release_all()
    elif not inp.handle_pad_event(event):
        return None
    return True


class HeadlessFrontend:
    """A front-end with no window, for tests, step mode and servers.

    ``pump`` drains pygame's event queue when the display module is initialised
    (so posted key, pad and drop events still reach the input) and otherwise
    does nothing; ``present`` only counts frames.

    Attributes:
        frames: number of frames presented.
    """

    def __init__(self, config: ShimConfig | None = None) -> None:
        self.config = config if config is not None else ShimConfig()
        self.frames = 0
        self._closed = False

    def pump(self, inp: Input) -> bool:
        """Feed queued key/pad/drop events to ``inp``; False after QUIT or :meth:`close`."""
        if not pygame.display.get_init():
            return not self._closed
        for event in pygame.event.get():
            if _feed_common(event, inp) is False and not self.config.ignore_close:
                self._closed = True
        return not self._closed

    def present(
        self,
        top: pygame.Surface,
        bottom: pygame.Surface,
        *,
        changed: tuple[bool, bool] = (True, True),
    ) -> None:
        """Count the frame; nothing is drawn."""
        self.frames += 1

    def close(self) -> None:
        """Mark the front-end closed."""
        self._closed = True


def headless_frontend(
    *, layout: str = "vertical", scale: int = 0, gap: int = 0, config: ShimConfig | None = None
) -> HeadlessFrontend:
    """The front-end of a headless machine, after the same checks of the window
    arguments as a window makes (:func:`petitcom_shim.display.create_frontend`).

    Raises:
        ValueError: unknown layout, scale outside 0..6 or a negative gap.
    """
    content_size(layout, gap)  # same argument checks as a window
    if not 0 <= scale <= MAX_SCALE or gap < 0:
        raise ValueError(f"bad scale {scale} or gap {gap}")
    return HeadlessFrontend(config)
