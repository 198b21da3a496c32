"""Move-by-move review of a finished match: every placement against the exact best one.

It sits beside :mod:`royalnine.ai`, not in it: it replays whole matches, while the
AI's players read nothing but views. Pure too (standard library and the AI's numpy).

Each placement is judged from what *that* seat could see when it placed: the
:func:`royalnine.core.view` of the match just after the deal of that half
(its own cards, the opponent's cards dealt face up, the confirmed grids), never
from cards dealt or revealed later. The opponent's placement of the same half
is hidden in that view, so the order in which the two seats confirmed does not
matter.

For each placement (:class:`Decision`): the expected final score of the grid
for the placement played and for the best one (exact fractions from
:mod:`royalnine.ai.exact`, the same numbers the hard CPU and the hint use), and
the loss ``best_ev - played_ev`` (0 for an optimal placement, exactly).

**Luck.** Per round, a seat's *expected points* are what its own play was worth
when it was made: the expected score of its first-half placement minus the
loss of its second-half placement (the first-half value already assumes the
best second half). Then

    points = best expectation after the first deal - losses + luck

where luck is what the second deal and the common card gave beyond that
expectation (its mean over all deals is 0). :class:`SeatSummary` adds the
rounds up and names the biggest mistake.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from fractions import Fraction

from royalnine.ai.exact import first_half_class
from royalnine.ai.position import Position
from royalnine.ai.search import first_half_analysis, second_half_analysis
from royalnine.core.cards import Card
from royalnine.core.match import SEATS, Confirm, Deal, Match
from royalnine.core.record import MatchRecord
from royalnine.core.view import PlayerView, view


@dataclass(frozen=True)
class DecisionPoint:
    """One placement to judge: who placed which half of which round, seen from where.

    Attributes:
        round: round number, from 1.
        half: 1 or 2.
        seat: 0 or 1.
        view: the seat's view just after the deal of that half (all it could know).
        played: card -> cell of the four cards as confirmed, in deal order.
        action: index in the match history of the seat's Confirm of that half.
    """

    round: int
    half: int
    seat: int
    view: PlayerView = field(repr=False)
    played: dict[Card, int]
    action: int


@dataclass(frozen=True)
class Decision:
    """A judged placement: played and best placements with their exact expected scores."""

    point: DecisionPoint
    played_ev: Fraction
    best: dict[Card, int]
    best_ev: Fraction

    @property
    def loss(self) -> Fraction:
        """Expected points the played placement gave up: ``best_ev - played_ev`` (>= 0)."""
        return self.best_ev - self.played_ev

    @property
    def round(self) -> int:
        """Round number."""
        return self.point.round

    @property
    def half(self) -> int:
        """1 or 2."""
        return self.point.half

    @property
    def seat(self) -> int:
        """The seat that placed."""
        return self.point.seat

    @property
    def played(self) -> dict[Card, int]:
        """card -> cell as played."""
        return self.point.played


@dataclass(frozen=True)
class SeatSummary:
    """One seat over the whole match."""

    seat: int
    points: int
    expected: Fraction
    """Sum over rounds of what the seat's own placements were worth when made."""
    loss: Fraction
    """Total expected points lost to placements below the best."""
    biggest: Decision | None
    """The placement that lost the most (None when every placement was best)."""

    @property
    def luck(self) -> Fraction:
        """Points scored minus expected points: what the later cards gave or took."""
        return self.points - self.expected


def decision_points(match: Match) -> list[DecisionPoint]:
    """Every placement of the match in play order: by round, half, then seat.

    Replays the match's history; each half's views are taken right after its
    deal. Raises ValueError if the history is not a match's (it always is for a
    :class:`Match` built by :meth:`Match.apply`).
    """
    replay = Match.new(match.config)
    at_deal: dict[tuple[int, int], Match] = {}
    found: list[DecisionPoint] = []
    for i, action in enumerate(match.history):
        before = replay
        replay = replay.apply(action)
        if isinstance(action, Deal) and replay.phase.is_place:
            at_deal[(replay.round.number, replay.phase.half)] = replay
        elif isinstance(action, Confirm):
            rnd = before.round
            key = (rnd.number, rnd.phase.half)
            seat = action.seat
            dealt = rnd.dealt[seat][-4:]
            grid = replay.round.grids[seat]
            played = {card: grid.index(card) for card in dealt}
            found.append(DecisionPoint(key[0], key[1], seat, view(at_deal[key], seat), played, i))
    found.sort(key=lambda p: (p.round, p.half, p.seat))
    return found


def analyse(point: DecisionPoint) -> Decision:
    """Judge one placement exactly (a first half takes some milliseconds, a second far less)."""
    pos = Position.of(point.view)
    played_cells = tuple(point.played[card] for card in pos.cards)
    if pos.half == 1:
        fh = first_half_analysis(pos)
        rep = first_half_class(played_cells)
        played_num = int(fh.exact([rep])[0])
        reps, best_num = fh.best()
        if rep in reps:  # an optimal placement: it is its own best
            best_cells = played_cells
        else:
            best_cells = tuple(int(c) for c in fh.placement_cells(min(reps)))
        den = fh.denominator
    else:
        sh = second_half_analysis(pos)
        nums = [int(n) for n in sh.numerators.tolist()]
        orders = [tuple(int(c) for c in row) for row in sh.cells.tolist()]
        played_num = nums[orders.index(played_cells)]
        best_num = max(nums)
        best_cells = played_cells if played_num == best_num else orders[nums.index(best_num)]
        den = len(sh.pool)
    best = {card: cell for card, cell in zip(pos.cards, best_cells, strict=True)}
    return Decision(point, Fraction(played_num, den), best, Fraction(best_num, den))


def summarise(match: Match, decisions: list[Decision]) -> tuple[SeatSummary, SeatSummary]:
    """Each seat's points, expected points, total loss and biggest mistake.

    ``decisions`` must be the analysis of every point of ``match`` (see
    :func:`decision_points`); rounds not finished in ``match`` are left out.
    """
    finished = {r.number: r for r in match.results}
    out = []
    for seat in SEATS:
        mine = [d for d in decisions if d.seat == seat and d.round in finished]
        expected = Fraction(0)
        for number in finished:
            first = [d for d in mine if d.round == number and d.half == 1]
            second = [d for d in mine if d.round == number and d.half == 2]
            if first and second:
                expected += first[0].played_ev - second[0].loss
        loss = sum((d.loss for d in mine), Fraction(0))
        worst = max(mine, key=lambda d: d.loss, default=None)
        biggest = worst if worst is not None and worst.loss > 0 else None
        points = sum(r.points[seat] for r in finished.values())
        out.append(SeatSummary(seat, points, expected, loss, biggest))
    return out[0], out[1]


class Analysis:
    """The exact judgement of every placement of a match, worked out off the frame loop.

    :meth:`start` runs the analysis in a worker *process* (``python -m
    royalnine.review``, fed the match record, answering one JSON line per
    placement), read by a thread of this process that only waits on the pipe:
    the search is numpy and Python work that would otherwise hold the
    interpreter lock for tens of milliseconds at a time and make frames late.
    If no process can be started the thread does the work itself.
    :attr:`decisions` fills in order (appending to a list is atomic); the frame
    loop only reads it.
    """

    def __init__(self, match: Match) -> None:
        self.match = match
        self.placements = 4 * len(match.results)
        """How many placements there are to judge (four a round)."""
        self._points: list[DecisionPoint] | None = None
        self.decisions: list[Decision] = []
        self.failed = ""
        self._thread: threading.Thread | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._stopped = False

    @property
    def points(self) -> list[DecisionPoint]:
        """Every placement to judge, in :func:`decision_points` order. Worked out on first
        use (it replays the match): by the worker's thread in the game, never a frame."""
        if self._points is None:
            self._points = decision_points(self.match)
        return self._points

    def start(self) -> None:
        """Start the worker (once)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run_worker, name="review", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Give up what is not analysed yet (the player left the review): end the worker."""
        self._stopped = True
        process = self._process
        if process is not None and process.poll() is None:
            process.kill()

    def run_here(self) -> None:
        """Analyse what is left in the calling thread (the command line, a fallback)."""
        try:
            for point in self.points[len(self.decisions) :]:
                if self._stopped:
                    return
                self.decisions.append(analyse(point))
        except Exception as exc:  # a bug must not take the game down; the screen says so
            self.failed = f"{type(exc).__name__}: {exc}"

    def _run_worker(self) -> None:
        points = self.points
        env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
        try:
            proc = subprocess.Popen(
                [sys.executable, "-m", "royalnine.review"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=env,
            )
        except OSError:
            self.run_here()
            return
        assert proc.stdin is not None and proc.stdout is not None
        self._process = proc
        if self._stopped:  # stopped while the process was starting
            proc.kill()
        with proc:
            try:
                proc.stdin.write(MatchRecord.of(self.match).to_json().encode("utf-8"))
                proc.stdin.close()
                for line in proc.stdout:
                    if len(self.decisions) == len(points):
                        break
                    self.decisions.append(decode(line, points[len(self.decisions)]))
            except (OSError, ValueError):
                proc.kill()
        self.run_here()  # whatever the worker did not answer (it crashed, or could not start)

    @property
    def done(self) -> bool:
        """Every placement is judged."""
        return len(self.decisions) == self.placements

    def wait(self, timeout: float) -> bool:
        """Wait for the worker (tests); True when done."""
        if self._thread is not None:
            self._thread.join(timeout)
        return self.done


def encode(decision: Decision) -> str:
    """One worker answer: a JSON line with the exact values and the best cells in deal order."""
    doc = {
        "key": [decision.round, decision.half, decision.seat],
        "played_ev": str(decision.played_ev),
        "best_ev": str(decision.best_ev),
        "best": [decision.best[card] for card in decision.point.played],
    }
    return json.dumps(doc)


def decode(line: bytes | str, point: DecisionPoint) -> Decision:
    """:func:`encode`'s line back into the judgement of ``point``; ValueError if it is not."""
    doc = json.loads(line)
    if not isinstance(doc, dict) or doc.get("key") != [point.round, point.half, point.seat]:
        raise ValueError("the worker answered another placement")
    try:  # any other damage is a ValueError too: the reader falls back on it, never hangs
        best = {card: int(cell) for card, cell in zip(point.played, doc["best"], strict=True)}
        return Decision(point, Fraction(doc["played_ev"]), best, Fraction(doc["best_ev"]))
    except (KeyError, TypeError) as exc:
        raise ValueError(f"a damaged answer from the worker: {exc!r}") from None


def _worker() -> None:
    """``python -m royalnine.review``: a match record on stdin, one line per placement out."""
    match = MatchRecord.from_json(sys.stdin.buffer.read()).replay()
    for point in decision_points(match):
        print(encode(analyse(point)), flush=True)


if __name__ == "__main__":
    _worker()
