"""Play whole matches between CPU players headless: for tests, benchmarks and simulations.

Chance comes from a :class:`~royalnine.core.Dealer` with its own seeded RNG, so
the same seed deals the same cards whatever the players do (a deal depends
only on which cards are still undealt), which makes comparisons between
levels paired.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from royalnine.ai.players import Player
from royalnine.core.match import Dealer, Match, MatchConfig, NextRound, placement_actions
from royalnine.core.view import view


@dataclass
class Timings:
    """Wall-clock seconds of each decision, per seat and half."""

    by_half: dict[tuple[int, int], list[float]] = field(default_factory=dict)

    def add(self, seat: int, half: int, seconds: float) -> None:
        """Record one decision."""
        self.by_half.setdefault((seat, half), []).append(seconds)


def play_match(
    players: tuple[Player, Player],
    seed: int,
    config: MatchConfig | None = None,
    timings: Timings | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Match:
    """Play a whole match between two players; the dealer is seeded with ``seed``.

    Each player sees only ``view(match, its seat)``. Returns the finished match.
    """
    match = Match.new(config or MatchConfig())
    dealer = Dealer(random.Random(seed))
    while not match.is_over:
        if match.phase.is_deal:
            match = match.apply(dealer.deal(match))
        elif match.phase.is_place:
            for player in players:
                seat = player.seat
                if not match.awaiting(seat):
                    continue
                start = clock()
                placement = player.choose(view(match, seat))
                if timings is not None:
                    timings.add(seat, match.phase.half, clock() - start)
                match = match.apply_all(placement_actions(seat, placement))
        else:
            match = match.apply(NextRound())
    return match
