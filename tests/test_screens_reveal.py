"""The scoring show follows the core: each line in turn, then the bonus or bust, then the total."""

from __future__ import annotations

from royalnine.core import parse_cards, score_grid
from royalnine.screens.reveal import grid_steps


def test_worked_example_from_the_rules() -> None:
    # R1 R2 R3 / B4 [R5] B6 / B7 B8 R9 -> 2 + 2 + 1 = 5 (docs: rules.md worked example)
    score = score_grid(parse_cards("R1,R2,R3,B4,R5,B6,B7,B8,R9"))
    steps = grid_steps(0, score, "YOU", "en")
    assert [s.lines for s in steps] == [
        ("TOP ROW", "STRAIGHT FLUSH = 2"),
        ("MIDDLE ROW", "STRAIGHT x2 = 2"),
        ("BOTTOM ROW", "STRAIGHT = 1"),
        ("YOU total: 5",),
    ]
    assert [s.running for s in steps] == [2, 4, 5, 5]
    assert steps[0].cells == (0, 1, 2) and steps[1].cells == (3, 4, 5)


def test_royal_nine_and_bust_steps() -> None:
    royal = score_grid(parse_cards("R1,R2,R3,R4,R9,R5,R6,R7,R8"))
    steps = grid_steps(0, royal, "YOU", "en")
    assert steps[-2].kind == "royal" and steps[-2].running == royal.total
    assert steps[-1].lines == (f"YOU total: {royal.total}",)
    bust = score_grid(parse_cards("B1,B2,B3,B4,R9,B5,B6,B7,B8"))
    steps = grid_steps(1, bust, "CPU", "ja")
    assert steps[-2].kind == "bust" and steps[-2].cells == tuple(range(9))
    assert steps[-1].running == 0 and all(s.seat == 1 for s in steps)


def test_a_grid_without_roles_says_so() -> None:
    score = score_grid(parse_cards("R1,B5,R9,B3,R7,B2,R4,B8,R6"))
    assert score.total == 0
    steps = grid_steps(0, score, "YOU", "en")
    assert [s.kind for s in steps] == ["none", "total"]
