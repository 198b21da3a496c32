"""Drawing only what changed: a clean frame composes and presents nothing.

The machine composes a screen only when something it shows changed by value,
and the window front-end presents a window only when a screen it shows changed
or the window system asked for a redraw. Counted with the internal counters
(``Machine.compositions``, ``_ScreenWindow.presents``), never with time.
Windows are real pygame windows under SDL's dummy driver.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import pygame
import pytest

from petitcom_shim import Machine
from petitcom_shim.display import WindowFrontend


@pytest.fixture
def m() -> Iterator[Machine]:
    machine = Machine(headless=False, realtime=False, scale=1, audio=False)
    _scene(machine)
    machine.vsync()  # the first frame composes and presents both screens
    yield machine
    machine.close()


def _scene(m: Machine) -> None:
    """Something on every layer of both screens."""
    for s in (0, 1):
        m.cpage(s)
        m.print("HELLO")
        m.bgpage(s)
        m.chrset("BGU0", 1, "1234" * 16)
        m.bgfill(1, 0, 0, 31, 23, 1, 2)
        m.sppage(s)
        m.chrset("SPU0" if s == 0 else "SPS0", 0, "9" * 64)
        m.spset(0, 0, 1, 0, 0, 0)
        m.spofs(0, 40, 40)
    m.gpage(0)
    m.gline(0, 0, 50, 50, 7)


def presents(m: Machine) -> list[int]:
    fe = m.frontend
    assert isinstance(fe, WindowFrontend)
    return [entry.presents for entry in fe.windows]


def counts(m: Machine) -> tuple[list[int], list[int]]:
    return list(m.compositions), presents(m)


def run(m: Machine, frames: int = 1) -> tuple[list[int], list[int]]:
    """Frames run, then how many compositions per screen and presents per window they made."""
    comp, pres = counts(m)
    m.vsync(frames)
    comp2, pres2 = counts(m)
    return [b - a for a, b in zip(comp, comp2, strict=True)], [
        b - a for a, b in zip(pres, pres2, strict=True)
    ]


def test_a_frame_with_no_change_composes_and_presents_nothing(m: Machine) -> None:
    assert m.compositions == [1, 1] and presents(m) == [1]
    assert run(m, 30) == ([0, 0], [0])
    assert m.changes(0) == () and m.changes(1) == ()


# (what the program does, which screen must be composed again, the kind reported)
Change = Callable[[Machine], None]
CHANGES: dict[str, tuple[Change, int, str]] = {
    "console cell": (lambda m: (m.cpage(1), m.locate(3, 3), m.print("X")), 1, "console"),
    "console colour": (
        lambda m: (m.cpage(0), m.color(4), m.locate(0, 0), m.print("HELLO")),
        0,
        "console",
    ),
    "cls": (lambda m: (m.cpage(0), m.cls()), 0, "console"),
    "bg tile": (lambda m: (m.bgpage(1), m.bgput(0, 2, 2, 1, 3)), 1, "bg"),
    "bg offset": (lambda m: (m.bgpage(0), m.bgofs(1, 5, 0)), 0, "display"),
    "bg clip": (lambda m: (m.bgpage(1), m.bgclip(0, 0, 10, 10)), 1, "display"),
    "sprite move": (lambda m: (m.sppage(0), m.spofs(0, 41, 40)), 0, "sprites"),
    "sprite look": (lambda m: (m.sppage(1), m.spchr(0, 0, 2, 0, 0, 0)), 1, "sprites"),
    "sprite angle": (lambda m: (m.sppage(0), m.spangle(0, 90)), 0, "sprites"),
    "sprite cleared": (lambda m: (m.sppage(1), m.spclr(0)), 1, "sprites"),
    "grp draw": (lambda m: (m.gpage(0), m.gpset(100, 100, 3)), 0, "grp"),
    "grp page shown": (lambda m: m.gpage(1, disp=0), 1, "grp"),
    "gprio": (lambda m: (m.gpage(0), m.gprio(0)), 0, "display"),
    "palette": (lambda m: (m.bgpage(1), m.colset("BG", 33, "00FF00")), 1, "palette"),
    "chr in use": (lambda m: (m.bgpage(0), m.chrset("BGU0", 1, "5" * 64)), 0, "chr"),
}


@pytest.mark.parametrize("name", list(CHANGES))
def test_each_kind_of_change_redraws_exactly_its_screen(m: Machine, name: str) -> None:
    act, screen, kind = CHANGES[name]
    act(m)
    comp, pres = run(m)
    expected = [0, 0]
    expected[screen] = 1
    assert comp == expected
    assert pres == [1]
    assert kind in m.changes(screen) and m.changes(1 - screen) == ()
    assert run(m, 5) == ([0, 0], [0])  # and then it is clean again


def test_layer_visibility_redraws_both_screens(m: Machine) -> None:
    m.visible(bg1=False)
    assert run(m) == ([1, 1], [1])
    m.visible(bg1=False)
    assert run(m) == ([0, 0], [0])


def _rrggbb(r: int, g: int, b: int) -> str:
    return f"{r:02X}{g:02X}{b:02X}"


SAME_AGAIN: dict[str, Change] = {
    "print the same text": lambda m: (m.cpage(0), m.locate(0, 0), m.print("HELLO")),
    "put the same tile": lambda m: (m.bgpage(0), m.bgput(1, 4, 4, 1, 2)),
    "fill with the same tile": lambda m: (m.bgpage(0), m.bgfill(1, 0, 0, 31, 23, 1, 2)),
    "move a sprite where it is": lambda m: (m.sppage(0), m.spofs(0, 40, 40)),
    "sub-pixel sprite move": lambda m: (m.sppage(0), m.spofs(0, 40.5, 40.25)),
    "same sprite look": lambda m: (m.sppage(0), m.spchr(0, 0, 1, 0, 0, 0)),
    "same colour": lambda m: (m.bgpage(0), m.colset("BG", 33, _rrggbb(*m.colread("BG", 33)))),
    "same character": lambda m: (m.bgpage(0), m.chrset("BGU0", 1, "1234" * 16)),
    "same visibility": lambda m: m.visible(console=True, bg0=True),
    "empty page cleared": lambda m: (m.gpage(1), m.gcls(0)),
    "a page nobody shows": lambda m: (m.gpage(0, draw=3), m.gline(0, 0, 200, 100, 9)),
    "same pixels again": lambda m: (m.gpage(0, draw=0), m.gline(0, 0, 50, 50, 7)),
    "a sprite moved to where it is": lambda m: (m.sppage(0), m.spofs(0, 40, 40)),
}


@pytest.mark.parametrize("name", list(SAME_AGAIN))
def test_writing_the_same_value_again_is_not_a_change(m: Machine, name: str) -> None:
    SAME_AGAIN[name](m)
    assert run(m) == ([0, 0], [0])


def test_a_change_undone_within_the_frame_is_no_change(m: Machine) -> None:
    m.cpage(0)
    m.locate(0, 0)
    m.print("WORLD")
    m.locate(0, 0)
    m.print("HELLO")
    assert run(m) == ([0, 0], [0])


def test_sprite_animation_redraws_only_on_its_frames(m: Machine) -> None:
    m.sppage(0)
    m.chrset("SPU0", 4, "3" * 64)
    run(m)  # new CHR redraws the screen that uses the bank, shown or not
    m.spanim(0, 2, 4)  # two characters, four frames each
    comps = []
    for _ in range(16):
        comps.append(run(m)[0][0])
    # SPANIM itself shows no new character at once; the character changes every 4th frame.
    assert comps == [0, 0, 0, 1] * 4


def test_timed_sprite_motion_keeps_its_exact_frame_timing(m: Machine) -> None:
    still = Machine(headless=True)  # the same scene with the sprite simply put there
    _scene(still)
    still.sppage(1)
    m.sppage(1)
    m.spofs(0, 140, 40, 10)  # 10 pixels a frame for 10 frames
    try:
        seen = []
        for k in range(1, 13):
            seen.append(run(m))
            x = min(40 + 10 * k, 140)
            assert m.spread(0).x == x
            still.spofs(0, x, 40)
            # the presented frame shows the sprite exactly where it is this frame
            assert np.array_equal(m.screen_array(1), still.screen_array(1))
        assert seen == [([0, 1], [1])] * 10 + [([0, 0], [0])] * 2
    finally:
        still.close()


def test_timed_bg_scroll_redraws_every_frame_it_moves(m: Machine) -> None:
    m.bgpage(0)
    m.bgofs(1, 16, 0, 4)
    assert [run(m)[0] for _ in range(6)] == [[1, 0]] * 4 + [[0, 0]] * 2


def test_screen_surface_recomposes_only_after_a_change() -> None:
    h = Machine(headless=True)
    try:
        first = h.screen_array(0)
        h.screen_surface(0)
        assert h.compositions == [1, 0]
        h.print("A")
        changed = h.screen_array(0)
        assert h.compositions == [2, 0] and not np.array_equal(first, changed)
    finally:
        h.close()


WINDOW_EVENTS = (
    pygame.WINDOWEXPOSED,
    pygame.WINDOWRESIZED,
    pygame.WINDOWSIZECHANGED,
    pygame.WINDOWFOCUSGAINED,
    pygame.WINDOWFOCUSLOST,
    pygame.WINDOWRESTORED,
    pygame.WINDOWSHOWN,
)


@pytest.mark.parametrize("kind", WINDOW_EVENTS, ids=pygame.event.event_name)
def test_window_system_events_present_again_without_composing(m: Machine, kind: int) -> None:
    fe = m.frontend
    assert isinstance(fe, WindowFrontend)
    pygame.event.post(pygame.event.Event(kind, window=fe.windows[0].window))
    assert run(m) == ([0, 0], [1])
    assert run(m) == ([0, 0], [0])


def test_fullscreen_toggle_and_cursor_present_again(m: Machine) -> None:
    fe = m.frontend
    assert isinstance(fe, WindowFrontend)
    fe.toggle_fullscreen()
    assert run(m) == ([0, 0], [1])
    fe.toggle_fullscreen()
    assert run(m) == ([0, 0], [1])
    m.input.toggle_cursor()
    assert run(m) == ([0, 0], [1])  # the keyboard stylus cursor appears
    assert run(m) == ([0, 0], [0])


def test_separate_windows_present_only_the_screen_that_changed() -> None:
    m = Machine(headless=False, realtime=False, layout="separate", scale=1, audio=False)
    try:
        m.vsync()
        assert presents(m) == [1, 1]
        m.cpage(0)
        m.print("TOP")
        assert run(m) == ([1, 0], [1, 0])
        m.sppage(1)
        m.spset(3, 0, 0, 0, 0, 0)
        assert run(m) == ([0, 1], [0, 1])
        assert run(m, 10) == ([0, 0], [0, 0])
        fe = m.frontend
        assert isinstance(fe, WindowFrontend)
        pygame.event.post(pygame.event.Event(pygame.WINDOWEXPOSED, window=fe.windows[1].window))
        assert run(m) == ([0, 0], [0, 1])
    finally:
        m.close()


def test_single_layout_presents_only_for_the_shown_screen() -> None:
    m = Machine(headless=False, realtime=False, layout="single", scale=1, audio=False)
    try:
        m.vsync()
        fe = m.frontend
        assert isinstance(fe, WindowFrontend) and fe.shown == 1
        m.cpage(0)
        m.print("TOP")
        assert run(m) == ([1, 0], [0])  # composed (it may be looked at), not shown
        fe.swap_screens()
        assert run(m) == ([0, 0], [1])
    finally:
        m.close()


def _layer_work(m: Machine) -> tuple[bool, int]:
    """(whole map to re-render, tiles to re-render) of BG layer 1 on the upper screen."""
    layer = m.screens[0].bg.layers[1]
    return layer.all_dirty, len(layer.dirty)


def test_rewriting_the_same_bg_tiles_leaves_nothing_to_render_again(m: Machine) -> None:
    # a screen that redraws its whole layout every frame must not re-render its BG maps
    m.bgpage(0)
    m.bgfill(1, 0, 0, 31, 23, 1, 2)  # what _scene put there
    m.bgput(1, 3, 3, 1, 2, 0, 0)
    m.bgclr(0)  # already clear
    assert _layer_work(m) == (False, 0)
    assert m.screens[0].bg.layers[0].all_dirty is False


def test_bg_writes_that_change_tiles_are_shown() -> None:
    h = Machine(headless=True)
    try:
        h.bgpage(0)
        h.chrset("BGU0", 1, "1234" * 16)
        before = h.screen_array(0).copy()
        h.bgfill(1, 2, 2, 3, 3, 1, 2)  # small fill: tile by tile
        small = h.screen_array(0).copy()
        assert not np.array_equal(before, small)
        assert np.array_equal(small[0:16, 0:16], before[0:16, 0:16])
        h.bgfill(1, 0, 0, 31, 23, 1, 2)  # large fill: the whole map
        assert np.array_equal(h.screen_array(0)[0:16, 0:16], small[16:32, 16:32])
        h.bgclr(1)
        assert np.array_equal(h.screen_array(0), before)
    finally:
        h.close()


class _FakeTime:
    """perf_counter and sleep for the machine's frame pacing: each frame's work takes
    ``work`` seconds, and sleeping wakes ``late`` seconds after the time asked for."""

    def __init__(self, work: float, late: float) -> None:
        self.now = 100.0
        self.work = work
        self.late = late
        self.sleeps: list[float] = []

    def perf_counter(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds + self.late


def test_frames_are_paced_by_sleeping_on_a_60_hz_grid(monkeypatch: pytest.MonkeyPatch) -> None:
    """A realtime machine sleeps until the next 1/60 s step (pygame's Clock.tick waits
    whole milliseconds: 62.5 frames a second), making up for a late wake-up at the next
    frame; a frame that overran starts a new grid instead of a burst of catch-up frames."""
    import petitcom_shim.machine as machine_module

    fake = _FakeTime(work=0.005, late=0.0004)
    monkeypatch.setattr(machine_module, "time", fake)
    m = Machine(headless=True, realtime=True, audio=False)
    monkeypatch.setattr(m, "_tick_at", fake.now)
    real_step = m.screens[0].step

    def working_step() -> None:
        fake.now += fake.work
        real_step()

    monkeypatch.setattr(m.screens[0], "step", working_step)
    start = fake.now
    m.vsync(60)
    assert len(fake.sleeps) == 60
    assert all(0.0 < s <= 1 / 60 - fake.work + 1e-9 for s in fake.sleeps)
    assert fake.sleeps[1] == pytest.approx(1 / 60 - fake.work - fake.late)  # made up for
    assert fake.now - start == pytest.approx(1.0 + fake.late, abs=1e-9)  # 60 frames in 1 s
    fake.work = 0.05  # three frames' time: no sleep, and the grid starts again after it
    m.vsync(1)
    fake.work = 0.005
    m.vsync(1)
    assert len(fake.sleeps) == 61
    assert fake.sleeps[-1] == pytest.approx(1 / 60 - fake.work)
    m.close()


def test_clearing_and_printing_the_same_text_draws_only_the_cells_that_differ(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """CLS then PRINT of the same text (a screen redrawing its layout) re-renders no
    console cell, and a changed word re-renders only its own cells; the picture is the
    one a fresh machine gives."""
    h = Machine(headless=True)
    fresh = Machine(headless=True)
    try:
        for machine in (h, fresh):
            machine.color(3, 5)
            machine.cls()
        con = h.screens[0].console
        h.print("SCORE 12   ROUND 1")
        h.screen_array(0)
        rendered: list[str] = []
        real_all, real_cells = con._render_all, con._render_cells

        def render_all() -> None:
            rendered.append("all")
            real_all()

        def render_cells() -> None:
            rendered.append(str(len(con._dirty_cells)))
            real_cells()

        monkeypatch.setattr(con, "_render_all", render_all)
        monkeypatch.setattr(con, "_render_cells", render_cells)
        h.cls()
        h.print("SCORE 12   ROUND 1")
        h.screen_array(0)
        assert rendered == []
        h.cls()
        h.print("SCORE 13   ROUND 1")
        assert rendered == []  # nothing is drawn before the screen is composed
        picture = h.screen_array(0)
        assert rendered == ["1"]
        h.color(3, 6)
        h.cls()  # every cell's background changes: one full render
        h.screen_array(0)
        assert rendered == ["1", "all"]
        fresh.print("SCORE 13   ROUND 1")
        assert np.array_equal(fresh.screen_array(0), picture)
    finally:
        h.close()
        fresh.close()
