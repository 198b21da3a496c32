"""Cards of Royal Nine: two colours, ranks 1-9 and the optional tens.

A card is written as its colour letter and rank: ``R7`` is red 7, ``B10`` blue 10.
Red stands for hearts and blue for spades when playing with a real deck.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass
from functools import cache, total_ordering

from royalnine.core.errors import BadCard

MIN_RANK = 1
MAX_RANK = 9
TEN = 10


class Colour(enum.Enum):
    """The two card colours. The value is the letter used in card strings."""

    RED = "R"
    BLUE = "B"

    @property
    def other(self) -> Colour:
        """The opposite colour."""
        return Colour.BLUE if self is Colour.RED else Colour.RED


@total_ordering
@dataclass(frozen=True, slots=True)
class Card:
    """One card: a colour and a rank 1-10 (10 exists only with the tens rule).

    Cards order as the deck does: red before blue, then by rank.
    """

    colour: Colour
    rank: int

    def __post_init__(self) -> None:
        if not isinstance(self.rank, int) or not MIN_RANK <= self.rank <= TEN:
            raise BadCard(f"rank must be 1-10, not {self.rank!r}")

    @classmethod
    def parse(cls, text: str, *, tens: bool = True) -> Card:
        """Parse ``"R7"``/``"b10"`` into a card; validates and raises :class:`BadCard`.

        Args:
            text: colour letter (R or B, any case) followed by the rank.
            tens: whether the tens rule is on; without it ``R10``/``B10`` are rejected.
        """
        return _parse(text.strip().upper(), tens)

    @property
    def index(self) -> int:
        """A dense number 0-19: red 1-10 are 0-9, blue 1-10 are 10-19 (for tables and bitmasks)."""
        return (0 if self.colour is Colour.RED else 10) + self.rank - 1

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card whose :attr:`index` is ``index``."""
        if not 0 <= index < 20:
            raise BadCard(f"card index must be 0-19, not {index}")
        return _ALL_BY_INDEX[index]

    @property
    def is_red(self) -> bool:
        """True for red cards."""
        return self.colour is Colour.RED

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __str__(self) -> str:
        return f"{self.colour.value}{self.rank}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


@cache
def _parse(text: str, tens: bool) -> Card:
    if len(text) > 4:
        raise BadCard(f"not a card: {text[:8]!r}... (expected R or B followed by 1-9, e.g. R7)")
    if (
        len(text) < 2
        or text[0] not in "RB"
        or not (text[1:].isascii() and text[1:].isdigit())
        or text[1] == "0"
    ):
        raise BadCard(f"not a card: {text!r} (expected R or B followed by 1-9, e.g. R7)")
    rank = int(text[1:])
    if rank == TEN and not tens:
        raise BadCard(f"{text} needs the tens rule (use --tens)")
    if not MIN_RANK <= rank <= TEN:
        raise BadCard(f"not a card: {text!r} (ranks are 1-9, or 10 with tens)")
    return Card(Colour(text[0]), rank)


_ALL_BY_INDEX: tuple[Card, ...] = tuple(
    Card(colour, rank) for colour in (Colour.RED, Colour.BLUE) for rank in range(1, TEN + 1)
)


def make_deck(*, tens: bool = False) -> tuple[Card, ...]:
    """All cards in play, in a fixed order: red then blue, ascending ranks (18 or 20 cards)."""
    top = TEN if tens else MAX_RANK
    return tuple(c for c in _ALL_BY_INDEX if c.rank <= top)


def shuffled(cards: tuple[Card, ...] | list[Card], rng: random.Random) -> list[Card]:
    """A shuffled copy of ``cards``; the only randomness is the explicit ``rng``."""
    deck = list(cards)
    rng.shuffle(deck)
    return deck


def parse_cards(text: str, *, tens: bool = True) -> tuple[Card, ...]:
    """Parse a comma-separated list of cards (``"R1,B2,R3"``); raises :class:`BadCard`."""
    parts = [p for p in (s.strip() for s in text.split(",")) if p]
    return tuple(Card.parse(p, tens=tens) for p in parts)
