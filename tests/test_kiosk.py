"""Kiosk mode: the visitor flow, the idle timers, lock-down, the operator's way in, statistics."""

from __future__ import annotations

import json
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
    OperatorPrefs,
    OperatorScene,
    PinScene,
    StatsScene,
    load_prefs,
    save_prefs,
)
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


def make(
    home: Path, clock: Clock, *, pin: str = "", rounds: int = 1, window: bool = False
) -> KioskApp:
    home.mkdir(parents=True, exist_ok=True)
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


def test_operator_gesture_and_chord_open_the_operator_menu(tmp_path: Path, clock: Clock) -> None:
    app = make(tmp_path, clock)
    gesture(app, clock)
    assert isinstance(app.scene, OperatorScene)
    tap_item(app, clock, "resume")
    assert not isinstance(app.scene, OperatorScene)
    app.m.input.press(Button.L | Button.R | Button.SELECT)
    step(app, clock, int(2.2 * FPS))
    app.m.input.release(Button.L | Button.R | Button.SELECT)
    step(app, clock, 2)
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
    app = make(tmp_path, clock, pin="2468")
    gesture(app, clock)
    assert isinstance(app.scene, PinScene)
    type_pin(app, clock, "1357")
    assert isinstance(app.scene, PinScene) and app.scene.wrong == 1
    type_pin(app, clock, "2468")
    assert isinstance(app.scene, OperatorScene)


def test_three_wrong_pins_go_back(tmp_path: Path, clock: Clock) -> None:
    app = make(tmp_path, clock, pin="2468")
    gesture(app, clock)
    for _ in range(3):
        type_pin(app, clock, "0000")
    assert not isinstance(app.scene, PinScene | OperatorScene)


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
    gesture(app, clock)
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
    tap_item(app, clock, "reset")
    tap_item(app, clock, "yes")
    assert stats(tmp_path)["sessions"] == 0
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
    gesture(app, clock)
    assert isinstance(app.scene, OperatorScene)  # the menu shows the notice


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
