"""Reading PROGRAM for ``petitcom run``: .PTC, raw PRG, QR set, UTF-8 text, and refusals."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from petitcom_shim import ptcfile, ptcqr
from petitcom_shim.basic.progfile import ProgramError, name_from, read_program, source_text
from petitcom_shim.ptcfile import PtcFile

TEXT = b'CLS\r?"\xf1 \xb1"\r'  # ♥ and ｱ


def _prg_file(name: str = "HEART") -> PtcFile:
    return PtcFile.of(name, "PRG", ptcfile.prg_payload(TEXT))


def test_ptc_file(tmp_path: Path) -> None:
    path = tmp_path / "heart.ptc"
    path.write_bytes(_prg_file().to_bytes())
    program = read_program(path)
    assert (program.name, program.text, program.origin) == ("HEART", TEXT, "PTC")


def test_raw_prg(tmp_path: Path) -> None:
    path = tmp_path / "my-prog.bin"
    path.write_bytes(_prg_file().internal)
    program = read_program(path)
    assert (program.name, program.text, program.origin) == ("MYPROG", TEXT, "PRG")


def test_utf8_text_with_ptc_characters_and_any_line_ends(tmp_path: Path) -> None:
    path = tmp_path / "heart.txt"
    path.write_text('\ufeffCLS\r\n?"♥ ｱ"\n', encoding="utf-8")
    program = read_program(path)
    assert program.text == TEXT and program.origin == "TEXT" and program.name == "HEART"
    assert source_text(program.text) == 'CLS\n?"♥ ｱ"\n'


def test_a_0x0a_inside_a_line_in_text_form(tmp_path: Path) -> None:
    """A literal 0x0A inside a line is written ★ in text (what ``list`` writes); a file
    that ends lines with CR alone, as PTC does, keeps a raw LF as the character."""
    star = tmp_path / "STAR.TXT"
    star.write_text('?"A★B"\n?1\n', encoding="utf-8")
    assert read_program(star).text == b'?"A\nB"\r?1\r'
    assert source_text(b'?"A\nB"\r') == '?"A★B"\n'
    raw = tmp_path / "RAW.TXT"
    raw.write_bytes(b'?"A\nB"\r?1\r')
    assert read_program(raw).text == b'?"A\nB"\r?1\r'


def test_qr_set_folder(tmp_path: Path) -> None:
    ptcqr.write_set(_prg_file("QRPROG"), tmp_path / "codes")
    program = read_program(tmp_path / "codes")
    assert (program.name, program.text, program.origin) == ("QRPROG", TEXT, "QR")


def test_name_from_host_names() -> None:
    assert name_from("my game v2.txt") == "MYGAMEV2"
    assert name_from("ーー.txt") == "PROGRAM"


BAD = {
    "truncated PRG": (lambda: _prg_file().to_bytes()[:-3], "truncated or padded"),
    "checksum": (
        lambda: _prg_file().to_bytes()[:-1] + b"!",
        "MD5 checksum does not match",
    ),
    "another type": (lambda: PtcFile.of("P", "COL", bytes(512)).to_bytes(), "is a COL file"),
    "binary garbage": (lambda: bytes(range(256)) * 4, "byte 128 is not UTF-8"),
    "control bytes": (lambda: b"?1\r\x00\x01\x02", "line 2: control character U\\+0000"),
    "unmappable": (lambda: '?1\n?"中"'.encode(), "line 2, column 3: '中'"),
    "damaged raw PRG": (lambda: b"PETC0300RPRG\xff\xff", "PRG data is 2 bytes, too short"),
    "raw CHR": (lambda: b"PETC0100RCHR" + bytes(8192), "internal file, not a program"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_programs_are_one_line_errors(tmp_path: Path, case: str) -> None:
    make, message = BAD[case]
    path = tmp_path / "bad.ptc"
    path.write_bytes(make())
    with pytest.raises(ProgramError, match=message) as err:
        read_program(path)
    assert "\n" not in str(err.value) and str(err.value).startswith(str(path))


def test_missing_special_and_huge_files(tmp_path: Path) -> None:
    with pytest.raises(ProgramError, match="no such file"):
        read_program(tmp_path / "nope.txt")
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(ProgramError, match="not a regular file"):
        read_program(tmp_path / "fifo")
    big = tmp_path / "big.txt"
    big.write_bytes(b"?" * (3 * 1024 * 1024))
    with pytest.raises(ProgramError, match="larger than"):
        read_program(big)
    long_text = tmp_path / "long.txt"
    long_text.write_bytes(b"?" * 600_000)
    with pytest.raises(ProgramError, match="longer than PTC's 524288"):
        read_program(long_text)
