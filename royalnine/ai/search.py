"""Exact placement rankings for a :class:`~royalnine.ai.position.Position` (hard CPU and hints).

Wraps :mod:`royalnine.ai.exact` in card terms: every placement with its exact
expected final score, as a fraction and as a float.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from royalnine.ai.exact import FirstHalf, SecondHalf, second_half
from royalnine.ai.position import Position
from royalnine.ai.tables import SYMMETRIES
from royalnine.core.cards import Card


@dataclass(frozen=True)
class RankedPlacement:
    """A placement of this half's cards and its exact expected final score.

    Attributes:
        cells: card -> cell (0-8, row-major; never 4).
        ev: expected final score of the grid, as a float (exact value: :attr:`exact`).
        exact: the same expectation as a fraction.
        equivalent: how many placements score alike by symmetry of the square and
            are represented by this one (8 in the first half, 1 in the second).
    """

    cells: dict[Card, int]
    ev: float
    exact: Fraction
    equivalent: int = 1


def first_half_analysis(pos: Position) -> FirstHalf:
    """The first-half search for a position (``pos.half`` must be 1)."""
    return FirstHalf([c.index for c in pos.cards], [c.index for c in pos.unseen])


def second_half_analysis(pos: Position) -> SecondHalf:
    """The second-half table for a position (``pos.half`` must be 2)."""
    return second_half(
        {cell: card.index for cell, card in pos.fixed.items()},
        [c.index for c in pos.cards],
        pos.free,
        [c.index for c in pos.unseen],
    )


def rank(pos: Position, top: int | None = None) -> list[RankedPlacement]:
    """Placements ranked by exact expected final score, best first.

    In the first half each entry stands for its 8 mirror images and rotations
    (the representative is the class's first in cell order); ties keep a stable
    order. ``top`` limits the list (the search then skips classes that cannot enter it).
    """
    if pos.half == 1:
        fh = first_half_analysis(pos)
        n_classes = len(fh.geo.rep_cells)
        found = fh.top(n_classes if top is None else top)
        out = []
        for rep, numerator in found:
            cells = fh.placement_cells(rep)
            frac = Fraction(numerator, fh.denominator)
            out.append(
                RankedPlacement(
                    {card: int(cell) for card, cell in zip(pos.cards, cells, strict=True)},
                    float(frac),
                    frac,
                    int(fh.geo.class_size[rep]),
                )
            )
        return out
    sh = second_half_analysis(pos)
    nums = sh.numerators.tolist()
    order = sorted(range(len(nums)), key=lambda i: (-nums[i], i))
    if top is not None:
        order = order[:top]
    return [
        RankedPlacement(
            {card: int(cell) for card, cell in zip(pos.cards, sh.cells[i], strict=True)},
            float(Fraction(nums[i], len(sh.pool))),
            Fraction(nums[i], len(sh.pool)),
        )
        for i in order
    ]


def best_placement(pos: Position, rng: random.Random) -> tuple[dict[Card, int], Fraction]:
    """One placement of highest exact expected score, ties broken by ``rng``.

    In the first half the tie-break also picks one of the 8 symmetric images,
    so the CPU does not always favour the same corner.
    """
    if pos.half == 1:
        return pick_first_half(pos, first_half_analysis(pos), rng)
    return pick_second_half(pos, second_half_analysis(pos), rng)


def pick_first_half(
    pos: Position, fh: FirstHalf, rng: random.Random
) -> tuple[dict[Card, int], Fraction]:
    """:func:`best_placement` from a first-half analysis already made."""
    reps, numerator = fh.best()
    rep = rng.choice(sorted(reps))
    cells = fh.placement_cells(rep, rng.randrange(len(SYMMETRIES)))
    placement = {card: int(cell) for card, cell in zip(pos.cards, cells, strict=True)}
    return placement, Fraction(numerator, fh.denominator)


def pick_second_half(
    pos: Position, sh: SecondHalf, rng: random.Random
) -> tuple[dict[Card, int], Fraction]:
    """:func:`best_placement` from a second-half table already made."""
    nums = sh.numerators.tolist()
    top = max(nums)
    cells = sh.cells[rng.choice([i for i, v in enumerate(nums) if v == top])]
    placement = {card: int(cell) for card, cell in zip(pos.cards, cells, strict=True)}
    return placement, Fraction(top, len(sh.pool))
