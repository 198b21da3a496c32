"""Windows that show the two DS screens and turn pointer events into stylus touches.

:func:`create_frontend` returns a :class:`Frontend` for one of four layouts:

* ``vertical``: one window, top screen above the bottom one with ``gap`` DS
  pixels between them, like a DS (the default);
* ``horizontal``: one window, top screen left of the bottom one;
* ``single``: one window showing one screen at a time; the swap key flips it,
  and touches count only while the bottom screen is shown;
* ``separate``: one window per screen, each on its own monitor and optionally
  fullscreen there (a two-monitor kiosk).

Screens are always drawn at an integer scale, centred, with black bars when a
window (or a fullscreen monitor) is larger than needed. Where each DS pixel
lands is decided by one pure function pair per layout (``*_to_ds`` and
``*_from_ds``), and the same functions route mouse and finger events, so the
stylus always lands on the DS pixel under the pointer.

The headless front-end opens no window; its ``present`` does nothing.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Protocol

import pygame

from petitcom_shim.config import PAD_BUTTONS, ShimConfig, key_code
from petitcom_shim.frontend import (
    LAYOUTS,
    MAX_SCALE,
    SCREEN_H,
    SCREEN_W,
    Frontend,
    HeadlessFrontend,
    content_size,
    headless_frontend,
)
from petitcom_shim.frontend import _feed_common as _feed_common
from petitcom_shim.input import Input

if TYPE_CHECKING:
    from pygame._sdl2.video import Texture

__all__ = [
    "LAYOUTS",
    "MAX_SCALE",
    "SCREEN_H",
    "SCREEN_W",
    "TITLE_BAR",
    "Frontend",
    "HeadlessFrontend",
    "Placement",
    "Viewport",
    "WindowFrontend",
    "content_size",
    "create_frontend",
    "display_origin",
    "distinct_displays",
    "draw_cursor",
    "fit_from_ds",
    "fit_scale",
    "fit_to_ds",
    "fit_viewport",
    "horizontal_from_ds",
    "horizontal_to_ds",
    "place_separate",
    "separate_from_ds",
    "separate_to_ds",
    "single_from_ds",
    "single_to_ds",
    "vertical_from_ds",
    "vertical_to_ds",
]

FALLBACK_SCALE: Final = 2
"""Window scale when scale 0 is asked for but the desktop size is unknown."""

Hit = tuple[int, int, int]
"""(screen, x, y): a DS pixel, screen 0 = top, 1 = bottom."""

Point = tuple[int, int]
"""(x, y) in window pixels."""

_MOUSE: Final = ("mouse",)
_SCALE_QUALITY: Final = "SDL_RENDER_SCALE_QUALITY"
_NO_GL_FRAMEBUFFER: Final = "SDL_FRAMEBUFFER_ACCELERATION"
FOCUS_CLICKTHROUGH: Final = "SDL_MOUSE_FOCUS_CLICKTHROUGH"
"""SDL's hint (read from the environment when a press arrives) that lets the click which
focuses a window through to the program."""
#: Window events after which a window must be drawn again even if no screen changed.
_REDRAW_EVENTS: Final = frozenset(
    {
        pygame.WINDOWEXPOSED,
        pygame.WINDOWSHOWN,
        pygame.WINDOWRESIZED,
        pygame.WINDOWSIZECHANGED,
        pygame.WINDOWMAXIMIZED,
        pygame.WINDOWRESTORED,
        pygame.WINDOWFOCUSGAINED,
        pygame.WINDOWFOCUSLOST,
        pygame.WINDOWDISPLAYCHANGED,
        pygame.VIDEOEXPOSE,
        pygame.VIDEORESIZE,
        pygame.RENDER_TARGETS_RESET,
        pygame.RENDER_DEVICE_RESET,
    }
)
#: Window events after which ``keep_fullscreen`` checks that a window still covers its monitor.
_KEEP_EVENTS: Final = frozenset(
    {pygame.WINDOWMINIMIZED, pygame.WINDOWHIDDEN, pygame.WINDOWMOVED, pygame.WINDOWSIZECHANGED}
)
_WINDOWPOS_CENTERED_DISPLAY: Final = 0x2FFF0000
_WINDOWPOS_UNDEFINED_DISPLAY: Final = 0x1FFF0000
_PROBE_SIZE: Final = 2


def _display_position(display: int, centred: bool) -> tuple[int, int]:
    """The ``position`` argument that opens a window on monitor ``display``.

    SDL spells "centred on display N" as a position value tagged with N. pygame-ce's
    ``Window`` refuses a tagged value given alone ("invalid position argument": it
    takes only the plain centred/undefined constants there) but passes a pair of
    coordinates through to SDL unchanged, so the tag goes in as the pair (x, y).
    """
    tagged = (_WINDOWPOS_CENTERED_DISPLAY if centred else _WINDOWPOS_UNDEFINED_DISPLAY) | display
    return (tagged, tagged)


def display_origin(display: int) -> tuple[int, int]:
    """Top-left desktop pixel of monitor ``display`` ((0, 0) if SDL cannot tell).

    pygame-ce does not expose SDL's display bounds, so a tiny hidden window is
    centred on the monitor and its position read back.
    """
    try:
        sizes = pygame.display.get_desktop_sizes()
        if display >= len(sizes) or pygame.display.get_num_displays() < 2:
            return (0, 0)  # a single monitor is the whole desktop
        probe = pygame.Window(
            "probe",
            (_PROBE_SIZE, _PROBE_SIZE),
            position=_display_position(display, True),
            hidden=True,
        )
    except pygame.error:
        return (0, 0)
    try:
        x, y = probe.position
    finally:
        probe.destroy()
    w, h = sizes[display]
    return (int(x) - (w - _PROBE_SIZE) // 2, int(y) - (h - _PROBE_SIZE) // 2)


def distinct_displays(first: int, second: int) -> bool:
    """Whether SDL can put one window on monitor ``first`` and another on ``second``.

    Two monitors of one X screen (xrandr) have desktop areas of their own. Two
    X screens (a "Zaphod" set-up such as ``Xvfb -screen 0 ... -screen 1 ...``) or
    mirrored monitors are listed by SDL as displays whose areas both start at
    (0, 0), and SDL 2 opens every window on the first of them; so do displays
    that do not exist.
    """
    try:
        count = pygame.display.get_num_displays()
    except pygame.error:
        return False
    if first == second or not (0 <= first < count and 0 <= second < count):
        return False
    return display_origin(first) != display_origin(second)


# ---------------------------------------------------------------------------- pure geometry


def _check_pixel(screen: int, x: int, y: int) -> None:
    if screen not in (0, 1) or not (0 <= x < SCREEN_W and 0 <= y < SCREEN_H):
        raise ValueError(f"no DS pixel ({screen}, {x}, {y})")


def _cell(p: float, origin: int, scale: int) -> int:
    """Index of the DS pixel column/row containing window coordinate ``p`` (floor division)."""
    return int((p - origin) // scale)


def _stacked_to_ds(
    along: int, across: int, length: int, breadth: int, gap: int
) -> tuple[int, int] | None:
    """(screen, position along the axis) of a DS-pixel cell in two screens placed one after
    the other along one axis (``length`` long, ``breadth`` wide, ``gap`` apart); None off both.

    The vertical layout stacks along y, the horizontal one along x.
    """
    if not 0 <= across < breadth:
        return None
    if 0 <= along < length:
        return (0, along)
    along -= length + gap
    if 0 <= along < length:
        return (1, along)
    return None


def _stacked_from_ds(screen: int, along: int, length: int, gap: int) -> int:
    """Inverse of :func:`_stacked_to_ds` along the axis: the cell's offset from the first screen."""
    return along if screen == 0 else length + gap + along


def vertical_to_ds(
    px: float, py: float, scale: int, gap: int = 0, origin: Point = (0, 0)
) -> Hit | None:
    """Window pixel -> DS pixel for the vertical layout (top above bottom, ``gap`` DS pixels apart).

    Args:
        px: window x (fractions allowed: a pixel covers [px, px+1)).
        py: window y.
        scale: window pixels per DS pixel.
        gap: DS pixels of space between the screens.
        origin: window pixel where the top screen's top-left DS pixel starts.

    Returns:
        (screen, x, y), or None over the gap or outside both screens.
    """
    x = _cell(px, origin[0], scale)
    y = _cell(py, origin[1], scale)
    hit = _stacked_to_ds(y, x, SCREEN_H, SCREEN_W, gap)
    return None if hit is None else (hit[0], x, hit[1])


def vertical_from_ds(
    screen: int, x: int, y: int, scale: int, gap: int = 0, origin: Point = (0, 0)
) -> Point:
    """DS pixel -> top-left window pixel of its ``scale``x``scale`` block, vertical layout."""
    _check_pixel(screen, x, y)
    row = _stacked_from_ds(screen, y, SCREEN_H, gap)
    return (origin[0] + x * scale, origin[1] + row * scale)


def horizontal_to_ds(
    px: float, py: float, scale: int, gap: int = 0, origin: Point = (0, 0)
) -> Hit | None:
    """Window pixel -> DS pixel for the horizontal layout (top screen left, bottom right).

    Arguments as :func:`vertical_to_ds`; ``gap`` is the space between the screens.
    """
    x = _cell(px, origin[0], scale)
    y = _cell(py, origin[1], scale)
    hit = _stacked_to_ds(x, y, SCREEN_W, SCREEN_H, gap)
    return None if hit is None else (hit[0], hit[1], y)


def horizontal_from_ds(
    screen: int, x: int, y: int, scale: int, gap: int = 0, origin: Point = (0, 0)
) -> Point:
    """DS pixel -> top-left window pixel of its block, horizontal layout."""
    _check_pixel(screen, x, y)
    col = _stacked_from_ds(screen, x, SCREEN_W, gap)
    return (origin[0] + col * scale, origin[1] + y * scale)


def single_to_ds(
    px: float, py: float, scale: int, shown: int, origin: Point = (0, 0)
) -> Hit | None:
    """Window pixel -> DS pixel for the single layout, where only screen ``shown`` is visible."""
    x = _cell(px, origin[0], scale)
    y = _cell(py, origin[1], scale)
    if 0 <= x < SCREEN_W and 0 <= y < SCREEN_H:
        return (shown, x, y)
    return None


def single_from_ds(
    screen: int, x: int, y: int, scale: int, shown: int, origin: Point = (0, 0)
) -> Point | None:
    """DS pixel -> top-left window pixel, single layout; None if ``screen`` is not the shown one."""
    _check_pixel(screen, x, y)
    if screen != shown:
        return None
    return (origin[0] + x * scale, origin[1] + y * scale)


def separate_to_ds(
    px: float, py: float, scale: int, screen: int, origin: Point = (0, 0)
) -> Hit | None:
    """Window pixel -> DS pixel in the separate layout's window that shows ``screen``."""
    return single_to_ds(px, py, scale, screen, origin)


def separate_from_ds(
    screen: int, x: int, y: int, scale: int, window_screen: int, origin: Point = (0, 0)
) -> Point | None:
    """DS pixel -> window pixel in the separate layout window showing ``window_screen``.

    Returns None when the pixel belongs to the other window.
    """
    return single_from_ds(screen, x, y, scale, window_screen, origin)


def fit_scale(available: tuple[int, int], content: tuple[int, int]) -> int:
    """Largest integer scale at which ``content`` fits in ``available`` (never below 1)."""
    return max(1, min(available[0] // content[0], available[1] // content[1]))


TITLE_BAR: Final = 40
"""Pixels left free above each window of the separate layout on one monitor, for its
title bar (a window manager draws it above the window's content)."""


@dataclass(frozen=True)
class Placement:
    """Where the separate layout's two windows go on one monitor.

    Attributes:
        scale: the scale both windows open at.
        positions: the top-left corner of the top and the bottom screen's window
            content, in the monitor's pixels.
        stacked: True for top above bottom (like the handheld), False side by side.
    """

    scale: int
    positions: tuple[Point, Point]
    stacked: bool


def place_separate(
    monitor: tuple[int, int],
    scale: int = 0,
    gap: int = 0,
    margin: tuple[int, int] = (32, 96),
    title_bar: int = TITLE_BAR,
) -> Placement:
    """Scale and positions for the separate layout's two windows on one monitor.

    Both windows fit the monitor, less ``margin`` (panels, the screen's edges), each
    with ``title_bar`` pixels above it, ``gap`` DS pixels apart: top above bottom, or
    side by side when that allows a larger scale. ``scale`` 0 picks the largest scale
    that fits (at most :data:`MAX_SCALE`, at least 1); a given scale is kept, placed
    the way it fits (stacked if neither does), centred on the monitor.
    """
    avail_w, avail_h = max(1, monitor[0] - margin[0]), max(1, monitor[1] - margin[1])

    def fits(s: int, stacked: bool) -> bool:
        if stacked:
            height = 2 * (SCREEN_H * s + title_bar) + gap * s
            return SCREEN_W * s <= avail_w and height <= avail_h
        return (2 * SCREEN_W + gap) * s <= avail_w and SCREEN_H * s + title_bar <= avail_h

    def largest(stacked: bool) -> int:
        return max((s for s in range(1, MAX_SCALE + 1) if fits(s, stacked)), default=0)

    if scale:
        chosen, stacked = scale, fits(scale, True) or not fits(scale, False)
    else:
        on_top, beside = largest(True), largest(False)
        chosen, stacked = max(1, on_top, beside), on_top >= beside
    w, h, g = SCREEN_W * chosen, SCREEN_H * chosen, gap * chosen
    if stacked:
        x = max(0, (monitor[0] - w) // 2)
        y = max(0, (monitor[1] - 2 * (h + title_bar) - g) // 2) + title_bar
        return Placement(chosen, ((x, y), (x, y + h + title_bar + g)), True)
    x = max(0, (monitor[0] - 2 * w - g) // 2)
    y = max(0, (monitor[1] - h - title_bar) // 2) + title_bar
    return Placement(chosen, ((x, y), (x + w + g, y)), False)


@dataclass(frozen=True)
class Viewport:
    """Where the DS screens sit inside one window: layout, integer scale, gap and origin.

    Attributes:
        layout: one of :data:`LAYOUTS`.
        scale: window pixels per DS pixel.
        gap: DS pixels between the screens (vertical/horizontal only).
        origin: window pixel of the first screen's top-left corner (letterbox offset).
        shown: the screen this window shows (single/separate only).
    """

    layout: str
    scale: int
    gap: int = 0
    origin: Point = (0, 0)
    shown: int = 1
    fitted: tuple[pygame.Rect | None, pygame.Rect | None] | None = None
    """Fit mode: each screen's window rectangle (None where not shown); ``scale`` is then
    the whole part of the scale and mapping goes through :func:`fit_to_ds`."""

    def to_ds(self, px: float, py: float) -> Hit | None:
        """DS pixel under window pixel (px, py), or None over a gap, a bar or a hidden screen."""
        if self.fitted is not None:
            for screen, rect in enumerate(self.fitted):
                if rect is not None and rect.collidepoint(int(px // 1), int(py // 1)):
                    return (screen, *fit_to_ds(px, py, rect))
            return None
        if self.layout == "vertical":
            return vertical_to_ds(px, py, self.scale, self.gap, self.origin)
        if self.layout == "horizontal":
            return horizontal_to_ds(px, py, self.scale, self.gap, self.origin)
        if self.layout == "single":
            return single_to_ds(px, py, self.scale, self.shown, self.origin)
        return separate_to_ds(px, py, self.scale, self.shown, self.origin)

    def from_ds(self, screen: int, x: int, y: int) -> Point | None:
        """Top-left window pixel of DS pixel (screen, x, y), or None if this window hides it."""
        if self.fitted is not None:
            _check_pixel(screen, x, y)
            rect = self.fitted[screen]
            return None if rect is None else fit_from_ds(x, y, rect)
        if self.layout == "vertical":
            return vertical_from_ds(screen, x, y, self.scale, self.gap, self.origin)
        if self.layout == "horizontal":
            return horizontal_from_ds(screen, x, y, self.scale, self.gap, self.origin)
        if self.layout == "single":
            return single_from_ds(screen, x, y, self.scale, self.shown, self.origin)
        return separate_from_ds(screen, x, y, self.scale, self.shown, self.origin)

    def screen_rect(self, screen: int) -> pygame.Rect | None:
        """Window rectangle covered by ``screen``, or None if this window does not show it."""
        if self.fitted is not None:
            rect = self.fitted[screen]
            return None if rect is None else rect.copy()
        corner = self.from_ds(screen, 0, 0)
        if corner is None:
            return None
        return pygame.Rect(corner, (SCREEN_W * self.scale, SCREEN_H * self.scale))

    def to_bottom_clamped(self, px: float, py: float) -> tuple[int, int] | None:
        """Bottom-screen pixel nearest to window pixel (px, py), clamped to the screen.

        This is how a drag that started on the bottom screen follows the pointer
        after it leaves the screen. None if this window does not show the bottom screen.
        """
        if self.fitted is not None:
            rect = self.fitted[1]
            if rect is None:
                return None
            fx = min(max(px, rect.left), rect.right - 1)
            fy = min(max(py, rect.top), rect.bottom - 1)
            return fit_to_ds(fx, fy, rect)
        corner = self.from_ds(1, 0, 0)
        if corner is None:
            return None
        x = _cell(px, corner[0], self.scale)
        y = _cell(py, corner[1], self.scale)
        return (min(max(x, 0), SCREEN_W - 1), min(max(y, 0), SCREEN_H - 1))


def fit_to_ds(px: float, py: float, rect: pygame.Rect) -> tuple[int, int]:
    """Fit mode: the DS pixel of a screen drawn smoothly into ``rect`` under window pixel
    (px, py) (fractions allowed: a pixel covers [px, px+1)).

    It is the DS pixel that contains the centre of the window pixel, which is both the
    one nearest-neighbour scaling shows there and the one weighing most in a bilinear
    blend: ``floor((px - left + 1/2) * 256 / width)``, in integers.
    """
    col = int(px // 1) - rect.left
    row = int(py // 1) - rect.top
    return ((2 * col + 1) * SCREEN_W // (2 * rect.w), (2 * row + 1) * SCREEN_H // (2 * rect.h))


def fit_from_ds(x: int, y: int, rect: pygame.Rect) -> Point:
    """Fit mode: the top-left window pixel whose centre lies in DS pixel (x, y) of ``rect``.

    The smallest column c with ``(2c + 1) * 256 >= 2 * width * x``; at a scale of 1
    or more every DS pixel has at least one such window pixel.
    """
    col = -((SCREEN_W - 2 * rect.w * x) // (2 * SCREEN_W))
    row = -((SCREEN_H - 2 * rect.h * y) // (2 * SCREEN_H))
    return (rect.left + max(col, 0), rect.top + max(row, 0))


def _fitted_rects(
    layout: str, window_size: tuple[int, int], gap: int, shown: int
) -> tuple[pygame.Rect | None, pygame.Rect | None] | None:
    """Fit mode: each screen's rectangle in the largest aspect-keeping box that fits, centred.

    None when that box would be smaller than scale 1 (then whole scales apply).
    Screen edges are the content edges scaled and rounded to whole window pixels.
    """
    cw, ch = content_size(layout, gap)
    w, h = window_size
    if w < cw or h < ch:
        return None
    if w * ch <= h * cw:  # width decides
        box = (w, min(h, (2 * w * ch + cw) // (2 * cw)))
    else:
        box = (min(w, (2 * h * cw + ch) // (2 * ch)), h)
    ox, oy = (w - box[0]) // 2, (h - box[1]) // 2

    def edge_x(c: int) -> int:
        return ox + (2 * c * box[0] + cw) // (2 * cw)

    def edge_y(c: int) -> int:
        return oy + (2 * c * box[1] + ch) // (2 * ch)

    def rect(x0: int, y0: int) -> pygame.Rect:
        left, top = edge_x(x0), edge_y(y0)
        return pygame.Rect(left, top, edge_x(x0 + SCREEN_W) - left, edge_y(y0 + SCREEN_H) - top)

    if layout == "vertical":
        return (rect(0, 0), rect(0, SCREEN_H + gap))
    if layout == "horizontal":
        return (rect(0, 0), rect(SCREEN_W + gap, 0))
    return (rect(0, 0), None) if shown == 0 else (None, rect(0, 0))


def fit_viewport(
    layout: str,
    window_size: tuple[int, int],
    *,
    gap: int = 0,
    shown: int = 1,
    smooth: bool = False,
) -> Viewport:
    """The largest centred viewport of ``layout`` in a window of ``window_size``.

    Whole-number mode (the default) uses the largest integer scale: a window
    sized exactly for a scale gets that scale with origin (0, 0); a bigger one
    (resized, maximised or fullscreen) gets black bars around the screens.
    ``smooth`` (fit mode) scales by any factor to the largest size that keeps
    the aspect, falling back to scale 1 in a window too small for it.
    """
    content = content_size(layout, gap)
    if smooth:
        fitted = _fitted_rects(layout, window_size, gap, shown)
        if fitted is not None:
            rects = [r for r in fitted if r is not None]
            origin = (min(r.left for r in rects), min(r.top for r in rects))
            scale = fit_scale(window_size, content)
            return Viewport(layout, scale, gap, origin, shown, fitted)
    scale = fit_scale(window_size, content)
    origin = (
        (window_size[0] - content[0] * scale) // 2,
        (window_size[1] - content[1] * scale) // 2,
    )
    return Viewport(layout, scale, gap, origin, shown)


def finger_to_window(x: float, y: float, window_size: tuple[int, int]) -> tuple[float, float]:
    """Normalised finger coordinates (0..1 across the window) -> window pixel.

    SDL2 normalises a touch as ``pixel / (size - 1)`` (its X11 back-end; the
    others agree to within one window pixel), so this multiplies back by
    ``size - 1`` and rounds to the nearest pixel, clamped to the window.
    """
    w, h = window_size
    px = min(max(round(x * (w - 1)), 0), w - 1)
    py = min(max(round(y * (h - 1)), 0), h - 1)
    return (float(px), float(py))


def draw_cursor(surface: pygame.Surface, pos: tuple[int, int], touching: bool) -> None:
    """Draw the keyboard/gamepad stylus cursor: an outlined 7x7 cross, yellow while touching."""
    x, y = pos
    outline = (0, 0, 0)
    ink = (255, 224, 0) if touching else (255, 255, 255)
    for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        pygame.draw.line(surface, outline, (x - 3 + dx, y + dy), (x + 3 + dx, y + dy))
        pygame.draw.line(surface, outline, (x + dx, y - 3 + dy), (x + dx, y + 3 + dy))
    pygame.draw.line(surface, ink, (x - 3, y), (x + 3, y))
    pygame.draw.line(surface, ink, (x, y - 3), (x, y + 3))
    if touching:
        pygame.draw.rect(surface, ink, (x - 1, y - 1, 3, 3))


# ---------------------------------------------------------------------------- front-ends


Frames = Sequence[tuple[int, pygame.Surface, pygame.Rect]]
"""(screen, composed 256x192 frame, window rectangle) of every screen a window shows."""


class _Painter(Protocol):
    def draw(self, frames: Frames, fresh: tuple[bool, bool]) -> None:
        """Draw and present the window; ``fresh`` screens' pictures changed since last time."""
        ...

    def snapshot(self) -> pygame.Surface: ...

    def close(self) -> None: ...


def _whole_multiple(rect: pygame.Rect) -> bool:
    """A screen drawn at a whole-number scale, which fit mode also shows pixel-exact."""
    scale = rect.w // SCREEN_W
    return rect.size == (SCREEN_W * scale, SCREEN_H * scale)


class _TexturePainter:
    """Draws through an SDL renderer: screens uploaded as textures, scaled by the GPU."""

    def __init__(
        self, window: pygame.Window, vsync: bool, smooth: bool = False, software: bool = False
    ) -> None:
        from pygame._sdl2.video import Renderer, get_drivers

        index = -1
        if software:  # SDL's own renderer: draws on the CPU and loads no OpenGL stack
            names = [driver.name for driver in get_drivers()]
            index = names.index("software") if "software" in names else -1
            self._renderer = Renderer(window, index=index, vsync=False)
        else:
            self._renderer = Renderer(window, vsync=vsync)
        # SDL's software renderer draws on the window's own surface, which keeps its
        # pixels between presents: a frame where one screen changed redraws only that
        # screen (a GPU back buffer is undefined after a present, so those redraw all).
        self._keeps_pixels = software and index >= 0
        self._smooth = smooth
        self._textures: dict[tuple[int, bool], Texture] = {}
        self._placed: list[tuple[tuple[int, bool], pygame.Rect]] = []

    def draw(self, frames: Frames, fresh: tuple[bool, bool]) -> None:
        from pygame._sdl2.video import Texture

        renderer = self._renderer
        placed_before = self._placed
        self._placed = []
        for screen, surface, rect in frames:
            key = (screen, self._smooth and not _whole_multiple(rect))
            self._placed.append((key, rect.copy()))
            texture = self._textures.get(key)
            if texture is None:
                # SDL reads the filter from this hint when a texture is made: linear for
                # fit mode's smooth scaling, nearest for crisp whole-number scales.
                before = os.environ.get(_SCALE_QUALITY)
                os.environ[_SCALE_QUALITY] = "linear" if key[1] else "nearest"
                try:
                    texture = Texture(renderer, (SCREEN_W, SCREEN_H), streaming=True)
                finally:
                    if before is None:
                        del os.environ[_SCALE_QUALITY]
                    else:
                        os.environ[_SCALE_QUALITY] = before
                self._textures[key] = texture
            elif not fresh[screen]:
                continue  # the texture still holds this picture
            texture.update(surface)
        if self._keeps_pixels and placed_before == self._placed:
            for key, rect in self._placed:  # the rest of the window is still on it
                if fresh[key[0]]:
                    self._textures[key].draw(dstrect=rect)
        else:
            self._render()
        renderer.present()

    def _render(self) -> None:
        renderer = self._renderer
        renderer.draw_color = pygame.Color(0, 0, 0, 255)
        renderer.clear()
        for key, rect in self._placed:
            self._textures[key].draw(dstrect=rect)

    def snapshot(self) -> pygame.Surface:
        # Drawn again rather than read after present(): a presented back buffer is undefined.
        self._render()
        return self._renderer.to_surface()

    def close(self) -> None:
        self._textures.clear()
        del self._renderer


class _SurfacePainter:
    """Draws on the window surface with pygame.transform (no GPU needed)."""

    def __init__(self, window: pygame.Window, smooth: bool = False) -> None:
        self._window = window
        self._smooth = smooth
        self._scaled: dict[int, pygame.Surface] = {}

    def draw(self, frames: Frames, fresh: tuple[bool, bool]) -> None:
        target = self._window.get_surface()
        target.fill((0, 0, 0))
        for screen, surface, rect in frames:
            if rect.size == surface.get_size():
                target.blit(surface, rect)
                continue
            scaled = self._scaled.get(screen)
            if scaled is None or scaled.get_size() != rect.size:
                scaled = pygame.Surface(rect.size, 0, target)
                self._scaled[screen] = scaled
            if self._smooth and not _whole_multiple(rect):
                pygame.transform.smoothscale(surface, rect.size, scaled)
            else:
                pygame.transform.scale(surface, rect.size, scaled)
            target.blit(scaled, rect)
        self._window.flip()

    def snapshot(self) -> pygame.Surface:
        return self._window.get_surface().copy()

    def close(self) -> None:
        self._scaled.clear()


@dataclass
class _ScreenWindow:
    """One OS window of a front-end and what it shows."""

    window: pygame.Window
    painter: _Painter
    windowed_size: tuple[int, int]
    screen: int | None  # separate layout: the screen this window shows; else None
    display: int = 0  # the monitor (SDL display index) it opened on
    stale: bool = True  # must be presented at the next frame whatever changed
    presents: int = 0  # how many times this window was presented
    restored: int = 0  # keep_fullscreen: how many times it was brought back


class WindowFrontend:
    """Real windows for the vertical, horizontal, single and separate layouts.

    Args:
        layout: one of :data:`LAYOUTS`.
        scale: 1..6, or 0 for the largest that fits the desktop (fallback 2).
        gap: DS pixels between the screens in vertical/horizontal layouts.
        fullscreen: start fullscreen (F11 or Alt+Enter toggles).
        title: window title (the separate layout adds "top"/"bottom").
        config: key names for the hot keys, monitors, renderer choice.
        fit: fit mode (smooth scaling to any size) instead of whole-number scales.
        icon: the windows' icon.

    Attributes:
        layout: the layout.
        shown: the screen shown by the single layout (0 top, 1 bottom).
        fullscreen: whether the windows are fullscreen now.
        renderer: ``"texture"`` or ``"surface"``, whichever was opened.
    """

    def __init__(
        self,
        *,
        layout: str = "vertical",
        scale: int = 0,
        gap: int = 0,
        fullscreen: bool = False,
        title: str = "Petit Computer",
        config: ShimConfig | None = None,
        fit: bool = False,
        icon: pygame.Surface | None = None,
    ) -> None:
        if layout not in LAYOUTS:
            raise ValueError(f"unknown layout {layout!r} (expected one of {', '.join(LAYOUTS)})")
        if not 0 <= scale <= MAX_SCALE:
            raise ValueError(f"scale must be 0 (fit the desktop) or 1..{MAX_SCALE}, not {scale}")
        if gap < 0:
            raise ValueError(f"gap must be 0 or more DS pixels, not {gap}")
        self.config = cfg = config if config is not None else ShimConfig()
        self.layout = layout
        self.gap = gap if layout in ("vertical", "horizontal") else 0
        self._windows_gap = gap  # the separate layout's windows on one monitor
        self.shown = cfg.single_start_screen
        self.fullscreen = fullscreen
        self.fit = fit
        self._icon = icon
        self.renderer = ""
        self._closed = False
        self._input: Input | None = None
        self._drag_window: dict[Hashable, _ScreenWindow] = {}
        #: ``keep_fullscreen``: shows a hidden or minimised window again instead of SDL's
        #: show and restore. SDL's X11 show waits for the window manager to map the
        #: window, forever if it will not (a window on another desktop under openbox):
        #: a program that can map it without waiting (the kiosk, royalnine.kiosk.x11)
        #: sets this.
        self.reshow: Callable[[pygame.Window], None] | None = None
        self._cursor_shown: tuple[tuple[int, int], bool] | None = None
        self._fullscreen_key = key_code(cfg.fullscreen_key)
        self._swap_key = key_code(cfg.swap_key)
        self._swap_pad = PAD_BUTTONS[cfg.swap_pad]
        # Read Nintendo pads by button position like the others (SDL2 defaults to their
        # printed labels there, which would swap A/B and X/Y); a player's own setting wins.
        os.environ.setdefault("SDL_GAMECONTROLLER_USE_BUTTON_LABELS", "0")
        # The click that focuses a window must act too: SDL's X11 back-end (and macOS)
        # drops a press that comes with the focus unless this hint is on, so the first
        # tap on any screen of a window in the background did nothing.
        os.environ.setdefault(FOCUS_CLICKTHROUGH, "1")
        pygame.display.init()
        with contextlib.suppress(pygame.error):
            pygame.joystick.init()  # so pads plugged in now, and later, announce themselves
        displays = max(1, pygame.display.get_num_displays())
        self.windows: list[_ScreenWindow] = []
        #: separate layout: whether the two windows are on two monitors of their own.
        self.two_monitors = False
        if layout == "separate":
            wanted = (cfg.top_display, cfg.bottom_display)
            places = [min(d, displays - 1) for d in wanted]
            self.two_monitors = places[0] != places[1] and distinct_displays(*places)
            if not self.two_monitors:
                places = [places[0], places[0]]
            shared = not self.two_monitors and not self.fullscreen
            placement = self._one_monitor(scale, places[0]) if shared else None
            for screen, display in enumerate(places):
                name = f"{title} (top)" if screen == 0 else f"{title} (bottom)"
                chosen = placement.scale if placement is not None else scale
                self.windows.append(self._open(name, chosen, display, screen, self.two_monitors))
            if placement is not None:
                left, top_edge = display_origin(places[0])
                for entry, (x, y) in zip(self.windows, placement.positions, strict=True):
                    entry.window.position = (left + x, top_edge + y)
        else:
            self.windows.append(self._open(title, scale, 0, None, True))
        if cfg.hide_pointer:
            pygame.mouse.set_visible(False)

    def _open(
        self, title: str, scale: int, display: int, screen: int | None, centred: bool
    ) -> _ScreenWindow:
        content = content_size("separate" if screen is not None else self.layout, self.gap)
        chosen = scale or self._desktop_scale(content, display)
        size = (content[0] * chosen, content[1] * chosen)
        window = pygame.Window(
            title, size, position=_display_position(display, centred), resizable=True
        )
        if self._icon is not None:
            window.set_icon(self._icon)
        entry = _ScreenWindow(window, self._painter(window), size, screen, display)
        if self.fullscreen:
            self._go_fullscreen(entry)
        return entry

    def _go_fullscreen(self, entry: _ScreenWindow) -> None:
        """Make a window cover its monitor, with or without a window manager.

        SDL asks the window manager for fullscreen (``_NET_WM_STATE``) and from then
        on draws for the whole monitor; with no window manager nobody answers, and
        the window would keep its first size while SDL draws for the monitor (a
        black screen, touches in the wrong place). So the window is first made
        borderless and moved and sized over its monitor by hand, which an X server
        without a window manager obeys, and then asked for fullscreen, which a
        window manager does properly (above panels and docks).
        """
        window = entry.window
        bounds = self._monitor_rect(entry.display)
        if bounds is not None:
            window.set_windowed()  # SDL keeps a fullscreen window's size: leave fullscreen first
            window.borderless = True
            window.position = bounds.topleft
            window.size = bounds.size
        window.set_fullscreen(desktop=True)
        entry.stale = True

    def _go_windowed(self, entry: _ScreenWindow) -> None:
        """Back to a normal window of the size it opened with."""
        entry.window.set_windowed()
        entry.window.borderless = False
        entry.window.size = entry.windowed_size
        entry.stale = True

    @staticmethod
    def _desktop_size(display: int) -> tuple[int, int] | None:
        """Desktop size of monitor ``display``; None if SDL does not know it."""
        try:
            sizes = pygame.display.get_desktop_sizes()
        except pygame.error:
            return None
        if display >= len(sizes) or min(sizes[display]) <= 0:
            return None
        return sizes[display]

    def _monitor_rect(self, display: int) -> pygame.Rect | None:
        """Desktop rectangle of monitor ``display``; None if SDL does not know it."""
        size = self._desktop_size(display)
        return None if size is None else pygame.Rect(display_origin(display), size)

    def uncovered(self) -> list[str]:
        """Fullscreen windows that do not cover their monitor (one line each): what a
        window manager that refuses fullscreen, or keeps a panel above it, leaves."""
        if not self.fullscreen:
            return []
        lines = []
        for entry in self.windows:
            if (off := self._off_monitor(entry)) is not None:
                here, bounds = off
                lines.append(
                    f"window {entry.window.title!r} is at {tuple(here)}, not over all of "
                    f"monitor {entry.display} {tuple(bounds)}"
                )
        return lines

    def _off_monitor(self, entry: _ScreenWindow) -> tuple[pygame.Rect, pygame.Rect] | None:
        """(where the window is, its monitor's rectangle) when it does not cover exactly
        its monitor; None when it does, or the monitor's size is unknown."""
        bounds = self._monitor_rect(entry.display)
        here = pygame.Rect(entry.window.position, entry.window.size)
        return None if bounds is None or here == bounds else (here, bounds)

    def _keep_fullscreen(self, event: pygame.event.Event) -> None:
        """``keep_fullscreen``: undo a minimise, or a move or resize off the monitor."""
        if not (self.fullscreen and self.config.keep_fullscreen):
            return
        window = getattr(event, "window", None)
        for entry in self.windows:
            if window is not None and entry.window.id != window.id:
                continue
            if event.type in (pygame.WINDOWMINIMIZED, pygame.WINDOWHIDDEN):
                if self.reshow is not None:
                    self.reshow(entry.window)
                else:
                    entry.window.show()
                    entry.window.restore()
                self._go_fullscreen(entry)
                entry.restored += 1
            elif (
                event.type in (pygame.WINDOWMOVED, pygame.WINDOWSIZECHANGED)
                and self._off_monitor(entry) is not None
            ):
                self._go_fullscreen(entry)
                entry.restored += 1

    def _one_monitor(self, scale: int, display: int = 0) -> Placement | None:
        """Both screens' windows on monitor ``display`` (:func:`place_separate`): top above
        bottom like the handheld, or side by side, all on screen with room for title
        bars; None when the monitor's size is unknown (the window manager places them)."""
        size = self._desktop_size(display)
        if size is None:
            return None
        return place_separate(size, scale, self._windows_gap, self.config.desktop_margin)

    def _desktop_scale(self, content: tuple[int, int], display: int) -> int:
        size = self._desktop_size(display)
        if size is None:
            return FALLBACK_SCALE
        w, h = size
        mx, my = self.config.desktop_margin
        return min(MAX_SCALE, fit_scale((max(1, w - mx), max(1, h - my)), content))

    def _painter(self, window: pygame.Window) -> _Painter:
        choice = self.config.renderer
        if choice != "texture":
            # Without this SDL backs a window's surface (and so its software renderer)
            # with OpenGL: with Mesa's llvmpipe that maps libLLVM, some 75 MB resident.
            os.environ.setdefault(_NO_GL_FRAMEBUFFER, "0")
        if choice in ("auto", "software"):
            try:
                painter: _Painter = _TexturePainter(window, False, self.fit, software=True)
                self.renderer = "software"
                return painter
            except (ImportError, pygame.error):
                if choice == "software":
                    raise
        if choice == "texture":
            painter = _TexturePainter(window, self.config.vsync, self.fit)
            self.renderer = "texture"
            return painter
        self.renderer = "surface"
        return _SurfacePainter(window, self.fit)

    # ------------------------------------------------------------------ geometry

    def viewport(self, index: int = 0) -> Viewport:
        """The current viewport of window ``index`` (follows resizing and fullscreen)."""
        entry = self.windows[index]
        return self._viewport(entry)

    def _viewport(self, entry: _ScreenWindow) -> Viewport:
        size = tuple(entry.window.size)
        window_size = (int(size[0]), int(size[1]))
        if entry.screen is not None:
            return fit_viewport("separate", window_size, shown=entry.screen, smooth=self.fit)
        return fit_viewport(
            self.layout, window_size, gap=self.gap, shown=self.shown, smooth=self.fit
        )

    def _entry_for(self, event: pygame.event.Event) -> _ScreenWindow:
        """The window an event belongs to (the bottom screen's window if it does not say)."""
        window = getattr(event, "window", None)
        if window is not None:
            for entry in self.windows:
                if entry.window.id == window.id:
                    return entry
        return self.windows[-1]

    # ------------------------------------------------------------------ Frontend protocol

    def pump(self, inp: Input) -> bool:
        """Handle every pending event: hot keys, stylus from mouse or finger, keys, pads, drops."""
        self._input = inp
        if self._closed:
            return False
        for event in pygame.event.get():
            kind = event.type
            if kind in _REDRAW_EVENTS:
                self._mark_stale(event)
            if kind in _KEEP_EVENTS:
                self._keep_fullscreen(event)
            if kind == pygame.WINDOWCLOSE:
                self._closed = not self.config.ignore_close
            elif kind == pygame.KEYDOWN and self._hot_key(event):
                continue
            elif kind in (pygame.CONTROLLERBUTTONDOWN, pygame.CONTROLLERBUTTONUP) and (
                self.layout == "single" and int(event.button) == self._swap_pad
            ):
                if kind == pygame.CONTROLLERBUTTONDOWN:
                    self.swap_screens()
            elif kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEMOTION, pygame.MOUSEBUTTONUP):
                if not getattr(event, "touch", False):  # SDL's mouse copy of a finger: seen already
                    self._mouse(event, inp)
            elif kind in (pygame.FINGERDOWN, pygame.FINGERMOTION, pygame.FINGERUP):
                self._finger(event, inp)
            elif _feed_common(event, inp) is False:
                self._closed = not self.config.ignore_close
        return not self._closed

    def present(
        self,
        top: pygame.Surface,
        bottom: pygame.Surface,
        *,
        changed: tuple[bool, bool] = (True, True),
    ) -> None:
        """Draw the frames into the windows, scaled and letterboxed, with the stylus cursor.

        A window is presented only when a screen it shows changed (``changed``,
        or the stylus cursor moved), or after the window system asked for a
        redraw (exposed, resized, focus, fullscreen, swapped screens); an idle
        game costs no drawing at all.
        """
        if self._closed:
            return
        inp = self._input
        cursor = (
            (inp.cursor_pos, inp.cursor_touching)
            if inp is not None and inp.cursor_visible
            else None
        )
        fresh = (changed[0], changed[1] or cursor != self._cursor_shown)
        self._cursor_shown = cursor
        surfaces = (top, bottom)
        for entry in self.windows:
            shown_fresh = (entry.stale or fresh[0], entry.stale or fresh[1])
            if not any(shown_fresh[screen] for screen in self._shows(entry)):
                continue
            view = self._viewport(entry)
            frames = []
            for screen in (0, 1):
                rect = view.screen_rect(screen)
                if rect is not None:
                    frames.append((screen, surfaces[screen], rect))
            if cursor is not None and shown_fresh[1] and any(f[0] == 1 for f in frames):
                marked = bottom.copy()
                draw_cursor(marked, *cursor)
                frames = [(s, marked if s == 1 else f, r) for s, f, r in frames]
            entry.painter.draw(frames, shown_fresh)
            entry.stale = False
            entry.presents += 1

    def _shows(self, entry: _ScreenWindow) -> tuple[int, ...]:
        """The screens a window shows now."""
        if entry.screen is not None:
            return (entry.screen,)
        return (self.shown,) if self.layout == "single" else (0, 1)

    def _mark_stale(self, event: pygame.event.Event) -> None:
        """The window system wants a window (or, if the event names none, all) drawn again."""
        window = getattr(event, "window", None)
        for entry in self.windows:
            if window is None or entry.window.id == window.id:
                entry.stale = True

    def snapshot(self, index: int = 0) -> pygame.Surface:
        """A copy of what window ``index`` shows after the last :meth:`present` (bars included)."""
        return self.windows[index].painter.snapshot()

    def close(self) -> None:
        """Destroy the windows."""
        if self._closed and not self.windows:
            return
        self._closed = True
        for entry in self.windows:
            entry.painter.close()
            entry.window.destroy()
        self.windows = []

    # ------------------------------------------------------------------ actions

    def toggle_fullscreen(self) -> None:
        """Switch every window between windowed and fullscreen on its monitor."""
        self.fullscreen = not self.fullscreen
        for entry in self.windows:
            if self.fullscreen:
                self._go_fullscreen(entry)
            else:
                self._go_windowed(entry)

    def swap_screens(self) -> None:
        """Single layout: show the other screen. Lifts a mouse or finger stylus."""
        if self.layout != "single":
            return
        self.shown = 1 - self.shown
        for entry in self.windows:
            entry.stale = True
        inp = self._input
        if inp is not None:
            owner = inp.stylus_owner()
            if owner in self._drag_window:
                inp.stylus_up(owner)
        self._drag_window.clear()

    def _hot_key(self, event: pygame.event.Event) -> bool:
        if not self.config.hot_keys:
            return False
        key = int(event.key)
        alt_enter = key in (pygame.K_RETURN, pygame.K_KP_ENTER) and event.mod & pygame.KMOD_ALT
        if key == self._fullscreen_key or alt_enter:
            self.toggle_fullscreen()
            return True
        if key == self._swap_key and self.layout == "single":
            self.swap_screens()
            return True
        return False

    # ------------------------------------------------------------------ pointers

    def _pointer_down(self, source: Hashable, entry: _ScreenWindow, px: float, py: float) -> None:
        inp = self._input
        assert inp is not None
        hit = self._viewport(entry).to_ds(px, py)
        if hit is not None and hit[0] == 1 and inp.stylus_down(source, hit[1], hit[2]):
            self._drag_window[source] = entry

    def _pointer_move(
        self, source: Hashable, px: float, py: float, came_from: _ScreenWindow | None = None
    ) -> None:
        inp = self._input
        assert inp is not None
        entry = self._drag_window.get(source)
        if entry is None or inp.stylus_owner() != source:
            return
        if came_from is not None and came_from is not entry:
            return  # coordinates of another window; SDL captures the mouse, so this is rare
        pos = self._viewport(entry).to_bottom_clamped(px, py)
        if pos is not None:
            inp.stylus_move(source, *pos)

    def _pointer_up(self, source: Hashable) -> None:
        inp = self._input
        assert inp is not None
        if self._drag_window.pop(source, None) is not None:
            inp.stylus_up(source)

    def _mouse(self, event: pygame.event.Event, inp: Input) -> None:
        kind = event.type
        px, py = event.pos
        named = self._entry_for(event) if getattr(event, "window", None) is not None else None
        if kind == pygame.MOUSEBUTTONDOWN:
            if event.button == pygame.BUTTON_LEFT:
                self._pointer_down(_MOUSE, self._entry_for(event), px, py)
        elif kind == pygame.MOUSEMOTION:
            self._pointer_move(_MOUSE, px, py, named)
        elif event.button == pygame.BUTTON_LEFT:
            self._pointer_move(_MOUSE, px, py, named)
            self._pointer_up(_MOUSE)

    def _finger(self, event: pygame.event.Event, inp: Input) -> None:
        source = ("finger", int(event.touch_id), int(event.finger_id))
        kind = event.type
        entry = self._drag_window.get(source) or self._entry_for(event)
        size = entry.window.size
        px, py = finger_to_window(float(event.x), float(event.y), (int(size[0]), int(size[1])))
        if kind == pygame.FINGERDOWN:
            self._pointer_down(source, entry, px, py)
        elif kind == pygame.FINGERMOTION:
            self._pointer_move(source, px, py)
        else:
            self._pointer_move(source, px, py)
            self._pointer_up(source)


def create_frontend(
    *,
    headless: bool,
    layout: str = "vertical",
    scale: int = 0,
    gap: int = 0,
    fullscreen: bool = False,
    title: str = "Petit Computer",
    config: ShimConfig | None = None,
    fit: bool = False,
    icon: pygame.Surface | None = None,
) -> Frontend:
    """Open the display front-end the machine shows its screens in.

    Args:
        headless: no window at all (:class:`HeadlessFrontend`). With ``False``
            real windows open, even under ``SDL_VIDEODRIVER=dummy`` (where they
            exist only in memory, which the tests use).
        layout: ``vertical`` (default), ``horizontal``, ``single`` or ``separate``.
        scale: window scale 1..6, or 0 for the largest that fits the desktop.
        gap: DS pixels between the screens (vertical and horizontal layouts).
        fullscreen: start fullscreen, integer-scaled and centred.
        title: window title.
        config: player settings; ``None`` for the defaults.
        fit: fit mode: scale smoothly to the largest size that keeps the aspect
            when the window is resized, maximised or fullscreen (default: the
            largest whole-number scale, pixel-exact).
        icon: the windows' icon (default: the one SDL gives).

    Raises:
        ValueError: unknown layout, scale outside 0..6 or a negative gap.
    """
    if headless:
        return headless_frontend(layout=layout, scale=scale, gap=gap, config=config)
    return WindowFrontend(
        layout=layout,
        scale=scale,
        gap=gap,
        fullscreen=fullscreen,
        title=title,
        config=config,
        fit=fit,
        icon=icon,
    )
