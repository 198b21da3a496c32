"""Measure the game's resident memory in a real window, as issue 18 asks.

* title: ``royalnine play`` on an empty data folder; RSS 8 s after start (the
  window is open, the songs rendered, the title drawn and idle).
* match: ``royalnine demo`` (CPU against CPU, through the UI, in a window at the
  real pace, sound on) playing a 5-round match: the peak RSS of the whole run
  and the last sample before it ends (the result screen).

Needs a display (``DISPLAY``; e.g. ``Xvfb :47 -screen 0 1920x1200x24 &`` and
``DISPLAY=:47``). Audio goes to SDL's dummy driver unless ``SDL_AUDIODRIVER`` says
otherwise, so the music is rendered and mixed as on a machine with sound. Linux
only (reads /proc). Goal: at most 150 MB both times. Prints figures (``--json``
for one object); never fails on them. Usage: ``python tools/bench_memory.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL_MB = 150.0
TITLE_WAIT_S = 8.0


def _status_mb(pid: int) -> dict[str, float]:
    """VmRSS, VmHWM, RssAnon and RssFile of a process, in MB."""
    out: dict[str, float] = {}
    with open(f"/proc/{pid}/status", encoding="ascii") as fh:
        for line in fh:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile"):
                out[key] = round(int(value.split()[0]) / 1024, 1)
    return out


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("SDL_VIDEODRIVER", None)
    env.setdefault("SDL_AUDIODRIVER", "dummy")
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def title_rss() -> dict[str, float]:
    """The game's memory on its title, TITLE_WAIT_S after start."""
    with tempfile.TemporaryDirectory() as home:
        cmd = [sys.executable, "-m", "royalnine.cli", "play", "--home", home]
        proc = subprocess.Popen(cmd, env=_env(), cwd=ROOT)
        try:
            time.sleep(TITLE_WAIT_S)
            return _status_mb(proc.pid)
        finally:
            proc.terminate()
            proc.wait()


def match_rss() -> dict[str, float]:
    """Peak and last-sampled memory of a 5-round demo match in a window."""
    with tempfile.TemporaryDirectory() as home:
        cmd = [sys.executable, "-m", "royalnine.cli", "demo", "--home", home, "--rounds", "5"]
        proc = subprocess.Popen(cmd, env=_env(), cwd=ROOT, stdout=subprocess.DEVNULL)
        last: dict[str, float] = {}
        while proc.poll() is None:
            try:
                last = _status_mb(proc.pid)
            except OSError:
                break
            time.sleep(0.5)
        # The demo's own high-water mark (VmHWM), sampled last just before it ended: the
        # children's ru_maxrss would be the largest of every child, the title's run too.
        return {"peak": last.get("VmHWM", 0.0), **{f"last_{k}": v for k, v in last.items()}}


def main(argv: list[str] | None = None) -> int:
    """Run both measurements and print them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        print("bench_memory: needs a display (e.g. Xvfb :47 and DISPLAY=:47)", file=sys.stderr)
        return 2
    result = {"goal_mb": GOAL_MB, "title": title_rss(), "match": match_rss()}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"title, {TITLE_WAIT_S:.0f} s after start: {result['title']}")
        print(f"5-round demo match in a window: {result['match']}  (goal <= {GOAL_MB} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
