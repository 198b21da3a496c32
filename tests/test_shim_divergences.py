"""Divergences from the reference emulators found in review (issue 15 item 4).

Each test names its reference: [SBC] = Minxrod/sbc (source file and function, or
its tests/ where the fact is checked there), [WIKI] = the Petit Computer wiki.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from petitcom_shim import Machine, OutOfRange


@pytest.fixture
def m() -> Iterator[Machine]:
    machine = Machine(headless=True)
    yield machine
    machine.close()


def row(m: Machine, y: int) -> str:
    return "".join(chr(c) if (c := m.chkchr(x, y)) else "." for x in range(32))


def test_tab_from_column_28_overwrites_the_rest_of_the_line(m: Machine) -> None:
    """[SBC] console.c ``cmd_print``: ``,`` writes spaces until the next stop, so from
    column 29 it overwrites 29-31 and wraps; tests/test_console.c "the stupid corner"."""
    m.locate(0, 5)
    m.print("X" * 32, end="")  # row 5 full of X, cursor on row 6
    m.locate(28, 5)
    m.print("0", end=",")
    assert row(m, 5) == "X" * 28 + "0   "
    assert (m.csrx, m.csry) == (0, 6)


def test_tab_in_the_bottom_right_corner_does_not_scroll_yet(m: Machine) -> None:
    """[SBC] tests/test_console.c: LOCATE 28,23 ?0, keeps 0 at (28,23); a following
    ?1; scrolls once, leaving 0 at (28,22) and 1 at (0,23)."""
    m.locate(28, 23)
    m.print(0, end=",")
    assert m.chkchr(28, 23) == ord("0")
    m.print(1, end=";")
    assert m.chkchr(28, 22) == ord("0") and m.chkchr(0, 23) == ord("1")


def test_chkchr_off_the_console_is_minus_one(m: Machine) -> None:
    """[SBC] console.c ``func_chkchr`` returns -1 outside 0-31 x 0-23."""
    m.print("A")
    assert m.chkchr(0, 0) == ord("A")
    assert [m.chkchr(*p) for p in ((-1, 0), (32, 0), (0, 24), (0, -1))] == [-1] * 4
    assert m.chkchr(0.5, 0.9) == ord("A")  # coordinates are floored like every verb


def test_touching_sprite_boxes_collide(m: Machine) -> None:
    """[SBC] sprites.c ``is_hit``: a projection counts while ``min <= d <= max``."""
    m.spset(0, 0, 0, 0, 0, 0)
    m.spset(1, 0, 0, 0, 0, 0)
    m.spofs(1, 16, 16)  # corner to corner
    assert m.sphit(0) and m.sphitno == 1
    assert m.sphitsp(0, 1)
    m.spofs(1, 16, 17)
    assert not m.sphit(0) and not m.sphitsp(0, 1)
    assert m.sphitrc(0, 16, 0, 4, 4) and not m.sphitrc(0, 17, 0, 4, 4)


def test_gcolor_is_one_value_for_both_screens(m: Machine) -> None:
    """[SBC] graphics.c ``cmd_gcolor`` stores one ``graphics.color`` (0-255)."""
    m.gpage(0)
    m.gcolor(9)
    m.gpage(1)
    m.gpset(5, 5)
    assert m.gspoit(5, 5) == 9
    with pytest.raises(OutOfRange):
        m.gcolor(256)
    m.acls()
    m.gpset(6, 6)
    assert m.gspoit(6, 6) == 0


def test_bgread_hex_string_form(m: Machine) -> None:
    """[WIKI] BGREAD: after BGPUT 0,3,6,123,4,0,1 the tile reads 18555 = &H487B."""
    m.bgput(0, 3, 6, 123, 4, 0, 1)
    assert m.bgreadw(0, 3, 6) == 18555
    assert m.bgreadh(0, 3, 6) == "487B"
    m.bgput(1, 0, 0, "00a5")
    assert m.bgreadh(1, 0, 0) == "00A5"


def test_spofs_tween_lands_where_ptc_lands(m: Machine) -> None:
    """[SBC] sprites.c ``cmd_spofs``/``step_sprites``: step = distance / t in 20.12
    fixed point, cut toward zero; tests/test_sprite.c: 0 to 64 over 4 is 16 a frame."""
    m.spset(0, 0, 0, 0, 0, 0)
    m.spofs(0, 64, 0, 4)
    xs = []
    for _ in range(4):
        m.vsync()
        xs.append(m.spread(0)[0])
    assert xs == [16, 32, 48, 64]
    m.spofs(0, 0, 0)
    m.spofs(0, 100, -100, 3)  # 100/3 is not exact: 3 steps end 3/4096 short
    m.vsync(3)
    assert m.spread(0)[:2] == (99, -100)  # floors: 99.9993 -> 99, -99.9993 -> -100
    assert m.spchk(0) & 1 == 0


def test_bgofs_tween_steps_in_fixed_point_too(m: Machine) -> None:
    """[SBC] background.c ``cmd_bgofs``: the step is the distance / t, cut toward zero."""
    m.bgofs(0, 64, 0, 4)
    m.vsync(4)
    assert m.screens[0].bg.layers[0].ofs_x.value == 64 and not m.bgchk(0)
    m.bgofs(0, 0, 0)
    m.bgofs(0, 10, 0, 3)
    m.vsync(3)
    assert 10 - 3 / 4096 <= m.screens[0].bg.layers[0].ofs_x.value < 10
