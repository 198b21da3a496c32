"""Drawing helpers shared by the scenes: card sprites, table BG, buttons and console text.

Everything goes through the machine's SmileBASIC verbs. :class:`SpriteBoard`
makes sprites declarative: a scene says each frame which cards should be where,
and the board issues only the SPSET/SPCHR/SPOFS/SPCLR calls needed, moving a
card with SPOFS interpolation when its place changes - that is what animates
deals and placements.
"""

from __future__ import annotations

from dataclasses import dataclass

from petitcom_shim import Machine
from royalnine import art
from royalnine.core import Card
from royalnine.i18n import cells
from royalnine.screens.layout import Rect

CARD_PRIO = 1
HELD_PRIO = 0


@dataclass(frozen=True)
class SpriteLook:
    """What a sprite shows and where it should be."""

    chr: int
    pal: int
    prio: int
    x: int
    y: int
    w: int = art.SPRITE_SIZE
    h: int = art.SPRITE_SIZE
    hx: int = 0
    hy: int = 0
    """Home point (rotation/scale centre); x, y stay the top-left of the unscaled sprite."""


class SpriteBoard:
    """Declarative sprites for one screen: say what to show each frame, get minimal calls."""

    def __init__(self, m: Machine, screen: int) -> None:
        self.m = m
        self.screen = screen
        self.current: dict[int, SpriteLook] = {}
        self._wanted: dict[int, tuple[SpriteLook, int, tuple[int, int] | None]] = {}

    def begin(self) -> None:
        """Start describing a frame."""
        self._wanted = {}

    def show(
        self,
        sid: int,
        look: SpriteLook,
        *,
        t: int = 6,
        start: tuple[int, int] | None = None,
    ) -> None:
        """Want sprite ``sid`` to look like ``look``.

        Args:
            sid: sprite id.
            look: picture, palette, priority and target position.
            t: frames to glide there if it is already shown elsewhere.
            start: for a new sprite, fly in from this point instead of appearing in place.
        """
        self._wanted[sid] = (look, t, start)

    def end(self) -> None:
        """Apply the differences to the machine."""
        m = self.m
        m.sppage(self.screen)
        for sid in [s for s in self.current if s not in self._wanted]:
            m.spclr(sid)
            del self.current[sid]
        for sid, (look, t, start) in self._wanted.items():
            old = self.current.get(sid)
            if old is None or (old.w, old.h) != (look.w, look.h):
                m.spset(sid, look.chr, look.pal, 0, 0, look.prio, look.w, look.h)
                if look.hx or look.hy:
                    m.sphome(sid, look.hx, look.hy)
                if start is not None:
                    m.spofs(sid, start[0] + look.hx, start[1] + look.hy)
                    m.spofs(sid, look.x + look.hx, look.y + look.hy, t)
                else:
                    m.spofs(sid, look.x + look.hx, look.y + look.hy)
            else:
                if (old.chr, old.pal, old.prio) != (look.chr, look.pal, look.prio):
                    m.spchr(sid, look.chr, look.pal, 0, 0, look.prio)
                if (old.x, old.y) != (look.x, look.y):
                    m.spofs(sid, look.x + look.hx, look.y + look.hy, t)
            self.current[sid] = look

    def clear(self) -> None:
        """Remove every sprite this board made."""
        self.m.sppage(self.screen)
        for sid in self.current:
            self.m.spclr(sid)
        self.current = {}


def card_look(
    card: Card | None, x: int, y: int, pal: int = art.SP_NORMAL, prio: int = CARD_PRIO
) -> SpriteLook:
    """A card face (or the back when ``card`` is None) at (x, y)."""
    chr_ = art.CARD_BACK_CHR if card is None else art.card_chr(card)
    return SpriteLook(chr_, pal, prio, x, y, hx=art.CARD_W // 2, hy=art.CARD_H // 2)


def reset_screen(m: Machine, screen: int, *, felt: bool = True) -> None:
    """Blank one screen: console, both BG layers (felt on BG1), sprites."""
    m.cpage(screen)
    m.color(art.TEXT_WHITE)
    m.cls()
    m.bgpage(screen)
    m.bgclr()
    if felt:
        m.bgfill(1, 0, 0, 31, 23, art.TILE_FELT, art.BG_FELT, 0, 0)
    m.sppage(screen)
    m.spclr()


def fold(text: str, width: int, rows: int) -> list[str]:
    """A long one-line message cut into at most ``rows`` console lines of ``width`` cells."""
    return [text[i : i + width] for i in range(0, min(len(text), width * rows), width)]


def reset_screens(m: Machine) -> None:
    """Blank both screens as :func:`reset_screen` does, and clear both GRP pages too."""
    for screen in (0, 1):
        reset_screen(m, screen)
        m.gpage(screen)
        m.gcls()


def slot(m: Machine, screen: int, rect: Rect, pal: int = art.BG_FELT) -> None:
    """An empty card place (dashed outline) on BG1."""
    m.bgpage(screen)
    tx, ty, _, _ = rect.tiles
    for j in range(4):
        for i in range(3):
            m.bgput(1, tx + i, ty + j, art.TILE_SLOT + j * 3 + i, pal, 0, 0)


def felt_at(m: Machine, screen: int, rect: Rect) -> None:
    """Plain felt over a tile-aligned rectangle of BG1."""
    m.bgpage(screen)
    tx, ty, tw, th = rect.tiles
    m.bgfill(1, tx, ty, tx + tw - 1, ty + th - 1, art.TILE_FELT, art.BG_FELT, 0, 0)


def box(m: Machine, screen: int, rect: Rect, pal: int = art.BG_BUTTON) -> None:
    """A raised box (button or panel) from the nine-patch tiles, on BG0."""
    m.bgpage(screen)
    tx, ty, tw, th = rect.tiles
    for j in range(th):
        row = 0 if j == 0 else (2 if j == th - 1 else 1)
        for i in range(tw):
            col = 0 if i == 0 else (2 if i == tw - 1 else 1)
            m.bgput(0, tx + i, ty + j, art.TILE_BUTTON + row * 3 + col, pal, 0, 0)


def clear_box(m: Machine, screen: int, rect: Rect) -> None:
    """Remove a box from BG0."""
    m.bgpage(screen)
    tx, ty, tw, th = rect.tiles
    m.bgfill(0, tx, ty, tx + tw - 1, ty + th - 1, art.TILE_BLANK, 0, 0, 0)


def text(m: Machine, screen: int, col: int, row: int, s: str, colour: int = art.TEXT_WHITE) -> None:
    """Print ``s`` at a console cell without moving to a new line."""
    m.cpage(screen)
    m.locate(col, row)
    m.color(colour)
    m.print(s, end="")


def centred(
    m: Machine,
    screen: int,
    row: int,
    s: str,
    colour: int = art.TEXT_WHITE,
    *,
    left: int = 0,
    width: int = 32,
) -> None:
    """Print ``s`` centred in ``width`` cells starting at column ``left``."""
    col = left + max(0, (width - cells(s)) // 2)
    text(m, screen, col, row, s, colour)


def button(
    m: Machine,
    screen: int,
    rect: Rect,
    label: str,
    *,
    pal: int = art.BG_BUTTON,
    colour: int = art.TEXT_BLACK,
) -> None:
    """A button box with its label centred on the middle text row."""
    box(m, screen, rect, pal)
    tx, ty, tw, th = rect.tiles
    centred(m, screen, ty + (th - 1) // 2, label, colour, left=tx, width=tw)
