"""Plays the game through its own UI with injected stylus input: the demo and the UI tests use it.

An :class:`AutoPlayer` looks at the active scene each frame and, like a
person, taps menu buttons, taps or drags each card of the bottom seat's hand
onto a cell chosen by a CPU player (reading only that seat's view), presses OK
and taps NEXT after the reveal. It never calls the match directly, so a match
it finishes proves the screens work end to end.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable

from royalnine.app import App, CpuPlayer, make_cpu
from royalnine.core import Card
from royalnine.screens.layout import BUTTON_RECTS, CELL_RECTS, HAND_RECTS, Zone
from royalnine.screens.match import NEXT_RECT, MatchScene
from royalnine.screens.menu import Menu
from royalnine.screens.placement import hand_slots
from royalnine.screens.result import MatchResultScene
from royalnine.screens.title import TitleScene

Event = tuple[str, int, int]  # ("down" | "move" | "up" | "wait", x, y)


TITLE_SETTLE_FRAMES = 30


class AutoPlayer:
    """Drives an :class:`App` through menus and matches by stylus only."""

    def __init__(
        self,
        app: App,
        *,
        mode: str = "cpu",
        level: str = "normal",
        drag: bool | None = None,
        seed: int = 0,
        on_stage: Callable[[str], None] | None = None,
    ) -> None:
        self.app = app
        self.mode = mode
        self.level = level
        self.drag = drag
        self.rng = random.Random(seed)
        self.players: dict[int, CpuPlayer] = {
            s: make_cpu("normal", s, random.Random(seed + s)) for s in (0, 1)
        }
        self.queue: deque[Event] = deque()
        self.placements: dict[tuple[int, int, int], dict[Card, int]] = {}
        self.on_stage = on_stage or (lambda _stage: None)
        self.stages: set[str] = set()
        self.finished = False
        self._title_since: int | None = None

    # --- input ---

    def tap(self, x: int, y: int) -> None:
        """Queue a tap."""
        self.queue.extend([("down", x, y), ("wait", 0, 0), ("up", x, y), ("wait", 0, 0)])

    def drag_to(self, x0: int, y0: int, x1: int, y1: int) -> None:
        """Queue a drag in a few steps."""
        self.queue.append(("down", x0, y0))
        for k in range(1, 5):
            self.queue.append(("move", x0 + (x1 - x0) * k // 4, y0 + (y1 - y0) * k // 4))
        self.queue.extend([("up", x1, y1), ("wait", 0, 0)])

    def _feed(self) -> None:
        kind, x, y = self.queue.popleft()
        inp = self.app.m.input
        if kind in ("down", "move"):
            inp.touch(x, y)
        elif kind == "up":
            inp.untouch()

    def stage(self, name: str) -> None:
        """Report a stage once (for screenshots)."""
        if name not in self.stages:
            self.stages.add(name)
            self.on_stage(name)

    # --- deciding ---

    def plan(self) -> None:
        """Queue the next human-like input for the active scene."""
        scene = self.app.scene
        if isinstance(scene, TitleScene):
            if self._title_since is None:
                self._title_since = self.app.m.maincntl
            if self.app.m.maincntl - self._title_since < TITLE_SETTLE_FRAMES:
                return  # let the fan of cards land before looking (and screenshotting)
            self.stage("title")
            self._menu(scene.menu, "local" if self.mode == "local" else "cpu", fallback=self.level)
        elif isinstance(scene, MatchScene):
            self._match(scene)
        elif isinstance(scene, MatchResultScene):
            self.stage("match_result")
            self.finished = True

    def _menu(self, menu: Menu | None, value: str, fallback: str) -> None:
        if menu is None:
            return
        for wanted in (value, fallback):
            for item in menu.items:
                if item.value == wanted:
                    self.tap(*item.rect.centre)
                    return

    def _match(self, scene: MatchScene) -> None:
        if scene.state == "handover":
            self.tap(128, 96)
            return
        if scene.state == "reveal" and scene.step_i >= 0:
            self.stage("reveal")
            return
        if scene.state == "round_over":
            self.stage("round_result")
            self.tap(*NEXT_RECT.centre)
            return
        if scene.state != "place":
            return
        view = scene.view()
        if view.confirmed:
            return
        if not view.hand:
            self.stage("placed" if view.phase.half == 2 else "placed_first")
            self.tap(*BUTTON_RECTS[Zone.CONFIRM].centre)
            return
        if len(view.hand) == 4 and view.phase.half == 2:
            self.stage("second_half")
        key = (view.seat, view.round_number, view.phase.half)
        if key not in self.placements and len(view.hand) == 4:
            self.placements[key] = self.players[view.seat].choose(view)
        card = view.hand[0]
        cell = self.placements.get(key, {}).get(card)
        if cell is None or cell not in view.empty_cells:
            cell = view.empty_cells[0]  # someone else moved cards: any free cell will do
        src = HAND_RECTS[hand_slots(view).index(card)].centre  # cards keep their slots
        dst = CELL_RECTS[cell].centre
        use_drag = self.drag if self.drag is not None else self.rng.random() < 0.5
        if use_drag:
            self.drag_to(*src, *dst)
        else:
            self.tap(*src)
            self.tap(*dst)

    def step(self) -> None:
        """One frame: feed queued input or plan more, then run the frame."""
        if not self.queue:
            self.plan()
        if self.queue:
            self._feed()
        self.app.tick()

    def play(self, max_frames: int = 60_000) -> int:
        """Run until the match result is shown, or the window is closed; returns the
        frames used."""
        for frame in range(max_frames):
            if self.finished or not self.app.m.running:
                return frame
            self.step()
        raise RuntimeError(f"match did not finish in {max_frames} frames")
