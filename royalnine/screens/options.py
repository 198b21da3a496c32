"""Options: language, tens, rounds, sound, CPU level, screen layout and scale.

Each row is a button showing its value; a tap (or A) steps to the next value
and the settings are saved at once. Layout and scale apply at the next start
(the window is opened before the title), as the screen says.
"""

from __future__ import annotations

from royalnine import art
from royalnine.app import App, InputFrame, Scene
from royalnine.screens import draw
from royalnine.screens.layout import TOP
from royalnine.screens.menu import Menu, column
from royalnine.storage import DIFFICULTIES, LAYOUTS

ROUND_CHOICES = (1, 3, 5, 7, 9)
SCALES = (0, 1, 2, 3, 4)
#: The SCALE row's values: whole-number start scales, then FIT (opens like AUTO, and a
#: resized or maximised window scales smoothly; no row of its own: the screen is full).
SCALE_CHOICES = (*((scale, False) for scale in SCALES), (0, True))
ROWS = ("lang", "tens", "rounds", "sound", "difficulty", "layout", "scale", "back")


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
            if s.fit:
                return app.t("opt_fit")
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
            if key == "back":
                items.append((key, app.t("menu_back")))
            else:
                label = app.t(labels[key])
                items.append((key, f"{label:<10}{self.value_text(app, key):>10}"))
        cursor = self.menu.cursor if self.menu else 0
        shown = self.menu.cursor_shown if self.menu else False
        self.menu = Menu(column(items, top=0, height=24, gap=0, width=192), cursor=cursor)
        self.menu.cursor_shown = shown
        self.menu.draw(app)

    def frame(self, app: App, inp: InputFrame) -> Scene | None:
        """Step the chosen option."""
        assert self.menu is not None
        choice = self.menu.handle(app, inp)
        if choice == "back" or "b" in inp.keys:
            from royalnine.screens.title import TitleScene

            return TitleScene()
        if choice is None:
            return None
        s = app.settings
        if choice == "lang":
            s.lang = "ja" if s.lang == "en" else "en"
        elif choice in ("tens", "sound"):
            setattr(s, choice, not getattr(s, choice))
        elif choice == "rounds":
            s.rounds = int(str(_cycle(ROUND_CHOICES, s.rounds)))
        elif choice == "difficulty":
            s.difficulty = str(_cycle(DIFFICULTIES, s.difficulty))
        elif choice == "layout":
            s.layout = str(_cycle(LAYOUTS, s.layout))
        elif choice == "scale":
            s.scale, s.fit = SCALE_CHOICES[
                (SCALE_CHOICES.index((s.scale, s.fit)) + 1) % len(SCALE_CHOICES)
                if (s.scale, s.fit) in SCALE_CHOICES
                else 0
            ]
        app.store("settings", lambda: app.storage.save_settings(s))
        self.enter(app)
        return None
