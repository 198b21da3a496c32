"""The hard CPU's exact search against a plain brute-force enumeration written for this test.

The brute force shares no code with royalnine.ai: its own line table (built by
a readable role function), its own grid scorer (checked against the rules
core's score_grid), every one of the 1680 first-half placements (no symmetry),
every second deal and every centre, the best second-half order chosen per case.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import numpy.typing as npt
import pytest

from royalnine.ai.exact import FirstHalf, geometry, second_half
from royalnine.ai.tables import SYMMETRIES, score_indices
from royalnine.core.cards import Card, make_deck
from royalnine.core.scoring import score_grid

ROWS = ((0, 1, 2), (3, 4, 5), (6, 7, 8))
COLUMNS = ((0, 3, 6), (1, 4, 7), (2, 5, 8))
OWN = (0, 1, 2, 3, 5, 6, 7, 8)
Ints = npt.NDArray[np.int64]


def role_points(a: int, b: int, c: int) -> int:
    """Points of a line of card indices a, b, c (rank = i % 10 + 1, colour = i // 10)."""
    ranks = sorted((a % 10 + 1, b % 10 + 1, c % 10 + 1))
    straight = ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1
    flush = a // 10 == b // 10 == c // 10
    if straight and flush:
        return 2
    return 1 if straight or flush else 0


TABLE = np.array(
    [[[role_points(a, b, c) for c in range(20)] for b in range(20)] for a in range(20)]
)


def brute_scores(grids: Ints, centres: list[int]) -> Ints:
    """Scores of own grids ``(..., 9)`` (cell 4 ignored) with each centre: ``(..., centres)``."""
    centre = np.asarray(centres)
    total = np.zeros((*grids.shape[:-1], len(centre)), dtype=np.int64)
    for a, b, c in ROWS + COLUMNS:
        if 4 in (a, b, c):
            x, y = (grids[..., k, None] for k in (a, b, c) if k != 4)
            total += 2 * TABLE[x, y, centre]
        else:
            total += TABLE[grids[..., a], grids[..., b], grids[..., c]][..., None]
    own = grids[..., list(OWN)] // 10
    one_colour = (own == own[..., :1]).all(axis=-1)[..., None]
    centre_same = centre // 10 == own[..., :1]
    total = np.where(one_colour & centre_same, total + 16, total)
    return np.asarray(np.where(one_colour & ~centre_same, 0, total), dtype=np.int64)


def brute_first_half(cards: list[int], unseen: list[int]) -> dict[tuple[int, ...], float]:
    """EV of every first-half placement (cells of cards in order), by full enumeration.

    My next 4 cards H2: every 4-subset of the unseen cards. The opponent's next 4
    O2: every 4-subset of the rest. Centre: every card left. My second-half order
    is chosen after seeing H2 and O2, to maximise the mean over the centre.
    """
    placements = list(itertools.permutations(OWN, 4))
    orders = list(itertools.permutations(range(4)))
    slot_at = np.full((len(placements), len(orders), 9), 8)  # slot 8: the centre
    for p, cells in enumerate(placements):
        rest = [c for c in OWN if c not in cells]
        for o, order in enumerate(orders):
            for j, cell in enumerate(cells):
                slot_at[p, o, cell] = j
            for j, k in enumerate(order):
                slot_at[p, o, rest[j]] = 4 + k
    total = np.zeros(len(placements))
    cases = 0
    for hand2 in itertools.combinations(unseen, 4):
        left = [c for c in unseen if c not in hand2]
        scores = brute_scores(np.array([*cards, *hand2, 0])[slot_at], left)  # (P, order, centre)
        pools = []
        for opp2 in itertools.combinations(range(len(left)), 4):
            pools.append([k for k in range(len(left)) if k not in opp2])
        member = np.zeros((len(left), len(pools)))
        for j, pool in enumerate(pools):
            member[pool, j] = 1 / len(pool)
        # per opponent deal: best order's mean over the centres left; summed over deals
        total += (scores @ member).max(axis=1).sum(axis=1)
        cases += len(pools)
    return {cells: float(v) for cells, v in zip(placements, total / cases, strict=True)}


def brute_second_half(
    fixed: dict[int, int], cards: list[int], free: list[int], pool: list[int]
) -> list[float]:
    """EV of every order of ``cards`` into ``free`` (itertools.permutations order)."""
    out = []
    for cells in itertools.permutations(free):
        grid = np.zeros(9, dtype=np.int64)
        for cell, card in fixed.items():
            grid[cell] = card
        for cell, card in zip(cells, cards, strict=True):
            grid[cell] = card
        out.append(float(brute_scores(grid, pool).mean()))
    return out


def deal(seed: int, tens: bool) -> list[int]:
    deck = [c.index for c in make_deck(tens=tens)]
    random.Random(seed).shuffle(deck)
    return deck


def all_placement_values(fh: FirstHalf) -> dict[tuple[int, ...], float]:
    values = fh.all_exact()
    out = {}
    for rep in range(len(values)):
        for g in range(len(SYMMETRIES)):
            out[tuple(fh.placement_cells(rep, g).tolist())] = values[rep] / fh.denominator
    return out


def test_brute_scorer_matches_the_rules_core() -> None:
    rng = random.Random(11)
    grids = [rng.sample(range(20), 9) for _ in range(3000)]
    for _ in range(50):  # one-colour grids, so Royal Nine and bust are exercised
        reds = rng.sample(range(10), 9)
        grids.append(reds)  # Royal Nine
        grids.append([*reds[:4], rng.randrange(10, 20), *reds[5:]])  # bust
    for g in grids:
        expected = score_grid([Card.from_index(i) for i in g]).total
        assert int(brute_scores(np.array(g), [g[4]])[0]) == expected
        assert int(score_indices(g)) == expected


# with tens the brute force takes some 50 s (a quarter of the default run's CPU): it runs
# with the slow tests (CI), as do more seeds of both below
@pytest.mark.parametrize("tens", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_first_half_matches_brute_force(tens: bool) -> None:
    d = deal(5 + tens, tens)
    cards, unseen = d[:4], d[8:]
    brute = brute_first_half(cards, unseen)
    fh = FirstHalf(cards, unseen)
    reps, numerator = fh.best()
    assert abs(numerator / fh.denominator - max(brute.values())) < 1e-9
    ours = all_placement_values(fh)
    assert len(ours) == 1680 == len(brute)
    assert max(abs(ours[p] - v) for p, v in brute.items()) < 1e-9
    best_cells = {tuple(fh.placement_cells(r, g).tolist()) for r in reps for g in range(8)}
    best_brute = max(brute.values())
    assert best_cells == {p for p, v in brute.items() if abs(v - best_brute) < 1e-9}


@pytest.mark.slow
@pytest.mark.parametrize("seed", [21, 22, 23])
@pytest.mark.parametrize("tens", [False, True])
def test_first_half_matches_brute_force_more_seeds(seed: int, tens: bool) -> None:
    d = deal(seed, tens)
    brute = brute_first_half(d[:4], d[8:])
    fh = FirstHalf(d[:4], d[8:])
    ours = all_placement_values(fh)
    assert max(abs(ours[p] - v) for p, v in brute.items()) < 1e-9
    assert abs(fh.best()[1] / fh.denominator - max(brute.values())) < 1e-9


def test_first_half_with_a_one_colour_hand_handles_royal_nine_and_bust() -> None:
    # four reds in hand, three reds among the opponent's: a Royal Nine needs all red
    reds, blues = list(range(9)), list(range(10, 19))
    cards = reds[:4]
    opponent = [reds[4], reds[5], blues[0], blues[1]]
    unseen = [c for c in reds + blues if c not in cards + opponent]
    brute = brute_first_half(cards, unseen)
    fh = FirstHalf(cards, unseen)
    assert abs(fh.best()[1] / fh.denominator - max(brute.values())) < 1e-9


@pytest.mark.parametrize("tens", [False, True])
@pytest.mark.parametrize("seed", range(12))
def test_second_half_matches_brute_force(seed: int, tens: bool) -> None:
    d = deal(100 + seed, tens)
    cells = random.Random(seed).sample(OWN, 4)
    fixed = dict(zip(cells, d[:4], strict=True))
    free = [c for c in OWN if c not in cells]
    cards, pool = d[8:12], d[16:]
    brute = brute_second_half(fixed, cards, free, pool)
    table = second_half(fixed, cards, free, pool)
    assert table.evs.max() == pytest.approx(max(brute), abs=1e-9)
    # same orders in the same sequence: cells[i] is the i-th permutation of free
    assert np.allclose(table.evs, brute, atol=1e-9)


def test_branch_and_bound_and_top_agree_with_evaluating_everything() -> None:
    for seed, tens in ((1, False), (2, True), (3, False)):
        d = deal(seed, tens)
        fh = FirstHalf(d[:4], d[8:])
        values = fh.all_exact()
        reps, best = fh.best()
        assert best == values.max()
        assert sorted(reps) == sorted(np.flatnonzero(values == best).tolist())
        top = fh.top(10)
        assert [v for _, v in top] == sorted(values.tolist(), reverse=True)[:10]
        assert all(values[r] == v for r, v in top)
        assert (fh.lower <= values).all() and (values <= fh.upper).all()


def test_histogram_is_the_distribution_behind_the_expectation() -> None:
    d = deal(4, True)
    fh = FirstHalf(d[:4], d[8:])
    values = fh.all_exact()
    for rep in (0, 17, int(values.argmax())):
        hist = fh.histogram(rep)
        assert hist.sum() == fh.denominator
        assert int(hist @ np.arange(len(hist))) == values[rep]


def test_symmetric_placements_score_alike() -> None:
    rng = random.Random(8)
    for _ in range(300):
        g = np.array(rng.sample(range(20), 9))
        base = score_indices(g)
        for perm in SYMMETRIES:
            moved = np.empty(9, dtype=np.int64)
            moved[perm] = g
            assert score_indices(moved) == base


def test_first_half_placements_form_210_classes_of_8() -> None:
    geo = geometry()
    assert len(geo.rep_cells) == 210
    assert (geo.class_size == 8).all()
