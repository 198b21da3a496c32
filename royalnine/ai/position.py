"""What a CPU needs from a :class:`~royalnine.core.PlayerView`: the placement decision it poses.

This is the only place the CPU players read a view, and a view is all they get:
it holds no reference to the match, the dealer or the other seat's hidden cards.
"""

from __future__ import annotations

from dataclasses import dataclass

from royalnine.core.cards import Card
from royalnine.core.scoring import CENTRE
from royalnine.core.view import PlayerView

HAND = 4


class NotMyTurn(ValueError):
    """The view is not a place phase awaiting this seat's four cards."""


@dataclass(frozen=True)
class Position:
    """One seat's placement decision.

    Attributes:
        half: 1 or 2.
        cards: this half's four cards (unplaced ones first, then the movable placed ones).
        free: the cells they may go to (empty or holding one of them), ascending.
        fixed: cell -> card of own cards confirmed earlier (empty in the first half).
        unseen: the cards this seat has not seen this round, in deck order.
        opponent_fixed: cell -> card of the opponent's confirmed cards this seat has seen.
        opponent_cards: the opponent's cards dealt this half (face up, places unknown).
    """

    half: int
    cards: tuple[Card, ...]
    free: tuple[int, ...]
    fixed: dict[int, Card]
    unseen: tuple[Card, ...]
    opponent_fixed: dict[int, Card]
    opponent_cards: tuple[Card, ...]

    @classmethod
    def of(cls, view: PlayerView) -> Position:
        """The decision a view poses; raises :class:`NotMyTurn` if there is none to make."""
        if not isinstance(view, PlayerView):
            raise TypeError(f"a CPU player reads a PlayerView, not {type(view).__name__}")
        if not view.phase.is_place or view.confirmed:
            raise NotMyTurn(f"seat {view.seat} has nothing to place in phase {view.phase.value}")
        movable = view.movable_cells
        cards = tuple(view.hand) + tuple(c for i in movable if (c := view.grid[i]) is not None)
        free = tuple(sorted(view.empty_cells + movable))
        fixed = {i: c for i, c in enumerate(view.grid) if c is not None and i not in movable}
        fixed.pop(CENTRE, None)
        want_free = HAND * (3 - view.phase.half)  # 8 cells in the first half, 4 in the second
        if len(cards) != HAND or len(free) != want_free:
            raise NotMyTurn(
                f"expected {HAND} cards for {want_free} free cells, "
                f"got {len(cards)} cards and {len(free)} cells"
            )
        opponent_fixed = {
            i: c for i, c in enumerate(view.opponent_grid) if c is not None and i != CENTRE
        }
        return cls(
            half=view.phase.half,
            cards=cards,
            free=free,
            fixed=fixed,
            unseen=view.unseen,
            opponent_fixed=opponent_fixed,
            opponent_cards=tuple(view.opponent_dealt),
        )
