"""``royalnine score``: score grids given on the command line or one per line on standard input."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from royalnine.core.cards import Card
from royalnine.core.errors import BadCard, BadGrid
from royalnine.core.scoring import CELLS, GridScore, score_grid


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``score`` subcommand."""
    p = sub.add_parser(
        "score",
        help="score 3x3 grids",
        description="Score Royal Nine grids. A GRID is 9 cards, row-major, comma-separated, "
        "the centre (common card) fifth, e.g. R1,R2,R3,B4,R5,B6,B7,B8,R9. "
        "With no GRID, reads one grid per line from standard input.",
    )
    p.add_argument("grids", nargs="*", metavar="GRID", help="9 comma-separated cards")
    p.add_argument("--json", action="store_true", help="print one JSON object per grid")
    p.add_argument("--tens", action="store_true", help="allow the tens (R10, B10)")
    p.set_defaults(func=run)


def parse_grid(text: str, *, tens: bool) -> tuple[Card, ...]:
    """Parse ``"R1,R2,...,R9"`` into 9 cards; raises BadCard/BadGrid with a one-line message."""
    parts = [p.strip() for p in text.strip().split(",")]
    if len(parts) != CELLS or any(not p for p in parts):
        n = len([p for p in parts if p])
        raise BadGrid(f"a grid needs 9 cards, got {n}: {text.strip()!r}")
    cards = tuple(Card.parse(p, tens=tens) for p in parts)
    score_grid(cards)  # validates duplicates
    return cards


def score_json(score: GridScore) -> dict[str, Any]:
    """The JSON form of a score: total, per-line breakdown, royal_nine and bust."""
    return {
        "total": score.total,
        "lines": [
            {
                "line": s.line.name,
                "cells": list(s.line.cells),
                "cards": [str(c) for c in s.cards],
                "role": s.role.name.lower(),
                "doubled": s.doubled,
                "points": s.points,
            }
            for s in score.lines
        ],
        "royal_nine": score.royal_nine,
        "bust": score.bust,
    }


def score_text(score: GridScore) -> str:
    """A readable block: the grid with the centre in brackets, each scoring line, the total."""
    names = [str(c) for c in score.cards]
    names[4] = f"[{names[4]}]"
    rows = [" ".join(f"{n:>5}" for n in names[r * 3 : r * 3 + 3]) for r in range(3)]
    lines = [s.describe() for s in score.lines if s.points]
    if score.royal_nine:
        lines.append("ROYAL NINE: all nine cards one colour = +16")
    if score.bust:
        lines.append("BUST: own 8 cards one colour, centre the other = 0 for the round")
    if not lines:
        lines.append("no roles")
    return "\n".join([*rows, *("  " + line for line in lines), f"total {score.total}"])


def score_line(score: GridScore) -> str:
    """One line: the grid, the total and the scoring lines."""
    parts = [s.describe() for s in score.lines if s.points]
    if score.royal_nine:
        parts.append("ROYAL NINE +16")
    if score.bust:
        parts.append("BUST")
    grid = ",".join(str(c) for c in score.cards)
    return f"{grid}: {score.total}" + (f" ({'; '.join(parts)})" if parts else "")


def run(args: argparse.Namespace) -> int:
    """Score the grids; exit status 1 if any grid was bad (each reported on stderr)."""
    out = sys.stdout
    status = 0
    if args.grids:
        for i, text in enumerate(args.grids):
            try:
                score = score_grid(parse_grid(text, tens=args.tens))
            except (BadCard, BadGrid) as exc:
                print(f"royalnine score: {exc}", file=sys.stderr)
                return 1
            if args.json:
                out.write(json.dumps(score_json(score)) + "\n")
            else:
                out.write(("\n" if i else "") + score_text(score) + "\n")
        return status
    for number, raw in enumerate(sys.stdin, 1):
        if not raw.strip():
            continue
        try:
            score = score_grid(parse_grid(raw, tens=args.tens))
        except (BadCard, BadGrid) as exc:
            print(f"royalnine score: line {number}: {exc}", file=sys.stderr)
            status = 1
            continue
        out.write((json.dumps(score_json(score)) if args.json else score_line(score)) + "\n")
    return status
