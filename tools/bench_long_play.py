"""Memory after long play (issue 26 item 8): RSS over many matches with hints.

A player saw the game's RSS go from 85 MB on the title to 94 MB after a 5-round
match and 126 MB after a 9-round match with tens and a hint in all 18 halves. This
plays such matches through the game's own UI, in one process (the bottom seat by
:class:`~royalnine.screens.autoplay.AutoPlayer`, pressing HINT at the start of each
half, the CPU on top), and prints the process's RSS after each match, with the
Python heap (tracemalloc) when asked, so a leak (growing without bound) and a cache
(growing, then flat) tell themselves apart; ``peak_mb`` is the high-water mark so far
(VmHWM: the songs' rendering at the start is the peak).

A window is used when there is a display (``DISPLAY``), else the machine is headless;
either way frames run as fast as they can (no real-time pacing). Music and sound
effects are on (SDL's dummy audio driver unless ``SDL_AUDIODRIVER`` says otherwise,
so the songs are rendered and mixed as with sound), unless ``--no-sound``. Linux only (reads
/proc). Goal: at most 150 MB after 20 matches. Prints figures; never fails on them.

Usage: ``python tools/bench_long_play.py [--matches 20] [--rounds 9] [--no-tens]
[--level normal] [--tracemalloc] [--json]``.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
GOAL_MB = 150.0


def rss_mb(key: str = "VmRSS") -> float:
    """This process's resident memory now (VmRSS), or its peak so far (``VmHWM``), in MB."""
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith(key + ":"):
                return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def main(argv: list[str] | None = None) -> int:
    """Play the matches and print the RSS after each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--no-tens", dest="tens", action="store_false")
    parser.add_argument("--level", default="normal", help="the CPU's level")
    parser.add_argument("--no-sound", dest="sound", action="store_false", help="no music, no FX")
    parser.add_argument("--tracemalloc", action="store_true", help="also the Python heap")
    parser.add_argument("--json", action="store_true", help="one JSON object at the end")
    args = parser.parse_args(argv)
    window = bool(os.environ.get("DISPLAY"))
    if not window:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

    from petitcom_shim import Machine
    from royalnine.game import new_game
    from royalnine.screens.autoplay import AutoPlayer
    from royalnine.screens.layout import BUTTON_RECTS, Zone
    from royalnine.screens.match import MatchScene
    from royalnine.screens.title import TitleScene
    from royalnine.storage import Settings, Storage

    class HintingPlayer(AutoPlayer):
        """Presses HINT once at the start of each of its halves, then places as usual."""

        hinted: set[tuple[int, int, int]]

        def _match(self, scene: MatchScene) -> None:
            if scene.state == "place":
                view = scene.view()
                key = (view.seat, view.round_number, view.phase.half)
                if len(view.hand) == 4 and not view.confirmed and key not in self.hinted:
                    self.hinted.add(key)
                    self.tap(*BUTTON_RECTS[Zone.HINT].centre)
                    return
            super()._match(scene)

    if args.tracemalloc:
        tracemalloc.start()
    m = Machine(
        headless=not window, realtime=False, seed=1, title="Royal Nine bench", audio=args.sound
    )
    settings = Settings(
        sound=args.sound,
        music=args.sound,
        effects=args.sound,
        rounds=args.rounds,
        tens=args.tens,
        difficulty=args.level,
    )
    figures: list[dict[str, float]] = []
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="royalnine-bench-") as home:
        app = new_game(m, Storage(Path(home)), settings, seed=2013)
        app.step(10)
        # the title's figure once the songs are rendered (the shim renders them ahead in a
        # worker thread; before that the title holds some 18 MB less)
        concurrent.futures.wait(list(m.bgm._cache.values()))
        app.step(10)
        figures.append({"match": 0, "rss_mb": rss_mb(), "peak_mb": rss_mb("VmHWM")})
        for n in range(1, args.matches + 1):
            player = HintingPlayer(app, mode="cpu", level=args.level, seed=n, drag=False)
            player.hinted = set()
            player.play(max_frames=200_000)
            app.step(30)  # the result screen, idle
            row: dict[str, float] = {"match": n, "rss_mb": rss_mb(), "peak_mb": rss_mb("VmHWM")}
            if args.tracemalloc:
                row["python_heap_mb"] = round(tracemalloc.get_traced_memory()[0] / 2**20, 1)
            figures.append(row)
            if not args.json:
                print(json.dumps(row), flush=True)
            # back to the title for the next match (TITLE on the result screen)
            app.switch(TitleScene())
            app.step(10)
    m.close()
    result = {
        "window": window,
        "matches": args.matches,
        "rounds": args.rounds,
        "tens": args.tens,
        "level": args.level,
        "sound": args.sound,
        "seconds": round(time.perf_counter() - start, 1),
        "title_rss_mb": figures[0]["rss_mb"],
        "title_peak_mb": figures[0]["peak_mb"],
        "last_rss_mb": figures[-1]["rss_mb"],
        "peak_rss_mb": rss_mb("VmHWM"),
        "goal_mb": GOAL_MB,
        "after_each": figures[1:],
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"title {result['title_rss_mb']} MB (peak {result['title_peak_mb']} MB), "
            f"after {args.matches} matches "
            f"{result['last_rss_mb']} MB (peak {result['peak_rss_mb']} MB; goal <= {GOAL_MB} MB),"
            f" {result['seconds']} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
