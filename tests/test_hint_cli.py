"""``royalnine hint``: ranking output, JSON shape, agreement with the exact search, bad input."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from royalnine.ai.exact import FirstHalf, second_half
from royalnine.cli import main
from royalnine.core.cards import make_deck, parse_cards

FIRST = ["hint", "--hand", "R2,B3,B7,B8", "--opponent", "R4,R6,B1,B9"]
SECOND = [
    "hint",
    "--hand", "R1,R5,B2,B6",
    "--opponent", "B4,B5,R7,R9",
    "--grid", "R2,-,B3,-,?,B7,-,B8,-",
    "--opponent-grid", "R4,R6,-,B1,?,-,B9,-,-",
]  # fmt: skip


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> list[dict[str, object]]:
    assert main([*argv, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert list(doc) == ["placements"]
    placements: list[dict[str, object]] = doc["placements"]
    return placements


def test_first_half_json_is_ranked_and_exact(capsys: pytest.CaptureFixture[str]) -> None:
    placements = _json(capsys, FIRST)
    assert len(placements) == 10
    evs = [p["ev"] for p in placements]
    assert evs == sorted(evs, reverse=True)  # type: ignore[type-var]
    best = placements[0]
    cells = best["cells"]
    assert isinstance(cells, dict)
    assert set(cells) == {"R2", "B3", "B7", "B8"}
    assert all(isinstance(c, int) and 0 <= c <= 8 and c != 4 for c in cells.values())
    assert len(set(cells.values())) == 4
    # the value is the exact search's best, independently recomputed here
    hand = [c.index for c in parse_cards("R2,B3,B7,B8")]
    seen = hand + [c.index for c in parse_cards("R4,R6,B1,B9")]
    unseen = [c.index for c in make_deck() if c.index not in seen]
    fh = FirstHalf(hand, unseen)
    value = Fraction(fh.best()[1], fh.denominator)
    assert best["exact"] == f"{value.numerator}/{value.denominator}"
    assert best["ev"] == round(float(value), 4)
    assert best["equivalent"] == 8


def test_all_lists_every_placement_class(capsys: pytest.CaptureFixture[str]) -> None:
    assert len(_json(capsys, [*FIRST, "--all"])) == 210  # 1680 placements / 8 symmetries
    assert len(_json(capsys, [*SECOND, "--all"])) == 24


def test_second_half_matches_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    placements = _json(capsys, [*SECOND, "--all"])
    fixed = {0: "R2", 2: "B3", 5: "B7", 7: "B8"}
    seen = "R1,R5,B2,B6,B4,B5,R7,R9,R2,B3,B7,B8,R4,R6,B1,B9"
    pool = [c.index for c in make_deck() if c not in parse_cards(seen)]
    assert len(pool) == 2
    table = second_half(
        {cell: parse_cards(card)[0].index for cell, card in fixed.items()},
        [c.index for c in parse_cards("R1,R5,B2,B6")],
        [1, 3, 6, 8],
        pool,
    )
    assert sorted((p["ev"] for p in placements), reverse=True) == sorted(
        (round(float(x), 4) for x in table.evs), reverse=True
    )
    for p in placements:
        cells = p["cells"]
        assert isinstance(cells, dict)
        assert sorted(cells.values()) == [1, 3, 6, 8]


def test_tens(capsys: pytest.CaptureFixture[str]) -> None:
    placements = _json(capsys, ["hint", "--hand", "R10,B3,B7,B8", "--opponent", "R4,R6,B1,B10",
                                "--tens"])  # fmt: skip
    assert "R10" in placements[0]["cells"]  # type: ignore[operator]


def test_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(FIRST) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("first half: 10 placements")
    assert len(lines) == 11 and lines[1].lstrip().startswith("1.")
    assert main(SECOND) == 0
    out = capsys.readouterr().out
    assert out.startswith("second half")
    assert "r2" in out  # cards already on the grid in lower case


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--hand", "R2,B3", "--opponent", "R4,R6,B1,B9"], "--hand needs 4 cards"),
        (["--hand", "R2,B3,B7,R2", "--opponent", "R4,R6,B1,B9"], "R2 is given twice"),
        (["--hand", "R2,B3,B7,B8", "--opponent", "R4,R6,B1,B8"], "B8 is given twice"),
        (["--hand", "R2,B3,B7,B10", "--opponent", "R4,R6,B1,B9"], "needs the tens rule"),
        (["--hand", "R2,B3,B7,X8", "--opponent", "R4,R6,B1,B9"], "not a card"),
        (["--hand", "R2,B3,B7,B8", "--opponent", "R4,R6,B1"], "--opponent needs"),
        (
            ["--hand", "R2,B3,B7,B8", "--opponent", "R4,R6,B1,B9", "--grid", "R1,-,-,-,R5,-,-,-,-"],
            "centre (cell 4) is face down",
        ),
        (
            ["--hand", "R2,B3,B7,B8", "--opponent", "R4,R6,B1,B9", "--grid", "R1,-,-"],
            "needs 9 comma-separated entries",
        ),
        (
            ["--hand", "R2,B3,B7,B8", "--opponent", "R4,R6,B1,B9", "--grid", "?,-,-,-,?,-,-,-,-"],
            "'?' marks the face-down centre",
        ),
        (
            ["--hand", "R2,B3,B7,B8", "--opponent", "R4,R6,B1,B9", "--grid", "R1,R3,-,-,?,-,-,-,-"],
            "empty (first half) or hold your 4",
        ),
        (
            ["--hand", "R2,B3,B7,B8", "--opponent", "R4,R6,B1,B9",
             "--grid", "R1,R3,R5,-,?,-,-,-,B5"],
            "needs --opponent-grid",
        ),
        (
            ["--hand", "R2,B3,B7,B8", "--opponent", "R4,R6,B1,B9",
             "--opponent-grid", "R1,-,-,-,?,-,-,-,-"],
            "must be empty in the first half",
        ),
    ],
)  # fmt: skip
def test_bad_input_is_one_clear_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(["hint", *argv]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("royalnine hint: ") and message in err[0]


def test_missing_required_option_exits_non_zero(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["hint", "--hand", "R2,B3,B7,B8"])
    assert exc.value.code != 0
    assert "--opponent" in capsys.readouterr().err
