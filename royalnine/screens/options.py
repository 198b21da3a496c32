"""Options: language, tens, rounds, music, sound effects, CPU level, screen layout and scale.

Each row is a button showing its value; a tap (or A) steps to the next value
and the choice is saved at once (only what the player chose here: options
given on the command line stay that run's). Layout and scale apply at the
next start (the window is opened before the title), as the screen says.
MUSIC and SOUND FX each step through their volumes and OFF (on at 100% the
next tap is OFF), and apply at once, so the player hears the change; with no
audio device the top screen says that nothing plays. BACK sits
in the top-right corner so the rows keep a margin on every side.
"""

from __future__ import annotations

from typing import TypeVar

from royalnine import art
from royalnine.app import App, InputFrame, Scene
from royalnine.screens import draw, registry
from royalnine.screens.layout import TOP, Rect
from royalnine.screens.menu import Menu, MenuItem, column
from royalnine.storage import DIFFICULTIES, LAYOUTS, VOLUMES, Settings

T = TypeVar("T")
ROUND_CHOICES = (1, 3, 5, 7, 9)
SCALES = (0, 1, 2, 3, 4)
#: The SCALE row's values: whole-number start scales, then FIT (opens like AUTO, and a
#: resized or maximised window scales smoothly; no row of its own: the screen is full).
SCALE_CHOICES = (*((scale, False) for scale in SCALES), (0, True))
ROWS = ("lang", "tens", "rounds", "music", "effects", "difficulty", "layout", "scale")
BACK_RECT = Rect(200, 8, 48, 24)
#: Each sound row's switch and volume settings.
SOUND_ROWS = {"music": ("music", "music_volume"), "effects": ("effects", "effects_volume")}


def _cycle(values: tuple[T, ...], current: object) -> T:
    """The value after ``current`` in ``values`` (round again at the end; the first if
    ``current`` is not one of them)."""
    return values[(values.index(current) + 1) % len(values)] if current in values else values[0]


def step_sound(s: Settings, key: str) -> dict[str, object]:
    """One tap on MUSIC or SOUND FX: OFF -> the lowest volume -> ... -> 100% -> OFF.

    Returns the settings that change (the switch, the volume, and ``sound``, which
    is on while either is), for the app to use and keep.
    """
    switch, volume = SOUND_ROWS[key]
    on, level = bool(getattr(s, switch)), int(getattr(s, volume))
    if not on:
        on, level = True, VOLUMES[0]
    elif level >= VOLUMES[-1]:
        on = False
    else:
        level = _cycle(VOLUMES, level)
    other = s.effects if key == "music" else s.music
    return {switch: on, volume: level, "sound": on or bool(other)}


class StackedMenu(Menu):
    """A menu of rows 2 tiles apart that share their borders, for lists too long for
    3-tile buttons (:func:`.draw.stacked_row`): 8 rows take 17 tiles instead of 24,
    and each label sits between two lines with clear pixels above and below it.
    Items whose touch area does not follow the one before (BACK) are buttons."""

    def draw(self, app: App) -> None:
        """Draw every row, top to bottom."""
        rows = [item for item in self.items if item.rect.h == 16]
        for i, item in enumerate(self.items):
            down = i == self.pressed or (self.cursor_shown and i == self.cursor)
            pal = art.BG_BUTTON_DOWN if down else art.BG_BUTTON
            if item not in rows:
                draw.button(app.m, self.screen, item.rect, item.label, pal=pal)
                continue
            k = rows.index(item)
            first, last = k == 0, k == len(rows) - 1
            draw.stacked_row(
                app.m, self.screen, item.rect, item.label, first=first, last=last, pal=pal
            )


def stacked(items: list[tuple[str, str]], width: int = 192) -> list[MenuItem]:
    """Touch areas of a :class:`StackedMenu`: 16 pixels a row, below a first border tile."""
    return column(items, top=16, height=16, gap=0, width=width, left=8)


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
        if key == "tens":
            return on_off[bool(s.tens)]
        if key in SOUND_ROWS:
            switch, volume = SOUND_ROWS[key]
            return f"{getattr(s, volume)}%" if getattr(s, switch) else on_off[False]
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
        if m.sound.unavailable is not None:
            # MUSIC and SOUND FX keep their saved choice (a later start may have sound),
            # but this run plays nothing: say so here, not only on stderr
            draw.centred(m, TOP, 20, app.t("opt_no_audio"), art.TEXT_YELLOW)
        labels = {
            "lang": "opt_lang",
            "tens": "opt_tens",
            "rounds": "opt_rounds",
            "music": "opt_music",
            "effects": "opt_effects",
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
        back = MenuItem("back", app.t("menu_back"), BACK_RECT)
        # eight rows as separate 3-tile buttons would need 192 pixels: they share borders
        self.menu = StackedMenu([*stacked(items, width=184), back], cursor=cursor)
        self.menu.cursor_shown = shown
        self.menu.draw(app)

    def frame(self, app: App, inp: InputFrame) -> Scene | None:
        """Step the chosen option."""
        assert self.menu is not None
        choice = self.menu.handle(app, inp)
        if choice == "back" or "b" in inp.keys or "select" in inp.keys:
            return registry.make("title")
        if choice is None:
            return None
        s = app.settings
        if choice == "lang":
            app.choose("lang", "ja" if s.lang == "en" else "en")
        elif choice == "tens":
            app.choose("tens", not s.tens)
        elif choice in SOUND_ROWS:
            for name, value in step_sound(s, choice).items():
                app.choose(name, value)
            app.music.apply()
            if choice == "effects":
                app.beep("select")  # at the new volume
        elif choice == "rounds":
            app.choose("rounds", _cycle(ROUND_CHOICES, s.rounds))
        elif choice == "difficulty":
            app.choose("difficulty", _cycle(DIFFICULTIES, s.difficulty))
        elif choice == "layout":
            app.choose("layout", _cycle(LAYOUTS, s.layout))
        elif choice == "scale":
            scale, fit = _cycle(SCALE_CHOICES, (s.scale, s.fit))
            app.choose("scale", scale)
            app.choose("fit", fit)
        self.enter(app)
        return None
