"""The kiosk's App: the visitor flow, idle timers, the way in for the operator, statistics.

:class:`KioskApp` is the game's :class:`~royalnine.app.App` with a kiosk
controller around each frame. It reads the frame's input first and

- counts touches and notes the last time anyone did anything;
- watches for the operator gesture (hold the top-left corner of the touch
  screen 3 s, then the bottom-right corner 3 s, all within 10 s) and the
  operator key chord (L + R + SELECT held 2 s; on a keyboard ``q`` + ``w`` +
  Backspace by default) and opens the PIN pad or the operator menu;
- drops SELECT (it would pause a match; the on-screen MENU button still does);
- runs the "Still there?" countdown over a match left alone for
  ``reset_after`` seconds (the match is frozen under it; a touch keeps it, the
  end of the countdown abandons it) and returns any menu left alone for
  ``attract_after`` seconds to the attract loop.

Scene changes go through :meth:`KioskApp.switch`, which keeps the visitor in
the kiosk flow (the plain title, OPTIONS and the remote screens become the
kiosk title) and counts sessions and matches for the statistics. Nothing here
edits a game scene: a match is watched from outside through its type and its
``match``.

Kiosk matches are never saved (:class:`KioskStorage`), so none is ever offered
as CONTINUE to the next visitor, and the visitor's level choice is never
written into the player's settings.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Mapping
from typing import Any

from petitcom_shim import Button, Machine
from royalnine.app import SOUNDS, App, InputFrame, Scene
from royalnine.core.match import MatchOutcome
from royalnine.core.record import MetaValue
from royalnine.kiosk.config import KioskConfig
from royalnine.kiosk.operator import (
    OPERATOR_SCENES,
    VOLUMES,
    NoPinScene,
    OperatorPrefs,
    OperatorScene,
    PinScene,
    save_prefs,
)
from royalnine.kiosk.pin import PinLock
from royalnine.kiosk.scenes import (
    AttractScene,
    ClosedScene,
    KioskTitleScene,
    clear_overlay,
    draw_countdown,
)
from royalnine.kiosk.stats import StatsBook
from royalnine.kiosk.texts import kt
from royalnine.screens.exchange import ExchangeScene
from royalnine.screens.match import MatchScene
from royalnine.screens.options import OptionsScene
from royalnine.screens.remote_list import RemoteListScene
from royalnine.screens.result import MatchResultScene
from royalnine.screens.title import TitleScene
from royalnine.storage import VOLUMES as SETTING_VOLUMES
from royalnine.storage import SaveGame, Settings, Storage

log = logging.getLogger("royalnine.kiosk")
KIOSK_WORDING = {
    "handover3": "touch_ready",
    "tap_next": "touch_next",
    "saved_note": "not_saved",
    "r1_tens_off": "tens_variant",
}
"""Game texts (royalnine.i18n) the kiosk says in its own words (royalnine.kiosk.texts)."""
CORNER = 32
"""Size in pixels of the corner squares of the operator gesture."""
GESTURE_HOLD = 3.0
GESTURE_WITHIN = 10.0
CHORD = Button.L | Button.R | Button.SELECT
CHORD_HOLD = 2.0
FLUSH_EVERY = 300.0
"""Seconds between saves of the statistics while nothing else saves them (uptime)."""
TOUCH_SAVE_GAP = 0.1
"""Touches are written (without a sync: a kill keeps them, a power cut may not) at most
this many seconds after they are counted, at most ten writes a second however fast
the taps."""
TOUCH_FLUSH_AFTER = 2.0
"""... and saved durably (synced) at most this many seconds after the first touch not
synced yet: a power cut loses at most the last 2 s of touches."""
ATTRACT_DRAW_EVERY = 3
"""The attract loop shows one frame in three (20 a second; its logic, glides and timers keep
60): a kiosk is left alone in it for hours, and most of its CPU went on waking, composing and
presenting 60 times a second. A visitor's touch still ends it within 1/20 s."""
CLOSED_DRAW_EVERY = 6
"""Outside opening hours (black screens) the kiosk wakes 10 times a second."""


class KioskStorage(Storage):
    """The kiosk's data folder: matches are never saved, settings never written back."""

    def load_game(self) -> SaveGame | None:
        """No saved match is ever continued on a kiosk."""
        return None

    def save_game(self, save: SaveGame) -> None:
        """A kiosk match is not saved (the next visitor must not find it)."""

    def clear_game(self) -> None:
        """Nothing saved, nothing to clear."""

    def save_settings(self, settings: Settings) -> None:
        """A visitor's choice (the CPU level) is not written into the player's settings."""

    def record_result(
        self,
        outcome: MatchOutcome,
        mode: str,
        meta: Mapping[str, MetaValue] | None = None,
        *,
        seat: int = 0,
    ) -> None:
        """The game's own stats.json is not grown by kiosk visitors: the kiosk counts its
        matches in kiosk-stats.json (royalnine.kiosk.stats)."""

    def record_forfeit(self, mode: str, *, won: bool) -> None:
        """Not counted in the game's stats.json either (see :meth:`record_result`)."""


class Gesture:
    """The operator gesture: top-left corner held, then bottom-right corner held, in time."""

    def __init__(self) -> None:
        self.stage = 0
        self.held_since: float | None = None
        self.started = 0.0

    def feed(self, touching: bool, x: int, y: int, now: float) -> bool:
        """One frame of stylus state; True when the gesture has just been completed."""
        corner = 0
        if touching and x < CORNER and y < CORNER:
            corner = 1
        elif touching and x >= 256 - CORNER and y >= 192 - CORNER:
            corner = 2
        if self.stage == 1 and now - self.started > GESTURE_WITHIN:
            self.stage = 0
        want = 1 if self.stage == 0 else 2
        if corner != want:
            self.held_since = None
            return False
        if self.held_since is None:
            self.held_since = now
        if now - self.held_since < GESTURE_HOLD:
            return False
        self.held_since = None
        if self.stage == 0:
            self.stage, self.started = 1, now - GESTURE_HOLD
            return False
        self.stage = 0
        return now - self.started <= GESTURE_WITHIN


class KioskApp(App):
    """The game as a kiosk (see the module docstring).

    Args:
        m: the machine.
        storage: a :class:`KioskStorage`.
        settings: options for this run (language and level come from ``prefs``).
        config: the kiosk settings.
        book: the statistics.
        prefs: the operator's choices.
        clock: seconds (``time.time``; tests and the soak pass a fake one).
        seed: seeds deals and CPU choices.
        start: ``"attract"`` (always, in service), or ``"title"`` / ``"operator"`` for
            measurements and screenshots.
    """

    RESTART_CODE = 75
    """Exit status of an operator restart (the service manager starts the kiosk again)."""
    EXIT_CODE = 64
    """Exit status of an operator exit (the unit's RestartPreventExitStatus)."""

    def __init__(
        self,
        m: Machine,
        storage: Storage,
        settings: Settings,
        *,
        config: KioskConfig,
        book: StatsBook,
        prefs: OperatorPrefs,
        clock: Callable[[], float] = time.time,
        seed: int | None = None,
        start: str = "attract",
    ) -> None:
        self.kcfg = config
        self.book = book
        self.pin = PinLock(storage.home, clock, config.pin)
        self.touch_starts = m.input.touch_starts
        self.hours_checked = float("-inf")
        self.prefs = prefs
        self.clock = clock
        now = clock()
        self.last_input = now
        self.last_flush = now
        self.touches_since: float | None = None  # the first touch not synced yet
        self.touches_written = float("-inf")  # the last write of touches (synced or not)
        self.touches_unwritten = False
        self.countdown_end: float | None = None
        self.countdown_shown = -1
        self.swallow = False
        self.gesture = Gesture()
        self.chord_since: float | None = None
        self.match_scene: MatchScene | None = None
        self.match_kind = ""
        self.match_began = 0.0
        self.in_session = False
        self.stop_reason: str | None = None
        self.exit_code = 0
        self.operator_notices: list[str] = [book.notice] if book.notice else []
        _settings_from(prefs, settings)
        super().__init__(m, storage, settings, seed=seed, first=lambda _app: self._first(start))
        self._take_notices()

    def _first(self, start: str) -> Scene:
        attract = AttractScene(self.kcfg.attract_level)
        if start == "title":
            self.in_session = True
            return KioskTitleScene()
        if start == "operator":
            return OperatorScene(attract)
        return attract

    # --- settings the operator changes ---

    def apply_prefs(self) -> None:
        """Use the operator's choices now and keep them for the next start."""
        _settings_from(self.prefs, self.settings)
        self.music.apply()
        self.store("kiosk", lambda: save_prefs(self.storage.home, self.prefs))

    @property
    def keep_history(self) -> bool:
        """A kiosk keeps no match history unless the operator turned it on."""
        return self.prefs.history

    def beep(self, event: str) -> None:
        """Sounds at the operator's volume."""
        volume = VOLUMES[self.prefs.volume]
        if volume and event in SOUNDS:
            self.m.beep(SOUNDS[event], vol=volume)

    def t(self, key: str, **args: object) -> str:
        """The game's texts, with the kiosk's own wording where the game's would be wrong
        here: visitors have no keyboard (no "Tap/X") and no OPTIONS (the rules' page 1
        names a variant instead), kiosk matches are never saved, and
        the attract loop's CPUs are A and B (a "CPU 1" beside a score reads "CPU 1 5")."""
        own = KIOSK_WORDING.get(key)
        if own is not None:
            return kt(own, self.lang)
        if key == "cpu_n" and args.get("n") in (1, 2):
            args = {**args, "n": "AB"[int(str(args["n"])) - 1]}
        return super().t(key, **args)

    def pin_ok(self, typed: str, way: str = "touch") -> bool:
        """Whether ``typed`` is the operator PIN (wrong tries lock the pad of ``way``, the
        gesture's or the chord's: kiosk.pin)."""
        return self.pin.attempt(typed, way)

    def reset_stats(self) -> None:
        """Start the statistics afresh (the operator confirmed it).

        A match left under the operator menu is counted as abandoned first and no
        longer followed, so the fresh figures still add up.
        """
        if self.match_scene is not None:
            self._end_match(completed=False)
        archive = self.book.reset()
        log.info(
            "operator: statistics reset%s",
            f" (the old ones kept as {archive.name})" if archive else " (nothing to keep)",
        )

    def request_stop(self, reason: str, code: int = 0) -> None:
        """End the run after this frame (operator restart/exit, a signal)."""
        self.stop_reason = reason
        self.exit_code = code

    # --- the flow ---

    def _take_notices(self) -> None:
        """Files set aside are the operator's business, not the visitor's."""
        # in English: the operator screen is English in every language, and the log
        # (which gets these lines too) stays readable, with no half-width katakana
        self.operator_notices += [n.text("en") for n in self.notices]
        self.notices.clear()
        self.operator_notices = self.operator_notices[-10:]

    def translate(self, scene: Scene) -> Scene:
        """Keep the visitor in the kiosk flow: no plain title, options or remote screens."""
        if type(scene) is TitleScene or isinstance(
            scene, OptionsScene | ExchangeScene | RemoteListScene
        ):
            return KioskTitleScene()
        return scene

    def switch(self, scene: Scene) -> None:
        """Make ``scene`` active, counting sessions and matches on the way."""
        scene = self.translate(scene)
        prev = self.scene
        if isinstance(scene, MatchScene) and scene is not self.match_scene:
            if self.match_scene is not None:
                self._end_match(completed=False)
            self._begin_match(scene)
        elif isinstance(scene, MatchResultScene):
            if self.match_scene is not None and scene.match is self.match_scene.match:
                self._end_match(completed=True)
        elif isinstance(scene, TitleScene | AttractScene) and self.match_scene is not None:
            self._end_match(completed=False)  # quit from the pause menu, or walked away
        if isinstance(scene, AttractScene):
            self.in_session = False
        elif isinstance(prev, AttractScene) and isinstance(scene, KioskTitleScene):
            self.in_session = True
            self.book.session_started()
        if isinstance(prev, AttractScene) and scene is not prev:
            prev.leave(self)  # its blink may have left an empty GRP page on show
        self._take_notices()
        super().switch(scene)

    def _begin_match(self, scene: MatchScene) -> None:
        self.match_scene = scene
        self.match_kind = f"cpu:{scene.level}" if scene.mode == "cpu" else scene.mode
        self.match_began = self.clock()
        self.book.match_started(self.match_kind)

    def _end_match(self, *, completed: bool) -> None:
        scene = self.match_scene
        assert scene is not None
        self.match_scene = None
        match = scene.match
        royal = sum(1 for r in match.results for s in r.scores if s.royal_nine)
        busts = sum(1 for r in match.results for s in r.scores if s.bust)
        winner: str | None = None
        outcome = match.outcome() if completed else None
        if outcome is not None and scene.mode == "cpu":
            if outcome.winner is None:
                winner = "draw"
            else:
                winner = "visitor" if outcome.winner == scene.bottom_seat else "cpu"
        self.book.match_ended(
            self.match_kind,
            completed=completed,
            seconds=self.clock() - self.match_began,
            royal_nines=royal,
            busts=busts,
            winner_vs_cpu=winner,
        )

    def to_attract(self) -> None:
        """Back to the attract loop (a match still going is counted as abandoned)."""
        self._close_countdown()
        self.switch(AttractScene(self.kcfg.attract_level))

    def _mid_match(self) -> bool:
        return self.match_scene is not None and not isinstance(
            self.scene, (MatchResultScene, *OPERATOR_SCENES)
        )

    def _check_hours(self, now: float) -> None:
        """Opening hours: close from the attract loop, open into it (once a second)."""
        if not self.kcfg.hours or now - self.hours_checked < 1.0:
            return
        self.hours_checked = now
        is_open = self.kcfg.is_open(now)
        if not is_open and isinstance(self.scene, AttractScene):
            log.info("closing: outside the opening hours %s", self.kcfg.hours)
            self.switch(ClosedScene(self.kcfg.hours))
        elif is_open and isinstance(self.scene, ClosedScene):
            log.info("opening: the opening hours %s began", self.kcfg.hours)
            self.to_attract()

    def _check_idle(self, now: float) -> None:
        if isinstance(self.scene, AttractScene | ClosedScene):
            return
        idle = now - self.last_input
        if self._mid_match():
            if idle >= self.kcfg.reset_after:
                self.countdown_end = now + self.kcfg.countdown
                self.countdown_shown = -1
                self._countdown(now)
        elif idle >= self.kcfg.attract_after:
            self.to_attract()

    def _countdown(self, now: float) -> None:
        assert self.countdown_end is not None
        left = math.ceil(self.countdown_end - now)
        if left != self.countdown_shown:
            self.countdown_shown = left
            draw_countdown(self, max(1, left))

    def _operator_way_in(self, now: float) -> str:
        """The way in just completed: ``"touch"`` (the gesture), ``"chord"`` or ""."""
        m = self.m
        done = "touch" if self.gesture.feed(bool(m.tchst), m.tchx, m.tchy, now) else ""
        buttons = m.button(0)
        if buttons and buttons & CHORD == CHORD:  # (no flag arithmetic on idle frames)
            if self.chord_since is None:
                self.chord_since = now
            elif now - self.chord_since >= CHORD_HOLD:
                self.chord_since = None
                done = "chord"
        else:
            self.chord_since = None
        return "" if isinstance(self.scene, OPERATOR_SCENES) else done

    def _close_countdown(self) -> None:
        """Take the "Still there?" panel away, if it is up."""
        if self.countdown_end is not None:
            self.countdown_end = None
            clear_overlay(self)

    def _open_operator(self, way: str) -> None:
        """The PIN pad, or with no PIN set the locked notice (never a "choose a PIN" pad)."""
        self._close_countdown()
        back = self.scene
        self.swallow = True
        if not self.pin.is_set:  # (reads the PIN file again if it changed: once)
            log.warning("operator way in used (%s), but no PIN is set: menu locked", way)
            self.switch(NoPinScene(back))
            return
        log.info("operator way in used (%s): PIN pad", way)
        self.switch(PinScene(back, way=way))

    def tick(self) -> None:
        """One kiosk frame: input, operator way in, countdown or scene, idle timers, VSYNC."""
        inp = seen = self.read_input()  # (seen: before a swallowed touch is taken out)
        now = self.clock()
        starts = self.m.input.touch_starts  # taps shorter than a frame count too
        if starts != self.touch_starts:
            self.book.touches(max(0, starts - self.touch_starts))
            self.touch_starts = starts
            self.touches_unwritten = True
            if self.touches_since is None:
                self.touches_since = now
        if inp.touch_down or inp.touch_move or inp.touching or inp.keys:
            self.last_input = now
        inp.keys = [k for k in inp.keys if k != "select"]
        if self.swallow:  # the rest of a touch that already did its job
            if inp.touching or inp.touch_up is not None:
                inp = InputFrame(keys=inp.keys, dropped=inp.dropped)
            if not self.m.tchst:
                self.swallow = False
        way = self._operator_way_in(now)
        if way:
            self._open_operator(way)
        elif self.countdown_end is not None:
            if inp.touch_down is not None or inp.keys:
                self._close_countdown()
                self.swallow = True
                self.scene.enter(self)
            elif now >= self.countdown_end:
                self.to_attract()
            else:
                self._countdown(now)
        else:
            was_attract = isinstance(self.scene, AttractScene)
            nxt = self.scene.frame(self, inp)
            if nxt is not None and nxt is not self.scene:
                self.switch(nxt)
                if was_attract:
                    self.swallow = True
            self._check_idle(now)
            self._check_hours(now)
        touched = self.touches_since is not None and now - self.touches_since >= TOUCH_FLUSH_AFTER
        if touched or now - self.last_flush >= FLUSH_EVERY:
            self.last_flush, self.touches_since = now, None
            self.touches_written, self.touches_unwritten = now, False
            self.book.flush()
        elif self.touches_unwritten and now - self.touches_written >= TOUCH_SAVE_GAP:
            self.touches_written, self.touches_unwritten = now, False
            self.book.save(durable=False)
        for hook in self.on_frame:
            hook(self)
        self.frames += 1
        self.m.vsync(show=self.frames % self.draw_every(seen) == 0)

    def draw_every(self, inp: InputFrame) -> int:
        """Show one frame in this many, so that a kiosk nobody uses wakes and draws less:
        :data:`ATTRACT_DRAW_EVERY` in the attract loop, :data:`CLOSED_DRAW_EVERY` while
        closed, and elsewhere what :meth:`App.still_draw_every` says (every frame for a
        visitor or operator using it, one in three once a screen has been still)."""
        if isinstance(self.scene, ClosedScene):
            return CLOSED_DRAW_EVERY
        if isinstance(self.scene, AttractScene) and self.countdown_end is None:
            return ATTRACT_DRAW_EVERY
        return self.still_draw_every(inp)

    def run(self) -> None:
        """Run until the operator (or a signal) stops the kiosk; close requests are refused."""
        while self.stop_reason is None:
            self.tick()

    def state(self) -> dict[str, Any]:
        """What the kiosk is doing, for tests and the soak."""
        return {
            "scene": type(self.scene).__name__,
            "countdown": self.countdown_end is not None,
            "in_session": self.in_session,
            "mid_match": self._mid_match(),
        }


def new_kiosk(
    m: Machine,
    storage: KioskStorage,
    config: KioskConfig,
    *,
    clock: Callable[[], float] = time.time,
    seed: int | None = None,
    start: str = "attract",
) -> KioskApp:
    """A kiosk on ``m``: statistics loaded (leftovers cleaned), operator choices applied."""
    from royalnine.kiosk.operator import load_prefs

    book = StatsBook(storage.home, clock, storage.set_aside)
    book.begin_run()
    settings = storage.load_settings()
    notices: list[str] = []
    prefs = load_prefs(storage.home, storage.set_aside, notices)
    app = KioskApp(
        m,
        storage,
        settings,
        config=config,
        book=book,
        prefs=prefs,
        clock=clock,
        seed=seed,
        start=start,
    )
    app.operator_notices += notices
    return app


MUSIC_VOLUMES = SETTING_VOLUMES[:4]
"""Music volume (percent) of operator VOLUME steps 1-4."""


def _settings_from(prefs: OperatorPrefs, settings: Settings) -> None:
    """The operator's choices into this run's settings: language, CPU level, and sound.

    The one VOLUME step (0 = silent) sets the music too: off at 0, then 20-80 % (the
    kiosk's music stays in the background; sounds follow :meth:`KioskApp.beep`)."""
    settings.lang, settings.difficulty = prefs.lang, prefs.level
    step = prefs.volume
    settings.music = settings.effects = settings.sound = step > 0
    settings.music_volume = MUSIC_VOLUMES[max(0, min(step, len(MUSIC_VOLUMES)) - 1)]
