"""Idle CPU of the game in a real X window (Xvfb), per state: title, waiting mid-match, demo.

A card game spends most of its life waiting for a player, so what it costs
then matters more than its busiest frame. For each state this starts a private
Xvfb server, runs the game there (``royalnine`` from PATH, or ``python -m
royalnine.cli`` when it is not installed; keep PYTHONPATH pointing at the
checkout), brings it to the state, lets it settle and then reads the CPU time
the game process used (``/proc/PID/stat``) over a few seconds:

* ``title``: the title screen, untouched;
* ``match``: a new match against the CPU, waiting for the player to place the
  first hand (reached by pressing START twice with xdotool: VS CPU, then the
  preselected level; the deal animation is over before measuring);
* ``demo``: ``royalnine demo`` in a window, a CPU-vs-CPU match played through
  the UI (cards flying, reveals): the attract-like, animated state;
* ``petitcom``: ``petitcom`` (``python -m petitcom_shim.basic.cli`` from the
  checkout) at its DIRECT-mode OK prompt, the cursor blinking: a BASIC
  programmer's idle state (not among the default states).

Figures are percent of one core; on a busy computer they wobble by a few
tenths, so compare runs made at the same time. Needs Xvfb and xdotool.

Usage: ``python tools/bench_idle.py [--seconds S] [--scale N] [--layout L]
[--states title,match,demo] [--json]``. With ``--json`` it prints one line:
``{"title": pct, "match": pct, "demo": pct, "scale": N, "layout": L, "seconds": S}``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

STATES = ("title", "match", "demo")
#: Every state --states accepts: the game's, and petitcom's OK prompt.
ALL_STATES = (*STATES, "petitcom")
#: Seconds from launch until the window is up and the title is drawn.
STARTUP_S = 5.0
#: Seconds after the last key press until the match waits for the player (deal animation).
SETTLE_S = 5.0
#: Size of the virtual X screen.
SCREEN = (1920, 1200)


def _game_command() -> list[str]:
    found = shutil.which("royalnine")
    return [found] if found else [sys.executable, "-m", "royalnine.cli"]


def _ticks(pid: int) -> int:
    """User + system CPU ticks the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def _xdotool(display: str, *args: str) -> str:
    env = dict(os.environ, DISPLAY=display)
    done = subprocess.run(
        ["xdotool", *args], env=env, capture_output=True, text=True, timeout=20, check=True
    )
    return done.stdout.strip()


def _press(display: str, key: str) -> None:
    """Press a key in the game window: with no window manager X gives the keyboard to the
    window under the pointer, so the pointer goes to the middle of the screen first
    (where the centred window is; moving without a button pressed touches nothing)."""
    _xdotool(display, "mousemove", str(SCREEN[0] // 2), str(SCREEN[1] // 2))
    time.sleep(0.2)
    _xdotool(display, "key", "--delay", "120", key)


def measure(state: str, seconds: float, scale: int, layout: str) -> float:
    """Percent of one core the game used over ``seconds`` in ``state``."""
    display = f":{random.randint(120, 480)}"
    xvfb = subprocess.Popen(
        ["Xvfb", display, "-screen", "0", f"{SCREEN[0]}x{SCREEN[1]}x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    home = Path(tempfile.mkdtemp(prefix="royalnine-idle-"))
    command = "demo" if state == "demo" else "play"
    args = [command, "--home", str(home), "--scale", str(scale), "--layout", layout]
    env = dict(os.environ, DISPLAY=display, SDL_AUDIODRIVER="dummy")
    env.pop("SDL_VIDEODRIVER", None)
    game: subprocess.Popen[bytes] | None = None
    try:
        time.sleep(1.0)
        log = (home / "log").open("wb")
        if state == "petitcom":
            command_line = [
                sys.executable,
                "-m",
                "petitcom_shim.basic.cli",
                "direct",
                "--files",
                str(home),
            ]
        else:
            command_line = [*_game_command(), *args]
        game = subprocess.Popen(command_line, env=env, stdout=log, stderr=log)
        time.sleep(STARTUP_S)
        if game.poll() is not None:
            raise SystemExit(f"bench_idle: the game ended: {(home / 'log').read_text()[-300:]}")
        if state == "match":
            _press(display, "Return")  # VS CPU
            time.sleep(0.5)
            _press(display, "Return")  # the preselected CPU level
            time.sleep(SETTLE_S)
        before, start = _ticks(game.pid), time.monotonic()
        time.sleep(seconds)
        after, elapsed = _ticks(game.pid), time.monotonic() - start
        if game.poll() is not None:
            raise SystemExit(f"bench_idle: the game ended while measuring ({state})")
        return 100.0 * (after - before) / os.sysconf("SC_CLK_TCK") / elapsed
    finally:
        if game is not None:
            game.terminate()  # SDL turns this into a window close...
            try:
                game.wait(timeout=3)
            except subprocess.TimeoutExpired:  # ...which the demo does not stop for
                game.kill()
                game.wait(timeout=10)
        xvfb.terminate()
        xvfb.wait(timeout=10)
        shutil.rmtree(home, ignore_errors=True)


def main() -> None:
    """Measure the chosen states and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="measuring time per state")
    parser.add_argument("--scale", type=int, default=2, help="window scale (default 2)")
    parser.add_argument("--layout", default="vertical", help="screen layout (default vertical)")
    parser.add_argument("--states", default=",".join(STATES), help="comma-separated states")
    parser.add_argument("--json", action="store_true", help="one JSON line")
    args = parser.parse_args()
    states = [s for s in args.states.split(",") if s]
    unknown = [s for s in states if s not in ALL_STATES]
    if unknown:
        known = ", ".join(ALL_STATES)
        raise SystemExit(f"bench_idle: unknown state {unknown[0]!r} (known: {known})")
    for tool in ("Xvfb", "xdotool"):
        if shutil.which(tool) is None:
            raise SystemExit(f"bench_idle: {tool} is missing (apt-get install -y xvfb xdotool)")
    figures = {s: round(measure(s, args.seconds, args.scale, args.layout), 1) for s in states}
    if args.json:
        extra = {"scale": args.scale, "layout": args.layout, "seconds": args.seconds}
        print(json.dumps(figures | extra))
    else:
        for state, pct in figures.items():
            print(f"{state:6s} {pct:5.1f} % of one core (scale {args.scale}, {args.layout})")


if __name__ == "__main__":
    main()
