"""The example programs (examples/basic/) run headless through ``petitcom run`` with scripted input.

Each run is checked by its ``--console`` text and by pixels of its
``--screenshot`` (the screenshots were also looked at when the examples were
written); the programs and their input scripts are ours.
"""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from petitcom_shim.basic import cli as petitcomcli

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "basic"


def run_example(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, frames: int
) -> tuple[dict[str, object], list[str], pygame.Surface]:
    console, shot = tmp_path / "console.txt", tmp_path / "shot.png"
    code = petitcomcli.main(
        [
            "run",
            str(EXAMPLES / f"{name}.txt"),
            "--headless",
            "--json",
            "--seed=1",
            f"--frames={frames}",
            f"--input={EXAMPLES / f'{name}.input'}",
            f"--console={console}",
            f"--screenshot={shot}",
            f"--files={tmp_path}",
        ]
    )
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    lines = console.read_text(encoding="utf-8").split("\n")
    return json.loads(out), lines, pygame.image.load(str(shot))


def test_primes_console_program(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    result, lines, _ = run_example(capsys, tmp_path, "primes", 600)
    assert result["status"] == "ended"
    text = [line.rstrip() for line in lines]
    assert text[0] == "PRIMES BELOW 200"
    assert text[1] == "   2   3   5   7  11  13  17  19"
    assert text[6] == " 179 181 191 193 197 199"
    assert text[7:10] == ["46 PRIMES", "1+2+3 OF DATA =6", "TYPE KEYS (Q QUITS)"]
    assert text[10:12] == ["A=65 1=49 A=65", "BYE"]


def test_catch_sprite_bg_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    result, lines, shot = run_example(capsys, tmp_path, "catch", 100)
    assert result == {"status": "stopped", "frames": 100, "error": None, "line": None}
    assert lines[0].startswith("SCORE 0  MISS 1")
    grass, sky = shot.get_at((10, 180)), shot.get_at((10, 100))
    assert grass.g > 150 and grass.b < 100  # BG layer 0: our grass tile
    assert sky.b > 200 and sky.r < 50  # BG layer 1: our sky tile
    # The basket (sprite 0) went right for 40 frames, left for 40: back at x=120.
    assert shot.get_at((120, 160))[:3] == (148, 93, 41)
    star = [
        (x, y) for x in range(256) for y in range(160) if shot.get_at((x, y))[:3] == (255, 227, 0)
    ]
    assert star, "the falling star (sprite 1) is on the screen"


def test_paint_stylus_program(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    result, lines, shot = run_example(capsys, tmp_path, "paint", 100)
    assert result["status"] == "ended" and result["frames"] == 30
    assert lines[0].rstrip() == "COLOUR 4"
    green = shot.get_at((30, 200))[:3]  # the second box, colour 4 (green)
    assert green[1] > 200
    lower = 192
    for x, y in ((40, 60), (80, 80), (120, 70), (100, 100), (200, 120)):
        assert shot.get_at((x, lower + y))[:3] == green, (x, y)
    assert shot.get_at((60, lower + 150))[:3] == (0, 0, 0)


def test_conformance_suite_through_the_command(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Every tests/basic program run by ``petitcom run`` leaves its expected --console text."""
    suite = sorted((Path(__file__).resolve().parent / "basic").glob("*.bas"))
    assert len(suite) >= 20
    for program in suite:
        console = tmp_path / f"{program.stem}.txt"
        options = ["--headless", "--json", "--seed=1", "--frames=600", f"--files={tmp_path}"]
        code = petitcomcli.main(["run", str(program), *options, f"--console={console}"])
        result = json.loads(capsys.readouterr().out)
        expected = program.with_suffix(".txt").read_text(encoding="utf-8")
        assert console.read_text(encoding="utf-8") == expected, program.name
        assert code == (1 if result["status"] == "error" else 0), program.name
