"""Benchmark the game: start-up time to the first title frame, and peak memory over a whole match.

* start-up: wall time from launching ``python -m royalnine.cli play`` to the
  moment the first title frame has been presented (the game prints a marker
  when ``ROYALNINE_BENCH_FIRST_FRAME`` is set and exits), median of 5 cold
  starts. Target: <= 1.5 s.
* memory: peak resident set size of ``royalnine demo --headless`` playing a
  full 5-round CPU-vs-CPU match through the UI. Target: <= 150 MB.

Without a display, SDL's dummy video driver is used (the window still presents).
Usage: ``python tools/bench_game.py [--json] [--runs N]``. Prints figures; never fails on them.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
START_TARGET_S = 1.5
MEMORY_TARGET_MB = 150.0


def _env(home: str) -> dict[str, str]:
    env = dict(os.environ)
    if not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        env.setdefault("SDL_VIDEODRIVER", "dummy")
    env.setdefault("SDL_AUDIODRIVER", "dummy")
    env["ROYALNINE_HOME"] = home
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def time_to_first_frame(runs: int) -> list[float]:
    """Seconds from process launch to the first presented title frame, for each run."""
    times: list[float] = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as home:
            env = _env(home)
            env["ROYALNINE_BENCH_FIRST_FRAME"] = "1"
            start = time.perf_counter()
            proc = subprocess.Popen(
                [sys.executable, "-m", "royalnine.cli", "play", "--scale", "1"],
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            )
            assert proc.stdout is not None
            for line in proc.stdout:
                if line.startswith("first-frame"):
                    times.append(time.perf_counter() - start)
                    break
            proc.wait()
    return times


def peak_memory_mb() -> tuple[float, float]:
    """(peak RSS in MB, wall seconds) of a headless CPU-vs-CPU demo match."""
    with tempfile.TemporaryDirectory() as home:
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "royalnine.cli", "demo", "--headless", "--rounds", "5"],
            env=_env(home),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=True,
        )
        seconds = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    peak = max(peak, before)  # the largest child so far: only the demo ran
    per_mb = 1024 * 1024 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB on Linux
    return peak / per_mb, seconds


def main(argv: list[str] | None = None) -> int:
    """Run both measurements and print them."""
    parser = argparse.ArgumentParser(description="Royal Nine game benchmark")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--runs", type=int, default=5, help="cold starts to time (median reported)")
    args = parser.parse_args(argv)
    starts = time_to_first_frame(args.runs)
    memory, match_seconds = peak_memory_mb()
    result = {
        "first_frame_s_median": round(statistics.median(starts), 3) if starts else None,
        "first_frame_s_runs": [round(t, 3) for t in starts],
        "first_frame_target_s": START_TARGET_S,
        "match_peak_rss_mb": round(memory, 1),
        "match_peak_rss_target_mb": MEMORY_TARGET_MB,
        "match_wall_s": round(match_seconds, 2),
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"first title frame: median {result['first_frame_s_median']} s "
            f"(runs {result['first_frame_s_runs']}; target <= {START_TARGET_S} s)"
        )
        print(
            f"full headless CPU-vs-CPU match: peak RSS {result['match_peak_rss_mb']} MB "
            f"(target <= {MEMORY_TARGET_MB} MB), {result['match_wall_s']} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
