"""Petit Computer files: byte layouts written out from petitcom.md §4/§8, round trips, bad files.

The expected bytes below are spelled out by hand from the references (header
fields, nibble order, SCR's 32x32 blocks, GRP's 64x64 blocks), not produced by
the code under test.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from petitcom_shim import IllegalFunctionCall, Machine, ptcfile
from petitcom_shim.ptcfile import PtcFile, PtcFileError
from petitcom_shim.video.palette import decode_color, encode_color


@pytest.fixture
def machine() -> Iterator[Machine]:
    m = Machine(headless=True, seed=1)
    yield m
    m.close()


def payload_of(path: Path) -> bytes:
    return path.read_bytes()[48:]


# ------------------------------------------------------------- hand-written layouts


def test_chr_file_header_and_nibbles(machine: Machine, tmp_path: Path) -> None:
    machine.chrset("SPU0", 0, "0" * 64)  # (our default art has ink in every character)
    machine.chrset("SPU0", 1, "0123456789ABCDEF" * 4)
    path = tmp_path / "SHIP.PTC"
    machine.save("SPU0:SHIP", path)
    raw = path.read_bytes()
    payload = raw[48:]
    assert len(raw) == 36 + 12 + 8192
    assert raw[0:4] == b"PX01"
    assert raw[4:8] == bytes([0x0C, 0x20, 0x00, 0x00])  # 8204 = 12 + 8192, little-endian
    assert raw[8:12] == bytes([0x03, 0x00, 0x00, 0x00])  # CHR type id 3
    assert raw[12:20] == b"SHIP\x00\x00\x00\x00"
    assert raw[20:36] == hashlib.md5(b"PETITCOM" + b"PETC0100RCHR" + payload).digest()
    assert raw[36:48] == b"PETC0100RCHR"
    # tile 1 starts at byte 32; the low nibble is the left pixel
    assert payload[32:40] == bytes([0x10, 0x32, 0x54, 0x76, 0x98, 0xBA, 0xDC, 0xFE])
    assert payload[:32] == bytes(32)


def test_col_file_words(machine: Machine, tmp_path: Path) -> None:
    machine.colset("SP", 17, "FF8000")  # R5=31, G6=32, B5=0 -> 0x021F
    machine.colset("SP", 18, "000400")  # G6=1: only the extra green bit 15 -> 0x8000
    path = tmp_path / "PAL.PTC"
    machine.save("COL1:PAL", path)
    raw = path.read_bytes()
    assert len(raw) == 36 + 12 + 512
    assert raw[4:8] == (524).to_bytes(4, "little")
    assert raw[8:12] == bytes([5, 0, 0, 0])  # COL type id 5
    assert raw[36:48] == b"PETC0100RCOL"
    assert raw[48 + 34 : 48 + 38] == bytes([0x1F, 0x02, 0x00, 0x80])


def test_scr_file_blocks(machine: Machine, tmp_path: Path) -> None:
    machine.bgput(0, 3, 6, 123, 4, 0, 1)  # the BGREAD worked example: &H487B
    machine.bgput(0, 33, 1, 5, 3, 1, 0)  # 5 | H-flip | pal 3 = &H3405, in the top-right block
    machine.bgput(0, 2, 40, "0ABC")  # bottom-left block
    path = tmp_path / "MAP.PTC"
    machine.save("SCU0:MAP", path)
    raw = path.read_bytes()
    assert raw[8:12] == bytes([4, 0, 0, 0]) and raw[36:48] == b"PETC0100RSCR"
    payload = raw[48:]
    assert len(payload) == 8192
    # index = x%32 + 32*(y%32) + 1024*(x//32) + 2048*(y//32); two bytes per cell
    assert payload[2 * 195 : 2 * 195 + 2] == bytes([0x7B, 0x48])  # (3, 6): 3 + 192
    assert payload[2 * 1057 : 2 * 1057 + 2] == bytes([0x05, 0x34])  # (33, 1): 1 + 32 + 1024
    assert payload[2 * 2306 : 2 * 2306 + 2] == bytes([0xBC, 0x0A])  # (2, 40): 2 + 256 + 2048
    assert sum(1 for b in payload if b) == 6


def test_grp_file_blocks(machine: Machine, tmp_path: Path) -> None:
    machine.gpset(70, 9, 200)  # bx 1, tx 0, px 6; by 0, ty 1, py 1
    machine.gpset(255, 191, 7)  # the very last pixel
    machine.gpset(0, 64, 9)  # first pixel of the second block row
    path = tmp_path / "PIC.PTC"
    machine.save("GRP0:PIC", path)
    raw = path.read_bytes()
    assert raw[8:12] == bytes([2, 0, 0, 0]) and raw[36:48] == b"PETC0100RGRP"
    payload = raw[48:]
    assert len(payload) == 49152
    # index = px + 8*py + 64*tx + 512*ty + 4096*bx + 16384*by
    assert payload[6 + 8 + 512 + 4096] == 200
    assert payload[49151] == 7
    assert payload[16384] == 9
    assert sum(1 for b in payload if b) == 3


def test_prg_and_mem_files_parse() -> None:
    program = b"PRINT\r"
    prg = b"\0" * 8 + len(program).to_bytes(4, "little") + program + b"\0\0"
    file = PtcFile.of("HELLO", "PRG", prg)
    raw = file.to_bytes()
    assert raw[8:12] == bytes(4) and raw[36:48] == b"PETC0300RPRG"
    assert PtcFile.from_bytes(raw) == file
    mem = PtcFile.of("MEM1", "MEM", bytes(516))
    assert mem.to_bytes()[36:48] == b"PETC0200RMEM"
    with pytest.raises(PtcFileError, match="program length"):
        PtcFile.of("BAD", "PRG", b"\0" * 8 + (100).to_bytes(4, "little") + b"PRINT\r")


# --------------------------------------------------------------------- round trips


def test_every_colour_word_survives_colset() -> None:
    # LOAD stores words through COLSET's 8-bit path; it must be lossless.
    words = range(65536)
    assert all(encode_color(*decode_color(w)) == w for w in words)


def test_round_trip_every_resource_type(machine: Machine, tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    tiles = rng.integers(0, 16, (256, 8, 8), dtype=np.uint8)
    machine.chr.bank(machine._ref("SPU3"))[:] = tiles
    machine.screens[1].palettes.words[2][:] = rng.integers(0, 65536, 256, dtype=np.uint16)
    machine.screens[0].bg.layers[1].map[:] = rng.integers(0, 65536, (64, 64), dtype=np.uint16)
    machine.grp_pages[2].pixels[:] = rng.integers(0, 256, (192, 256), dtype=np.uint8)
    saves = {"SPU3:S": "s", "COL2L:C": "c", "SCU1U:M": "m", "GRP2:G": "g"}
    for target, stem in saves.items():
        machine.save(target, tmp_path / f"{stem}.PTC")

    other = Machine(headless=True)
    try:
        assert other.load("SPU6", tmp_path / "s.PTC") == "S"  # into another bank
        assert other.load("COL2U:C", tmp_path / "c.PTC") == "C"  # onto the other screen
        assert other.load("SCU0L", tmp_path / "m.PTC") == "M"
        assert other.load("GRP0", tmp_path / "g.PTC") == "G"
        assert (other.chr.bank(other._ref("SPU6")) == tiles).all()
        assert (other.screens[0].palettes.words[2] == machine.screens[1].palettes.words[2]).all()
        assert (other.screens[1].bg.layers[0].map == machine.screens[0].bg.layers[1].map).all()
        assert (other.grp_pages[0].pixels == machine.grp_pages[2].pixels).all()
        # and the loaded art is what the screen shows
        other.gpage(0, 0, 0)
        other.colinit("GRP")
        assert other.gspoit(10, 20) == int(machine.grp_pages[2].pixels[20, 10])
        # saving the loaded resources again gives the same bytes
        other.save("SPU6:S", tmp_path / "s2.PTC")
        assert (tmp_path / "s2.PTC").read_bytes() == (tmp_path / "s.PTC").read_bytes()
    finally:
        other.close()


def test_loaded_art_is_drawn(machine: Machine, tmp_path: Path) -> None:
    machine.chrset("BGU0", 1, "F" * 64)
    machine.bgput(0, 0, 0, 1, 0)
    before = machine.screen_array(0).copy()
    machine.save("BGU0:TILES", tmp_path / "t.PTC")
    machine.save("SCU0:MAP", tmp_path / "m.PTC")
    fresh = Machine(headless=True)
    try:
        fresh.load("BGU0", tmp_path / "t.PTC")
        fresh.load("SCU0", tmp_path / "m.PTC")
        assert (fresh.screen_array(0) == before).all()
        assert (before[0:8, 0:8] != before[100, 100]).any()
    finally:
        fresh.close()


def test_names_without_suffix_follow_the_pages(machine: Machine, tmp_path: Path) -> None:
    machine.bgpage(1)
    machine.chrset("BGU2L", 4, "1" * 64)
    machine.save("BGU2:LOW", tmp_path / "low.PTC")  # BGPAGE 1 -> the lower screen's bank
    tiles = ptcfile.chr_from_bytes(payload_of(tmp_path / "low.PTC"))
    assert (tiles[4] == 1).all()
    machine.gpage(1)
    machine.colset("GRP", 3, "FFFFFF")
    machine.save("COL2:G", tmp_path / "g.PTC")  # GPAGE 1 -> COL2L
    words = ptcfile.col_from_bytes(payload_of(tmp_path / "g.PTC"))
    assert int(words[3]) == encode_color(255, 255, 255)


def test_save_replaces_atomically(machine: Machine, tmp_path: Path) -> None:
    path = tmp_path / "x.PTC"
    path.write_bytes(b"old")
    machine.save("COL0:X", path)
    assert PtcFile.from_bytes(path.read_bytes()).name == "X"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.PTC"]
    with pytest.raises(OSError):
        machine.save("COL0:X", tmp_path / "missing" / "x.PTC")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.PTC"]


# ----------------------------------------------------------------------- bad input


def state(m: Machine) -> list[bytes]:
    parts = [m.chr.family_tiles(f, s).tobytes() for (f, s) in m.chr.tiles]
    for video in m.screens:
        parts += [w.tobytes() for w in video.palettes.words]
        parts += [layer.map.tobytes() for layer in video.bg.layers]
    parts += [page.pixels.tobytes() for page in m.grp_pages]
    return parts


@pytest.fixture
def good(machine: Machine, tmp_path: Path) -> bytes:
    machine.chrset("SPU0", 0, "7" * 64)
    machine.save("SPU0:GOOD", tmp_path / "good.PTC")
    machine.chrinit("SPU0")
    return (tmp_path / "good.PTC").read_bytes()


def _with(raw: bytes, offset: int, new: bytes) -> bytes:
    return raw[:offset] + new + raw[offset + len(new) :]


def _rehash(raw: bytes) -> bytes:
    return _with(raw, 20, hashlib.md5(b"PETITCOM" + raw[36:]).digest())


BAD_FILES = {
    "truncated": (lambda r: r[:-1], "header says 8204 bytes follow it, the file has 8203"),
    "padded": (lambda r: r + b"\0", "truncated or padded"),
    "empty": (lambda r: b"", "too short"),
    "magic": (lambda r: _with(r, 0, b"PX02"), "no PX01"),
    "checksum": (lambda r: _with(r, 100, b"\x01"), "MD5 checksum does not match"),
    "type id": (
        lambda r: _with(r, 8, bytes([5, 0, 0, 0])),
        "header type id 5 is neither 0 nor CHR's 3",
    ),
    "unknown id": (lambda r: _with(r, 8, bytes([9, 0, 0, 0])), "header type id 9 is neither"),
    "tag": (lambda r: _rehash(_with(r, 36, b"PETC0300")), r"not a Petit Computer file \(tag"),
    "name": (lambda r: _with(r, 12, b"bad!"), "internal name"),
    "no name": (lambda r: _with(r, 12, bytes(8)), "internal name"),
    "payload size": (
        lambda r: _rehash(_with(r[:-4], 4, (8200).to_bytes(4, "little"))),
        "a CHR file holds 8192 bytes of data, this one 8188",
    ),
    "a COL file": (
        lambda r: PtcFile.of("GOOD", "COL", bytes(512)).to_bytes(),
        "is a COL file; SPU0 needs a CHR file",
    ),
}


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_bad_file_is_refused_and_changes_nothing(
    machine: Machine, tmp_path: Path, good: bytes, case: str
) -> None:
    spoil, message = BAD_FILES[case]
    path = tmp_path / "bad.PTC"
    path.write_bytes(spoil(good))
    before = state(machine)
    with pytest.raises(PtcFileError, match=message) as err:
        machine.load("SPU0", path)
    assert "\n" not in str(err.value) and str(err.value).startswith(str(path))
    assert state(machine) == before


def test_the_untouched_file_loads(machine: Machine, tmp_path: Path, good: bytes) -> None:
    (tmp_path / "ok.PTC").write_bytes(good)
    assert machine.load("SPU0:GOOD", tmp_path / "ok.PTC") == "GOOD"
    assert machine.chrread("SPU0", 0) == "7" * 64


def test_not_regular_files(machine: Machine, tmp_path: Path) -> None:
    before = state(machine)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # must be refused without blocking for a writer
    cases = {
        tmp_path / "nothing.PTC": "no such file",
        tmp_path: "not a regular file",
        Path("/dev/null"): "not a regular file",
        fifo: "not a regular file",
    }
    for path, message in cases.items():
        with pytest.raises(PtcFileError, match=message):
            machine.load("SPU0", path)
    assert state(machine) == before


def test_huge_file_is_refused(machine: Machine, tmp_path: Path) -> None:
    path = tmp_path / "huge.PTC"
    with open(path, "wb") as fh:
        fh.truncate(ptcfile.MAX_FILE_BYTES + 1)  # sparse: costs no disk
    with pytest.raises(PtcFileError, match="larger than 2,097,152 bytes"):
        machine.load("GRP0", path)


def test_wrong_internal_name(machine: Machine, tmp_path: Path, good: bytes) -> None:
    (tmp_path / "g.PTC").write_bytes(good)
    before = state(machine)
    with pytest.raises(PtcFileError, match="holds file 'GOOD', not 'OTHER'"):
        machine.load("SPU0:OTHER", tmp_path / "g.PTC")
    assert state(machine) == before


@pytest.mark.parametrize(
    ("target", "error", "message"),
    [
        ("SPU0", IllegalFunctionCall, "SAVE needs"),
        ("SPU9:X", IllegalFunctionCall, "SPU has banks 0-7"),
        ("SPD0U:X", IllegalFunctionCall, "does not exist on that screen"),
        ("COL3:X", IllegalFunctionCall, "not a CHR resource name"),
        ("GRP4:X", IllegalFunctionCall, "not a CHR resource name"),
        ("MEM:X", IllegalFunctionCall, "MEM files hold no shim resource"),
        ("A:B:C", IllegalFunctionCall, "RESOURCE:NAME"),
        (":X", IllegalFunctionCall, "RESOURCE:NAME"),
        ("SPU0:TOOLONGNAME", PtcFileError, "1-8 characters"),
        ("SPU0:", PtcFileError, "1-8 characters"),
        ("SPU0:BAD-NAME", PtcFileError, "1-8 characters"),
    ],
)
def test_bad_targets(
    machine: Machine, tmp_path: Path, target: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        machine.save(target, tmp_path / "x.PTC")
    assert not (tmp_path / "x.PTC").exists()


def test_lower_case_names_are_upper_cased(machine: Machine, tmp_path: Path) -> None:
    machine.save("spu0:ship_1", tmp_path / "s.PTC")
    assert (tmp_path / "s.PTC").read_bytes()[12:20] == b"SHIP_1\0\0"


@settings(max_examples=200, deadline=None)
@given(
    edits=st.lists(st.tuples(st.integers(0, 600), st.integers(0, 255)), min_size=1, max_size=4),
    cut=st.one_of(st.none(), st.integers(0, 560)),
)
def test_damaged_files_fail_cleanly(edits: list[tuple[int, int]], cut: int | None) -> None:
    good = PtcFile.of("FUZZ", "COL", bytes(range(256)) * 2)
    raw = bytearray(good.to_bytes())
    for offset, value in edits:
        if offset < len(raw):
            raw[offset] = value
    data = bytes(raw[:cut] if cut is not None else raw)
    try:
        parsed = PtcFile.from_bytes(data)
    except PtcFileError as err:
        assert "\n" not in str(err)
    else:
        assert parsed.to_bytes() == data
