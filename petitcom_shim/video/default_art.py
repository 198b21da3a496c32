"""The shim's own default CHR art: what BG and sprite banks hold before a program
changes them, when no user-supplied ROM resources are given.

On Petit Computer every CHR bank starts with SmileBoom's art; a program that draws
with a default character without defining it first shows something. The shim may
not ship that art (docs/petitcom-decisions.md), so it draws its own, generated
here from simple rules so that there is no image file to keep:

* BG banks (BGU0-BGU3, BGD0-BGD1): tile ``16*p + v`` is pattern ``p`` (solid,
  checkers, stripes, bricks, frame, dots, ...) drawn in pixel value ``v``; so tile
  0 is blank and tile 15 is solid in value 15 (the tile COLOR's background cells
  use, petitcom.md §1.2). BGU1 and BGU3 draw the patterns in two tones.
* Sprite banks (SPU0-SPU7, SPS0-SPS1, SPD0-SPD3): character ``16*s + v`` (16x16,
  four tiles in 1-D order) is shape ``s`` (a frame, circle, box, diamond,
  triangles, arrows, star, heart, ...) in pixel value ``v``; some banks draw the
  shapes as outlines. Pixel value 0 is transparent, so the characters ``16*s``
  (``v`` = 0) show the shape's outline in value 15 instead (dotted in the outline
  banks): every default sprite character shows something, and ``SPSET
  0,64,0,0,0,0``, a line of countless listings, draws a shape (issue 26).

Pure numpy; :func:`default_bank` is cached and returns read-only arrays.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

__all__ = ["default_bank"]

_Grid = npt.NDArray[np.bool_]

#: Pixel value 0 is transparent in sprites (and BG layers above the backdrop).
TRANSPARENT = 0
#: The value the characters ``16*s`` (whose own value, 0, is transparent) are drawn in.
ZERO_OUTLINE = 15

_Y8, _X8 = np.mgrid[0:8, 0:8]
_Y16, _X16 = np.mgrid[0:16, 0:16]


def _tile_patterns() -> list[_Grid]:
    """16 8x8 patterns (True = ink)."""
    x, y = _X8, _Y8
    return [
        np.ones((8, 8), bool),  # solid
        (x + y) % 2 == 0,  # fine checkers
        ((x // 4) + (y // 4)) % 2 == 0,  # big checkers
        y % 2 == 0,  # horizontal stripes
        x % 2 == 0,  # vertical stripes
        (x == 0) | (y == 0) | (x == 7) | (y == 7),  # frame
        (y % 4 == 3) | (x == np.where(y < 4, 0, 4)),  # bricks
        (x % 4 == 1) & (y % 4 == 1),  # dots
        x == y,  # diagonal
        (x == 3) | (y == 3),  # cross
        (x - 3.5) ** 2 + (y - 3.5) ** 2 <= 12.5,  # disc
        y >= 4,  # lower half
        x < 4,  # left half
        abs(x - 3.5) + abs(y - 3.5) <= 4,  # diamond
        (x % 4 == 0) | (y % 4 == 0),  # grid
        y >= 7 - x,  # slope
    ]


@functools.cache
def _shapes() -> list[_Grid]:
    """16 16x16 filled shapes (True = ink); shape 0 is a square frame. Made once (the
    four kinds of sprite bank share them); callers do not change the list."""
    x, y = _X16 + 0.5, _Y16 + 0.5
    cx = cy = 8.0
    dx, dy = x - cx, y - cy
    r2 = dx**2 + dy**2
    heart = ((x - 5) ** 2 + (y - 6) ** 2 <= 10) | ((x - 11) ** 2 + (y - 6) ** 2 <= 10)
    heart |= (y >= 6) & (abs(dx) <= (14 - y))
    angle = np.arctan2(dy, dx)
    star = np.sqrt(r2) <= 3.5 + 3.5 * np.abs(np.cos(2.5 * angle))
    return [
        (abs(dx) <= 7.5) & (abs(dy) <= 7.5) & ((abs(dx) >= 6.5) | (abs(dy) >= 6.5)),  # frame
        r2 <= 49,  # circle
        (abs(dx) <= 6.5) & (abs(dy) <= 6.5),  # box
        abs(dx) + abs(dy) <= 7.5,  # diamond
        (y >= 2) & (y <= 14) & (abs(dx) <= (y - 2) / 2 + 0.5),  # triangle up
        (y >= 2) & (y <= 14) & (abs(dx) <= (14 - y) / 2 + 0.5),  # triangle down
        (x >= 2) & (x <= 14) & (abs(dy) <= (14 - x) / 2 + 0.5),  # triangle left
        (x >= 2) & (x <= 14) & (abs(dy) <= (x - 2) / 2 + 0.5),  # triangle right
        (abs(dx) <= 2) | (abs(dy) <= 2),  # plus
        (abs(dx - dy) <= 2.5) | (abs(dx + dy) <= 2.5),  # cross
        star,  # star
        heart & (y <= 15),  # heart
        (r2 <= 49) & (r2 >= 16),  # ring
        (abs(dx) <= 7) & (abs(dy) <= 3),  # bar
        ((abs(dx) <= 2) & (y >= 6)) | ((y >= 1) & (y < 8) & (abs(dx) <= y - 1)),  # arrow up
        (abs(dx) <= 6.5) & (abs(dy) <= 6.5) & ((_X16 + _Y16) % 2 == 0),  # mesh
    ]


def _outline(shape: _Grid) -> _Grid:
    """The edge pixels of a shape: ink with a 4-neighbour outside it."""
    padded = np.pad(shape, 1)
    inner = padded[1:-1, :-2] & padded[1:-1, 2:] & padded[:-2, 1:-1] & padded[2:, 1:-1]
    out: _Grid = shape & ~inner
    return out


@functools.cache
def _bg_bank(two_tone: bool) -> npt.NDArray[np.uint8]:
    """A BG bank: tile ``16*p + v`` is pattern ``p`` in value ``v`` (``two_tone``: its
    background in ``v - 4``, at least 1). Made at once for all 256 tiles, and once
    per kind (four of the six BG banks are plain)."""
    patterns = np.array(_tile_patterns())[:, None]  # (16 patterns, 1, 8, 8)
    values = np.arange(16)
    shades = np.maximum(values - 4, 1) * (values != 0) if two_tone else np.zeros(16, np.intp)
    tiles = np.where(patterns, values[:, None, None], shades[:, None, None])  # (16, 16, 8, 8)
    out = tiles.reshape(256, 8, 8).astype(np.uint8)
    out.setflags(write=False)
    return out


@functools.cache
def _outlines(first: int) -> list[_Grid]:
    """The outlines of shapes ``first``..``first + 7`` (both kinds of bank use them)."""
    return [_outline(shape) for shape in _shapes()[first : first + 8]]


@functools.cache
def _sprite_banks(first: int, outline: bool) -> npt.NDArray[np.uint8]:
    """Two banks (128 16x16 characters = 512 tiles): shapes ``first``..``first + 7``,
    each in the 16 pixel values; ``outline`` draws their edges only.

    Made once per pair (both banks of a pair, and SPU/SPS/SPD, share them) and
    each shape outlined once: making them was 40 % of ``petitcom run``'s start-up.
    """
    shapes = _shapes()[first : first + 8]
    edges = _outlines(first)
    grids = np.array(edges if outline else shapes)[:, None]  # (8 shapes, 1, 16, 16)
    # the shape in value 0 would not show: its outline in 15 (dotted in the outline banks)
    zero_grids = [edge & ((_X16 + _Y16) % 2 == 0) for edge in edges] if outline else edges
    # character 16*s + v is shape s in value v, all 128 at once
    images = np.where(grids, np.arange(16)[:, None, None], 0).astype(np.uint8)  # (8, 16, ...)
    images[:, TRANSPARENT] = np.where(np.array(zero_grids), ZERO_OUTLINE, 0)
    # each 16x16 character as four tiles: top left, top right, bottom left, bottom right
    tiles = images.reshape(128, 2, 8, 2, 8).swapaxes(2, 3).reshape(512, 8, 8)
    tiles.setflags(write=False)
    return tiles


def _pair(first: int, outline: bool, bank: int) -> npt.NDArray[np.uint8]:
    """Bank ``bank`` (0 or 1 of a pair) of :func:`_sprite_banks`."""
    half = bank % 2
    return _sprite_banks(first, outline)[256 * half : 256 * (half + 1)]


#: family -> bank number -> tiles. SPU0-1 filled shapes 0-7, SPU2-3 filled 8-15,
#: SPU4-5 and SPU6-7 the same as outlines; SPS as SPU0-1; SPD0-1 filled 8-15,
#: SPD2-3 outlined 0-7.
_MAKERS: dict[str, Callable[[int], npt.NDArray[np.uint8]]] = {
    "BGU": lambda bank: _bg_bank(two_tone=bank % 2 == 1),
    "BGD": lambda bank: _bg_bank(two_tone=False),
    "SPU": lambda bank: _pair(8 * ((bank // 2) % 2), bank >= 4, bank),
    "SPS": lambda bank: _pair(0, False, bank),
    "SPD": lambda bank: _pair(8 if bank < 2 else 0, bank >= 2, bank),
}


@functools.cache
def default_bank(family: str, bank: int) -> npt.NDArray[np.uint8] | None:
    """Our default (256, 8, 8) tiles of a bank, or None for BGF (the font is separate).

    The array is read-only: callers copy it into their own banks.
    """
    make = _MAKERS.get(family)
    if make is None:
        return None
    tiles = np.ascontiguousarray(make(bank))
    tiles.setflags(write=False)
    return tiles
