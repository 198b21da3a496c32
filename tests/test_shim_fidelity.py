"""Petit Computer fidelity: behaviour a PTC programmer notices first (issue 9, part 2).

Each test names the reference it follows (source tags as in
/work/shared/spec/petitcom.md §9; decisions in docs/petitcom-decisions.md).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from petitcom_shim import Break, Button, IllegalFunctionCall, Machine, OutOfRange, PetitcomError
from petitcom_shim.numbers import to_int
from petitcom_shim.video.palette import decode_color, encode_color

#: [PEMU] data.h consolecharcolor: COLOR 0-15 as PTC shows them.
PEMU_CONSOLE = (
    (255, 255, 255), (0, 0, 0), (191, 191, 191), (255, 224, 0),
    (0, 240, 31), (0, 127, 0), (255, 203, 167), (255, 160, 0),
    (151, 94, 46), (0, 191, 255), (127, 63, 255), (0, 63, 240),
    (255, 95, 192), (255, 31, 0), (63, 63, 63), (255, 255, 255),
)  # fmt: skip


@pytest.fixture
def m() -> Iterator[Machine]:
    machine = Machine(headless=True)
    yield machine
    machine.close()


# -- colours ---------------------------------------------------------------------
def test_console_colours_are_ptc_ones(m: Machine) -> None:
    """[PEMU] consolecharcolor, held as COLSET would hold it (5-6-5 bits)."""
    for n, rgb in enumerate(PEMU_CONSOLE):
        assert m.colread("BG", 16 * n + 15) == decode_color(encode_color(*rgb))
        assert m.colread("GRP", n) == (decode_color(encode_color(*rgb)) if n else (0, 0, 0))


def test_documented_default_colour(m: Machine) -> None:
    """[WIKI] COLREAD: COLREAD("BG",20) of an untouched palette is 33,57,132."""
    assert m.colread("BG", 20) == (33, 57, 132)
    m.colset("BG", 20, "FFFFFF")
    m.colinit("BG", 20)
    assert m.colread("BG", 20) == (33, 57, 132)
    m.bgpage(1)
    assert m.colread("BG", 20) == (33, 57, 132)


# -- console ---------------------------------------------------------------------
def test_bottom_right_cell_scrolls_only_when_needed(m: Machine) -> None:
    """[SBC] console.c con_put: the wrap after the last cell does not scroll;
    the next character (or line break) does."""
    m.locate(0, 22)
    m.print("A" * 32 + "B" * 32, end="")
    assert m.chkchr(0, 22) == ord("A") and m.chkchr(31, 23) == ord("B")
    assert (m.csrx, m.csry) == (0, 24)
    m.print("C", end="")
    assert m.chkchr(0, 21) == ord("A") and m.chkchr(0, 22) == ord("B")
    assert m.chkchr(0, 23) == ord("C") and m.chkchr(1, 23) == 0
    m.locate(0, 23)
    m.print("D" * 32)  # a full last line, then PRINT's newline: an empty line follows
    assert m.chkchr(0, 21) == ord("D") and m.chkchr(0, 22) == 0 and m.chkchr(0, 23) == 0
    assert (m.csrx, m.csry) == (0, 23)


def test_cls_and_scroll_fill_with_current_color(m: Machine) -> None:
    """CLS paints every cell with the current COLOR background (issue 9); a row
    scrolled in takes the current COLOR as [SBC] con_scroll does."""
    m.color(3, 11)
    m.cls()
    con = m.screens[0].console
    assert (con.bg_cells == 11).all() and (con.codes == 0).all()
    ink = m.colread("BG", 11 * 16 + 15)
    assert (m.screen_array(0)[100, 100] == ink).all()
    m.color(0, 0)
    m.cls()
    m.color(0, 5)
    m.locate(0, 23)
    m.print("x")
    assert (con.bg_cells[23] == 5).all() and con.bg_cells[22, 0] == 5


def test_gcls_without_argument_uses_gcolor(m: Machine) -> None:
    """[SBS] docs-ptc-graphics: GCLS [c]; without c the page clears to GCOLOR."""
    m.gcolor(7)
    m.gcls()
    assert m.gspoit(0, 0) == 7 and m.gspoit(255, 191) == 7
    m.gcls(2)
    assert m.gspoit(10, 10) == 2


def test_gspoit_and_gcopy_take_an_optional_page_first(m: Machine) -> None:
    """[SBS] docs-ptc-graphics / petitcom.md §5: GSPOIT([page,]x,y) and
    GCOPY [src,]x1,y1,x2,y2,x3,y3,mode; without it, the drawing page."""
    m.gpage(0, 2, 0)
    m.gpset(1, 1, 6)
    m.gpage(0, 0, 0)
    assert m.gspoit(2, 1, 1) == 6 and m.gspoit(1, 1) == 0
    m.gpset(3, 3, 9)
    m.gcopy(0, 0, 4, 4, 100, 100, 1)  # 7 values: within the drawing page
    assert m.gspoit(103, 103) == 9
    m.gcopy(2, 0, 0, 4, 4, 50, 50, 0)  # 8 values: from page 2
    assert m.gspoit(51, 51) == 6 and m.gspoit(0, 51, 51) == 6
    with pytest.raises(IllegalFunctionCall, match="GSPOIT"):
        m.gspoit(1)
    with pytest.raises(IllegalFunctionCall, match="GCOPY"):
        m.gcopy(0, 0, 4, 4, 100, 100)


# -- numbers ---------------------------------------------------------------------
def test_to_int_rounds_toward_negative_infinity() -> None:
    """20.12 fixed point, integer part by arithmetic shift ([SBC] FP_TO_INT)."""
    assert [to_int(v) for v in (2.9, -0.5, -1.0, -0.001, 7)] == [2, -1, -1, -1, 7]
    assert to_int(2.9999999999999996) == 3  # float noise is not a PTC value
    assert to_int(-1e-9) == 0  # below 1/4096: PTC holds exactly 0


def test_verbs_floor_their_numbers(m: Machine) -> None:
    """SPOFS/BGOFS/GPSET/LOCATE take floor, not truncation ([SBC] spofs x & 0xfffff000)."""
    m.gpset(-0.5, 0.5, 9)  # x = -1: off the page
    assert m.gspoit(0, 0) == 0
    m.gpset(10.9, 5.2, 9)
    assert m.gspoit(10, 5) == 9
    m.gline(-0.5, 20, 3.5, 20, 4)
    assert [m.gspoit(x, 20) for x in range(5)] == [4, 4, 4, 4, 0]
    m.spset(0, 0, 0, 0, 0, 0)
    m.spofs(0, -0.5, 2.75)
    assert m.spread(0)[:2] == (-1, 2)
    m.bgofs(0, -0.5, 1.5)
    layer = m.screens[0].bg.layer(0)
    assert (layer.ofs_x.value, layer.ofs_y.value) == (-1, 1)
    m.locate(1.9, -0.5)  # y = -1: ignored like any LOCATE outside the console
    assert (m.csrx, m.csry) == (0, 0)
    m.locate(1.9, 2.1)
    assert (m.csrx, m.csry) == (1, 2)
    m.bgput(0, -0.5, 0, 5)  # x = -1 wraps to 63
    assert m.bgread(0, 63, 0)[0] == 5
    m.spset(2.7, 3.5, 1.2, 0, 0, 1.9)  # ids and looks floor too
    assert m.spexists(2) and m.spread(2.2).chr == 3
    assert m.screens[0].sprites.get(2).prio == 1
    m.spsetv(2, 7.9, 5)
    assert m.spgetv(2, 7) == 5
    m.spclr(2.5)
    assert not m.spexists(2)


def test_spread_reports_whole_pixels_and_spangle_whole_degrees(m: Machine) -> None:
    """[SBC] cmd_spread FP_TO_INT / [EMK] spread_ floor; SPANGLE's angle is an
    integer in both ([SBC] STACK_INT, [EMK] "rounds down always")."""
    m.spset(0, 0, 0, 0, 0, 0)
    m.spofs(0, 10, -10, 4)
    m.vsync(1)
    assert m.spread(0)[:2] == (2, -3)  # exactly 2.5, -2.5 mid-move
    assert m.screens[0].sprites.position(0) == (2.5, -2.5)
    m.spangle(0, 45.9)
    assert m.spread(0).angle == 45
    m.spangle(0, -0.5)
    assert m.spread(0).angle == 359


# -- errors ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "verb",
    [
        lambda m: m.spofs(4, 1, 1),
        lambda m: m.sphome(4, 1, 1),
        lambda m: m.spangle(4, 90),
        lambda m: m.spscale(4, 50),
        lambda m: m.spcol(4, 0, 0, 8, 8),
        lambda m: m.spsetv(4, 0, 1),
        lambda m: m.spgetv(4, 0),
    ],
)
def test_sprite_used_before_spset_is_illegal(m: Machine, verb: object) -> None:
    """[SBC] sprites.c: SPOFS, SPHOME, SPANGLE, SPSCALE, SPCOL, SPSETV, SPGETV on an
    inactive sprite stop with ERR_ILLEGAL_FUNCTION_CALL."""
    with pytest.raises(IllegalFunctionCall, match=r"^Illegal function call: "):
        verb(m)  # type: ignore[operator]
    m.spset(4, 0, 0, 0, 0, 0)
    verb(m)  # type: ignore[operator]


def test_spchr_takes_all_or_none_of_its_options(m: Machine) -> None:
    """[WIKI] SPCHR / [SBC] cmd_spchr: id,chr or id,chr,pal,h,v,prio."""
    m.spset(0, 0, 0, 0, 0, 0)
    with pytest.raises(IllegalFunctionCall, match="SPCHR"):
        m.spchr(0, 1, 2)
    with pytest.raises(IllegalFunctionCall):
        m.spchr(0, 1, 2, 0, 0)
    assert m.spread(0).chr == 0  # nothing changed
    m.spchr(0, 1, 2, 1, 0, 3)
    m.spchr(0, 5)
    assert m.spread(0).chr == 5


def test_lower_screen_sprite_characters_stop_at_117(m: Machine) -> None:
    """[WIKI] SPCHR, [SBC] cmd_spchr: chr 0-511 on the upper screen, 0-117 on the lower."""
    m.spset(0, 511, 0, 0, 0, 0)
    m.sppage(1)
    m.spset(0, 117, 0, 0, 0, 0)
    with pytest.raises(OutOfRange, match="117"):
        m.spset(1, 118, 0, 0, 0, 0)
    with pytest.raises(OutOfRange):
        m.spchr(0, 118)
    assert m.spread(0).chr == 117


def test_errors_carry_the_ptc_message(m: Machine) -> None:
    """[PEMU] data.c GetErrorMessage: "Out of range", "Illegal function call"."""
    with pytest.raises(OutOfRange) as out:
        m.spset(100, 0, 0, 0, 0, 0)
    assert str(out.value).startswith("Out of range: ")
    with pytest.raises(OutOfRange, match=r"^Out of range: SPCOL w 256"):
        m.spset(1, 0, 0, 0, 0, 0)
        m.spcol(1, 0, 0, 256, 8)
    with pytest.raises(IllegalFunctionCall, match=r"^Illegal function call: sprite size"):
        m.spset(0, 0, 0, 0, 0, 0, 8, 64)


# -- sprites ---------------------------------------------------------------------
def test_equal_priority_higher_id_in_front(m: Machine) -> None:
    """[EMK] Visual::draw and [SBC] display_draw_all draw ids 0..99 in order."""
    m.chrset("SPU0", 0, "1" * 64)
    m.chrset("SPU0", 4, "2" * 64)
    m.spset(10, 0, 0, 0, 0, 1, 8, 8)
    m.spset(3, 1, 0, 0, 0, 1, 8, 8)
    m.spset(60, 1, 0, 0, 0, 2, 8, 8)  # a lower priority stays behind
    for sid in (10, 3, 60):
        m.spofs(sid, 50, 50)
    got = m.screen_array(0)[52, 52]
    assert np.array_equal(got, m.colread("SP", 1))


# -- SELECT ----------------------------------------------------------------------
def test_select_breaks_only_when_the_program_opts_in() -> None:
    """[WIKI] BUTTON / [SBC] ERR_BREAK: SELECT stops a PTC program; opt-in here."""
    plain = Machine(headless=True)
    strict = Machine(headless=True, select_break=True)
    try:
        for machine in (plain, strict):
            machine.input.press(Button.SELECT)
        plain.vsync()
        assert plain.button() & Button.SELECT
        with pytest.raises(Break, match=r"^Break$"):
            strict.vsync()
        strict.vsync()  # still held: it broke once, on the press
        plain.select_break = True
        plain.input.release(Button.SELECT)
        plain.vsync()
        plain.input.press(Button.SELECT)
        with pytest.raises(Break):
            plain.vsync()
    finally:
        plain.close()
        strict.close()


def test_other_shim_errors_keep_their_own_message() -> None:
    """Only PTC's own errors get PTC's name in front."""

    class Other(PetitcomError):
        pass

    assert str(Other("a file is damaged")) == "a file is damaged"
    assert str(OutOfRange("x")) == "Out of range: x"
