"""The round and match state machine of Royal Nine.

A :class:`Match` is an immutable value: :meth:`Match.apply` validates an action
and returns the next state, so an illegal action leaves the state unchanged by
construction. Chance is explicit: deals are :class:`Deal` actions whose cards
come from outside (a seeded :class:`Dealer` locally, shared randomness in a
remote match), so a whole match can be rebuilt from its list of actions.

The common card is drawn at the reveal from the cards nobody has seen. That is
equivalent in distribution to dealing it face down first (the 2013 rule), and
it means no state, save file or message can hold the common card before the
rules show it. Screens still show a face-down card from the start.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from royalnine.core.cards import Card, make_deck
from royalnine.core.errors import IllegalMove
from royalnine.core.scoring import CELLS, CENTRE, GridScore, score_grid

SEATS = (0, 1)
HAND_SIZE = 4
DEFAULT_ROUNDS = 5
MAX_ROUNDS = 99

Grid = tuple[Card | None, ...]
EMPTY_GRID: Grid = (None,) * CELLS


class Phase(enum.Enum):
    """Where a round stands. Deal phases wait for chance; place phases for both seats."""

    FIRST_DEAL = "first_deal"
    FIRST_PLACE = "first_place"
    SECOND_DEAL = "second_deal"
    SECOND_PLACE = "second_place"
    REVEAL = "reveal"
    ROUND_OVER = "round_over"
    MATCH_OVER = "match_over"

    @property
    def is_deal(self) -> bool:
        """True where the next action is a chance event (:class:`Deal`)."""
        return self in (Phase.FIRST_DEAL, Phase.SECOND_DEAL, Phase.REVEAL)

    @property
    def is_place(self) -> bool:
        """True where the seats place cards and confirm."""
        return self in (Phase.FIRST_PLACE, Phase.SECOND_PLACE)

    @property
    def half(self) -> int:
        """1 or 2 for the deal/place phases of that half, 0 otherwise."""
        return {
            Phase.FIRST_DEAL: 1,
            Phase.FIRST_PLACE: 1,
            Phase.SECOND_DEAL: 2,
            Phase.SECOND_PLACE: 2,
        }.get(self, 0)


@dataclass(frozen=True)
class MatchConfig:
    """Rules options: number of rounds (5 in the Petit Computer version) and the tens."""

    rounds: int = DEFAULT_ROUNDS
    tens: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.rounds, int) or not 1 <= self.rounds <= MAX_ROUNDS:
            raise ValueError(f"rounds must be 1-{MAX_ROUNDS}, not {self.rounds!r}")

    @property
    def deck(self) -> tuple[Card, ...]:
        """The cards in play."""
        return make_deck(tens=self.tens)


# --- actions -----------------------------------------------------------------


@dataclass(frozen=True)
class Deal:
    """Chance: 8 cards for a half (seat 0 gets the first 4) or 1 common card at the reveal."""

    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Place:
    """Put a card from the seat's hand, or move one of its unconfirmed cards, to an empty cell."""

    seat: int
    card: Card
    cell: int


@dataclass(frozen=True)
class Unplace:
    """Take an unconfirmed card of this half back into the hand."""

    seat: int
    card: Card


@dataclass(frozen=True)
class Confirm:
    """Fix this half's 4 cards; they never move again."""

    seat: int


@dataclass(frozen=True)
class NextRound:
    """Leave the round result and start the next round (or end the match)."""


Action = Deal | Place | Unplace | Confirm | NextRound


# --- state -------------------------------------------------------------------


@dataclass(frozen=True)
class RoundResult:
    """A finished round: both complete grids and their scores."""

    number: int
    grids: tuple[tuple[Card, ...], tuple[Card, ...]]
    scores: tuple[GridScore, GridScore]

    @property
    def points(self) -> tuple[int, int]:
        """Each seat's points for the round."""
        return (self.scores[0].total, self.scores[1].total)


@dataclass(frozen=True)
class RoundState:
    """The round in progress. Grids hold only the seats' own cards; the centre is separate."""

    number: int
    phase: Phase = Phase.FIRST_DEAL
    grids: tuple[Grid, Grid] = (EMPTY_GRID, EMPTY_GRID)
    hands: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())
    dealt: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())
    locked: tuple[frozenset[int], frozenset[int]] = (frozenset(), frozenset())
    confirmed: tuple[bool, bool] = (False, False)
    centre: Card | None = None

    def used_cards(self) -> frozenset[Card]:
        """Every card dealt this round so far (both seats' cards and the common card)."""
        cards = set(self.dealt[0]) | set(self.dealt[1])
        if self.centre is not None:
            cards.add(self.centre)
        return frozenset(cards)

    def full_grid(self, seat: int) -> Grid:
        """The seat's grid with the common card in the centre (None until revealed)."""
        grid = list(self.grids[seat])
        grid[CENTRE] = self.centre
        return tuple(grid)


@dataclass(frozen=True)
class MatchOutcome:
    """How a finished match ended."""

    totals: tuple[int, int]
    winner: int | None

    @property
    def draw(self) -> bool:
        """Equal totals."""
        return self.winner is None


@dataclass(frozen=True)
class Match:
    """A whole match. Build with :meth:`Match.new`; advance with :meth:`apply`."""

    config: MatchConfig
    round: RoundState
    results: tuple[RoundResult, ...] = ()
    history: tuple[Action, ...] = field(default=(), repr=False)

    @classmethod
    def new(cls, config: MatchConfig | None = None) -> Match:
        """A match about to deal the first half of round 1."""
        return cls(config or MatchConfig(), RoundState(number=1))

    # -- queries --

    @property
    def phase(self) -> Phase:
        """The current phase."""
        return self.round.phase

    @property
    def is_over(self) -> bool:
        """True once the last round has been left with :class:`NextRound`."""
        return self.round.phase is Phase.MATCH_OVER

    def totals(self) -> tuple[int, int]:
        """Both seats' points over the finished rounds."""
        return (
            sum(r.points[0] for r in self.results),
            sum(r.points[1] for r in self.results),
        )

    def outcome(self) -> MatchOutcome | None:
        """The outcome once the match is over, else None."""
        if not self.is_over:
            return None
        a, b = self.totals()
        return MatchOutcome((a, b), None if a == b else (0 if a > b else 1))

    def awaiting(self, seat: int) -> bool:
        """True when ``seat`` has something to place or confirm now."""
        return self.round.phase.is_place and not self.round.confirmed[seat]

    def deal_size(self) -> int:
        """How many cards the pending :class:`Deal` must carry (0 if none is pending)."""
        phase = self.round.phase
        if phase in (Phase.FIRST_DEAL, Phase.SECOND_DEAL):
            return 2 * HAND_SIZE
        return 1 if phase is Phase.REVEAL else 0

    def undealt(self) -> tuple[Card, ...]:
        """Cards not yet dealt this round, in deck order (what chance draws from).

        This is the dealer's knowledge, not a player's: players read :func:`view`.
        """
        used = self.round.used_cards()
        return tuple(c for c in self.config.deck if c not in used)

    # -- transitions --

    def apply(self, action: Action) -> Match:
        """Validate ``action`` and return the next state; raises :class:`IllegalMove`."""
        if isinstance(action, Deal):
            new_round, results = self._deal(action), self.results
            if new_round.phase is Phase.ROUND_OVER:
                results = (*results, _result(new_round))
        elif isinstance(action, Place):
            new_round, results = self._place(action), self.results
        elif isinstance(action, Unplace):
            new_round, results = self._unplace(action), self.results
        elif isinstance(action, Confirm):
            new_round, results = self._confirm(action), self.results
        elif isinstance(action, NextRound):
            new_round, results = self._next_round(), self.results
        else:
            raise IllegalMove(f"unknown action {action!r}")
        return replace(self, round=new_round, results=results, history=(*self.history, action))

    def apply_all(self, actions: Iterable[Action]) -> Match:
        """Apply several actions in order; all or nothing."""
        match = self
        for action in actions:
            match = match.apply(action)
        return match

    def _deal(self, action: Deal) -> RoundState:
        rnd = self.round
        need = self.deal_size()
        if need == 0:
            raise IllegalMove(f"no deal is due in phase {rnd.phase.value}")
        cards = action.cards
        if len(cards) != need:
            raise IllegalMove(f"this deal needs {need} cards, got {len(cards)}")
        if len(set(cards)) != len(cards):
            raise IllegalMove("a deal cannot repeat a card")
        undealt = set(self.undealt())
        for card in cards:
            if card not in undealt:
                raise IllegalMove(f"{card} is not in the deck or was already dealt")
        if rnd.phase is Phase.REVEAL:
            return replace(rnd, centre=cards[0], phase=Phase.ROUND_OVER)
        hands = (cards[:HAND_SIZE], cards[HAND_SIZE:])
        dealt = (rnd.dealt[0] + hands[0], rnd.dealt[1] + hands[1])
        phase = Phase.FIRST_PLACE if rnd.phase is Phase.FIRST_DEAL else Phase.SECOND_PLACE
        return replace(rnd, phase=phase, hands=hands, dealt=dealt, confirmed=(False, False))

    def _check_seat_may_act(self, seat: int) -> None:
        rnd = self.round
        if seat not in SEATS:
            raise IllegalMove(f"no seat {seat!r}; seats are 0 and 1")
        if not rnd.phase.is_place:
            raise IllegalMove(f"seat {seat} cannot place cards in phase {rnd.phase.value}")
        if rnd.confirmed[seat]:
            raise IllegalMove(f"seat {seat} has already confirmed this half")

    def _place(self, action: Place) -> RoundState:
        rnd = self.round
        seat, card, cell = action.seat, action.card, action.cell
        self._check_seat_may_act(seat)
        if not isinstance(cell, int) or not 0 <= cell < CELLS:
            raise IllegalMove(f"no cell {cell!r}; cells are 0-8")
        if cell == CENTRE:
            raise IllegalMove("the centre holds the common card")
        grid = list(rnd.grids[seat])
        if grid[cell] is not None:
            raise IllegalMove(f"cell {cell} is occupied by {grid[cell]}")
        hand = list(rnd.hands[seat])
        if card in hand:
            hand.remove(card)
        elif card in grid:
            old = grid.index(card)
            if old in rnd.locked[seat]:
                raise IllegalMove(f"{card} was confirmed and cannot move")
            grid[old] = None
        else:
            raise IllegalMove(f"{card} is not in seat {seat}'s hand")
        grid[cell] = card
        return _with_seat(rnd, seat, grid=tuple(grid), hand=tuple(hand))

    def _unplace(self, action: Unplace) -> RoundState:
        rnd = self.round
        seat, card = action.seat, action.card
        self._check_seat_may_act(seat)
        grid = list(rnd.grids[seat])
        if card not in grid:
            raise IllegalMove(f"{card} is not on seat {seat}'s grid")
        cell = grid.index(card)
        if cell in rnd.locked[seat]:
            raise IllegalMove(f"{card} was confirmed and cannot move")
        grid[cell] = None
        hand = _in_deal_order(rnd.dealt[seat], (*rnd.hands[seat], card))
        return _with_seat(rnd, seat, grid=tuple(grid), hand=hand)

    def _confirm(self, action: Confirm) -> RoundState:
        rnd = self.round
        seat = action.seat
        self._check_seat_may_act(seat)
        if rnd.hands[seat]:
            left = ", ".join(str(c) for c in rnd.hands[seat])
            raise IllegalMove(f"seat {seat} must place all 4 cards before confirming ({left} left)")
        filled = frozenset(i for i, c in enumerate(rnd.grids[seat]) if c is not None)
        locked = list(rnd.locked)
        locked[seat] = filled
        confirmed = list(rnd.confirmed)
        confirmed[seat] = True
        out = replace(rnd, locked=(locked[0], locked[1]), confirmed=(confirmed[0], confirmed[1]))
        if all(confirmed):
            phase = Phase.SECOND_DEAL if rnd.phase is Phase.FIRST_PLACE else Phase.REVEAL
            out = replace(out, phase=phase)
        return out

    def _next_round(self) -> RoundState:
        rnd = self.round
        if rnd.phase is not Phase.ROUND_OVER:
            raise IllegalMove(f"the round is not over (phase {rnd.phase.value})")
        if rnd.number >= self.config.rounds:
            return replace(rnd, phase=Phase.MATCH_OVER)
        return RoundState(number=rnd.number + 1)


def _with_seat(rnd: RoundState, seat: int, *, grid: Grid, hand: tuple[Card, ...]) -> RoundState:
    grids = list(rnd.grids)
    hands = list(rnd.hands)
    grids[seat] = grid
    hands[seat] = hand
    return replace(rnd, grids=(grids[0], grids[1]), hands=(hands[0], hands[1]))


def _in_deal_order(dealt: Sequence[Card], cards: Iterable[Card]) -> tuple[Card, ...]:
    wanted = set(cards)
    return tuple(c for c in dealt if c in wanted)


def _result(rnd: RoundState) -> RoundResult:
    grids = tuple(tuple(c for c in rnd.full_grid(seat) if c is not None) for seat in SEATS)
    scores = (score_grid(grids[0]), score_grid(grids[1]))
    return RoundResult(rnd.number, (grids[0], grids[1]), scores)


# --- helpers for drivers ------------------------------------------------------


class Dealer:
    """Local chance: draws each pending deal uniformly from the undealt cards with its own RNG."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def deal(self, match: Match) -> Deal:
        """The :class:`Deal` the match is waiting for."""
        need = match.deal_size()
        if need == 0:
            raise IllegalMove(f"no deal is due in phase {match.phase.value}")
        return Deal(tuple(self.rng.sample(match.undealt(), need)))


def placement_actions(seat: int, placement: Mapping[Card, int]) -> list[Action]:
    """The actions that put a whole hand down and confirm it."""
    actions: list[Action] = [Place(seat, card, cell) for card, cell in placement.items()]
    actions.append(Confirm(seat))
    return actions
