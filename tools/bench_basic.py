"""Benchmark of the SmileBASIC interpreter against the handheld (issue 14 §3).

The anchor is the handheld's own measurement (MAINCNTL, averaged over several
runs): an empty ``FOR I=0 TO 100000:NEXT`` took 120 frames and an
``@L:I=I+1:IF I<100000 GOTO @L`` loop 300 frames. The goal at ``--speed max``
is at least 20x: at most 6 and 15 frames of wall time. This prints both as
frames of wall time (seconds x 60), the statements per second of each loop
(one NEXT a turn; an assignment and an IF a turn), and a typical game frame:
the milliseconds of interpreter work in a frame that moves 100 sprites with
SPOFS and reads the buttons (about 400 statements), VSYNC excluded.

``--games`` adds game-like workloads (issue 23 §4), each a program of
``FRAMES`` frames ending each frame with VSYNC 1, printed as microseconds of a
frame: CLS + PRINT of a screenful, sprites, a BG scroll, GPSET/GLINE drawing,
string building, BGMCHK polling and a small game's loop (a player and 20 enemies
in arrays, a score line, a BG scroll); the cost of a single CLS (of a full
console), PRINT and bound keyword call (SPOFS) in microseconds; and the
start-up of ``petitcom run`` in a fresh Python (a one-line program, one
frame; wall clock, best of ``--repeats``) and of a 1200-frame run of the
CLS+PRINT program and of the game loop with ``--console`` and ``--screenshot``
written, as the comparison with sbc ran them.

Times are the best of ``--repeats`` runs of the thread's CPU time
(``time.thread_time``), so other processes on a busy computer inflate them
less; ``--wall`` uses the wall clock instead.

Usage: ``python tools/bench_basic.py [--repeats N] [--json] [--wall] [--games]``.
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

#: Frames each game-like workload runs.
FRAMES = 120
#: Game-like workloads (issue 23 §4): each runs FRAMES frames, one VSYNC a frame, but
#: for the two that wait without VSYNC (a title screen waiting for a button, and a loop
#: counting while it waits).
GAMES: dict[str, bytes] = {
    "cls_print": b"""FOR F=1 TO 120
CLS
FOR R=0 TO 21:PRINT "SCORE";F*R;" LIVES ";R;" HI ";F:NEXT
VSYNC 1
NEXT
""",
    "sprites": b"""FOR I=0 TO 99:SPSET I,I,0,0,0,0:NEXT
FOR F=1 TO 120
B=BUTTON()
FOR I=0 TO 99:SPOFS I,(I*7+F)%256,(I*13+F*2)%192:NEXT
SPANIM 0,4,8
IF SPHITSP(0,1) THEN H=H+1
VSYNC 1
NEXT
""",
    "bg_scroll": b"""FOR Y=0 TO 31:FOR X=0 TO 63:BGPUT 0,X,Y,(X+Y)%64,0,0,0:NEXT:NEXT
FOR F=1 TO 120
BGOFS 0,F*2,F
BGOFS 1,F,0
FOR X=0 TO 31:BGPUT 1,X,F%32,X,1,0,0:NEXT
VSYNC 1
NEXT
""",
    "gpset_gline": b"""FOR F=1 TO 120
GCLS
FOR I=0 TO 99:GPSET (I*5+F)%256,(I*3)%192,I%16:NEXT
FOR I=0 TO 19:GLINE 0,I*9,255,191-I*9,I:NEXT
GFILL 10,10,40,40,F%16
VSYNC 1
NEXT
""",
    "strings": b"""FOR F=1 TO 120
A$=""
FOR I=0 TO 29:A$=A$+CHR$(65+(I+F)%26):NEXT
B$=MID$(A$,3,10)+STR$(F)+RIGHT$(A$,4)
N=LEN(B$)+INSTR(A$,"K")+VAL("12")
LOCATE 0,0:PRINT B$;
VSYNC 1
NEXT
""",
    "game_loop": b"""DIM EX(20),EY(20),EV(20)
FOR I=0 TO 19:EX(I)=RND(256):EY(I)=RND(192):EV(I)=RND(3)+1:SPSET I+1,64+I%4,I%16,0,0,1:NEXT
SPSET 0,64,0,0,0,0:PX=128:PY=96:HI=1000
FOR Y=0 TO 23:FOR X=0 TO 31:BGPUT 0,X,Y,(X*Y)%8,0,0,0:NEXT:NEXT
@MAIN
B=BUTTON()
IF B AND 1 THEN PY=PY-2
IF B AND 2 THEN PY=PY+2
IF B AND 4 THEN PX=PX-2
IF B AND 8 THEN PX=PX+2
SPOFS 0,PX,PY
GOSUB @ENEMY
LOCATE 0,0:PRINT "SCORE:";SC;"  HI:";HI;"  ";
C$="":FOR I=0 TO 4:C$=C$+CHR$(48+(MAINCNTL/(I+1))%10):NEXT
LOCATE 0,1:PRINT C$
T=T+1:BGOFS 0,T%512,0
VSYNC 1
IF T<120 GOTO @MAIN
END
@ENEMY
FOR I=0 TO 19
EX(I)=EX(I)+EV(I):IF EX(I)>255 THEN EX(I)=0:EY(I)=RND(192)
SPOFS I+1,EX(I),EY(I)
IF ABS(EX(I)-PX)<8 AND ABS(EY(I)-PY)<8 THEN SC=SC+10
NEXT
RETURN
""",
    "wait_button": b"""T=MAINCNTL
@W
IF MAINCNTL<T+120 AND BUTTON()==0 GOTO @W
""",
    "busy_wait": b"""T=MAINCNTL
@W
C=C+1:IF MAINCNTL<T+120 GOTO @W
""",
    "bgmchk": b"""BGMPLAY "T120L4CDEFGABCDEFGAB"
FOR F=1 TO 120
FOR I=0 TO 19:P=BGMCHK(0):NEXT
VSYNC 1
NEXT
""",
}
#: Single calls timed 2000 times (microseconds a call, the loop's own cost taken off):
#: CLS of a console full of text (the filling timed apart), PRINT of a string and a
#: number, a keyword bound to a Machine verb (SPOFS).
_FILL = b'A$="HELLO WORLD!"*16:FOR I=1 TO 2000:LOCATE 0,0:?A$;A$;A$;'
CALLS: dict[str, bytes] = {
    "cls": _FILL + b":CLS:NEXT\r",
    "fill": _FILL + b":NEXT\r",
    "print": b'FOR I=1 TO 2000:PRINT "HELLO WORLD";I:NEXT\r',
    "keyword": b"SPSET 0,0,0,0,0,0:FOR I=1 TO 2000:SPOFS 0,I%256,8:NEXT\r",
    "loop": b"FOR I=1 TO 2000:NEXT\r",
}


def _time(source: bytes, clock: str) -> float:
    machine = Machine(headless=True)
    basic = Interpreter(machine)
    # The programs here are written with LF line ends; Interpreter.load takes PTC's CR
    # only (a 0x0A is a character inside a line, issue 23 item 1).
    basic.load(source.replace(b"\n", b"\r"))
    tick = time.thread_time if clock == "cpu" else time.perf_counter
    start = tick()
    result = basic.run()
    seconds = tick() - start
    if result.status != "ended":
        raise SystemExit(f"benchmark program did not end: {result}")
    return seconds


def _startup(repeats: int) -> dict[str, float]:
    """Wall-clock seconds of ``petitcom run`` in a fresh Python: a one-line
    program for one frame, and the CLS+PRINT workload for 1200 frames with the
    console and a screenshot written."""
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=str(root))
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        one = Path(tmp, "ONE.txt")
        one.write_bytes(b"A=1\n")
        game = Path(tmp, "GAME.txt")
        game.write_bytes(GAMES["cls_print"].replace(b"120", b"1200"))
        loop = Path(tmp, "LOOP.txt")
        loop.write_bytes(GAMES["game_loop"].replace(b"T<120", b"T<1200"))
        title = Path(tmp, "TITLE.txt")
        title.write_bytes(b'CLS:PRINT "PRESS A"\n@W\nIF BUTTON()==0 GOTO @W\n')
        base = [sys.executable, "-m", "petitcom_shim.basic.cli", "run", "--headless"]
        runs = {
            "startup_s": [*base, str(one), "--frames", "1"],
            "run_1200_frames_s": [*base, str(game), "--frames", "1200",
                                  "--console", str(Path(tmp, "c.txt")),
                                  "--screenshot", str(Path(tmp, "s.png"))],
            "game_loop_1200_frames_s": [*base, str(loop), "--frames", "1200",
                                        "--console", str(Path(tmp, "c.txt")),
                                        "--screenshot", str(Path(tmp, "s.png"))],
            "wait_button_1200_frames_s": [*base, str(title), "--frames", "1200",
                                          "--console", str(Path(tmp, "c.txt")),
                                          "--screenshot", str(Path(tmp, "s.png"))],
        }  # fmt: skip
        for name, command in runs.items():
            best = float("inf")
            for _ in range(repeats):
                start = time.perf_counter()
                # cwd=root: ``python -m`` puts the current folder first on sys.path
                subprocess.run(command, env=env, cwd=root, check=True, capture_output=True)
                best = min(best, time.perf_counter() - start)
            figures[name] = round(best, 3)
    return figures


def measure_games(repeats: int, clock: str) -> dict[str, float]:
    """Game-like workloads (µs a frame), single calls (µs a call) and start-up (s)."""
    figures: dict[str, float] = {}
    for name, source in GAMES.items():
        seconds = min(_time(source, clock) for _ in range(repeats))
        figures[f"{name}_us_per_frame"] = round(seconds / FRAMES * 1e6, 1)
    loop = min(_time(CALLS["loop"], clock) for _ in range(repeats))
    fill = min(_time(CALLS["fill"], clock) for _ in range(repeats))
    for name, base in (("cls", fill), ("print", loop), ("keyword", loop)):
        seconds = min(_time(CALLS[name], clock) for _ in range(repeats))
        figures[f"{name}_us_per_call"] = round((seconds - base) / 2000 * 1e6, 2)
    figures.update(_startup(repeats))
    return figures


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
    parser.add_argument("--games", action="store_true", help="the game-like workloads only")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    clock = "wall" if args.wall else "cpu"
    if args.games:
        figures = measure_games(args.repeats, clock)
        if args.json:
            print(json.dumps(figures))
        else:
            for name, value in figures.items():
                print(f"{name:28} {value:10}")
        return 0
    figures = measure(args.repeats, clock)
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
