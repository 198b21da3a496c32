"""How often the *match* CPU level beats *hard* over many seeded matches, with confidence intervals.

Usage::

    python tools/sim_match_level.py [--matches 1000] [--tens] [--rounds 5] [--jobs 2] [--json]
    python tools/sim_match_level.py --fit [--deals 400]   # refit the round-score model

Match i is dealt with seed i; the match level sits at seat i % 2 against hard.
The same seeds are also played hard against hard (same player RNG seeds), so
the comparison is paired: the deals are identical, and the two runs differ
only where the match level chose differently. Reported: wins/draws/losses of
the match level, its win rate with a 95% Wilson interval, its match score
(win 1, draw 1/2) with a 95% interval, and the paired change in score.

``--fit`` prints the round-score distribution of a hard player (exact
distributions averaged over seeded first-half deals) that
``royalnine/ai/match_level.py`` embeds.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from royalnine.ai import make_player
from royalnine.ai.exact import FirstHalf
from royalnine.ai.selfplay import play_match
from royalnine.core.cards import make_deck
from royalnine.core.match import MatchConfig

Z95 = 1.959964


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (centre - half, centre + half)


def mean_ci(values: list[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean and normal-approximation 95% interval."""
    arr = np.asarray(values, dtype=float)
    m = float(arr.mean())
    se = float(arr.std(ddof=1) / math.sqrt(len(arr))) if len(arr) > 1 else 0.0
    return m, m - z * se, m + z * se


def one_match(args: tuple[int, str, int, bool]) -> tuple[int, float]:
    """Play seed ``i`` with ``level`` at seat i % 2 against hard; (seed, that seat's score)."""
    seed, level, rounds, tens = args
    seat = seed % 2
    levels = {seat: level, 1 - seat: "hard"}
    players = (
        make_player(levels[0], 0, random.Random(2 * seed)),
        make_player(levels[1], 1, random.Random(2 * seed + 1)),
    )
    match = play_match(players, seed, MatchConfig(rounds=rounds, tens=tens))
    outcome = match.outcome()
    assert outcome is not None
    if outcome.winner is None:
        return seed, 0.5
    return seed, 1.0 if outcome.winner == seat else 0.0


def simulate(matches: int, rounds: int, tens: bool, jobs: int) -> dict[str, object]:
    """Run the paired simulation and summarise it."""
    with Pool(jobs) as pool:
        match_scores = dict(
            pool.map(one_match, [(i, "match", rounds, tens) for i in range(matches)], chunksize=4)
        )
        hard_scores = dict(
            pool.map(one_match, [(i, "hard", rounds, tens) for i in range(matches)], chunksize=4)
        )
    scores = [match_scores[i] for i in range(matches)]
    base = [hard_scores[i] for i in range(matches)]
    wins = sum(1 for s in scores if s == 1.0)
    draws = sum(1 for s in scores if s == 0.5)
    losses = matches - wins - draws
    score, lo, hi = mean_ci(scores)
    diff, dlo, dhi = mean_ci([a - b for a, b in zip(scores, base, strict=True)])
    return {
        "matches": matches,
        "rounds": rounds,
        "tens": tens,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "win_rate": wins / matches,
        "win_rate_ci95": wilson(wins, matches),
        "decisive_win_share": wins / max(1, wins + losses),
        "decisive_win_share_ci95": wilson(wins, wins + losses),
        "match_score": score,
        "match_score_ci95": (lo, hi),
        "hard_vs_hard_score": float(np.mean(base)),
        "paired_gain": diff,
        "paired_gain_ci95": (dlo, dhi),
        "matches_changed": sum(1 for a, b in zip(scores, base, strict=True) if a != b),
    }


def fit(deals: int) -> None:
    """Print the hard player's round-score distribution for the model in match_level.py."""
    for tens in (False, True):
        deck = [c.index for c in make_deck(tens=tens)]
        acc = np.zeros(33)
        for seed in range(deals):
            rng = random.Random(1000 + seed)
            cards = deck[:]
            rng.shuffle(cards)
            fh = FirstHalf(cards[:4], cards[8:])
            reps, _ = fh.best()
            hist = fh.histogram(reps[0])
            acc += hist / hist.sum()
        acc /= deals
        print(f"tens={tens}:", ", ".join(f"{x:.5f}".rstrip("0").rstrip(".") for x in acc))


def _interval(value: object) -> str:
    assert isinstance(value, tuple)
    return f"[{float(value[0]):+.4f}, {float(value[1]):+.4f}]"


def main() -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--tens", action="store_true")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--fit", action="store_true", help="print the round-score model")
    parser.add_argument("--deals", type=int, default=400)
    args = parser.parse_args()
    if args.fit:
        fit(args.deals)
        return 0
    result = simulate(args.matches, args.rounds, args.tens, args.jobs)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    r = result
    print(f"match level vs hard: {r['matches']} matches of {r['rounds']} rounds, tens={r['tens']}")
    print(f"  wins {r['wins']}  draws {r['draws']}  losses {r['losses']}")
    print(f"  win rate            {r['win_rate']:.4f}  95% CI {_interval(r['win_rate_ci95'])}")
    print(
        f"  wins/(wins+losses)  {r['decisive_win_share']:.4f}"
        f"  95% CI {_interval(r['decisive_win_share_ci95'])}"
    )
    print(
        f"  match score         {r['match_score']:.4f}  95% CI {_interval(r['match_score_ci95'])}"
        "  (win 1, draw 1/2)"
    )
    print(f"  hard vs hard on the same seeds: score {r['hard_vs_hard_score']:.4f}")
    print(
        f"  paired gain         {r['paired_gain']:+.4f}  95% CI {_interval(r['paired_gain_ci95'])}"
        f"  ({r['matches_changed']} matches changed)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
