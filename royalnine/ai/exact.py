"""Exact expectimax for one grid: expected final score of every placement, in both halves.

The hard CPU and the hint command use this module. It knows nothing of views or
matches: a position is the own cards already fixed, the four cards to place now,
the free cells, and the cards this seat has not seen.

**Second half.** Both seats' second-half cards are dealt face up, so the unseen
cards are exactly the pool the common card comes from (2 cards, 4 with tens),
uniformly. Each of the 24 orders is scored against each candidate centre.

**First half.** Let U be the unseen cards (10, or 12 with tens). My next four
cards H2 are a uniform 4-subset of U; the opponent's next four O2 a uniform
4-subset of the rest; the centre is uniform over R = U - H2 - O2. Given H2,
O2 <-> R is a bijection, so R is a uniform r-subset of W = U - H2. Before my
second-half choice I see H2 and O2 (hence R), so

    EV(first placement) = mean over H2, over R of  max over orders sigma of H2:
                          mean over c in R of score(grid, c).

Tricks that keep this exact and fast:

* The 8 symmetries of the square preserve every line and the centre, so the 1680
  first-half placements fall into 210 classes of 8 (none is fixed by a symmetry,
  because 4 distinct cards cannot all sit on a mirror's axis); one per class.
* Cards are named by *slots* (0-3 this half's cards, 4-7 the next four in sorted
  order), so the geometry of all 210 x 24 complete grids is built once; a deal
  only supplies the 56 triple and 28 pair scores per H2, combined by one matrix
  product (outer lines) and one gather (the two lines through the centre).
* Bounds: knowing R is worth at most knowing the centre, so per H2
  ``max_s sum_W score <= sum_R max_s sum_R score <= sum_W max_s score``
  (scaled). When the two bounds meet, one order is best for every centre and the
  value is exact without looking at R. Otherwise all R are enumerated.
* Branch and bound over placements: a class whose upper bound is below the best
  exact value found cannot be best, so the player evaluates only the contenders.

All values are kept as integer numerators over a common denominator, so ties and
comparisons are exact; the float EV is only for display.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from royalnine.ai.tables import (
    CENTRE_PAIRS,
    COLOUR,
    LINE_POINTS,
    OUTER_LINES,
    OWN,
    PERMS4,
    ROYAL,
    SYMMETRIES,
    IntArray,
    score_indices,
)
from royalnine.core.scoring import CENTRE

HAND = 4
MAX_SCORE = 4 * 2 + 2 * 2 * 2 + ROYAL
"""A bound on a grid's score: six straight flushes (four outer, two doubled) plus Royal Nine."""


# --- second half -------------------------------------------------------------------------------


@dataclass(frozen=True)
class SecondHalf:
    """Every order of the last four cards with its exact expected score.

    Attributes:
        cells: shape (24, 4): the cell of each card (in the order given) per order.
        scores: shape (24, pool): the grid's score per order and per possible centre.
        pool: the possible centre cards (indices), each equally likely.
    """

    cells: IntArray
    scores: IntArray
    pool: tuple[int, ...]

    @property
    def numerators(self) -> IntArray:
        """Sum of scores over the pool, per order: EV times ``len(pool)``."""
        return np.asarray(self.scores.sum(axis=1), dtype=np.int64)

    @property
    def evs(self) -> npt.NDArray[np.float64]:
        """Expected score per order."""
        return self.numerators / len(self.pool)


def second_half(
    fixed: dict[int, int], cards: Sequence[int], free: Sequence[int], pool: Sequence[int]
) -> SecondHalf:
    """Score every order of ``cards`` into the ``free`` cells against every centre in ``pool``.

    Args:
        fixed: cell -> card index of the own cards that cannot move.
        cards: the 4 card indices to place.
        free: the 4 empty own cells.
        pool: the cards the centre is drawn from, uniformly (the seat's unseen cards).
    """
    if len(cards) != HAND or len(free) != HAND or not pool:
        raise ValueError("the second half places 4 cards into 4 free cells with a non-empty pool")
    cells = np.asarray(free, dtype=np.int64)[PERMS4]  # (24, 4)
    base = np.zeros(9, dtype=np.int64)
    for cell, card in fixed.items():
        base[cell] = card
    grids = np.broadcast_to(base, (len(PERMS4), len(pool), 9)).copy()
    rows = np.arange(len(PERMS4))[:, None]
    for j, card in enumerate(cards):
        grids[rows, :, cells[:, j : j + 1]] = card
    grids[:, :, CENTRE] = np.asarray(pool, dtype=np.int64)[None, :]
    return SecondHalf(cells, score_indices(grids), tuple(pool))


# --- first-half geometry (independent of the cards) ----------------------------------------


@dataclass(frozen=True)
class Geometry:
    """Slot geometry of every first-half class and every second-half order.

    Attributes:
        rep_cells: (210, 4) cell of slot j (this half's j-th card) in each class representative.
        class_size: how many placements each class stands for (8 each).
        tri_count: (56, 24*210) how many outer lines hold each slot triple, per (order, class).
        kappa_pairs: (n_kappa, 2) the two centre-line slot pairs of each distinct centre layout.
        kappa_of: (24*210,) centre layout per (order, class).
        triples: (56, 3) slot triples; pairs: (28, 2) slot pairs.
    """

    rep_cells: IntArray
    class_size: IntArray
    tri_count: npt.NDArray[np.float32]
    kappa_pairs: IntArray
    kappa_of: IntArray
    triples: IntArray
    pairs: IntArray


def canonical(cells: Sequence[int]) -> tuple[int, ...]:
    """A first-half placement's class representative: the least of its symmetric images
    (``cells[j]`` is the cell of this half's j-th card)."""
    return min(tuple(int(SYMMETRIES[g][c]) for c in cells) for g in range(len(SYMMETRIES)))


EXACT_ROWS = 1024
"""(class, H2) pairs evaluated at a time by :meth:`FirstHalf.exact`: the float32 product of
a block is rows x 24 x C(w, r), 27.5 MB for 4096 rows with tens (C(8, 4) = 70), which was
most of a hint's peak memory (issue 26); 1024 rows cost 7 MB and no measurable time."""
OUTER_ROWS = 630
"""Rows of the outer-line points computed at a time (a float32 product of 630 x n_h)."""


@cache
def _class_numbers() -> dict[tuple[int, ...], int]:
    return {tuple(int(c) for c in rep): i for i, rep in enumerate(geometry().rep_cells)}


def first_half_class(cells: Sequence[int]) -> int:
    """The class number (row of :attr:`Geometry.rep_cells`) of a first-half placement."""
    return _class_numbers()[canonical(cells)]


@cache
def geometry() -> Geometry:
    """Build the first-half geometry once."""
    own = list(OWN)
    classes: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for cells in itertools.permutations(own, HAND):
        classes.setdefault(canonical(cells), []).append(cells)
    reps = sorted(classes)
    rep_cells = np.array(reps, dtype=np.int64)
    class_size = np.array([len(classes[r]) for r in reps], dtype=np.int64)

    triples = list(itertools.combinations(range(2 * HAND), 3))
    pairs = list(itertools.combinations(range(2 * HAND), 2))
    tri_index = {t: i for i, t in enumerate(triples)}
    pair_index = {p: i for i, p in enumerate(pairs)}
    n = len(reps) * len(PERMS4)
    tri_count = np.zeros((len(triples), n), dtype=np.float32)
    kappa_list: dict[tuple[int, int], int] = {}
    kappa_of = np.zeros(n, dtype=np.int64)
    for r, cells in enumerate(reps):
        rest = [c for c in own if c not in cells]
        for o, perm in enumerate(PERMS4):
            slot_at = {c: j for j, c in enumerate(cells)}
            for i, p in enumerate(perm):
                slot_at[rest[int(p)]] = HAND + i
            col = o * len(reps) + r
            for line in OUTER_LINES:
                x, y, z = sorted(slot_at[c] for c in line)
                tri_count[tri_index[x, y, z], col] += 1
            ka, kb = sorted(
                pair_index[min(slot_at[a], slot_at[b]), max(slot_at[a], slot_at[b])]
                for a, b in CENTRE_PAIRS
            )
            kappa_of[col] = kappa_list.setdefault((ka, kb), len(kappa_list))
    kappa_pairs = np.array(sorted(kappa_list, key=kappa_list.__getitem__), dtype=np.int64)
    return Geometry(
        rep_cells=rep_cells,
        class_size=class_size,
        tri_count=tri_count,
        kappa_pairs=kappa_pairs,
        kappa_of=kappa_of,
        triples=np.array(triples, dtype=np.int64),
        pairs=np.array(pairs, dtype=np.int64),
    )


# --- first half --------------------------------------------------------------------------------


class FirstHalf:
    """The first-half analysis of one deal: bounds for every class, exact values on demand.

    Build it with the 4 cards to place and the seat's unseen cards; then
    :meth:`best` (branch and bound), :meth:`exact` (chosen classes) or
    :meth:`all_exact` give integer numerators over :attr:`denominator`.
    """

    def __init__(self, cards: Sequence[int], unseen: Sequence[int]) -> None:
        if len(cards) != HAND or len(set(cards)) != HAND:
            raise ValueError("the first half places 4 distinct cards")
        u = sorted(unseen)
        if len(u) < 3 * HAND - 2 or set(u) & set(cards):
            raise ValueError(f"need at least {3 * HAND - 2} unseen cards apart from the hand")
        geo = geometry()
        self.geo = geo
        self.cards = tuple(cards)
        self.unseen = tuple(u)
        self.pool_size = len(u) - 2 * HAND
        """r: how many cards the centre is drawn from after the second deal."""
        hands2 = np.array(list(itertools.combinations(u, HAND)), dtype=np.int64)
        rest = np.array([[c for c in u if c not in h] for h in hands2.tolist()], dtype=np.int64)
        self.hands2 = hands2
        self.rest = rest  # W per H2: (n_h, w)
        w = rest.shape[1]
        combos = list(itertools.combinations(range(w), self.pool_size))
        self.subsets = np.zeros((w, len(combos)), dtype=np.float32)
        for j, combo in enumerate(combos):
            self.subsets[list(combo), j] = 1.0
        self.coef = len(combos) * self.pool_size // w
        """How many pools R contain a given card of W: C(w-1, r-1)."""
        self.denominator = len(hands2) * len(combos) * self.pool_size
        n_h, n_rep, n_o = len(hands2), len(geo.rep_cells), len(PERMS4)
        self.scores, totals = self._scores()
        scores = self.scores.reshape(n_o, n_rep, n_h, w)
        self.totals = totals
        """(order*210 + class, H2): sum of scores over W."""
        low = totals.reshape(n_o, n_rep, n_h).max(axis=0).astype(np.int64)  # (rep, n_h)
        high = scores.max(axis=0).sum(axis=2, dtype=np.int64)
        self.open = low != high
        """(class, H2): True where the best order depends on R, so R must be enumerated."""
        self.low_h = low
        self.lower = self.coef * low.sum(axis=1)
        """Per class: the numerator if the opponent's second-half cards were never seen."""
        self.upper = self.coef * high.sum(axis=1)
        """Per class: the numerator if the centre itself were known before the second half."""

    def _scores(self) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int16]]:
        """Scores of every (order, class, H2, centre in W), and their sums over W.

        Returns:
            ``(scores, totals)`` of shapes (24*210, n_h, w) int8 and (24*210, n_h) int16.
        """
        geo = self.geo
        n_h, w = self.rest.shape
        own8 = np.concatenate([np.broadcast_to(self.cards, (n_h, HAND)), self.hands2], axis=1)
        t = geo.triples
        tri = LINE_POINTS[own8[:, t[:, 0]], own8[:, t[:, 1]], own8[:, t[:, 2]]]  # (n_h, 56)
        # (5040, n_h) int8, a block of rows at a time: the float32 product in one piece was a
        # 10 MB temporary with tens (issue 26: a hint's peak memory)
        tri_f = tri.T.astype(np.float32)
        counts = geo.tri_count.T
        outer = np.empty((counts.shape[0], n_h), dtype=np.int8)
        for row in range(0, counts.shape[0], OUTER_ROWS):
            outer[row : row + OUTER_ROWS] = counts[row : row + OUTER_ROWS] @ tri_f
        p = geo.pairs
        pair = (
            2
            * LINE_POINTS[
                own8[:, p[:, 0]][:, :, None], self.rest[:, None, :], own8[:, p[:, 1]][:, :, None]
            ]
        )  # (n_h, 28, w)
        kp = geo.kappa_pairs
        through = np.ascontiguousarray(
            (pair[:, kp[:, 0], :] + pair[:, kp[:, 1], :]).transpose(1, 0, 2)
        )  # (kappa, n_h, w)
        pair_sum = pair.sum(axis=2, dtype=np.int16)  # (n_h, 28)
        through_sum = np.ascontiguousarray((pair_sum[:, kp[:, 0]] + pair_sum[:, kp[:, 1]]).T)
        scores = np.take(through, geo.kappa_of, axis=0)  # (5040, n_h, w)
        scores += outer[:, :, None]
        totals = np.take(through_sum, geo.kappa_of, axis=0)
        totals += np.multiply(outer, w, dtype=np.int16)  # (one int16 temporary, not two)
        colours = COLOUR[own8]
        mono = (colours == colours[:, :1]).all(axis=1)
        for h in np.flatnonzero(mono):
            same = COLOUR[self.rest[h]] == colours[h, 0]
            scores[:, h, :] = np.where(same[None, :], scores[:, h, :] + ROYAL, 0)
            totals[:, h] = scores[:, h, :].sum(axis=1, dtype=np.int16)
        return scores.astype(np.int8, copy=False), totals

    def _block(self, rep: IntArray, h: IntArray) -> npt.NDArray[np.int8]:
        """Scores of the given (class, H2) pairs: shape (N, 24, w)."""
        n_o, n_rep = len(PERMS4), len(self.geo.rep_cells)
        rows = np.arange(n_o)[None, :] * n_rep + rep[:, None]  # (N, 24)
        return np.asarray(self.scores[rows, h[:, None]], dtype=np.int8)

    def exact(self, reps: Sequence[int]) -> IntArray:
        """Exact numerators (over :attr:`denominator`) of the given classes."""
        reps_arr = np.asarray(reps, dtype=np.int64)
        out = self.coef * np.where(self.open[reps_arr], 0, self.low_h[reps_arr]).sum(axis=1)
        k, h = np.nonzero(self.open[reps_arr])
        for start in range(0, len(h), EXACT_ROWS):
            hs, ks = h[start : start + EXACT_ROWS], k[start : start + EXACT_ROWS]
            block = self._block(reps_arr[ks], hs).astype(np.float32)  # (N, 24, w)
            best = (block @ self.subsets).max(axis=1)  # (N, n_R)
            out += np.bincount(ks, weights=best.sum(axis=1), minlength=len(reps_arr)).astype(
                np.int64
            )
        return np.asarray(out, dtype=np.int64)

    def all_exact(self) -> IntArray:
        """Exact numerators of every class."""
        return self.exact(range(len(self.geo.rep_cells)))

    def best(self, batch: int = 4) -> tuple[list[int], int]:
        """The classes of highest exact value and that value, by branch and bound.

        Classes are taken in decreasing upper bound; once the next upper bound is
        below the best exact value, no remaining class can reach it.
        """
        order = np.argsort(-self.upper, kind="stable")
        best_value = int(self.lower.max())
        best_reps: list[int] = []
        found = -1
        i = 0
        while i < len(order) and self.upper[order[i]] >= best_value:
            chunk = [int(r) for r in order[i : i + batch] if self.upper[r] >= best_value]
            i += batch
            for rep, value in zip(chunk, self.exact(chunk).tolist(), strict=True):
                if value > found:
                    found, best_reps = value, [rep]
                elif value == found:
                    best_reps.append(rep)
            best_value = max(best_value, found)
        return best_reps, found

    def top(self, count: int) -> list[tuple[int, int]]:
        """The ``count`` best classes as (class, numerator), best first, exact.

        Evaluates classes in decreasing upper bound until the next bound cannot
        enter the list, so the hint's top 10 costs far less than all 210.
        """
        order = np.argsort(-self.upper, kind="stable")
        found: list[tuple[int, int]] = []
        i = 0
        while i < len(order):
            if len(found) >= count and self.upper[order[i]] < found[count - 1][1]:
                break
            chunk = [int(r) for r in order[i : i + 8]]
            i += 8
            found.extend(zip(chunk, self.exact(chunk).tolist(), strict=True))
            found.sort(key=lambda item: (-item[1], item[0]))
        return found[:count]

    def histogram(self, rep: int) -> IntArray:
        """Distribution of the final score of one class, the second half played for best EV.

        Returns counts per score 0..:data:`MAX_SCORE` summing to :attr:`denominator`
        (each (H2, R, centre) case weighted as in the expectation). Ties between
        second-half orders go to the first in order; they change no expectation.
        """
        n_o, n_rep = len(PERMS4), len(self.geo.rep_cells)
        counts = np.zeros(MAX_SCORE + 1, dtype=np.int64)
        closed = np.flatnonzero(~self.open[rep])
        rows = np.arange(n_o) * n_rep + rep
        best = self.totals[rows][:, closed].argmax(axis=0)  # (N,)
        values = self.scores[rows[best], closed]  # (N, w)
        counts += self.coef * np.bincount(values.ravel(), minlength=MAX_SCORE + 1)
        opened = np.flatnonzero(self.open[rep])
        if len(opened):
            block = self._block(np.full(len(opened), rep), opened)  # (N, 24, w)
            order = (block.astype(np.float32) @ self.subsets).argmax(axis=1)  # (N, n_R)
            chosen = np.take_along_axis(block, order[:, :, None], axis=1)  # (N, n_R, w)
            member = np.broadcast_to(self.subsets.T[None, :, :] > 0, chosen.shape)
            counts += np.bincount(chosen[member].astype(np.int64), minlength=MAX_SCORE + 1)
        return counts

    def placement_cells(self, rep: int, symmetry: int = 0) -> IntArray:
        """The cell of each card (in the order given) for a class under one of the 8 symmetries."""
        return np.asarray(SYMMETRIES[symmetry][self.geo.rep_cells[rep]], dtype=np.int64)
