"""LOAD, SAVE, EXEC, DELETE, RENAME, FILES, MEM$, PRGNAME$ and SENDFILE on the save area.

RESULT is 1 when a file operation worked and 0 when it did not ([SBC]
tests/test_int_resources.c: "RESULT is zero after failed load", "RESULT is one
after correct save"); MEM files store full-width characters ([SBC] same test:
saved MEM holds ``to_wide('A' + i)`` and the length at byte 12+512).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from petitcom_shim import Machine, ptcfile
from petitcom_shim.basic import Interpreter, RunResult
from petitcom_shim.basic.consoletext import console_text
from petitcom_shim.basic.kw_files import package_text, set_program
from petitcom_shim.ptcfile import PtcFile


@pytest.fixture
def machine(tmp_path: Path) -> Iterator[Machine]:
    m = Machine(headless=True, files=tmp_path)
    yield m
    m.close()


def run(machine: Machine, source: str) -> tuple[RunResult, list[str]]:
    interp = Interpreter(machine)
    set_program(interp, "FIRST", source.replace("\n", "\r").encode("latin-1"))
    result = interp.run(max_frames=60)
    return result, [line.rstrip() for line in console_text(machine).split("\n")[:24]]


def prg(name: str, text: bytes) -> bytes:
    return PtcFile.of(name, "PRG", ptcfile.prg_payload(text)).to_bytes()


def test_mem_save_and_load(machine: Machine, tmp_path: Path) -> None:
    result, lines = run(
        machine,
        'MEM$="ABCDEFG":SAVE "MEM:MSAVTST":?RESULT\nMEM$="":LOAD "MEM:MSAVTST",0:?RESULT;MEM$\n'
        'LOAD "MEM:NOTEXIST":?RESULT;MEM$\n',
    )
    assert result.status == "ended"
    assert lines[:3] == ["1", "1ABCDEFG", "0ABCDEFG"]
    raw = (tmp_path / "MSAVTST.PTC").read_bytes()[36:]
    assert raw[:12] == b"PETC0200RMEM"
    assert [int.from_bytes(raw[12 + 2 * i : 14 + 2 * i], "little") for i in range(7)] == [
        0xFF21 + i for i in range(7)
    ]
    assert raw[12 + 512] == 7


def test_resources_round_trip_through_files(machine: Machine, tmp_path: Path) -> None:
    hex64 = "0123456789ABCDEF" * 4
    result, lines = run(
        machine,
        f'CHRSET "SPU2",5,"{hex64}":SAVE "SPU2:TILES":?RESULT\n'
        'COLSET "BG",3,"FF0000":SAVE "COL0:PAL":?RESULT\n'
        'BGPUT 0,1,2,77,3,0,0:SAVE "SCU0:MAP":?RESULT\n'
        'GPSET 5,6,9:SAVE "GRP0:PIC":?RESULT\n'
        'CHRINIT "SPU2":COLINIT:BGCLR:GCLS\n'
        'LOAD "SPU2:TILES":LOAD "COL0:PAL":LOAD "SCU0:MAP":LOAD "GRP0:PIC":?RESULT\n',
    )
    assert result.status == "ended", result
    assert lines[:5] == ["1", "1", "1", "1", "1"]
    assert machine.chrread("SPU2", 5) == hex64
    assert machine.colread("BG", 3)[0] > 240
    assert machine.bgread(0, 1, 2)[0] == 77
    assert machine.gspoit(5, 6) == 9
    assert {p.name for p in tmp_path.iterdir()} == {"MAP.PTC", "PIC.PTC", "TILES.PTC", "PAL.PTC"}


def test_resource_names_without_a_bank_number(machine: Machine, tmp_path: Path) -> None:
    """ "BGF:NAME", "SPU:NAME", "GRP:NAME", "COL:NAME", "SCU:NAME" mean bank 0 ([SBC]
    resources.c ``verify_resource_type``: a name may stop after its three letters)."""
    hex64 = "F0" * 32
    result, lines = run(
        machine,
        f'CHRSET "BGF",65,"{hex64}":SAVE "BGF:FONT":?RESULT\n'
        f'CHRSET "SPU",7,"{hex64}":SAVE "SPU:SHIP":?RESULT\n'
        'GPSET 3,4,12:SAVE "GRP:PIC":?RESULT\n'
        'COLSET "BG",5,"00FF00":SAVE "COL:PAL":?RESULT\n'
        'BGPUT 0,2,3,66,0,0,0:SAVE "SCU:MAP":?RESULT\n'
        'CHRINIT "BGF":CHRINIT "SPU":GCLS:COLINIT:BGCLR\n'
        'LOAD "BGF:FONT":LOAD "SPU:SHIP":LOAD "GRP:PIC":LOAD "COL:PAL":LOAD "SCU:MAP":?RESULT\n',
    )
    assert result.status == "ended", result
    assert lines[:6] == ["1"] * 6
    assert machine.chrread("BGF0", 65) == hex64
    assert machine.chrread("SPU0", 7) == hex64
    assert machine.gspoit(0, 3, 4) == 12
    assert machine.colread("BG", 5)[1] > 240
    assert machine.bgread(0, 2, 3)[0] == 66
    assert {p.name for p in tmp_path.iterdir()} == {
        "FONT.PTC", "SHIP.PTC", "PIC.PTC", "PAL.PTC", "MAP.PTC"
    }  # fmt: skip


def test_bad_names_and_types_are_ptc_errors(machine: Machine) -> None:
    for source, message in (
        ('LOAD "XYZ0:A"', "Illegal resource type"),
        ('SAVE "SPU9:A"', "Illegal resource type"),
        ('SAVE "MEM:BAD NAME"', "Illegal function call"),
        ('SAVE "MEM:"', "Illegal function call"),
        ('DELETE "TOOLONGNAME"', "Illegal function call"),
        ("SENDFILE", "Communication error"),
        ('RECVFILE "PRG:X"', "Communication error"),
        ('FILES "ABC"', "Illegal resource type"),
        ("LOAD 5", "Type mismatch"),
    ):
        result, _ = run(machine, source)
        assert (result.status, result.error, result.line) == ("error", message, 1), source


def test_prg_load_save_exec_prgname(machine: Machine, tmp_path: Path) -> None:
    (tmp_path / "second.PTC").write_bytes(prg("SECOND", b'?"IN ";PRGNAME$;A:A=A+1\r'))
    result, lines = run(
        machine,
        'A=5:?PRGNAME$;PACKAGE$\nSAVE "PRG:FIRST":?RESULT\nEXEC "NOPE":?RESULT\n'
        'EXEC "SECOND"\n?"NOT HERE"\n',
    )
    assert result.status == "ended"
    assert lines[:4] == ["FIRST000000000000", "1", "0", "IN SECOND0"]  # EXEC cleared A
    first = ptcfile.read_file(tmp_path / "FIRST.PTC")
    assert ptcfile.prg_text(first.payload).startswith(b"A=5:?PRGNAME$")


def test_delete_rename_files(machine: Machine, tmp_path: Path) -> None:
    (tmp_path / "a.PTC").write_bytes(prg("ALPHA", b"\r"))
    (tmp_path / "b.PTC").write_bytes(PtcFile.of("ALPHA", "COL", bytes(512)).to_bytes())
    result, lines = run(
        machine,
        'FILES\nRENAME "ALPHA","BETA":?RESULT\nRENAME "COL:ALPHA","BETA":?RESULT\n'
        'DELETE "COL:BETA":?RESULT\nDELETE "COL:BETA":?RESULT\nFILES "PRG"\n',
    )
    assert result.status == "ended"
    assert lines[:8] == ["PRG:ALPHA", "COL:ALPHA", "1", "1", "1", "0", "PRG:BETA", ""]


def test_package_text() -> None:
    assert package_text((0, 0)) == b"000000000000"
    assert package_text((0x1FFF, 0xFFFFFFFF)) == b"1FFFFFFFFFFF"


def test_append_adds_a_program_after_the_one_in_memory(machine: Machine, tmp_path: Path) -> None:
    (tmp_path / "tail.PTC").write_bytes(prg("TAIL", b'?"TAIL"\r'))
    interp = Interpreter(machine)
    set_program(interp, "HEAD", b'?"HEAD"')
    assert interp.direct(b'APPEND "TAIL":?RESULT').status == "ended"
    assert interp.direct(b'APPEND "NONE":?RESULT').status == "ended"
    assert interp.source == b'?"HEAD"\r?"TAIL"\r'
    assert interp.run().status == "ended"
    lines = [line.rstrip() for line in console_text(machine).split("\n")[:5]]
    assert lines[:4] == ["1", "0", "HEAD", "TAIL"]
    assert interp.direct(b"?PRGNAME$").status == "ended"
    assert console_text(machine).split("\n")[4].rstrip() == "HEAD"
