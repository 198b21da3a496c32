"""``royalnine score``: score grids given on the command line or one per line on standard input."""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO

from royalnine.cli import refuse
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
    p.set_defaults(func=run, score_usage=p.format_usage().strip())


ECHO_CELLS = 40
"""A bad grid is echoed at most this long, so a huge line cannot flood the terminal."""
MAX_LINE_BYTES = 4096
"""A line of standard input longer than this is no grid; it is skipped, not held in memory."""


def parse_grid(text: str, *, tens: bool) -> tuple[Card, ...]:
    """Parse ``"R1,R2,...,R9"`` into 9 different cards; raises BadCard/BadGrid in one line."""
    parts = [p.strip() for p in text.strip().split(",")]
    if len(parts) != CELLS or any(not p for p in parts):
        n = len([p for p in parts if p])
        raise BadGrid(f"a grid needs 9 cards, got {n}: {echo(text)}")
    cards = tuple(Card.parse(p, tens=tens) for p in parts)
    if len(set(cards)) != CELLS:
        twice = next(c for c in cards if cards.count(c) > 1)
        raise BadGrid(f"duplicate card {twice}: {echo(text)}")
    return cards


def echo(text: str) -> str:
    """``text`` quoted for an error message, cut to a sane length."""
    text = text.strip()
    if len(text) <= ECHO_CELLS:
        return repr(text)
    return repr(text[:ECHO_CELLS]) + f"... ({len(text)} characters)"


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
    """Score the grids; exit status 1 if any was bad (each reported on stderr, the rest scored)."""
    if args.grids:
        lines: Iterable[tuple[str, str | None]] = (
            (f"grid {i}", text) for i, text in enumerate(args.grids, 1)
        )
    else:
        if sys.stdin.isatty():  # someone at a terminal, not a pipe: say what it waits for
            usage = getattr(args, "score_usage", "usage: royalnine score [GRID ...]")
            print(
                f"{usage}\nroyalnine score: no GRID given: type one grid a line "
                "(e.g. R1,R2,R3,B4,R5,B6,B7,B8,R9), Ctrl+D to end",
                file=sys.stderr,
                flush=True,
            )
        # the bytes under the text stream: a line that is not UTF-8 is reported, not fatal
        source = getattr(sys.stdin, "buffer", None)
        if source is None:  # a text-only stream (an embedding program, a test)
            source = io.BytesIO(sys.stdin.read().encode("utf-8", errors="replace"))
        lines = _stdin_lines(source, args.json)
    status = 0
    scored = 0
    for where, text in lines:
        if text is None:  # a line that is no text at all
            status = 1
            continue
        if not text.strip() and not args.grids:  # a blank line of input; a blank GRID is bad
            continue
        try:
            score = score_grid(parse_grid(text, tens=args.tens))
        except (BadCard, BadGrid) as exc:
            status = refuse("score", f"{where}: {exc}", args.json)
            continue
        if args.json:
            sys.stdout.write(json.dumps(score_json(score)) + "\n")
        elif args.grids:
            sys.stdout.write(("\n" if scored else "") + score_text(score) + "\n")
        else:
            sys.stdout.write(score_line(score) + "\n")
        scored += 1
    return status


def _stdin_lines(stream: BinaryIO, as_json: bool) -> Iterator[tuple[str, str | None]]:
    """Each line of ``stream`` as text, or None (reported here, as a JSON line too with
    ``as_json``) when it is not UTF-8 or is too long to be a grid; the rest of the
    input is still read."""
    number = 0
    while True:
        raw = stream.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        number += 1
        where = f"line {number}"
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):  # skip the rest of this line
                raw = stream.readline(1 << 16)
            refuse("score", f"{where}: longer than {MAX_LINE_BYTES} bytes", as_json)
            yield where, None
            continue
        try:
            yield where, raw.decode("utf-8")
        except UnicodeDecodeError:
            shown = echo(raw.decode("utf-8", errors="replace"))
            refuse("score", f"{where}: not UTF-8 text: {shown}", as_json)
            yield where, None
