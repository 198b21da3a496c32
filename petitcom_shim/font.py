"""The console's 8x8 font: 256 one-bit glyphs indexed by PTC character code.

The glyphs are our own drawing (assets/font/font8x8.txt, built by
tools/build_font.py into the package file petitcom_shim/data/font8x8.png).
That PNG is a 128x128 image holding a 16x16 grid of glyphs in code order
(code = 16 * row + column), white pixels = ink.  This module reads it, and
holds the grid layout so the build tool and the loader agree on it.
"""

from __future__ import annotations

import functools
import io
import pkgutil
from importlib import resources
from typing import Final

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "FONT_RESOURCE",
    "GLYPH_COUNT",
    "GLYPH_SIZE",
    "SHEET_COLUMNS",
    "decode_font_png",
    "glyphs_from_sheet",
    "load_font",
    "render_codes",
    "sheet_from_glyphs",
]

GLYPH_SIZE: Final = 8
"""Width and height of one glyph, in pixels."""

GLYPH_COUNT: Final = 256
"""One glyph per PTC character code."""

SHEET_COLUMNS: Final = 16
"""Glyphs per row of the font image; the image is 16x16 glyphs = 128x128 pixels."""

FONT_RESOURCE: Final = ("petitcom_shim", "data/font8x8.png")
"""Package and path of the built font image."""

_SHEET_PIXELS: Final = SHEET_COLUMNS * GLYPH_SIZE


def sheet_from_glyphs(glyphs: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """Lay 256 glyphs out as the 128x128 font image (16x16 grid, code order).

    Args:
        glyphs: Array of shape (256, 8, 8), 1 = ink, 0 = empty.

    Returns:
        Array of shape (128, 128) with the same 0/1 values.

    Raises:
        ValueError: If glyphs has the wrong shape.
    """
    if glyphs.shape != (GLYPH_COUNT, GLYPH_SIZE, GLYPH_SIZE):
        raise ValueError(f"expected glyphs of shape (256, 8, 8), got {glyphs.shape}")
    grid = glyphs.reshape(SHEET_COLUMNS, SHEET_COLUMNS, GLYPH_SIZE, GLYPH_SIZE)
    return np.ascontiguousarray(grid.transpose(0, 2, 1, 3).reshape(_SHEET_PIXELS, _SHEET_PIXELS))


def glyphs_from_sheet(sheet: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """Cut the 128x128 font image back into 256 glyphs (the inverse of sheet_from_glyphs).

    Args:
        sheet: Array of shape (128, 128), nonzero = ink.

    Returns:
        Array of shape (256, 8, 8), dtype uint8, 1 = ink, 0 = empty.

    Raises:
        ValueError: If the image is not 128x128.
    """
    if sheet.shape != (_SHEET_PIXELS, _SHEET_PIXELS):
        raise ValueError(f"expected a 128x128 font image, got shape {sheet.shape}")
    ink = (sheet != 0).astype(np.uint8)
    grid = ink.reshape(SHEET_COLUMNS, GLYPH_SIZE, SHEET_COLUMNS, GLYPH_SIZE).transpose(0, 2, 1, 3)
    return np.ascontiguousarray(grid.reshape(GLYPH_COUNT, GLYPH_SIZE, GLYPH_SIZE))


def decode_font_png(data: bytes) -> NDArray[np.uint8]:
    """Decode font PNG bytes (white = ink) into a (256, 8, 8) glyph array.

    Read with pygame, which every Machine has loaded anyway, rather than PIL, whose
    import was a tenth of ``petitcom run``'s start-up (issue 23 §4); a pixel's
    grey level is PIL's ``convert("L")``: (R*19595 + G*38470 + B*7471 + 32768) >> 16.
    """
    import pygame  # imported here so importing this module stays cheap

    surface = pygame.image.load(io.BytesIO(data), "font.png")
    rgb = pygame.surfarray.array3d(surface).transpose(1, 0, 2).astype(np.uint32)
    grey = (rgb[..., 0] * 19595 + rgb[..., 1] * 38470 + rgb[..., 2] * 7471 + 32768) >> 16
    return glyphs_from_sheet((grey >= 128).astype(np.uint8))


@functools.cache
def load_font() -> NDArray[np.uint8]:
    """Return the console font, loaded once from the package data and cached.

    Returns:
        A read-only array of shape (256, 8, 8), dtype uint8, indexed by PTC
        character code, with 1 = ink and 0 = empty.  It is shared between
        callers, so it is marked read-only; copy it to modify.
    """
    package, path = FONT_RESOURCE
    # The package loader's get_data: a few milliseconds less at start-up than
    # importlib.resources, which imports its readers (and zipfile) on first use.
    data = pkgutil.get_data(package, path)
    if data is None:  # pragma: no cover - a loader that cannot read data files
        data = resources.files(package).joinpath(path).read_bytes()
    glyphs = decode_font_png(data)
    glyphs.flags.writeable = False
    return glyphs


def render_codes(codes: bytes, glyphs: NDArray[np.uint8] | None = None) -> NDArray[np.uint8]:
    """Draw a row of PTC codes side by side, one 8x8 cell each.

    Meant for previews, docs and tests; the console draws its own cells.

    Args:
        codes: PTC character codes (e.g. from charset.to_ptc).
        glyphs: The font to use; the packaged font when omitted.

    Returns:
        Array of shape (8, 8 * len(codes)), 1 = ink.
    """
    font = load_font() if glyphs is None else glyphs
    if not codes:
        return np.zeros((GLYPH_SIZE, 0), dtype=np.uint8)
    cells = font[np.frombuffer(bytes(codes), dtype=np.uint8)]
    return np.ascontiguousarray(cells.transpose(1, 0, 2).reshape(GLYPH_SIZE, -1))
