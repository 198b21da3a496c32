"""Memory (issue 18 item 5): the game held 205-214 MB on its title in a real window.

Two things held most of it, each checked here without a display or a clock:

* the GPU renderer: SDL backed the windows with OpenGL, which with Mesa's llvmpipe
  maps libLLVM (some 75 MB resident). The windows now draw through SDL's software
  renderer, and window surfaces are not backed by OpenGL;
* rendering the songs: glibc kept the freed render temporaries (some 30 MB) once
  its mmap threshold had risen to their size; :func:`bgm.return_big_blocks` fixes it.

The figures (title 8 s after start, and after a 5-round match, in a real X window)
are in the closing note of issue 18 and measured by ``tools/bench_memory.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from petitcom_shim import display
from petitcom_shim.config import ShimConfig

ROOT = Path(__file__).resolve().parent.parent

RENDER_IN_A_THREAD = """
import sys, threading
import numpy as np
from petitcom_shim import bgm
from petitcom_shim.mml import parse
from royalnine.music import song_text

def rss_mb():
    line = next(l for l in open("/proc/self/status") if l.startswith("VmRSS"))
    return int(line.split()[1]) / 1024

if sys.argv[1] == "fixed":
    bgm.return_big_blocks()
songs = [parse(song_text(name)) for name in ("title", "match", "result")]
kept = []
before = rss_mb()
def work():
    for song in songs:
        kept.append(bgm._render_for_mixer(song, bgm.SAMPLE_RATE, 2, np.int16))
worker = threading.Thread(target=work)
worker.start()
worker.join()
results = sum(p.nbytes for parts in kept for p in parts if p is not None) / 2**20
print(rss_mb() - before - results)
"""


def _held_after_rendering(mode: str) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("MALLOC_MMAP_THRESHOLD_", None)
    done = subprocess.run(
        [sys.executable, "-c", RENDER_IN_A_THREAD, mode],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return float(done.stdout.split()[-1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator")
def test_rendering_the_songs_gives_its_temporaries_back() -> None:
    """Beyond the rendered songs themselves, a few MB stay resident (it was some 30)."""
    assert _held_after_rendering("fixed") < 15


def test_windows_draw_without_an_opengl_stack() -> None:
    os.environ.pop("SDL_FRAMEBUFFER_ACCELERATION", None)
    frontend = display.WindowFrontend(layout="vertical", scale=1, config=ShimConfig())
    try:
        assert frontend.renderer == "software"
        assert os.environ["SDL_FRAMEBUFFER_ACCELERATION"] == "0"
    finally:
        frontend.close()
        os.environ.pop("SDL_FRAMEBUFFER_ACCELERATION", None)


def test_the_gpu_renderer_can_still_be_chosen() -> None:
    frontend = display.WindowFrontend(
        layout="vertical", scale=1, config=ShimConfig(renderer="texture")
    )
    try:
        assert frontend.renderer == "texture"
    finally:
        frontend.close()


def test_bench_memory_reports_the_demos_own_peak(monkeypatch: pytest.MonkeyPatch) -> None:
    """The match's peak was the largest of every child process (the title's run too)."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import bench_memory
    finally:
        sys.path.remove(str(ROOT / "tools"))

    class Demo:
        pid = 4242
        polls = iter([None, None, 0])

        def __init__(self, *args: object, **kwargs: object) -> None:
            pass

        def poll(self) -> int | None:
            return next(self.polls)

    samples = iter([{"VmHWM": 3.0, "VmRSS": 2.0}, {"VmHWM": 4.0, "VmRSS": 1.0}])
    monkeypatch.setattr(bench_memory.subprocess, "Popen", Demo)
    monkeypatch.setattr(bench_memory, "_status_mb", lambda pid: next(samples))
    monkeypatch.setattr(bench_memory.time, "sleep", lambda s: None)
    assert bench_memory.match_rss() == {"peak": 4.0, "last_VmHWM": 4.0, "last_VmRSS": 1.0}
