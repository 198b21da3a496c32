"""CPU players and placement hints for Royal Nine (pure: standard library and numpy only).

Usage::

    from royalnine.ai import make_player, LEVELS, hint
    player = make_player("hard", seat=1, rng=random.Random(seed))
    placement = player.choose(view)            # dict[Card, int]
    match = match.apply_all(placement_actions(1, placement))
    best = hint(view)[0]                       # RankedPlacement(cells, ev, ...)

Everything here reads a :class:`~royalnine.core.PlayerView` only.
"""

from __future__ import annotations

from royalnine.ai.players import LEVELS, Player, make_player
from royalnine.ai.position import NotMyTurn, Position
from royalnine.ai.search import RankedPlacement, rank
from royalnine.core.view import PlayerView


def hint(view: PlayerView, top: int | None = None) -> list[RankedPlacement]:
    """Placements of this half's cards ranked by exact expected final score, best first.

    In the first half each entry stands for its 8 symmetric images
    (:attr:`RankedPlacement.equivalent`). ``top`` keeps only the best few, which
    is faster; ``None`` ranks every placement class.

    Raises:
        NotMyTurn: the view is not a place phase awaiting this seat.
    """
    return rank(Position.of(view), top)


__all__ = ["LEVELS", "NotMyTurn", "Player", "PlayerView", "RankedPlacement", "hint", "make_player"]
