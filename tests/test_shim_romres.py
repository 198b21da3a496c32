"""User-supplied ROM resources and the shim's own default banks (issue 15 item 3).

The resource files are built here from made-up tiles and colours in the formats
the reference emulators read ([SBC] resources.c ``init_resource``/``init_col`` and
``check_load_file``: ``XXXX.PTC`` as an SD-card file or a bare internal file;
[EMK] Visual.cpp ``chrinit_``/``colinit_``). No ROM data is used.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from petitcom_shim import Machine
from petitcom_shim.ptcfile import KINDS, PtcFile, chr_bytes, col_bytes
from petitcom_shim.romres import CHR_FILES, ResourceError, load_resources
from petitcom_shim.video.chr import FAMILIES, SOLID_TILE
from petitcom_shim.video.palette import decode_color

RNG = np.random.default_rng(15)
FONT = RNG.integers(0, 16, (256, 8, 8), dtype=np.uint8)
SPRITES = RNG.integers(0, 16, (256, 8, 8), dtype=np.uint8)
COLOURS = RNG.integers(0, 0x10000, 256, dtype=np.uint16)


def sd_file(name: str, kind: str, payload: bytes) -> bytes:
    return PtcFile.of(name, kind, payload).to_bytes()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "BGF0.PTC").write_bytes(sd_file("BGF0", "CHR", chr_bytes(FONT)))
    (tmp_path / "SPU3.PTC").write_bytes(KINDS["CHR"].tag + chr_bytes(SPRITES))  # internal form
    (tmp_path / "spd1.ptc").write_bytes(sd_file("SPD1", "CHR", chr_bytes(SPRITES)))
    (tmp_path / "COL1.PTC").write_bytes(sd_file("COL1", "COL", col_bytes(COLOURS)))
    (tmp_path / "README.txt").write_text("other files are ignored")
    return tmp_path


@pytest.fixture
def plain() -> Iterator[Machine]:
    machine = Machine(headless=True)
    yield machine
    machine.close()


def hex_tile(tile: np.ndarray) -> str:
    return "".join(f"{int(v):X}" for v in tile.ravel())


def test_without_resources_no_bank_is_blank(plain: Machine) -> None:
    """PTC starts with art in every bank; the shim starts with its own."""
    for family, (count, screens) in FAMILIES.items():
        for screen in screens:
            tiles = plain.chr.family_tiles(family, screen)
            for bank in range(count):
                part = tiles[256 * bank : 256 * (bank + 1)]
                assert part.any(), f"{family}{bank} on screen {screen} is blank"
    assert (plain.chr.family_tiles("BGD", 0)[SOLID_TILE] == 15).all()  # COLOR's background


def test_every_default_sprite_character_shows_something(plain: Machine) -> None:
    """Issue 26: character 16*s was drawn in pixel value 0 (transparent), so SPSET
    0,64,0,0,0,0 drew nothing; characters 0-15 of some banks were blank. Now each
    16x16 character has ink, and the 16*s ones are outlined in value 15."""
    for family, (_, screens) in FAMILIES.items():
        if not family.startswith("SP"):
            continue
        for screen in screens:
            chars = plain.chr.family_tiles(family, screen).reshape(-1, 4, 8, 8)
            empty = [n for n in range(len(chars)) if not chars[n].any()]
            assert empty == [], f"{family} screen {screen}: characters {empty[:8]} are blank"
            for n in range(0, len(chars), 16):
                assert set(np.unique(chars[n])) == {0, 15}, (family, n)
    plain.spset(0, 64, 0, 0, 0, 0)
    plain.vsync()
    top = plain.screen_array(0)
    assert top[:16, :16].any(), "SPSET 0,64,0,0,0,0 drew nothing"


def test_chrinit_restores_our_art(plain: Machine) -> None:
    before = plain.chrread("SPU5", 77)
    plain.chrset("SPU5", 77, "0" * 64)
    plain.chrinit("SPU5")
    assert plain.chrread("SPU5", 77) == before != "0" * 64


def test_resources_are_the_defaults_on_both_screens(folder: Path) -> None:
    m = Machine(headless=True, resources=folder)
    try:
        assert sorted(m.resources.chr) == ["BGF0", "SPD1", "SPU3"]
        assert m.chrread("BGF0U", 65) == m.chrread("BGF0L", 65) == hex_tile(FONT[65])
        assert m.chrread("SPU3", 200) == hex_tile(SPRITES[200])
        assert m.chrread("SPD1", 3) == hex_tile(SPRITES[3])
        for screen in (0, 1):
            m.bgpage(screen)
            assert m.colread("SP", 77) == decode_color(int(COLOURS[77]))
        # CHRINIT and COLINIT bring back the user's ROM defaults, not ours.
        m.chrset("SPU3", 200, "F" * 64)
        m.chrinit("SPU3")
        assert m.chrread("SPU3", 200) == hex_tile(SPRITES[200])
        m.colset("SP", 77, "FFFFFF")
        m.colinit("SP", 77)
        assert m.colread("SP", 77) == decode_color(int(COLOURS[77]))
        m.colset("SP", 78, "FFFFFF")
        m.acls()
        assert m.colread("SP", 78) == decode_color(int(COLOURS[78]))
        # Banks and palettes without a file are the shim's own.
        ours = Machine(headless=True)
        assert m.chrread("SPU0", 20) == ours.chrread("SPU0", 20)
        assert m.colread("BG", 20) == ours.colread("BG", 20) == (33, 57, 132)
        ours.close()
    finally:
        m.close()


def test_the_console_draws_with_the_resource_font(folder: Path, plain: Machine) -> None:
    m = Machine(headless=True, resources=folder)
    try:
        for machine in (m, plain):
            machine.print("A")
        assert not np.array_equal(m.screen_array(0)[:8, :8], plain.screen_array(0)[:8, :8])
    finally:
        m.close()


@pytest.mark.parametrize(
    ("name", "content", "words"),
    [
        ("SPU0.PTC", sd_file("SPU0", "COL", bytes(512)), "a COL file, SPU0 needs a CHR file"),
        ("COL0.PTC", KINDS["COL"].tag + bytes(100), "holds 512 bytes"),
        ("BGU1.PTC", b"PX01" + bytes(60), "truncated or padded"),
        ("BGD0.PTC", b"hello", "not a Petit Computer file"),
    ],
)
def test_a_bad_resource_file_is_refused_by_name(
    tmp_path: Path, name: str, content: bytes, words: str
) -> None:
    (tmp_path / name).write_bytes(content)
    with pytest.raises(ResourceError, match=words) as info:
        Machine(headless=True, resources=tmp_path)
    assert name in str(info.value) and "\n" not in str(info.value)


def test_a_resource_that_is_not_a_file_or_a_missing_folder(tmp_path: Path) -> None:
    (tmp_path / "BGU2.PTC").mkdir()
    with pytest.raises(ResourceError, match="not a regular file"):
        load_resources(tmp_path)
    with pytest.raises(ResourceError, match="not a folder"):
        load_resources(tmp_path / "missing")


def test_every_bank_has_a_file_name() -> None:
    """The 21 user-visible bank files [SBC] and [EMK] read (no screen letter)."""
    assert len(CHR_FILES) == 21 and CHR_FILES[:4] == ("BGF0", "BGD0", "BGD1", "BGU0")
