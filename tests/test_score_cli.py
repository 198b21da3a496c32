"""``royalnine score``: text and JSON output, standard input, and one-line errors."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from royalnine.cli import main

EXAMPLE = "R1,R2,R3,B4,R5,B6,B7,B8,R9"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["score", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_text_output_shows_grid_and_breakdown(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, EXAMPLE)
    assert code == 0
    assert "[R5]" in out
    assert "top row: STRAIGHT FLUSH = 2" in out
    assert "middle row: STRAIGHT x2 = 2" in out
    assert out.rstrip().endswith("total 5")


def test_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--json", EXAMPLE, "R1,R2,R3,R4,R5,R6,R7,R8,R9")
    assert code == 0
    first, second = (json.loads(line) for line in out.splitlines())
    assert set(first) == {"total", "lines", "royal_nine", "bust"}
    assert first["total"] == 5 and not first["royal_nine"] and not first["bust"]
    assert first["lines"][1] == {
        "line": "middle row",
        "cells": [3, 4, 5],
        "cards": ["B4", "R5", "B6"],
        "role": "straight",
        "doubled": True,
        "points": 2,
    }
    assert second["total"] == 28 and second["royal_nine"]


def test_bust_and_royal_nine_are_explained(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "B1,B2,B3,B4,R5,B6,B7,B8,B9")
    assert "BUST" in out and out.rstrip().endswith("total 0")


@pytest.mark.parametrize(
    ("grid", "message"),
    [
        ("R1,R2,R3,B4,X5,B6,B7,B8,R9", "not a card: 'X5'"),
        ("R1,R1,R3,B4,R5,B6,B7,B8,R9", "duplicate card R1"),
        ("R1,R2,R3,B4,R5,B6,B7,B8", "needs 9 cards, got 8"),
        ("R1,R2,R3,B4,R5,B6,B7,B8,R10", "R10 needs the tens rule"),
    ],
)
def test_bad_input_exits_non_zero_with_one_line(
    capsys: pytest.CaptureFixture[str], grid: str, message: str
) -> None:
    code, out, err = run(capsys, grid)
    assert code != 0 and out == ""
    assert message in err and err.count("\n") == 1


def test_tens_flag_allows_ten(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--json", "--tens", "R8,R9,R10,B4,R5,B6,B7,B1,R2")
    assert code == 0 and json.loads(out)["lines"][0]["role"] == "straight_flush"


def test_standard_input_one_result_per_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{EXAMPLE}\n\nR1,R1\n{EXAMPLE}\n"))
    code, out, err = run(capsys, "--json")
    assert code == 1
    docs = [json.loads(line) for line in out.splitlines()]  # a line per grid, bad ones too
    assert [d.get("total", d.get("ok")) for d in docs] == [5, False, 5]
    assert "line 3:" in err and "line 3:" in str(docs[1]["error"])


def test_console_script_runs_as_a_module() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "royalnine.cli", "score", EXAMPLE],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and "total 5" in done.stdout
    version = subprocess.run(
        [sys.executable, "-m", "royalnine.cli", "--version"], capture_output=True, text=True
    )
    assert version.stdout.startswith("royalnine ")


@pytest.mark.parametrize("blank", ["", "   "])
def test_a_blank_grid_argument_is_an_error_not_silence(
    blank: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``royalnine score ''`` printed nothing and exited 0 (issue 18 item 7)."""
    assert main(["score", blank]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert line.startswith("royalnine score: grid 1: a grid needs 9 cards, got 0")


def test_a_terminal_on_stdin_gets_a_usage_line_instead_of_silence() -> None:
    """With no GRID and a terminal (not a pipe) on stdin, `score` said nothing and waited;
    it prints the usage and how to end on stderr, then still reads grids typed there."""
    import os
    import pty
    import subprocess
    import sys
    from pathlib import Path

    master, slave = pty.openpty()
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.Popen(
        [sys.executable, "-m", "royalnine.cli", "score"],
        stdin=slave,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    os.close(slave)
    try:
        os.write(master, b"R1,R2,R3,B4,R5,B6,B7,B8,R9\n\x04")  # a grid, then Ctrl+D
        out, err = proc.communicate(timeout=60)
    finally:
        os.close(master)
    assert proc.returncode == 0
    assert err.decode().startswith("usage: royalnine score") and "Ctrl+D" in err.decode()
    assert out.decode().startswith("R1,R2,R3,B4,R5,B6,B7,B8,R9: ")


def test_a_pipe_on_stdin_gets_no_usage_line() -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, "-m", "royalnine.cli", "score"],
        input=b"R1,R2,R3,B4,R5,B6,B7,B8,R9\n",
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(root)},
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == b""
