"""CHR banks: the 8x8, 4-bpp tiles behind the font, BG layers and sprites.

A bank holds 256 tiles (petitcom.md §4). Banks of one family on one screen are
kept in a single contiguous array (e.g. BGU0-BGU3 of the upper screen is one
(1024, 8, 8) array), so a BG character number or a sprite's 1-D tile run can
index it directly and CHRLOAD can spill from one bank into the next.

Resource names follow PTC: ``SPU0``-``SPU7`` (upper screen only), ``SPS0``/``SPS1``,
``BGU0``-``BGU3``, ``BGF0``, ``BGD0``/``BGD1``, ``SPD0``-``SPD3`` (lower only),
each with an optional ``U``/``L`` suffix; without it the caller's current page
decides.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pygame

from petitcom_shim.errors import IllegalFunctionCall, OutOfRange
from petitcom_shim.video.default_art import default_bank

__all__ = [
    "FAMILIES",
    "INK",
    "SOLID_TILE",
    "TILES_PER_BANK",
    "ChrStore",
    "ResourceRef",
    "parse_resource",
]

TILES_PER_BANK = 256

#: Family -> (number of banks, screens it exists on).
FAMILIES: dict[str, tuple[int, tuple[int, ...]]] = {
    "BGF": (1, (0, 1)),
    "BGD": (2, (0, 1)),
    "BGU": (4, (0, 1)),
    "SPU": (8, (0,)),
    "SPS": (2, (0, 1)),
    "SPD": (4, (1,)),
}

#: A bank name: the family, then optionally the bank number and after it the screen.
#: Without a number the name means bank 0 (``"BGF"`` is BGF0), as PTC programs write it
#: ([SBC] resources.c ``verify_resource_type``/``get_resource_ptr``).
_NAME = re.compile(r"^(BGF|BGD|BGU|SPU|SPS|SPD)(?:([0-9])([UL]?))?$")

#: Pixel value of the font's ink and of the solid console-background tile.
INK = 15
#: BGD0 tile that COLOR's background cells draw (petitcom.md §1.2).
SOLID_TILE = 15


@dataclass(frozen=True)
class ResourceRef:
    """One CHR bank: family (e.g. "SPU"), bank number and screen (0 upper, 1 lower)."""

    family: str
    bank: int
    screen: int

    @property
    def name(self) -> str:
        """Canonical PTC name, e.g. ``SPU3`` or ``BGU0L``."""
        suffix = "" if len(FAMILIES[self.family][1]) == 1 else "UL"[self.screen]
        return f"{self.family}{self.bank}{suffix}"


def parse_resource(name: str, default_screen: int) -> ResourceRef:
    """Resolve a CHR resource name; a missing U/L suffix means ``default_screen``.

    A name without a bank number (``"BGF"``, ``"SPU"``) is bank 0 of that screen.

    Raises:
        IllegalFunctionCall: unknown family, bank number or screen for that family.
    """
    m = _NAME.match(name.upper())
    if m is None:
        raise IllegalFunctionCall(f"not a CHR resource name: {name!r}")
    family, bank, suffix = m.group(1), int(m.group(2) or 0), m.group(3) or ""
    count, screens = FAMILIES[family]
    if bank >= count:
        raise IllegalFunctionCall(f"{name!r}: {family} has banks 0-{count - 1}")
    screen = {"U": 0, "L": 1}.get(suffix, default_screen)
    if screen not in screens:
        if suffix:
            raise IllegalFunctionCall(f"{name!r} does not exist on that screen")
        screen = screens[0]
    return ResourceRef(family, bank, screen)


def _parse_hex64(text: str) -> npt.NDArray[np.uint8]:
    if len(text) != 64:
        raise IllegalFunctionCall(f"CHRSET needs exactly 64 hex digits, got {len(text)}")
    try:
        values = [int(ch, 16) for ch in text]
    except ValueError:
        raise IllegalFunctionCall(f"CHRSET string is not hex: {text!r}") from None
    return np.array(values, dtype=np.uint8).reshape(8, 8)


def _image_indices(source: str | Path | pygame.Surface) -> npt.NDArray[np.uint8]:
    """Pixel indices (rows, cols) of a paletted PNG or an 8-bit Surface."""
    if isinstance(source, pygame.Surface):
        if source.get_bitsize() != 8:
            raise IllegalFunctionCall("CHRLOAD needs an 8-bit (paletted) surface")
        return np.ascontiguousarray(pygame.surfarray.array2d(source).T).astype(np.uint8)
    from PIL import Image

    with Image.open(source) as img:
        if img.mode not in ("P", "L"):
            raise IllegalFunctionCall(f"CHRLOAD needs an indexed PNG, {source} is {img.mode}")
        return np.asarray(img, dtype=np.uint8).copy()


class ChrStore:
    """All CHR banks of the machine, with a version counter per (family, screen).

    ``font`` is the (256, 8, 8) glyph table (1 = ink) that BGF0 resets to; its
    ink becomes pixel value :data:`INK` so COLOR palette n paints it. ``defaults``
    maps bank names (``"SPU0"``, no screen letter) to (256, 8, 8) tiles that bank
    starts with and CHRINIT restores on both screens (the user's ROM resources,
    petitcom_shim.romres); other banks start with the shim's own art
    (petitcom_shim.video.default_art) and BGF0 with the font.
    """

    def __init__(
        self,
        font: npt.NDArray[np.uint8],
        defaults: Mapping[str, npt.NDArray[np.uint8]] | None = None,
    ) -> None:
        self._font = (np.asarray(font, dtype=np.uint8) != 0).astype(np.uint8) * INK
        self._defaults = dict(defaults or {})
        self.tiles: dict[tuple[str, int], npt.NDArray[np.uint8]] = {}
        self.version: dict[tuple[str, int], int] = {}
        for family, (count, screens) in FAMILIES.items():
            for screen in screens:
                self.tiles[family, screen] = np.zeros((count * TILES_PER_BANK, 8, 8), np.uint8)
                self.version[family, screen] = 0
                for bank in range(count):
                    self._reset(ResourceRef(family, bank, screen))

    def family_tiles(self, family: str, screen: int) -> npt.NDArray[np.uint8]:
        """All tiles of a family on a screen as one (banks*256, 8, 8) array (a live view)."""
        return self.tiles[family, screen]

    def bank(self, ref: ResourceRef) -> npt.NDArray[np.uint8]:
        """The (256, 8, 8) tiles of one bank (a live view)."""
        start = ref.bank * TILES_PER_BANK
        return self.tiles[ref.family, ref.screen][start : start + TILES_PER_BANK]

    def chrset(self, ref: ResourceRef, n: int, hex64: str) -> None:
        """CHRSET: one tile from 64 hex digits, one per pixel, left to right, top to bottom."""
        if not 0 <= n < TILES_PER_BANK:
            raise OutOfRange(f"character {n} not in 0-255")
        self.bank(ref)[n] = _parse_hex64(hex64)
        self._touch(ref)

    def chrread(self, ref: ResourceRef, n: int) -> str:
        """CHRREAD: the tile as 64 upper-case hex digits (inverse of :meth:`chrset`)."""
        if not 0 <= n < TILES_PER_BANK:
            raise OutOfRange(f"character {n} not in 0-255")
        return "".join(f"{v:X}" for v in self.bank(ref)[n].ravel())

    def chrinit(self, ref: ResourceRef) -> None:
        """CHRINIT: restore one bank's default contents."""
        self._reset(ref)
        self._touch(ref)

    def chrload(self, ref: ResourceRef, source: str | Path | pygame.Surface, start: int) -> int:
        """Load 8x8 tiles from an indexed image, row-major, from tile ``start`` of ``ref``.

        Tiles past the end of the bank spill into the following banks of the same
        family (SPU0 -> SPU1 ...).

        Returns:
            The number of tiles loaded.

        Raises:
            IllegalFunctionCall: wrong image type or size, an index above 15, or
                more tiles than the family has room for.
        """
        pixels = _image_indices(source)
        rows, cols = pixels.shape
        if rows % 8 or cols % 8 or rows == 0 or cols == 0:
            raise IllegalFunctionCall(f"CHRLOAD image must be a multiple of 8x8, got {cols}x{rows}")
        if int(pixels.max()) > 15:
            raise IllegalFunctionCall("CHRLOAD image uses colour indices above 15")
        tiles = pixels.reshape(rows // 8, 8, cols // 8, 8).swapaxes(1, 2).reshape(-1, 8, 8)
        family = self.tiles[ref.family, ref.screen]
        first = ref.bank * TILES_PER_BANK + start
        if start < 0 or first + len(tiles) > len(family):
            raise IllegalFunctionCall(f"CHRLOAD: {len(tiles)} tiles do not fit from {start}")
        family[first : first + len(tiles)] = tiles
        self.version[ref.family, ref.screen] += 1
        return len(tiles)

    def _reset(self, ref: ResourceRef) -> None:
        bank = self.bank(ref)
        given = self._defaults.get(f"{ref.family}{ref.bank}")
        ours = self._font if ref.family == "BGF" else default_bank(ref.family, ref.bank)
        source = given if given is not None else ours
        bank[:] = 0 if source is None else source

    def _touch(self, ref: ResourceRef) -> None:
        self.version[ref.family, ref.screen] += 1
