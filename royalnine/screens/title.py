"""The title screen and its menus: logo on top, mode buttons on the touch screen.

Menu: CONTINUE MATCH (only when a save exists), VS CPU (then the CPU level),
2 PLAYERS, REMOTE, HISTORY (kept matches to review), RULES, OPTIONS. Starting a
new match while one is saved asks first (the new match replaces the save).
Esc/SELECT goes back from a sub-menu, and on the main menu asks before quitting. A damaged file is
reported here (a headline in the player's language, then the details folded
at word and path boundaries), never deleted.
"""

from __future__ import annotations

from royalnine import art
from royalnine.app import App, InputFrame, Scene
from royalnine.core import Card, Colour, Match, MatchConfig
from royalnine.screens import draw, registry
from royalnine.screens.draw import SpriteBoard, card_look
from royalnine.screens.history import HistoryScene
from royalnine.screens.layout import BOTTOM, TOP, Rect
from royalnine.screens.match import MatchScene
from royalnine.screens.menu import Menu, column
from royalnine.screens.options import OptionsScene
from royalnine.screens.remote_list import RemoteListScene
from royalnine.screens.rules import RulesScene
from royalnine.storage import DIFFICULTIES, CorruptSaveSetAside, SaveGame

LOGO = "ROYAL NINE"
LEVELS = DIFFICULTIES
NOTICE_ROW = 19  # the top screen's notice: a headline (row 18), then 5 lines of details
NOTICE_LINES = 5  # rows 19-23 (a line is moved down where a voicing mark needs the room)


def draw_logo(app: App) -> None:
    """The logo in big font letters on the top screen's GRP page, with a shadow."""
    m = app.m
    draw.clear_grp(m, TOP)
    m.gpage(TOP)
    m.gprio(2)
    x0 = (256 - 16 * len(LOGO)) // 2
    draw.picture(TOP, Rect(x0, 40, 16 * len(LOGO) + 2, 18))
    for dx, dy, pal in ((2, 2, art.TEXT_DARK), (0, 0, art.TEXT_YELLOW)):
        for i, ch in enumerate(LOGO):
            if ch != " ":
                m.gputchr(x0 + 16 * i + dx, 40 + dy, "BGF0U", ord(ch), pal, 2)


def fan_cards(board: SpriteBoard) -> None:
    """A fan of nines and a face-down common card under the logo."""
    board.begin()
    cards = [Card(Colour.RED, 9), Card(Colour.BLUE, 9), Card(Colour.RED, 7), Card(Colour.BLUE, 8)]
    xs = (56, 88, 144, 176)
    for i, (card, x) in enumerate(zip(cards, xs, strict=True)):
        board.show(10 + i, card_look(card, x, 84), t=12 + 3 * i, start=(x, 200))
    board.show(4, card_look(None, 116, 80), t=10, start=(116, 200))
    board.end()


@registry.provides("title")
class TitleScene:
    """Title and main menu (and the CPU-level and continue? sub-menus)."""

    music = "title"  # the song royalnine.music plays while this scene is active

    def __init__(self, notice: str | None = None) -> None:
        self.menu: Menu | None = None
        self.page = "main"
        self.notice = notice
        self.saved: SaveGame | None = None
        self.shown_notice = ""
        self.pending: tuple[str, str] | None = None
        """A new match (mode, level) waiting for the player to agree to replace the save."""

    def enter(self, app: App) -> None:
        """Draw the title and load the saved match, if any."""
        m = app.m
        for s in (TOP, BOTTOM):
            draw.reset_screen(m, s)
        draw.clear_grp(m, BOTTOM)
        draw_logo(app)
        fan_cards(SpriteBoard(m, TOP))
        draw.centred(m, TOP, 16, app.t("title_sub"), art.TEXT_WHITE)
        self.saved = None
        try:
            self.saved = app.storage.load_game()
        except CorruptSaveSetAside as exc:
            app.notices.append(exc.notice)
        if app.notices:  # one message naming what went wrong and where a damaged file went
            latest = app.notices[-1]
            self.shown_notice = latest.text(app.lang)
            app.notices.clear()
            if self.notice is None and latest.key == "notice_cannot_save":
                self.notice = app.t("save_failed")
            elif self.notice is None and latest.what == "save":
                self.notice = app.t("corrupt_save")
        if self.shown_notice:
            self.draw_notice(app, self.shown_notice)
        else:
            draw.centred(m, TOP, 18, app.t("title_credit"), art.TEXT_GREY)
            draw.centred(m, TOP, 20, app.t("title_port"), art.TEXT_GREY)
            draw.centred(m, TOP, 22, app.t(self.choose_key(app)), art.TEXT_GREY)
        self.show(app, self.page)

    @staticmethod
    def choose_key(app: App) -> str:
        """Where the menu is, as the layout shows the screens: below, on the right, elsewhere."""
        layout = app.layout
        if layout == "side":
            return "press_start_side"
        if layout in ("single", "separate"):
            return "press_start_other"
        return "press_start"

    def draw_notice(self, app: App, detail: str) -> None:
        """A file notice on the top screen: what happened in the player's language, then the
        details (a file name, the reason) folded at spaces and path separators."""
        m = app.m
        headline = self.notice or app.t("file_problem")
        draw.centred(m, TOP, NOTICE_ROW - 1, headline, art.TEXT_RED)
        home = str(app.storage.home / "_")[:-1]  # the data folder and a separator
        detail = detail.replace(home, "")  # files by their place in the data folder
        detail = detail[:1].upper() + detail[1:]
        lines = draw.fold(detail, 30, NOTICE_LINES)
        draw.paragraph(m, TOP, 1, NOTICE_ROW, lines, art.TEXT_PINK, last_row=23)

    def main_items(self, app: App) -> list[tuple[str, str]]:
        """The main menu entries available now."""
        items = []
        if self.saved is not None:
            items.append(("continue", app.t("menu_continue")))
        items += [
            ("cpu", app.t("menu_cpu")),
            ("local", app.t("menu_local")),
            ("remote", app.t("menu_remote")),
            ("history", app.t("menu_history")),
            ("rules", app.t("menu_rules")),
            ("options", app.t("menu_options")),
        ]
        return items

    def show(self, app: App, page: str) -> None:
        """Draw one of the menus on the bottom screen."""
        m = app.m
        self.page = page
        draw.reset_screen(m, BOTTOM)
        if page == "main":
            items = self.main_items(app)
            # Rows 0-1 stay free for the notice or the "continue?" line; boxes and labels
            # sit on the 8-pixel text grid (six buttons touch, fewer have a gap).
            if len(items) > 6:  # with CONTINUE: rows 2-22, row 23 stays free for a hint
                self.menu = Menu(column(items, top=16, height=24, gap=0))
            elif len(items) > 5:
                self.menu = Menu(column(items, top=24, height=24, gap=0))
            else:
                self.menu = Menu(column(items, top=24 if len(items) > 4 else 40, height=24, gap=8))
        elif page == "confirm_new":
            draw.centred(m, BOTTOM, 4, app.t("new_q"), art.TEXT_YELLOW)
            draw.centred(m, BOTTOM, 6, app.t("new_q2"), art.TEXT_WHITE)
            items = [("no_keep", app.t("no_keep")), ("yes_new", app.t("yes_new"))]
            self.menu = Menu(column(items, top=80, height=24, gap=8))
        elif page == "quit":
            draw.centred(m, BOTTOM, 4, app.t("quit_q"), art.TEXT_YELLOW)
            items = [("back", app.t("menu_back")), ("quit", app.t("menu_quit"))]
            self.menu = Menu(column(items, top=80, height=24, gap=8))
        else:
            title = app.t("difficulty")
            draw.centred(m, BOTTOM, 1, title, art.TEXT_YELLOW)
            items = [(lv, app.t("level_" + lv)) for lv in LEVELS] + [("back", app.t("menu_back"))]
            self.menu = Menu(column(items, top=24, height=24, gap=8))
            cur = app.settings.difficulty
            self.menu.cursor = LEVELS.index(cur) if cur in LEVELS else 1
        if page == "main" and (self.notice or self.shown_notice):
            draw.centred(m, BOTTOM, 1, self.notice or app.t("file_problem"), art.TEXT_RED)
        elif page == "main" and self.saved is not None:
            draw.centred(m, BOTTOM, 1, app.t("continue_q"), art.TEXT_YELLOW)
        if app.layout == "single":  # only one screen shows: say how to see the other
            draw.centred(m, BOTTOM, 23, app.t("swap_hint"), art.TEXT_GREY)
        self.menu.draw(app)

    def frame(self, app: App, inp: InputFrame) -> Scene | None:
        """Menu input."""
        assert self.menu is not None
        choice = self.menu.handle(app, inp)
        if choice is None:
            back = "b" in inp.keys or "select" in inp.keys
            if back and self.page != "main":
                self.show(app, "main")
            elif "select" in inp.keys:  # Esc on the main menu: quit, but ask first
                self.show(app, "quit")
            return None
        if choice == "continue" and self.saved is not None:
            return MatchScene(self.saved.match, self.saved.mode, dict(self.saved.meta))
        if choice == "cpu":
            self.show(app, "level")
        elif choice == "remote":
            return RemoteListScene()
        elif choice == "history":
            return HistoryScene(back=TitleScene())
        elif choice == "back":
            self.show(app, "main")
        elif choice == "quit":
            app.quit()
        elif choice in LEVELS:
            app.choose("difficulty", choice)
            return self.new_match(app, "cpu", choice)
        elif choice == "local":
            return self.new_match(app, "local", app.settings.difficulty)
        elif choice == "yes_new" and self.pending is not None:
            return new_match_scene(app, *self.pending)
        elif choice == "no_keep":
            self.pending = None
            self.show(app, "main")
        elif choice == "rules":
            return RulesScene(back=TitleScene())
        elif choice == "options":
            return OptionsScene()
        return None

    def new_match(self, app: App, mode: str, level: str) -> Scene | None:
        """A new match, or first the question whether to replace the saved one."""
        if self.saved is None:
            return new_match_scene(app, mode, level)
        self.pending = (mode, level)
        self.show(app, "confirm_new")
        return None


@registry.provides("new_match")
def new_match_scene(app: App, mode: str, level: str) -> Scene:
    """A new match with the current options (replacing any saved one)."""
    config = MatchConfig(rounds=app.settings.rounds, tens=app.settings.tens)
    return MatchScene(Match.new(config), mode, {"level": level})
