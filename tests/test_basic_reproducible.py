"""Issue 23 item 3: a headless run is a function of the program, its input, its seed and speed.

Frames advance by work (each block's cost against a frame's budget), never by
the wall clock, so the same program leaves the same console, screen and frame
count on a quiet machine and beside CPU burners, at both speeds. Before frames
advanced by work, ``--speed max`` counted ``C=C+1:IF MAINCNTL<60 GOTO @L`` as
far as the host got in a second, so the count changed with the load.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from petitcom_shim import Machine
from petitcom_shim.basic import Interpreter, RunResult
from petitcom_shim.basic.consoletext import console_text

PROGRAM = Path(__file__).resolve().parent / "basic" / "frames_by_work.bas"
#: A loop without VSYNC stopped by the frame limit: where it stops is work, not time.
LIMITED = b"@L:C=C+1:LOCATE 0,0:?C:GPSET C%256,C/256%192,C%16:GOTO @L\r"


def _run(source: bytes, speed: str, max_frames: int | None) -> tuple[RunResult, str, bytes]:
    machine = Machine(headless=True)
    basic = Interpreter(machine, speed="dsi" if speed == "dsi" else "max", seed=5)
    basic.load(source)
    result = basic.run(max_frames=max_frames)
    picture = machine.screen_array(0).tobytes() + machine.screen_array(1).tobytes()
    machine.close()
    return result, console_text(machine), picture


@pytest.fixture
def burners() -> Iterator[None]:
    """Two processes that spin on the CPU while the test runs (the machine under load)."""
    spin = "while True: pass"
    procs = [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(os.cpu_count() or 2)]
    try:
        yield
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize("speed", ["max", "dsi"])
def test_same_console_screen_and_frames_quiet_and_under_load(
    speed: str, request: pytest.FixtureRequest
) -> None:
    source = PROGRAM.read_bytes()
    quiet = [_run(source, speed, 600), _run(LIMITED, speed, 45)]
    request.getfixturevalue("burners")
    loaded = [_run(source, speed, 600), _run(LIMITED, speed, 45)]
    assert loaded == quiet
    result, console, _ = quiet[0]
    assert result.status == "ended"
    assert console.split()[1] == "60"  # the loop left when MAINCNTL reached 60
    stopped, _, _ = quiet[1]
    assert (stopped.status, stopped.frames) == ("stopped", 45)


def test_max_speed_counts_the_documented_work() -> None:
    """The suite's expected console holds the work model's count, on every host."""
    _, console, _ = _run(PROGRAM.read_bytes(), "max", 600)
    assert console == PROGRAM.with_suffix(".txt").read_text(encoding="utf-8")


def test_dsi_and_max_differ_only_in_the_budget() -> None:
    """max is a handheld eight times as fast: eight times the turns before MAINCNTL is 60."""
    counts = [int(_run(PROGRAM.read_bytes(), s, 600)[1].split()[0]) for s in ("dsi", "max")]
    assert 7.5 < counts[1] / counts[0] < 8.5
