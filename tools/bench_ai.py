"""Benchmark of the CPU players: hard's decision time per half and every level's mean score.

Usage::

    python tools/bench_ai.py [--deals 200] [--rounds 1000] [--json]

* Decision time of *hard* over ``--deals`` seeded deals, first half and second
  half, with and without the tens: mean, p95 and max of wall-clock time, and
  the same for process CPU time (wall time on a shared machine includes other
  processes' load). Targets: first half p95 <= 250 ms, second half p95 <= 10 ms.
* Peak resident memory of this process after the timing runs (target <= 200 MB).
* Mean score per round of easy / normal / hard / match over ``--rounds``
  seeded rounds (no tens): the same N/5 five-round matches for every level
  (see :func:`mean_scores`). ``--times-only`` skips this part.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from royalnine.ai import LEVELS, make_player
from royalnine.ai.exact import geometry
from royalnine.ai.selfplay import play_match
from royalnine.core.match import Dealer, Match, MatchConfig, placement_actions
from royalnine.core.view import view


def _summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {
        "mean_ms": 1000 * statistics.fmean(values),
        "p95_ms": 1000 * p95,
        "max_ms": 1000 * ordered[-1],
    }


def decision_times(deals: int, tens: bool) -> dict[str, dict[str, dict[str, float]]]:
    """Wall and CPU time of hard's first- and second-half decisions over seeded deals."""
    walls: dict[int, list[float]] = {1: [], 2: []}
    cpus: dict[int, list[float]] = {1: [], 2: []}
    hard = make_player("hard", 0, random.Random(0))
    other = make_player("easy", 1, random.Random(1))
    for seed in range(deals):
        dealer = Dealer(random.Random(seed))
        match = Match.new(MatchConfig(rounds=1, tens=tens))
        for half in (1, 2):
            match = match.apply(dealer.deal(match))
            v = view(match, 0)
            wall, cpu = time.perf_counter(), time.process_time()
            placement = hard.choose(v)
            walls[half].append(time.perf_counter() - wall)
            cpus[half].append(time.process_time() - cpu)
            match = match.apply_all(placement_actions(0, placement))
            match = match.apply_all(placement_actions(1, other.choose(view(match, 1))))
    return {
        f"{'first' if half == 1 else 'second'}_half": {
            "wall": _summary(walls[half]),
            "cpu": _summary(cpus[half]),
        }
        for half in (1, 2)
    }


def mean_scores(rounds: int) -> dict[str, float]:
    """Mean points per round of each level over the same seeded deals.

    All levels play the same ``rounds // 5`` five-round matches (seeds 0, 1, ...),
    so they see identical cards: a deal depends only on the seed, never on play.
    Easy, normal and hard face an easy opponent (it cannot change their score);
    the match level faces hard, since its choices depend on the match situation.
    """
    out: dict[str, float] = {}
    for level in LEVELS:
        total, count = 0, 0
        for seed in range(max(1, rounds // 5)):
            players = (
                make_player(level, 0, random.Random(seed)),
                make_player("hard" if level == "match" else "easy", 1, random.Random(seed + 1)),
            )
            match = play_match(players, seed, MatchConfig(rounds=5))
            total += sum(r.points[0] for r in match.results)
            count += len(match.results)
        out[level] = total / count
    return out


def main() -> int:
    """Run the benchmark and print it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--times-only", action="store_true", help="skip the mean scores")
    args = parser.parse_args()
    start = time.perf_counter()
    geometry()  # built once per process; reported separately
    setup_ms = 1000 * (time.perf_counter() - start)
    times = {
        "no_tens": decision_times(args.deals, tens=False),
        "tens": decision_times(args.deals, tens=True),
    }
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    scores = {} if args.times_only else mean_scores(args.rounds)
    result = {
        "deals": args.deals,
        "rounds": args.rounds,
        "setup_ms": setup_ms,
        "decision_times": times,
        "peak_rss_mb": peak_mb,
        "mean_score_per_round": scores,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"hard decision time over {args.deals} seeded deals (one-off setup {setup_ms:.0f} ms)")
    for rule, halves in times.items():
        for half, kinds in halves.items():
            for kind, s in kinds.items():
                print(
                    f"  {rule:8} {half:12} {kind:5} mean {s['mean_ms']:7.1f} ms"
                    f"  p95 {s['p95_ms']:7.1f} ms  max {s['max_ms']:7.1f} ms"
                )
    print(f"peak resident memory: {peak_mb:.0f} MB")
    if scores:
        print(f"mean score per round over {args.rounds} seeded rounds (no tens):")
    for level, value in scores.items():
        print(f"  {level:7} {value:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
