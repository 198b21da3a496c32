"""What changed on one screen since its frame was last composed, compared by value.

A card game spends most of its life waiting for a player, so the machine
composes a screen (and the front-end presents a window) only when something
that screen shows differs from what its last composed frame showed:
console cells, BG tiles, offsets and clip, sprites (look and rounded
position, angle and scale), the displayed GRP page, palettes, CHR tiles and
the display settings (VISIBLE, GPRIO, the displayed page).

A change is a change of *value*: writing the same console cell, BG tile,
sprite attribute or palette entry again is not a change, so a program that
re-issues identical calls every frame still idles for free. Version
counters kept by the palettes, CHR banks and GRP pages are only a fast path
("nothing was written"); when one moved, the values are compared.

The check reads the state the compositor reads, so it cannot miss a verb
that changes the picture (for sprite looks it relies, like the sprite image
cache, on every look-changing verb marking its sprite stale, or SPSET/SPCLR
dropping the drawing order). It costs 10-50 microseconds per screen.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from petitcom_shim.video.chr import ChrStore
from petitcom_shim.video.compose import ScreenVideo, Visibility
from petitcom_shim.video.grp import GrpPage
from petitcom_shim.video.sprites import Sprite

__all__ = ["CHANGE_KINDS", "ScreenWatch"]

#: The kinds of change :attr:`ScreenWatch.changes` names.
CHANGE_KINDS = ("display", "palette", "chr", "console", "bg", "sprites", "grp")

_SpriteKey = tuple[int, ...]


def _look_key(sp: Sprite) -> _SpriteKey:
    """Everything but the motion that decides how a sprite looks."""
    return (sp.chr, sp.anim_frame, sp.pal, sp.hflip, sp.vflip, sp.prio, sp.w, sp.h, sp.hx, sp.hy)


def _sprite_families(screen: int) -> tuple[tuple[str, int], ...]:
    """CHR families one screen's picture is drawn from."""
    sprites = ("SPU", 0) if screen == 0 else ("SPS", 1)
    return (("BGF", screen), ("BGD", screen), ("BGU", screen), sprites)


class ScreenWatch:
    """Remembers what one screen showed when it was last composed.

    :meth:`check` compares the screen's state now with that memory, records
    the new state and says whether the picture may differ. The first check
    always reports a change (nothing has been composed yet).

    Attributes:
        changes: the kinds (from :data:`CHANGE_KINDS`) that differed at the
            last :meth:`check`; empty when the screen was clean.
    """

    def __init__(self, screen: int, chr_store: ChrStore) -> None:
        self.screen = screen
        self._chr = chr_store
        self.changes: tuple[str, ...] = ("display",)
        self._families = _sprite_families(screen)
        self._display: tuple[object, ...] | None = None
        self._palette_versions = [-1, -1, -1]
        self._palette_words: list[npt.NDArray[np.uint16] | None] = [None, None, None]
        self._chr_seen: tuple[int, ...] = ()
        self._chr_versions: dict[tuple[str, int], int] = {}
        self._chr_tiles: dict[tuple[str, int], npt.NDArray[np.uint8]] = {}
        self._console: tuple[list[bytearray], ...] | None = None
        self._maps: tuple[bytes, bytes] | None = None
        self._grp_seen: tuple[int, int] = (0, -1)
        self._grp_pixels: npt.NDArray[np.uint8] | None = None
        self._motion_raw = b""
        self._motion: bytes = b""
        self._looks: dict[int, _SpriteKey] | None = None
        self._ids = np.zeros(0, np.intp)
        self._order: list[Sprite] | None = None

    def check(self, video: ScreenVideo, page: GrpPage, vis: Visibility) -> bool:
        """True if the picture of ``video`` (showing GRP ``page``) may differ from the last one.

        Call it right before composing; a True result must be followed by a
        composition, since the new state is remembered as shown.
        """
        found: list[str] = []
        if self._check_display(video, vis):
            found.append("display")
        if self._check_palettes(video):
            found.append("palette")
        if self._check_chr(video):
            found.append("chr")
        if self._check_console(video):
            found.append("console")
        if self._check_bg(video):
            found.append("bg")
        if self._check_sprites(video):
            found.append("sprites")
        if self._check_grp(page):
            found.append("grp")
        self.changes = tuple(found)
        return bool(found)

    # -- one comparison per kind ------------------------------------------------
    def _check_display(self, video: ScreenVideo, vis: Visibility) -> bool:
        """VISIBLE, GPRIO, BGCLIP, whole-pixel BG offsets and the lower screen's panel."""
        offsets = tuple(
            (math.floor(layer.ofs_x.value) % 512, math.floor(layer.ofs_y.value) % 512)
            for layer in video.bg.layers
        )
        key = (
            vis.console, vis.bg0, vis.bg1, vis.sprites, vis.graphics,
            video.gprio, tuple(video.bg.clip), offsets,
            None if video.panel is None else video.panel.look(vis.panel),
        )  # fmt: skip
        if key == self._display:
            return False
        self._display = key
        return True

    def _check_palettes(self, video: ScreenVideo) -> bool:
        pal = video.palettes
        changed = False
        for kind in range(3):
            version = pal.version[kind]
            if version == self._palette_versions[kind]:
                continue
            self._palette_versions[kind] = version
            words = pal.words[kind]
            seen = self._palette_words[kind]
            if seen is None or not np.array_equal(seen, words):
                self._palette_words[kind] = words.copy()
                changed = True
        return changed

    def _check_chr(self, video: ScreenVideo) -> bool:
        store = self._chr
        versions = tuple(store.version[family] for family in self._families)
        if versions == self._chr_seen:
            return False
        self._chr_seen = versions
        changed = False
        for family in self._families:
            version = store.version[family]
            if version == self._chr_versions.get(family):
                continue
            self._chr_versions[family] = version
            tiles = store.tiles[family]
            seen = self._chr_tiles.get(family)
            if seen is None or not np.array_equal(seen, tiles):
                self._chr_tiles[family] = tiles.copy()
                changed = True
        return changed

    def _check_console(self, video: ScreenVideo) -> bool:
        con = video.console
        rows = (con._codes, con._fgs, con._bgs)  # lists of 24 bytearrays, compared in place
        seen = self._console
        if rows == seen:
            return False
        if seen is None or any(len(a) != len(b) for a, b in zip(rows, seen, strict=True)):
            self._console = tuple([bytearray(row) for row in grid] for grid in rows)
            return True
        for grid, kept in zip(rows, seen, strict=True):  # copy only the rows that differ
            for i, row in enumerate(grid):
                if row != kept[i]:
                    kept[i] = bytearray(row)
        return True

    def _check_bg(self, video: ScreenVideo) -> bool:
        layers = video.bg.layers
        key = (layers[0].map.tobytes(), layers[1].map.tobytes())
        if key == self._maps:
            return False
        self._maps = key
        return True

    def _check_sprites(self, video: ScreenVideo) -> bool:
        sprites = video.sprites
        changed = False
        order = sprites._order
        kept = self._looks
        if order is None or order is not self._order or kept is None:
            # SPSET/SPCLR happened (they drop the drawing order): compare every shown sprite.
            looks = {sp.sid: _look_key(sp) for sp in sprites.sprites if sp.active}
            self._order = order
            if looks != self._looks:
                self._looks = looks
                self._ids = np.array(sorted(looks), np.intp)
                self._motion_raw = b""  # another set of sprites: compare positions afresh
                changed = True
        else:
            # Every verb that changes a look marks its sprite stale until the next
            # composition draws it, so only stale sprites need comparing.
            for sp in order:
                if sp.stale:
                    key = _look_key(sp)
                    if key != kept[sp.sid]:
                        kept[sp.sid] = key
                        changed = True
        everything = sprites._motion.value
        raw = everything.tobytes()  # fast path: no sprite moved at all
        if raw != self._motion_raw:
            self._motion_raw = raw
            value = everything[self._ids]  # hidden slots draw nothing
            # What drawing uses: whole-pixel position, angle to 1 degree, scale to 1 %.
            drawn = np.empty((len(value), 4), np.int64)
            drawn[:, :2] = np.floor(value[:, :2])
            drawn[:, 2] = np.rint(value[:, 2]).astype(np.int64) % 360
            drawn[:, 3] = np.rint(value[:, 3])
            motion = drawn.tobytes()
            if motion != self._motion:
                self._motion = motion
                changed = True
        return changed

    def _check_grp(self, page: GrpPage) -> bool:
        seen = (id(page), page.version)
        if seen == self._grp_seen:
            return False
        self._grp_seen = seen
        if self._grp_pixels is not None and np.array_equal(self._grp_pixels, page.pixels):
            return False
        self._grp_pixels = page.pixels.copy()
        return True
