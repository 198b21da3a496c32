"""Where everything sits on the two 256x192 screens, as data, plus hit-testing.

All positions are screen pixels; cards and slots sit on the 8-pixel tile grid
so empty cells can be BG tiles under card sprites. The same grid geometry is
used on both screens: the bottom (touch) screen shows the seat playing here,
the top screen its opponent. Console text positions are in 8x8 cells.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from royalnine.art import CARD_H, CARD_W

SCREEN_W, SCREEN_H = 256, 192
TOP, BOTTOM = 0, 1


@dataclass(frozen=True)
class Rect:
    """A rectangle in pixels (x, y = top-left)."""

    x: int
    y: int
    w: int
    h: int

    def contains(self, px: int, py: int) -> bool:
        """True if the point lies inside."""
        return self.x <= px < self.x + self.w and self.y <= py < self.y + self.h

    @property
    def centre(self) -> tuple[int, int]:
        """The centre point."""
        return (self.x + self.w // 2, self.y + self.h // 2)

    @property
    def tiles(self) -> tuple[int, int, int, int]:
        """(x, y, w, h) in 8x8 tiles (the rectangle must be tile aligned)."""
        return (self.x // 8, self.y // 8, self.w // 8, self.h // 8)


class Zone(enum.Enum):
    """Kinds of touch targets on the bottom screen during a match."""

    CELL = "cell"
    HAND = "hand"
    CONFIRM = "confirm"
    UNDO = "undo"
    HINT = "hint"
    MENU = "menu"


@dataclass(frozen=True)
class Target:
    """One touch target: a zone and an index (cell 0-8, hand slot 0-3, 0 for buttons)."""

    zone: Zone
    index: int = 0


GRID_X = (8, 40, 72)
GRID_Y = (16, 56, 96)
HAND_X = (8, 40, 72, 104)
HAND_Y = 144
DECK_XY = (104, -40)  # where dealt cards fly in from (off the top edge)

CELL_RECTS: tuple[Rect, ...] = tuple(
    Rect(GRID_X[i % 3], GRID_Y[i // 3], CARD_W, CARD_H) for i in range(9)
)
HAND_RECTS: tuple[Rect, ...] = tuple(Rect(x, HAND_Y, CARD_W, CARD_H) for x in HAND_X)
GRID_RECT = Rect(GRID_X[0] - 4, GRID_Y[0] - 4, GRID_X[2] + CARD_W - GRID_X[0] + 8, 120)
HAND_AREA = Rect(0, HAND_Y - 8, 136, 48)

BUTTON_RECTS: dict[Zone, Rect] = {
    Zone.UNDO: Rect(144, 144, 48, 32),
    Zone.CONFIRM: Rect(200, 144, 48, 32),
    Zone.HINT: Rect(200, 104, 48, 24),
    Zone.MENU: Rect(200, 0, 48, 24),  # in line with HINT and OK, off the screen's edge
}

# Console rows/columns of the side panel (right of the grid): 14 cells leave a margin at
# the screen's right edge; lines of a message keep a blank row between them, so
# Japanese voicing marks never run into the line above.
PANEL_COL = 17
PANEL_WIDTH = 14
MESSAGE_ROWS = (6, 8, 10)
# The player's name over each grid: row 1, not 0, since the font's ink starts at a cell's
# top pixel row and a label on row 0 touches the screen's edge (it reads as cut off).
NAME_ROW = 1
REVEAL_ROWS = (17, 19, 21)  # the scoring show's lines, under the grid (full width)


def target_rect(target: Target) -> Rect:
    """The rectangle of a target."""
    if target.zone is Zone.CELL:
        return CELL_RECTS[target.index]
    if target.zone is Zone.HAND:
        return HAND_RECTS[target.index]
    return BUTTON_RECTS[target.zone]


def all_targets() -> list[Target]:
    """Every touch target of the match screen."""
    out = [Target(Zone.CELL, i) for i in range(9)]
    out += [Target(Zone.HAND, i) for i in range(4)]
    out += [Target(z) for z in (Zone.UNDO, Zone.CONFIRM, Zone.HINT, Zone.MENU)]
    return out


def hit(x: int, y: int) -> Target | None:
    """The target under a bottom-screen point, or None."""
    for target in all_targets():
        if target_rect(target).contains(x, y):
            return target
    return None


def drop_target(x: int, y: int) -> Target | None:
    """Where a dragged card held at (x, y) lands: the nearest cell within reach, or the hand.

    Drops are forgiving: a card dropped in the gap between cells goes to the
    cell whose centre is closest, so small misses on a 256x192 screen still work.
    """
    best: tuple[int, Target] | None = None
    for i, rect in enumerate(CELL_RECTS):
        cx, cy = rect.centre
        d = abs(cx - x) + abs(cy - y)
        near = abs(cx - x) <= CARD_W // 2 + 4 and abs(cy - y) <= CARD_H // 2 + 4
        if near and (best is None or d < best[0]):
            best = (d, Target(Zone.CELL, i))
    if best is not None:
        return best[1]
    if HAND_AREA.contains(x, y):
        return Target(Zone.HAND, 0)
    return None


def neighbour(current: Target, dx: int, dy: int, candidates: list[Target]) -> Target:
    """The target a d-pad press moves to: the closest one in that direction.

    Args:
        current: where the cursor is.
        dx, dy: the direction (-1, 0, 1 each; one of them zero).
        candidates: the targets the cursor may visit.
    """
    cx, cy = target_rect(current).centre
    best: tuple[int, Target] | None = None
    for target in candidates:
        if target == current:
            continue
        tx, ty = target_rect(target).centre
        along = (tx - cx) * dx + (ty - cy) * dy
        across = abs((tx - cx) * dy) + abs((ty - cy) * dx)
        if along <= 0:
            continue
        score = along + 2 * across
        if best is None or score < best[0]:
            best = (score, target)
    return best[1] if best else current
