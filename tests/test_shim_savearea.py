"""The save area: files found by header name and type, atomic writes, MEM and PRG payloads.

Facts checked here: the header type-id field is 0 in files made by PC tools
(PTC-EmkII's and sbc's txt_to_ptc.py write four zero bytes) and the type's id in
files from the handheld (petitcom.md §8.2); MEM stores printable ASCII full
width with curly quotes and half-width kana as full-width kana ([SBC] strs.c
``to_wide``, petitcom.md §8.1).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from petitcom_shim import Machine, ptcfile
from petitcom_shim.ptcfile import PtcFile, PtcFileError
from petitcom_shim.savearea import SaveArea


def _prg(name: str, text: bytes) -> PtcFile:
    return PtcFile.of(name, "PRG", ptcfile.prg_payload(text))


def _zero_id(raw: bytes) -> bytes:
    return raw[:8] + bytes(4) + raw[12:]


def test_type_id_zero_as_pc_tools_write_it_is_accepted() -> None:
    raw = _zero_id(PtcFile.of("PAL", "COL", bytes(512)).to_bytes())
    assert PtcFile.from_bytes(raw).kind.name == "COL"


def test_prg_payload_layout_by_hand() -> None:
    payload = ptcfile.prg_payload(b"?1\r")
    assert payload == bytes(8) + (3).to_bytes(4, "little") + b"?1\r\0"
    assert ptcfile.prg_text(payload) == b"?1\r"
    raw = _prg("HELLO", b"?1\r").to_bytes()
    assert raw[8:12] == bytes(4)  # PRG's type id is 0
    assert raw[36:48] == b"PETC0300RPRG"
    assert raw[20:36] == hashlib.md5(b"PETITCOM" + raw[36:]).digest()


def test_mem_payload_by_hand() -> None:
    payload = ptcfile.mem_bytes(b"A\"' \xb1\xb0\xde")
    units = [int.from_bytes(payload[i : i + 2], "little") for i in range(0, 14, 2)]
    assert units == [0xFF21, 0x201D, 0x2019, 0x0020, 0x30A2, 0xFF70, 0x309B]
    assert payload[14:512] == bytes(498)
    assert payload[512:] == (7).to_bytes(4, "little")
    assert len(payload) == 516


def test_mem_round_trip_of_every_code_and_refusals() -> None:
    every = bytes(range(256))
    assert ptcfile.mem_from_bytes(ptcfile.mem_bytes(every)) == every
    with pytest.raises(PtcFileError, match="at most 256"):
        ptcfile.mem_bytes(bytes(257))
    bad_len = bytes(512) + (300).to_bytes(4, "little")
    with pytest.raises(PtcFileError, match="length 300"):
        ptcfile.mem_from_bytes(bad_len)
    bad_unit = (0x4E00).to_bytes(2, "little") + bytes(510) + (1).to_bytes(4, "little")
    with pytest.raises(PtcFileError, match="U\\+4E00"):
        ptcfile.mem_from_bytes(bad_unit)


def test_files_are_found_by_header_name_and_type_not_host_name(tmp_path: Path) -> None:
    chr_file = PtcFile.of("STAR2", "CHR", bytes(8192))
    scr_file = PtcFile.of("STAR2", "SCR", bytes(8192))
    (tmp_path / "STAR2-CHR.PTC").write_bytes(chr_file.to_bytes())
    (tmp_path / "whatever.ptc").write_bytes(_zero_id(scr_file.to_bytes()))
    (tmp_path / "notes.PTC").write_bytes(b"not a PTC file")
    area = SaveArea(tmp_path)
    assert area.names() == [("CHR", "STAR2"), ("SCR", "STAR2")]
    assert area.load("star2", "SCR") == scr_file
    found = area.find("STAR2", "CHR")
    assert found is not None and found.path.name == "STAR2-CHR.PTC"
    assert area.find("STAR2", "PRG") is None
    with pytest.raises(PtcFileError, match="no GRP file STAR2"):
        area.load("STAR2", "GRP")


def test_save_picks_host_names_and_keeps_an_existing_one(tmp_path: Path) -> None:
    area = SaveArea(tmp_path)
    assert area.save(_prg("GAME", b"?1\r")).name == "GAME.PTC"
    assert area.save(PtcFile.of("GAME", "MEM", ptcfile.mem_bytes(b"HI"))).name == "GAME-MEM.PTC"
    (tmp_path / "GAME.PTC").rename(tmp_path / "my game.PTC")
    assert area.save(_prg("GAME", b"?2\r")).name == "my game.PTC"
    assert ptcfile.prg_text(area.load("GAME", "PRG").payload) == b"?2\r"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["GAME-MEM.PTC", "my game.PTC"]


def test_save_never_replaces_a_special_file(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "X.PTC")
    (tmp_path / "X-PRG.PTC").mkdir()
    with pytest.raises(PtcFileError, match="are taken"):
        SaveArea(tmp_path).save(_prg("X", b"\r"))
    assert (tmp_path / "X-PRG.PTC").is_dir()


def test_delete_and_rename(tmp_path: Path) -> None:
    area = SaveArea(tmp_path)
    area.save(_prg("OLD", b"?1\r"))
    (tmp_path / "proj.PTC").write_bytes(PtcFile.of("OLD", "COL", bytes(512)).to_bytes())
    assert area.rename("OLD", "NEW", "PRG").name == "NEW.PTC"
    assert area.rename("OLD", "NEW", "COL").name == "proj.PTC"  # a project's host name stays
    assert area.names() == [("PRG", "NEW"), ("COL", "NEW")]
    area.save(_prg("TWO", b"\r"))
    with pytest.raises(PtcFileError, match="already exists"):
        area.rename("TWO", "NEW", "PRG")
    area.delete("NEW", "COL")
    assert not (tmp_path / "proj.PTC").exists()
    with pytest.raises(PtcFileError, match="no COL file NEW"):
        area.delete("NEW", "COL")


def test_machine_holds_its_save_area(tmp_path: Path) -> None:
    m = Machine(headless=True, files=tmp_path)
    try:
        assert m.files is not None and m.files.folder == tmp_path
    finally:
        m.close()
    m = Machine(headless=True)
    try:
        assert m.files is None
    finally:
        m.close()
