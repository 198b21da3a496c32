"""The soak driver in tools/soak.py: a monkey with bursts of real play must never break the game."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest


@pytest.mark.parametrize(("seed", "lang"), [(1, "en"), (2, "ja")])
def test_short_soak(
    tmp_path: Path, seed: int, lang: str, load_tool: Callable[[str], ModuleType]
) -> None:
    seen = load_tool("soak").soak(seed, 6000, tmp_path / "home", lang=lang)
    assert seen["frames"] >= 6000
    assert seen["MatchScene"] > 0 and seen["TitleScene"] > 0


@pytest.mark.slow
def test_long_soak(tmp_path: Path, load_tool: Callable[[str], ModuleType]) -> None:
    soak = load_tool("soak")
    finished = 0
    for seed in range(10, 14):
        seen = soak.soak(seed, 30_000, tmp_path / f"home{seed}", lang="ja" if seed % 2 else "en")
        finished += seen["matches finished"]
    assert finished > 0
