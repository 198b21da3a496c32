"""Benchmark BGM: how long each game song takes to render, and whether frames stall meanwhile.

Prints the render time of each song in ``royalnine/data/music`` (the worker
thread's job), then runs a headless machine in real time (60 fps) with the
mixer open (SDL's dummy audio driver) while the title theme renders in the
background, and prints the time between frames against the same frames with
nothing rendering: a stall would show as intervals well over 16.7 ms. Figures
only: nothing here is a pass/fail.

Usage: ``SDL_AUDIODRIVER=dummy python tools/bench_bgm.py``
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from petitcom_shim import Machine  # noqa: E402
from petitcom_shim.bgm import render_song  # noqa: E402
from petitcom_shim.mml import parse  # noqa: E402
from royalnine.music import SONGS, song_text  # noqa: E402

FRAMES = 180


def frame_times(m: Machine, frames: int) -> list[float]:
    """Milliseconds between successive frames."""
    times = []
    last = time.perf_counter()
    for i in range(frames):
        m.gcls(i % 7)  # a little drawing, as a scene would
        m.vsync()
        now = time.perf_counter()
        times.append((now - last) * 1000)
        last = now
    return times


def main() -> None:
    for name in SONGS:
        song = parse(song_text(name))
        start = time.perf_counter()
        render_song(song)
        took = time.perf_counter() - start
        print(f"render {name}: {took:.2f} s for {song.duration:.1f} s of music")
    m = Machine(headless=True, audio=True, realtime=True)
    quiet = frame_times(m, FRAMES)
    m.bgmset(200, song_text("title"))
    m.bgmplay(0, 200)
    busy = frame_times(m, FRAMES)
    future = m.bgm._tracks[0].audio
    done = future is not None and future.done()
    for label, times in (("idle", quiet), ("while rendering", busy)):
        print(
            f"frame interval {label}: median {statistics.median(times):.1f} ms, "
            f"95th percentile {statistics.quantiles(times, n=20)[-1]:.1f} ms, "
            f"max {max(times):.1f} ms over {len(times)} frames"
        )
    print(f"title render finished within those frames: {done}; bgmchk={m.bgmchk(0)}")
    m.close()


if __name__ == "__main__":
    main()
