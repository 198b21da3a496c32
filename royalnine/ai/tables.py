"""Precomputed tables for the CPU players: line points by card index, square symmetries, geometry.

Everything here depends only on the rules, never on a particular deal, and is
built once at import. Cards are handled by :attr:`Card.index` (0-19: red 1-10
are 0-9, blue 1-10 are 10-19), so a line of three cards scores
``LINE_POINTS[a, b, c]`` and a whole grid is a handful of table look-ups.

A line's points are ``straight + flush`` (a straight flush is 2 = 1 + 1), which
is why one table holds all three roles.
"""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt

from royalnine.core.scoring import CENTRE, LINES, OWN_CELLS, ROYAL_NINE_BONUS

IntArray = npt.NDArray[np.int64]

N_INDEX = 20
"""Card indices run 0-19 whether or not the tens are in play."""

RANK = np.array([i % 10 + 1 for i in range(N_INDEX)], dtype=np.int64)
"""Rank of each card index."""
COLOUR = np.array([i // 10 for i in range(N_INDEX)], dtype=np.int64)
"""Colour of each card index: 0 red, 1 blue."""


def _line_points() -> npt.NDArray[np.int8]:
    a, b, c = np.meshgrid(np.arange(N_INDEX), np.arange(N_INDEX), np.arange(N_INDEX), indexing="ij")
    ranks = np.sort(np.stack([RANK[a], RANK[b], RANK[c]]), axis=0)
    straight = (ranks[1] == ranks[0] + 1) & (ranks[2] == ranks[1] + 1)
    flush = (COLOUR[a] == COLOUR[b]) & (COLOUR[b] == COLOUR[c])
    return np.asarray(straight, dtype=np.int8) + np.asarray(flush, dtype=np.int8)


LINE_POINTS = _line_points()
"""``LINE_POINTS[a, b, c]``: base points (0, 1 or 2) of a line of cards a, b, c, in any order."""

OUTER_LINES: tuple[tuple[int, int, int], ...] = tuple(
    line.cells for line in LINES if not line.through_centre
)
CENTRE_LINES: tuple[tuple[int, int, int], ...] = tuple(
    line.cells for line in LINES if line.through_centre
)
CENTRE_PAIRS: tuple[tuple[int, int], ...] = tuple((cells[0], cells[2]) for cells in CENTRE_LINES)
"""The own cells that share a line with the centre: (3, 5) and (1, 7)."""

ROYAL = ROYAL_NINE_BONUS
OWN = OWN_CELLS


def _symmetries() -> IntArray:
    """The 8 symmetries of the square as cell permutations: the card in cell i moves to p[i]."""
    perms = []
    for turns in range(4):
        for mirror in (False, True):
            p = []
            for cell in range(9):
                r, c = divmod(cell, 3)
                if mirror:
                    c = 2 - c
                for _ in range(turns):
                    r, c = c, 2 - r
                p.append(3 * r + c)
            perms.append(p)
    arr = np.array(perms, dtype=np.int64)
    assert len({tuple(p) for p in perms}) == 8
    return arr


SYMMETRIES = _symmetries()
"""Shape (8, 9); row 0 is the identity. Every one maps the centre to itself and lines to lines."""


def score_indices(grids: npt.ArrayLike) -> IntArray:
    """Scores of complete grids given as card indices, shape ``(..., 9)`` (centre at 4).

    A vectorised equivalent of :func:`royalnine.core.scoring.score_total`.
    """
    g = np.asarray(grids, dtype=np.int64)
    total = np.zeros(g.shape[:-1], dtype=np.int64)
    for cells in OUTER_LINES:
        total += LINE_POINTS[g[..., cells[0]], g[..., cells[1]], g[..., cells[2]]]
    for cells in CENTRE_LINES:
        total += 2 * LINE_POINTS[g[..., cells[0]], g[..., cells[1]], g[..., cells[2]]]
    own_colours = COLOUR[g[..., list(OWN)]]
    mono = (own_colours == own_colours[..., :1]).all(axis=-1)
    centre_same = COLOUR[g[..., CENTRE]] == own_colours[..., 0]
    total = np.where(mono & centre_same, total + ROYAL, total)
    return np.where(mono & ~centre_same, 0, total)


PERMS4: IntArray = np.array(list(itertools.permutations(range(4))), dtype=np.int64)
"""The 24 orders of 4 things, shape (24, 4)."""
