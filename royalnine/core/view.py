"""What one seat may see of a match: the only thing the UI, the CPU and the remote protocol read.

The common card is visible only once revealed; the opponent's hand is visible
as dealt (cards are dealt face up) but where the opponent puts this half's
cards is hidden until both seats have confirmed; undealt cards are never shown.
"""

from __future__ import annotations

from dataclasses import dataclass

from royalnine.core.cards import Card
from royalnine.core.match import (
    HAND_SIZE,
    SEATS,
    Grid,
    Match,
    MatchConfig,
    Phase,
    RoundResult,
)
from royalnine.core.scoring import CELLS, CENTRE


@dataclass(frozen=True)
class PlayerView:
    """One seat's knowledge of the match at this moment."""

    seat: int
    config: MatchConfig
    round_number: int
    phase: Phase
    grid: Grid
    """The seat's own grid, the common card in the centre once revealed."""
    hand: tuple[Card, ...]
    """This half's cards not yet placed."""
    locked: frozenset[int]
    """Own cells whose cards were confirmed and can never move."""
    confirmed: bool
    """Whether this seat has confirmed the current half."""
    opponent_grid: Grid
    """The opponent's cards whose places this seat may know; None elsewhere."""
    opponent_dealt: tuple[Card, ...]
    """The opponent's cards dealt face up this half (placed or not)."""
    opponent_confirmed: bool
    centre: Card | None
    results: tuple[RoundResult, ...]
    totals: tuple[int, int]
    dealt: tuple[Card, ...] = ()
    """This seat's cards dealt this half, in deal order, placed or not (while placing)."""

    @property
    def opponent(self) -> int:
        """The other seat."""
        return 1 - self.seat

    @property
    def seen(self) -> frozenset[Card]:
        """Every card this seat has seen this round."""
        cards = {c for c in self.grid if c is not None} | set(self.hand)
        cards |= {c for c in self.opponent_grid if c is not None} | set(self.opponent_dealt)
        if self.centre is not None:
            cards.add(self.centre)
        return frozenset(cards)

    @property
    def unseen(self) -> tuple[Card, ...]:
        """Cards of the deck this seat has not seen this round, in deck order."""
        seen = self.seen
        return tuple(c for c in self.config.deck if c not in seen)

    @property
    def empty_cells(self) -> tuple[int, ...]:
        """Own cells a card may go to now (never the centre)."""
        return tuple(i for i, c in enumerate(self.grid) if c is None and i != CENTRE)

    @property
    def movable_cells(self) -> tuple[int, ...]:
        """Own cells holding a card of this half that may still move."""
        if not self.phase.is_place or self.confirmed:
            return ()
        return tuple(
            i
            for i, c in enumerate(self.grid)
            if c is not None and i != CENTRE and i not in self.locked
        )


def view(match: Match, seat: int) -> PlayerView:
    """What ``seat`` may see of ``match`` now."""
    if seat not in SEATS:
        raise ValueError(f"no seat {seat!r}; seats are 0 and 1")
    rnd = match.round
    opp = 1 - seat
    revealed = rnd.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER)
    centre = rnd.centre if revealed else None
    grid = list(rnd.grids[seat])
    grid[CENTRE] = centre
    opp_dealt: tuple[Card, ...] = ()
    own_dealt: tuple[Card, ...] = ()
    hidden: set[Card] = set()
    if rnd.phase.is_place:
        opp_dealt = rnd.dealt[opp][-HAND_SIZE:]
        own_dealt = rnd.dealt[seat][-HAND_SIZE:]
        hidden = set(opp_dealt)
    opp_grid: list[Card | None] = [None] * CELLS
    for i, card in enumerate(rnd.grids[opp]):
        if card is not None and card not in hidden:
            opp_grid[i] = card
    opp_grid[CENTRE] = centre
    return PlayerView(
        seat=seat,
        config=match.config,
        round_number=rnd.number,
        phase=rnd.phase,
        grid=tuple(grid),
        hand=rnd.hands[seat] if rnd.phase.is_place else (),
        locked=rnd.locked[seat],
        confirmed=rnd.confirmed[seat] if rnd.phase.is_place else False,
        opponent_grid=tuple(opp_grid),
        opponent_dealt=opp_dealt,
        opponent_confirmed=rnd.confirmed[opp] if rnd.phase.is_place else False,
        centre=centre,
        results=match.results,
        totals=match.totals(),
        dealt=own_dealt,
    )
