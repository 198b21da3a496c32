"""DIRECT mode: typed lines run as statements, RUN/LIST/NEW/CONT, files, errors, then OK."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from petitcom_shim import Machine, ptcfile
from petitcom_shim.basic import Interpreter, direct
from petitcom_shim.basic.consoletext import console_text
from petitcom_shim.inputscript import ScriptFeeder, parse_script
from petitcom_shim.ptcfile import PtcFile


@pytest.fixture
def machine(tmp_path: Path) -> Iterator[Machine]:
    m = Machine(headless=True, files=tmp_path)
    yield m
    m.close()


def typed(machine: Machine, script: str, frames: int = 40) -> list[str]:
    """Type ``script`` (one K event a line, from frame 1 on) at a fresh prompt; the console."""
    events = "".join(f"{n + 1} K {line}\n" for n, line in enumerate(script.splitlines()))
    ScriptFeeder(parse_script(events)).attach(machine)
    direct.run(Interpreter(machine), frames=frames)
    return [line.rstrip() for line in console_text(machine).split("\n")[:24]]


def test_statements_and_variables(machine: Machine) -> None:
    lines = typed(machine, "?1+1\\r\nA=5\\r\n?A*2\\r")
    assert lines[:9] == [
        direct.BANNER[0],
        "",
        "OK",
        "?1+1",
        "2",
        "OK",
        "A=5",
        "OK",
        "?A*2",
    ]
    assert lines[9:11] == ["10", "OK"]


def test_backspace_edits_the_line(machine: Machine) -> None:
    lines = typed(machine, "?12\\x08\\x083\\r")
    assert lines[3:6] == ["?3", "3", "OK"]


def test_errors_show_and_the_prompt_comes_back(machine: Machine) -> None:
    lines = typed(machine, 'GOTO @NOWHERE\\r\n?"STILL"\\r\nCONT\\r')
    assert lines[3:9] == ["GOTO @NOWHERE", "Undefined label", "OK", '?"STILL"', "STILL", "OK"]
    assert lines[9:12] == ["CONT", "Can't continue", "OK"]


def test_load_list_run_new_and_save(machine: Machine, tmp_path: Path) -> None:
    source = b'?"FIRST"\rSTOP\r?"SECOND"\r'
    (tmp_path / "demo.PTC").write_bytes(
        PtcFile.of("DEMO", "PRG", ptcfile.prg_payload(source)).to_bytes()
    )
    lines = typed(
        machine,
        'LOAD "DEMO"\\r\nLIST\\r\nRUN\\r\nCONT\\r\nSAVE "PRG:COPY"\\r\nNEW\\r\nLIST\\r\nFILES\\r',
        frames=60,
    )
    assert lines[:23] == [  # the screen has scrolled: the banner is gone
        'LOAD "DEMO"',
        "OK",
        "LIST",
        '?"FIRST"',
        "STOP",
        '?"SECOND"',
        "OK",
        "RUN",
        "FIRST",
        "OK",
        "CONT",
        "SECOND",
        "OK",
        'SAVE "PRG:COPY"',
        "OK",
        "NEW",
        "OK",
        "LIST",
        "OK",
        "FILES",
        "PRG:COPY",
        "PRG:DEMO",
        "OK",
    ]
    saved = ptcfile.read_file(tmp_path / "COPY.PTC")
    assert ptcfile.prg_text(saved.payload) == source
