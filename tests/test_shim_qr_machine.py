"""petitcom_shim.qr.draw_qr on a real headless Machine: the composed screen decodes back."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from petitcom_shim import Machine, qr


@pytest.fixture
def machine() -> Iterator[Machine]:
    m = Machine(headless=True, seed=1)
    yield m
    m.close()


def test_default_colours_are_black_and_white(machine: Machine) -> None:
    for screen in (0, 1):
        machine.gpage(screen)
        assert machine.colread("GRP", qr.DARK_COLOR) == (0, 0, 0)
        assert machine.colread("GRP", qr.LIGHT_COLOR) == (255, 255, 255)


@pytest.mark.parametrize("screen", [0, 1])
def test_screenshot_decodes_back(machine: Machine, screen: int) -> None:
    data = bytes(range(256))[:213]  # version 10: the 2-pixel-module case
    left, top, size = qr.draw_qr(machine, data, screen)
    machine.vsync()
    frame = machine.screen_array(screen)
    assert size == 130
    assert (frame[top : top + size, left : left + size] == 255).any()
    assert qr.decode_image(Image.fromarray(frame)) == data
    other = machine.screen_array(1 - screen)
    with pytest.raises(qr.NoCodeFound):
        qr.decode_image(Image.fromarray(other))


def test_both_screens_stacked_screenshot_at_scale(machine: Machine, tmp_path: Path) -> None:
    data = b"\x00\x01PT\x01\x01" + bytes(30)
    qr.draw_qr(machine, data, 1, x=10, y=5)
    machine.vsync()
    path = tmp_path / "shot.png"
    machine.screenshot(path, scale=2)
    assert qr.decode_image(path) == data


def test_drawn_pixels_match_the_matrix(machine: Machine) -> None:
    data = b"pixel exact"
    left, top, size = qr.draw_qr(machine, data, 0)
    machine.vsync()
    module_px, _ = qr.screen_layout(data)
    frame = machine.screen_array(0)[top : top + size, left : left + size, 0]
    modules = frame[::module_px, ::module_px] == 0
    quiet = qr.QUIET_ZONE
    assert not modules[:quiet].any() and not modules[-quiet:].any()
    assert np.array_equal(modules[quiet:-quiet, quiet:-quiet], qr.encode_matrix(data))
