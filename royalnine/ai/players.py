"""The CPU players: easy, normal, hard and match, each with an explicit seat and RNG.

A player reads one :class:`~royalnine.core.PlayerView` and returns where each of
this half's cards goes; the game then applies
:func:`royalnine.core.placement_actions`. The view is all it gets: no match, no
dealer, no hidden card (the opponent's unconfirmed places, the unused cards and
the centre before the reveal are not in a view).

:meth:`Player.choose` accepts a view of a place phase for the player's seat that
is not yet confirmed. It places the hand *and* any of this half's cards already
put down (they may still move), so the simplest call is with all four cards
still in the hand; the returned cells are always distinct, never the centre,
and each is empty or holds one of this half's cards.
"""

from __future__ import annotations

import itertools
import random
from typing import Protocol

from royalnine.ai.match_level import choose_for_match
from royalnine.ai.position import Position
from royalnine.ai.search import best_placement
from royalnine.ai.tables import CENTRE_LINES, OUTER_LINES
from royalnine.core.cards import Card
from royalnine.core.view import PlayerView

LEVELS = ("easy", "normal", "hard", "match")
"""The CPU levels, weakest first."""


class Player(Protocol):
    """What the game needs of a CPU player."""

    seat: int
    level: str

    def choose(self, view: PlayerView) -> dict[Card, int]:
        """Card -> cell for this half's four cards."""
        ...


class _Base:
    level = ""

    def __init__(self, seat: int, rng: random.Random) -> None:
        if seat not in (0, 1):
            raise ValueError(f"no seat {seat!r}; seats are 0 and 1")
        self.seat = seat
        self.rng = rng

    def choose(self, view: PlayerView) -> dict[Card, int]:
        """Card -> cell for this half's four cards (see the module docstring)."""
        pos = Position.of(view)
        if view.seat != self.seat:
            raise ValueError(
                f"this player sits at seat {self.seat}, the view is seat {view.seat}'s"
            )
        return self._choose(pos, view)

    def _choose(self, pos: Position, view: PlayerView) -> dict[Card, int]:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seat={self.seat})"


class EasyPlayer(_Base):
    """Random legal placements."""

    level = "easy"

    def _choose(self, pos: Position, view: PlayerView) -> dict[Card, int]:
        cells = self.rng.sample(pos.free, len(pos.cards))
        return dict(zip(pos.cards, cells, strict=True))


class NormalPlayer(_Base):
    """A one-step heuristic: the points this placement makes or promises, no look-ahead.

    Complete lines score their points; lines waiting for cards score a fixed
    promise per pair (same colour: a flush is possible; close ranks: a
    straight is possible), doubled through the centre. It never enumerates
    the deals to come, which is what separates it from *hard*.
    """

    level = "normal"

    def _choose(self, pos: Position, view: PlayerView) -> dict[Card, int]:
        best_value = -1.0
        choices: list[tuple[int, ...]] = []
        for cells in itertools.permutations(pos.free, len(pos.cards)):
            grid: dict[int, Card] = dict(pos.fixed)
            grid.update(zip(cells, pos.cards, strict=True))
            value = _promise(grid)
            if value > best_value + 1e-9:
                best_value, choices = value, [cells]
            elif abs(value - best_value) <= 1e-9:
                choices.append(cells)
        return dict(zip(pos.cards, self.rng.choice(choices), strict=True))


def _promise(grid: dict[int, Card]) -> float:
    """Heuristic value of a partial grid (centre unknown)."""
    total = 0.0
    for lines, mult in ((OUTER_LINES, 1.0), (CENTRE_LINES, 2.0)):
        for line in lines:
            cards = [grid[c] for c in line if c in grid]
            if len(cards) == 3:
                total += mult * _points(cards)
            elif len(cards) == 2:
                total += mult * _pair_promise(cards[0], cards[1])
    return total


def _points(cards: list[Card]) -> float:
    ranks = sorted(c.rank for c in cards)
    straight = ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1
    flush = len({c.colour for c in cards}) == 1
    return float(straight) + float(flush)


def _pair_promise(a: Card, b: Card) -> float:
    gap = abs(a.rank - b.rank)
    straight = 0.3 if gap == 1 else 0.15 if gap == 2 else 0.0
    flush = 0.45 if a.colour is b.colour else 0.0
    return straight + flush


class HardPlayer(_Base):
    """Exact expectimax: the placement of highest expected final score of its grid.

    Ties (equal exact values) are broken with the player's RNG, which also picks
    among the 8 symmetric images in the first half.
    """

    level = "hard"

    def _choose(self, pos: Position, view: PlayerView) -> dict[Card, int]:
        cells, _ = best_placement(pos, self.rng)
        return cells


class MatchPlayer(_Base):
    """Maximises the chance of winning the match from the totals and rounds left.

    See :mod:`royalnine.ai.match_level` for the model.
    """

    level = "match"

    def _choose(self, pos: Position, view: PlayerView) -> dict[Card, int]:
        return choose_for_match(pos, view, self.rng)


_CLASSES: dict[str, type[_Base]] = {
    "easy": EasyPlayer,
    "normal": NormalPlayer,
    "hard": HardPlayer,
    "match": MatchPlayer,
}


def make_player(level: str, seat: int, rng: random.Random | None = None) -> Player:
    """A CPU player of ``level`` (one of :data:`LEVELS`) at ``seat``.

    Args:
        level: "easy", "normal", "hard" or "match".
        seat: 0 or 1.
        rng: the only source of randomness the player uses (tie-breaks, easy's
            choices); a fresh unseeded one if omitted.
    """
    try:
        cls = _CLASSES[level]
    except KeyError:
        raise ValueError(f"no CPU level {level!r}; choose from {', '.join(LEVELS)}") from None
    return cls(seat, rng if rng is not None else random.Random())
