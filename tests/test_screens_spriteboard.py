"""SpriteBoard: cards glide to exactly their place, and a resting card costs no reads."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from petitcom_shim import Machine
from royalnine.screens.draw import SpriteBoard, card_look
from royalnine.screens.layout import TOP


@pytest.fixture
def m() -> Iterator[Machine]:
    machine = Machine(headless=True, realtime=False, audio=False)
    yield machine
    machine.close()


def _frame(m: Machine, board: SpriteBoard, x: int, y: int) -> None:
    board.begin()
    board.show(10, card_look(None, x, y), t=7)
    board.end()
    m.vsync()


def _home(m: Machine) -> tuple[int, int]:
    m.sppage(TOP)
    x, y = m.spread(10)[:2]
    return int(x), int(y)


def test_a_glide_ends_exactly_on_the_target_and_a_resting_card_is_not_read_again(
    m: Machine, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = SpriteBoard(m, TOP)
    _frame(m, board, 8, 16)
    _frame(m, board, 101, 37)  # a glide of 7 frames to an odd place
    look = card_look(None, 101, 37)
    for _ in range(12):
        _frame(m, board, 101, 37)
    assert _home(m) == (101 + look.hx, 37 + look.hy)
    reads: list[Any] = []
    real = m.spread
    monkeypatch.setattr(m, "spread", lambda *a: reads.append(a) or real(*a))
    for _ in range(5):
        _frame(m, board, 101, 37)
    assert reads == []  # resting: nothing to check on the screen
    _frame(m, board, 40, 50)  # moves again: glides and is checked until it rests
    for _ in range(12):
        _frame(m, board, 40, 50)
    assert reads and _home(m) == (40 + look.hx, 50 + look.hy)
