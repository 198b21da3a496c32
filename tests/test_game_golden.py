"""Golden screenshots of the game's key screens (regenerate with ``pytest --update-golden``).

Title, a mid-round placing screen with a card selected, the reveal with a
scoring line highlighted, and the match result with its table and chart; each
is both screens stacked, from a seeded match played through the UI.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from petitcom_shim import Machine
from royalnine.app import App
from royalnine.game import new_game
from royalnine.screens.autoplay import AutoPlayer
from royalnine.screens.layout import HAND_RECTS
from royalnine.storage import Settings, Storage


def _both(app: App) -> np.ndarray:
    return np.concatenate([app.m.screen_array(0), app.m.screen_array(1)])


def test_golden_screens(tmp_path: Path, golden: Callable[[str, object], None]) -> None:
    m = Machine(headless=True, seed=1)
    app = new_game(m, Storage(tmp_path), Settings(sound=False, rounds=2), seed=2013)
    shots: dict[str, np.ndarray] = {}

    def on_stage(stage: str) -> None:
        if stage in ("title", "reveal", "match_result"):
            app.step(20)
            shots[stage] = _both(app)
        if stage == "second_half":
            app.step(40)
            m.input.touch(*HAND_RECTS[1].centre)
            app.step(2)
            m.input.untouch()
            app.step(2)
            shots["mid_round"] = _both(app)
            m.input.touch(*HAND_RECTS[1].centre)  # tap again: deselect, back to normal play
            app.step(2)
            m.input.untouch()
            app.step(2)

    AutoPlayer(app, mode="cpu", seed=4, drag=False, on_stage=on_stage).play(max_frames=20_000)
    for name in ("title", "mid_round", "reveal", "match_result"):
        golden(f"game_{name}", shots[name])
