"""HISTORY: the kept matches, newest first, five to a page on the touch screen.

Bottom screen: one button per match (date, mode, opponent or level, score from
the side of the player of this device, result), PREV / NEXT pages and BACK.
Top screen: the page's matches with the year, time and rules, and the hint. The
pad moves a cursor over the buttons (up/down), left/right turn pages, A opens,
B or Esc go back. Opening a match replays it; one that turns out damaged is set
aside and the notice shown here. The review itself is :mod:`.review`.
"""

from __future__ import annotations

from pathlib import Path

from royalnine import art, history
from royalnine.app import App, InputFrame, Scene
from royalnine.core.errors import CorruptRecord
from royalnine.history import HistoryEntry
from royalnine.screens import draw
from royalnine.screens.layout import BOTTOM, TOP, Rect
from royalnine.screens.menu import Menu, MenuItem
from royalnine.screens.remote_list import pad
from royalnine.screens.review import ReviewScene
from royalnine.storage import DIFFICULTIES, Notice, current_name

PAGE = 5
ROW_Y, ROW_H = 16, 24  # buttons at y 16, 40, 64, 88, 112 (touching, tile aligned)
COLUMNS = ((5, False), (4, False), (6, False), (7, True), (4, False))
"""Cells and alignment (True = right) of date, mode, rival, score, result: 30 cells with
the spaces, the inside of a full-width button."""
NOTICE_ROW = 19


def line(fields: list[str]) -> str:
    """Five fields in the list's columns, one space apart."""
    return " ".join(pad(f, w, r) for f, (w, r) in zip(fields, COLUMNS, strict=True))


def entry_fields(app: App, entry: HistoryEntry) -> list[str]:
    """What one match shows: MM-DD, mode, opponent or level, score, result."""
    me = entry.seat if entry.seat is not None else 0
    if entry.mode == "cpu":
        level = current_name(entry.level)
        rival = app.t(f"level_{level}" if level in DIFFICULTIES else "cpu")
    elif entry.mode == "remote":
        rival = app.t("remote_role_" + ("guest" if me == 0 else "host"))
    else:
        rival = "-"
    score = f"{entry.points[me]}-{entry.points[1 - me]}"
    return [
        entry.date[5:10],
        app.t(f"history_mode_{entry.mode}"),
        rival,
        score,
        app.t(f"history_{entry.result}"),
    ]


class HistoryScene:
    """The list of kept matches (see the module docstring)."""

    def __init__(self, back: Scene, page: int = 0) -> None:
        self.back = back
        self.page = page
        self.paths: list[Path] = []
        """Every kept match's file, newest first; only the shown page's are read."""
        self.read: dict[Path, HistoryEntry] = {}
        self.notice: Notice | None = None
        self.menu: Menu | None = None

    @property
    def pages(self) -> int:
        """How many pages the list has (at least one)."""
        return max(1, -(-len(self.paths) // PAGE))

    def enter(self, app: App) -> None:
        """List the history folder and draw the page."""
        self.paths = history.paths(app.storage)
        self.read = {}
        self.redraw(app)

    def shown(self) -> list[HistoryEntry]:
        """The matches on this page, read now if not yet: a damaged file is set aside (its
        notice kept for this screen) and the next match moves up into its place."""
        return [self.read[p] for p in self.paths[self.page * PAGE : (self.page + 1) * PAGE]]

    def load_page(self, app: App) -> None:
        """Read the files of the current page (see :meth:`shown`)."""
        storage = app.storage
        self.page = min(self.page, self.pages - 1)
        while True:
            page = self.paths[self.page * PAGE : (self.page + 1) * PAGE]
            missing = [p for p in page if p not in self.read]
            if not missing:
                return
            for path in missing:
                before = len(storage.notices)
                entry = history.read(storage, path)
                if entry is None:
                    self.paths.remove(path)
                    self.notice = storage.notices[-1] if len(storage.notices) > before else None
                    del storage.notices[before:]
                else:
                    self.read[path] = entry
            self.page = min(self.page, self.pages - 1)

    def redraw(self, app: App, cursor: int = 0) -> None:
        """Both screens for the current page."""
        m = app.m
        self.load_page(app)
        draw.reset_screens(m)
        draw.centred(m, TOP, 1, app.t("history_title"), art.TEXT_YELLOW)
        if self.paths:
            draw.centred(m, TOP, 3, app.t("history_count", count=len(self.paths)), art.TEXT_GREY)
            for k, entry in enumerate(self.shown()):
                rules = app.t("history_rounds", n=entry.record.config.rounds)
                if entry.record.config.tens:
                    rules += " " + app.t("history_tens")
                draw.text(m, TOP, 2, 6 + 2 * k, f"{entry.date:<17}{rules}", art.TEXT_WHITE)
        else:
            draw.centred(m, TOP, 8, app.t("history_none"), art.TEXT_WHITE)
        if self.notice is not None:
            lines = draw.fold(self.notice.text(app.lang), 30, 5)
            draw.paragraph(m, TOP, 1, NOTICE_ROW, lines, art.TEXT_RED, last_row=23)
        elif self.paths:
            draw.centred(m, TOP, 21, app.t("history_hint"), art.TEXT_GREY)
        keys = ("date", "mode", "rival", "score", "result")
        if self.paths:
            head = line([app.t("history_col_" + key) for key in keys])
            draw.text(m, BOTTOM, 1, 1, head, art.TEXT_GREY)
        items: list[MenuItem] = []
        for k, entry in enumerate(self.shown()):
            rect = Rect(0, ROW_Y + k * ROW_H, 256, ROW_H)
            items.append(MenuItem(f"open:{k}", line(entry_fields(app, entry)), rect))
        nav = (
            ("prev", "history_prev", Rect(8, 160, 72, 24), self.page > 0),
            ("next", "history_next", Rect(88, 160, 72, 24), self.page < self.pages - 1),
            ("back", "menu_back", Rect(176, 160, 72, 24), True),
        )
        for value, key, rect, enabled in nav:
            items.append(MenuItem(value, app.t(key), rect, enabled))
        if self.pages > 1:
            page = app.t("history_page", p=self.page + 1, ps=self.pages)
            draw.centred(m, BOTTOM, 18, page, art.TEXT_WHITE, left=10, width=10)
        if app.layout == "single":  # one screen at a time: say how to see the other
            draw.centred(m, BOTTOM, 23, app.t("swap_hint"), art.TEXT_GREY)
        self.menu = Menu(items, cursor=min(cursor, len(items) - 1))
        self.menu.cursor_shown = cursor > 0
        self.menu.draw(app)

    def turn(self, app: App, step: int) -> None:
        """To the previous or next page, if there is one."""
        page = self.page + step
        if 0 <= page < self.pages:
            self.page = page
            app.beep("menu")
            self.redraw(app)

    def frame(self, app: App, inp: InputFrame) -> Scene | None:
        """Buttons, pages, opening a match."""
        assert self.menu is not None
        choice = self.menu.handle(app, inp)
        if choice is None:
            if "b" in inp.keys or "select" in inp.keys:
                return self.back
            for key in inp.keys:
                if key in ("left", "l"):
                    self.turn(app, -1)
                elif key in ("right", "r"):
                    self.turn(app, 1)
            return None
        if choice == "back":
            return self.back
        if choice in ("prev", "next"):
            self.turn(app, -1 if choice == "prev" else 1)
            return None
        entry = self.shown()[int(choice.removeprefix("open:"))]
        try:
            match = entry.replay()
        except CorruptRecord as exc:
            self.notice = app.storage.damaged(entry.path, "history", str(exc), keep=False)
            self.paths.remove(entry.path)
            self.redraw(app)
            return None
        meta = dict(entry.record.meta)
        return ReviewScene(match, meta, back=HistoryScene(self.back, self.page))
