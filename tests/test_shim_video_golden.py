"""Pixel-exact golden images of small shim scenes (petitcom.md §1.3 layer order, §2, §3).

Regenerate with ``pytest --update-golden`` after an intended change, and look
at the PNGs under tests/golden before committing them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from petitcom_shim import Machine

Golden = Callable[[str, object], None]

# An asymmetric 8x8 "flag" so flips are visible: a bar on the left, a notch top right.
FLAG = "1111111112222333122223331222200012222000120000001200000012000000"
SOLID = {n: f"{n:X}" * 64 for n in range(1, 16)}
RING = "0FFFFFF0" + "F000000F" * 6 + "0FFFFFF0"


@pytest.fixture
def m() -> Iterator[Machine]:
    machine = Machine(headless=True, seed=0)
    yield machine
    machine.close()


def _sprite_tiles(m: Machine, bank: str = "SPU0") -> None:
    """chr 0: FLAG in all four tiles; chr 1: solid colour 9 (4 tiles); chr 2: ring."""
    for t in range(4):
        m.chrset(bank, t, FLAG)
        m.chrset(bank, 4 + t, SOLID[9])
        m.chrset(bank, 8 + t, RING)


def test_golden_layer_priority(m: Machine, golden: Golden) -> None:
    """Back to front: backdrop, sprite p3, BG1, GRP (2), sprite p2, BG0, sprite p1,
    console, sprite p0."""
    m.colset("BG", 0, "203040")  # backdrop = COL0 colour 0
    m.chrset("BGU0", 1, SOLID[4])
    m.chrset("BGU0", 2, SOLID[6])
    _sprite_tiles(m)
    m.bgfill(1, 2, 2, 13, 13, 1, 5)  # BG1: palette 5 block
    m.bgfill(0, 8, 8, 19, 19, 2, 9)  # BG0: palette 9 block
    m.gprio(2)
    m.gfill(40, 40, 120, 70, 13)  # GRP between BG1 and BG0
    for sid, prio, x in ((0, 3, 4), (1, 2, 44), (2, 1, 84), (3, 0, 124)):
        m.spset(sid, 1, 2 + sid, 0, 0, prio)
        m.spofs(sid, x, 56)
    m.locate(10, 7)
    m.color(1, 3)
    m.print("CONSOLE TEXT")
    golden("shim_layer_priority", m.screen_array(0))


def test_golden_equal_priority_higher_id_in_front(m: Machine, golden: Golden) -> None:
    """Equal priority: the higher id is drawn over the lower, as both emulators
    draw ([EMK] Visual::draw, [SBC] display_draw_all; docs/petitcom-decisions.md)."""
    _sprite_tiles(m)
    for sid in range(6):
        m.spset(sid, 1, sid + 1, 0, 0, 1)
        m.spofs(sid, 40 + sid * 8, 40 + sid * 8)
    m.spset(50, 2, 13, 0, 0, 1, 16, 16)
    m.spofs(50, 44, 44)  # id 50 is in front of ids 0-5
    golden("shim_sprite_equal_priority", m.screen_array(0))


def test_golden_flips(m: Machine, golden: Golden) -> None:
    _sprite_tiles(m)
    m.chrset("BGU0", 3, FLAG)
    for i, (h, v) in enumerate(((0, 0), (1, 0), (0, 1), (1, 1))):
        m.spset(i, 0, 1, h, v, 0, 16, 16)
        m.spofs(i, 16 + 40 * i, 16)
        m.bgput(0, 2 + 5 * i, 6, 3, 1, h, v)
    # an 8x32 sprite flipped: the tile order reverses too
    for t in range(4):
        m.chrset("SPU0", 16 + t, SOLID[1 + 3 * t])
    m.spset(10, 4, 0, 0, 1, 0, 8, 32)
    m.spofs(10, 200, 10)
    golden("shim_flips", m.screen_array(0))


def test_golden_palettes(m: Machine, golden: Golden) -> None:
    for n in range(1, 16):
        m.chrset("BGU0", n, SOLID[n])
    for pal in range(16):
        for n in range(1, 16):
            m.bgput(0, n + 8, pal + 2, n, pal)
    m.colset("BG", 3 * 16 + 7, "FF00FF")  # one edited colour
    m.bgpage(1)
    m.chrset("BGU0", 1, SOLID[15])
    m.bgfill(0, 0, 0, 31, 23, 1, 2)  # lower screen: its own BGU/COL0
    golden("shim_palettes_top", m.screen_array(0))
    golden("shim_palettes_bottom", m.screen_array(1))


def test_golden_bg_scroll_wrap(m: Machine, golden: Golden) -> None:
    for n in range(1, 5):
        m.chrset("BGU0", n, SOLID[n * 3])
    m.chrset("BGU0", 5, RING)
    m.bgfill(1, 0, 0, 63, 63, 5, 0)
    m.bgfill(1, 0, 0, 0, 63, 1, 0)  # first column
    m.bgfill(1, 63, 0, 63, 63, 2, 0)  # last column
    m.bgfill(1, 0, 63, 63, 63, 3, 0)  # last row
    m.bgput(0, 0, 0, 4, 0)
    m.bgofs(1, 500, 504)  # the 512 px seam crosses the screen
    m.bgofs(0, -20, -10)
    m.bgclip(1, 1, 30, 22)
    golden("shim_bg_scroll_wrap", m.screen_array(0))


def test_golden_rotation_and_scale(m: Machine, golden: Golden) -> None:
    _sprite_tiles(m)
    cases = [(0, 100), (45, 100), (90, 100), (180, 100), (30, 50), (0, 200), (90, 150), (300, 200)]
    for sid, (angle, scale) in enumerate(cases):
        m.spset(sid, 0, 1, 0, 0, 0, 16, 16)
        m.sphome(sid, 8, 8)
        m.spofs(sid, 30 + (sid % 4) * 60, 50 + (sid // 4) * 80)
        m.spangle(sid, angle)
        m.spscale(sid, scale)
    m.gfill(0, 0, 255, 191, 11)  # a blue page behind, with the home points marked
    for sid in range(8):
        x, y = 30 + (sid % 4) * 60, 50 + (sid // 4) * 80
        m.gpset(x, y, 13)
    m.gprio(3)
    golden("shim_rotate_scale", m.screen_array(0))


def test_golden_console_colours(m: Machine, golden: Golden) -> None:
    for n in range(16):
        m.color(n, (n + 8) % 16)
        m.print(f"COLOR {n:2d} ", end="")
        m.color(n, 0)
        m.print("\u30a2\u30a4\u2660\u2665\u2666\u2663")
    m.visible(console=False)
    hidden = m.screen_array(0)
    m.visible(console=True)
    golden("shim_console_colours", m.screen_array(0))
    golden("shim_console_hidden_text", hidden)
