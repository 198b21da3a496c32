"""Benchmark of the SmileBASIC interpreter against the handheld (issue 14 §3).

The anchor is the handheld's own measurement (MAINCNTL, averaged over several
runs): an empty ``FOR I=0 TO 100000:NEXT`` took 120 frames and an
``@L:I=I+1:IF I<100000 GOTO @L`` loop 300 frames. The goal at ``--speed max``
is at least 20x: at most 6 and 15 frames of wall time. This prints both as
frames of wall time (seconds x 60), the statements per second of each loop
(one NEXT a turn; an assignment and an IF a turn), and a typical game frame:
the milliseconds of interpreter work in a frame that moves 100 sprites with
SPOFS and reads the buttons (about 400 statements), VSYNC excluded.

Times are the best of ``--repeats`` runs of the thread's CPU time
(``time.thread_time``), so other processes on a busy computer inflate them
less; ``--wall`` uses the wall clock instead.

Usage: ``python tools/bench_basic.py [--repeats N] [--json] [--wall]``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from petitcom_shim import Machine
from petitcom_shim.basic import Interpreter

FOR_LOOP = b"FOR I=0 TO 100000:NEXT\r"
GOTO_LOOP = b"@L:I=I+1:IF I<100000 GOTO @L\r"
GAME = b"""FOR I=0 TO 99:SPSET I,I,0,0,0,0:NEXT
@MAIN
T=T+1:B=BUTTON()
FOR I=0 TO 99
X=(I*7+T)%256:Y=(I*13+T*2)%192
SPOFS I,X,Y
NEXT
IF T<60 THEN VSYNC 1:GOTO @MAIN
"""


def _time(source: bytes, clock: str) -> float:
    machine = Machine(headless=True)
    basic = Interpreter(machine)
    basic.load(source)
    tick = time.thread_time if clock == "cpu" else time.perf_counter
    start = tick()
    result = basic.run()
    seconds = tick() - start
    if result.status != "ended":
        raise SystemExit(f"benchmark program did not end: {result}")
    return seconds


def measure(repeats: int, clock: str) -> dict[str, float]:
    """The figures, best of ``repeats``."""
    for_s = min(_time(FOR_LOOP, clock) for _ in range(repeats))
    goto_s = min(_time(GOTO_LOOP, clock) for _ in range(repeats))
    game_s = min(_time(GAME, clock) for _ in range(repeats))
    return {
        "for_loop_frames": round(for_s * 60, 2),
        "goto_loop_frames": round(goto_s * 60, 2),
        "for_loop_vs_handheld": round(120 / (for_s * 60), 1),
        "goto_loop_vs_handheld": round(300 / (goto_s * 60), 1),
        "for_statements_per_s": round(100001 / for_s),
        "goto_statements_per_s": round(200000 / goto_s),
        "game_frame_ms": round(game_s / 60 * 1000, 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="one line of JSON")
    parser.add_argument("--wall", action="store_true", help="wall clock, not CPU time")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    figures = measure(args.repeats, "wall" if args.wall else "cpu")
    if args.json:
        print(json.dumps(figures))
        return 0
    print(f"FOR I=0 TO 100000:NEXT        {figures['for_loop_frames']:7.2f} frames "
          f"(handheld 120, {figures['for_loop_vs_handheld']}x), "
          f"{figures['for_statements_per_s']:,} statements/s")  # fmt: skip
    print(f"@L:I=I+1:IF I<100000 GOTO @L  {figures['goto_loop_frames']:7.2f} frames "
          f"(handheld 300, {figures['goto_loop_vs_handheld']}x), "
          f"{figures['goto_statements_per_s']:,} statements/s")  # fmt: skip
    print(f"game frame (100 SPOFS)        {figures['game_frame_ms']:7.3f} ms of 16.7")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
