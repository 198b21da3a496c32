"""Palettes of one screen (COL0, COL1, COL2) and Petit Computer's 16-bit colour word.

The colour word is the DS BGR555 layout with the extra (lowest) green bit in
bit 15 (petitcom.md §0, §1.4). Stored words are expanded to 8-bit RGB the way
COLREAD reports them, round(n*255/31) and round(n*255/63), and that expansion is
also what the screen shows.

The console colours and every default colour the references document are
Petit Computer's; the rest of the default palettes is our own design (the ROM
palette is not published); see docs/petitcom-decisions.md.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from petitcom_shim.errors import IllegalFunctionCall, OutOfRange

__all__ = [
    "CONSOLE_COLOURS",
    "DOCUMENTED_DEFAULTS",
    "KEY_PIXEL",
    "KINDS",
    "Palettes",
    "decode_color",
    "default_words",
    "encode_color",
    "parse_rrggbb",
    "pixel_value",
]

#: Palette kinds as COLSET names them, mapped to the COL resource number.
KINDS: dict[str, int] = {"BG": 0, "SP": 1, "GRP": 2}

#: 32-bit pixel used for "transparent" inside cached layer surfaces. Its blue
#: byte 254 can never come out of the 5-bit expansion, so no palette colour
#: collides with it.
KEY_PIXEL = 0xFF00FE

#: The console colours for COLOR 0-15 (entry 15 of COL0 palette n), as
#: Petit Computer shows them. Source: [PEMU] data.h ``consolecharcolor`` (the
#: only published table; petitcom.md §1.4 marks it approximate). COLSET-style
#: quantisation to 5/6/5 bits happens when the palette is built, so COLREAD
#: returns the nearest colour the hardware can hold.
CONSOLE_COLOURS: tuple[tuple[int, int, int], ...] = (
    (255, 255, 255),  # 0 white (default text)
    (0, 0, 0),  # 1 black
    (191, 191, 191),  # 2 light grey
    (255, 224, 0),  # 3 yellow
    (0, 240, 31),  # 4 green
    (0, 127, 0),  # 5 dark green
    (255, 203, 167),  # 6 peach
    (255, 160, 0),  # 7 orange
    (151, 94, 46),  # 8 brown
    (0, 191, 255),  # 9 sky blue
    (127, 63, 255),  # 10 violet
    (0, 63, 240),  # 11 blue
    (255, 95, 192),  # 12 pink
    (255, 31, 0),  # 13 red
    (63, 63, 63),  # 14 dark grey
    (255, 255, 255),  # 15 white
)

#: Default colours the references document outside the console colours:
#: (COL number, colour number) -> RGB as COLREAD returns it. [WIKI] COLREAD:
#: ``COLREAD("BG",20)`` gives 33,57,132.
DOCUMENTED_DEFAULTS: dict[tuple[int, int], tuple[int, int, int]] = {
    (0, 20): (33, 57, 132),
}


def _expand5(n: int) -> int:
    return (n * 255 + 15) // 31


def _expand6(n: int) -> int:
    return (n * 255 + 31) // 63


def encode_color(r: int, g: int, b: int) -> int:
    """Quantise 8-bit RGB to a PTC colour word (R5, G6 with its low bit in bit 15, B5).

    Args:
        r: Red 0-255.
        g: Green 0-255.
        b: Blue 0-255.

    Returns:
        The 16-bit word as COLSET stores it.
    """
    for v in (r, g, b):
        if not 0 <= v <= 255:
            raise OutOfRange(f"colour component {v} not in 0-255")
    r5, g6, b5 = r >> 3, g >> 2, b >> 3
    return r5 | (g6 >> 1) << 5 | b5 << 10 | (g6 & 1) << 15


def decode_color(word: int) -> tuple[int, int, int]:
    """Expand a PTC colour word to 8-bit RGB exactly as COLREAD reports it."""
    r5 = word & 0x1F
    g6 = ((word >> 5) & 0x1F) << 1 | (word >> 15) & 1
    b5 = (word >> 10) & 0x1F
    return _expand5(r5), _expand6(g6), _expand5(b5)


def pixel_value(rgb: tuple[int, int, int]) -> int:
    """Pack RGB into the 0xRRGGBB pixel format of every shim surface."""
    return rgb[0] << 16 | rgb[1] << 8 | rgb[2]


def parse_rrggbb(text: str) -> tuple[int, int, int]:
    """Parse COLSET's "RRGGBB" argument (exactly 6 hex digits)."""
    if len(text) != 6:
        raise IllegalFunctionCall(f"colour string must be 6 hex digits, got {text!r}")
    try:
        value = int(text, 16)
    except ValueError:
        raise IllegalFunctionCall(f"colour string must be 6 hex digits, got {text!r}") from None
    return value >> 16, (value >> 8) & 0xFF, value & 0xFF


def _ramp(colour: tuple[int, int, int], start: tuple[int, int, int]) -> list[tuple[int, int, int]]:
    """Entries 1-15 of a 16-colour palette: a smooth ramp from ``start`` to ``colour``."""
    out = []
    for i in range(1, 16):
        t = i / 15
        out.append(tuple(round(s + (c - s) * t) for s, c in zip(start, colour, strict=True)))
    return out  # type: ignore[return-value]


def _default_rgb(kind: int) -> list[tuple[int, int, int]]:
    if kind in (0, 1):
        # Palette 0: a general-purpose set (console colours 1-14, white at 15).
        # Palette n >= 1: a ramp from a dark shade up to console colour n, so
        # entry 15 (the font ink) is COLOR n and entries 1-14 give shading.
        colours: list[tuple[int, int, int]] = [(0, 0, 0)]
        colours += [*CONSOLE_COLOURS[1:15], CONSOLE_COLOURS[0]]
        for n in range(1, 16):
            target = CONSOLE_COLOURS[n]
            start = (255, 255, 255) if n == 1 else (16, 16, 24)
            colours += [(0, 0, 0), *_ramp(target, start)]
        for (col, n), rgb in DOCUMENTED_DEFAULTS.items():
            if col == kind:
                colours[n] = rgb
        return colours
    # COL2 (GRP): 0-15 the console colours, 16-231 a 6x6x6 cube, 232-255 greys.
    colours = [(0, 0, 0), *CONSOLE_COLOURS[1:]]
    steps = (0, 52, 104, 152, 204, 255)
    colours += [(r, g, b) for r in steps for g in steps for b in steps]
    greys = [round(8 + i * 240 / 23) for i in range(24)]
    colours += [(v, v, v) for v in greys]
    return colours


def default_words(kind: int) -> npt.NDArray[np.uint16]:
    """The 256 default colour words of COL0 (kind 0), COL1 (1) or COL2 (2)."""
    return np.array([encode_color(*c) for c in _default_rgb(kind)], dtype=np.uint16)


_DEFAULTS = tuple(default_words(k) for k in range(3))


class Palettes:
    """COL0, COL1 and COL2 of one screen, with per-kind pixel lookup tables.

    ``lut(kind)`` gives 257 packed 0xRRGGBB pixels: the 256 colours followed by
    :data:`KEY_PIXEL`, so index 256 can stand for "transparent" in vectorised
    lookups. ``version[kind]`` changes on every write so renderers know when
    their caches are stale.
    """

    def __init__(self, defaults: Mapping[int, npt.NDArray[np.uint16]] | None = None) -> None:
        given = defaults or {}
        #: What COLINIT restores: the user's ROM palettes where given, else ours.
        self.defaults = tuple(
            np.asarray(given[k], dtype=np.uint16) if k in given else _DEFAULTS[k] for k in range(3)
        )
        self.words = [d.copy() for d in self.defaults]
        self.version = [0, 0, 0]
        self._luts: list[npt.NDArray[np.uint32] | None] = [None, None, None]

    def colset(self, kind: int, n: int, rgb: tuple[int, int, int]) -> None:
        """Store colour n (0-255) of COL<kind>."""
        if not 0 <= n <= 255:
            raise OutOfRange(f"colour number {n} not in 0-255")
        self.words[kind][n] = encode_color(*rgb)
        self._touch(kind)

    def colread(self, kind: int, n: int) -> tuple[int, int, int]:
        """Colour n of COL<kind> as 8-bit RGB (COLREAD's expansion)."""
        if not 0 <= n <= 255:
            raise OutOfRange(f"colour number {n} not in 0-255")
        return decode_color(int(self.words[kind][n]))

    def colinit(self, kind: int | None = None, n: int | None = None) -> None:
        """Restore the defaults of every kind, one kind, or one colour of a kind."""
        kinds = range(3) if kind is None else (kind,)
        for k in kinds:
            if n is None:
                self.words[k][:] = self.defaults[k]
            else:
                if not 0 <= n <= 255:
                    raise OutOfRange(f"colour number {n} not in 0-255")
                self.words[k][n] = self.defaults[k][n]
            self._touch(k)

    def copy_palette(self, src_kind: int, pal: int) -> None:
        """GPUTCHR's side effect: COL2[16*pal .. 16*pal+15] = COL<src_kind> palette pal."""
        self.words[2][16 * pal : 16 * pal + 16] = self.words[src_kind][16 * pal : 16 * pal + 16]
        self._touch(2)

    def rgb(self, kind: int, n: int) -> tuple[int, int, int]:
        """Displayed RGB of colour n of COL<kind>."""
        return decode_color(int(self.words[kind][n]))

    def lut(self, kind: int) -> npt.NDArray[np.uint32]:
        """257 packed pixels: the 256 colours of COL<kind>, then the transparent key."""
        table = self._luts[kind]
        if table is None:
            w = self.words[kind].astype(np.uint32)
            r5 = w & 0x1F
            g6 = ((w >> 5) & 0x1F) << 1 | (w >> 15) & 1
            b5 = (w >> 10) & 0x1F
            r = (r5 * 255 + 15) // 31
            g = (g6 * 255 + 31) // 63
            b = (b5 * 255 + 15) // 31
            table = np.empty(257, dtype=np.uint32)
            table[:256] = r << 16 | g << 8 | b
            table[256] = KEY_PIXEL
            self._luts[kind] = table
        return table

    def _touch(self, kind: int) -> None:
        self.version[kind] += 1
        self._luts[kind] = None
