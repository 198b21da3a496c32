"""Drawing helpers shared by the scenes: card sprites, table BG, buttons and console text.

Everything goes through the machine's SmileBASIC verbs. :class:`SpriteBoard`
makes sprites declarative: a scene says each frame which cards should be where,
and the board issues only the SPSET/SPCHR/SPOFS/SPCLR calls needed, moving a
card with SPOFS interpolation when its place changes - that is what animates
deals and placements.

Every console text, button box and GRP picture a scene draws goes through the
helpers here, which can record them (:class:`DrawLog`): the text-fit test turns
recording on, shows every screen and state, and checks that no text leaves the
screen, its box or button, or overlaps other text, boxes or pictures
(:mod:`royalnine.screens.fitcheck`). A scene that needs a new kind of drawing
adds a helper here, so what it draws is checked too.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from petitcom_shim import Machine
from petitcom_shim.charset import to_ptc
from royalnine import art
from royalnine.core import Card
from royalnine.i18n import cells
from royalnine.screens.layout import Rect

CARD_PRIO = 1
HELD_PRIO = 0
SCREEN_RECT = Rect(0, 0, 256, 192)


@dataclass(frozen=True)
class DrawnText:
    """One console text as drawn: where, what, and the box (pixels) it must stay inside."""

    screen: int
    col: int
    row: int
    text: str
    box: Rect


@dataclass
class DrawLog:
    """What the screens have drawn and not yet cleared, per screen (for the text-fit test)."""

    texts: list[DrawnText] = field(default_factory=list)
    boxes: list[tuple[int, Rect]] = field(default_factory=list)
    """Button and panel boxes on BG0 (as declared, in pixels)."""
    pictures: list[tuple[int, Rect]] = field(default_factory=list)
    """Pictures on a GRP page (logo, remote code)."""
    sprites: dict[tuple[int, int], Rect] = field(default_factory=dict)
    """Where each sprite of a :class:`SpriteBoard` rests, by (screen, sprite id)."""

    def clear(
        self,
        screen: int,
        *,
        text: bool = False,
        bg: bool = False,
        grp: bool = False,
        sprites: bool = False,
    ) -> None:
        """Forget what a CLS (text), BGCLR (bg), GCLS (grp) or SPCLR (sprites) of ``screen``
        erased."""
        if sprites:
            self.sprites = {k: r for k, r in self.sprites.items() if k[0] != screen}
        if text:
            self.texts = [t for t in self.texts if t.screen != screen]
        if bg:
            self.boxes = [b for b in self.boxes if b[0] != screen]
        if grp:
            self.pictures = [p for p in self.pictures if p[0] != screen]

    def sprites_on(self, screen: int) -> list[Rect]:
        """The resting rectangles of the sprites shown on ``screen``."""
        return [r for (s, _sid), r in self.sprites.items() if s == screen]


log: DrawLog | None = None
"""The active log while recording (tests), else None: drawing then costs nothing extra."""


def clear_text(m: Machine, screen: int) -> None:
    """CLS of one screen's console."""
    m.cpage(screen)
    m.cls()
    if log is not None:
        log.clear(screen, text=True)


def clear_bg(m: Machine, screen: int, layer: int | None = None) -> None:
    """BGCLR of one screen (one layer, or both)."""
    m.bgpage(screen)
    if layer is None:
        m.bgclr()
    else:
        m.bgclr(layer)
    if log is not None and layer in (None, 0):
        log.clear(screen, bg=True)


def clear_grp(m: Machine, screen: int) -> None:
    """GCLS of one screen's GRP page."""
    m.gpage(screen)
    m.gcls()
    if log is not None:
        log.clear(screen, grp=True)


def picture(screen: int, rect: Rect) -> None:
    """Note a picture drawn on a GRP page (text must not run under it)."""
    if log is not None:
        log.pictures.append((screen, rect))


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
        # sprites seen resting exactly on their target since their last SPOFS: not read
        # back again every frame (an animated screen describes its cards 60 times a second)
        self._settled: set[int] = set()

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
        settled = self._settled
        for sid in [s for s in self.current if s not in self._wanted]:
            m.spclr(sid)
            del self.current[sid]
            settled.discard(sid)
        for sid, (look, t, start) in self._wanted.items():
            old = self.current.get(sid)
            if old is None or (old.w, old.h) != (look.w, look.h):
                settled.discard(sid)
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
                target = (look.x + look.hx, look.y + look.hy)
                if (old.x, old.y) != (look.x, look.y):
                    m.spofs(sid, *target, t)
                    settled.discard(sid)
                elif sid not in settled:
                    self._settle(sid, target)
            self.current[sid] = look
        if log is not None:
            log.clear(self.screen, sprites=True)
            for sid, look in self.current.items():
                log.sprites[(self.screen, sid)] = Rect(look.x, look.y, look.w, look.h)

    def _settle(self, sid: int, target: tuple[int, int]) -> None:
        """Mark sprite ``sid`` settled once its glide has ended (on the selected page)."""
        m = self.m
        if not m.spchk(sid) & 1:
            if tuple(m.spread(sid)[:2]) != target:
                # A glide steps in fixed point as on PTC and can end a pixel
                # short of its target: put the sprite exactly there.
                m.spofs(sid, *target)
            self._settled.add(sid)

    def keep(self) -> None:
        """The same frame as last time: what :meth:`begin`, the same :meth:`show` calls
        and :meth:`end` would do, without describing the sprites again (only the
        glides not yet seen to end are checked)."""
        unsettled = [sid for sid in self.current if sid not in self._settled]
        if not unsettled:
            return
        self.m.sppage(self.screen)
        for sid in unsettled:
            look = self.current[sid]
            self._settle(sid, (look.x + look.hx, look.y + look.hy))

    def clear(self) -> None:
        """Remove every sprite this board made."""
        self.m.sppage(self.screen)
        for sid in self.current:
            self.m.spclr(sid)
        self.current = {}
        self._settled.clear()
        if log is not None:
            log.clear(self.screen, sprites=True)


def card_look(
    card: Card | None, x: int, y: int, pal: int = art.SP_NORMAL, prio: int = CARD_PRIO
) -> SpriteLook:
    """A card face (or the back when ``card`` is None) at (x, y)."""
    chr_ = art.CARD_BACK_CHR if card is None else art.card_chr(card)
    return SpriteLook(chr_, pal, prio, x, y, hx=art.CARD_W // 2, hy=art.CARD_H // 2)


def reset_screen(m: Machine, screen: int, *, felt: bool = True) -> None:
    """Blank one screen: console, both BG layers (felt on BG1), sprites."""
    clear_text(m, screen)
    m.color(art.TEXT_WHITE)
    clear_bg(m, screen)
    if felt:
        m.bgfill(1, 0, 0, 31, 23, art.TILE_FELT, art.BG_FELT, 0, 0)
    m.sppage(screen)
    m.spclr()
    if log is not None:
        log.clear(screen, sprites=True)


BREAK_AFTER = "/\\-_.,:;"
"""Characters a long word (a path, a file name) may be broken after."""


def fold(text: str, width: int, rows: int) -> list[str]:
    """A long one-line message as at most ``rows`` lines of at most ``width`` console cells.

    Lines break at spaces, or inside a long path or name after a separator
    (``/``, ``-``, ``.``...), and only where neither helps in the middle of a
    word. Text that does not fit in ``rows`` lines ends the last one with ``..``.
    """
    lines: list[str] = []
    rest = " ".join(text.split())
    while rest and len(lines) < rows:
        if cells(rest) <= width:
            lines.append(rest)
            rest = ""
            break
        n = 0
        while n < len(rest) and cells(rest[: n + 1]) <= width:
            n += 1
        space = rest.rfind(" ", 0, n + 1)
        sep = max(rest.rfind(c, 0, n) for c in "/\\")  # a path: break after a folder,
        if sep < n // 2:  # unless that leaves the line half empty: after a dot, a dash...
            sep = max(rest.rfind(c, 0, n) for c in BREAK_AFTER)
        if space > 0 and space >= sep:
            line, rest = rest[:space], rest[space + 1 :]
        elif sep > 0:
            line, rest = rest[: sep + 1], rest[sep + 1 :]
        else:
            line, rest = rest[:n], rest[n:]
        lines.append(line)
    if rest and lines:
        last = lines[-1]
        while last and cells(last + "..") > width:
            last = last[:-1]
        lines[-1] = last.rstrip() + ".."
    return lines


def reset_screens(m: Machine) -> None:
    """Blank both screens as :func:`reset_screen` does, and clear both GRP pages too."""
    for screen in (0, 1):
        reset_screen(m, screen)
        clear_grp(m, screen)


def slot(m: Machine, screen: int, rect: Rect, pal: int = art.BG_FELT) -> None:
    """An empty card place (dashed outline) on BG1."""
    m.bgpage(screen)
    tx, ty, _, _ = rect.tiles
    m.bgfill(1, tx, ty, tx + 2, ty + 3, _slot_tiles(pal))


@functools.cache
def _slot_tiles(pal: int) -> str:
    """The 3x4 slot tiles in palette ``pal`` as one BGFILL tile string, row by row: one
    call instead of twelve BGPUTs (a match redraws a dozen slots at every tap)."""
    return "".join(f"{art.TILE_SLOT + n | pal << 12:04X}" for n in range(12))


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
        _tile_row(m, tx, ty + j, tw, art.TILE_BUTTON + row * 3, pal)
    _log_box(screen, rect)


def _tile_row(m: Machine, tx: int, ty: int, tw: int, first_tile: int, pal: int) -> None:
    """One row of ``tw`` tiles on BG0 from a 3-column set: left, middle (repeated), right."""
    for i in range(tw):
        col = 0 if i == 0 else (2 if i == tw - 1 else 1)
        m.bgput(0, tx + i, ty, first_tile + col, pal, 0, 0)


def _log_box(screen: int, rect: Rect) -> None:
    """Record a box drawn on BG0 for the text-fit check (once, latest last)."""
    if log is not None:
        log.boxes = [b for b in log.boxes if b != (screen, rect)] + [(screen, rect)]


def clear_box(m: Machine, screen: int, rect: Rect) -> None:
    """Remove a box from BG0."""
    m.bgpage(screen)
    tx, ty, tw, th = rect.tiles
    m.bgfill(0, tx, ty, tx + tw - 1, ty + th - 1, art.TILE_BLANK, 0, 0, 0)
    if log is not None:
        log.boxes = [b for b in log.boxes if b != (screen, rect)]


def text(
    m: Machine,
    screen: int,
    col: int,
    row: int,
    s: str,
    colour: int = art.TEXT_WHITE,
    *,
    box: Rect = SCREEN_RECT,
) -> None:
    """Print ``s`` at a console cell without moving to a new line.

    ``box`` is where the text belongs (a button, a panel; the screen by default):
    the text-fit test fails when the text leaves it.
    """
    m.cpage(screen)
    m.locate(col, row)
    m.color(colour)
    m.print(s, end="")
    if log is not None and s:
        log.texts.append(DrawnText(screen, col, row, s, box))


VOICING_MARKS = frozenset(to_ptc("ﾞﾟ"))
"""The voicing marks as PTC codes: drawn at the top of their cell, they touch the line above."""


def marks_collide(m: Machine, screen: int, col: int, row: int, line: str) -> bool:
    """True if ``line``, printed at (``col``, ``row``), would have a voicing mark right
    under a character already on the console in the row above."""
    if row <= 0:
        return False
    m.cpage(screen)
    return any(
        code in VOICING_MARKS and 0 <= col + k < 32 and m.chkchr(col + k, row - 1) not in (0, 32)
        for k, code in enumerate(to_ptc(line, errors="replace"))
    )


def paragraph(
    m: Machine,
    screen: int,
    col: int,
    row: int,
    lines: list[str],
    colour: int = art.TEXT_WHITE,
    *,
    last_row: int,
) -> None:
    """Print folded lines one under the other from (``col``, ``row``), skipping a row where
    a line's voicing mark would run into what the row above shows, as long as the rest
    still fits by ``last_row`` (inclusive)."""
    for k, line in enumerate(lines):
        left = len(lines) - k - 1  # lines still to print after this one
        if row + 1 + left <= last_row and marks_collide(m, screen, col, row, line):
            row += 1
        text(m, screen, col, row, line, colour)
        row += 1


def erase(m: Machine, screen: int, col: int, row: int, width: int) -> None:
    """Blank ``width`` console cells from (``col``, ``row``), to draw a line afresh there;
    texts that were drawn on those cells are forgotten (the text-fit log)."""
    m.cpage(screen)
    m.locate(col, row)
    m.print(" " * width, end="")
    if log is not None:
        log.texts = [
            t
            for t in log.texts
            if not (
                t.screen == screen
                and t.row == row
                and t.col < col + width
                and col < t.col + cells(t.text)
            )
        ]


def centred(
    m: Machine,
    screen: int,
    row: int,
    s: str,
    colour: int = art.TEXT_WHITE,
    *,
    left: int = 0,
    width: int = 32,
    box: Rect | None = None,
) -> None:
    """Print ``s`` centred in ``width`` cells starting at column ``left`` (box: see text)."""
    col = left + max(0, (width - cells(s)) // 2)
    text(m, screen, col, row, s, colour, box=SCREEN_RECT if box is None else box)


def stacked_row(
    m: Machine,
    screen: int,
    rect: Rect,
    label: str,
    *,
    first: bool,
    last: bool,
    pal: int = art.BG_BUTTON,
    colour: int = art.TEXT_BLACK,
) -> None:
    """One row of a list of buttons 2 tiles apart that share their borders.

    ``rect`` is the row's 2-tile touch area: the tile row above it holds the top
    edge (``first``) or the line shared with the row above, the next one the label,
    and below the ``last`` row comes the bottom edge. Those lines sit in the middle
    of their tiles, so the label has clear pixels above and below it (a 3-tile
    button's bottom edge, covered by the next row's top, touched its descenders).
    """
    m.bgpage(screen)
    tx, ty, tw, _ = rect.tiles
    _tile_row(m, tx, ty - 1, tw, art.TILE_STACK + (0 if first else 3), pal)
    _tile_row(m, tx, ty, tw, art.TILE_BUTTON + 3, pal)  # the nine-patch's middle row
    if last:
        _tile_row(m, tx, ty + 1, tw, art.TILE_STACK + 6, pal)
    _log_box(screen, Rect(rect.x, rect.y - 8, rect.w, 24))
    inner = Rect(rect.x + 8, rect.y, max(0, rect.w - 16), 8)
    centred(m, screen, ty, label, colour, left=tx, width=tw, box=inner)


def button(
    m: Machine,
    screen: int,
    rect: Rect,
    label: str,
    *,
    pal: int = art.BG_BUTTON,
    colour: int = art.TEXT_BLACK,
) -> None:
    """A button box with its label centred on the middle text row.

    The label belongs inside the border tiles (the box less 8 pixels all round),
    so a button must be at least 24 pixels high for its label to fit.
    """
    box(m, screen, rect, pal)
    tx, ty, tw, th = rect.tiles
    inner = Rect(rect.x + 8, rect.y + 8, max(0, rect.w - 16), max(0, rect.h - 16))
    centred(m, screen, ty + (th - 1) // 2, label, colour, left=tx, width=tw, box=inner)
