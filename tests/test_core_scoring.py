"""Scoring: the worked examples of spec/rules.md, edge cases, and properties against a recount."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from royalnine.core import BadCard, BadGrid, Card, Role, make_deck, score_grid
from royalnine.core.scoring import LINES, score_total


def grid(text: str) -> list[Card]:
    return [Card.parse(p) for p in text.split(",")]


def test_worked_example_from_the_rules() -> None:
    score = score_grid(grid("R1,R2,R3,B4,R5,B6,B7,B8,R9"))
    assert score.total == 5
    by_name = {s.line.name: s for s in score.lines}
    assert by_name["top row"].role is Role.STRAIGHT_FLUSH and by_name["top row"].points == 2
    assert by_name["middle row"].role is Role.STRAIGHT
    assert by_name["middle row"].doubled and by_name["middle row"].points == 2
    assert by_name["bottom row"].role is Role.STRAIGHT and by_name["bottom row"].points == 1
    for name in ("left column", "middle column", "right column"):
        assert by_name[name].role is Role.NONE and by_name[name].points == 0
    assert not score.royal_nine and not score.bust


def test_all_red_without_straights_is_eight_plus_sixteen() -> None:
    # Rows and columns of nine red cards arranged so that no line is a straight.
    cards = grid("R1,R3,R5,R7,R9,R2,R4,R6,R8")
    score = score_grid(cards)
    assert all(s.role is Role.FLUSH for s in score.lines)
    assert score.line_points == 8
    assert score.royal_nine and not score.bust
    assert score.total == 24


def test_maximum_grid_scores_28() -> None:
    score = score_grid(grid("R1,R2,R3,R4,R5,R6,R7,R8,R9"))
    assert [s.points for s in score.lines] == [2, 4, 2, 1, 2, 1]
    assert score.total == 28


def test_bust_scores_zero_whatever_the_lines() -> None:
    score = score_grid(grid("B1,B2,B3,B4,R5,B6,B7,B8,B9"))
    assert score.bust and not score.royal_nine
    assert score.line_points > 0
    assert score.total == 0


def test_centre_counts_double_in_both_middle_lines() -> None:
    score = score_grid(grid("B9,R4,B2,R3,R5,R7,B1,R6,B8"))
    by_name = {s.line.name: s for s in score.lines}
    assert by_name["middle column"].role is Role.STRAIGHT_FLUSH
    assert by_name["middle column"].points == 4
    assert by_name["middle row"].role is Role.FLUSH and by_name["middle row"].points == 2


@pytest.mark.parametrize(
    ("ranks", "straight"),
    [
        ((1, 2, 3), True),
        ((3, 1, 2), True),
        ((7, 8, 9), True),
        ((9, 8, 7), True),
        ((8, 9, 1), False),
        ((9, 1, 2), False),
        ((1, 2, 4), False),
        ((8, 9, 10), True),
        ((9, 10, 1), False),
    ],
)
def test_straights_have_no_wrap_around(ranks: tuple[int, int, int], straight: bool) -> None:
    from royalnine.core.scoring import is_straight

    assert is_straight(ranks) is straight


def test_eight_nine_ten_scores_only_with_tens() -> None:
    cards = grid("R8,B9,R10,B1,R2,B3,R4,B5,R6".replace("R10", "R7"))
    assert score_grid(cards).lines[0].role is Role.STRAIGHT  # 8-9-7 is a straight
    with pytest.raises(BadCard):
        Card.parse("R10", tens=False)
    tens_grid = [Card.parse(p) for p in ["R8", "B9", "R10", "B1", "R2", "B3", "R4", "B5", "R6"]]
    assert score_grid(tens_grid).lines[0].role is Role.STRAIGHT


@pytest.mark.parametrize(
    ("cells", "message"),
    [
        ("R1,R2,R3,R4,R5,R6,R7,R8", "9 cards"),
        ("R1,R1,R3,R4,R5,R6,R7,R8,R9", "duplicate card R1"),
    ],
)
def test_bad_grids_are_rejected(cells: str, message: str) -> None:
    with pytest.raises(BadGrid, match=message):
        score_grid(grid(cells))


def test_empty_cell_is_rejected() -> None:
    cells: list[Card | None] = list(grid("R1,R2,R3,R4,R5,R6,R7,R8,R9"))
    cells[3] = None
    with pytest.raises(BadGrid, match="cell 3 is empty"):
        score_grid(cells)


# --- properties ---------------------------------------------------------------

grids = st.booleans().flatmap(
    lambda tens: st.permutations(make_deck(tens=tens)).map(lambda d: list(d[:9]))
)

SYMMETRIES = [
    lambda r, c: (r, c),
    lambda r, c: (c, 2 - r),
    lambda r, c: (2 - r, 2 - c),
    lambda r, c: (2 - c, r),
    lambda r, c: (r, 2 - c),
    lambda r, c: (2 - r, c),
    lambda r, c: (c, r),
    lambda r, c: (2 - c, 2 - r),
]


def transformed(cards: list[Card], sym: int) -> list[Card]:
    out: list[Card | None] = [None] * 9
    for r, c in itertools.product(range(3), range(3)):
        nr, nc = SYMMETRIES[sym](r, c)
        out[nr * 3 + nc] = cards[r * 3 + c]
    return [c for c in out if c is not None]


@settings(max_examples=300)
@given(grids, st.integers(0, 7))
def test_score_is_invariant_under_the_symmetries_of_the_square(cards: list[Card], sym: int) -> None:
    assert score_grid(transformed(cards, sym)).total == score_grid(cards).total


def recount(cards: list[Card]) -> int:
    """An independent scorer written from the rules text, not from the module."""
    rows = [cards[0:3], cards[3:6], cards[6:9]]
    cols = [cards[0::3], cards[1::3], cards[2::3]]
    total = 0
    for i, line in enumerate(rows + cols):
        ranks = sorted(c.rank for c in line)
        straight = ranks[2] - ranks[0] == 2 and len(set(ranks)) == 3
        flush = len({c.colour for c in line}) == 1
        pts = 2 if straight and flush else 1 if straight or flush else 0
        middle = i in (1, 4)
        total += pts * (2 if middle else 1)
    own = [c.colour for j, c in enumerate(cards) if j != 4]
    if len(set(own)) == 1:
        if cards[4].colour == own[0]:
            total += 16
        else:
            total = 0
    return total


@settings(max_examples=500)
@given(grids)
def test_total_equals_an_independent_recount_and_the_breakdown(cards: list[Card]) -> None:
    score = score_grid(cards)
    assert score.total == recount(cards)
    assert score.total == score_total(cards)
    from_breakdown = sum(s.points for s in score.lines)
    for s in score.lines:
        assert s.points == s.role.points * (2 if s.line.through_centre else 1)
        assert s.doubled == (s.line.through_centre and s.role is not Role.NONE)
    expected = 0 if score.bust else from_breakdown + (16 if score.royal_nine else 0)
    assert score.total == expected
    assert 0 <= score.total <= 28


def test_lines_are_three_rows_and_three_columns_without_diagonals() -> None:
    cells = {line.cells for line in LINES}
    assert cells == {(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8)}
    assert [line.name for line in LINES if line.through_centre] == ["middle row", "middle column"]


# Grids checked by hand, line by line (see the comments), not by running the code.
HAND_CHECKED = [
    # R3 R5 R7 flush x2 = 2; R4 R5 R6 straight flush x2 = 4
    ("B9,R4,B2,R3,R5,R7,B1,R6,B8", 6),
    # lines would make 4 (B1 B3 B5, B4 B6 B8, B1 B7 B4, B5 B2 B8) but the blue grid has a red centre
    ("B1,B3,B5,B7,R9,B2,B4,B6,B8", 0),
    # nine blue, no straights: 4 outer flushes + 2 doubled flushes = 8, + 16
    ("B2,B9,B4,B7,B1,B6,B3,B5,B8", 24),
    # tens: 8-9-10 straight 1; B1 B2 R3 straight x2 = 2; R4 B5 R6 straight 1;
    # B9 B2 B5 flush x2 = 2; R10 R3 R6 flush 1
    ("R8,B9,R10,B1,B2,R3,R4,B5,R6", 7),
    # 8-9-1 is no straight; B2 B3 R4 straight x2 = 2; R5 B6 B7 straight 1
    ("R8,R9,B1,B2,B3,R4,R5,B6,B7", 3),
]


@pytest.mark.parametrize(("cells", "total"), HAND_CHECKED)
def test_hand_checked_grids(cells: str, total: int) -> None:
    assert score_grid(grid(cells)).total == total
