"""Scoring a 3x3 Royal Nine grid: line roles, doubling through the centre, Royal Nine and bust.

Cells are numbered 0-8 row-major; cell 4 (:data:`CENTRE`) is the common card
shared by both players' grids. Each of the 3 rows and 3 columns scores its best
role; the middle row and middle column pass through the centre and score
double. Royal Nine (all nine one colour) adds 16; a bust (own eight cards one
colour, the centre the other) makes the grid score 0.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from royalnine.core.cards import Card
from royalnine.core.errors import BadGrid

CELLS = 9
CENTRE = 4
OWN_CELLS: tuple[int, ...] = (0, 1, 2, 3, 5, 6, 7, 8)
ROYAL_NINE_BONUS = 16


@dataclass(frozen=True, slots=True)
class Line:
    """One scoring line: its name, its three cells, and whether it passes through the centre."""

    name: str
    cells: tuple[int, int, int]

    @property
    def through_centre(self) -> bool:
        """True for the middle row and middle column, whose points double."""
        return CENTRE in self.cells


LINES: tuple[Line, ...] = (
    Line("top row", (0, 1, 2)),
    Line("middle row", (3, 4, 5)),
    Line("bottom row", (6, 7, 8)),
    Line("left column", (0, 3, 6)),
    Line("middle column", (1, 4, 7)),
    Line("right column", (2, 5, 8)),
)


class Role(enum.Enum):
    """The role a line of three cards makes, with its base points."""

    NONE = 0
    STRAIGHT = 1
    FLUSH = 2
    STRAIGHT_FLUSH = 3

    @property
    def points(self) -> int:
        """Base points before doubling."""
        return _ROLE_POINTS[self]

    @property
    def label(self) -> str:
        """Upper-case English name as shown in the game (``STRAIGHT FLUSH``)."""
        return self.name.replace("_", " ")


_ROLE_POINTS = {Role.NONE: 0, Role.STRAIGHT: 1, Role.FLUSH: 1, Role.STRAIGHT_FLUSH: 2}


@dataclass(frozen=True, slots=True)
class LineScore:
    """How one line scored: its role, whether it doubled, and the points it adds."""

    line: Line
    cards: tuple[Card, Card, Card]
    role: Role
    doubled: bool
    points: int

    def describe(self) -> str:
        """A short text such as ``middle row: STRAIGHT x2 = 2``."""
        if self.role is Role.NONE:
            return f"{self.line.name}: -"
        mult = " x2" if self.doubled else ""
        return f"{self.line.name}: {self.role.label}{mult} = {self.points}"


@dataclass(frozen=True, slots=True)
class GridScore:
    """The full breakdown of one grid's score."""

    cards: tuple[Card, ...]
    lines: tuple[LineScore, ...]
    line_points: int
    royal_nine: bool
    bust: bool
    total: int


def is_straight(ranks: Sequence[int]) -> bool:
    """Three ranks that are consecutive in any order, with no wrap-around (9-1-2 is not)."""
    low, mid, high = sorted(ranks)
    return mid == low + 1 and high == mid + 1


def line_role(a: Card, b: Card, c: Card) -> Role:
    """The best role three cards make."""
    straight = is_straight((a.rank, b.rank, c.rank))
    flush = a.colour is b.colour is c.colour
    if straight and flush:
        return Role.STRAIGHT_FLUSH
    if straight:
        return Role.STRAIGHT
    if flush:
        return Role.FLUSH
    return Role.NONE


def check_grid(cells: Sequence[Card | None]) -> tuple[Card, ...]:
    """Validate a complete grid of 9 distinct cards; raises :class:`BadGrid`."""
    if len(cells) != CELLS:
        raise BadGrid(f"a grid has 9 cards, got {len(cells)}")
    cards: list[Card] = []
    for i, card in enumerate(cells):
        if card is None:
            raise BadGrid(f"cell {i} is empty")
        cards.append(card)
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise BadGrid(f"duplicate card {card}")
        seen.add(card)
    return tuple(cards)


def colour_bonus(cards: Sequence[Card]) -> tuple[bool, bool]:
    """(royal_nine, bust) for a complete grid."""
    own = {cards[i].colour for i in OWN_CELLS}
    if len(own) != 1:
        return False, False
    (own_colour,) = own
    if cards[CENTRE].colour is own_colour:
        return True, False
    return False, True


def score_grid(cells: Sequence[Card | None]) -> GridScore:
    """Score a complete grid (9 cards, row-major, the centre fifth) with a per-line breakdown.

    Validates the grid and raises :class:`BadGrid` for a wrong count, empty cell or duplicate.
    """
    cards = check_grid(cells)
    scores: list[LineScore] = []
    for line in LINES:
        a, b, c = (cards[i] for i in line.cells)
        role = line_role(a, b, c)
        doubled = line.through_centre and role is not Role.NONE
        points = role.points * (2 if line.through_centre else 1)
        scores.append(LineScore(line, (a, b, c), role, doubled, points))
    line_points = sum(s.points for s in scores)
    royal_nine, bust = colour_bonus(cards)
    if bust:
        total = 0
    else:
        total = line_points + (ROYAL_NINE_BONUS if royal_nine else 0)
    return GridScore(cards, tuple(scores), line_points, royal_nine, bust, total)


def score_total(cells: Sequence[Card]) -> int:
    """Only the total of a complete, already-valid grid (no breakdown, no validation)."""
    total = 0
    for line in LINES:
        a, b, c = (cells[i] for i in line.cells)
        total += line_role(a, b, c).points * (2 if line.through_centre else 1)
    royal_nine, bust = colour_bonus(cells)
    if bust:
        return 0
    return total + (ROYAL_NINE_BONUS if royal_nine else 0)
