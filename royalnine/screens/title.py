"""The title screen and its menus: logo on top, mode buttons on the touch screen.

Menu: CONTINUE MATCH (only when a save exists), VS CPU (then the CPU level),
2 PLAYERS, RULES, OPTIONS. Only modes that work today are listed; a later mode
(remote match by QR) adds one entry to :func:`main_items` and its own scene.
A damaged save is reported here in one line, never deleted.
"""

from __future__ import annotations

from royalnine import art
from royalnine.app import App, InputFrame, Scene
from royalnine.core import Card, Colour, Match, MatchConfig
from royalnine.screens import draw
from royalnine.screens.draw import SpriteBoard, card_look
from royalnine.screens.layout import BOTTOM, TOP
from royalnine.screens.menu import Menu, column
from royalnine.storage import CorruptSaveSetAside, SaveGame

LOGO = "ROYAL NINE"
LEVELS = ("easy", "normal", "hard", "match")


def draw_logo(app: App) -> None:
    """The logo in big font letters on the top screen's GRP page, with a shadow."""
    m = app.m
    m.gpage(TOP)
    m.gprio(2)
    m.gcls()
    x0 = (256 - 16 * len(LOGO)) // 2
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


class TitleScene:
    """Title and main menu (and the CPU-level and continue? sub-menus)."""

    def __init__(self, notice: str | None = None) -> None:
        self.menu: Menu | None = None
        self.page = "main"
        self.notice = notice
        self.saved: SaveGame | None = None
        self.shown_notice = ""

    def enter(self, app: App) -> None:
        """Draw the title and load the saved match, if any."""
        m = app.m
        for s in (TOP, BOTTOM):
            draw.reset_screen(m, s)
        m.gpage(BOTTOM)
        m.gcls()
        draw_logo(app)
        fan_cards(SpriteBoard(m, TOP))
        draw.centred(m, TOP, 16, app.t("title_sub"), art.TEXT_WHITE)
        draw.centred(m, TOP, 18, app.t("title_credit"), art.TEXT_GREY)
        self.saved = None
        try:
            self.saved = app.storage.load_game()
        except CorruptSaveSetAside as exc:
            app.notices.append(str(exc))
            self.notice = app.t("corrupt_save")
        if app.notices:  # one line naming what went wrong and where a damaged file went
            self.shown_notice = app.notices[-1]
            app.notices.clear()
            if self.notice is None:
                failed = self.shown_notice.startswith("could not save")
                self.notice = app.t("save_failed" if failed else "corrupt_save")
        if self.shown_notice:
            text = self.shown_notice
            # 31 a line: a full line on the last row would scroll the console
            for k, line in enumerate(draw.fold(text, 31, 4)):
                draw.text(m, TOP, 0, 20 + k, line, art.TEXT_RED)
        else:
            draw.centred(m, TOP, 20, app.t("title_port"), art.TEXT_GREY)
            draw.centred(m, TOP, 22, app.t("press_start"), art.TEXT_GREY)
        self.show(app, self.page)

    def main_items(self, app: App) -> list[tuple[str, str]]:
        """The main menu entries available now."""
        items = []
        if self.saved is not None:
            items.append(("continue", app.t("menu_continue")))
        items += [
            ("cpu", app.t("menu_cpu")),
            ("local", app.t("menu_local")),
            ("remote", app.t("menu_remote")),
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
            if len(items) > 5:  # leave rows 0-1 for the notice or "continue?" line
                self.menu = Menu(column(items, top=18, height=22, gap=6))
            else:
                self.menu = Menu(column(items, top=36 if len(items) > 4 else 48, height=24, gap=8))
        else:
            title = app.t("difficulty")
            draw.centred(m, BOTTOM, 2, title, art.TEXT_YELLOW)
            items = [(lv, app.t("level_" + lv)) for lv in LEVELS] + [("back", app.t("menu_back"))]
            self.menu = Menu(column(items, top=32, height=24, gap=8))
            cur = app.settings.difficulty
            self.menu.cursor = LEVELS.index(cur) if cur in LEVELS else 1
        if self.notice:
            draw.centred(m, BOTTOM, 0, self.notice[:32], art.TEXT_RED)
        elif page == "main" and self.saved is not None:
            draw.centred(m, BOTTOM, 1, app.t("continue_q"), art.TEXT_YELLOW)
        self.menu.draw(app)

    def frame(self, app: App, inp: InputFrame) -> Scene | None:
        """Menu input."""
        assert self.menu is not None
        choice = self.menu.handle(app, inp)
        if choice is None:
            if "b" in inp.keys and self.page != "main":
                self.show(app, "main")
            return None
        if choice == "continue" and self.saved is not None:
            from royalnine.screens.match import MatchScene

            return MatchScene(self.saved.match, self.saved.mode, dict(self.saved.meta))
        if choice == "cpu":
            self.show(app, "level")
        elif choice == "remote":
            from royalnine.screens.remote_list import RemoteListScene

            return RemoteListScene()
        elif choice == "back":
            self.show(app, "main")
        elif choice in LEVELS:
            app.settings.difficulty = choice
            app.store("settings", lambda: app.storage.save_settings(app.settings))
            return new_match_scene(app, "cpu", choice)
        elif choice == "local":
            return new_match_scene(app, "local", app.settings.difficulty)
        elif choice == "rules":
            from royalnine.screens.rules import RulesScene

            return RulesScene(back=TitleScene())
        elif choice == "options":
            from royalnine.screens.options import OptionsScene

            return OptionsScene()
        return None


def new_match_scene(app: App, mode: str, level: str) -> Scene:
    """A new match with the current options (replacing any saved one)."""
    from royalnine.screens.match import MatchScene

    config = MatchConfig(rounds=app.settings.rounds, tens=app.settings.tens)
    return MatchScene(Match.new(config), mode, {"level": level})
