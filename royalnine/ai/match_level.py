"""The *match* CPU level: maximise the chance of winning the whole match, not the round's points.

Model (documented in docs/ai.md):

* Match equity ``F(lead)`` = P(win) + 1/2 P(draw) after this round, when the
  remaining rounds are played by two *hard* players. A round's score
  difference is modelled as X - Y with X, Y independent draws from
  :data:`ROUND_SCORE_PMF` (the exact score distribution of a hard player,
  averaged over 400 seeded deals by ``tools/sim_match_level.py --fit``).
* Second half: the opponent is predicted to play its hard (best expected
  score) order, which this seat can compute because the opponent's cards are
  face up and the centre pool is the same for both. Each of my 24 orders is
  then valued *exactly* under that prediction, the shared centre included:
  mean over the centre c of F(lead + mine(c) - theirs(c)).
* First half: the opponent's hard first-half class gives its round-score
  distribution; each of my 12 best classes by expected score gives mine (the
  second half played for best EV); the two are combined as independent.
* It plays the hard choice unless another choice is strictly better in this
  model, so it differs from *hard* only where the match situation says so.
"""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import numpy.typing as npt

from royalnine.ai.exact import MAX_SCORE, first_half_class, second_half
from royalnine.ai.position import Position
from royalnine.ai.search import (
    first_half_analysis,
    pick_first_half,
    pick_second_half,
    second_half_analysis,
)
from royalnine.ai.tables import SYMMETRIES
from royalnine.core.cards import Card
from royalnine.core.scoring import OWN_CELLS
from royalnine.core.view import PlayerView

FloatArray = npt.NDArray[np.float64]

CANDIDATES = 12
"""How many first-half classes (best by expected score) the match level weighs."""
EPS = 1e-12

# P(round score = s) for s = 0, 1, ... of a hard player; see the module docstring.
_PMF_18 = (
    0.00052, 0.00232, 0.01596, 0.10838, 0.27405, 0.26183, 0.21618, 0.09064, 0.02479,
    0.00465, 0.00063, 0.00002, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.00001, 0,
    0.00001, 0.00001,
)  # fmt: skip
_PMF_20 = (
    0.00072, 0.00246, 0.01919, 0.14578, 0.34516, 0.25362, 0.16482, 0.05379, 0.0119,
    0.00216, 0.00028, 0.00002, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.00003, 0.00003,
    0.00003, 0.00003,
)  # fmt: skip


@cache
def round_score_pmf(tens: bool) -> FloatArray:
    """P(score = s) for s = 0..MAX_SCORE of a hard player in one round."""
    raw = np.zeros(MAX_SCORE + 1)
    values = _PMF_20 if tens else _PMF_18
    raw[: len(values)] = values
    return np.asarray(raw / raw.sum(), dtype=np.float64)


@cache
def _diff_pmf(tens: bool, rounds: int) -> tuple[int, FloatArray]:
    """Distribution of the summed score difference over ``rounds`` hard-vs-hard rounds.

    Returns ``(offset, pmf)`` with ``pmf[i]`` = P(difference = i - offset).
    """
    p = round_score_pmf(tens)
    one = np.convolve(p, p[::-1])  # X - Y, offset MAX_SCORE
    out = np.ones(1)
    for _ in range(rounds):
        out = np.convolve(out, one)
    return MAX_SCORE * rounds, out


def equity(lead: npt.ArrayLike, rounds_left: int, tens: bool) -> FloatArray:
    """P(win) + 1/2 P(draw) for leads after this round with ``rounds_left`` rounds still to play."""
    offset, pmf = _diff_pmf(tens, rounds_left)
    cdf = np.concatenate([[0.0], np.cumsum(pmf)])  # cdf[i] = P(diff < i - offset)
    x = np.asarray(lead, dtype=np.int64)

    # win: lead + diff > 0  <=> diff >= -lead + 1
    def below(v: npt.NDArray[np.int64]) -> FloatArray:
        idx = np.clip(v + offset, 0, len(pmf))
        return np.asarray(cdf[idx], dtype=np.float64)

    lose = below(-x)  # P(diff < -lead)
    not_win = below(-x + 1)  # P(diff <= -lead)
    return np.asarray((1.0 - not_win) + 0.5 * (not_win - lose), dtype=np.float64)


def choose_for_match(pos: Position, view: PlayerView, rng: random.Random) -> dict[Card, int]:
    """The match-level placement for a position (see the module docstring)."""
    seat = view.seat
    lead = view.totals[seat] - view.totals[1 - seat]
    rounds_left = view.config.rounds - view.round_number
    tens = view.config.tens
    if pos.half == 2:
        return _second_half(pos, lead, rounds_left, tens, rng)
    return _first_half(pos, lead, rounds_left, tens, rng)


def _second_half(
    pos: Position, lead: int, rounds_left: int, tens: bool, rng: random.Random
) -> dict[Card, int]:
    mine = second_half_analysis(pos)
    hard, _ = pick_second_half(pos, mine, rng)
    theirs = _opponent_second_half(pos)
    # value[o] = mean over the centre of equity(lead + mine - theirs)
    value = equity(lead + mine.scores - theirs[None, :], rounds_left, tens).mean(axis=1)
    hard_cells = [hard[c] for c in pos.cards]
    hard_index = next(i for i in range(len(mine.cells)) if mine.cells[i].tolist() == hard_cells)
    best = int(np.argmax(value))
    if value[best] <= value[hard_index] + EPS:
        return hard
    return {card: int(cell) for card, cell in zip(pos.cards, mine.cells[best], strict=True)}


def _opponent_second_half(pos: Position) -> FloatArray:
    """The opponent's score per possible centre if it plays for best EV (ties averaged)."""
    fixed = {cell: card.index for cell, card in pos.opponent_fixed.items()}
    free = [c for c in OWN_CELLS if c not in fixed]
    table = second_half(
        fixed, [c.index for c in pos.opponent_cards], free, [c.index for c in pos.unseen]
    )
    nums = table.numerators
    ties = nums == nums.max()
    return np.asarray(table.scores[ties].mean(axis=0), dtype=np.float64)


def _first_half(
    pos: Position, lead: int, rounds_left: int, tens: bool, rng: random.Random
) -> dict[Card, int]:
    mine = first_half_analysis(pos)
    hard, _ = pick_first_half(pos, mine, rng)
    candidates = [rep for rep, _ in mine.top(CANDIDATES)]
    theirs = _opponent_first_half(pos)
    # g[x] = expected equity when my round score is x, over the opponent's score y
    scores = np.arange(MAX_SCORE + 1)
    grid = equity(lead + scores[:, None] - scores[None, :], rounds_left, tens)
    g = grid @ theirs
    values = []
    for rep in candidates:
        hist = mine.histogram(rep)
        values.append(float(hist @ g) / mine.denominator)
    hard_rep = first_half_class([hard[c] for c in pos.cards])
    hard_value = values[candidates.index(hard_rep)] if hard_rep in candidates else -1.0
    best = int(np.argmax(values))
    if values[best] <= hard_value + EPS:
        return hard
    cells = SYMMETRIES[rng.randrange(len(SYMMETRIES))][mine.geo.rep_cells[candidates[best]]]
    return {card: int(cell) for card, cell in zip(pos.cards, cells, strict=True)}


def _opponent_first_half(pos: Position) -> FloatArray:
    """The opponent's round-score distribution if it plays hard from its face-up cards."""
    # Both seats have seen the same 8 cards, so the opponent's unseen cards are mine.
    theirs = Position(
        half=1,
        cards=pos.opponent_cards,
        free=pos.free,
        fixed={},
        unseen=pos.unseen,
        opponent_fixed={},
        opponent_cards=pos.cards,
    )
    analysis = first_half_analysis(theirs)
    reps, _ = analysis.best()
    hist = np.mean([analysis.histogram(r) for r in reps], axis=0)
    return np.asarray(hist / hist.sum(), dtype=np.float64)
