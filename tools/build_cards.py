"""Build the game's CHR sheets from the readable sources in assets/cards/.

Writes two indexed PNGs (pixel values 0-15, loaded into the machine with CHRLOAD):

* ``royalnine/data/cards_sp.png`` - sprite tiles. Each 128x8 strip is one 32x32
  sprite in 1-D tile order (16 tiles: row 0 of tiles left to right, then row 1...),
  so CHRLOAD puts sprite ``k`` at tiles ``16k``..``16k+15`` = sprite chr ``4k``.
  Strips 0-19 are the card faces by ``Card.index`` (red 1-10, blue 1-10), 20 is
  the card back, 21 holds a 16x16 star (first 4 tiles) for celebrations.
* ``royalnine/data/table_bg.png`` - BG tiles, row-major, 16 per row: blank,
  felt, an empty-cell slot (3x4 tiles) and a 3x3 nine-patch for buttons.

A card is 24x32 pixels (the right 8 columns of its 32x32 sprite are clear):
rounded border, big bold rank on top and the suit mark below (heart = red,
spade = blue), so rank and colour read at 1x and without colour vision.

Pixel values (the palettes live in royalnine/art.py): cards 1 border, 2 paper,
3 red ink, 4 blue ink, 5 paper shade, 6-8 card back; BG 1-2 felt, 3 slot edge,
4 slot inside, 5-8 button.

Usage: ``python tools/build_cards.py`` (``--check`` exits 1 if the committed
files differ from a fresh build).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
GLYPHS = ROOT / "assets" / "cards" / "glyphs.txt"
OUT_SP = ROOT / "royalnine" / "data" / "cards_sp.png"
OUT_BG = ROOT / "royalnine" / "data" / "table_bg.png"

Pixels = npt.NDArray[np.uint8]

CARD_W, CARD_H = 24, 32
BORDER, PAPER, RED, BLUE, SHADE, BACK, BACK_PATTERN, BACK_EDGE = 1, 2, 3, 4, 5, 6, 7, 8
FELT, FELT_DOT, SLOT_EDGE, SLOT_IN = 1, 2, 3, 4
BTN_EDGE, BTN_FILL, BTN_LIGHT, BTN_DARK = 5, 6, 7, 8
STAR_INK = 3

# A preview palette so the PNGs look like cards in an image viewer; the game
# sets its own palettes with COLSET.
PREVIEW = [
    (0, 0, 0),
    (32, 32, 48),
    (248, 248, 240),
    (216, 40, 40),
    (32, 80, 216),
    (200, 200, 208),
    (40, 96, 72),
    (96, 168, 120),
    (232, 200, 80),
] + [(255, 0, 255)] * 7

STAR = """
.......##.......
.......##.......
......####......
......####......
.....######.....
###############.
.#############..
..###########...
...#########....
...#########....
..####..#####...
..###....####...
.###......###...
.##........##...
.#..........#...
................
"""


def read_glyphs(path: Path = GLYPHS) -> dict[str, Pixels]:
    """Parse the ``= name`` blocks of a glyph file into 0/1 arrays."""
    glyphs: dict[str, Pixels] = {}
    name: str | None = None
    rows: list[str] = []

    def flush() -> None:
        if name is not None:
            glyphs[name] = _rows_to_array(rows, name)

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line.startswith("#") and name is None:
            continue
        if line.startswith("= "):
            flush()
            name, rows = line[2:].strip(), []
        elif line:
            rows.append(line)
    flush()
    return glyphs


def _rows_to_array(rows: list[str], name: str) -> Pixels:
    if not rows or len({len(r) for r in rows}) != 1:
        raise ValueError(f"glyph {name!r} has ragged or no rows")
    return np.array([[1 if ch == "#" else 0 for ch in r] for r in rows], dtype=np.uint8)


def _blank_card() -> Pixels:
    card = np.zeros((32, 32), np.uint8)
    card[0:CARD_H, 0:CARD_W] = BORDER
    card[1 : CARD_H - 1, 1 : CARD_W - 1] = PAPER
    card[CARD_H - 2, 2 : CARD_W - 1] = SHADE
    card[2 : CARD_H - 1, CARD_W - 2] = SHADE
    for y, x in ((0, 0), (0, CARD_W - 1), (CARD_H - 1, 0), (CARD_H - 1, CARD_W - 1)):
        card[y, x] = 0
    return card


def _stamp(target: Pixels, glyph: Pixels, x: int, y: int, value: int) -> None:
    h, w = glyph.shape
    region = target[y : y + h, x : x + w]
    region[glyph == 1] = value


def card_face(rank: int, red: bool, glyphs: dict[str, Pixels]) -> Pixels:
    """One 32x32 sprite image of a card face (24x32 card, clear right margin)."""
    card = _blank_card()
    ink = RED if red else BLUE
    digits = [glyphs[d] for d in str(rank)]
    width = sum(d.shape[1] for d in digits) + (len(digits) - 1)
    x = (CARD_W - width + 1) // 2
    for digit in digits:
        _stamp(card, digit, x, 4, ink)
        x += digit.shape[1] + 1
    suit = glyphs["heart" if red else "spade"]
    _stamp(card, suit, (CARD_W - suit.shape[1]) // 2, 18, ink)
    small = glyphs["heart_small" if red else "spade_small"]
    _stamp(card, small, 2, 2, ink)
    return card


def card_back() -> Pixels:
    """The face-down card: a lattice inside a gold frame."""
    card = _blank_card()
    inner = card[2 : CARD_H - 2, 2 : CARD_W - 2]
    h, w = inner.shape
    for y in range(h):
        for x in range(w):
            on_edge = y in (0, h - 1) or x in (0, w - 1)
            lattice = (x + y) % 6 == 0 or (x - y) % 6 == 0
            inner[y, x] = BACK_EDGE if on_edge else (BACK_PATTERN if lattice else BACK)
    return card


def star_sprite() -> Pixels:
    """A 16x16 star in the first 4 tiles of a 32x32 strip (1-D order)."""
    rows = [r for r in STAR.strip().splitlines()]
    star = _rows_to_array(rows, "star") * STAR_INK
    out = np.zeros((32, 32), np.uint8)
    # 16x16 sprite tiles in 1-D order: TL, TR, BL, BR -> strip positions 0-3.
    tiles = [star[0:8, 0:8], star[0:8, 8:16], star[8:16, 0:8], star[8:16, 8:16]]
    strip = _to_strip(out)
    for i, t in enumerate(tiles):
        strip[:, i * 8 : i * 8 + 8] = t
    return _from_strip(strip)


def _to_strip(sprite: Pixels) -> Pixels:
    """A 32x32 sprite as a 8x128 strip of its 16 tiles in 1-D order."""
    tiles = sprite.reshape(4, 8, 4, 8).swapaxes(1, 2).reshape(16, 8, 8)
    return np.concatenate(list(tiles), axis=1)


def _from_strip(strip: Pixels) -> Pixels:
    tiles = strip.reshape(8, 16, 8).swapaxes(0, 1)
    return tiles.reshape(4, 4, 8, 8).swapaxes(1, 2).reshape(32, 32)


def build_sprite_sheet(glyphs: dict[str, Pixels]) -> Pixels:
    """The whole sprite sheet: 22 strips of 8x128."""
    sprites = [card_face(rank, True, glyphs) for rank in range(1, 11)]
    sprites += [card_face(rank, False, glyphs) for rank in range(1, 11)]
    sprites.append(card_back())
    strips = [_to_strip(s) for s in sprites]
    strips.append(_to_strip(star_sprite()))
    return np.concatenate(strips, axis=0)


def _slot() -> Pixels:
    slot = np.full((CARD_H, CARD_W), SLOT_IN, np.uint8)
    for x in range(CARD_W):
        if x % 4 != 3:
            slot[0, x] = slot[CARD_H - 1, x] = SLOT_EDGE
    for y in range(CARD_H):
        if y % 4 != 3:
            slot[y, 0] = slot[y, CARD_W - 1] = SLOT_EDGE
    for y, x in ((0, 0), (0, CARD_W - 1), (CARD_H - 1, 0), (CARD_H - 1, CARD_W - 1)):
        slot[y, x] = FELT
    return slot


def _button() -> Pixels:
    box = np.full((24, 24), BTN_FILL, np.uint8)
    box[0, :] = box[-1, :] = BTN_EDGE
    box[:, 0] = box[:, -1] = BTN_EDGE
    box[1, 1:-1] = BTN_LIGHT
    box[1:-1, 1] = BTN_LIGHT
    box[-2, 1:-1] = BTN_DARK
    box[1:-1, -2] = BTN_DARK
    for y, x in ((0, 0), (0, -1), (-1, 0), (-1, -1)):
        box[y, x] = 0
    return box


def _stack() -> Pixels:
    """Tiles for rows of buttons 2 tiles apart sharing their borders (OPTIONS): a top
    edge, a separator and a bottom edge (3 columns each), every line in the middle
    of its tile, so a text row between two of them has 3-4 clear pixels each side."""
    rows = np.zeros((24, 24), np.uint8)

    def sides(y: int) -> None:
        rows[y, 0] = rows[y, -1] = BTN_EDGE
        rows[y, 1] = BTN_LIGHT
        rows[y, -2] = BTN_DARK

    for y in (5, 6, 7, 8, 9, 13, 14, 15, 16, 17):  # fill below a line, above the next
        rows[y, 1:-1] = BTN_FILL
        sides(y)
    for top in (0, 8):  # the top edge and the separator: an edge, then the light line
        rows[top + 3, 1:-1] = BTN_EDGE
        rows[top + 4, 1:-1] = BTN_LIGHT
        sides(top + 4)
        rows[top + 4, 1] = BTN_LIGHT
    rows[8 + 3, 0] = rows[8 + 3, -1] = BTN_EDGE  # the separator meets the sides
    rows[8 + 2, 1:-1] = rows[16 + 2, 1:-1] = BTN_DARK  # the shade above a line
    sides(10)
    sides(18)
    rows[10, 1] = rows[18, 1] = BTN_LIGHT
    rows[16 + 3, 1:-1] = BTN_EDGE  # the bottom edge
    return rows


def build_bg_sheet() -> Pixels:
    """BG tiles: 0 blank, 1 felt, 2-13 slot (3x4, row-major), 14-22 button nine-patch,
    23 solid, 24-32 stacked-row edges (top, separator, bottom; 3 columns each)."""
    tiles: list[Pixels] = [np.zeros((8, 8), np.uint8)]
    felt = np.full((8, 8), FELT, np.uint8)
    felt[1, 2] = felt[5, 6] = FELT_DOT
    tiles.append(felt)
    slot = _slot()
    tiles += [slot[ty * 8 : ty * 8 + 8, tx * 8 : tx * 8 + 8] for ty in range(4) for tx in range(3)]
    button = _button()
    tiles += [
        button[ty * 8 : ty * 8 + 8, tx * 8 : tx * 8 + 8] for ty in range(3) for tx in range(3)
    ]
    tiles.append(np.full((8, 8), BTN_FILL, np.uint8))
    stack = _stack()
    tiles += [stack[ty * 8 : ty * 8 + 8, tx * 8 : tx * 8 + 8] for ty in range(3) for tx in range(3)]
    while len(tiles) % 16:
        tiles.append(np.zeros((8, 8), np.uint8))
    rows = [np.concatenate(tiles[i : i + 16], axis=1) for i in range(0, len(tiles), 16)]
    return np.concatenate(rows, axis=0)


def build_all() -> dict[Path, Pixels]:
    """Every output file and its pixels."""
    glyphs = read_glyphs()
    return {OUT_SP: build_sprite_sheet(glyphs), OUT_BG: build_bg_sheet()}


def to_png(pixels: Pixels, path: Path) -> None:
    """Save an indexed PNG with the preview palette."""
    img = Image.fromarray(pixels, mode="P")
    flat = [v for rgb in PREVIEW for v in rgb]
    img.putpalette(flat + [0] * (768 - len(flat)))
    path.parent.mkdir(parents=True, exist_ok=True)
    img.save(path, optimize=False)


def main(argv: list[str] | None = None) -> int:
    """Build (or with --check, verify) the sheets; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare with the built files")
    args = parser.parse_args(argv)
    status = 0
    for path, pixels in build_all().items():
        if args.check:
            with Image.open(path) as img:
                same = np.array_equal(np.asarray(img, dtype=np.uint8), pixels)
            if not same:
                print(f"{path.relative_to(ROOT)} is out of date; run tools/build_cards.py")
                status = 1
        else:
            to_png(pixels, path)
            print(f"wrote {path.relative_to(ROOT)} ({pixels.shape[1]}x{pixels.shape[0]})")
    return status


if __name__ == "__main__":
    sys.exit(main())
