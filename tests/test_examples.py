"""Run every example headless with a scripted input plan (pyxel-style example tests).

Each ``examples/NN_*.py`` must define ``run(machine, frames)`` and have a plan
here; a meta-test fails when an example has none. The final frames are also
checked for signs of life (something drawn on each screen).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from petitcom_shim import Button, Machine

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# frame -> actions; actions are ("press"|"release", mask), ("touch", x, y), ("untouch",)
Plan = dict[int, list[tuple[object, ...]]]

PLANS: dict[str, tuple[int, Plan]] = {
    "01_sprites_bg_console": (
        150,
        {
            5: [("press", Button.RIGHT | Button.UP)],
            30: [("release", Button.RIGHT | Button.UP), ("press", Button.A)],
            32: [("release", Button.A)],
            40: [("touch", 30, 150)],
            41: [("touch", 60, 120)],
            42: [("touch", 100, 110)],
            44: [("untouch",)],
            90: [("press", Button.LEFT | Button.DOWN)],
            120: [("release", Button.LEFT | Button.DOWN)],
        },
    ),
    "02_ptc_files": (60, {}),
    "03_keyboard": (
        120,
        {
            3: [("touch", 128, 108)],  # H on the KYA keyboard
            4: [("untouch",)],
            6: [("touch", 152, 84)],  # I
            7: [("untouch",)],
            9: [("touch", 240, 132)],  # ENTER
            10: [("untouch",)],
            30: [("touch", 190, 178)],  # icon slot 1
            31: [("untouch",)],
            40: [("touch", 150, 185)],  # ICONPAGE down
            41: [("untouch",)],
        },
    ),
}


class PlannedMachine(Machine):
    """A headless Machine that applies scripted input before each frame it advances."""

    def __init__(self, plan: Plan) -> None:
        super().__init__(headless=True, seed=5)
        self.plan = plan

    def vsync(self, n: int = 1) -> None:
        for _ in range(n):
            for action in self.plan.get(self.maincntl, []):
                verb, *args = action
                if verb == "press":
                    self.input.press(int(args[0]))  # type: ignore[call-overload]
                elif verb == "release":
                    self.input.release(int(args[0]))  # type: ignore[call-overload]
                elif verb == "touch":
                    self.input.touch(int(args[0]), int(args[1]))  # type: ignore[call-overload]
                else:
                    self.input.untouch()
            super().vsync(1)


def _examples() -> list[Path]:
    return sorted(EXAMPLES.glob("[0-9][0-9]_*.py"))


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_example_has_a_plan() -> None:
    stems = {p.stem for p in _examples()}
    assert stems, "no examples found"
    assert stems <= set(PLANS), f"examples without an input plan: {sorted(stems - set(PLANS))}"


@pytest.mark.parametrize("path", _examples(), ids=lambda p: p.stem)
def test_example_runs_with_its_plan(path: Path) -> None:
    frames, plan = PLANS[path.stem]
    machine = PlannedMachine(plan)
    try:
        ran = _load(path).run(machine, frames)
        assert ran == frames
        for screen in (0, 1):
            pixels = machine.screen_array(screen)
            assert len(np.unique(pixels.reshape(-1, 3), axis=0)) > 2, f"screen {screen} is blank"
    finally:
        machine.close()


def test_example_one_reacts_to_input() -> None:
    path = EXAMPLES / "01_sprites_bg_console.py"
    frames, plan = PLANS[path.stem]
    moved = PlannedMachine(plan)
    still = PlannedMachine({})
    try:
        module = _load(path)
        module.run(moved, frames)
        module.run(still, frames)
        assert moved.spread(module.SHIP)[:2] != still.spread(module.SHIP)[:2]
        assert moved.gspoit(60, 120) != 0  # the stylus stroke was drawn on GRP page 1
    finally:
        moved.close()
        still.close()


def test_example_two_writes_files_that_load_and_scan_back(tmp_path: Path) -> None:
    from petitcom_shim import ptcfile, ptcqr

    path = EXAMPLES / "02_ptc_files.py"
    machine = PlannedMachine({})
    try:
        module = _load(path)
        module.run(machine, 5, out=tmp_path)
        for res, name in module.SAVES.items():
            file = ptcfile.read_file(tmp_path / f"{name}.PTC")
            assert file.name == name
            assert ptcqr.read_set([tmp_path / "qr" / name]) == file, res
        # the lower screen shows what was loaded from the files
        upper, lower = machine.screens
        assert (lower.bg.layers[0].map == upper.bg.layers[0].map).all()
        assert (lower.palettes.words[0] == upper.palettes.words[0]).all()
        assert machine.grp_pages[0].pixels.any()
        assert (machine.grp_pages[1].pixels == machine.grp_pages[0].pixels).all()
    finally:
        machine.close()


def test_example_three_reads_a_name_typed_on_the_keyboard() -> None:
    path = EXAMPLES / "03_keyboard.py"
    frames, plan = PLANS[path.stem]
    machine = PlannedMachine(plan)
    try:
        _load(path).run(machine, frames)
        codes = machine.screens[0].console.codes
        assert bytes(codes[1, :2]) == b"HI"
        assert bytes(codes[2, :10]) == b"HELLO, HI!"
        assert bytes(codes[10, :11]) == b"LAST ICON 1"
        assert machine.iconpage == 1
    finally:
        machine.close()
