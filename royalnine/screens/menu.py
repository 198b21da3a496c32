"""A column (or row) of on-screen buttons on the touch screen, usable by stylus and pad.

A button acts when the stylus is lifted over the same button it went down on
(so a slip cancels), or on A/START with the pad cursor. The pressed and the
cursor button are drawn in the "down" colours.
"""

from __future__ import annotations

from dataclasses import dataclass

from royalnine import art
from royalnine.app import App, InputFrame
from royalnine.screens import draw
from royalnine.screens.layout import BOTTOM, Rect


@dataclass
class MenuItem:
    """One button: the value returned when chosen, its label and its rectangle."""

    value: str
    label: str
    rect: Rect
    enabled: bool = True


def column(
    items: list[tuple[str, str]],
    *,
    top: int = 40,
    width: int = 160,
    height: int = 24,
    gap: int = 8,
    left: int | None = None,
) -> list[MenuItem]:
    """Buttons stacked vertically, centred horizontally (pixels, tile aligned)."""
    x = (256 - width) // 2 if left is None else left
    return [
        MenuItem(v, label, Rect(x, top + i * (height + gap), width, height))
        for i, (v, label) in enumerate(items)
    ]


def row(
    items: list[tuple[str, str]], *, y: int, width: int = 80, height: int = 24, gap: int = 16
) -> list[MenuItem]:
    """Buttons side by side, centred horizontally."""
    total = len(items) * width + (len(items) - 1) * gap
    x0 = (256 - total) // 2 // 8 * 8
    return [
        MenuItem(v, label, Rect(x0 + i * (width + gap), y, width, height))
        for i, (v, label) in enumerate(items)
    ]


class Menu:
    """Buttons on the bottom screen with touch and pad handling."""

    def __init__(
        self,
        items: list[MenuItem],
        *,
        screen: int = BOTTOM,
        cursor: int = 0,
        horizontal: bool = False,
    ) -> None:
        self.items = items
        self.screen = screen
        self.hidden = False
        """Works by touch and keys but is never drawn (the attract loop's CPU presses it)."""
        self.cursor = cursor
        self.horizontal = horizontal
        self.pressed: int | None = None
        self.cursor_shown = False

    def draw(self, app: App) -> None:
        """Draw every button in its current state (nothing for a hidden menu)."""
        if self.hidden:
            return
        for i, item in enumerate(self.items):
            down = i == self.pressed or (self.cursor_shown and i == self.cursor)
            pal = (
                art.BG_BUTTON_DOWN
                if down
                else (art.BG_BUTTON if item.enabled else art.BG_BUTTON_OFF)
            )
            colour = art.TEXT_BLACK if item.enabled else art.TEXT_GREY
            draw.button(app.m, self.screen, item.rect, item.label, pal=pal, colour=colour)

    def at(self, x: int, y: int) -> int | None:
        """Index of the button under a point."""
        for i, item in enumerate(self.items):
            if item.rect.contains(x, y):
                return i
        return None

    def handle(self, app: App, inp: InputFrame) -> str | None:
        """Process a frame of input; returns the chosen value, if any."""
        before = (self.pressed, self.cursor, self.cursor_shown)
        chosen: str | None = None
        if inp.touch_down is not None:
            self.cursor_shown = False
            self.pressed = self.at(*inp.touch_down)
        elif inp.touch_move is not None and self.pressed is not None:
            if self.at(*inp.touch_move) != self.pressed:
                self.pressed = None
        elif inp.touch_up is not None:
            idx = self.pressed
            self.pressed = None
            if idx is not None and self.at(*inp.touch_up) == idx:
                chosen = self._choose(app, idx)
        back, fwd = ("left", "right") if self.horizontal else ("up", "down")
        for key in inp.keys:
            if key in (back, fwd):
                if self.cursor_shown:
                    step = 1 if key == fwd else -1
                    self.cursor = (self.cursor + step) % len(self.items)
                self.cursor_shown = True
                app.beep("menu")
            elif key in ("a", "start"):
                chosen = self._choose(app, self.cursor)
        if (self.pressed, self.cursor, self.cursor_shown) != before:
            self.draw(app)
        return chosen

    def _choose(self, app: App, idx: int) -> str | None:
        item = self.items[idx]
        if not item.enabled:
            app.beep("invalid")
            return None
        app.beep("select")
        return item.value
