"""The kiosk's visitor screens: the attract loop, the kiosk title and the "Still there?" overlay.

The attract loop is a real :class:`~royalnine.screens.match.MatchScene`
between two CPUs: the bottom seat is played by a paced
:class:`~royalnine.screens.autoplay.AutoPlayer` whose taps are fed to the match
as synthetic input (a visitor's touch never reaches it), and between rounds a
page of the rules in pictures is shown. "TOUCH TO PLAY" / "ﾀｯﾁｼﾃﾈ" blinks
on the GRP page in front of everything. The first touch or key anywhere opens
the kiosk title; that touch presses nothing there, because the title's menu
only acts on a release over the button the stylus went down on.

Overlays (the blinking banner, the countdown) are drawn on the GRP pages at
the front priority, so the scene under them stays untouched; taking one away
clears the pages and lets the scene redraw itself with ``enter``.
"""

from __future__ import annotations

from petitcom_shim.charset import to_ptc
from royalnine import art
from royalnine.app import App, InputFrame, Scene
from royalnine.core import Match, MatchConfig
from royalnine.kiosk.texts import kt
from royalnine.screens import draw
from royalnine.screens.autoplay import AutoPlayer
from royalnine.screens.layout import BOTTOM, TOP
from royalnine.screens.match import MatchScene
from royalnine.screens.rules import PAGES, RulesScene
from royalnine.screens.title import TitleScene

GRP_PANEL = 254
GRP_EDGE = 253
GRP_PANEL_COLOUR = "101828"
GRP_EDGE_COLOUR = "F8D048"
PACE_FRAMES = 18
"""Frames the attract player waits before each tap, so a person can follow the cards."""
RULES_FRAMES = 6 * 60
"""How long a rules page is shown between rounds of the attract loop."""
BLINK_ON, BLINK_PERIOD = 90, 120
"""The big call to play on the lower screen is shown for BLINK_ON frames of every
BLINK_PERIOD (1.5 s on, 0.5 s off); the small one on the upper screen stays. Each change
composes and presents a screen again, which is most of what a still attract page costs."""
ATTRACT_ROUNDS = 3


def grp_text(app: App, screen: int, x: int, y: int, text: str, pal: int, scale: int = 1) -> None:
    """Text drawn with font characters on a GRP page (PTC code page; kana as katakana)."""
    m = app.m
    m.gpage(screen)
    for i, code in enumerate(to_ptc(text, "replace")):
        if code != 0x20:
            m.gputchr(x + 8 * scale * i, y, "BGF0U", code, pal, scale)


def grp_panel(app: App, screen: int, x: int, y: int, w: int, h: int) -> None:
    """A dark panel with a yellow edge on the front GRP layer of ``screen``."""
    m = app.m
    m.gpage(screen)
    m.gprio(0)
    m.colset("GRP", GRP_PANEL, GRP_PANEL_COLOUR)
    m.colset("GRP", GRP_EDGE, GRP_EDGE_COLOUR)
    m.gfill(x, y, x + w - 1, y + h - 1, GRP_PANEL)
    m.gbox(x, y, x + w - 1, y + h - 1, GRP_EDGE)


def centred_x(text: str, scale: int = 1) -> int:
    """Left x that centres ``text`` (one cell per character) on a 256-pixel screen."""
    return max(0, (256 - 8 * scale * len(to_ptc(text, "replace"))) // 2)


def clear_overlay(app: App) -> None:
    """Clear both GRP pages (the scene redraws its own GRP art in ``enter``)."""
    for screen in (TOP, BOTTOM):
        app.m.gpage(screen)
        app.m.gcls()


def draw_countdown(app: App, seconds: int) -> None:
    """The "Still there? Touch to keep playing" panel with the seconds left, on both screens."""
    for screen in (TOP, BOTTOM):
        app.m.gpage(screen)
        app.m.gcls()
        grp_panel(app, screen, 16, 48, 224, 96)
        ask, keep = kt("still_there", app.lang), kt("touch_keep", app.lang)
        grp_text(app, screen, centred_x(ask), 60, ask, art.TEXT_YELLOW)
        colour = art.TEXT_WHITE if screen == BOTTOM else art.TEXT_GREY
        grp_text(app, screen, centred_x(keep), 76, keep, colour)
        number = str(seconds)
        grp_text(app, screen, centred_x(number, 4), 96, number, art.TEXT_YELLOW, 4)


class _PacedPlayer(AutoPlayer):
    """An AutoPlayer for one match scene that waits before each tap and yields InputFrames."""

    def __init__(self, app: App, scene: MatchScene, seed: int) -> None:
        super().__init__(app, mode="cpu", drag=None, seed=seed)
        self.scene = scene
        self._held = False

    def tap(self, x: int, y: int) -> None:
        """Wait a little, then tap."""
        self.queue.extend([("wait", 0, 0)] * PACE_FRAMES)
        super().tap(x, y)

    def drag_to(self, x0: int, y0: int, x1: int, y1: int) -> None:
        """Wait a little, then drag."""
        self.queue.extend([("wait", 0, 0)] * PACE_FRAMES)
        super().drag_to(x0, y0, x1, y1)

    def plan(self) -> None:
        """Plan from the attract match (never from the app's active scene)."""
        self._match(self.scene)

    def next_input(self) -> InputFrame:
        """This frame's synthetic input for the attract match."""
        if not self.queue:
            self.plan()
        inp = InputFrame(touching=self._held)
        if self.queue:
            kind, x, y = self.queue.popleft()
            if kind == "down":
                inp.touch_down, self._held = (x, y), True
            elif kind == "move":
                inp.touch_move = (x, y)
            elif kind == "up":
                inp.touch_up, self._held = (x, y), False
            inp.touching = self._held
        return inp


CALL_HIDDEN_PAGE = 3
"""The empty GRP page the lower screen shows while its call to play blinks off."""
DRIFT = ((0, 0), (2, 1), (4, 2), (2, 3), (0, 4), (-2, 3), (-4, 2), (-2, 1))
"""(dx, dy) pixel offsets of the attract loop's call to play, one per attract match."""


class AttractScene:
    """A CPU-vs-CPU match at a watchable pace, rules in pictures between rounds, blinking call."""

    def __init__(self, level: str = "normal") -> None:
        self.level = level
        self.match_scene: MatchScene | None = None
        self.player: _PacedPlayer | None = None
        self.rules_left = 0
        self.rules_page = 0
        self.shown_round = -1
        self.finished = False
        self.blink = 0
        self.matches = 0
        self.call_drawn: tuple[int, ...] = ()

    def _new_match(self, app: App) -> None:
        config = MatchConfig(rounds=ATTRACT_ROUNDS, tens=app.settings.tens)
        self.match_scene = MatchScene(Match.new(config), "cpu", {"level": self.level})
        self.player = _PacedPlayer(app, self.match_scene, app.rng.randrange(1 << 30))
        self.finished = False
        self.shown_round = -1
        self.matches += 1

    def enter(self, app: App) -> None:
        """Draw the match (or the rules page) under the blinking call."""
        app.demo = True  # the CPU plays both seats: neither is called YOU
        app.show_controls = False  # nobody plays: no buttons, no "tap here" prompts
        if self.match_scene is None:
            self._new_match(app)
        if self.rules_left > 0:
            RulesScene(back=self, page=self.rules_page).enter(app)
        else:
            assert self.match_scene is not None
            self.match_scene.enter(app)
        self.blink = 0
        self.draw_call(app, True)

    def draw_call(self, app: App, on: bool) -> None:
        """Draw the call to play in both languages (big at the bottom, small on top) on the
        screens' GRP pages, shown or not (:meth:`show_call`).

        Nothing else in the attract loop draws on GRP, so the blink just switches the
        lower screen between its GRP page and an empty one (PTC's GPAGE display page)
        instead of drawing the text again every second, once the attract loop's largest
        cost in CPU.
        """
        clear_overlay(app)
        app.m.gpage(BOTTOM, draw=CALL_HIDDEN_PAGE)
        app.m.gcls()
        app.m.gpage(BOTTOM, draw=BOTTOM)
        self.show_call(app, on)
        en, ja = kt("touch_to_play", "en"), kt("touch_to_play", "ja")
        dx, dy = self.drift()
        grp_panel(app, BOTTOM, 8 + dx, 64 + dy, 240, 64)
        grp_text(app, BOTTOM, centred_x(en, 2) + dx, 72 + dy, en, art.TEXT_YELLOW, 2)
        grp_text(app, BOTTOM, centred_x(ja, 2) + dx, 100 + dy, ja, art.TEXT_WHITE, 2)
        both = f"{en} / {ja}"
        grp_panel(app, TOP, 16 + dx, 172 + dy // 2, 224, 16)
        grp_text(app, TOP, centred_x(both) + dx, 176 + dy // 2, both, art.TEXT_WHITE)
        self.call_drawn = self.call_pages(app)

    def call_pages(self, app: App) -> tuple[int, ...]:
        """The drawing versions of the two pages the call is drawn on: when they move, the
        match cleared them (a new round draws its screens afresh) and the call must be
        drawn again."""
        return tuple(app.m.grp_pages[screen].version for screen in (TOP, BOTTOM))

    def show_call(self, app: App, on: bool) -> None:
        """Show the call drawn by :meth:`draw_call`, or on the lower screen the empty page
        instead (the upper screen's small call does not blink)."""
        app.m.gpage(TOP, disp=TOP)
        app.m.gpage(BOTTOM, disp=BOTTOM if on else CALL_HIDDEN_PAGE)

    def leave(self, app: App) -> None:
        """Another scene takes over: each screen shows its own GRP page again."""
        self.show_call(app, True)

    def drift(self) -> tuple[int, int]:
        """Where the call to play sits now: it moves a few pixels with every attract match,
        so a screen left on for months does not burn the same panel in."""
        return DRIFT[self.matches % len(DRIFT)]

    def start_rules(self, app: App) -> None:
        """Show the next page of the rules in pictures for a few seconds."""
        self.rules_left = RULES_FRAMES
        self.enter(app)

    def frame(self, app: App, inp: InputFrame) -> Scene | None:
        """Play on; the first touch or key opens the kiosk title."""
        if inp.touch_down is not None or inp.keys:
            self.leave(app)
            return KioskTitleScene()
        assert self.match_scene is not None and self.player is not None
        if self.rules_left > 0:
            self.rules_left -= 1
            if self.rules_left == 0:
                self.rules_page = (self.rules_page + 1) % len(PAGES)
                if self.finished:
                    self._new_match(app)
                self.enter(app)
        else:
            scene = self.match_scene
            if scene.state == "round_over" and self.shown_round != len(scene.match.results):
                self.shown_round = len(scene.match.results)
                self.start_rules(app)
                return None
            nxt = scene.frame(app, self.player.next_input())
            if nxt is not None and nxt is not scene:
                # the match is over (a result screen) or paused: rules, then a new match
                self.finished = True
                self.start_rules(app)
                return None
            if self.call_pages(app) != self.call_drawn:  # a new round cleared the call
                self.draw_call(app, self.blink % BLINK_PERIOD < BLINK_ON)
        self.blink += 1
        if self.blink % BLINK_PERIOD in (0, BLINK_ON):
            self.show_call(app, self.blink % BLINK_PERIOD == 0)
        return None


class KioskTitleScene(TitleScene):
    """The title with the kiosk menu: VS CPU, 2 PLAYERS, RULES (no OPTIONS, REMOTE or CONTINUE)."""

    def enter(self, app: App) -> None:
        """A visitor is here: the matches from now on are theirs (YOU again)."""
        app.demo = False
        app.show_controls = True
        super().enter(app)

    def main_items(self, app: App) -> list[tuple[str, str]]:
        """The three kiosk entries."""
        return [
            ("cpu", app.t("menu_cpu")),
            ("local", app.t("menu_local")),
            ("rules", app.t("menu_rules")),
        ]


CLOSED_NOTE_FRAMES = 5 * 60
"""How long a touch outside opening hours shows when the kiosk opens."""


class ClosedScene:
    """Outside opening hours: both screens black (nothing changes, so nothing is drawn).

    A touch shows "CLOSED" and the hours for a few seconds, then black again.
    """

    def __init__(self, hours: str) -> None:
        self.hours = hours
        self.note_left = 0

    def enter(self, app: App) -> None:
        """Both screens black."""
        app.demo = False
        for screen in (TOP, BOTTOM):
            draw.reset_screen(app.m, screen, felt=False)
        clear_overlay(app)
        if self.note_left:
            for screen, row in ((TOP, 10), (BOTTOM, 10)):
                draw.centred(app.m, screen, row, kt("closed", app.lang), art.TEXT_YELLOW)
                text = kt("opening_hours", app.lang).format(hours=self.hours)
                draw.centred(app.m, screen, row + 2, text, art.TEXT_GREY)

    def frame(self, app: App, inp: InputFrame) -> Scene | None:
        """A touch or key shows the note; it goes again after a few seconds."""
        if inp.touch_down is not None or inp.keys:
            fresh = self.note_left == 0
            self.note_left = CLOSED_NOTE_FRAMES
            if fresh:
                self.enter(app)
        elif self.note_left:
            self.note_left -= 1
            if not self.note_left:
                self.enter(app)
        return None
