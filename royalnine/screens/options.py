"""Options: language, tens, rounds, sound, CPU level, screen layout and scale.

Each row is a button showing its value; a tap (or A) steps to the next value
and the choice is saved at once (only what the player chose here: options
given on the command line stay that run's). Layout and scale apply at the
next start (the window is opened before the title), as the screen says.
BACK sits in the top-right corner so the rows keep a margin at the bottom.
"""

from __future__ import annotations

from royalnine import art
from royalnine.app import App, InputFrame, Scene
from royalnine.screens import draw
from royalnine.screens.layout import TOP, Rect
from royalnine.screens.menu import Menu, MenuItem, column
from royalnine.storage import DIFFICULTIES, LAYOUTS

ROUND_CHOICES = (1, 3, 5, 7, 9)
SCALES = (0, 1, 2, 3, 4)
ROWS = ("lang", "tens", "rounds", "sound", "difficulty", "layout", "scale")
BACK_RECT = Rect(200, 8, 48, 24)


def _cycle(values: tuple[object, ...], current: object) -> object:
    return values[(values.index(current) + 1) % len(values)] if current in values else values[0]


class OptionsScene:
    """The options list."""

    def __init__(self) -> None:
        self.menu: Menu | None = None

    def value_text(self, app: App, key: str) -> str:
        """The shown value of one option."""
        s = app.settings
        on_off = {True: app.t("opt_on"), False: app.t("opt_off")}
        if key == "lang":
            return "English" if s.lang == "en" else "ﾆﾎﾝｺﾞ"
        if key in ("tens", "sound"):
            return on_off[bool(getattr(s, key))]
        if key == "rounds":
            return str(s.rounds)
        if key == "difficulty":
            return app.t("level_" + s.difficulty)
        if key == "layout":
            return app.t("lay_" + s.layout)
        if key == "scale":
            return app.t("opt_auto") if s.scale == 0 else f"{s.scale}x"
        return ""

    def enter(self, app: App) -> None:
        """Draw the rows."""
        m = app.m
        draw.reset_screens(m)
        draw.centred(m, TOP, 4, app.t("opt_title"), art.TEXT_YELLOW)
        draw.centred(m, TOP, 18, app.t("opt_restart"), art.TEXT_GREY)
        labels = {
            "lang": "opt_lang",
            "tens": "opt_tens",
            "rounds": "opt_rounds",
            "sound": "opt_sound",
            "difficulty": "opt_level",
            "layout": "opt_layout",
            "scale": "opt_scale",
        }
        items = []
        for key in ROWS:
            label = app.t(labels[key])
            items.append((key, f"{label:<10}{self.value_text(app, key):>10}"))
        cursor = self.menu.cursor if self.menu else 0
        shown = self.menu.cursor_shown if self.menu else False
        rows = column(items, top=8, height=24, gap=0, width=184, left=8)
        rows.append(MenuItem("back", app.t("menu_back"), BACK_RECT))
        self.menu = Menu(rows, cursor=cursor)
        self.menu.cursor_shown = shown
        self.menu.draw(app)

    def frame(self, app: App, inp: InputFrame) -> Scene | None:
        """Step the chosen option."""
        assert self.menu is not None
        choice = self.menu.handle(app, inp)
        if choice == "back" or "b" in inp.keys or "select" in inp.keys:
            from royalnine.screens.title import TitleScene

            return TitleScene()
        if choice is None:
            return None
        s = app.settings
        if choice == "lang":
            app.choose("lang", "ja" if s.lang == "en" else "en")
        elif choice in ("tens", "sound"):
            app.choose(choice, not getattr(s, choice))
        elif choice == "rounds":
            app.choose("rounds", int(str(_cycle(ROUND_CHOICES, s.rounds))))
        elif choice == "difficulty":
            app.choose("difficulty", str(_cycle(DIFFICULTIES, s.difficulty)))
        elif choice == "layout":
            app.choose("layout", str(_cycle(LAYOUTS, s.layout)))
        elif choice == "scale":
            app.choose("scale", int(str(_cycle(SCALES, s.scale))))
        self.enter(app)
        return None
