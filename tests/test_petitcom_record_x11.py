"""Issue 27 §1 in a real window: a session recorded on an X server replays headless, identically.

``petitcom run --record`` runs in a private Xvfb (tests/xservers.py) with
``SDL_VIDEODRIVER=x11``; xdotool presses keys, types and taps the lower screen
through XTEST (the events a real keyboard and pointer make), then types Q and
the program ends. The recording replayed with ``--input FILE --headless`` must
leave the same console, the same screens and the same frame count.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
import xservers

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.xdist_group("x11")

#: Our own program: buttons, keys and touches shown as they come, work between frames.
PROGRAM = """?RND(1000)
@L
VSYNC 1
B=BUTTON():K$=INKEY$()
IF B THEN LOCATE 0,2:?B;" ";BUTTON(2);" ";MAINCNTL;"    "
IF K$!="" THEN LOCATE 0,3:?K$;ASC(K$);" ";MAINCNTL;"    ":GPUTCHR 8*CSRY,0,"BGF0",ASC(K$),0,2
IF TCHST THEN GPSET TCHX,TCHY,15:LOCATE 0,4:?TCHX;",";TCHY;" ";TCHTIME;"   "
FOR I=0 TO 400:NEXT
IF K$=="Q" THEN END
GOTO @L
"""


@pytest.fixture(scope="module")
def xserver() -> Iterator[xservers.XServer]:
    why = xservers.available("one")
    if why is not None:
        pytest.skip(why)
    server = xservers.start("one")
    if server is None:
        pytest.skip("Xvfb did not start")
    yield server
    server.stop()


def _env(server: xservers.XServer | None) -> dict[str, str]:
    env = dict(os.environ)
    env.update(PYTHONPATH=str(ROOT), PYGAME_HIDE_SUPPORT_PROMPT="1", SDL_AUDIODRIVER="dummy")
    if server is None:
        env["SDL_VIDEODRIVER"] = "dummy"
    else:
        env.update(server.env)
    return env


def _xdotool(server: xservers.XServer, *args: str) -> None:
    subprocess.run(["xdotool", *args], env=_env(server), check=True, timeout=20)


def _wait_for_window(server: xservers.XServer, proc: subprocess.Popen[bytes]) -> tuple[int, ...]:
    end = time.monotonic() + 60
    while time.monotonic() < end and proc.poll() is None:
        found = [g for t, g in xservers.windows(server.display).items() if "petitcom" in t]
        if found:
            return found[0]
        time.sleep(0.1)
    raise AssertionError("the petitcom window did not open")


def _pixels(path: Path) -> bytes:
    return pygame.image.tobytes(pygame.image.load(str(path)), "RGB")


def test_a_session_in_a_window_replays_headless(xserver: xservers.XServer, tmp_path: Path) -> None:
    prog = tmp_path / "keys.txt"
    prog.write_text(PROGRAM)
    rec, out = tmp_path / "session.txt", tmp_path / "window"
    cmd = [sys.executable, "-m", "petitcom_shim.basic.cli", "run", str(prog), "--seed", "7"]
    cmd += ["--frames", "100000", "--json", "--console", f"{out}.txt", "--screenshot"]
    proc = subprocess.Popen(
        [*cmd, f"{out}.png", "--record", str(rec)],
        env=_env(xserver),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        x, y, w, h = _wait_for_window(xserver, proc)
        lower = (x + w // 2, y + h * 3 // 4)  # vertical layout: the lower screen's middle
        _xdotool(xserver, "mousemove", str(lower[0]), str(lower[1]))
        _xdotool(xserver, "keydown", "Right", "keydown", "x")  # RIGHT and A held together
        _xdotool(xserver, "keyup", "x", "keyup", "Right")
        _xdotool(xserver, "type", "--delay", "30", "hi")
        _xdotool(xserver, "mousedown", "1")
        _xdotool(xserver, "mousemove_relative", "--", "-40", "20")
        _xdotool(xserver, "mouseup", "1")
        _xdotool(xserver, "key", "z")  # B
        _xdotool(xserver, "type", "Q")
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, stderr.decode()
    window = json.loads(stdout)
    script = rec.read_text()
    assert window["status"] == "ended", script
    # How the events fall into frames depends on how fast the window ran; what the
    # program saw, in order, does not.
    events = [line.split(None, 2) for line in script.splitlines() if line[:1].isdigit()]
    assert "".join(e[2] for e in events if e[1] == "K") == "xhizQ", script
    pressed = [set(e[2].split("+")) for e in events if e[1] == "B"]
    assert any({"RIGHT", "A"} <= held for held in pressed), script
    assert any("B" in held for held in pressed), script
    assert [e[2] == "OFF" for e in events if e[1] == "T"][-1], script
    # The replay command the recording's header gives, as it is.
    told = next(line for line in script.splitlines() if "--input THIS_FILE" in line)
    # (a shell command: its --clock "YYYY/MM/DD HH:MM:SS" is one quoted word)
    words = [str(rec) if w == "THIS_FILE" else w for w in shlex.split(told.lstrip("# "))]
    assert words[:2] == ["petitcom", "run"] and "--seed" in words and "dsi" in words
    assert "--clock" in words
    replay = subprocess.run(
        [
            *[sys.executable, "-m", "petitcom_shim.basic.cli", *words[1:], "--json"],
            *["--console", str(tmp_path / "replay.txt"), "--screenshot"],
            str(tmp_path / "replay.png"),
        ],
        env=_env(None),
        capture_output=True,
        timeout=120,
        check=True,
    )
    assert json.loads(replay.stdout) == window
    assert (tmp_path / "replay.txt").read_text() == Path(f"{out}.txt").read_text()
    assert _pixels(tmp_path / "replay.png") == _pixels(Path(f"{out}.png"))
