"""petitcom_shim.config: defaults, remapping from a TOML file, one-line errors for bad files,
and the lenient reader where a bad value falls back to its default."""

from __future__ import annotations

import pathlib

import pygame
import pytest

from petitcom_shim.config import ConfigError, ShimConfig, load_config, load_config_lenient
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


# --- the lenient reader: a bad value costs only that value -------------------

GOOD = {
    "keys": 'select = ["tab"]',
    "gamepad": 'x = ["a"]',
    "joystick": "start = [9]",
    "cursor": "fast_speed = 7",
    "display": "hide_pointer = true",
}
"""One good value per table, kept whatever else the file gets wrong."""


def with_good_values(bad: str) -> tuple[str, str]:
    """A file with the GOOD values and the ``bad`` text (a table header and its line, or a
    top-level line) where TOML allows it, and the same file without the bad text."""
    first, _, rest = bad.partition("\n")
    tables = dict(GOOD)
    if first.startswith("["):
        top = ""
        name = first.strip("[]")
        with_bad = {**tables, name: f"{tables.get(name, '')}\n{rest}"}
    else:  # a top-level value such as keys = 3 takes the place of its table
        top = first + "\n"
        tables.pop(first.split("=")[0].strip())
        with_bad = tables

    def text(tables: dict[str, str]) -> str:
        return "".join(f"[{name}]\n{lines}\n" for name, lines in tables.items())

    return top + text(with_bad), text(tables)


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        ("[sound]\nx = 1", "unknown table [sound]"),
        ("keys = 3", "[keys] must be a table"),
        ("display = [1]", "[display] must be a table"),
        ("[keys]\nturbo = ['x']", "[keys] unknown DS button 'turbo'"),
        ("[keys]\na = ['nosuchkey']", "unknown key name 'nosuchkey'"),
        ("[keys]\na = ['space', 5]", "key names must be strings"),
        ("[gamepad]\na = ['paddle9']", "unknown gamepad button 'paddle9'"),
        ("[joystick]\na = [-1]", "joystick buttons are numbers"),
        ("[joystick]\nturbo = [3]", "[joystick] unknown DS button 'turbo'"),
        ("[cursor]\nspeed = 'fast'", "[cursor] speed: expected a whole number"),
        ("[cursor]\nspeed = 0", "[cursor] speed must be 1-64, not 0"),
        ("[cursor]\nspeed = 9223372036854775807", "[cursor] speed must be 1-64"),
        ("[cursor]\naccel_frames = -1", "[cursor] accel_frames must be 0-600"),
        ("[cursor]\ntoggle_key = 'nokey'", "[cursor] toggle_key: unknown key name 'nokey'"),
        ("[cursor]\ntoggle_pad = 'paddle'", "[cursor] toggle_pad: unknown gamepad button"),
        ("[cursor]\nwarp = 1", "[cursor] unknown setting 'warp'"),
        ("[display]\ndesktop_margin = [0, 1000000000]", "[display] desktop_margin must be"),
        ("[display]\ndesktop_margin = [1]", "[display] desktop_margin: expected a list"),
        ("[display]\ntop_display = 99", "[display] top_display must be 0-15, not 99"),
        ("[display]\nrenderer = 'opengl'", "[display] renderer must be one of"),
        ("[display]\nvsync = 1", "[display] vsync: expected a true or false"),
        ("[display]\nsingle_start_screen = 2", "[display] single_start_screen must be 0 or 1"),
        ("[display]\nswap_key = 'nokey'", "[display] swap_key: unknown key name 'nokey'"),
        ("[gamepad]\ndeadzone = 1.5", "[gamepad] deadzone must be between 0 and 1"),
        ("[gamepad]\ndeadzone = nan", "[gamepad] deadzone must be between 0 and 1"),
    ],
)
def test_lenient_reader_drops_only_the_bad_value(
    tmp_path: pathlib.Path, bad: str, words: str
) -> None:
    text, good_text = with_good_values(bad)
    good_only = load_config(write(tmp_path, good_text))
    assert good_only != ShimConfig()  # the good values change something
    path = write(tmp_path, text)
    with pytest.raises(ConfigError):  # the strict reader still refuses the file
        load_config(path)
    config, warnings = load_config_lenient(path)
    assert config == good_only  # every good value applied, the bad one left at its default
    (line,) = warnings
    assert line.startswith(f"{path}: ") and words in line and "\n" not in line
    assert line.endswith(": ignored") or ": using the default" in line


def test_lenient_reader_says_which_default_it_uses(tmp_path: pathlib.Path) -> None:
    path = write(tmp_path, "[display]\ntop_display = 99\n[keys]\na = ['nosuchkey']\n")
    config, warnings = load_config_lenient(path)
    assert config == ShimConfig()
    assert warnings == [
        f"{path}: [keys] unknown key name 'nosuchkey' (see pygame.key.name): "
        'using the default [keys] a = ["x"]',
        f"{path}: [display] top_display must be 0-15, not 99: using the default 0",
    ]


def test_strict_reader_raises_the_first_problem_the_lenient_one_lists(
    tmp_path: pathlib.Path,
) -> None:
    path = write(tmp_path, "[display]\nrenderer = 'gl'\nvsync = 1\n[keys]\nturbo = ['x']\n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(info.value) == (
        f"{path}: [keys] unknown DS button 'turbo' "
        "(expected one of up, down, left, right, a, b, x, y, l, r, start, select)"
    )
    _, warnings = load_config_lenient(path)
    assert [line.split(": ")[1].split()[0] for line in warnings] == [
        "[keys]",
        "[display]",
        "[display]",
    ]
    assert "turbo" in warnings[0] and "vsync" in warnings[1] and "renderer" in warnings[2]


@pytest.mark.parametrize(
    "content", [b"[keys\na = 1", b"\xff\xfe[keys]", b"[keys]\n" + b"#" * 300_000, b"[" * 5000]
)
def test_lenient_reader_of_an_unreadable_file_gives_the_defaults(
    tmp_path: pathlib.Path, content: bytes
) -> None:
    path = tmp_path / "shim.toml"
    path.write_bytes(content)
    config, warnings = load_config_lenient(path)
    assert config == ShimConfig()
    (line,) = warnings
    assert line.startswith(f"{path}: ") and line.endswith(": using the default settings")
    assert "\n" not in line
    path.unlink()
    path.mkdir()
    assert load_config_lenient(path)[1][0].endswith(
        "not a regular file: using the default settings"
    )


def test_lenient_reader_without_a_file(tmp_path: pathlib.Path) -> None:
    assert load_config_lenient(None) == (ShimConfig(), [])
    assert load_config_lenient(tmp_path / "missing.toml") == (ShimConfig(), [])
    path = write(tmp_path, "[kiosk]\npin = '1'\n[display]\nvsync = true\n")
    assert load_config_lenient(path, program_tables=("kiosk",)) == (ShimConfig(vsync=True), [])
