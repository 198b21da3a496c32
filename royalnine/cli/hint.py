"""``royalnine hint``: rank the placements of four cards by exact expected final score.

The position is what one seat has seen: its own grid and hand, the opponent's
cards dealt face up and its confirmed grid. It is turned into a
:class:`~royalnine.core.PlayerView` and ranked by :func:`royalnine.ai.hint`,
the same code the game's in-game hint and the hard CPU use.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from royalnine.ai import RankedPlacement, hint
from royalnine.cli import refuse
from royalnine.core.cards import Card, parse_cards
from royalnine.core.errors import BadCard
from royalnine.core.match import MatchConfig, Phase
from royalnine.core.scoring import CELLS, CENTRE
from royalnine.core.view import PlayerView

HAND = 4
DEFAULT_TOP = 10


class BadHint(ValueError):
    """Input that does not describe a position a seat could face."""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``hint`` subcommand."""
    p = sub.add_parser(
        "hint",
        help="rank placements by exact expected score",
        description="Rank the placements of the 4 cards in hand by exact expected final score "
        "of your grid (expectation over every card you have not seen). A GRID is 9 "
        "comma-separated entries, row-major: a card, '-' for empty, '?' for the face-down "
        "centre (cell 4), e.g. R1,-,B3,-,?,-,B8,-,R9. Cells are numbered 0-8 row-major. "
        "In the first half each listed placement stands for its 8 rotations and mirror "
        "images, which score the same.",
    )
    p.add_argument("--hand", required=True, help="the 4 cards to place now, e.g. R2,B3,B7,B8")
    p.add_argument(
        "--opponent", required=True, help="the opponent's 4 cards dealt face up this half"
    )
    p.add_argument("--grid", help="your grid so far (omitted: empty, the first half)")
    p.add_argument(
        "--opponent-grid", help="the opponent's confirmed cards you have seen (second half)"
    )
    p.add_argument("--tens", action="store_true", help="play with the tens (R10, B10)")
    p.add_argument("--all", action="store_true", help="list every placement, not the best 10")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def parse_hint_grid(text: str, *, tens: bool, what: str) -> tuple[Card | None, ...]:
    """Parse a 9-entry grid of cards, '-' (empty) and '?' (the centre); raises :class:`BadHint`."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != CELLS:
        raise BadHint(f"{what} needs 9 comma-separated entries, got {len(parts)}: {text!r}")
    grid: list[Card | None] = []
    for i, part in enumerate(parts):
        if part in ("-", "?", ""):
            if part == "?" and i != CENTRE:
                raise BadHint(f"{what}: '?' marks the face-down centre (cell 4), not cell {i}")
            grid.append(None)
        elif i == CENTRE:
            raise BadHint(f"{what}: the centre (cell 4) is face down until the reveal; use '?'")
        else:
            grid.append(Card.parse(part, tens=tens))
    return tuple(grid)


def build_view(
    hand: Sequence[Card],
    opponent: Sequence[Card],
    grid: Sequence[Card | None],
    opponent_grid: Sequence[Card | None],
    *,
    tens: bool,
) -> PlayerView:
    """The view of seat 0 facing this decision; raises :class:`BadHint` if it cannot arise."""
    own = [c for c in grid if c is not None]
    theirs = [c for c in opponent_grid if c is not None]
    if len(hand) != HAND:
        raise BadHint(f"--hand needs 4 cards, got {len(hand)}")
    if len(opponent) != HAND:
        raise BadHint(f"--opponent needs the opponent's 4 face-up cards, got {len(opponent)}")
    if len(own) not in (0, HAND):
        raise BadHint(
            f"--grid must be empty (first half) or hold your 4 first-half cards, not {len(own)}"
        )
    half = 1 if not own else 2
    if half == 1 and theirs:
        raise BadHint("--opponent-grid must be empty in the first half (your grid is empty)")
    if half == 2 and len(theirs) != HAND:
        raise BadHint(
            f"the second half needs --opponent-grid with the opponent's 4 first-half cards, "
            f"got {len(theirs)}"
        )
    seen: set[Card] = set()
    for card in [*hand, *opponent, *own, *theirs]:
        if card in seen:
            raise BadHint(f"{card} is given twice")
        seen.add(card)
    config = MatchConfig(tens=tens)
    return PlayerView(
        seat=0,
        config=config,
        round_number=1,
        phase=Phase.FIRST_PLACE if half == 1 else Phase.SECOND_PLACE,
        grid=tuple(grid),
        hand=tuple(hand),
        locked=frozenset(i for i, c in enumerate(grid) if c is not None),
        confirmed=False,
        opponent_grid=tuple(opponent_grid),
        opponent_dealt=tuple(opponent),
        opponent_confirmed=False,
        centre=None,
        results=(),
        totals=(0, 0),
    )


def placement_json(ranked: RankedPlacement) -> dict[str, object]:
    """``{"cells": {"R2": 0, ...}, "ev": 4.8337, "exact": "...", "equivalent": 8}``."""
    return {
        "cells": {str(card): cell for card, cell in ranked.cells.items()},
        "ev": round(ranked.ev, 4),
        "exact": f"{ranked.exact.numerator}/{ranked.exact.denominator}",
        "equivalent": ranked.equivalent,
    }


def placement_text(rank: int, ranked: RankedPlacement, grid: Sequence[Card | None]) -> str:
    """One line: rank, expected score and the resulting grid row by row (new cards in caps)."""
    cells = ["."] * CELLS
    for i, card in enumerate(grid):
        if card is not None:
            cells[i] = str(card).lower()
    for card, cell in ranked.cells.items():
        cells[cell] = str(card)
    cells[CENTRE] = "?"
    rows = " / ".join(" ".join(f"{c:>3}" for c in cells[r * 3 : r * 3 + 3]) for r in range(3))
    return f"{rank:>3}. {ranked.ev:8.4f}   {rows}"


def run(args: argparse.Namespace) -> int:
    """Print the ranking; exit status 1 with a one-line message on bad input."""
    try:
        tens = bool(args.tens)
        hand = parse_cards(args.hand, tens=tens)
        opponent = parse_cards(args.opponent, tens=tens)
        grid = (
            parse_hint_grid(args.grid, tens=tens, what="--grid") if args.grid else (None,) * CELLS
        )
        opponent_grid = (
            parse_hint_grid(args.opponent_grid, tens=tens, what="--opponent-grid")
            if args.opponent_grid
            else (None,) * CELLS
        )
        view = build_view(hand, opponent, grid, opponent_grid, tens=tens)
    except (BadCard, BadHint) as exc:
        return refuse("hint", str(exc), args.json)
    ranked = hint(view, None if args.all else DEFAULT_TOP)
    if args.json:
        print(json.dumps({"placements": [placement_json(r) for r in ranked]}))
        return 0
    half = view.phase.half
    note = " (each stands for its 8 symmetric placements)" if half == 1 else ""
    print(
        f"{'first' if half == 1 else 'second'} half: {len(ranked)} placements by exact "
        f"expected final score{note}; your new cards in capitals, '?' the centre"
    )
    for i, r in enumerate(ranked, 1):
        print(placement_text(i, r, grid))
    return 0
