"""Benchmark of the match review: a whole match analysed, and frames while it runs behind.

Usage::

    python tools/bench_review.py [--matches 10] [--frames 240] [--json]

* Analysis time of a whole 5-round match (20 placements judged exactly, in
  this process, as ``royalnine review`` does) over ``--matches`` seeded
  easy-vs-hard matches, with and without the tens: mean and max wall-clock
  seconds. Target: <= 2 s.
* Frame times of the review screen (headless, paced at 60 frames a second,
  stepping forwards every 6 frames) while the analysis runs in its background
  worker, against the same with the analysis already done: mean, p99, max in
  ms, and how many frames went over the 16.7 ms budget; and how long after the
  screen opened the background analysis was complete.

Wall-clock figures on a shared machine include the other processes' load.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from petitcom_shim import Button, Machine
from royalnine.ai import make_player
from royalnine.ai.selfplay import play_match
from royalnine.core.match import Match, MatchConfig
from royalnine.game import new_game
from royalnine.review import Analysis
from royalnine.screens.review import ReviewScene
from royalnine.storage import Settings, Storage

FRAME_S = 1 / 60


def match(seed: int, tens: bool) -> Match:
    """A seeded 5-round match, easy (seat 0) against hard."""
    players = (
        make_player("easy", 0, random.Random(seed)),
        make_player("hard", 1, random.Random(-seed)),
    )
    return play_match(players, seed, MatchConfig(tens=tens))


def analysis_times(matches: int, tens: bool) -> dict[str, float]:
    """Seconds to analyse each whole match in this process."""
    times = []
    for seed in range(matches):
        m = match(seed, tens)
        start = time.perf_counter()
        Analysis(m).run_here()
        times.append(time.perf_counter() - start)
    return {"mean_s": round(statistics.mean(times), 3), "max_s": round(max(times), 3)}


def frame_times(frames: int, tens: bool, background: bool) -> dict[str, Any]:
    """The review screen's frame times while stepping, with the analysis behind or done.

    The worker is stopped at the end (an analysis not finished within ``frames`` would
    otherwise go on competing with the next measurement), the machine closed and the
    scratch data folder removed.
    """
    with tempfile.TemporaryDirectory(prefix="bench-review-") as home:
        app = new_game(Machine(headless=True, seed=1), Storage(Path(home)), Settings(sound=False))
        scene = ReviewScene(match(99, tens), {"mode": "cpu", "seat": 0})
        try:
            if not background:
                scene.analysis.run_here()
            opened = time.perf_counter()
            app.switch(scene)
            done_after = None
            spent = []
            for i in range(frames):
                if i % 6 == 0:
                    app.m.input.press(Button.RIGHT)
                elif i % 6 == 1:
                    app.m.input.release(Button.RIGHT)
                start = time.perf_counter()
                app.tick()
                took = time.perf_counter() - start
                spent.append(took * 1000)
                if done_after is None and scene.analysis.done:
                    done_after = round(time.perf_counter() - opened, 3)
                time.sleep(max(0.0, FRAME_S - took))
        finally:
            scene.analysis.stop()
            app.m.close()
    spent.sort()
    return {
        "mean_ms": round(statistics.mean(spent), 2),
        "p99_ms": round(spent[max(0, round(0.99 * len(spent)) - 1)], 2),
        "max_ms": round(spent[-1], 2),
        "over_budget": sum(1 for s in spent if s > FRAME_S * 1000),
        "frames": len(spent),
        "analysis_done_after_s": done_after,
    }


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--frames", type=int, default=240)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out: dict[str, Any] = {"load": [round(x, 2) for x in os.getloadavg()]}
    for tens in (False, True):
        key = "tens" if tens else "no_tens"
        out[key] = {
            "analysis": analysis_times(args.matches, tens),
            "frames_background": frame_times(args.frames, tens, True),
            "frames_done": frame_times(args.frames, tens, False),
        }
    if args.json:
        print(json.dumps(out))
        return
    print(f"load average {out['load']}")
    for key in ("no_tens", "tens"):
        a = out[key]["analysis"]
        print(f"{key}: whole 5-round match analysed in {a['mean_s']} s mean, {a['max_s']} s max")
        for kind in ("frames_background", "frames_done"):
            f = out[key][kind]
            after = f["analysis_done_after_s"]
            done = "not within the run" if after is None else f"after {after} s"
            print(
                f"  {kind}: mean {f['mean_ms']} ms, p99 {f['p99_ms']} ms, max {f['max_ms']} ms, "
                f"{f['over_budget']}/{f['frames']} over 16.7 ms; analysis complete {done}"
            )


if __name__ == "__main__":
    main()
