"""In-game rules: five pages, pictures of real cards on the top screen, text on the bottom.

Page 1 the cards, 2 the grid and the common card, 3 the line roles (with a
no-wrap example), 4 Royal Nine and bust, 5 the controls. Stylus: < BACK >;
pad: left/right, B to leave. The pages follow the match's options (the one
being played when opened from the pause menu, else OPTIONS): the number of
cards and the TENS line on page 1, the number of rounds on page 4.
"""

from __future__ import annotations

from royalnine import art
from royalnine.app import App, InputFrame, Scene
from royalnine.core import Card, MatchConfig, parse_cards
from royalnine.screens import draw
from royalnine.screens.draw import SpriteBoard, card_look
from royalnine.screens.layout import BOTTOM, CELL_RECTS, TOP, Rect
from royalnine.screens.menu import Menu, row

PAGES = (
    ("r1_1", "r1_2", "r1_3", "r1_4", "r1_5"),
    ("r2_1", "r2_2", "r2_3", "r2_4", "r2_5"),
    ("r3_1", "r3_2", "r3_3", "r3_4", "r3_5", "r3_6"),
    ("r4_1", "r4_2", "r4_3", "r4_4", "r4_5"),
    ("r5_1", "r5_2", "r5_3", "r5_4", "r5_5", "r5_6", "r5_7"),
)
"""The text keys of each page (page 1 also has the TENS line of :func:`page_text`)."""


def page_text(app: App, page: int, config: MatchConfig) -> list[str]:
    """The lines of a page's text, for the match options ``config``."""
    keys = PAGES[page] + (("r1_tens_on" if config.tens else "r1_tens_off",) if page == 0 else ())
    top = 10 if config.tens else 9
    args = {"cards": 2 * top, "top": top, "rounds": config.rounds}
    return [app.t(key, **args) for key in keys]


def _cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def page_pictures(page: int, tens: bool = False) -> list[tuple[Card | None, int, int, int]]:
    """(card or None for a face-down card, x, y, palette) for the top screen of a page
    (page 1 shows the tens too when they are played)."""
    out: list[tuple[Card | None, int, int, int]] = []
    if page == 0:
        top = 10 if tens else 9
        step = 25 if tens else 28  # ten cards 24 pixels wide still fit the 256 of the screen
        for colour, y in (("R", 24), ("B", 72)):
            ranks = ",".join(f"{colour}{r}" for r in range(1, top + 1))
            for i, c in enumerate(parse_cards(ranks, tens=tens)):
                out.append((c, 4 + i * step, y, art.SP_NORMAL))
    elif page == 1:
        grid = _cards("R2,B7,R5,B1,B9,R8,B3,R4")
        cells = (0, 1, 2, 3, 5, 6, 7, 8)
        for c, cell in zip(grid, cells, strict=True):
            r = CELL_RECTS[cell]
            out.append((c, r.x + 64, r.y + 8, art.SP_NORMAL))
        r = CELL_RECTS[4]
        out.append((None, r.x + 64, r.y + 8, art.SP_SELECTED))
    elif page == 2:
        rows = ("R3,B4,R5", "B2,B7,B9", "R6,R7,R8", "B9,R1,B2")
        for k, text in enumerate(rows):
            for i, c in enumerate(_cards(text)):
                pal = art.SP_LOCKED if k == 3 else art.SP_SCORED
                out.append((c, 8 + i * 28, 8 + k * 44, pal))
    elif page == 4:
        for i, c in enumerate(_cards("R3,B5,R8,B2")):
            out.append((c, 8 + i * 32, 144, art.SP_SELECTED if i == 0 else art.SP_NORMAL))
        r = CELL_RECTS[4]
        out.append((None, r.x + 120, r.y + 8, art.SP_NORMAL))
        out.append((_cards("B9")[0], CELL_RECTS[0].x + 120, CELL_RECTS[0].y + 8, art.SP_LOCKED))
    elif page == 3:
        royal = _cards("R1,R2,R3,R4,R9,R5,R6,R7,R8")
        bust = _cards("B1,B2,B3,B4,R9,B5,B6,B7,B8")
        for base, grid, pal in ((8, royal, art.SP_SCORED), (136, bust, art.SP_ILLEGAL)):
            for i, c in enumerate(grid):
                out.append(
                    (c, base + (i % 3) * 28, 24 + (i // 3) * 36, art.SP_NORMAL if i != 4 else pal)
                )
    return out


def page_labels(app: App, page: int) -> list[tuple[int, int, str, int]]:
    """(col, row, text, colour) labels on the top screen beside the pictures."""
    if page == 2:
        keys = ("role_STRAIGHT", "role_FLUSH", "role_STRAIGHT_FLUSH")
        out = [
            (12, 2 + 5 * k + k // 2, f"{app.t(key)} {pts}", art.TEXT_YELLOW)
            for k, (key, pts) in enumerate(zip(keys, (1, 1, 2), strict=True))
        ]
        out.append((12, 18, "9-1-2 = 0", art.TEXT_RED))
        return out
    if page == 3:
        return [
            (1, 20, app.t("royal_short"), art.TEXT_YELLOW),
            (17, 20, app.t("bust_short"), art.TEXT_RED),
        ]
    if page == 1:
        return [(21, 9, "◀" + app.t("common"), art.TEXT_YELLOW)]
    if page == 4:
        return [
            (1, 1, app.t("help_place"), art.TEXT_WHITE),
            (1, 3, app.t("help_place2"), art.TEXT_WHITE),
            (1, 5, app.t("help_place3"), art.TEXT_WHITE),
        ]
    return []


class RulesScene:
    """The help pages; returns to ``back`` when left."""

    def __init__(self, back: Scene, page: int = 0, config: MatchConfig | None = None) -> None:
        self.back = back
        self.page = page
        self.config = config
        """The match's options the pages describe; None = the ones in OPTIONS."""
        self.menu: Menu | None = None

    def enter(self, app: App) -> None:
        """Draw the current page."""
        m = app.m
        draw.reset_screens(m)
        board = SpriteBoard(m, TOP)
        board.begin()
        config = self.config or MatchConfig(rounds=app.settings.rounds, tens=app.settings.tens)
        for k, (card, x, y, pal) in enumerate(page_pictures(self.page, config.tens)):
            board.show(10 + k, card_look(card, x, y, pal))
        board.end()
        if self.page == 4:
            for rect in CELL_RECTS:
                draw.slot(m, TOP, Rect(rect.x + 120, rect.y + 8, rect.w, rect.h))
        for col, row_, label, colour in page_labels(app, self.page):
            draw.text(m, TOP, col, row_, label, colour)
        draw.centred(
            m,
            BOTTOM,
            1,
            app.t("rules_title", page=self.page + 1, pages=len(PAGES)),
            art.TEXT_YELLOW,
        )
        for k, line in enumerate(page_text(app, self.page, config)):
            draw.text(m, BOTTOM, 1, 4 + 2 * k, line, art.TEXT_WHITE)
        items = [("prev", "<"), ("back", app.t("menu_back")), ("next", ">")]
        # Left/Right turn the page (as on HISTORY and in the review), so the pad cursor
        # over the three buttons moves with Up/Down
        self.menu = Menu(row(items, y=160, width=64, height=24, gap=16), cursor=2)
        self.menu.draw(app)

    def frame(self, app: App, inp: InputFrame) -> Scene | None:
        """Page turning."""
        assert self.menu is not None
        choice = self.menu.handle(app, inp)
        if "b" in inp.keys or "select" in inp.keys or choice == "back":
            return self.back
        if "l" in inp.keys or "left" in inp.keys or choice == "prev":
            self.page = (self.page - 1) % len(PAGES)
            self.enter(app)
        elif "r" in inp.keys or "right" in inp.keys or choice == "next":
            self.page = (self.page + 1) % len(PAGES)
            self.enter(app)
        return None
