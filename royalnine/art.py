"""The game's look: loads our card/table CHR sheets and sets our palettes on the machine.

The sheets are built by ``tools/build_cards.py`` from ``assets/cards/``; this
module knows where each picture sits (sprite character numbers, BG tile
numbers) and which palette gives which state (normal, selected, locked,
illegal), so the screens only ever say "card R7, selected" and never juggle
numbers. Both screens get identical banks and palettes.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np
import numpy.typing as npt

from royalnine.core.cards import Card, Colour

if TYPE_CHECKING:
    import pygame

SHEET_SP = "cards_sp.png"
SHEET_BG = "table_bg.png"

# --- sprite characters (16x16 units; a card is a 32x32 sprite = 4 units) ---
CARD_BACK_CHR = 80
STAR_CHR = 84
CARD_W, CARD_H = 24, 32
SPRITE_SIZE = 32


def card_chr(card: Card) -> int:
    """Sprite character of a card face."""
    return 4 * card.index


# --- sprite palettes (COL1) ---
SP_NORMAL = 0
SP_SELECTED = 1
SP_LOCKED = 2
SP_ILLEGAL = 3
SP_SCORED = 4
SP_STAR = 5

# --- BG tiles and palettes (COL0) ---
TILE_BLANK = 0
TILE_FELT = 1
TILE_SLOT = 2  # 3x4 tiles, row-major: 2..13
TILE_BUTTON = 14  # 3x3 nine-patch: 14..22
TILE_SOLID = 23
TILE_STACK = 24  # 3x3: top edge, separator, bottom edge of stacked rows: 24..32

BG_FELT = 0
BG_SLOT_TARGET = 1
BG_SLOT_ILLEGAL = 2
BG_BUTTON = 3
BG_BUTTON_OFF = 4
BG_BUTTON_DOWN = 5
BG_PANEL = 6
BG_SLOT_CURSOR = 7  # the empty cell under the pad cursor

# Console text colours: COLOR n paints pixel 15 of BG palette n (petitcom.md §1.4),
# so index 15 of every BG palette is a text colour; our art uses indices 1-8 only.
TEXT_WHITE = 0
TEXT_BLACK = 1
TEXT_GREY = 2
TEXT_YELLOW = 3
TEXT_GREEN = 4
TEXT_DARK = 5
TEXT_PEACH = 6
TEXT_ORANGE = 7
TEXT_BROWN = 8
TEXT_CYAN = 9
TEXT_PURPLE = 10
TEXT_BLUE = 11
TEXT_PINK = 12
TEXT_RED = 13
TEXT_DIM = 14

TEXT_COLOURS = (
    "F8F8F8",
    "101018",
    "C0C0C8",
    "F8E040",
    "70F070",
    "184830",
    "F8D0B0",
    "F8A020",
    "A06030",
    "60D8F8",
    "B080F8",
    "4878F8",
    "F890C8",
    "F84838",
    "405048",
    "F8F8F8",
)

_FELT = {1: "1E6B45", 2: "23774D", 3: "7CC497", 4: "195C3B"}
_BUTTON = {5: "101018", 6: "E8E0C8", 7: "F8F8F0", 8: "A09880"}
BG_PALETTES: dict[int, dict[int, str]] = {
    BG_FELT: _FELT,
    BG_SLOT_TARGET: {**_FELT, 3: "F8E040", 4: "2E8C58"},
    BG_SLOT_ILLEGAL: {**_FELT, 3: "F84838", 4: "5C2A2A"},
    BG_BUTTON: {**_FELT, **_BUTTON},
    BG_BUTTON_OFF: {**_FELT, 5: "304038", 6: "587060", 7: "688070", 8: "485850"},
    BG_BUTTON_DOWN: {**_FELT, 5: "101018", 6: "F8D040", 7: "F8E890", 8: "B89020"},
    BG_PANEL: {**_FELT, 6: "123F29"},
    BG_SLOT_CURSOR: {**_FELT, 3: "F8F8F8", 4: "B08A20"},
}

_CARD = {1: "202030", 2: "F8F8F0", 3: "D82020", 4: "1848D0", 5: "C8C8D0"}
_BACK = {6: "7A2030", 7: "B84858", 8: "E8C050"}
SP_PALETTES: dict[int, dict[int, str]] = {
    SP_NORMAL: {**_CARD, **_BACK},
    SP_SELECTED: {**_CARD, 1: "F8A000", 2: "FFF4B0", 5: "E8C860", **_BACK, 8: "F8F080"},
    # Fixed cards: a dimmed face and muted suits, plainly apart from the cards that can move.
    SP_LOCKED: {**_CARD, 1: "505058", 2: "A8A8A0", 3: "984040", 4: "3C5490", 5: "808080", **_BACK},
    SP_ILLEGAL: {**_CARD, 1: "F80000", 2: "F8C8C8", 5: "E09090", **_BACK},
    SP_SCORED: {**_CARD, 1: "F8F8F8", 2: "B8F8A8", 5: "80D870", **_BACK},
    SP_STAR: {3: "F8E040"},
}


#: Side of the window icon in pixels (a 32x32 drawing at twice the size).
ICON_SIZE = 64


def _sprite_pixels(sheet: npt.NDArray[np.uint8], chr_: int) -> npt.NDArray[np.uint8]:
    """The 32x32 colour indices of a sprite character of the SP sheet (1-D tile mapping)."""
    first = 4 * chr_  # 8x8 tiles, 16 of them in row order make a 32x32 sprite
    tiles_per_row = sheet.shape[1] // 8
    out = np.zeros((SPRITE_SIZE, SPRITE_SIZE), np.uint8)
    for k in range(16):
        t = first + k
        ty, tx = divmod(t, tiles_per_row)
        oy, ox = divmod(k, 4)
        tile = sheet[ty * 8 : ty * 8 + 8, tx * 8 : tx * 8 + 8]
        out[oy * 8 : oy * 8 + 8, ox * 8 : ox * 8 + 8] = tile
    return out


def window_icon() -> pygame.Surface:
    """Our window icon: a red nine over a face-down card, drawn from our own card sheet.

    The two 24x32 cards overlap on a 32x32 square (transparent elsewhere),
    shown at twice the size so it stays crisp on high-density desktops.
    """
    import pygame

    indices = pygame.surfarray.array2d(pygame.image.load(str(data_path(SHEET_SP)))).T
    sheet = np.ascontiguousarray(indices, dtype=np.uint8)
    rgba = np.zeros((SPRITE_SIZE, SPRITE_SIZE, 4), np.uint8)
    colours = SP_PALETTES[SP_NORMAL]
    for chr_, dx in ((CARD_BACK_CHR, 0), (card_chr(Card(Colour.RED, 9)), SPRITE_SIZE - CARD_W)):
        card = _sprite_pixels(sheet, chr_)[:, :CARD_W]
        for index, hex_rgb in colours.items():
            ys, xs = np.nonzero(card == index)
            rgba[ys, xs + dx, :3] = [int(hex_rgb[i : i + 2], 16) for i in (0, 2, 4)]
            rgba[ys, xs + dx, 3] = 255
    big = rgba.repeat(ICON_SIZE // SPRITE_SIZE, 0).repeat(ICON_SIZE // SPRITE_SIZE, 1)
    return pygame.image.frombuffer(big.tobytes(), (ICON_SIZE, ICON_SIZE), "RGBA").copy()


class ArtTarget(Protocol):
    """The machine verbs :func:`load_art` needs (a subset of petitcom_shim.Machine)."""

    def chrload(self, res: str, source: str | Path | pygame.Surface, start: int = 0) -> int: ...
    def colset(self, kind: str, n: int, rrggbb: str) -> None: ...
    def bgpage(self, s: int) -> None: ...
    def sppage(self, s: int) -> None: ...


def data_path(name: str) -> Path:
    """Path of a file in royalnine/data."""
    return Path(str(resources.files("royalnine") / "data" / name))


def _blank_tiles(count: int) -> pygame.Surface:
    """An 8-bit surface of ``count`` blank 8x8 tiles (16 a row) for CHRLOAD."""
    import pygame

    return pygame.Surface((128, count // 16 * 8), depth=8)


def load_art(m: ArtTarget) -> None:
    """Load both CHR sheets and every palette onto both screens.

    The banks the sheets go into are blanked first: the machine's default banks
    hold art of their own (as Petit Computer's do), and the game's sprites and
    tiles reach past the end of its sheets into tiles it expects empty.
    """
    sp, bg = data_path(SHEET_SP), data_path(SHEET_BG)
    for screen, suffix in ((0, "U"), (1, "L")):
        m.sppage(screen)
        m.bgpage(screen)
        sprites = "SPU0" if screen == 0 else "SPS0L"
        m.chrload(sprites, _blank_tiles(2048 if screen == 0 else 512))
        m.chrload(sprites, sp)
        m.chrload(f"BGU0{suffix}", _blank_tiles(1024))
        m.chrload(f"BGU0{suffix}", bg)
        for pal in range(16):
            m.colset("BG", pal * 16 + 15, TEXT_COLOURS[pal])
            for idx, rgb in BG_PALETTES.get(pal, {}).items():
                m.colset("BG", pal * 16 + idx, rgb)
            for idx, rgb in SP_PALETTES.get(pal, {}).items():
                m.colset("SP", pal * 16 + idx, rgb)
