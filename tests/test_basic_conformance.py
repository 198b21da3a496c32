"""The BASIC conformance suite: every tests/basic/NAME.bas leaves NAME.txt on the console.

The programs and their expected console text (the ``petitcom run --console``
format) are data, like python-chess's perft files; tests/basic/README.md says
where each expectation comes from.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from petitcom_shim import Machine
from petitcom_shim.basic import Interpreter
from petitcom_shim.basic.consoletext import console_text

SUITE = Path(__file__).resolve().parent / "basic"
PROGRAMS = sorted(SUITE.glob("*.bas"))


def test_the_suite_is_there() -> None:
    assert len(PROGRAMS) >= 20
    for program in PROGRAMS:
        assert program.with_suffix(".txt").is_file(), f"{program.name} has no expected text"


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.stem)
def test_program_leaves_the_expected_console(program: Path) -> None:
    machine = Machine(headless=True)
    basic = Interpreter(machine, seed=1)
    basic.load(program.read_bytes())
    result = basic.run(max_frames=600)
    expected = program.with_suffix(".txt").read_text(encoding="utf-8")
    assert console_text(machine) == expected
    assert result.status in ("ended", "error")
    if result.status == "error":  # the program ended on the error its expected text shows
        assert result.error is not None and f"{result.error} (" in expected
