"""The 100 sprites of one screen: state, per-frame animation, drawing and collision.

Geometry (petitcom.md §2): a sprite's chr counts 16x16 units, so its first 8x8
tile is ``4*chr`` and the rest follow row by row, ``w/8`` per row (1-D mapping).
The position set by SPOFS is where the home point (SPHOME) lands; rotation
(clockwise, degrees) and scaling happen about the home point (nearest
neighbour, like the DS affine unit). Position, angle and scale of all sprites
live in numpy arrays stepped together each frame. Images are cached per look,
and rotated/scaled images per (look, home, angle to 1 degree, scale to 1 %).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import pygame

from petitcom_shim.errors import IllegalFunctionCall, OutOfRange
from petitcom_shim.numbers import to_int
from petitcom_shim.video.chr import ChrStore
from petitcom_shim.video.interp import TweenArray, landing
from petitcom_shim.video.palette import KEY_PIXEL, Palettes
from petitcom_shim.video.surfaces import surface_from_pixels

__all__ = [
    "AFFINE_IDS",
    "LEGAL_SIZES",
    "SPRITE_COUNT",
    "HitResult",
    "Sprite",
    "SpriteScreen",
    "SpriteState",
    "TransformCache",
]

SPRITE_COUNT = 100
#: SPANGLE/SPSCALE work only on ids below this (the DS's 32 affine parameter sets).
AFFINE_IDS = 32
#: The 12 DS OBJ shapes; SPSET rejects anything else.
LEGAL_SIZES = frozenset(
    {(8, 8), (8, 16), (8, 32), (16, 8), (16, 16), (16, 32), (32, 8), (32, 16), (32, 32),
     (32, 64), (64, 32), (64, 64)}
)  # fmt: skip
_CACHE_LIMIT = 6000
# Columns of the motion table.
_XY = slice(0, 2)
_ANGLE = 2
_ANGLES = slice(2, 3)
_SCALE = 3
_SCALES = slice(3, 4)


class SpriteState(NamedTuple):
    """What SPREAD reports: position, angle, scale and the base character."""

    x: float
    y: float
    angle: float
    scale: float
    chr: int


class HitResult(NamedTuple):
    """Outcome of a collision test: where along the SPCOLVEC sweep contact starts."""

    x: float
    y: float
    t: float


#: The highest sprite character on the lower screen ([WIKI] SPCHR, [SBC] cmd_spchr).
LOWER_MAX_CHR = 117


def _s16(v: float) -> int:
    return ((to_int(v) & 0xFFFF) ^ 0x8000) - 0x8000


def _s8(v: float) -> int:
    return ((to_int(v) & 0xFF) ^ 0x80) - 0x80


@dataclass(eq=False, slots=True)
class Sprite:
    """State of one sprite slot."""

    active: bool = False
    chr: int = 0
    pal: int = 0
    hflip: int = 0
    vflip: int = 0
    prio: int = 0
    w: int = 16
    h: int = 16
    sid: int = 0
    hx: int = 0
    hy: int = 0
    anim_n: int = 0
    anim_t: int = 0
    anim_loop: int = 0
    anim_frame: int = 0
    anim_count: int = 0
    anim_loops_done: int = 0
    animating: bool = False
    vars: list[float] = field(default_factory=lambda: [0.0] * 8)
    col: tuple[int, int, int, int, bool, int] = (0, 0, 16, 16, True, 0xFF)
    vec: tuple[float, float] = (0.0, 0.0)
    base: tuple[pygame.Surface, pygame.Surface] | None = None
    base_key: tuple[object, ...] = ()
    looks: dict[tuple[int, int], tuple[pygame.Surface | None, int, int]] | None = None
    looks_gen: int = -1
    surf: pygame.Surface | None = None
    offx: int = 0
    offy: int = 0
    stale: bool = True

    def current_chr(self) -> int:
        """The character shown now (SPANIM steps in 16x16 units per frame of the cycle)."""
        step = max(1, self.w * self.h // 256)
        return self.chr + self.anim_frame * step if self.animating or self.anim_frame else self.chr

    def hitbox(self, x: float, y: float, scale: float) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of the SPCOL box with the home point at (x, y)."""
        cx, cy, cw, ch, scaled, _ = self.col
        s = scale / 100 if scaled else 1.0
        left = x + (cx - self.hx) * s
        top = y + (cy - self.hy) * s
        return left, top, left + cw * s, top + ch * s


#: A drawable look: the surface (None when scaled to nothing) and its top-left
#: relative to the sprite position.
_Look = tuple[pygame.Surface | None, int, int]
#: A sprite's untransformed look: (source, RLE blit copy) and its content key.
_Image = tuple[tuple[pygame.Surface, pygame.Surface], tuple[object, ...]]


def scale_sprite(surf: pygame.Surface, scale: int) -> pygame.Surface | None:
    """The sprite box scaled (percent, nearest neighbour) to round(w*s) x round(h*s) pixels.

    Returns ``surf`` itself at its own size, None when nothing is left (scale 0).
    """
    w, h = surf.get_size()
    sw, sh = math.floor(w * scale / 100 + 0.5), math.floor(h * scale / 100 + 0.5)
    if sw <= 0 or sh <= 0:
        return None
    return surf if (sw, sh) == (w, h) else pygame.transform.scale(surf, (sw, sh))


def rotate_sprite(
    scaled: pygame.Surface | None, w: int, h: int, hx: int, hy: int, angle: int
) -> tuple[pygame.Surface | None, int, int]:
    """Rotate a scaled sprite box clockwise about its home point.

    Args:
        scaled: The output of :func:`scale_sprite` (never modified).
        w: Unscaled width, to place the home point.
        h: Unscaled height.
        hx: Home point x in the unscaled box.
        hy: Home point y in the unscaled box.
        angle: Clockwise degrees (pygame's rotation, exact at multiples of 90).

    Returns:
        The image and its top-left relative to the sprite position, or
        (None, 0, 0) when nothing is visible.
    """
    if scaled is None:
        return None, 0, 0
    sw, sh = scaled.get_size()
    # Both transforms keep the source's colour key and fill new corners with it.
    rotated = pygame.transform.rotate(scaled, -angle) if angle else scaled.copy()
    rotated.set_colorkey(KEY_PIXEL, pygame.RLEACCEL)  # never transformed again
    rw, rh = rotated.get_size()
    vx, vy = hx * sw / w - sw / 2, hy * sh / h - sh / 2
    rad = math.radians(angle)
    c, s = math.cos(rad), math.sin(rad)
    px, py = c * vx - s * vy, s * vx + c * vy
    return rotated, -math.floor(rw / 2 + px + 0.5), -math.floor(rh / 2 + py + 0.5)


class TransformCache:
    """Rotated and scaled sprite images, keyed by image content and shared by both screens.

    Keys hold a digest of the sprite's coloured pixels, so they stay valid across
    CHRSET/COLSET (a changed image simply gets a new key) and the same art on both
    screens is transformed once. A byte budget bounds the memory: when it is
    exceeded everything is dropped and ``gen`` moves on so sprites fetch afresh.
    """

    BUDGET = 48 * 1024 * 1024

    def __init__(self) -> None:
        self._looks: dict[tuple[object, ...], dict[tuple[int, int], _Look]] = {}
        self._scaled: dict[tuple[object, ...], pygame.Surface | None] = {}
        self.bytes = 0
        self.gen = 0

    def looks_for(self, key: tuple[object, ...]) -> dict[tuple[int, int], _Look]:
        """The (angle, scale) -> look table of one image with one home point."""
        looks = self._looks.get(key)
        if looks is None:
            looks = self._looks[key] = {}
        return looks

    def scaled(
        self, base_key: tuple[object, ...], source: pygame.Surface, scale: int
    ) -> pygame.Surface | None:
        """The image scaled to ``scale`` percent (cached; shared by every angle)."""
        key = (*base_key, scale)
        if key not in self._scaled:
            scaled = self._scaled[key] = scale_sprite(source, scale)
            if scaled is not None:
                self._count(scaled)
        return self._scaled[key]

    def store(self, looks: dict[tuple[int, int], _Look], key: tuple[int, int], look: _Look) -> None:
        """Remember a transformed look, dropping everything if over budget."""
        looks[key] = look
        if look[0] is not None:
            self._count(look[0])

    def _count(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        self.bytes += w * h * 4
        if self.bytes > self.BUDGET:
            self._looks.clear()
            self._scaled.clear()
            self.bytes = 0
            self.gen += 1


class SpriteScreen:
    """The sprites of one screen and the caches of their images."""

    def __init__(
        self,
        screen: int,
        chr_store: ChrStore,
        palettes: Palettes,
        transforms: TransformCache | None = None,
    ) -> None:
        self.screen = screen
        self._chr = chr_store
        self._pal = palettes
        self._family = ("SPU", 0) if screen == 0 else ("SPS", 1)
        # Upper screen 0-511 (all of SPU0-SPU7); the lower screen stops at 117 although
        # SPS0L/SPS1L hold 128 ([WIKI] SPCHR, [SBC] cmd_spchr).
        self.max_chr = len(chr_store.tiles[self._family]) // 4 - 1 if screen == 0 else LOWER_MAX_CHR
        self.sprites = [Sprite(sid=i) for i in range(SPRITE_COUNT)]
        # x, y, angle, scale of every sprite (angle/scale stay 0/100 for ids 32-99)
        self._motion = TweenArray([0.0, 0.0, 0.0, 100.0], SPRITE_COUNT)
        self._animating: set[int] = set()
        self._order: list[Sprite] | None = None
        self._drawn_gen = 0
        self._images: dict[tuple[int, ...], _Image] = {}
        # (image key, hx, hy) -> {(angle, scale): (surface, left, top)}
        self._transforms = transforms if transforms is not None else TransformCache()
        self._seen = (-1, -1)
        self.gen = 0
        self.hitno = -1
        self.hit = HitResult(0.0, 0.0, 0.0)

    # -- access ----------------------------------------------------------------
    def get(self, sid: int) -> Sprite:
        """Sprite ``sid`` (0-99)."""
        if not 0 <= sid < SPRITE_COUNT:
            raise OutOfRange(f"sprite id {sid} not in 0-99")
        return self.sprites[sid]

    def position(self, sid: int) -> tuple[float, float]:
        """Where the home point of sprite sid is now (mid-move included)."""
        row = self._motion.value[sid]
        return float(row[0]), float(row[1])

    def angle(self, sid: int) -> float:
        """Current clockwise angle in degrees, 0-360 (always 0 for ids 32-99)."""
        return float(self._motion.value[sid, _ANGLE]) % 360

    def scale(self, sid: int) -> float:
        """Current scale in percent (always 100 for ids 32-99)."""
        return float(self._motion.value[sid, _SCALE])

    def live(self, sid: int, verb: str) -> Sprite:
        """Sprite ``sid``, which must have been SPSET: PTC stops with "Illegal
        function call" when SPOFS, SPHOME, SPANGLE, SPSCALE, SPCOL, SPSETV or
        SPGETV name a sprite that does not exist ([SBC] sprites.c)."""
        sp = self.get(sid)
        if not sp.active:
            raise IllegalFunctionCall(f"{verb}: sprite {sid} was not set with SPSET")
        return sp

    def _check_affine(self, sid: int, verb: str) -> Sprite:
        if not 0 <= sid < AFFINE_IDS:
            self.get(sid)
            raise IllegalFunctionCall(f"SPANGLE/SPSCALE need sprite id 0-31, got {sid}")
        return self.live(sid, verb)

    def _check_look(self, chr_: int, pal: int, prio: int) -> None:
        if not 0 <= chr_ <= self.max_chr:
            raise OutOfRange(f"sprite character {chr_} not in 0-{self.max_chr}")
        if not 0 <= pal <= 15:
            raise OutOfRange(f"sprite palette {pal} not in 0-15")
        if not 0 <= prio <= 3:
            raise OutOfRange(f"sprite priority {prio} not in 0-3")

    @staticmethod
    def _new_look(sp: Sprite) -> None:
        """The character, palette or flips changed: rebuild the image at the next draw."""
        sp.base = None
        sp.looks = None
        sp.stale = True

    # -- commands --------------------------------------------------------------
    def spset(
        self, sid: int, chr_: int, pal: int, h: int, v: int, prio: int, w: int, hh: int
    ) -> None:
        """SPSET: create a sprite, resetting everything else about the slot."""
        self.get(sid)
        if (w, hh) not in LEGAL_SIZES:
            raise IllegalFunctionCall(f"sprite size {w}x{hh} is not one of the 12 legal sizes")
        self._check_look(chr_, pal, prio)
        new = Sprite(sid=sid, active=True, chr=int(chr_), pal=int(pal), hflip=int(bool(h)),
                     vflip=int(bool(v)), prio=int(prio), w=w, h=hh)  # fmt: skip
        new.col = (0, 0, w, hh, True, 0xFF)
        self.sprites[sid] = new
        self._reset(sid)

    def spclr(self, sid: int | None = None) -> None:
        """SPCLR: clear one sprite or all."""
        ids = range(SPRITE_COUNT) if sid is None else (sid,)
        for i in ids:
            self.get(i)
            self.sprites[i] = Sprite(sid=i)
            self._reset(i)

    def _reset(self, sid: int) -> None:
        self._animating.discard(sid)
        self._order = None
        self._motion.reset(sid)

    def spchr(
        self,
        sid: int,
        chr_: int,
        pal: int | None = None,
        h: int | None = None,
        v: int | None = None,
        prio: int | None = None,
    ) -> None:
        """SPCHR: change the look (size stays); pal, h, v and prio come all or none."""
        sp = self.get(sid)
        given = [a is None for a in (pal, h, v, prio)]
        if any(given) and not all(given):
            raise IllegalFunctionCall("SPCHR takes id,chr or id,chr,pal,h,v,prio")
        pal = sp.pal if pal is None else pal
        prio = sp.prio if prio is None else prio
        self._check_look(chr_, pal, prio)
        sp.chr, sp.pal, sp.prio = int(chr_), int(pal), int(prio)
        if not sp.animating:
            sp.anim_frame = 0  # a finished SPANIM no longer offsets the new character
        if h is not None:
            sp.hflip = int(bool(h))
        if v is not None:
            sp.vflip = int(bool(v))
        self._new_look(sp)

    def spofs(self, sid: int, x: float, y: float, t: int = 0) -> None:
        """SPOFS: move (over t frames) from the current, possibly mid-move, position.

        With a time the sprite moves by one fixed step a frame, the distance divided
        by t in 20.12 fixed point and cut toward zero, so it lands up to t/4096 short
        of the target where the division is not exact ([SBC] sprites.c ``cmd_spofs``
        and ``step_sprites``; its test moves 0 to 64 over 4 frames in steps of 16).
        """
        self.live(sid, "SPOFS")
        frames = int(t)
        if frames <= 0 and type(x) is int and type(y) is int:  # the usual call, inline
            self._motion.set_pair(
                sid, ((x & 0xFFFF) ^ 0x8000) - 0x8000, ((y & 0xFFFF) ^ 0x8000) - 0x8000
            )
            return
        target = (_s16(x), _s16(y))
        if frames > 0:
            here = self.position(sid)
            target = tuple(  # type: ignore[assignment]
                landing(start, end, frames) for start, end in zip(here, target, strict=True)
            )
        self._motion.set(sid, _XY, target, frames)

    def sphome(self, sid: int, hx: int, hy: int) -> None:
        """SPHOME: home point, each kept as a signed 8-bit value."""
        sp = self.live(sid, "SPHOME")
        sp.hx, sp.hy = _s8(hx), _s8(hy)
        sp.looks = None
        sp.stale = True

    def spanim(self, sid: int, n: int, t: int, loop: int = 0) -> None:
        """SPANIM: cycle n characters, t frames each; loop 0 = forever."""
        sp = self.get(sid)
        if n < 1 or t < 1 or loop < 0:
            raise IllegalFunctionCall("SPANIM needs n >= 1, t >= 1 and loop >= 0")
        sp.anim_n, sp.anim_t, sp.anim_loop = int(n), int(t), int(loop)
        sp.anim_frame = sp.anim_count = sp.anim_loops_done = 0
        sp.animating = True
        self._new_look(sp)
        self._animating.add(sid)

    def spangle(self, sid: int, deg: float, t: int = 0, direction: int = 1) -> None:
        """SPANGLE: clockwise angle in whole degrees (floored, as [SBC] and [EMK] take
        it); over t frames turning ``direction`` (1 cw, -1 ccw)."""
        sp = self._check_affine(sid, "SPANGLE")
        if direction not in (1, -1):
            raise IllegalFunctionCall(f"SPANGLE direction must be 1 or -1, got {direction}")
        target = float(to_int(deg) % 360)
        if t <= 0:
            self._motion.set(sid, _ANGLES, (target,))
        else:
            current = float(self._motion.value[sid, _ANGLE])
            delta = (target - current) % 360 if direction == 1 else -((current - target) % 360)
            self._motion.set(sid, _ANGLES, (current + delta,), int(t))
        sp.stale = True

    def spscale(self, sid: int, pct: float, t: int = 0) -> None:
        """SPSCALE: 0-200 %, optionally over t frames."""
        sp = self._check_affine(sid, "SPSCALE")
        if not 0 <= pct <= 200:
            raise OutOfRange(f"SPSCALE {pct} not in 0-200")
        self._motion.set(sid, _SCALES, (float(pct),), int(t))
        sp.stale = True

    def spchk(self, sid: int) -> int:
        """SPCHK: 1 moving, 2 rotating, 4 scaling, 8 animating."""
        sp = self.get(sid)
        left = self._motion.left[sid]
        return (
            (1 if left[0] or left[1] else 0)
            | (2 if left[_ANGLE] else 0)
            | (4 if left[_SCALE] else 0)
            | (8 if sp.animating else 0)
        )

    def spread(self, sid: int) -> SpriteState:
        """SPREAD: position, angle, scale and base character.

        The position reads back as whole pixels, rounded toward -infinity like
        every PTC integer ([SBC] cmd_spread ``FP_TO_INT``, [EMK] ``floor``), even
        mid-move; :meth:`position` has the exact value.
        """
        sp = self.get(sid)
        x, y = self.position(sid)
        return SpriteState(to_int(x), to_int(y), self.angle(sid), self.scale(sid), sp.chr)

    # -- per frame -------------------------------------------------------------
    def step(self) -> None:
        """Advance SPOFS/SPANGLE/SPSCALE/SPANIM by one frame."""
        rows, cols = self._motion.step()
        sprites = self.sprites
        if len(rows):
            # Angles may leave 0-360 mid-turn; readers take them mod 360.
            for sid in rows[cols >= _ANGLE].tolist():
                sprites[sid].stale = True
        if self._animating:
            for sid in list(self._animating):
                sp = sprites[sid]
                self._step_anim(sp)
                if not sp.animating:
                    self._animating.discard(sid)

    def _step_anim(self, sp: Sprite) -> None:
        sp.anim_count += 1
        if sp.anim_count < sp.anim_t:
            return
        sp.anim_count = 0
        sp.anim_frame += 1
        self._new_look(sp)
        if sp.anim_frame >= sp.anim_n:
            sp.anim_loops_done += 1
            if sp.anim_loop and sp.anim_loops_done >= sp.anim_loop:
                sp.anim_frame = sp.anim_n - 1
                sp.animating = False
            else:
                sp.anim_frame = 0

    # -- drawing ---------------------------------------------------------------
    def prepare(self) -> None:
        """Drop cached images when sprite CHR or COL1 changed."""
        seen = (self._chr.version[self._family], self._pal.version[1])
        if seen != self._seen:
            self._seen = seen
            self._images.clear()  # keyed by tile numbers; transforms are keyed by content
            self.gen += 1

    def draw_lists(self) -> list[list[tuple[pygame.Surface, tuple[int, int]]]]:
        """Blit lists for priorities 0-3, each back to front (lower id first).

        At equal priority a higher id is drawn over a lower one, as both
        emulators draw ([EMK] ``Visual::draw``, [SBC] ``display_draw_all``);
        see docs/petitcom-decisions.md.
        """
        if self._order is None:
            self._order = [sp for sp in self.sprites if sp.active]
        if self._drawn_gen != self.gen:
            self._drawn_gen = self.gen
            for sp in self._order:
                self._new_look(sp)
        lists: list[list[tuple[pygame.Surface, tuple[int, int]]]] = [[], [], [], []]
        value = self._motion.value
        cells = np.floor(value[:, :2]).astype(np.int64)
        xs, ys = cells[:, 0].tolist(), cells[:, 1].tolist()
        turns: list[int] = (np.rint(value[:, _ANGLE]).astype(np.int64) % 360).tolist()
        sizes: list[int] = np.rint(value[:, _SCALE]).astype(np.int64).tolist()
        for sp in self._order:
            if sp.stale:
                sid = sp.sid
                sp.surf, sp.offx, sp.offy = self._look(sp, turns[sid], sizes[sid])
                sp.stale = False
            if sp.surf is not None:
                sid = sp.sid
                lists[sp.prio].append((sp.surf, (xs[sid] + sp.offx, ys[sid] + sp.offy)))
        return lists

    def _image(self, sp: Sprite) -> _Image:
        """(source, blit copy) of the sprite's current look, and its content key.

        The source stays plain for pygame's transforms; the blit copy is run-length
        encoded by SDL, which blits colour-keyed sprites fastest but would be
        decoded again by every transform.
        """
        tiles = self._chr.tiles[self._family]
        first = 4 * sp.current_chr()
        key = (first, sp.w, sp.h, sp.pal, sp.hflip, sp.vflip)
        found = self._images.get(key)
        if found is not None:
            return found
        tw, th = sp.w // 8, sp.h // 8
        idx = (first + np.arange(tw * th)) % len(tiles)
        pix = tiles[idx].reshape(th, tw, 8, 8).transpose(0, 2, 1, 3).reshape(sp.h, sp.w)
        if sp.hflip:
            pix = pix[:, ::-1]
        if sp.vflip:
            pix = pix[::-1, :]
        index = np.where(pix != 0, sp.pal * 16 + pix.astype(np.intp), 256)
        pixels = self._pal.lut(1)[index]
        plain = surface_from_pixels(pixels)
        fast = plain.copy()
        fast.set_colorkey(KEY_PIXEL, pygame.RLEACCEL)
        import hashlib  # by the first sprite shown: it loads OpenSSL, a run may show none

        digest = hashlib.blake2b(pixels.tobytes(), digest_size=16).digest()
        made = ((plain, fast), (sp.w, sp.h, digest))
        if len(self._images) > _CACHE_LIMIT:
            self._images.clear()
        self._images[key] = made
        return made

    def _look(self, sp: Sprite, angle: int, scale: int) -> _Look:
        """The image to blit at a rounded angle and scale, and its top-left offset."""
        pair = sp.base
        if pair is None:
            pair, sp.base_key = self._image(sp)
            sp.base = pair
        if angle == 0 and scale == 100:
            return pair[1], -sp.hx, -sp.hy
        cache = self._transforms
        looks = sp.looks
        if looks is None or sp.looks_gen != cache.gen:
            looks = sp.looks = cache.looks_for((*sp.base_key, sp.hx, sp.hy))
            sp.looks_gen = cache.gen
        found = looks.get((angle, scale))
        if found is None:
            scaled = cache.scaled(sp.base_key, pair[0], scale)
            found = rotate_sprite(scaled, sp.w, sp.h, sp.hx, sp.hy, angle)
            cache.store(looks, (angle, scale), found)
        return found

    # -- collision -------------------------------------------------------------
    def spcol(
        self, sid: int, x: int, y: int, w: int, h: int, scaleflag: bool = True, group: int = 0xFF
    ) -> None:
        """SPCOL: hitbox relative to the sprite box, scaling flag and 8-bit group mask.

        Ranges as [SBC] checks them: x, y -128..127, w, h 0..255, group 0..255.
        """
        sp = self.live(sid, "SPCOL")
        x, y, w, h, group = (to_int(v) for v in (x, y, w, h, group))
        for name, v, lo, hi in (("x", x, -128, 127), ("y", y, -128, 127), ("w", w, 0, 255),
                                ("h", h, 0, 255), ("group", group, 0, 255)):  # fmt: skip
            if not lo <= v <= hi:
                raise OutOfRange(f"SPCOL {name} {v} not in {lo}-{hi}")
        sp.col = (x, y, w, h, bool(scaleflag), group)

    def spcolvec(self, sid: int, dx: float, dy: float) -> None:
        """SPCOLVEC: the displacement of the last frame, used for swept collision."""
        self.get(sid).vec = (float(dx), float(dy))

    def _sweep(self, a: Sprite, box_b: tuple[float, float, float, float],
               vec_b: tuple[float, float]) -> HitResult | None:  # fmt: skip
        """Earliest t in [0, 1] at which a's box overlaps box_b, both moving along their vectors.

        At time t a box sits at ``now - (1 - t) * vec``; boxes whose edges touch
        collide ([SBC] sprites.c ``is_hit``: a projection inside ``min <= d <= max``).
        """
        ax, ay = self.position(a.sid)
        al, at, ar, ab = a.hitbox(ax - a.vec[0], ay - a.vec[1], self.scale(a.sid))
        bl, bt, br, bb = (box_b[0] - vec_b[0], box_b[1] - vec_b[1],
                          box_b[2] - vec_b[0], box_b[3] - vec_b[1])  # fmt: skip
        dx = a.vec[0] - vec_b[0]
        dy = a.vec[1] - vec_b[1]
        t0, t1 = 0.0, 1.0
        for lo_a, hi_a, lo_b, hi_b, d in ((al, ar, bl, br, dx), (at, ab, bt, bb, dy)):
            # overlap on this axis while lo_a + d*t <= hi_b and lo_b <= hi_a + d*t
            if d == 0:
                if not (lo_a <= hi_b and lo_b <= hi_a):
                    return None
                continue
            enter = (lo_b - hi_a) / d
            leave = (hi_b - lo_a) / d
            if enter > leave:
                enter, leave = leave, enter
            t0 = max(t0, enter)
            t1 = min(t1, leave)
            if t0 > t1:
                return None
        return HitResult(ax - (1 - t0) * a.vec[0], ay - (1 - t0) * a.vec[1], t0)

    def sphit(self, sid: int, start: int = 0) -> bool:
        """SPHIT: does sprite sid touch any active sprite from ``start`` (not itself)?

        The lowest colliding id wins; sets SPHITNO and SPHITX/Y/T.
        """
        a = self.get(sid)
        if not 0 <= start < SPRITE_COUNT:
            raise OutOfRange(f"SPHIT start {start} not in 0-99")
        if not a.active:
            return False
        for other in range(start, SPRITE_COUNT):
            b = self.sprites[other]
            if other == sid or not b.active or not (a.col[5] & b.col[5]):
                continue
            hit = self._sweep(a, b.hitbox(*self.position(other), self.scale(other)), b.vec)
            if hit is not None:
                self.hitno, self.hit = other, hit
                return True
        return False

    def sphitsp(self, a_id: int, b_id: int) -> bool:
        """SPHITSP: do two given sprites touch? Sets SPHITX/Y/T, not SPHITNO."""
        a, b = self.get(a_id), self.get(b_id)
        if not (a.active and b.active) or not (a.col[5] & b.col[5]) or a_id == b_id:
            return False
        hit = self._sweep(a, b.hitbox(*self.position(b_id), self.scale(b_id)), b.vec)
        if hit is None:
            return False
        self.hit = hit
        return True

    def sphitrc(
        self, sid: int, x: float, y: float, w: float, h: float, dx: float = 0, dy: float = 0
    ) -> bool:
        """SPHITRC: does the sprite touch a rectangle (moving by dx, dy per frame)?"""
        a = self.get(sid)
        if not a.active:
            return False
        hit = self._sweep(a, (x, y, x + w, y + h), (float(dx), float(dy)))
        if hit is None:
            return False
        self.hit = hit
        return True
