"""The remote menu: every remote match in progress on this device, each resumable,
and HOST / JOIN to start another (a new match never replaces one in progress).

Top screen: a table of the matches (id, the rival, round, whose move, last
activity). Bottom screen: one button per match, four at a time (MORE shows the
next four), and HOST, JOIN, BACK. A damaged save is set aside and reported under the
table (in full: the old file's name); the other matches are still listed.
"""

from __future__ import annotations

from royalnine import art
from royalnine.app import App, InputFrame, Scene
from royalnine.i18n import cells
from royalnine.screens import draw, registry
from royalnine.screens.exchange import ExchangeScene
from royalnine.screens.layout import TOP, Rect
from royalnine.screens.menu import Menu, MenuItem
from royalnine.screens.remote import (
    MatchEntry,
    ago,
    host_link,
    list_matches,
    now,
    remote_match_scene,
)
from royalnine.storage import Notice

PAGE = 4  # matches per page
ROW_Y, ROW_H, ROW_GAP = 16, 24, 8  # tile aligned: 16, 48, 80, 112
TABLE_ROW = 4  # first console row of the table on the top screen
TABLE_ROWS = 16  # rows 4-19 (14 rows, 4-17, when a notice is shown)
NOTICE_ROW = 19  # a notice's first row on the top screen (5 rows, up to 23)


COLUMNS = ((8, False), (5, False), (5, True), (4, False), (4, True))
"""Cells and alignment (True = right) of: match, rival, round, whose move, last activity
(30 cells in all: the table keeps one cell of margin on both sides)."""


def pad(text: str, width: int, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` console cells (voiced kana take two)."""
    gap = " " * max(0, width - cells(text))
    return gap + text if right else text + gap


def table_line(fields: list[str]) -> str:
    """Five fields laid out in the table's columns, one space apart (30 cells)."""
    return " ".join(pad(f, w, r) for f, (w, r) in zip(fields, COLUMNS, strict=True))


def entry_cells(app: App, entry: MatchEntry, moment: float) -> str:
    """One match as a line: id, rival, round, whose move, last activity."""
    return table_line(
        [
            entry.label,
            app.t("remote_role_" + entry.opponent_role),
            entry.round_text,
            app.t("remote_move_you" if entry.my_move else "remote_move_rival"),
            ago(moment - entry.last_activity),
        ]
    )


@registry.provides("remote_list")
class RemoteListScene:
    """The list of remote matches and the way to start a new one."""

    def __init__(self) -> None:
        self.entries: list[MatchEntry] = []
        self.notices: list[Notice] = []
        self.page = 0
        self.menu: Menu | None = None

    def enter(self, app: App) -> None:
        """Load every match (setting damaged ones aside) and draw."""
        self.entries, self.notices = list_matches(app.storage)
        self.page = min(self.page, max(0, (len(self.entries) - 1) // PAGE))
        self.redraw(app)

    def shown(self) -> list[MatchEntry]:
        """The matches on this page."""
        return self.entries[self.page * PAGE : (self.page + 1) * PAGE]

    def redraw(self, app: App) -> None:
        """Both screens from the list."""
        m = app.m
        draw.reset_screens(m)
        moment = now()
        draw.centred(m, TOP, 1, app.t("remote_title"), art.TEXT_YELLOW)
        if self.entries:
            keys = ("match", "rival", "round", "move", "last")
            head = table_line([app.t("remote_col_" + key) for key in keys])
            draw.text(m, TOP, 1, TABLE_ROW - 1, head, art.TEXT_GREY)
            shown_rows = TABLE_ROWS - 2 * bool(self.notices)  # row 18 free above the notice
            for k, entry in enumerate(self.entries[:shown_rows]):
                colour = art.TEXT_CYAN if entry.my_move else art.TEXT_WHITE
                draw.text(m, TOP, 1, TABLE_ROW + k, entry_cells(app, entry, moment), colour)
        else:
            draw.centred(m, TOP, 8, app.t("remote_none"), art.TEXT_WHITE)
        if self.notices:  # a damaged match set aside: in full, where the hint goes
            lines = draw.fold(self.notices[-1].text(app.lang), 30, 5)
            draw.paragraph(m, TOP, 1, NOTICE_ROW, lines, art.TEXT_RED, last_row=23)
        elif self.entries:
            draw.centred(m, TOP, 21, app.t("remote_list_hint"), art.TEXT_GREY)
        items: list[MenuItem] = []
        for k, entry in enumerate(self.shown()):
            rect = Rect(8, ROW_Y + k * (ROW_H + ROW_GAP), 240, ROW_H)
            label = entry_cells(app, entry, moment)[: -COLUMNS[-1][0] - 1]  # the table has "last"
            items.append(MenuItem(f"match:{entry.label}", label, rect))
        if len(self.entries) > PAGE:
            more = app.t("remote_more", page=self.page + 1, pages=-(-len(self.entries) // PAGE))
            items.append(MenuItem("more", more, Rect(88, 136, 80, 24)))  # under the 4th row
        for k, (value, key) in enumerate(
            (("host", "remote_host_short"), ("join", "remote_join_short"), ("back", "menu_back"))
        ):
            items.append(MenuItem(value, app.t(key), Rect(8 + k * 88, 168, 64, 24)))
        self.menu = Menu(items)
        self.menu.draw(app)

    def frame(self, app: App, inp: InputFrame) -> Scene | None:
        """Buttons."""
        assert self.menu is not None
        choice = self.menu.handle(app, inp)
        if choice is None:
            if "b" in inp.keys or "select" in inp.keys:  # B or Esc: back
                choice = "back"
            else:
                return None
        if choice == "back":
            return registry.make("title")
        if choice == "more":
            self.page = (self.page + 1) % -(-len(self.entries) // PAGE)
            self.redraw(app)
            return None
        if choice == "host":
            return ExchangeScene(host_link(app))
        if choice == "join":
            return ExchangeScene(None)
        label = choice.removeprefix("match:")
        for entry in self.entries:
            if entry.label == label:
                return remote_match_scene(entry.link)
        return None
