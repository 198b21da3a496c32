"""The operator's side of a kiosk: the PIN pad, the operator menu and the statistics pages.

The operator menu opens only through the operator gesture or key chord (see
:mod:`royalnine.kiosk.controller`), and only after the operator PIN (set from a
shell, kiosk.pin) was typed on the pad; with no PIN set it stays locked. It offers: resume, volume,
the default language, the default CPU level, keeping the match history (off
unless turned on here), statistics (figures on the top
screen, matches per day for the last 14 days as a GRP bar chart on the bottom
one), reset statistics (after a confirmation), restart and exit. Volume,
language and level are kept in ``HOME/kiosk-operator.json`` (never in the
player's settings.json).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Protocol, cast

from royalnine import art
from royalnine.app import App, InputFrame, Scene
from royalnine.core.files import UnreadableFile, load_json, write_atomic
from royalnine.kiosk.config import MAX_PIN_DIGITS
from royalnine.kiosk.pin import PinLock
from royalnine.kiosk.stats import StatsBook, day_of
from royalnine.kiosk.texts import kt
from royalnine.screens import draw
from royalnine.screens.layout import BOTTOM, TOP, Rect
from royalnine.screens.menu import Menu, MenuItem, column, row
from royalnine.storage import DIFFICULTIES, LANGS

log = logging.getLogger("royalnine.kiosk")
PREFS_FILE = "kiosk-operator.json"
MAX_PREFS_BYTES = 10_000
VOLUMES = (0, 32, 64, 96, 127)
"""BEEP volume of each operator volume step (0 = silent)."""
MAX_WRONG_PINS = 3
CHART_DAYS = 14
CHART_X, CHART_Y, CHART_W, CHART_H = 20, 24, 224, 112
GRP_BAR, GRP_AXIS = 2, 1


@dataclass
class OperatorPrefs:
    """What the operator chose in the menu: kept across restarts."""

    volume: int = 3
    lang: str = "en"
    level: str = "normal"
    history: bool = False
    """Keep finished matches in the history (off: a kiosk keeps none of its visitors')."""

    def validated(self) -> OperatorPrefs:
        """A copy with every out-of-range value replaced by its default."""
        d = OperatorPrefs()
        vol_ok = isinstance(self.volume, int) and not isinstance(self.volume, bool)
        return OperatorPrefs(
            volume=self.volume if vol_ok and 0 <= self.volume < len(VOLUMES) else d.volume,
            lang=self.lang if self.lang in LANGS else d.lang,
            level=self.level if self.level in DIFFICULTIES else d.level,
            history=self.history if isinstance(self.history, bool) else d.history,
        )


def load_prefs(
    home: Path,
    set_aside: Callable[[Path], Path] | None = None,
    notices: list[str] | None = None,
) -> OperatorPrefs:
    """The operator's choices, or defaults (a missing, odd or damaged file means defaults).

    With ``set_aside`` a damaged file is renamed aside (so the next change does not
    silently overwrite it) and a line for the operator goes into ``notices``.
    """
    path = home / PREFS_FILE
    try:
        doc = load_json(path, MAX_PREFS_BYTES)
    except FileNotFoundError:
        return OperatorPrefs()
    except UnreadableFile as exc:
        _damaged(path, str(exc), set_aside, notices)
        return OperatorPrefs()
    if not isinstance(doc, dict):
        _damaged(path, "not a JSON object", set_aside, notices)
        return OperatorPrefs()
    known = {f.name for f in dataclasses.fields(OperatorPrefs)}
    return OperatorPrefs(**{k: v for k, v in doc.items() if k in known}).validated()


def _damaged(
    path: Path,
    reason: str,
    set_aside: Callable[[Path], Path] | None,
    notices: list[str] | None,
) -> None:
    """Set a damaged operator file aside and say so (defaults are used meanwhile)."""
    if set_aside is None:
        return
    try:
        moved = set_aside(path)
        line = f"{path.name} was damaged ({reason}): defaults used, kept as {moved.name}"
    except OSError as exc:
        line = f"{path.name} was damaged ({reason}) and could not be moved: {exc.strerror}"
    if notices is not None:
        notices.append(line)  # the caller logs it with the other start-up notices
    else:
        log.warning("%s", line)


def save_prefs(home: Path, prefs: OperatorPrefs) -> None:
    """Save the operator's choices atomically."""
    write_atomic(home / PREFS_FILE, json.dumps(dataclasses.asdict(prefs.validated())) + "\n")


class OperatorHost(Protocol):
    """What the operator screens use of the kiosk.

    :class:`royalnine.kiosk.controller.KioskApp` provides it. A protocol, so that
    this module needs nothing from the controller, which imports this one.
    """

    RESTART_CODE: ClassVar[int]
    EXIT_CODE: ClassVar[int]
    book: StatsBook
    prefs: OperatorPrefs
    pin: PinLock
    clock: Callable[[], float]
    operator_notices: list[str]

    def apply_prefs(self) -> None:
        """Use the operator's choices now and keep them."""

    def pin_ok(self, typed: str, way: str = "touch") -> bool:
        """Whether ``typed`` is the operator PIN (typed after the way in ``way``)."""

    def reset_stats(self) -> None:
        """Start the statistics afresh."""

    def request_stop(self, reason: str, code: int = 0) -> None:
        """End the run after this frame."""


def _kiosk(app: App) -> OperatorHost:
    assert hasattr(app, "book") and hasattr(app, "pin"), "the operator screens run only in a kiosk"
    return cast(OperatorHost, app)


class PinScene:
    """A ten-key pad on the touch screen; the right PIN opens the operator menu.

    A wrong PIN clears the pad; :data:`MAX_WRONG_PINS` wrong ones in a row go
    back to where the kiosk was (``back``), and the PIN lock (kiosk.pin) of the
    way the pad was reached (``way``: the touch gesture or the key chord)
    refuses every try for a growing time after a few wrong ones.
    """

    def __init__(self, back: Scene, *, way: str = "touch") -> None:
        self.back = back
        self.way = way
        self.typed = ""
        self.wrong = 0
        self.message = ""
        self.locked_shown = -1
        self.menu: Menu | None = None

    def enter(self, app: App) -> None:
        """Draw the pad."""
        m = app.m
        draw.reset_screens(m)
        draw.centred(m, TOP, 10, kt("pin_title", app.lang), art.TEXT_YELLOW)
        keys = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "C", "0", "OK"]
        items = []
        for i, key in enumerate(keys):
            x, y = 48 + (i % 3) * 56, 32 + (i // 3) * 40  # whole tiles: the boxes are BG tiles
            items.append(MenuItem(key, key, Rect(x, y, 48, 32)))
        self.menu = Menu(items)
        self.show(app)

    def show(self, app: App) -> None:
        """The typed digits (as stars), a message and the keys."""
        m = app.m
        draw.text(m, BOTTOM, 0, 1, " " * 32, art.TEXT_WHITE)
        draw.centred(m, BOTTOM, 1, "*" * len(self.typed) or "-", art.TEXT_WHITE)
        draw.text(m, BOTTOM, 0, 3, " " * 32, art.TEXT_WHITE)
        locked = math.ceil(_kiosk(app).pin.locked_for(self.way))
        self.locked_shown = locked
        if locked:
            text = kt("pin_locked", app.lang).format(seconds=locked)
            draw.centred(m, BOTTOM, 3, text, art.TEXT_RED)
        elif self.message:
            draw.centred(m, BOTTOM, 3, kt(self.message, app.lang), art.TEXT_RED)
        assert self.menu is not None
        self.menu.draw(app)

    def frame(self, app: App, inp: InputFrame) -> Scene | None:
        """Digits, clear, OK; B leaves."""
        assert self.menu is not None
        k = _kiosk(app)
        if "b" in inp.keys:
            return self.back
        if math.ceil(k.pin.locked_for(self.way)) != self.locked_shown:
            self.show(app)  # the lock-out countdown
        choice = self.menu.handle(app, inp)
        if choice is None:
            return None
        if choice == "C":
            self.typed = ""
        elif choice == "OK":
            return self.check(app)
        elif len(self.typed) < MAX_PIN_DIGITS:
            self.typed += choice
        self.show(app)
        return None

    def check(self, app: App) -> Scene | None:
        """OK on the PIN pad."""
        if _kiosk(app).pin_ok(self.typed, self.way):
            log.info("operator menu opened")
            return OperatorScene(self.back)
        self.wrong += 1
        self.typed = ""
        self.message = "pin_wrong"
        app.beep("invalid")
        if self.wrong >= MAX_WRONG_PINS:
            return self.back
        self.show(app)
        return None


class NoPinScene:
    """What the operator's way in shows while no PIN is set: the menu is locked, and how
    to set a PIN from a shell. Nothing can be done here; a touch or a key goes back.

    A "choose a PIN" pad here would hand the kiosk to whoever found the gesture first
    (the exit, the statistics reset, a PIN the operator does not know)."""

    def __init__(self, back: Scene) -> None:
        self.back = back

    def enter(self, app: App) -> None:
        """Say so on both screens."""
        m = app.m
        draw.reset_screens(m)
        draw.centred(m, TOP, 8, kt("no_pin_title", app.lang), art.TEXT_YELLOW)
        draw.centred(m, TOP, 11, kt("no_pin_why", app.lang), art.TEXT_WHITE)
        for i, line in enumerate(NO_PIN_HOWTO):
            draw.text(m, BOTTOM, 1, 6 + i, line, art.TEXT_WHITE if i else art.TEXT_YELLOW)

    def frame(self, app: App, inp: InputFrame) -> Scene | None:
        """A touch or a key goes back (the idle timer does too)."""
        if inp.touch_down is not None or inp.keys:
            return self.back
        return None


NO_PIN_HOWTO = (
    "SET A PIN FROM A SHELL:",
    "",
    'read -rs PIN && echo "$PIN" |',
    " royalnine kiosk --home DIR",
    "   --set-pin",
    "",
    "(DIR: the kiosk's folder)",
)
"""The shell command of docs/kiosk.md, folded to the 30 columns of the bottom screen."""


class OperatorScene:
    """The operator menu (see the module docstring)."""

    def __init__(self, back: Scene) -> None:
        self.back = back
        self.menu: Menu | None = None

    def enter(self, app: App) -> None:
        """Status on top, the menu below."""
        k = _kiosk(app)
        m = app.m
        draw.reset_screens(m)
        draw.centred(m, TOP, 1, kt("operator", app.lang), art.TEXT_YELLOW)
        s = k.book.stats
        today = s.per_day.get(day_of(k.clock()), {})
        lines = [
            f"uptime      {s.uptime / 3600:9.1f} h",
            f"sessions    {s.counters['sessions']:9d}",
            f"matches     {s.matches['started']:9d}",
            f"today       {today.get('started', 0):9d}",
            f"touches     {s.counters['touches']:9d}",
            f"restart {s.last_restart.get('at', '')[5:16]:>13}",
        ]
        for i, line in enumerate(lines):
            draw.text(m, TOP, 4, 4 + i, line, art.TEXT_WHITE)
        reason = s.last_restart.get("reason", "")
        for j, part in enumerate(draw.fold(reason, 30, 3)):  # whole, over three lines
            draw.text(m, TOP, 1, 11 + j, part, art.TEXT_GREY)
        notices = list(k.operator_notices)
        if k.book.save_errors:
            notices.append(f"{k.book.save_errors} statistics saves failed: {k.book.last_error}")
        for i, line in enumerate(notices[-3:]):
            for j, part in enumerate(draw.fold(line, 31, 2)):
                draw.text(m, TOP, 0, 14 + 3 * i + j, part, art.TEXT_RED)
        self.show(app)

    def labels(self, app: App) -> list[tuple[str, str]]:
        """The menu entries with the current values."""
        prefs = _kiosk(app).prefs
        return [
            ("resume", "RESUME"),
            ("volume", f"VOLUME {prefs.volume}"),
            ("lang", f"LANG {prefs.lang.upper()}"),
            ("level", f"CPU {prefs.level.upper()}"),
            ("history", f"HISTORY {'ON' if prefs.history else 'OFF'}"),
            ("stats", "STATISTICS"),
            ("reset", "RESET STATS"),
            ("restart", "RESTART"),
            ("exit", "EXIT"),
        ]

    def show(self, app: App) -> None:
        """Draw the two columns of buttons."""
        m = app.m
        draw.reset_screen(m, BOTTOM)
        draw.centred(m, BOTTOM, 1, kt("operator", app.lang), art.TEXT_YELLOW)
        items = self.labels(app)
        left = column(items[:5], top=32, width=112, height=24, gap=8, left=8)
        right = column(items[5:], top=32, width=112, height=24, gap=8, left=136)
        cursor = self.menu.cursor if self.menu is not None else 0
        self.menu = Menu(left + right, cursor=cursor)
        self.menu.draw(app)

    def frame(self, app: App, inp: InputFrame) -> Scene | None:
        """Act on a choice."""
        assert self.menu is not None
        k = _kiosk(app)
        choice = self.menu.handle(app, inp)
        if choice == "resume" or "b" in inp.keys:
            log.info("operator: resume")
            return self.back
        if choice in ("volume", "lang", "level", "history"):
            p = k.prefs
            if choice == "history":
                p.history = not p.history
            elif choice == "volume":
                p.volume = (p.volume + 1) % len(VOLUMES)
            elif choice == "lang":
                p.lang = LANGS[(LANGS.index(p.lang) + 1) % len(LANGS)]
            else:
                p.level = DIFFICULTIES[(DIFFICULTIES.index(p.level) + 1) % len(DIFFICULTIES)]
            k.apply_prefs()
            log.info("operator: %s now %s", choice, dataclasses.asdict(p)[choice])
            self.enter(app)
            app.beep("confirm")
        elif choice == "stats":
            log.info("operator: statistics viewed")
            return StatsScene(self)
        elif choice == "reset":
            return ConfirmResetScene(self)
        elif choice in ("restart", "exit"):
            log.info("operator: %s", choice)
            if choice == "restart":
                k.request_stop("operator restart", k.RESTART_CODE)
            else:
                k.request_stop("operator exit", k.EXIT_CODE)
        return None


class ConfirmResetScene:
    """Reset the statistics? NO / YES."""

    def __init__(self, back: OperatorScene) -> None:
        self.back = back
        self.menu: Menu | None = None

    def enter(self, app: App) -> None:
        """Ask."""
        draw.reset_screen(app.m, BOTTOM)
        draw.centred(app.m, BOTTOM, 6, "RESET ALL STATISTICS?", art.TEXT_YELLOW)
        items = [("no", "NO"), ("yes", "YES")]
        self.menu = Menu(row(items, y=96, width=80, height=24, gap=32), horizontal=True)
        self.menu.draw(app)

    def frame(self, app: App, inp: InputFrame) -> Scene | None:
        """NO goes back, YES resets and goes back."""
        assert self.menu is not None
        choice = self.menu.handle(app, inp)
        if choice == "yes":
            _kiosk(app).reset_stats()
            return self.back
        if choice == "no" or "b" in inp.keys:
            log.info("operator: statistics reset cancelled")
            return self.back
        return None


class StatsScene:
    """Figures on the top screen, matches per day (14 days) as a bar chart on the bottom one."""

    def __init__(self, back: Scene) -> None:
        self.back = back
        self.menu: Menu | None = None

    def enter(self, app: App) -> None:
        """Draw both screens."""
        k = _kiosk(app)
        s = k.book.stats
        m = app.m
        draw.reset_screens(m)
        draw.centred(m, TOP, 0, "STATISTICS", art.TEXT_YELLOW)
        mean, median = s.mean_length(), s.median_length()
        c = s.counters
        lines = [
            ("sessions", str(c["sessions"])),
            ("matches started", str(s.matches["started"])),
            ("  completed", str(s.matches["completed"])),
            ("  abandoned", str(s.matches["abandoned"])),
            ("visitor wins/cpu", f"{c['visitor_wins']}/{c['cpu_wins']}"),
            ("royal nines", str(c["royal_nines"])),
            ("busts", str(c["busts"])),
            ("mean match", "-" if mean is None else f"{mean / 60:.1f} min"),
            ("median match", "-" if median is None else f"{median / 60:.1f} min"),
            ("touches", str(c["touches"])),
            ("uptime", f"{s.uptime / 3600:.1f} h"),
        ]
        for i, (name, value) in enumerate(lines):
            draw.text(m, TOP, 1, 2 + i, f"{name:<17}{value:>13}", art.TEXT_WHITE)
        kinds = sorted(s.by_kind.items())[:5]
        for i, (kind, entry) in enumerate(kinds):
            done, left = entry["completed"], entry["abandoned"]
            line = f"{kind[:12]:<12} {entry['started']:>5}{done:>6}{left:>6}"
            draw.text(m, TOP, 1, 14 + i, line, art.TEXT_CYAN)
        draw.text(m, TOP, 1, 13, f"{'kind':<12} {'start':>5}{'done':>6}{'left':>6}", art.TEXT_GREY)
        restart = s.last_restart
        draw.text(m, TOP, 1, 20, f"restart {restart.get('at', '')}"[:31], art.TEXT_GREY)
        draw.text(m, TOP, 1, 21, restart.get("reason", "")[:31], art.TEXT_GREY)
        self.draw_chart(app)
        self.menu = Menu(row([("back", app.t("menu_back"))], y=160, width=96, height=24))
        self.menu.draw(app)

    def draw_chart(self, app: App) -> None:
        """Matches started per day, the last 14 days, scaled to the busiest day."""
        k = _kiosk(app)
        m = app.m
        days = k.book.stats.days(CHART_DAYS, day_of(k.clock()))
        draw.centred(m, BOTTOM, 0, "MATCHES PER DAY (14 DAYS)", art.TEXT_YELLOW)
        m.gpage(BOTTOM)
        m.gprio(2)
        m.colset("GRP", GRP_AXIS, "F8F8F8")
        m.colset("GRP", GRP_BAR, "60D8F8")
        top = max([entry["started"] for _, entry in days] + [1])
        base = CHART_Y + CHART_H
        m.gline(CHART_X, base, CHART_X + CHART_W, base, GRP_AXIS)
        m.gline(CHART_X, CHART_Y, CHART_X, base, GRP_AXIS)
        step = CHART_W // CHART_DAYS
        for i, (_, entry) in enumerate(days):
            h = entry["started"] * (CHART_H - 8) // top
            x = CHART_X + 2 + i * step
            if h > 0:
                m.gfill(x, base - h, x + step - 4, base - 1, GRP_BAR)
        draw.text(m, BOTTOM, 2, 18, days[0][0][5:], art.TEXT_GREY)
        draw.text(m, BOTTOM, 25, 18, days[-1][0][5:], art.TEXT_GREY)
        draw.text(m, BOTTOM, 0, 2, f"max {top}", art.TEXT_GREY)

    def frame(self, app: App, inp: InputFrame) -> Scene | None:
        """BACK."""
        assert self.menu is not None
        if self.menu.handle(app, inp) == "back" or "b" in inp.keys:
            return self.back
        return None


OPERATOR_SCENES = (PinScene, NoPinScene, OperatorScene, ConfirmResetScene, StatsScene)
