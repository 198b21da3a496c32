"""Cards: parsing and formatting round trips, the deck, bad card strings."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from royalnine.core import BadCard, Card, Colour, make_deck, parse_cards
from royalnine.core.cards import shuffled


def test_parse_and_str_round_trip() -> None:
    card = Card.parse("R7")
    assert card.colour is Colour.RED and card.rank == 7
    assert str(card) == "R7"
    assert repr(card) == "Card.parse('R7')"
    assert eval(repr(card)) == card
    assert Card.parse(" b10 ") == Card(Colour.BLUE, 10)


@pytest.mark.parametrize("text", ["", "R", "R0", "G5", "R11", "7R", "R-1", "RR", "B 3", "R01"])
def test_bad_card_strings(text: str) -> None:
    with pytest.raises(BadCard):
        Card.parse(text)


def test_ten_needs_the_tens_rule() -> None:
    with pytest.raises(BadCard, match="tens"):
        Card.parse("B10", tens=False)


def test_decks() -> None:
    deck = make_deck()
    assert len(deck) == 18 and len(set(deck)) == 18
    assert {c.rank for c in deck} == set(range(1, 10))
    tens = make_deck(tens=True)
    assert len(tens) == 20 and set(deck) < set(tens)
    assert [c.index for c in tens] == sorted(c.index for c in tens)


@given(st.integers(0, 19))
def test_index_round_trip(i: int) -> None:
    assert Card.from_index(i).index == i
    assert Card.parse(str(Card.from_index(i))) == Card.from_index(i)


def test_parse_cards_and_shuffle_are_deterministic() -> None:
    assert parse_cards("R1, B2,R3") == (Card.parse("R1"), Card.parse("B2"), Card.parse("R3"))
    deck = make_deck()
    assert shuffled(deck, random.Random(5)) == shuffled(deck, random.Random(5))
    assert sorted(shuffled(deck, random.Random(5))) == sorted(deck)
