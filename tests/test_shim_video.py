"""Unit tests of the shim's video subsystem: colour and tile words, CHR, console, BG, sprites, GRP.

Facts checked come from /work/shared/spec/petitcom.md (section numbers cited).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given
from hypothesis import strategies as st

from petitcom_shim import IllegalFunctionCall, Machine, OutOfRange
from petitcom_shim.video.bg import decode_tile, encode_tile
from petitcom_shim.video.grp import circle_points, line_points
from petitcom_shim.video.palette import decode_color, encode_color
from petitcom_shim.video.sprites import LEGAL_SIZES


@pytest.fixture
def m() -> Iterator[Machine]:
    machine = Machine(headless=True, seed=7)
    yield machine
    machine.close()


# -- §1.4 colour word -----------------------------------------------------------
def test_colour_word_layout_puts_low_green_bit_in_bit_15() -> None:
    assert encode_color(255, 0, 0) == 0x001F
    assert encode_color(0, 0, 255) == 0x7C00
    assert encode_color(0, 4, 0) == 0x8000  # green 6-bit value 1: only bit 15
    assert encode_color(0, 8, 0) == 0x0020  # green 6-bit value 2: bit 5
    assert decode_color(0xFFFF) == (255, 255, 255)


def test_colread_expansion_tables() -> None:
    reds = [decode_color(n)[0] for n in range(32)]
    assert reds[:8] == [0, 8, 16, 25, 33, 41, 49, 58]
    assert reds[-2:] == [247, 255]
    greens = [decode_color(((g >> 1) << 5) | ((g & 1) << 15))[1] for g in range(64)]
    assert greens[:3] == [0, 4, 8] and greens[-2:] == [251, 255]
    assert greens == [round(n * 255 / 63) for n in range(64)]


@given(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255))
def test_colset_quantises_and_colread_is_stable(r: int, g: int, b: int) -> None:
    word = encode_color(r, g, b)
    back = decode_color(word)
    assert encode_color(*back) == word
    assert back[0] == round((r >> 3) * 255 / 31)
    assert back[1] == round((g >> 2) * 255 / 63)


def test_colset_colread_colinit_follow_pages(m: Machine) -> None:
    default = m.colread("BG", 20)
    m.colset("BG", 20, "2139FF")
    assert m.colread("BG", 20) == (33, 57, 255)
    m.bgpage(1)
    assert m.colread("BG", 20) == default  # the lower screen has its own COL0
    m.bgpage(0)
    m.colinit("BG", 20)
    assert m.colread("BG", 20) == default
    with pytest.raises(IllegalFunctionCall):
        m.colset("BG", 1, "12345")
    with pytest.raises(IllegalFunctionCall):
        m.colread("OBJ", 1)


def test_default_palettes_give_console_colours_at_ink_entry(m: Machine) -> None:
    assert m.colread("BG", 15) == (255, 255, 255)  # COLOR 0 is white
    assert m.colread("BG", 16 + 15) == (0, 0, 0)  # COLOR 1 is black
    assert m.colread("SP", 13 * 16 + 15) == m.colread("BG", 13 * 16 + 15)


# -- §3 tile word ---------------------------------------------------------------
def test_bgput_worked_example_reads_back_18555(m: Machine) -> None:
    m.bgput(0, 3, 6, 123, 4, 0, 1)
    assert m.bgreadw(0, 3, 6) == 18555 == 0x487B
    assert m.bgread(0, 3, 6) == (123, 4, 0, 1)


@given(st.integers(0, 1023), st.integers(0, 15), st.integers(0, 1), st.integers(0, 1))
def test_tile_word_round_trip(chr_: int, pal: int, h: int, v: int) -> None:
    assert decode_tile(encode_tile(chr_, pal, h, v)) == (chr_, pal, h, v)


def test_bgput_forms_and_wrapping(m: Machine) -> None:
    m.bgput(1, 64 + 2, -1, "487B")
    assert m.bgreadw(1, 2, 63) == 0x487B
    m.bgput(1, 0, 0, 0x1487B)  # a numeric word is taken AND &HFFFF
    assert m.bgreadw(1, 0, 0) == 0x487B
    with pytest.raises(IllegalFunctionCall):
        m.bgput(0, 0, 0, "48")
    with pytest.raises(OutOfRange):
        m.bgput(2, 0, 0, 1)


def test_bgfill_with_several_tiles_in_one_string_fills_them_in_turn(m: Machine) -> None:
    """A public PTC v2 game fills a 3 x 2 block with "D042D043D044D062D063D064" (six
    tiles, row by row) and a 24-tile row with a title (docs/compat.md)."""
    m.bgfill(1, 40, 4, 42, 5, "D042D043D044D062D063D064")
    assert [m.bgreadh(1, x, 4) for x in (40, 41, 42)] == ["D042", "D043", "D044"]
    assert [m.bgreadh(1, x, 5) for x in (40, 41, 42)] == ["D062", "D063", "D064"]
    m.bgfill(0, 0, 0, 4, 0, "00010002")  # a shorter pattern repeats
    assert [m.bgreadw(0, x, 0) for x in range(5)] == [1, 2, 1, 2, 1]
    m.bgfill(0, 0, 1, 3, 1, "0005")
    assert [m.bgreadw(0, x, 1) for x in range(4)] == [5, 5, 5, 5]
    with pytest.raises(IllegalFunctionCall):
        m.bgfill(0, 0, 0, 3, 3, "000100")  # not whole tiles
    assert m.bgreadw(0, 0, 0) == 1  # nothing changed


def test_bgfill_bgcopy_bgclr(m: Machine) -> None:
    m.bgfill(0, 70, 2, 60, 4, 5, 1)  # clamped to 63, corners in any order
    assert m.bgread(0, 63, 3) == (5, 1, 0, 0)
    assert m.bgread(0, 60, 2) == (5, 1, 0, 0) and m.bgreadw(0, 59, 2) == 0
    m.bgcopy(0, 60, 2, 61, 3, 0, 10)
    assert m.bgread(0, 1, 11) == (5, 1, 0, 0) and m.bgreadw(0, 2, 11) == 0
    m.bgclr(0)
    assert m.bgreadw(0, 63, 3) == 0 and m.bgreadw(0, 1, 11) == 0


def test_erasing_one_bg_tile_shows_the_layer_behind(m: Machine) -> None:
    """A tile redrawn on its own (not in a bulk re-render) keeps its transparent pixels
    transparent: erasing a tile of layer 0 shows layer 1 again, not a black square."""
    m.bgfill(1, 0, 0, 63, 63, 65, 1, 0, 0)  # layer 1: a pattern everywhere
    before = m.screen_array(0)[40:48, 40:48].copy()
    m.bgput(0, 5, 5, 66, 2, 0, 0)  # one tile on layer 0 (palette 2), re-rendered alone
    assert not np.array_equal(m.screen_array(0)[40:48, 40:48], before)
    m.bgput(0, 5, 5, 0, 2, 0, 0)  # erased again: character 0 is all transparent
    assert np.array_equal(m.screen_array(0)[40:48, 40:48], before)


def test_bgofs_interpolates_and_bgchk(m: Machine) -> None:
    m.bgofs(0, 100, -40, 4)
    assert m.bgchk(0)
    m.vsync(2)
    layer = m.screens[0].bg.layers[0]
    assert (layer.ofs_x.value, layer.ofs_y.value) == (50, -20)
    m.vsync(2)
    assert not m.bgchk(0) and layer.ofs_x.value == 100


# -- §4 CHR --------------------------------------------------------------------
def test_chrset_chrread_round_trip_and_init(m: Machine) -> None:
    pattern = "0123456789ABCDEF" * 4
    m.chrset("SPU3", 200, pattern.lower())
    assert m.chrread("SPU3", 200) == pattern
    default = m.chrread("SPU4", 200)
    m.chrinit("SPU3")
    assert m.chrread("SPU3", 200) != pattern and m.chrread("SPU3", 200) != "0" * 64
    assert m.chrread("SPU4", 200) == default
    with pytest.raises(IllegalFunctionCall):
        m.chrset("SPU0", 0, "0" * 63)
    with pytest.raises(IllegalFunctionCall):
        m.chrset("SPU8", 0, "0" * 64)
    with pytest.raises(IllegalFunctionCall):
        m.chrset("SPD0U", 0, "0" * 64)  # SPD exists only on the lower screen


def test_resource_suffix_follows_page(m: Machine) -> None:
    m.bgpage(1)
    upper = m.chrread("BGU1U", 5)
    m.chrset("BGU1", 5, "F" * 64)
    assert m.chrread("BGU1L", 5) == "F" * 64
    assert m.chrread("BGU1U", 5) == upper != "F" * 64


def test_font_lives_in_bgf0_with_ink_15(m: Machine) -> None:
    from petitcom_shim import font

    glyph = font.load_font()[ord("A")]
    expected = "".join("F" if v else "0" for v in glyph.ravel())
    assert m.chrread("BGF0", ord("A")) == expected


def test_chrload_spills_into_next_bank(m: Machine, tmp_path: object) -> None:
    from pathlib import Path

    from PIL import Image

    # 2 tiles wide, 1 tall: tile 0 all 3, tile 1 all 9; loaded at tile 255 of SPU0
    pixels = np.zeros((8, 16), np.uint8)
    pixels[:, :8] = 3
    pixels[:, 8:] = 9
    image = Image.fromarray(pixels, mode="P")
    image.putpalette([0, 0, 0] * 256)
    path = Path(str(tmp_path)) / "tiles.png"
    image.save(path)
    assert m.chrload("SPU0", path, 255) == 2
    assert m.chrread("SPU0", 255) == "3" * 64
    assert m.chrread("SPU1", 0) == "9" * 64
    with pytest.raises(IllegalFunctionCall):
        m.chrload("SPU7", path, 255)  # no bank after SPU7


# -- §5 console ----------------------------------------------------------------
def _row(m: Machine, y: int, n: int = 32) -> str:
    return "".join(chr(m.chkchr(x, y)) if m.chkchr(x, y) else "." for x in range(n))


def test_print_semicolon_comma_and_trailing(m: Machine) -> None:
    m.print("AB", 12, sep=";")
    assert _row(m, 0, 6) == "AB12.."
    m.print("A", "B", sep=",")
    assert _row(m, 1, 6) == "A   B."
    m.print("X", end=";")
    m.print("Y", end=",")
    assert (m.csrx, m.csry) == (4, 2)
    m.print("Z")
    assert _row(m, 2, 6) == "XY  Z."
    m.tabstep = 8
    m.print(1, 2, sep=",")
    assert _row(m, 3, 10) == "1       2."


def test_print_numbers_like_ptc(m: Machine) -> None:
    m.print(0.5, -3, 2.0, 1.25, True, sep=",")
    assert _row(m, 0, 20) == "0.5 -3  2   1.25    "[:20].replace(" ", " ")
    m.cls()
    m.print(1 / 3)
    assert _row(m, 0, 6) == "0.333."


def test_print_wraps_and_scrolls(m: Machine) -> None:
    m.print("X" * 33)
    assert (m.csrx, m.csry) == (0, 2)
    for i in range(30):
        m.print(i)
    assert _row(m, 22, 3) == "29." and m.csry == 23
    assert m.chkchr(0, 23) == 0


def test_locate_color_cls(m: Machine) -> None:
    m.locate(40, 3)  # ignored
    assert (m.csrx, m.csry) == (0, 0)
    m.locate(30, 22)
    m.color(3, 13)
    m.print("Q", end="")
    assert m.chkchr(30, 22) == ord("Q")
    con = m.screens[0].console
    assert con.fg_cells[22, 30] == 3 and con.bg_cells[22, 30] == 13
    m.locate(31, 23)
    m.print("R", end="")  # the last cell: no scroll until the next character
    assert m.chkchr(30, 22) == ord("Q") and m.chkchr(31, 23) == ord("R")
    assert (m.csrx, m.csry) == (0, 24)
    m.print("S", end="")
    assert m.chkchr(30, 21) == ord("Q") and m.chkchr(31, 22) == ord("R")
    assert m.chkchr(0, 23) == ord("S") and (m.csrx, m.csry) == (1, 23)
    with pytest.raises(OutOfRange):
        m.color(16)
    m.cls()
    assert m.chkchr(31, 22) == 0 and (m.csrx, m.csry) == (0, 0)


def test_cpage_selects_console(m: Machine) -> None:
    m.cpage(1)
    m.print("LOW")
    m.cpage(0)
    assert m.chkchr(0, 0) == 0
    m.cpage(1)
    assert m.chkchr(0, 0) == ord("L")


def test_print_uses_ptc_charset(m: Machine) -> None:
    m.print("\u2660\uff71")  # spade, half-width katakana A
    assert (m.chkchr(0, 0), m.chkchr(1, 0)) == (0xF0, 0xB1)


# -- §2 sprites ----------------------------------------------------------------
def test_exactly_twelve_legal_sprite_sizes(m: Machine) -> None:
    assert len(LEGAL_SIZES) == 12
    for w in (8, 16, 32, 64):
        for h in (8, 16, 32, 64):
            if (w, h) in LEGAL_SIZES:
                m.spset(0, 0, 0, 0, 0, 0, w, h)
            else:
                with pytest.raises(IllegalFunctionCall):
                    m.spset(0, 0, 0, 0, 0, 0, w, h)
    assert (8, 64) not in LEGAL_SIZES and (64, 8) not in LEGAL_SIZES


def test_spofs_interpolation_restarts_from_current(m: Machine) -> None:
    m.spset(5, 0, 0, 0, 0, 0)
    m.spofs(5, 100, 0, 10)
    assert m.spchk(5) & 1
    m.vsync(5)
    assert m.spread(5).x == 50
    m.spofs(5, 0, 20, 5)  # from (50, 0)
    m.vsync(1)
    assert (m.spread(5).x, m.spread(5).y) == (40, 4)
    m.vsync(4)
    assert (m.spread(5).x, m.spread(5).y) == (0, 20) and m.spchk(5) == 0


def test_spofs_and_sphome_wrap_like_ptc(m: Machine) -> None:
    m.spset(0, 0, 0, 0, 0, 0)
    m.spofs(0, 65536, -65536)
    assert (m.spread(0).x, m.spread(0).y) == (0, 0)
    # whole numbers take SPOFS's inline path, others the general one: the same wrap
    for x, y in ((32768, -32769), (32768.5, -32769.25), (70000, 5), (-1.5, 65535)):
        m.spofs(0, x, y)
        assert (m.spread(0).x, m.spread(0).y) == (
            ((int(x // 1) & 0xFFFF) ^ 0x8000) - 0x8000,
            ((int(y // 1) & 0xFFFF) ^ 0x8000) - 0x8000,
        ), (x, y)
    m.spofs(0, 10, 20, 4)  # a move under way, then one at rest: the move is cancelled
    m.vsync(1)
    m.spofs(0, 100, 50)
    m.vsync(4)
    assert (m.spread(0).x, m.spread(0).y) == (100, 50)
    m.sphome(0, 200, -129)
    sp = m.screens[0].sprites.get(0)
    assert (sp.hx, sp.hy) == (200 - 256, 127)


def test_spangle_spscale_only_on_affine_ids(m: Machine) -> None:
    m.spset(32, 0, 0, 0, 0, 0)
    with pytest.raises(IllegalFunctionCall):
        m.spangle(32, 45)
    with pytest.raises(IllegalFunctionCall):
        m.spscale(32, 50)
    m.spset(31, 0, 0, 0, 0, 0)
    m.spangle(31, 350)
    m.spangle(31, 10, 4, 1)  # clockwise through 0: +20 degrees
    m.vsync(2)
    assert m.spread(31).angle == 0
    m.spangle(31, 300, 3, -1)  # counter-clockwise: 0 -> 300 is -60
    m.vsync(1)
    assert m.spread(31).angle == 340
    m.vsync(2)
    assert m.spread(31).angle == 300 and m.spchk(31) == 0
    m.spscale(31, 200, 4)
    m.vsync(2)
    assert m.spread(31).scale == 150 and m.spchk(31) == 4
    with pytest.raises(OutOfRange):
        m.spscale(31, 201)


def test_spanim_steps_in_16x16_units_and_loops(m: Machine) -> None:
    m.spset(1, 10, 0, 0, 0, 0, 32, 32)  # 32x32 = 4 units per step
    m.spanim(1, 3, 2, 1)
    sp = m.screens[0].sprites.get(1)
    seen = [sp.current_chr()]
    for _ in range(7):
        m.vsync(1)
        seen.append(sp.current_chr())
    assert seen == [10, 10, 14, 14, 18, 18, 18, 18]
    assert m.spchk(1) == 0 and m.spread(1).chr == 10
    m.spchr(1, 20)
    assert sp.current_chr() == 20


def test_spsetv_spgetv_and_spset_resets(m: Machine) -> None:
    m.spset(2, 0, 0, 0, 0, 0)
    m.spsetv(2, 7, 42)
    m.spofs(2, 9, 9)
    assert m.spgetv(2, 7) == 42
    m.spset(2, 1, 0, 0, 0, 0)
    assert m.spgetv(2, 7) == 0 and m.spread(2) == (0, 0, 0, 100, 1)
    with pytest.raises(OutOfRange):
        m.spgetv(2, 8)
    with pytest.raises(OutOfRange):
        m.spset(100, 0, 0, 0, 0, 0)
    m.spclr(2)
    assert not m.spexists(2)


def test_sphit_finds_lowest_overlapping_id(m: Machine) -> None:
    for sid, x in ((0, 0), (3, 40), (7, 10), (9, 12)):
        m.spset(sid, 0, 0, 0, 0, 0)
        m.spofs(sid, x, 0)
    assert m.sphit(0) and m.sphitno == 7
    assert m.sphit(0, 8) and m.sphitno == 9
    assert not m.sphit(3)
    m.spcol(7, 0, 0, 16, 16, True, 0x01)
    m.spcol(0, 0, 0, 16, 16, True, 0x02)
    assert m.sphit(0) and m.sphitno == 9  # groups 1 and 2 do not meet
    m.spofs(9, 16, 0)
    assert m.sphit(0) and m.sphitno == 9  # touching edges collide ([SBC] sprites.c is_hit)
    m.spofs(9, 17, 0)
    assert not m.sphit(0)


def test_sphit_sweep_reports_first_contact(m: Machine) -> None:
    m.spset(0, 0, 0, 0, 0, 0)
    m.spset(1, 0, 0, 0, 0, 0)
    m.spofs(0, 20, 0)
    m.spofs(1, 30, 0)
    m.spcolvec(0, 20, 0)  # came from x=0 this frame
    assert m.sphitsp(0, 1)
    assert m.sphitt == pytest.approx(0.7)  # right edge 16+14 meets 30 at t=0.7
    assert m.sphitx == pytest.approx(14) and m.sphity == 0
    assert m.sphitno == -1  # SPHITSP leaves SPHITNO alone


def test_sphitrc_and_scaled_hitbox(m: Machine) -> None:
    m.spset(4, 0, 0, 0, 0, 0)
    m.sphome(4, 8, 8)
    m.spofs(4, 100, 100)
    assert m.sphitrc(4, 107, 107, 2, 2)
    assert not m.sphitrc(4, 109, 92, 5, 5)
    m.spscale(4, 200)
    assert m.sphitrc(4, 109, 90, 5, 5)  # the box grew about the home point
    m.spcol(4, 0, 0, 16, 16, False)
    assert not m.sphitrc(4, 109, 90, 5, 5)


# -- §5 GRP --------------------------------------------------------------------
def test_line_and_circle_plot_each_pixel_once() -> None:
    xs, ys = line_points(0, 0, 5, 2)
    assert (xs[0], ys[0]) == (0, 0) and (xs[-1], ys[-1]) == (5, 2) and len(xs) == 6
    cx, cy = circle_points(10, 10, 5)
    pts = set(zip(cx.tolist(), cy.tolist(), strict=True))
    assert len(pts) == len(cx)
    assert {(15, 10), (5, 10), (10, 15), (10, 5)} <= pts


def test_gcircle_arc_is_part_of_the_outline(m: Machine) -> None:
    """GCIRCLE x,y,r,c,start,end: the outline's pixels from start to end degrees,
    clockwise on the screen from +X, ends included (docs/petitcom-decisions.md)."""
    page = m.grp_pages[0].pixels
    m.gcls(0)
    m.gcircle(100, 100, 30, 9)
    full = {(int(x), int(y)) for y, x in zip(*np.nonzero(page), strict=True)}
    m.gcls(0)
    m.gcircle(100, 100, 30, 9, 0, 90)
    arc = {(int(x), int(y)) for y, x in zip(*np.nonzero(page), strict=True)}
    assert arc < full and (130, 100) in arc and (100, 130) in arc
    assert all(x >= 100 and y >= 100 for x, y in arc)  # the lower right quarter
    m.gcls(0)
    m.gcircle(100, 100, 30, 9, 90, 0)  # from 90 on round to 0: the other three quarters
    rest = {(int(x), int(y)) for y, x in zip(*np.nonzero(page), strict=True)}
    assert rest | arc == full and rest & arc == {(130, 100), (100, 130)}
    with pytest.raises(IllegalFunctionCall):
        m.gcircle(100, 100, 30, 9, 0)


def test_gpaint_fills_region_and_stops_at_border(m: Machine) -> None:
    m.gcls(0)
    m.gbox(10, 10, 30, 30, 5)
    m.gpaint(20, 20, 7)
    page = m.grp_pages[0].pixels
    assert page[20, 20] == 7 and page[11, 11] == 7 and page[10, 10] == 5
    assert page[5, 5] == 0
    m.gcls(0)
    m.gline(0, 50, 255, 50, 3)
    m.gcircle(128, 100, 20, 9)
    m.gpaint(0, 0, 4, 9)  # border 9: the line at y=50 does not stop the fill
    assert page[0, 0] == 4 and page[50, 7] == 4 and page[191, 255] == 4
    assert page[100, 108] == 9 and page[100, 128] == 0  # the circle's inside stays


def test_gpaint_snake_region() -> None:
    machine = Machine(headless=True)
    machine.gfill(0, 0, 63, 63, 1)
    for x in range(4, 60, 8):  # walls with alternating gaps make a winding path
        gap = 1 if (x // 8) % 2 else 62
        machine.gline(x, 0, x, 63, 2)
        machine.gpset(x, gap, 1)
    machine.gpaint(0, 0, 6)
    page = machine.grp_pages[0].pixels[:64, :64]
    assert (page == 1).sum() == 0 and (page == 2).sum() > 0
    machine.close()


def test_gdrawmd_xor_and_gspoit(m: Machine) -> None:
    m.gfill(0, 0, 9, 9, 0x0F)
    m.gdrawmd(True)
    m.gbox(0, 0, 9, 9, 0xFF)
    assert m.gspoit(0, 0) == 0xF0 and m.gspoit(5, 5) == 0x0F  # corner XORed once
    m.gdrawmd(False)
    assert m.gspoit(-1, 0) == -1 and m.gspoit(256, 0) == -1


def test_gcopy_modes_and_gpage(m: Machine) -> None:
    m.gpage(0, 2, 0)
    m.gfill(0, 0, 3, 3, 8)
    m.gpset(1, 1, 0)
    m.gpage(0, 0, 0)
    m.gfill(10, 10, 20, 20, 5)
    m.gcopy(2, 0, 0, 3, 3, 10, 10, 0)
    assert m.gspoit(11, 11) == 5 and m.gspoit(10, 10) == 8  # colour 0 skipped
    m.gcopy(2, 0, 0, 3, 3, 10, 10, 1)
    assert m.gspoit(11, 11) == 0
    with pytest.raises(OutOfRange):
        m.gpage(0, 4)


def test_gputchr_copies_palette_into_col2(m: Machine) -> None:
    m.chrset("BGU0", 1, "1" * 32 + "2" * 32)
    m.colset("BG", 5 * 16 + 1, "FF0000")
    m.gputchr(0, 0, "BGU0", 1, 5, 2)
    assert m.gspoit(15, 0) == 5 * 16 + 1 and m.gspoit(0, 15) == 5 * 16 + 2
    assert m.gspoit(16, 0) == 0
    assert m.colread("GRP", 5 * 16 + 1) == (255, 0, 0)
    with pytest.raises(IllegalFunctionCall):
        m.gputchr(0, 0, "BGU0", 1, 5, 3)


# -- caches ----------------------------------------------------------------------
def _scene(m: Machine, late: bool) -> None:
    """A scene whose second half is applied after a first composition when ``late``."""
    m.chrset("BGU0", 1, "1234" * 16)
    m.chrset("BGU0", 2, "5" * 64)
    m.chrset("SPU0", 0, "9" * 64)
    m.bgfill(0, 0, 0, 40, 30, 1, 2)
    m.bgput(1, 3, 3, 2, 4)
    m.spset(0, 0, 1, 0, 0, 0)
    m.spset(1, 0, 1, 0, 0, 0, 16, 16)
    m.spangle(1, 30)
    m.spofs(1, 60, 60)
    m.print("BEFORE")
    if late:
        m.screen_surface(0)
    m.chrset("BGU0", 1, "ABCD" * 16)  # a character in use
    m.chrset("BGU0", 3, "7" * 64)  # one not in use
    m.colset("BG", 2 * 16 + 5, "00FF00")
    m.colset("SP", 16 + 9, "FF8000")
    m.chrset("SPU0", 1, "3" * 64)
    m.bgput(0, 5, 5, 2, 7, 1, 0)
    m.spchr(0, 0, 2, 0, 0, 0)
    m.color(4, 9)
    m.print("AFTER")
    m.chrset("BGF0", ord("A"), "F0" * 32)


def test_incremental_caches_match_a_fresh_render() -> None:
    fresh, late = Machine(headless=True), Machine(headless=True)
    try:
        _scene(fresh, late=False)
        _scene(late, late=True)
        assert np.array_equal(fresh.screen_array(0), late.screen_array(0))
    finally:
        fresh.close()
        late.close()


def test_reprinting_the_same_text_redraws_nothing(m: Machine) -> None:
    m.locate(0, 5)
    m.print("SCORE 120", end="")
    m.screen_surface(0)
    con = m.screens[0].console
    m.locate(0, 5)
    m.print("SCORE 120", end="")
    assert not con._dirty_cells
    m.locate(0, 5)
    m.print("SCORE 130", end="")
    assert con._dirty_cells == {(7, 5)}
    m.color(4)
    m.locate(0, 5)
    m.print("S", end="")
    assert con._dirty_cells == {(7, 5), (0, 5)}


def test_chrload_from_an_8bit_surface(m: Machine) -> None:
    import pygame

    surf = pygame.Surface((8, 16), depth=8)
    surf.set_palette([(i, i, i) for i in range(256)])
    surf.fill(5)
    surf.fill(12, pygame.Rect(0, 8, 8, 8))
    assert m.chrload("BGU2", surf, 10) == 2
    assert m.chrread("BGU2", 10) == "5" * 64 and m.chrread("BGU2", 11) == "C" * 64
    with pytest.raises(IllegalFunctionCall):
        m.chrload("BGU0", pygame.Surface((8, 8)))  # not paletted


def test_visible_sprites_off_hides_only_sprites(m: Machine) -> None:
    m.chrset("SPU0", 0, "9" * 64)
    m.spset(0, 0, 0, 0, 0, 0, 8, 8)
    m.gpset(3, 3, 4)
    m.visible(sprites=False)
    shown = m.screen_array(0)
    assert tuple(shown[1, 1]) == m.screens[0].palettes.rgb(0, 0)
    assert tuple(shown[3, 3]) == m.screens[0].palettes.rgb(2, 4)
    m.visible(sprites=True)
    assert tuple(m.screen_array(0)[1, 1]) == m.screens[0].palettes.rgb(1, 9)


def _spinner(m: Machine, screen: int, angle: int) -> None:
    m.sppage(screen)
    for t in range(4):
        m.chrset("SPU0" if screen == 0 else "SPS0", t, "0123456789ABCDEF" * 4)
    m.spset(0, 0, 2, 0, 0, 0)
    m.sphome(0, 8, 8)
    m.spofs(0, 50, 50)
    m.spangle(0, angle)
    m.spscale(0, 150)


def test_transformed_sprites_are_shared_between_screens(m: Machine) -> None:
    _spinner(m, 0, 30)
    _spinner(m, 1, 30)
    m.screen_surface(0)
    m.screen_surface(1)
    cache = m.screens[0].sprites._transforms
    assert cache is m.screens[1].sprites._transforms
    assert len(cache._looks) == 1 and len(cache._scaled) == 1  # same art, one transform
    assert np.array_equal(m.screen_array(0), m.screen_array(1))


def test_transform_cache_budget_drops_and_recovers(m: Machine) -> None:
    _spinner(m, 0, 0)
    cache = m.screens[0].sprites._transforms
    cache.BUDGET = 20_000  # a few transformed images
    for angle in range(0, 360, 7):
        m.spangle(0, angle)
        m.screen_surface(0)
    assert cache.gen > 0 and cache.bytes <= cache.BUDGET
    m.spangle(0, 45)
    fresh = Machine(headless=True)
    try:
        _spinner(fresh, 0, 45)
        assert np.array_equal(m.screen_array(0), fresh.screen_array(0))
    finally:
        fresh.close()


@given(
    st.floats(-1000, 1000), st.floats(-1000, 1000), st.integers(1, 40), st.integers(0, 50),
    st.floats(-1000, 1000), st.integers(0, 40),
)  # fmt: skip
def test_tween_array_matches_tween(
    start: float, first: float, t1: int, steps: int, second: float, t2: int
) -> None:
    from petitcom_shim.video.interp import Tween, TweenArray

    one, table = Tween(start), TweenArray([0.0, start], 3)
    table.set(1, slice(1, 2), (start,))
    for target, frames in ((first, t1), (second, t2)):
        one.set(target, frames)
        table.set(1, slice(1, 2), (target,), frames)
        for _ in range(steps):
            one.step()
            table.step()
            assert table.value[1, 1] == one.value
            assert table.value[0, 1] == start and table.value[1, 0] == 0.0  # others untouched
        assert bool(table.left[1, 1]) == one.moving


@given(
    st.lists(
        st.tuples(
            st.integers(0, 1),
            st.integers(0, 1),
            st.floats(-1000, 1000),
            st.integers(0, 6),
            st.integers(0, 5),
        ),
        max_size=30,
    )
)
def test_tween_array_cells_move_and_rest_independently(
    ops: list[tuple[int, int, float, int, int]],
) -> None:
    """Each cell of a TweenArray is its own Tween, whatever its neighbours do: a cell
    set at rest while others in its row or table move (a set at rest writes only
    the value, issue 23 item 4) and a move started after a rest."""
    from petitcom_shim.video.interp import Tween, TweenArray

    cells = {(r, c): Tween(0.0) for r in range(2) for c in range(2)}
    table = TweenArray([0.0, 0.0], 2)
    for row, col, target, frames, steps in ops:
        cells[row, col].set(target, frames)
        table.set(row, slice(col, col + 1), (target,), frames)
        for _ in range(steps):
            for tween in cells.values():
                tween.step()
            table.step()
            for (r, c), tween in cells.items():
                assert table.value[r, c] == tween.value
                assert bool(table.left[r, c]) == tween.moving


def test_bgclip_and_gcircle_validate(m: Machine) -> None:
    with pytest.raises(OutOfRange):
        m.bgclip(0, 0, 32, 23)
    with pytest.raises(OutOfRange):
        m.gcircle(10, 10, -1)
    m.bgclip(1, 1, 30, 22)
    assert [tuple(r) for r in m.screens[0].bg.clip] == [(8, 8, 240, 176)]


def test_bgclip_goes_right_and_down_from_its_first_corner_and_wraps(m: Machine) -> None:
    """[SBS] docs-ptc-bgclip: the order of the corners matters; 29,21,2,2 shows the
    3 x 3 tiles of each corner; an end one less than its start shows nothing."""
    m.bgclip(29, 21, 2, 2)
    assert sorted(tuple(r) for r in m.screens[0].bg.clip) == [
        (0, 0, 24, 24), (0, 168, 24, 24), (232, 0, 24, 24), (232, 168, 24, 24),
    ]  # fmt: skip
    m.bgfill(0, 0, 0, 31, 23, 1, 3)
    m.vsync()
    shown = m.screen_array(0)
    assert (shown[4, 4] == shown[186, 250]).all() and (shown[4, 4] != shown[96, 128]).any()
    for corners in ((1, 0, 0, 0), (0, 1, 0, 0), (31, 23, 30, 22)):
        m.bgclip(*corners)
        assert m.screens[0].bg.clip == ()
    m.bgclip(0, 0, 31, 23)
    assert [tuple(r) for r in m.screens[0].bg.clip] == [(0, 0, 256, 192)]


def test_an_empty_bg_layer_skips_its_render_and_draws_the_same() -> None:
    """A layer whose map is empty and whose character 0 is transparent is filled with
    the transparent key at once (issue 23 item 4); tiles put after that, a CHRSET of
    character 0 and a COLSET then draw exactly as when the first render was full."""

    def frames(m: Machine) -> list[npt.NDArray[np.uint8]]:
        shots = [np.concatenate([m.screen_array(0), m.screen_array(1)])]
        for change in (
            lambda: m.bgput(0, 3, 4, 5, 2, 0, 0),
            lambda: m.bgput(1, 10, 2, 7, 1, 1, 0),
            lambda: m.colset("BG", 33, "FF8000"),
            lambda: m.chrset("BGU0", 0, "12345678" * 8),  # character 0 now shows
        ):
            change()
            shots.append(np.concatenate([m.screen_array(0), m.screen_array(1)]))
        return shots

    fast, full = Machine(headless=True), Machine(headless=True)
    full.bgput(0, 0, 0, 1, 0, 0, 0)  # a map that is not empty: the full render
    full.bgput(1, 0, 0, 1, 0, 0, 0)
    full.screen_array(0), full.screen_array(1)
    full.bgput(0, 0, 0, 0, 0, 0, 0)
    full.bgput(1, 0, 0, 0, 0, 0, 0)
    for k, (a, b) in enumerate(zip(frames(fast), frames(full), strict=True)):
        assert np.array_equal(a, b), k
