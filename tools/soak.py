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

Kiosk soak: ``python tools/soak.py --hours H --seed S [--json]`` runs the kiosk
(royalnine.kiosk) headless in step mode at full speed for H simulated hours
(60 frames a simulated second) with random visitors: taps, drags, long
presses, multi-finger touches, buttons, bursts of real play, idle gaps from a
second to over an hour, walk-aways mid-match, and simulated crashes and kills
(some in the middle of a statistics write) each followed by a restart on the
same data folder, as the service manager would. After every restart the
statistics must load undamaged and add up. ``--json`` prints one line with
simulated_hours, frames, matches_completed, exceptions, rss_start_mb (after a
warm-up in which every CPU level plays a round: each level's AI tables are a
one-time cost of some MB), rss_end_mb and cpu_ms_per_frame.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from petitcom_shim import Button, Machine
from royalnine.app import App
from royalnine.core import score_grid
from royalnine.game import new_game
from royalnine.kiosk.config import KioskConfig
from royalnine.kiosk.controller import KioskApp, KioskStorage, new_kiosk
from royalnine.kiosk.stats import STATS_FILE, read_stats
from royalnine.screens.autoplay import AutoPlayer
from royalnine.screens.match import MatchScene
from royalnine.screens.result import MatchResultScene
from royalnine.screens.title import LEVELS
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


# --- the kiosk soak -------------------------------------------------------------------

FPS = 60
WARMUP_S = 1800.0
CRASH_EVERY_S = 2 * 3600.0
"""Mean simulated seconds between simulated crashes or kills."""


def rss_mb() -> float:
    """Resident memory of this process in MB (Linux /proc; 0 elsewhere)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, ValueError, IndexError):
        return 0.0
    return pages * os.sysconf("SC_PAGE_SIZE") / 1e6


class KioskSoak:
    """One kiosk on one data folder, restarted after every simulated crash."""

    def __init__(self, seed: int, home: Path, *, idle_speed: int = 1) -> None:
        self.idle_speed = idle_speed
        """Simulated frames per kiosk frame while nobody is there (1: every frame is run)."""
        self.rng = random.Random(seed)
        self.home = home
        self.t = 1_763_800_000.0 + self.rng.randrange(86400)
        self.frames = 0
        self.exceptions = 0
        self.restarts = 0
        self.errors: list[str] = []
        self.app = self._start()

    def clock(self) -> float:
        """The simulated time."""
        return self.t

    def _start(self) -> KioskApp:
        home = self.home
        home.mkdir(parents=True, exist_ok=True)
        m = Machine(headless=True, seed=self.rng.randrange(1 << 30), audio=False)
        config = KioskConfig()
        app = new_kiosk(
            m, KioskStorage(home), config, clock=self.clock, seed=self.rng.randrange(1 << 30)
        )
        if app.operator_notices:
            raise AssertionError(f"the kiosk found damaged files: {app.operator_notices}")
        return app

    def restart(self, *, mid_write: bool) -> None:
        """A crash or kill: the app is dropped as it is, then started again on the same folder."""
        app = self.app
        app.m.close()
        if mid_write:  # killed inside a write: a half-written temporary file stays behind
            doc = json.dumps(app.book.stats.to_doc())
            tmp = self.home / f".{STATS_FILE}.{self.rng.randrange(1 << 30):x}.tmp"
            tmp.write_text(doc[: self.rng.randrange(len(doc))])
        self.restarts += 1
        # A real restart is a new process: let the old kiosk go before the new one starts,
        # so the two never hold memory at once (which would raise the RSS high-water mark).
        del app
        self.app = None  # type: ignore[assignment]
        gc.collect()
        self.app = self._start()
        if list(self.home.glob(".*.tmp")):
            raise AssertionError("temporary files survived a restart")
        check_stats(self.app)

    def step(self, frames: int = 1, speed: int = 1) -> None:
        """Run frames, each ``speed`` 60ths of a simulated second; an exception is counted
        and ends the run like a crash would."""
        for _ in range(frames):
            self.t += speed / FPS
            try:
                self.app.tick()
            except Exception as exc:  # counted, then restarted like the service manager does
                self.exceptions += 1
                self.errors.append(f"{type(exc).__name__}: {exc}")
                self.restart(mid_write=False)
            self.frames += 1

    # --- visitors ---

    def touch(self, x: int, y: int, frames: int, source: object = "visitor") -> None:
        inp = self.app.m.input
        inp.stylus_down(source, x, y)
        self.step(frames)
        inp.stylus_up(source)

    def visit(self, seconds: float) -> None:
        """A visitor for about ``seconds``: wakes the kiosk, plays a bit or a lot, leaves."""
        rng = self.rng
        end = self.t + seconds
        self.touch(rng.randrange(256), rng.randrange(192), rng.randint(1, 8))
        self.step(2)
        player = AutoPlayer(
            self.app,
            mode=rng.choice(("cpu", "local")),
            level=rng.choice(LEVELS),
            seed=rng.randrange(1 << 30),
        )
        while self.t < end:
            kind = rng.random()
            if kind < 0.55:  # play for real for a while
                for _ in range(rng.randint(30, 900)):
                    if player.app is not self.app:
                        break  # restarted after an exception: a new visitor
                    if not player.queue:
                        player.plan()
                    if player.queue:
                        player._feed()
                    self.step(1)
                if isinstance(self.app.scene, MatchResultScene) and rng.random() < 0.5:
                    menu = self.app.scene.menu
                    if menu is not None:
                        self.touch(*rng.choice(menu.items).rect.centre, 2)
                player = AutoPlayer(
                    self.app, mode=player.mode, level=player.level, seed=rng.randrange(1 << 30)
                )
            elif kind < 0.67:  # a tap anywhere
                self.touch(rng.randrange(256), rng.randrange(192), rng.randint(1, 4))
            elif kind < 0.74:  # a drag
                inp = self.app.m.input
                x, y = rng.randrange(256), rng.randrange(192)
                inp.stylus_down("visitor", x, y)
                for _ in range(rng.randint(2, 12)):
                    x = min(255, max(0, x + rng.randint(-50, 50)))
                    y = min(191, max(0, y + rng.randint(-50, 50)))
                    inp.stylus_move("visitor", x, y)
                    self.step(1)
                inp.stylus_up("visitor")
            elif kind < 0.80:  # a long press
                self.touch(rng.randrange(256), rng.randrange(192), rng.randint(60, 8 * FPS))
            elif kind < 0.86:  # several fingers at once
                inp = self.app.m.input
                fingers = [("finger", 0, k) for k in range(rng.randint(2, 5))]
                for f in fingers:
                    inp.stylus_down(f, rng.randrange(256), rng.randrange(192))
                self.step(rng.randint(2, 90))
                for f in fingers:
                    inp.stylus_up(f)
            elif kind < 0.92:  # buttons (a keyboard or pad someone left plugged in)
                bit = rng.choice(BUTTONS)
                self.app.m.input.press(bit)
                self.step(rng.randint(1, 30))
                self.app.m.input.release(bit)
            elif kind < 0.97:  # thinks for a while
                self.step(rng.randint(1, 30) * FPS)
            else:  # walks away mid-whatever
                return
            self.step(rng.randint(1, 20))

    def warm_up(self) -> None:
        """A visitor plays a little against every CPU level and walks away, so the
        one-time memory of each level's AI (its tables) is in before rss_start is read."""
        for level in LEVELS:
            self.touch(128, 96, 2)
            self.step(2)
            player = AutoPlayer(self.app, mode="cpu", level=level, seed=self.rng.randrange(1 << 30))
            for _ in range(3000):
                scene = self.app.scene
                if isinstance(scene, MatchScene) and scene.match.results:
                    break
                if not player.queue:
                    player.plan()
                if player.queue:
                    player._feed()
                self.step(1)
            self.step(int(120 * FPS / self.idle_speed), self.idle_speed)  # walks away

    def run(self, hours: float, *, warm: bool = True) -> dict[str, float | int]:
        """Visitors and idle gaps until ``hours`` simulated hours have passed (after
        :meth:`warm_up` unless ``warm`` is False, for short runs that ignore memory)."""
        rng = self.rng
        start = self.t
        end = start + hours * 3600
        warm_until = min(start + WARMUP_S, start + hours * 3600 / 4)
        rss_start = 0.0
        cpu0 = time.process_time()
        frames0 = self.frames
        next_crash = self.t + rng.expovariate(1 / CRASH_EVERY_S)
        if warm:
            self.warm_up()
        while self.t < end:
            if rss_start == 0.0 and self.t >= warm_until:
                rss_start = rss_mb()
            gap = 10 ** rng.uniform(0, 3.7)  # nobody there: 1 s to about 80 min
            speed = self.idle_speed
            self.step(int(min(gap, end - self.t) * FPS / speed) + 1, speed)
            if self.t >= end:
                break
            self.visit(10 ** rng.uniform(1, 3))  # 10 s to 17 min
            if self.t >= next_crash:
                self.restart(mid_write=rng.random() < 0.5)
                next_crash = self.t + rng.expovariate(1 / CRASH_EVERY_S)
            check_stats(self.app)
        cpu = time.process_time() - cpu0
        self.app.book.end_run("soak finished")
        stats = self.app.book.stats
        self.app.m.close()
        return {
            "simulated_hours": round((self.t - start) / 3600, 2),
            "frames": self.frames,
            "matches_completed": stats.matches["completed"],
            "matches_started": stats.matches["started"],
            "sessions": stats.counters["sessions"],
            "restarts": self.restarts,
            "exceptions": self.exceptions,
            "rss_start_mb": round(rss_start or rss_mb(), 1),
            "rss_end_mb": round(rss_mb(), 1),
            "cpu_ms_per_frame": round(1000 * cpu / max(1, self.frames - frames0), 3),
            "idle_speed": self.idle_speed,
        }


def check_stats(app: KioskApp) -> None:
    """The statistics file loads and its counts add up."""
    s = read_stats(app.book.path)
    if s is None:
        raise AssertionError("no statistics file")
    m = s.matches
    open_now = 1 if s.run.get("open_match") else 0
    if m["started"] != m["completed"] + m["abandoned"] + open_now:
        raise AssertionError(f"matches do not add up: {m} open {open_now}")
    if sum(k["started"] for k in s.by_kind.values()) != m["started"]:
        raise AssertionError("matches by kind do not add up")
    if sum(d["started"] for d in s.per_day.values()) != m["started"]:
        raise AssertionError("matches by day do not add up")


def kiosk_soak(
    hours: float, seed: int, home: Path, *, idle_speed: int = 1, warm: bool = True
) -> dict[str, float | int]:
    """Run the kiosk soak; returns its figures (exceptions must be 0)."""
    soaker = KioskSoak(seed, home, idle_speed=idle_speed)
    figures = soaker.run(hours, warm=warm)
    if soaker.errors:
        print("\n".join(soaker.errors[:5]), file=sys.stderr)
    return figures


def main(argv: list[str] | None = None) -> int:
    """Run the monkeys (or the kiosk soak) and print what they covered."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--frames", type=int, default=20_000)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--hours", type=float, default=None, help="kiosk soak: simulated hours")
    parser.add_argument("--seed", type=int, default=1, help="kiosk soak: seed")
    parser.add_argument(
        "--idle-speed",
        type=int,
        default=1,
        help="kiosk soak: simulated frames per run frame while nobody is there "
        "(1 = run every frame; more fast-forwards the attract loop on a busy machine)",
    )
    args = parser.parse_args(argv)
    if args.hours is not None:
        with tempfile.TemporaryDirectory() as tmp:
            figures = kiosk_soak(
                args.hours, args.seed, Path(tmp) / "kiosk", idle_speed=max(1, args.idle_speed)
            )
        if args.json:
            print(json.dumps(figures))
        else:
            for key, value in figures.items():
                print(f"{key:24} {value}")
        return 1 if figures["exceptions"] else 0
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
