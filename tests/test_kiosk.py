"""Kiosk mode: the visitor flow, the idle timers, lock-down, the operator's way in, statistics."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from petitcom_shim import Button, Machine
from petitcom_shim.config import ShimConfig
from royalnine.kiosk.config import KioskConfig
from royalnine.kiosk.controller import KioskApp, KioskStorage, new_kiosk
from royalnine.kiosk.operator import (
    MAX_PREFS_BYTES,
    PREFS_FILE,
    NoPinScene,
    OperatorPrefs,
    OperatorScene,
    PinScene,
    StatsScene,
    load_prefs,
    save_prefs,
)
from royalnine.kiosk.pin import FIRST_LOCK, FREE_TRIES, MAX_LOCK, PIN_FILE, PinLock
from royalnine.kiosk.scenes import AttractScene, KioskTitleScene
from royalnine.kiosk.stats import STATS_FILE, read_stats
from royalnine.screens.autoplay import AutoPlayer
from royalnine.screens.match import MatchScene
from royalnine.screens.pause import PauseScene
from royalnine.screens.result import MatchResultScene
from royalnine.screens.title import TitleScene

FPS = 60


class Clock:
    """A fake clock the kiosk reads; each kiosk frame advances it by one 60th of a second."""

    def __init__(self) -> None:
        self.t = 1_763_800_000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock() -> Clock:
    return Clock()


PIN = "2468"


def make(
    home: Path,
    clock: Clock,
    *,
    pin: str = "",
    pin_file: str | None = PIN,
    rounds: int = 1,
    window: bool = False,
) -> KioskApp:
    """A kiosk in ``home``; ``pin`` is a plain PIN in shim.toml, ``pin_file`` one stored
    hashed (set before the start; None for a kiosk whose PIN was never set)."""
    home.mkdir(parents=True, exist_ok=True)
    if pin_file is not None and not (home / PIN_FILE).exists():
        PinLock(home, clock).set_pin(pin_file)
    (home / "settings.json").write_text(json.dumps({"rounds": rounds, "sound": False}))
    cfg = ShimConfig(ignore_close=True, hot_keys=False)
    m = Machine(headless=not window, realtime=False, config=cfg, audio=False)
    config = KioskConfig(attract_after=60, reset_after=90, countdown=10, pin=pin)
    return new_kiosk(m, KioskStorage(home), config, clock=clock, seed=5)


def step(app: KioskApp, clock: Clock, frames: int = 1) -> None:
    for _ in range(frames):
        clock.t += 1 / FPS
        app.tick()


def tap(app: KioskApp, clock: Clock, x: int, y: int, hold: int = 2) -> None:
    app.m.input.touch(x, y)
    step(app, clock, hold)
    app.m.input.untouch()
    step(app, clock, 2)


def idle(app: KioskApp, clock: Clock, seconds: float) -> None:
    """Nobody touches anything for ``seconds`` (the clock jumps; a few frames run)."""
    clock.t += seconds
    step(app, clock, 3)


def tap_item(app: KioskApp, clock: Clock, value: str) -> None:
    menu = getattr(app.scene, "menu", None)
    assert menu is not None, type(app.scene).__name__
    item = next(i for i in menu.items if i.value == value)
    tap(app, clock, *item.rect.centre)


def stats(home: Path) -> dict[str, object]:
    return json.loads((home / STATS_FILE).read_text())


def to_match(app: KioskApp, clock: Clock) -> MatchScene:
    tap(app, clock, 128, 96)  # wakes the attract loop
    assert isinstance(app.scene, KioskTitleScene)
    tap_item(app, clock, "cpu")
    tap_item(app, clock, "easy")
    assert isinstance(app.scene, MatchScene)
    return app.scene


# --- the flow ---


def test_attract_touch_title_match_walk_away_countdown_attract(
    tmp_path: Path, clock: Clock
) -> None:
    app = make(tmp_path, clock)
    assert isinstance(app.scene, AttractScene)
    step(app, clock, 600)  # the attract loop plays on by itself
    assert isinstance(app.scene, AttractScene)
    assert app.scene.match_scene is not None and app.scene.match_scene.match.phase is not None
    # the waking touch lands where VS CPU is drawn, yet presses nothing there
    title_cpu = (128, 48 + 12)
    tap(app, clock, *title_cpu)
    assert isinstance(app.scene, KioskTitleScene) and app.scene.page == "main"
    assert [v for v, _ in app.scene.main_items(app)] == ["cpu", "local", "rules"]
    scene = (tap_item(app, clock, "cpu"), tap_item(app, clock, "normal"), app.scene)[2]
    assert isinstance(scene, MatchScene)
    idle(app, clock, 89)
    assert app.countdown_end is None
    idle(app, clock, 1.5)
    assert app.countdown_end is not None and app.scene is scene
    idle(app, clock, 10)
    assert isinstance(app.scene, AttractScene) and app.countdown_end is None
    s = stats(tmp_path)
    assert s["sessions"] == 1
    assert s["matches"] == {"started": 1, "completed": 0, "abandoned": 1}
    assert s["by_kind"] == {"cpu:normal": {"started": 1, "completed": 0, "abandoned": 1}}
    assert not (tmp_path / "saves" / "current.json").exists()  # never offered as CONTINUE


def test_attract_loop_plays_match_after_match_with_rules_between(
    tmp_path: Path, clock: Clock
) -> None:
    app = make(tmp_path, clock)
    attract = app.scene
    assert isinstance(attract, AttractScene)
    rules_seen = 0
    for _ in range(9000):
        step(app, clock)
        rules_seen += attract.rules_left == 1
    assert app.scene is attract and attract.matches >= 2 and rules_seen >= 3
    assert stats(tmp_path)["matches"] == {"started": 0, "completed": 0, "abandoned": 0}


def test_touch_during_countdown_keeps_the_match(tmp_path: Path, clock: Clock) -> None:
    app = make(tmp_path, clock)
    scene = to_match(app, clock)
    idle(app, clock, 91)
    assert app.countdown_end is not None
    tap(app, clock, 128, 100)
    assert app.countdown_end is None and app.scene is scene
    step(app, clock, 30)
    assert app.scene is scene
    idle(app, clock, 60)  # the idle time starts again from the touch
    assert app.countdown_end is None
    assert stats(tmp_path)["matches"] == {"started": 1, "completed": 0, "abandoned": 0}


def test_finished_match_result_then_attract_after_idle(tmp_path: Path, clock: Clock) -> None:
    app = make(tmp_path, clock, rounds=1)
    tap(app, clock, 128, 96)
    player = AutoPlayer(app, mode="cpu", level="hard", seed=3)
    for _ in range(20_000):
        if isinstance(app.scene, MatchResultScene):
            break
        if not player.queue:
            player.plan()
        if player.queue:
            player._feed()
        step(app, clock)
    assert isinstance(app.scene, MatchResultScene)
    idle(app, clock, 59)
    assert isinstance(app.scene, MatchResultScene)
    idle(app, clock, 2)
    assert isinstance(app.scene, AttractScene)
    s = stats(tmp_path)
    assert s["matches"] == {"started": 1, "completed": 1, "abandoned": 0}
    assert s["visitor_wins"] + s["cpu_wins"] + s["draws_vs_cpu"] == 1
    assert s["length_count"] == 1 and len(s["lengths"]) == 1 and s["lengths"][0] > 0
    assert not (tmp_path / "stats.json").exists()  # the game's own statistics do not grow


def test_menus_return_to_attract_and_plain_title_becomes_kiosk_title(
    tmp_path: Path, clock: Clock
) -> None:
    app = make(tmp_path, clock)
    tap(app, clock, 10, 10)
    tap_item(app, clock, "rules")
    assert not isinstance(app.scene, TitleScene)
    tap_item(app, clock, "back")
    assert isinstance(app.scene, KioskTitleScene)  # RulesScene's back was a plain TitleScene
    idle(app, clock, 61)
    assert isinstance(app.scene, AttractScene)


# --- locked down ---


@pytest.fixture
def display() -> Iterator[None]:
    pygame.display.init()
    pygame.event.clear()
    yield
    pygame.event.clear()


def test_close_requests_and_keys_do_not_end_the_kiosk(
    tmp_path: Path, clock: Clock, display: None
) -> None:
    app = make(tmp_path, clock, window=True)
    to_match(app, clock)
    win = app.m.frontend.windows[0].window  # type: ignore[attr-defined]
    pygame.event.post(pygame.event.Event(pygame.WINDOWCLOSE, window=win))
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    for key, mod in ((pygame.K_ESCAPE, 0), (pygame.K_F4, pygame.KMOD_ALT), (pygame.K_F11, 0)):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=""))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=mod, unicode=""))
    alt_enter = {"key": pygame.K_RETURN, "mod": pygame.KMOD_ALT, "unicode": ""}
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, **alt_enter))
    step(app, clock, 10)
    for kind in (pygame.FINGERDOWN, pygame.FINGERUP):  # five fingers at once, corners included
        for k, (x, y) in enumerate(
            ((0.01, 0.99), (0.99, 0.99), (0.5, 0.5), (0.01, 0.51), (0.3, 0.7))
        ):
            finger = {"touch_id": 1, "finger_id": k, "x": x, "y": y, "dx": 0.0, "dy": 0.0}
            pygame.event.post(pygame.event.Event(kind, window=win, pressure=1.0, **finger))
        step(app, clock, 4 * FPS if kind == pygame.FINGERDOWN else 3)
    assert app.m.running and app.stop_reason is None
    assert not app.m.frontend.fullscreen  # type: ignore[attr-defined]
    assert isinstance(app.scene, MatchScene | PauseScene)
    app.m.close()


def test_buttons_long_presses_and_taps_stay_in_the_kiosk_flow(tmp_path: Path, clock: Clock) -> None:
    app = make(tmp_path, clock)
    to_match(app, clock)
    for bit in (Button.SELECT, Button.START, Button.B, Button.SELECT | Button.START):
        app.m.input.press(bit)
        step(app, clock, 3)
        app.m.input.release(bit)
        step(app, clock, 3)
    assert isinstance(app.scene, MatchScene)  # SELECT is dropped: no pause by buttons
    for x, y in ((250, 186), (5, 5), (128, 96), (220, 10)):
        app.m.input.touch(x, y)
        step(app, clock, 5 * FPS)  # a long press anywhere, one corner at a time
        app.m.input.untouch()
        step(app, clock, 2)
        assert app.stop_reason is None and app.m.running, type(app.scene)
    # the MENU button pauses; quitting from the pause menu leads to the kiosk title
    if isinstance(app.scene, MatchScene):
        tap(app, clock, 228, 12)
    assert isinstance(app.scene, PauseScene), (type(app.scene), app.scene.state)
    tap_item(app, clock, "quit")
    assert isinstance(app.scene, KioskTitleScene)
    assert app.stop_reason is None and app.m.running
    assert stats(tmp_path)["matches"]["abandoned"] == 1  # type: ignore[index]


def gesture(app: KioskApp, clock: Clock, first: float = 3.2, second: float = 3.2) -> None:
    app.m.input.touch(4, 4)
    step(app, clock, int(first * FPS))
    app.m.input.untouch()
    step(app, clock, 10)
    app.m.input.touch(252, 188)
    step(app, clock, int(second * FPS))
    app.m.input.untouch()
    step(app, clock, 3)


def operator(app: KioskApp, clock: Clock) -> None:
    """The gesture and the PIN: the operator menu."""
    gesture(app, clock)
    assert isinstance(app.scene, PinScene)
    type_pin(app, clock, PIN)
    assert isinstance(app.scene, OperatorScene)


def test_operator_gesture_and_chord_open_the_operator_menu(tmp_path: Path, clock: Clock) -> None:
    app = make(tmp_path, clock)
    operator(app, clock)
    tap_item(app, clock, "resume")
    assert not isinstance(app.scene, OperatorScene | PinScene)
    app.m.input.press(Button.L | Button.R | Button.SELECT)
    step(app, clock, int(2.2 * FPS))
    app.m.input.release(Button.L | Button.R | Button.SELECT)
    step(app, clock, 2)
    assert isinstance(app.scene, PinScene)
    type_pin(app, clock, PIN)
    assert isinstance(app.scene, OperatorScene)


def test_half_gestures_and_slow_gestures_do_nothing(tmp_path: Path, clock: Clock) -> None:
    app = make(tmp_path, clock)
    gesture(app, clock, first=2.0)  # top-left not held long enough
    assert not isinstance(app.scene, OperatorScene)
    app.m.input.touch(4, 4)
    step(app, clock, int(3.2 * FPS))
    app.m.input.untouch()
    idle(app, clock, 8)  # too slow to the second corner
    app.m.input.touch(252, 188)
    step(app, clock, int(3.2 * FPS))
    app.m.input.untouch()
    step(app, clock, 2)
    assert not isinstance(app.scene, OperatorScene)


def type_pin(app: KioskApp, clock: Clock, pin: str) -> None:
    for digit in [*pin, "OK"]:
        tap_item(app, clock, digit)


def test_operator_pin(tmp_path: Path, clock: Clock) -> None:
    app = make(tmp_path, clock, pin="2468", pin_file=None)  # plain, in shim.toml (the old way)
    gesture(app, clock)
    assert isinstance(app.scene, PinScene)
    type_pin(app, clock, "1357")
    assert isinstance(app.scene, PinScene) and app.scene.wrong == 1
    type_pin(app, clock, "2468")
    assert isinstance(app.scene, OperatorScene)


def test_three_wrong_pins_go_back(tmp_path: Path, clock: Clock) -> None:
    app = make(tmp_path, clock, pin="2468", pin_file=None)
    gesture(app, clock)
    for _ in range(3):
        type_pin(app, clock, "0000")
    assert not isinstance(app.scene, PinScene | OperatorScene)


def chord(app: KioskApp, clock: Clock) -> None:
    """The operator key chord, held long enough."""
    app.m.input.press(Button.L | Button.R | Button.SELECT)
    step(app, clock, int(2.2 * FPS))
    app.m.input.release(Button.L | Button.R | Button.SELECT)
    step(app, clock, 2)


def test_with_no_pin_the_operator_menu_is_locked(tmp_path: Path, clock: Clock) -> None:
    """With no PIN set, the gesture let anyone choose one and open the operator menu (EXIT,
    RESET STATS, a PIN the operator does not know). Now the gesture and the chord show that
    the menu is locked and how to set a PIN from a shell, and do nothing else."""
    records = captured_log()
    try:
        app = make(tmp_path, clock, pin_file=None)
        for way_in in (gesture, chord):
            way_in(app, clock)
            assert isinstance(app.scene, NoPinScene)
            screens = screen_text(app, 0) + screen_text(app, 1)
            assert "OPERATOR MENU LOCKED" in screens and "--set-pin" in screens
            for x, y in ((128, 96), (4, 4), (200, 150)):  # nothing here to press
                tap(app, clock, x, y)
                assert not isinstance(app.scene, OperatorScene | PinScene)
            assert not isinstance(app.scene, NoPinScene)  # a touch went back
        assert not (tmp_path / PIN_FILE).exists()
        assert "no PIN is set: menu locked" in "\n".join(records)
        PinLock(tmp_path, clock).set_pin("1357")  # `royalnine kiosk --set-pin` meanwhile
        gesture(app, clock)
        assert isinstance(app.scene, PinScene)
        type_pin(app, clock, "1357")
        assert isinstance(app.scene, OperatorScene)
    finally:
        captured_log(stop=records)


def test_a_visitor_who_locks_the_pad_does_not_lock_out_the_chord(
    tmp_path: Path, clock: Clock
) -> None:
    """Wrong PINs on the touchscreen lock the gesture's pad for up to an hour; the operator
    at a keyboard (the chord) has a lock-out of its own and gets in. Tries refused during
    the lock-out are summed up in one log line, not written one by one."""
    records = captured_log()
    try:
        app = make(tmp_path, clock)
        for _ in range(3):  # a visitor at it: three wrong, then more while locked
            gesture(app, clock)
            for _ in range(3):
                type_pin(app, clock, "0000")
        assert app.pin.locked_for("touch") > 0 and app.pin.locked_for("chord") == 0
        gesture(app, clock)
        type_pin(app, clock, PIN)
        assert isinstance(app.scene, PinScene)  # the right PIN, refused: locked
        tap_item(app, clock, "C")
        app.m.input.press(Button.B)
        step(app, clock, 2)
        app.m.input.release(Button.B)
        step(app, clock, 2)
        chord(app, clock)
        assert isinstance(app.scene, PinScene) and app.scene.way == "chord"
        type_pin(app, clock, PIN)
        assert isinstance(app.scene, OperatorScene)
        text = "\n".join(records)
        refused = [r for r in records if "operator PIN refused" in r]
        assert len(refused) == 1, refused  # the first refused try, then silence
        clock.t += MAX_LOCK
        assert app.pin.locked_for("touch") == 0
        summary = [r for r in records if "tries refused while it was locked" in r]
        assert len(summary) == 1 and "(touch): 7 tries refused" in summary[0], text
    finally:
        captured_log(stop=records)


def captured_log(stop: list[str] | None = None) -> list[str]:
    """Start collecting the kiosk's log lines (or, with ``stop``, stop collecting them)."""
    logger = logging.getLogger("royalnine.kiosk")
    if stop is not None:
        for handler in [h for h in logger.handlers if getattr(h, "records", None) is stop]:
            logger.removeHandler(handler)
        return stop
    records: list[str] = []
    handler = logging.Handler()
    handler.records = records  # type: ignore[attr-defined]
    handler.emit = lambda record: records.append(record.getMessage())  # type: ignore[method-assign]
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    return records


def test_wrong_pins_lock_the_pad_for_longer_and_longer(tmp_path: Path, clock: Clock) -> None:
    app = make(tmp_path, clock)
    gesture(app, clock)
    for _ in range(FREE_TRIES):
        type_pin(app, clock, "0000")
    assert not isinstance(app.scene, PinScene)  # back where it was
    gesture(app, clock)
    type_pin(app, clock, PIN)  # the right PIN, but locked
    assert isinstance(app.scene, PinScene) and app.pin.locked_for() > 0
    # the lock-out survives a restart
    again = make(tmp_path, clock)
    assert again.pin.locked_for() == app.pin.locked_for() > 0
    clock.t += FIRST_LOCK + 1
    type_pin(app, clock, PIN)
    assert isinstance(app.scene, OperatorScene) and app.pin.failures == 0
    # 9 wrong tries, then the right one: still locked, for 30 s doubled six times
    lock = PinLock(tmp_path, clock)
    for _ in range(9):
        clock.t += MAX_LOCK
        assert not lock.attempt("1111")
    assert lock.locked_for() == FIRST_LOCK * 2**6
    assert not lock.attempt(PIN)
    clock.t += MAX_LOCK
    assert lock.attempt(PIN)


def test_pin_lock_out_stays_bounded(tmp_path: Path, clock: Clock) -> None:
    """A lock-out never exceeds MAX_LOCK, even after the clock went back (an NTP
    correction of a machine that booted with a time far ahead) or after more wrong
    tries than a float can double (a determined visitor over weeks, or an edited
    file): no lock for years, no OverflowError that would crash the kiosk."""
    lock = PinLock(tmp_path, clock)
    lock.set_pin(PIN)
    for _ in range(FREE_TRIES):
        assert not lock.attempt("1111")
    clock.t -= 10 * 365 * 86400  # the clock set back ten years
    assert lock.locked_for() <= MAX_LOCK
    clock.t += MAX_LOCK
    assert lock.attempt(PIN)
    doc = json.loads((tmp_path / PIN_FILE).read_text())
    doc["failures"] = 5000
    (tmp_path / PIN_FILE).write_text(json.dumps(doc))
    lock = PinLock(tmp_path, clock)
    assert not lock.attempt("1111")
    assert lock.locked_for() == MAX_LOCK


def test_a_pin_set_from_the_shell_is_not_undone_by_the_running_kiosk(
    tmp_path: Path, clock: Clock
) -> None:
    """`--set-pin` while the kiosk runs: the kiosk's next PIN try used to save its old
    hash back over the new one, so the PIN the operator just set was silently lost."""
    running = PinLock(tmp_path, clock)
    running.set_pin(PIN)
    PinLock(tmp_path, clock).set_pin("97531")  # what `royalnine kiosk --set-pin` does
    assert not running.attempt(PIN)  # the old PIN no longer opens the pad
    assert running.attempt("97531")
    assert PinLock(tmp_path, clock).attempt("97531")  # and after a restart
    (tmp_path / PIN_FILE).unlink()  # a forgotten PIN: the pad asks for a new one
    assert not running.is_set


def test_the_pin_pad_locks_even_when_the_pin_file_cannot_be_saved(
    tmp_path: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    lock = PinLock(tmp_path, clock)
    lock.set_pin(PIN)

    def full_disk(*_args: object, **_kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("royalnine.kiosk.pin.write_atomic", full_disk)
    for _ in range(FREE_TRIES):
        assert not lock.attempt("1111")
    assert lock.locked_for() == FIRST_LOCK and not lock.attempt(PIN)


def test_operator_actions_are_logged(tmp_path: Path, clock: Clock) -> None:
    records: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: records.append(record.getMessage())  # type: ignore[method-assign]
    logger = logging.getLogger("royalnine.kiosk")
    logger.addHandler(handler)
    level = logger.level
    logger.setLevel(logging.INFO)
    try:
        app = make(tmp_path, clock)
        gesture(app, clock)
        type_pin(app, clock, "0000")
        type_pin(app, clock, PIN)
        for item in ("volume", "stats", "back", "reset", "yes", "exit"):
            tap_item(app, clock, item)
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    text = "\n".join(records)
    for words in (
        "operator way in used",
        "wrong operator PIN (1 in a row, touch)",
        "operator menu opened",
        "operator: volume now",
        "operator: statistics viewed",
        "operator: statistics reset (the old ones kept as kiosk-stats.json.reset-",
        "operator: exit",
    ):
        assert words in text, words


def test_operator_prefs_round_trip_and_bad_files_mean_defaults(tmp_path: Path) -> None:
    chosen = OperatorPrefs(volume=1, lang="ja", level="hard")
    save_prefs(tmp_path, chosen)
    assert load_prefs(tmp_path) == chosen
    path = tmp_path / PREFS_FILE
    for bad in ("{oops", "[1, 2]", "[" * 100 + "]" * 100, " " * (MAX_PREFS_BYTES + 1)):
        path.write_text(bad)
        assert load_prefs(tmp_path) == OperatorPrefs(), bad[:10]
    path.unlink()
    path.mkdir()
    assert load_prefs(tmp_path) == OperatorPrefs()


def test_operator_menu_entries(tmp_path: Path, clock: Clock) -> None:
    app = make(tmp_path, clock)
    operator(app, clock)
    tap_item(app, clock, "volume")
    tap_item(app, clock, "lang")
    tap_item(app, clock, "level")
    prefs = json.loads((tmp_path / "kiosk-operator.json").read_text())
    assert prefs == {"volume": 4, "lang": "ja", "level": "hard", "history": False}
    assert app.settings.lang == "ja" and app.settings.difficulty == "hard"
    assert not (tmp_path / "settings.json").read_text().count("ja")
    tap_item(app, clock, "stats")
    assert isinstance(app.scene, StatsScene)
    tap_item(app, clock, "back")
    tap_item(app, clock, "reset")
    tap_item(app, clock, "no")
    assert stats(tmp_path)["touches"] > 0  # type: ignore[operator]
    before = stats(tmp_path)
    tap_item(app, clock, "reset")
    tap_item(app, clock, "yes")
    assert stats(tmp_path)["sessions"] == 0
    kept = list(tmp_path.glob(f"{STATS_FILE}.reset-*"))  # what RESET cleared is kept
    assert len(kept) == 1 and json.loads(kept[0].read_text())["touches"] >= before["touches"]  # type: ignore[operator]
    assert stats(tmp_path)["last_restart"]["reason"] == "statistics reset"  # type: ignore[index]
    tap_item(app, clock, "restart")
    assert app.stop_reason == "operator restart" and app.exit_code == KioskApp.RESTART_CODE


# --- statistics ---


def test_statistics_add_up_after_scripted_sessions(tmp_path: Path, clock: Clock) -> None:
    app = make(tmp_path, clock)
    for _ in range(3):  # walk away mid-match
        to_match(app, clock)
        idle(app, clock, 91)
        idle(app, clock, 11)
        assert isinstance(app.scene, AttractScene)
    tap(app, clock, 30, 30)  # look at the title, leave
    idle(app, clock, 61)
    tap(app, clock, 30, 30)  # two players, then quit by the pause menu
    tap_item(app, clock, "local")
    tap(app, clock, 228, 12)
    tap(app, clock, 228, 12)
    if isinstance(app.scene, PauseScene):
        tap_item(app, clock, "quit")
    idle(app, clock, 91)
    idle(app, clock, 11)
    s = read_stats(tmp_path / STATS_FILE)
    assert s is not None
    assert s.counters["sessions"] == 5
    assert s.matches["started"] == 4
    assert s.matches["started"] == s.matches["completed"] + s.matches["abandoned"]
    assert sum(k["started"] for k in s.by_kind.values()) == 4
    assert sum(d["started"] for d in s.per_day.values()) == 4
    assert sum(d["sessions"] for d in s.per_day.values()) == 5
    assert s.counters["touches"] >= 5 * 2
    assert s.uptime > 300


@pytest.mark.parametrize(
    "content",
    [
        b"{not json",
        b"[1, 2]",
        b'{"version": 1, "sessions": "many"}',
        b'{"version": true}',  # true == 1 in Python: not a version we wrote
        b'{"version": 1, "matches": {"started": -3}}',
        b"[" * 100_000,
        b'{"version": 1, "per_day": {"yesterday": {}}}',
        b"\xff\xfe",
    ],
)
def test_damaged_statistics_are_set_aside_and_reported(
    tmp_path: Path, clock: Clock, content: bytes
) -> None:
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / STATS_FILE).write_bytes(content)
    app = make(tmp_path, clock)
    assert any("statistics were damaged" in n for n in app.operator_notices)
    assert list(tmp_path.glob(f"{STATS_FILE}.corrupt-*"))
    assert stats(tmp_path)["sessions"] == 0
    operator(app, clock)  # the menu shows the notice


def test_statistics_that_are_not_a_file_and_temporary_leftovers(
    tmp_path: Path, clock: Clock
) -> None:
    (tmp_path / STATS_FILE).mkdir(parents=True)
    (tmp_path / f".{STATS_FILE}.abc123.tmp").write_text("half a write")
    app = make(tmp_path, clock)
    assert any("not a regular file" in n for n in app.operator_notices)
    assert not list(tmp_path.glob(".*.tmp"))
    assert (tmp_path / STATS_FILE).is_file()


def test_restart_reason_is_remembered(tmp_path: Path, clock: Clock) -> None:
    app = make(tmp_path, clock)
    assert app.book.stats.last_restart["reason"] == "first start"
    app.book.end_run("operator restart")
    app = make(tmp_path, clock)
    assert app.book.stats.last_restart["reason"] == "operator restart"
    app = make(tmp_path, clock)  # the previous run never ended cleanly
    assert "unexpected end" in app.book.stats.last_restart["reason"]


def test_kiosk_texts_fit_the_screen_width() -> None:
    from royalnine.kiosk.texts import TEXTS, kt

    for key in TEXTS:
        for lang in ("en", "ja"):
            text = kt(key, lang).format(seconds=int(MAX_LOCK), hours="22:00-02:30")
            assert len(text) <= 32, (key, lang, text)


def test_a_damaged_operator_file_is_set_aside_with_a_notice(tmp_path: Path, clock: Clock) -> None:
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / PREFS_FILE).write_text('{"volume": 1, "lang": "ja"')  # cut short
    app = make(tmp_path, clock)
    assert any(PREFS_FILE in n and "damaged" in n for n in app.operator_notices)
    kept = list(tmp_path.glob(f"{PREFS_FILE}.corrupt-*"))
    assert len(kept) == 1 and kept[0].read_text() == '{"volume": 1, "lang": "ja"'
    assert not (tmp_path / PREFS_FILE).exists()


def test_statistics_that_cannot_be_read_are_left_alone(
    tmp_path: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "Permission denied" is not "damaged": the file is not set aside and not reset."""
    from royalnine.core.files import CannotRead
    from royalnine.kiosk import stats as stats_module

    tmp_path.mkdir(exist_ok=True)
    make(tmp_path, clock)
    before = (tmp_path / STATS_FILE).read_text()

    def refuse(path: Path, limit: int) -> object:
        raise CannotRead("cannot open (Permission denied)")

    monkeypatch.setattr(stats_module, "load_json", refuse)
    app = make(tmp_path, clock)
    to_match(app, clock)
    app.book.flush()
    assert any("cannot be read" in n and "Permission denied" in n for n in app.operator_notices)
    assert not list(tmp_path.glob(f"{STATS_FILE}.corrupt-*"))
    assert (tmp_path / STATS_FILE).read_text() == before


def test_taps_shorter_than_a_frame_are_all_counted(tmp_path: Path, clock: Clock) -> None:
    app = make(tmp_path, clock)
    tap(app, clock, 128, 96)  # wake the attract loop: one touch
    before = app.book.stats.counters["touches"]
    for _ in range(30):  # a tap in every frame, each down and up between two frames
        app.m.input.touch(200, 150)
        app.m.input.untouch()
        step(app, clock)
    for _ in range(10):  # two taps within one frame
        for _ in range(2):
            app.m.input.touch(200, 150)
            app.m.input.untouch()
        step(app, clock)
    assert app.book.stats.counters["touches"] - before == 30 + 20


def test_the_rules_do_not_send_kiosk_visitors_to_options(tmp_path: Path, clock: Clock) -> None:
    """RULES 1/5 said "TENS in OPTIONS adds R10, B10." to visitors who have no OPTIONS."""
    from royalnine.screens.rules import RulesScene

    app = make(tmp_path, clock)
    for lang, options in (("en", "OPTIONS"), ("ja", "ｵﾌﾟｼｮﾝ")):
        app.settings.lang = lang
        app.switch(RulesScene(back=KioskTitleScene(), page=0))
        step(app, clock, 2)
        shown = screen_text(app, 0) + screen_text(app, 1)
        assert options not in shown, shown
        assert app.t("r1_tens_off") in shown


def test_touches_reach_the_file_within_a_tenth_of_a_second(tmp_path: Path, clock: Clock) -> None:
    """Touches were saved only every 300 s (or with a session or match event), so a kill
    lost up to 5 minutes of them. Now each is written within TOUCH_SAVE_GAP (no sync:
    a kill keeps it) and synced within TOUCH_FLUSH_AFTER (a power cut loses at most
    that), at most ten writes a second however fast the taps."""
    from royalnine.kiosk.controller import TOUCH_FLUSH_AFTER, TOUCH_SAVE_GAP

    app = make(tmp_path, clock)
    tap(app, clock, 128, 96)  # wakes the attract loop (a session: saved at once)
    saved = stats(tmp_path)["touches"]
    writes: list[bool] = []
    save = app.book.save

    def counted_save(*, durable: bool = True) -> bool:
        writes.append(durable)
        return save(durable=durable)

    app.book.save = counted_save  # type: ignore[method-assign]
    for n in range(1, 6):  # five taps on the title's empty top strip
        tap(app, clock, 128, 2)
        step(app, clock, int(TOUCH_SAVE_GAP * FPS) + 1)
        assert stats(tmp_path)["touches"] == saved + n  # type: ignore[operator]
    step(app, clock, int(TOUCH_FLUSH_AFTER * FPS))
    assert writes.count(True) == 1 and writes.count(False) <= 5, writes
    for _ in range(20):  # 20 taps a second, for a second: ten writes, not twenty
        app.m.input.touch(128, 2)
        app.m.input.untouch()
        step(app, clock, 3)
    assert len(writes) <= 1 + 5 + 11, writes
    assert stats(tmp_path)["touches"] >= saved + 5 + 19  # type: ignore[operator]
    step(app, clock, int(TOUCH_FLUSH_AFTER * FPS) + 1)
    assert stats(tmp_path)["touches"] == saved + 25  # type: ignore[operator]
    count = len(writes)
    idle(app, clock, 10)  # nothing new: no more writes
    assert len(writes) == count


def screen_text(app: KioskApp, screen: int) -> str:
    from petitcom_shim.charset import from_ptc

    app.m.cpage(screen)
    return "\n".join(
        from_ptc(bytes(app.m.chkchr(x, y) or 32 for x in range(32))) for y in range(24)
    )


def test_attract_loop_shows_no_controls_and_names_the_cpus_a_and_b(
    tmp_path: Path, clock: Clock
) -> None:
    app = make(tmp_path, clock)
    seen = ""
    between_rounds = 0  # frames of the match's round_over state looked at
    for frame in range(40 * 45):
        step(app, clock)
        scene = app.scene
        if not isinstance(scene, AttractScene) or scene.rules_left:
            continue
        between = scene.match_scene is not None and scene.match_scene.state == "round_over"
        if frame % 45 == 0 or between:
            seen += screen_text(app, 0) + screen_text(app, 1)
            between_rounds += between
    assert between_rounds > 0
    assert "CPU A" in seen and "CPU B" in seen and "CPU 1" not in seen
    for control in ("MENU", "UNDO", "HINT", "next", app.t("next_round"), app.t("see_result")):
        assert control not in seen, control
    to_match(app, clock)  # a visitor plays: the controls are back
    assert "MENU" in screen_text(app, 1)
    assert app.t("saved_note") == "Kiosk matches are not kept."
    assert app.t("tap_next") == "TAP: next" and app.t("handover3") == "Tap when ready"
    assert "X" not in app.t("tap_next") + app.t("handover3")


def test_operator_screen_shows_the_whole_restart_reason(tmp_path: Path, clock: Clock) -> None:
    app = make(tmp_path, clock)
    reason = "restarted after an error: RuntimeError: the card dealer jammed badly today"
    app.book.stats.last_restart["reason"] = reason
    operator(app, clock)
    text = " ".join(screen_text(app, 0).split())
    assert reason in text


def test_the_kiosk_package_has_no_import_circles() -> None:
    """Every import counts, also inside functions and under TYPE_CHECKING (issue 19 item 11:
    controller <-> operator)."""
    from test_shim_import_cycles import find_cycles, import_graph

    graph = import_graph(Path(__file__).resolve().parent.parent / "royalnine")
    kiosk = {
        name: {t for t in targets if t.startswith("royalnine.kiosk")}
        for name, targets in graph.items()
        if name.startswith("royalnine.kiosk")
    }
    assert "royalnine.kiosk.operator" in kiosk["royalnine.kiosk.controller"]
    assert find_cycles(kiosk) == []


def test_opening_hours_black_out_the_kiosk_and_open_it_again(
    tmp_path: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    import time as time_module

    from royalnine.kiosk.config import parse_hours
    from royalnine.kiosk.scenes import ClosedScene

    monkeypatch.setattr(time_module, "localtime", time_module.gmtime)  # hours in UTC here
    assert parse_hours("09:00-18:00") == (540, 1080) and parse_hours("22:00-02:30") == (1320, 150)
    for bad in ("9-18", "09:00", "25:00-26:00", "09:00-09:00", "09:60-10:00"):
        assert parse_hours(bad) is None, bad
    clock.t = 1_763_800_000.0 - 1_763_800_000.0 % 86400 + 8 * 3600 + 59 * 60  # 08:59 UTC
    home = tmp_path
    home.mkdir(exist_ok=True)
    PinLock(home, clock).set_pin(PIN)
    cfg = ShimConfig(ignore_close=True, hot_keys=False)
    m = Machine(headless=True, realtime=False, config=cfg, audio=False)
    config = KioskConfig(hours="09:00-18:00")
    app = new_kiosk(m, KioskStorage(home), config, clock=clock, seed=5)
    step(app, clock, 5)
    assert isinstance(app.scene, ClosedScene)
    tap(app, clock, 128, 96)  # a touch shows the hours, and changes nothing else
    assert isinstance(app.scene, ClosedScene) and app.scene.note_left > 0
    assert "Open 09:00-18:00" in screen_text(app, 1)
    assert app.book.stats.counters["sessions"] == 0
    clock.t += 61
    step(app, clock, 70)
    assert isinstance(app.scene, AttractScene)  # 09:00: open
    clock.t += 9 * 3600
    step(app, clock, 70)
    assert isinstance(app.scene, ClosedScene)  # 18:00: closed again


def test_the_call_to_play_moves_between_attract_matches() -> None:
    from royalnine.kiosk.scenes import DRIFT

    scene = AttractScene()
    places = set()
    for n in range(len(DRIFT)):
        scene.matches = n
        places.add(scene.drift())
    assert len(places) == len(DRIFT) and all(abs(dx) <= 4 and 0 <= dy <= 4 for dx, dy in places)


def test_the_call_to_play_blinks_without_being_drawn_again(tmp_path: Path, clock: Clock) -> None:
    from royalnine.kiosk.scenes import BLINK_PERIOD, CALL_HIDDEN_PAGE

    app = make(tmp_path, clock)
    step(app, clock, 2)
    scene = app.scene
    assert isinstance(scene, AttractScene)
    drawn = 0
    real = app.m.gputchr

    def counting(*args: object) -> None:
        nonlocal drawn
        drawn += 1
        real(*args)  # type: ignore[arg-type]

    app.m.gputchr = counting  # type: ignore[method-assign]
    shown = set()
    for _ in range(2 * BLINK_PERIOD):
        step(app, clock)
        if scene.rules_left == 0:
            shown.add(app.m.screens[1].grp_disp)
            assert app.m.screens[0].grp_disp == 0  # the upper screen's call stays
    assert shown == {1, CALL_HIDDEN_PAGE}  # on and off
    assert scene.rules_left == 0 and scene.matches == 1  # no new page or match meanwhile
    assert drawn == 0  # two blinks on and off, no text drawn
    tap(app, clock, 128, 96)  # the title: each screen shows its own GRP page again
    assert isinstance(app.scene, KioskTitleScene)
    assert (app.m.screens[0].grp_disp, app.m.screens[1].grp_disp) == (0, 1)


def test_an_idle_kiosk_shows_fewer_frames_and_a_touch_brings_them_all_back(
    tmp_path: Path, clock: Clock
) -> None:
    """The attract loop shows one frame in three (its logic keeps every frame); a menu
    shows every frame while used and one in three once still for STILL_FRAMES frames;
    a touch shows every frame again at once."""
    from royalnine.app import STILL_DRAW_EVERY, STILL_FRAMES
    from royalnine.kiosk.controller import ATTRACT_DRAW_EVERY

    app = make(tmp_path, clock, window=True)
    shown: list[bool] = []
    real = app.m.vsync

    def spy(n: int = 1, *, show: bool = True) -> None:
        shown.append(show)
        real(n, show=show)

    app.m.vsync = spy  # type: ignore[method-assign]
    step(app, clock, 60)
    assert isinstance(app.scene, AttractScene)
    assert shown[-60:].count(True) == 60 // ATTRACT_DRAW_EVERY
    tap(app, clock, 128, 96)
    assert isinstance(app.scene, KioskTitleScene)
    shown.clear()
    step(app, clock, 30)  # just touched: every frame
    assert all(shown)
    step(app, clock, STILL_FRAMES + 60)
    assert shown[-60:].count(True) == 60 // STILL_DRAW_EVERY
    app.m.input.touch(5, 5)  # a touch (on no button): every frame again, from the frame
    shown.clear()  # that reads it (the next VSYNC latches it, as on PTC)
    step(app, clock, 3)
    assert shown[1:] == [True, True]
    app.m.input.untouch()


def test_the_call_to_play_stays_through_every_round_of_the_attract_loop(
    tmp_path: Path, clock: Clock
) -> None:
    """A new round draws the match's screens afresh, clearing the GRP pages the call to
    play is drawn on; the attract loop draws it again (it used to vanish for the round)."""
    app = make(tmp_path, clock)
    scene = app.scene
    assert isinstance(scene, AttractScene)
    dealt = 0  # frames of dealing seen after the first round
    for _ in range(60 * 120):
        step(app, clock)
        match_scene = scene.match_scene
        if scene.rules_left == 0 and match_scene is not None:
            assert app.m.grp_pages[0].pixels.any() and app.m.grp_pages[1].pixels.any()
            if match_scene.match.results and match_scene.state == "deal":
                dealt += 1
        if dealt > 30:
            break
    assert dealt > 30  # the check ran into the second round's deal


def test_the_docs_quote_the_call_to_play_as_the_screen_shows_it() -> None:
    """docs/kiosk.md wrote タッチしてね; the screen shows it in the PTC font's katakana."""
    from petitcom_shim.charset import from_ptc, to_ptc
    from royalnine.kiosk.texts import kt

    docs = (Path(__file__).resolve().parent.parent / "docs" / "kiosk.md").read_text()
    shown = from_ptc(to_ptc(kt("touch_to_play", "ja")))
    assert f"**{shown}**" in docs and kt("touch_to_play", "ja") not in docs


def test_the_idle_cpu_tool_lets_the_x_server_pick_its_display() -> None:
    """tools/kiosk_idle_cpu.sh chose a display number at random without checking it was
    free; the X server now picks one itself (-displayfd)."""
    tool = (Path(__file__).resolve().parent.parent / "tools" / "kiosk_idle_cpu.sh").read_text()
    assert "-displayfd" in tool and "RANDOM" not in tool
