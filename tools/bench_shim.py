"""Benchmark of the shim's frame composition against plain pygame blitting.

Worst case from issue 3: on both screens, two full BG layers scrolling, 100
moving 32x32 sprites (ids 0-23 spinning continuously at different scales,
24-31 pulsing in size), a full console whose last line changes every frame,
and a GRP drawing; 600 frames in step mode. Spinning and pulsing repeat, as in
games, so after the first cycle transformed images come from the cache; a
never-seen (angle, scale) costs one pygame scale+rotate. Each frame is timed
from ``vsync`` through composing both screens (the program's own verb calls
before ``vsync`` are not counted; their effects are).

The baseline is a plain pygame-ce loop that blits the same pixels with no
emulation: the same layer, sprite, console and GRP images, pre-rendered, at the
positions the emulated run produced (recorded in a separate, untimed run). The
two alternate frame by frame.

Times are CPU time of the main thread (``time.thread_time``), where pygame
blits, so other processes on a busy computer do not inflate them.

``--wall`` times with the wall clock instead (on an idle machine the two agree
closely; under load the wall clock also counts time other processes took).

Usage: ``python tools/bench_shim.py [--frames N] [--repeats N] [--json] [--wall]``. With
``--json`` it prints one line: frame_ms_mean, frame_ms_p99, budget_fraction
(mean / 16.7 ms), baseline_ms_mean and ratio_vs_baseline.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

import pygame

from petitcom_shim import Machine

FRAME_BUDGET_MS = 1000 / 60
#: CPU time of this thread: time spent waiting while other processes run is not
#: counted, so a busy computer does not distort the figures (blits run on this thread).
_clock = time.thread_time
SPRITES = 100
AFFINE = 32
SPINNING = 24


def _tile_hex(n: int) -> str:
    """A busy 8x8 tile pattern that uses all 15 opaque colours."""
    return "".join(f"{(x * (n % 5 + 1) + y * (n % 3 + 1) + n) % 15 + 1:X}"
                   for y in range(8) for x in range(8))  # fmt: skip


def build_scene(m: Machine) -> None:
    """Fill both screens with the worst-case scene."""
    for screen in (0, 1):
        m.bgpage(screen)
        m.sppage(screen)
        m.cpage(screen)
        for n in range(64):
            m.chrset("BGU0", n, _tile_hex(n))
        bank = "SPU0" if screen == 0 else "SPS0"
        for n in range(64):
            m.chrset(bank, n, _tile_hex(n + 7))
        for layer in (0, 1):
            for y in range(64):
                for x in range(64):
                    if layer == 0 and (x + y) % 3 == 0:
                        continue  # holes in the front layer so BG1 shows through
                    m.bgput(layer, x, y, (x * 7 + y * 3 + layer) % 64, (x + y) % 16, x & 1, y & 1)
        for i in range(SPRITES):
            m.spset(i, (i * 4) % 16, i % 16, i & 1, (i >> 1) & 1, i % 4, 32, 32)
            m.sphome(i, 16, 16)
            m.spofs(i, (i * 37) % 256, (i * 53) % 192)
            if i < AFFINE:
                m.spangle(i, i * 10)
                m.spscale(i, 50 + (i * 5) % 150)
        for row in range(24):
            m.color(row % 16, (row + 3) % 16)
            m.locate(0, row)
            m.print(f"ROW {row:02d} " * 4, end="")
        m.gpage(screen, screen, screen)
        m.gcls(0)
        for r in range(10, 90, 6):
            m.gcircle(128, 96, r, r)


def animate(m: Machine, frame: int) -> None:
    """Per-frame program work: scroll both layers, keep sprites moving, update a counter."""
    for screen in (0, 1):
        m.bgpage(screen)
        m.bgofs(0, frame * 2, frame)
        m.bgofs(1, -frame, frame * 3)
        m.sppage(screen)
        if frame % 60 == 0:
            for i in range(SPRITES):
                m.spofs(i, (i * 37 + frame * 3) % 288 - 16, (i * 53 + frame) % 224 - 16, 60)
        if frame % 45 == 0:  # ids 0-23 spin at 4 degrees per frame, each at its own scale
            for i in range(SPINNING):
                turn = 1 if i % 2 else -1
                m.spangle(i, m.spread(i).angle + 180 * turn, 45, turn)
        if frame % 40 == 0:  # ids 24-31 pulse between 60 % and 140 %
            for i in range(SPINNING, AFFINE):
                m.spscale(i, 140 if frame % 80 == 0 else 60, 40)
        m.cpage(screen)
        m.locate(0, 23)
        m.print(f"FRAME {frame:6d}", end="")


@dataclass
class Recorded:
    """What the baseline blits for one screen in one frame."""

    fill: int
    bg: list[tuple[pygame.Surface, pygame.Rect, int, int]]
    sprites: list[list[tuple[pygame.Surface, tuple[int, int]]]]


def record(frames: int) -> tuple[list[list[Recorded]], list[pygame.Surface], list[pygame.Surface]]:
    """Replay the scene untimed and record the images and positions per frame."""
    m = Machine(headless=True, seed=1)
    build_scene(m)
    consoles: list[pygame.Surface] = []
    grps: list[pygame.Surface] = []
    for s in (0, 1):
        m.screen_surface(s)
        consoles.append(m.screens[s].console.surface().copy())
        grps.append(m.screens[s].grp_surface(m.grp_pages[m.screens[s].grp_disp]).copy())
    layers = []  # the maps never change in this scene, so one copy per layer serves
    for s in (0, 1):
        m.screens[s].bg.prepare()
        layers.append([layer.surface.copy() for layer in m.screens[s].bg.layers])
    frames_out = []
    for frame in range(frames):
        animate(m, frame)
        m.vsync(1)
        per_screen = []
        for s in (0, 1):
            video = m.screens[s]
            video.sprites.prepare()
            bg = [
                (layers[s][n], video.bg.clip, int(layer.ofs_x.value), int(layer.ofs_y.value))
                for n, layer in ((1, video.bg.layers[1]), (0, video.bg.layers[0]))
            ]
            fill = int(video.palettes.lut(0)[0])
            per_screen.append(Recorded(fill, bg, video.sprites.draw_lists()))
        frames_out.append(per_screen)
    m.close()
    return frames_out, consoles, grps


def _wrap_blits(target: pygame.Surface, surf: pygame.Surface, ox: int, oy: int) -> None:
    ox %= 512
    oy %= 512
    for bx in (-ox, 512 - ox):
        if bx >= 256 or bx + 512 <= 0:
            continue
        for by in (-oy, 512 - oy):
            if by < 192 and by + 512 > 0:
                target.blit(surf, (bx, by))


def baseline_frame(targets: list[pygame.Surface], per_screen: list[Recorded],
                   consoles: list[pygame.Surface], grps: list[pygame.Surface]) -> None:  # fmt: skip
    """Draw one recorded frame of both screens with plain blits, in the same layer order."""
    for s, rec in enumerate(per_screen):
        target = targets[s]
        target.fill(rec.fill)
        target.blit(grps[s], (0, 0))
        for prio, (surf, clip, ox, oy) in ((3, rec.bg[0]), (2, rec.bg[1])):
            target.fblits(rec.sprites[prio])
            target.set_clip(clip)
            _wrap_blits(target, surf, ox, oy)
            target.set_clip(None)
        target.fblits(rec.sprites[1])
        target.blit(consoles[s], (0, 0))
        target.fblits(rec.sprites[0])


def run_pair(frames: int) -> tuple[list[float], list[float]]:
    """Frame times in ms of the emulated machine and of the baseline, frame by frame.

    The two alternate every frame so that whatever else the computer is doing
    (cache pressure included) affects both alike.
    """
    recorded, consoles, grps = record(frames)
    targets = [pygame.Surface((256, 192), 0, 32, (0xFF0000, 0xFF00, 0xFF, 0)) for _ in (0, 1)]
    # Pre-rendering includes SDL's one-off preparation of each image (RLE encoding).
    for per_screen in recorded:
        for rec in per_screen:
            for blits in rec.sprites:
                targets[0].fblits(blits)
    m = Machine(headless=True, seed=1)
    build_scene(m)
    m.screen_surface(0)  # the first full render of the scene is set-up, not a frame
    m.screen_surface(1)
    emulated, baseline = [], []
    for frame in range(frames):
        animate(m, frame)  # the program's own work is not the shim's frame time
        start = _clock()
        m.vsync(1)
        m.screen_surface(0)
        m.screen_surface(1)
        middle = _clock()
        baseline_frame(targets, recorded[frame], consoles, grps)
        end = _clock()
        emulated.append((middle - start) * 1000)
        baseline.append((end - middle) * 1000)
    m.close()
    return emulated, baseline


def main(argv: list[str] | None = None) -> None:
    """Run both loops and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=600)
    parser.add_argument("--repeats", type=int, default=3, help="best of N runs")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    parser.add_argument(
        "--wall", action="store_true", help="time with the wall clock instead of thread CPU time"
    )
    args = parser.parse_args(argv)
    if args.wall:
        global _clock
        _clock = time.perf_counter
    # Best of N (by the emulated mean): other processes only ever make a run slower.
    runs = [run_pair(args.frames) for _ in range(args.repeats)]
    emulated, baseline = min(runs, key=lambda pair: statistics.fmean(pair[0]))
    mean = statistics.fmean(emulated)
    base = statistics.fmean(baseline)
    result = {
        "frame_ms_mean": round(mean, 4),
        "frame_ms_p99": round(sorted(emulated)[int(len(emulated) * 0.99) - 1], 4),
        "budget_fraction": round(mean / FRAME_BUDGET_MS, 4),
        "baseline_ms_mean": round(base, 4),
        "ratio_vs_baseline": round(mean / base, 4),
    }
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:18} {value}")


if __name__ == "__main__":
    main()
