"""Soak/fuzz driver: the whole game under random stylus, button and file-drop input, headless.

A monkey (with bursts of purposeful play in between) taps, drags, presses
every DS button (SELECT and START included) and drops junk files on the
window for many frames, across seeds, layouts of the
menu tree and both languages. Any exception is a bug; so is a match whose
shown state disagrees with the rules core. Every few thousand frames it checks
that the data folder holds only well-formed files (a save that loads, or none).

Usage: ``python tools/soak.py [--seeds N] [--frames N] [--json]``; prints how
many frames, scenes and matches it went through. ``tests/test_soak.py`` runs a
short version in CI.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from petitcom_shim import Button, Machine
from royalnine.app import App
from royalnine.core import score_grid
from royalnine.game import new_game
from royalnine.screens.autoplay import AutoPlayer
from royalnine.storage import CorruptSaveSetAside, Settings, Storage

BUTTONS = [b.value for b in Button]


def soak(seed: int, frames: int, home: Path, *, lang: str = "en") -> Counter[str]:
    """Run one monkey for ``frames`` frames; returns counts of what it saw. Raises on a bug."""
    rng = random.Random(seed)
    m = Machine(headless=True, seed=seed)
    app = new_game(m, Storage(home), Settings(sound=False, lang=lang, rounds=2), seed=seed)
    seen: Counter[str] = Counter()
    # Between bursts of monkey input a purposeful player moves things on, so the
    # monkey also reaches reveals, results and rematches.
    player = AutoPlayer(app, mode=rng.choice(("cpu", "local")), drag=None, seed=seed)
    junk = home.parent / f"junk-{seed}.png"
    junk.write_bytes(rng.randbytes(200))
    frame = 0
    try:
        while frame < frames:
            kind = rng.random()
            menu = getattr(app.scene, "menu", None)
            values = [item.value for item in menu.items] if menu is not None else []
            if (
                menu is not None
                and rng.random() < 0.05
                and {"remote", "host", "join"} & set(values)
            ):
                # wander into remote play: host or join, then the monkey (and junk) take over
                wanted = rng.choice([v for v in ("remote", "host", "join") if v in values])
                item = next(i for i in menu.items if i.value == wanted)
                m.input.touch(*item.rect.centre)
                app.step(2)
                m.input.untouch()
                codes = sorted(home.glob("remote/*/move-*.png"))
                if codes and rng.random() < 0.5:
                    m.input.drop_file(rng.choice(codes))
                steps = 2
            elif player.finished and menu is not None and menu.items:
                # the match is over: rematch or back to the title, then play on
                m.input.touch(*rng.choice(menu.items).rect.centre)
                app.step(2)
                m.input.untouch()
                player = AutoPlayer(app, mode=player.mode, seed=rng.randrange(1 << 30))
                steps = 2
            elif rng.random() < 0.4:  # a purposeful burst
                for _ in range(rng.randint(30, 400)):
                    player.step()
                steps = 1
            elif kind < 0.55:  # a tap somewhere on the touch screen
                m.input.touch(rng.randrange(256), rng.randrange(192))
                app.step(rng.randint(1, 3))
                m.input.untouch()
                steps = rng.randint(1, 20)
            elif kind < 0.75:  # a drag
                x, y = rng.randrange(256), rng.randrange(192)
                for _ in range(rng.randint(2, 8)):
                    m.input.touch(x, y)
                    app.step(1)
                    x = min(255, max(0, x + rng.randint(-60, 60)))
                    y = min(191, max(0, y + rng.randint(-60, 60)))
                m.input.untouch()
                steps = 2
            elif kind < 0.97:  # a button
                bit = rng.choice(BUTTONS)
                m.input.press(bit)
                app.step(rng.randint(1, 4))
                m.input.release(bit)
                steps = rng.randint(1, 10)
            else:  # a file dropped on the window
                m.input.drop_file(junk)
                steps = 1
            app.step(steps)
            frame = app.frames
            scene = type(app.scene).__name__
            seen[scene] += 1
            check_scene(app, seen)
            if frame % 2000 < steps:
                check_home(home)
    finally:
        m.close()
    seen["frames"] = app.frames
    del seen["last finished"]
    return seen


def check_scene(app: App, seen: Counter[str]) -> None:
    """Whatever is on screen agrees with the rules core."""
    match = getattr(app.scene, "match", None)
    if match is None:
        return
    for result in match.results:
        if result.points != tuple(score_grid(g).total for g in result.grids):
            raise AssertionError(f"round {result.number} points disagree with the core")
    if match.is_over and seen["last finished"] != id(match):
        seen["matches finished"] += 1
        seen["last finished"] = id(match)


def check_home(home: Path) -> None:
    """The data folder holds a loadable save or none (set-aside files are allowed)."""
    storage = Storage(home)
    try:
        storage.load_game()
    except CorruptSaveSetAside as exc:
        raise AssertionError(f"the game wrote a save it cannot read: {exc}") from None
    storage.load_settings()
    if storage.notices:
        raise AssertionError(f"the game wrote a damaged file: {storage.notices}")


def main(argv: list[str] | None = None) -> int:
    """Run the monkeys and print what they covered."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--frames", type=int, default=20_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    total: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(args.seeds):
            home = Path(tmp) / f"home-{seed}"
            total += soak(seed, args.frames, home, lang="ja" if seed % 2 else "en")
    if args.json:
        print(json.dumps(dict(total)))
    else:
        for key, value in sorted(total.items()):
            print(f"{key:24} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
