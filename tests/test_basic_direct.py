"""DIRECT mode: typed lines run as statements, RUN/LIST/NEW/CONT, files, errors, then OK."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from petitcom_shim import Button, Machine, ptcfile
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


def test_edit_mode_types_a_program_that_runs(machine: Machine) -> None:
    script = (
        "1 K EDIT\\r\n"
        '3 K ?"ONE"\\rB=2\\r?B*21\n'
        "5 B UP\n6 B 0\n"  # up one line, to the end of B=2
        "9 K \\x08\\x08=3\n"  # B=2 -> B=3
        "10 B SELECT\n11 B 0\n"
        "13 K RUN\\r\n"
    )
    ScriptFeeder(parse_script(script)).attach(machine)
    interp = Interpreter(machine)
    direct.run(interp, frames=30)
    assert interp.source == b'?"ONE"\rB=3\r?B*21\r'
    lines = [line.rstrip() for line in console_text(machine).split("\n")[:24]]
    assert lines[:5] == ["OK", "RUN", "ONE", "63", "OK"]  # leaving the editor cleared it


def test_editor_lines_cursor_and_screen() -> None:
    from petitcom_shim.basic.editor import Editor

    ed = Editor(b"AB\rCD\r")
    ed.move(Button.RIGHT)
    ed.key(ord("x"))  # AxB
    ed.move(Button.DOWN)  # to CD, column 2
    ed.key(0x0D)  # split: CD / ""
    ed.move(Button.LEFT)  # back to the end of CD
    ed.move(Button.RIGHT)  # and to the start of the empty line
    ed.key(0x08)  # join it back onto CD
    ed.move(Button.UP)
    ed.move(Button.LEFT)
    ed.key(0x08)  # at column 1 of AxB: deletes A
    assert ed.source == b"xB\rCD\r"
    assert (ed.cy, ed.cx) == (0, 0)
    long = Editor(b"?" + b"9" * 40 + b"\r")
    long.cy, long.cx = 0, 30
    rows = long.screen()
    assert rows[0] == ("   1", b"?" + b"9" * 27, None)
    assert rows[1] == ("    ", b"9" * 13, 2)


def test_the_prompt_cursor_blinks_and_leaves_text_alone(machine: Machine) -> None:
    interp = Interpreter(machine)
    machine.locate(0, 1)
    machine.print("KEEP", end="")
    machine.locate(2, 1)
    seen = []
    for frames in range(1, 40, 6):
        direct.prompt_loop(interp, frames=frames)
        seen.append(machine.chkchr(2, 1))
    assert set(seen) == {ord("E")}  # never left behind
    cursor = direct._Cursor(machine)
    cursor.show(0)
    assert machine.chkchr(2, 1) == 0x8F and (machine.csrx, machine.csry) == (2, 1)
    cursor.hide()
    cursor.show(direct._Cursor.BLINK // 2)  # the dark half of the blink
    assert machine.chkchr(2, 1) == ord("E")


def test_the_software_keyboard_types_at_the_prompt(machine: Machine) -> None:
    """DIRECT mode shows PTC's keyboard (KYA); a tap on a key types it."""
    from petitcom_shim import keyboard

    interp = Interpreter(machine)
    direct.run(interp, frames=1)
    assert machine.panel == "KYA"
    key = next(k for k in keyboard.KEYS if keyboard.typed_codes("KYA", False, k.code) == b"7")
    x, y = key.x + key.w // 2, key.y + key.h // 2
    ScriptFeeder(parse_script(f"1 T {x} {y}\n2 T OFF\n")).attach(machine)
    direct.prompt_loop(interp, frames=4)
    assert console_text(machine).split("\n")[3].rstrip() == "7"
