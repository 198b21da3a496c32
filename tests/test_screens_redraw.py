"""How much the match draws while cards move: the attract loop's idle CPU (issue 19).

A tap of the seat at the bottom changes only the bottom screen, so the top
screen's layout is not drawn again for it; while the cards are dealt or
revealed, the cards are described again only on the frames where their state
changes (the glides still running are checked all the same).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from petitcom_shim import Machine
from royalnine.app import App
from royalnine.game import new_game
from royalnine.screens import match_draw
from royalnine.screens.autoplay import AutoPlayer
from royalnine.screens.match import MatchScene
from royalnine.storage import Settings, Storage


def play_counting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Play a one-round match against the CPU by stylus, counting drawing calls per state."""
    m = Machine(headless=True, seed=3)
    app: App = new_game(m, Storage(tmp_path), Settings(sound=False, rounds=1), seed=3)
    counts: Counter[str] = Counter()

    def counting(name: str, real):  # type: ignore[no-untyped-def]
        def wrapper(scene, *args):  # type: ignore[no-untyped-def]
            counts[f"{name}:{scene.state}"] += 1
            return real(scene, *args)

        return wrapper

    for name in ("draw_top", "draw_bottom", "draw_sprites"):
        monkeypatch.setattr(match_draw, name, counting(name, getattr(match_draw, name)))
    player = AutoPlayer(app, mode="cpu", drag=False, seed=3)
    for _ in range(20_000):
        if player.finished:
            break
        scene = app.scene
        if isinstance(scene, MatchScene):
            counts[f"frame:{scene.state}"] += 1
        player.step()
    assert player.finished
    return counts


def test_a_tap_draws_the_bottom_screen_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    counts = play_counting(tmp_path, monkeypatch)
    # 8 cards tapped and placed (a down and an up each) and OK, over two halves:
    # the bottom screen follows every tap, the top one only the start of each half.
    assert counts["draw_bottom:place"] >= 16
    assert counts["draw_top:place"] <= 4


def test_dealing_and_the_reveal_describe_the_cards_only_when_they_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    counts = play_counting(tmp_path, monkeypatch)
    for state in ("deal", "reveal"):
        assert counts[f"frame:{state}"] >= 50
        assert counts[f"draw_sprites:{state}"] * 4 < counts[f"frame:{state}"], state
