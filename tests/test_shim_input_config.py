"""petitcom_shim.config: defaults, remapping from a TOML file, and one-line errors for bad files."""

from __future__ import annotations

import pathlib

import pygame
import pytest

from petitcom_shim.config import ConfigError, ShimConfig, load_config
from petitcom_shim.input import Button, Input


def write(tmp_path: pathlib.Path, text: str) -> pathlib.Path:
    path = tmp_path / "shim.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_no_file_means_defaults(tmp_path: pathlib.Path) -> None:
    assert load_config(None) == ShimConfig()
    assert load_config(tmp_path / "missing.toml") == ShimConfig()


def test_documented_default_keys() -> None:
    codes = ShimConfig().key_codes()
    expected = {
        pygame.K_UP: Button.UP,
        pygame.K_DOWN: Button.DOWN,
        pygame.K_LEFT: Button.LEFT,
        pygame.K_RIGHT: Button.RIGHT,
        pygame.K_x: Button.A,
        pygame.K_z: Button.B,
        pygame.K_s: Button.X,
        pygame.K_a: Button.Y,
        pygame.K_q: Button.L,
        pygame.K_w: Button.R,
        pygame.K_RETURN: Button.START,
        pygame.K_KP_ENTER: Button.START,
        pygame.K_BACKSPACE: Button.SELECT,
        pygame.K_RSHIFT: Button.SELECT,
        pygame.K_ESCAPE: Button.SELECT,
    }
    assert codes == expected


def test_file_remaps_named_buttons_and_keeps_the_rest(tmp_path: pathlib.Path) -> None:
    path = write(
        tmp_path,
        """
[keys]
a = ["space", "k"]
select = "tab"

[gamepad]
a = ["a"]
deadzone = 0.3

[joystick]
start = [9]

[cursor]
toggle_key = "f2"
speed = 3

[display]
swap_key = "f3"
top_display = 1
bottom_display = 0
renderer = "surface"
desktop_margin = [0, 40]
""",
    )
    cfg = load_config(path)
    inp = Input(cfg)
    for key in (pygame.K_SPACE, pygame.K_k, pygame.K_x, pygame.K_TAB, pygame.K_z):
        inp.key_down(key)
    inp.latch()
    assert inp.button() == Button.A | Button.SELECT | Button.B, "x is no longer A"
    assert cfg.pad_buttons["a"] == Button.A
    assert "b" not in cfg.pad_buttons, "the pad's b was A's default and A was remapped"
    assert cfg.pad_buttons["x"] == Button.Y
    assert cfg.stick_deadzone == 0.3
    assert cfg.joystick_buttons[9] == Button.START
    assert 7 not in cfg.joystick_buttons
    assert (cfg.cursor_toggle_key, cfg.cursor_speed, cfg.swap_key) == ("f2", 3, "f3")
    assert (cfg.top_display, cfg.bottom_display, cfg.renderer) == (1, 0, "surface")
    assert cfg.desktop_margin == (0, 40)
    inp.key_down(pygame.K_F2)
    assert inp.cursor_visible


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("[keys\na = 1", "not valid TOML"),
        ("[sound]\nx = 1", "unknown table [sound]"),
        ("keys = 3", "[keys] must be a table"),
        ("[keys]\nturbo = ['x']", "unknown DS button 'turbo'"),
        ("[keys]\na = ['nosuchkey']", "unknown key name 'nosuchkey'"),
        ("[keys]\na = [5]", "key names must be strings"),
        ("[gamepad]\na = ['paddle9']", "unknown gamepad button 'paddle9'"),
        ("[joystick]\na = [-1]", "joystick buttons are numbers"),
        ("[cursor]\nspeed = 'fast'", "[cursor] speed: expected a whole number, not 'fast'"),
        ("[cursor]\nspeed = 0", "cursor_speed must be 1-64, not 0"),
        ("[cursor]\nspeed = 9223372036854775807", "cursor_speed must be 1-64"),
        ("[cursor]\naccel_frames = -1", "cursor_accel_frames must be 0-600"),
        ("[display]\ndesktop_margin = [0, 1000000000]", "desktop_margin must be two numbers"),
        ("[display]\ntop_display = 99", "top_display must be 0-15, not 99"),
        ("[cursor]\nwarp = 1", "[cursor] unknown setting 'warp'"),
        ("[display]\nrenderer = 'opengl'", "renderer must be one of"),
        ("[display]\nvsync = 1", "expected a true or false"),
        ("[display]\nsingle_start_screen = 2", "single_start_screen must be 0 or 1"),
        ("[display]\ndesktop_margin = [1]", "desktop_margin"),
        ("[display]\nswap_key = 'nokey'", "unknown key name 'nokey'"),
        ("[gamepad]\ndeadzone = 1.5", "deadzone must be between 0 and 1"),
    ],
)
def test_bad_file_gives_one_clear_line(tmp_path: pathlib.Path, text: str, needle: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(str(path))
    assert needle in message


def test_unreadable_file(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "shim.toml"
    path.write_bytes(b"\xff\xfe[keys]")
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(path)
