"""Shared helpers for the shim's 32-bit 0xRRGGBB surfaces."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pygame

from petitcom_shim.video.palette import KEY_PIXEL

__all__ = ["MASKS", "RLE_AFTER", "keyed_surface", "new_surface", "surface_from_pixels"]

#: Channel masks of every surface the shim draws on (0xRRGGBB, no alpha).
MASKS = (0xFF0000, 0x00FF00, 0x0000FF, 0)

#: Compositions a cached layer surface (a BG map, a GRP page) must stay unchanged
#: before it is run-length encoded: SDL blits RLE far faster, but encoding and
#: decoding cost about a full blit each, so not for layers that change often.
RLE_AFTER = 30


def new_surface(width: int, height: int) -> pygame.Surface:
    """An opaque 32-bit 0xRRGGBB surface."""
    return pygame.Surface((width, height), 0, 32, MASKS)


def keyed_surface(width: int, height: int, *, rle: bool = False) -> pygame.Surface:
    """A 32-bit surface whose :data:`KEY_PIXEL` pixels are transparent when blitted.

    ``rle`` asks SDL for run-length acceleration: fast to blit, slow to modify,
    so only for cached images that never change.
    """
    surf = new_surface(width, height)
    surf.fill(KEY_PIXEL)
    surf.set_colorkey(KEY_PIXEL, pygame.RLEACCEL if rle else 0)
    return surf


def surface_from_pixels(pixels: npt.NDArray[np.uint32], *, rle: bool = False) -> pygame.Surface:
    """A keyed surface holding ``pixels`` (rows, cols) of packed 0xRRGGBB values."""
    rows, cols = pixels.shape
    surf = keyed_surface(cols, rows, rle=rle)
    pygame.surfarray.blit_array(surf, pixels.T)
    return surf
