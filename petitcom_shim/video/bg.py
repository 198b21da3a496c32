"""The two 64x64-tile BG layers of one screen (petitcom.md §3).

Each layer keeps its map as 16-bit tile words (bits 0-9 character, 10 H-flip,
11 V-flip, 12-15 palette) and a cached 512x512 keyed surface of the whole map,
updated per dirty tile, or all at once after a bulk change. Composition blits
that surface at most four times to wrap the scroll offset at 512 pixels.
"""

from __future__ import annotations

import math
from typing import cast

import numpy as np
import numpy.typing as npt
import pygame

from petitcom_shim.errors import IllegalFunctionCall, OutOfRange
from petitcom_shim.numbers import to_int
from petitcom_shim.video.chr import ChrStore
from petitcom_shim.video.interp import Tween, landing
from petitcom_shim.video.palette import KEY_PIXEL, Palettes
from petitcom_shim.video.surfaces import RLE_AFTER, keyed_surface

__all__ = ["MAP_SIZE", "BGLayer", "BGScreen", "decode_tile", "encode_tile", "flipped_tiles"]

MAP_SIZE = 64
WRAP = MAP_SIZE * 8
#: Above this many dirty tiles, re-render the whole map in one vectorised pass.
_BULK = 192


def encode_tile(chr_: int, pal: int = 0, h: int = 0, v: int = 0) -> int:
    """Pack a BG tile word: bits 0-9 chr, 10 H-flip, 11 V-flip, 12-15 palette."""
    if not 0 <= chr_ <= 1023:
        raise OutOfRange(f"BG character {chr_} not in 0-1023")
    if not 0 <= pal <= 15:
        raise OutOfRange(f"palette {pal} not in 0-15")
    return chr_ | (1 << 10 if h else 0) | (1 << 11 if v else 0) | pal << 12


def decode_tile(word: int) -> tuple[int, int, int, int]:
    """Split a BG tile word into (chr, pal, h, v)."""
    return word & 0x3FF, word >> 12 & 0xF, word >> 10 & 1, word >> 11 & 1


def tile_word(args: tuple[object, ...]) -> int:
    """The tile word from BGPUT/BGFILL's trailing arguments.

    Accepts ``(word,)``, ``("hex4",)`` or ``(chr[, pal[, h[, v]]])``.
    """
    if len(args) == 4:  # the usual call, four plain ints: no conversions (a screen
        c, p, h, v = args  # drawn from tiles makes hundreds of these per redraw)
        if type(c) is int and type(p) is int and type(h) is int and type(v) is int:
            return encode_tile(c, p, h, v)
    if len(args) == 1 and isinstance(args[0], str):
        text = args[0]
        if len(text) != 4:
            raise IllegalFunctionCall(f"tile string must be 4 hex digits, got {text!r}")
        try:
            return int(text, 16)
        except ValueError:
            raise IllegalFunctionCall(f"tile string is not hex: {text!r}") from None
    if not 1 <= len(args) <= 4 or not all(isinstance(a, int | float) for a in args):
        raise IllegalFunctionCall("expected chr[, pal, h, v], one tile word or a hex4 string")
    values = [to_int(cast(float, a)) for a in args]
    if len(values) == 1:
        return values[0] & 0xFFFF
    return encode_tile(*values)


def fill_words(args: tuple[object, ...]) -> list[int]:
    """BGFILL's tile words: as :func:`tile_word`, except that a string may hold several
    4-hex-digit tiles, which fill the rectangle in turn, row by row, over and over.

    A public PTC v2 game fills a 3 x 2 block with six tiles and a 24-tile row with a
    title spelled in tiles (docs/compat.md); a length that is not a multiple of 4 is
    refused, as [SBS] docs-ptc-bgfill says.
    """
    if len(args) == 1 and isinstance(args[0], str) and len(args[0]) > 4:
        text = args[0]
        if len(text) % 4:
            raise IllegalFunctionCall(f"tile string must be 4 hex digits per tile, got {text!r}")
        return [tile_word((text[i : i + 4],)) for i in range(0, len(text), 4)]
    return [tile_word(args)]


def _clear_index() -> npt.NDArray[np.intp]:
    """The colour numbers of an empty layer: all 256 (transparent), as a read-only view
    of one number. Giving every layer 2 MB of them at once cost about a millisecond
    each (fresh memory) when a machine was made and again at its first frame; a layer
    copies it to a full array before it draws its first tile (:meth:`BGLayer.refresh`).
    """
    return np.broadcast_to(np.intp(256), (WRAP, WRAP))


def flipped_tiles(tiles: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """(4, n, 8, 8): the tiles with flip code 0 none, 1 H, 2 V, 3 both."""
    return np.stack([tiles, tiles[:, :, ::-1], tiles[:, ::-1, :], tiles[:, ::-1, ::-1]])


class BGLayer:
    """One BG layer: the map, its scroll offset and the cached map surface."""

    def __init__(self) -> None:
        self.map = np.zeros((MAP_SIZE, MAP_SIZE), np.uint16)  # [y, x]
        self.ofs_x = Tween()
        self.ofs_y = Tween()
        self.surface = keyed_surface(WRAP, WRAP)
        self.dirty: set[tuple[int, int]] = set()
        self.all_dirty = True
        self.index = _clear_index()  # [x, y] colour numbers
        self._quiet = 0  # compositions since the map last changed

    def put(self, x: int, y: int, word: int) -> None:
        """Set one tile; coordinates wrap at 64 (``AND 63``).

        Writing the word a tile already holds is not a change: a screen that
        redraws its whole layout every frame re-renders nothing.
        """
        x &= 63
        y &= 63
        if self.map[y, x] == word:
            return
        self.map[y, x] = word
        if not self.all_dirty:
            self.dirty.add((x, y))
            if len(self.dirty) > _BULK:
                self.all_dirty = True
                self.dirty.clear()

    def write(self, top: int, left: int, block: npt.NDArray[np.uint16]) -> None:
        """Set a rectangle of tiles at (left, top) (inside the map, no wrap); only the
        tiles whose word differs are redrawn, so clearing a clear layer costs nothing."""
        h, w = block.shape
        area = self.map[top : top + h, left : left + w]
        ys, xs = np.nonzero(area != block)
        if not len(xs):
            return
        area[...] = block
        if self.all_dirty:
            return
        if len(xs) + len(self.dirty) > _BULK:
            self.mark_all()
            return
        self.dirty.update(zip((xs + left).tolist(), (ys + top).tolist(), strict=True))

    def mark_all(self) -> None:
        """Re-render the whole map at the next composition."""
        self.all_dirty = True
        self.dirty.clear()

    def scroll(self, x: int, y: int, frames: int) -> None:
        """BGOFS: go to offset (x, y) now, or over ``frames`` frames in PTC's fixed-point
        steps (which may stop short of the target, see :func:`landing`)."""
        for tween, target in ((self.ofs_x, x), (self.ofs_y, y)):
            end = landing(tween.value, target, frames) if frames > 0 else target
            tween.set(end, frames)

    @property
    def moving(self) -> bool:
        """BGCHK: True while a timed BGOFS is still scrolling."""
        return self.ofs_x.moving or self.ofs_y.moving

    def refresh(
        self, flipped: npt.NDArray[np.uint8], lut: npt.NDArray[np.uint32], recolour: bool
    ) -> None:
        """Bring the cached surface up to date with the map.

        ``index`` keeps every pixel's colour number (256 = transparent), so a
        palette change (``recolour``) is one table lookup, not a re-render.
        A map that stays unchanged for :data:`~.surfaces.RLE_AFTER` compositions is
        run-length encoded, which SDL blits far faster; a change decodes it.
        """
        if self.all_dirty or recolour or self.dirty:
            if self._quiet >= RLE_AFTER:
                self.surface.set_colorkey(KEY_PIXEL)  # plain again before writing pixels
            self._quiet = 0
        elif self._quiet < RLE_AFTER:
            self._quiet += 1
            if self._quiet == RLE_AFTER:
                self.surface.set_colorkey(KEY_PIXEL, pygame.RLEACCEL)
        if self.all_dirty and not self.map.any() and not flipped[0, 0].any():
            # an empty map of a transparent character 0 (every layer at start): all
            # transparent, without the 262,144-pixel gather (a run's first frame and a
            # screenshot paid it for each of the four layers, issue 23 item 4)
            self.index = _clear_index()
            self.all_dirty = False
            self.dirty.clear()
            self.surface.fill(KEY_PIXEL)
            return
        if self.all_dirty:
            words = self.map.astype(np.intp)
            pix = flipped[(words >> 10) & 3, words & 0x3FF]  # (64, 64, 8, 8)
            idx = np.where(pix != 0, ((words >> 12) << 4)[:, :, None, None] + pix, 256)
            self.index = np.ascontiguousarray(idx.transpose(1, 3, 0, 2).reshape(WRAP, WRAP))
            self.all_dirty = False
            self.dirty.clear()
            recolour = True
        if recolour:
            pygame.surfarray.blit_array(self.surface, lut[self.index])
        if not self.dirty:
            return
        if not self.index.flags.writeable:  # the shared index of an empty layer
            self.index = self.index.copy()
        view = pygame.surfarray.pixels2d(self.surface)
        try:
            for x, y in self.dirty:
                word = int(self.map[y, x])
                pix = flipped[(word >> 10) & 3, word & 0x3FF].astype(np.intp)
                # widened first: in uint8 a transparent 256 would wrap to colour 0 (black)
                idx = np.where(pix != 0, (word >> 12) * 16 + pix, 256).T  # [x, y]
                self.index[x * 8 : x * 8 + 8, y * 8 : y * 8 + 8] = idx
                view[x * 8 : x * 8 + 8, y * 8 : y * 8 + 8] = lut[idx]
        finally:
            del view
        self.dirty.clear()

    def mark_chars(self, changed: npt.NDArray[np.bool_]) -> None:
        """Mark the tiles that show any character flagged in ``changed`` (1024 bools)."""
        if self.all_dirty:
            return
        ys, xs = np.nonzero(changed[self.map & 0x3FF])
        if len(xs) > _BULK:
            self.mark_all()
            return
        self.dirty.update(zip(xs.tolist(), ys.tolist(), strict=True))

    def blit(self, target: pygame.Surface) -> None:
        """Blit the map onto ``target`` at the current offset, wrapping at 512 px."""
        ox = math.floor(self.ofs_x.value) % WRAP
        oy = math.floor(self.ofs_y.value) % WRAP
        tw, th = target.get_size()
        for bx in (-ox, WRAP - ox):
            if bx >= tw or bx + WRAP <= 0:
                continue
            for by in (-oy, WRAP - oy):
                if by >= th or by + WRAP <= 0:
                    continue
                target.blit(self.surface, (bx, by))


def _window(start: int, end: int, size: int) -> list[tuple[int, int]]:
    """(offset, length) spans of a DS display window from pixel ``start`` up to ``end``
    (exclusive): one span, none when they meet, two when it wraps past the edge."""
    if start < end:
        return [(start, end - start)]
    if start == end:
        return []
    return [(start, size - start), (0, end)]


class BGScreen:
    """Both BG layers of one screen plus the BGCLIP window and cache bookkeeping."""

    def __init__(self, screen: int, chr_store: ChrStore, palettes: Palettes) -> None:
        self.screen = screen
        self._chr = chr_store
        self._pal = palettes
        self.layers = (BGLayer(), BGLayer())
        #: The BGCLIP window as the rectangles it covers (more than one when it wraps).
        self.clip: tuple[pygame.Rect, ...] = (pygame.Rect(0, 0, 256, 192),)
        self._seen = (-1, -1)
        self._flipped: npt.NDArray[np.uint8] | None = None

    def layer(self, n: int) -> BGLayer:
        """Layer 0 (foreground) or 1 (background)."""
        if n not in (0, 1):
            raise OutOfRange(f"BG layer {n} not 0 or 1")
        return self.layers[n]

    def set_clip(self, x1: int, y1: int, x2: int, y2: int) -> None:
        """BGCLIP in tiles (0-31, 0-23): from (x1, y1) right and down to (x2, y2),
        wrapping round the screen's edges, so the order matters ([SBS] docs-ptc-bgclip:
        ``BGCLIP 29,21,2,2`` shows the four corners, and an end one less than its
        start, ``BGCLIP 1,0,0,0``, shows nothing)."""
        if not (0 <= x1 <= 31 and 0 <= x2 <= 31 and 0 <= y1 <= 23 and 0 <= y2 <= 23):
            raise OutOfRange("BGCLIP corners must be within 0-31, 0-23")
        columns = _window(x1 * 8, (x2 + 1) * 8, 256)
        rows = _window(y1 * 8, (y2 + 1) * 8, 192)
        self.clip = tuple(pygame.Rect(x, y, w, h) for x, w in columns for y, h in rows)

    def step(self) -> None:
        """Advance BGOFS interpolation by one frame."""
        for layer in self.layers:
            layer.ofs_x.step()
            layer.ofs_y.step()

    def prepare(self) -> None:
        """Refresh both layer surfaces (call once before drawing a frame).

        After CHRSET only the tiles showing a changed character are redrawn;
        after COLSET only the colours are looked up again.
        """
        chr_version = self._chr.version["BGU", self.screen]
        recolour = self._pal.version[0] != self._seen[1]
        if chr_version != self._seen[0] or self._flipped is None:
            tiles = self._chr.family_tiles("BGU", self.screen)
            flipped = flipped_tiles(tiles)
            if self._flipped is None:
                for layer in self.layers:
                    layer.mark_all()
            else:
                changed = (flipped[0] != self._flipped[0]).reshape(len(tiles), -1).any(axis=1)
                for layer in self.layers:
                    layer.mark_chars(changed)
            self._flipped = flipped
        self._seen = (chr_version, self._pal.version[0])
        lut = self._pal.lut(0)
        for layer in self.layers:
            layer.refresh(self._flipped, lut, recolour)

    def draw(self, n: int, target: pygame.Surface) -> None:
        """Blit layer ``n`` inside the clip window."""
        old = target.get_clip()
        for rect in self.clip:
            target.set_clip(rect)
            self.layers[n].blit(target)
        target.set_clip(old)
