"""Tests of the Machine frame loop, pages, visibility, ACLS and screenshots (docs/shim-api.md)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from petitcom_shim import Button, IllegalFunctionCall, Machine, OutOfRange
from petitcom_shim.machine import MAINCNTL_WRAP


@pytest.fixture
def m() -> Iterator[Machine]:
    machine = Machine(headless=True, seed=3)
    yield machine
    machine.close()


def test_headless_defaults_to_step_mode(m: Machine) -> None:
    assert m.realtime is False and m.running
    assert Machine(headless=True, realtime=True).realtime is True


def test_maincntl_counts_frames_and_wraps(m: Machine) -> None:
    assert m.maincntl == 0
    m.vsync(3)
    m.wait(2)
    m.step()
    assert m.maincntl == 6
    m._frames = MAINCNTL_WRAP - 1
    m.vsync(2)
    assert (m.maincntl, m.maincnth) == (1, 1)


def test_rnd_is_seeded_and_in_range() -> None:
    a, b = Machine(headless=True, seed=11), Machine(headless=True, seed=11)
    draws = [a.rnd(52) for _ in range(200)]
    assert draws == [b.rnd(52) for _ in range(200)]
    assert min(draws) >= 0 and max(draws) <= 51 and len(set(draws)) > 30
    assert a.rnd(0) == 0


def test_input_is_latched_per_frame(m: Machine) -> None:
    m.input.press(Button.A | Button.LEFT)
    assert m.button() == 0  # not latched until the next frame
    m.vsync()
    assert m.button() == Button.A | Button.LEFT
    assert m.button(2) == Button.A | Button.LEFT and m.btrig() == Button.A | Button.LEFT
    m.vsync()
    assert m.button(2) == 0
    m.input.release(Button.A)
    m.input.touch(100, 50)
    m.vsync()
    assert m.button(3) == Button.A
    assert (m.tchst, m.tchx, m.tchy, m.tchtime) == (1, 100, 50, 1)
    m.input.untouch()
    m.vsync()
    assert (m.tchst, m.tchx, m.tchtime) == (0, 100, 0)


def test_pages_are_validated(m: Machine) -> None:
    for verb in (m.cpage, m.bgpage, m.sppage, m.gpage):
        with pytest.raises(OutOfRange):
            verb(2)


def test_sppage_selects_screen_and_lower_bank(m: Machine) -> None:
    m.sppage(1)
    m.chrset("SPS0", 0, "D" * 64)  # SPS0L: the lower screen's sprite bank
    for t in range(1, 4):
        m.chrset("SPS0", t, "D" * 64)
    m.spset(0, 0, 0, 0, 0, 0)
    m.spofs(0, 10, 10)
    m.sppage(0)
    assert not m.spexists(0)
    bottom = m.screen_array(1)
    assert tuple(bottom[10, 10]) == m.screens[1].palettes.rgb(1, 13)
    m.sppage(1)
    with pytest.raises(OutOfRange):
        m.spset(1, 128, 0, 0, 0, 0)  # the lower screen has chr 0-127


def test_visible_hides_layers(m: Machine) -> None:
    m.chrset("BGU0", 1, "4" * 64)
    m.bgfill(0, 0, 0, 31, 23, 1, 0)
    m.gfill(0, 0, 255, 191, 13)
    shown = m.screen_array(0)
    assert tuple(shown[0, 0]) == m.screens[0].palettes.rgb(0, 4)
    m.visible(bg0=False)
    assert tuple(m.screen_array(0)[0, 0]) == m.screens[0].palettes.rgb(2, 13)
    m.visible(graphics=False)
    assert tuple(m.screen_array(0)[0, 0]) == m.screens[0].palettes.rgb(0, 0)
    m.visible(None, None, True)
    assert np.array_equal(m.screen_array(0), m.screen_array(0))
    assert tuple(m.screen_array(0)[0, 0]) == m.screens[0].palettes.rgb(0, 4)


def test_gprio_moves_grp_between_layers(m: Machine) -> None:
    m.chrset("BGU0", 1, "4" * 64)
    m.bgput(0, 0, 0, 1, 0)
    m.gpset(0, 0, 13)
    bg_colour = m.screens[0].palettes.rgb(0, 4)
    grp_colour = m.screens[0].palettes.rgb(2, 13)
    assert tuple(m.screen_array(0)[0, 0]) == bg_colour  # default GPRIO 3: behind BG
    m.gprio(0)
    assert tuple(m.screen_array(0)[0, 0]) == grp_colour
    with pytest.raises(OutOfRange):
        m.gprio(4)


def test_grp_pages_are_shared_by_both_screens(m: Machine) -> None:
    m.gpage(1, 1, 1)
    m.gpset(5, 5, 9)
    m.gpage(0, 0, 1)  # the top screen now displays page 1 too
    assert tuple(m.screen_array(0)[5, 5]) == m.screens[0].palettes.rgb(2, 9)
    m.colset("GRP", 9, "FF0000")
    assert tuple(m.screen_array(0)[5, 5]) == (255, 0, 0)
    assert tuple(m.screen_array(1)[5, 5]) != (255, 0, 0)  # COL2 is per screen


def test_acls_resets_visuals_but_not_chr(m: Machine) -> None:
    m.chrset("BGU0", 1, "4" * 64)
    m.bgput(0, 1, 1, 1, 0)
    m.bgofs(0, 9, 9)
    m.spset(3, 0, 0, 0, 0, 0)
    m.print("HI")
    m.gpset(1, 1, 5)
    m.colset("BG", 4, "FF0000")
    m.visible(False, False, False, False, False, False)
    m.gdrawmd(True)
    m.acls()
    assert m.bgreadw(0, 1, 1) == 0 and not m.spexists(3) and m.chkchr(0, 0) == 0
    assert m.gspoit(1, 1) == 0 and m.colread("BG", 4) != (255, 0, 0)
    assert m.vis.bg0 and m.vis.console
    assert m.chrread("BGU0", 1) == "4" * 64
    m.gpset(2, 2, 5)
    assert m.gspoit(2, 2) == 5  # GDRAWMD back to normal drawing


def test_screenshot_scales_and_stacks(m: Machine, tmp_path: Path) -> None:
    m.gfill(0, 0, 9, 9, 13)
    m.cpage(1)
    m.print("LOWER")
    m.screenshot(tmp_path / "top.png", screen=0)
    m.screenshot(tmp_path / "top3.png", screen=0, scale=3)
    m.screenshot(tmp_path / "both.png")
    top = np.asarray(Image.open(tmp_path / "top.png").convert("RGB"))
    top3 = np.asarray(Image.open(tmp_path / "top3.png").convert("RGB"))
    both = np.asarray(Image.open(tmp_path / "both.png").convert("RGB"))
    assert top.shape == (192, 256, 3) and top3.shape == (576, 768, 3)
    assert np.array_equal(top3, top.repeat(3, axis=0).repeat(3, axis=1))
    assert np.array_equal(both[:192], top) and np.array_equal(both[192:], m.screen_array(1))
    with pytest.raises(OutOfRange):
        m.screenshot(tmp_path / "bad.png", scale=0)


def test_screen_surface_is_256x192(m: Machine) -> None:
    assert m.screen_surface(0).get_size() == (256, 192)
    assert m.screen_array(1).shape == (192, 256, 3)
    with pytest.raises(OutOfRange):
        m.screen_surface(2)


def test_errors_are_value_errors() -> None:
    assert issubclass(IllegalFunctionCall, ValueError) and issubclass(OutOfRange, ValueError)


def test_close_stops_running(m: Machine) -> None:
    m.close()
    assert not m.running


def test_print_codes_is_print_staying_on_the_line() -> None:
    """``print_codes`` (the interpreter's PRINT of one item) leaves the console as
    ``print(codes, end="")`` does: fitting runs, wraps, the bottom-right cell, scrolls."""
    runs = [b"HI", b"X" * 31, b"\r\x0a", b"Y" * 40, b"", b"Z" * 200, b"END", b"Q" * 29]
    a, b = Machine(headless=True), Machine(headless=True)
    for m in (a, b):
        m.color(3, 5)
    for codes in runs:
        a.print_codes(codes)
        b.print(codes, end="")
        con_a, con_b = a.screens[0].console, b.screens[0].console
        assert (con_a.csrx, con_a.csry) == (con_b.csrx, con_b.csry)
        assert (con_a.codes == con_b.codes).all() and (con_a.fg_cells == con_b.fg_cells).all()
        assert (con_a.bg_cells == con_b.bg_cells).all()
