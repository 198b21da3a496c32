"""Issue 27 §3: captures to share (a PNG of both screens, an animated GIF or PNG, a size cap)."""

from __future__ import annotations

import io
from pathlib import Path

import pygame
import pytest
from PIL import Image

from petitcom_shim import Machine
from petitcom_shim.basic import Interpreter, cli
from petitcom_shim.capture import Animation, Capturer, both_screens
from petitcom_shim.display import HeadlessFrontend
from petitcom_shim.input import Input

#: Our own program: the frame count on the console and a dot that moves every frame.
PROGRAM = "@L\nLOCATE 0,0:?MAINCNTL\nGPSET MAINCNTL,10,15\nVSYNC 1\nGOTO @L\n"


def _count(image: Image.Image) -> int:
    """Frames in an image file (Pillow's stubs do not know n_frames)."""
    return int(getattr(image, "n_frames", 1))


def _frames(path: Path) -> list[Image.Image]:
    image = Image.open(path)
    out = []
    for index in range(_count(image)):
        image.seek(index)
        out.append(image.convert("RGB"))
    return out


@pytest.mark.parametrize("suffix", ["gif", "png"])
def test_headless_capture_writes_the_run_as_an_animation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str
) -> None:
    prog = tmp_path / "dot.txt"
    prog.write_text(PROGRAM)
    anim, shot = tmp_path / f"run.{suffix}", tmp_path / "last.png"
    argv = ["run", str(prog), "--headless", "--frames", "60", "--capture", str(anim)]
    assert cli.main([*argv, "--screenshot", str(shot)]) == 0
    frames = _frames(anim)
    assert len(frames) == 31  # every second frame of 60, and the last one
    assert all(f.size == (256, 384) for f in frames)
    assert frames[0].tobytes() != frames[-1].tobytes()
    if suffix == "png":  # lossless: the last frame is the screenshot
        assert frames[-1].tobytes() == Image.open(shot).convert("RGB").tobytes()
    durations = [Image.open(anim).info["duration"]]
    assert 30 <= durations[0] <= 40  # a frame of a 30-a-second animation
    assert capsys.readouterr().err == ""


def test_capture_needs_a_gif_or_png_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prog = tmp_path / "dot.txt"
    prog.write_text(PROGRAM)
    code = cli.main(["run", str(prog), "--headless", "--capture", str(tmp_path / "x.mp4")])
    assert code == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert not (tmp_path / "x.mp4").exists()


def test_the_cap_stops_an_animation() -> None:
    animation = Animation(max_seconds=0.5)
    machine = Machine(headless=True)
    taken = 0
    for x in range(40):
        machine.gpset(x, 0, 15)
        machine.vsync()
        taken += animation.add(both_screens(machine))
    assert taken == 15 and animation.full  # 0.5 s at 30 captured frames a second
    assert len(_frames_of(animation.encode("gif"))) == 15


def _frames_of(data: bytes) -> list[int]:
    image = Image.open(io.BytesIO(data))
    return list(range(_count(image)))


def test_unchanged_frames_merge_into_one() -> None:
    animation = Animation()
    machine = Machine(headless=True)
    for _ in range(10):
        animation.add(both_screens(machine))
    machine.gpset(0, 0, 15)
    animation.add(both_screens(machine))
    image = Image.open(io.BytesIO(animation.encode("png")))
    assert _count(image) == 2 and image.info["duration"] == 333  # ten 1/30 s frames as one


class _Window(HeadlessFrontend):
    """A window that shows what it was given (the top screen of the last present)."""

    def __init__(self) -> None:
        super().__init__()
        self.top: pygame.Surface | None = None

    def present(
        self,
        top: pygame.Surface,
        bottom: pygame.Surface,
        *,
        changed: tuple[bool, bool] = (True, True),
    ) -> None:
        self.top = top.copy()

    def pump(self, inp: Input) -> bool:
        return True


def test_keys_save_a_png_and_record_a_gif_with_a_sign(tmp_path: Path) -> None:
    machine = Machine(headless=True)
    window = _Window()
    machine.frontend = window
    machine.headless = False  # present frames to the stand-in window
    said: list[str] = []
    capturer = Capturer(tmp_path, said.append)
    capturer.attach(machine)
    it = Interpreter(machine, speed="dsi")
    it.load(b"@L:?INKEY$();BUTTON();:VSYNC 1:GOTO @L\r")
    it.run(max_frames=2)
    machine.input.key_down(pygame.K_F12, 0)  # a PNG of both screens
    machine.input.key_down(pygame.K_F10, 0)  # start a GIF
    it.cont(max_frames=10)
    assert window.top is not None and window.top.get_at((248, 8))[:3] == (230, 30, 30)
    machine.input.key_down(pygame.K_F10, 0)  # stop: the GIF is written
    it.cont(max_frames=2)
    assert window.top is not None and window.top.get_at((248, 8))[:3] != (230, 30, 30)
    pngs, gifs = sorted(tmp_path.glob("*.png")), sorted(tmp_path.glob("*.gif"))
    assert len(pngs) == 1 and Image.open(pngs[0]).size == (256, 384)
    assert len(gifs) == 1 and _count(Image.open(gifs[0])) >= 5
    assert len(said) == 3 and "recording" in said[1] and str(gifs[0]) in said[2]
    assert machine.input.read_key() is None  # the capture keys typed nothing
