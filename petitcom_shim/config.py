"""Player settings of the emulated Petit Computer: key and gamepad maps, stylus cursor, screens.

Everything a player may want to change without touching a program lives in one
:class:`ShimConfig`, read from a small TOML file by :func:`load_config`. A missing
file means the documented defaults (docs/shim-input-display.md); a broken file
raises :class:`ConfigError` with a one-line message naming the file and the
problem, so a typo never turns into a silent wrong mapping.
:func:`load_config_lenient` reads the same file for those who cannot stop on a
typo (an unattended kiosk, a file left in the data folder): each bad value keeps
its default, with one warning line, and the rest of the file applies.

The file maps DS buttons to lists of inputs; a button named in the file replaces
that button's defaults, buttons left out keep them::

    [keys]            # pygame key names (pygame.key.name)
    a = ["x", "space"]
    select = ["backspace"]

    [gamepad]         # SDL game-controller button names, plus the two triggers
    a = ["b"]

    [joystick]        # raw joystick button numbers, for pads SDL does not know
    a = [1]

    [cursor]
    toggle_key = "t"
    speed = 2

    [display]
    fullscreen_key = "f11"
    top_display = 0
    bottom_display = 1
"""

from __future__ import annotations

import enum
import pathlib
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple, TypeVar

import pygame

from petitcom_shim.files import FileRefused, read_file


class Button(enum.IntFlag):
    """The twelve DS buttons with their BUTTON() bit values (petitcom.md §6)."""

    UP = 1
    DOWN = 2
    LEFT = 4
    RIGHT = 8
    A = 16
    B = 32
    X = 64
    Y = 128
    L = 256
    R = 512
    START = 1024
    SELECT = 2048


DPAD: Final = Button.UP | Button.DOWN | Button.LEFT | Button.RIGHT
"""The four d-pad bits."""

MAX_CONFIG_BYTES: Final = 256_000
"""A settings file is a few hundred bytes; anything this large is not one."""

BUTTON_NAMES: Final[dict[str, Button]] = {b.name.lower(): b for b in Button if b.name}
"""Lower-case names used in the config file, e.g. ``"start"``."""

PAD_BUTTONS: Final[dict[str, int]] = {
    "a": pygame.CONTROLLER_BUTTON_A,
    "b": pygame.CONTROLLER_BUTTON_B,
    "x": pygame.CONTROLLER_BUTTON_X,
    "y": pygame.CONTROLLER_BUTTON_Y,
    "back": pygame.CONTROLLER_BUTTON_BACK,
    "guide": pygame.CONTROLLER_BUTTON_GUIDE,
    "start": pygame.CONTROLLER_BUTTON_START,
    "leftstick": pygame.CONTROLLER_BUTTON_LEFTSTICK,
    "rightstick": pygame.CONTROLLER_BUTTON_RIGHTSTICK,
    "leftshoulder": pygame.CONTROLLER_BUTTON_LEFTSHOULDER,
    "rightshoulder": pygame.CONTROLLER_BUTTON_RIGHTSHOULDER,
    "dpup": pygame.CONTROLLER_BUTTON_DPAD_UP,
    "dpdown": pygame.CONTROLLER_BUTTON_DPAD_DOWN,
    "dpleft": pygame.CONTROLLER_BUTTON_DPAD_LEFT,
    "dpright": pygame.CONTROLLER_BUTTON_DPAD_RIGHT,
}
"""SDL game-controller button names (SDL_GameControllerGetStringForButton) to SDL indices.

SDL names buttons by their position on an Xbox pad: ``a`` is the bottom face
button, ``b`` the right one, ``x`` the left one and ``y`` the top one.
"""

PAD_TRIGGERS: Final[dict[str, int]] = {
    "lefttrigger": pygame.CONTROLLER_AXIS_TRIGGERLEFT,
    "righttrigger": pygame.CONTROLLER_AXIS_TRIGGERRIGHT,
}
"""Analog triggers, usable as buttons in the ``[gamepad]`` table (pressed past half travel)."""

_K = TypeVar("_K", str, int)

RENDERERS: Final = ("auto", "software", "texture", "surface")
"""Ways a window can be drawn: GPU textures (pygame._sdl2.video), window surfaces, or try both."""


class ConfigError(ValueError):
    """A configuration file could not be read; ``str()`` is one line naming the file."""


def _default_keys() -> dict[str, Button]:
    pairs = {
        "up": Button.UP,
        "down": Button.DOWN,
        "left": Button.LEFT,
        "right": Button.RIGHT,
        "x": Button.A,
        "z": Button.B,
        "s": Button.X,
        "a": Button.Y,
        "q": Button.L,
        "w": Button.R,
        "return": Button.START,
        "enter": Button.START,  # keypad Enter
        "backspace": Button.SELECT,
        "right shift": Button.SELECT,
        "escape": Button.SELECT,  # what players try first to pause or go back
    }
    return dict(pairs)


def _default_pad() -> dict[str, Button]:
    # Positional, like a DS: A is the right face button, B the bottom one,
    # X the top one and Y the left one.
    return {
        "dpup": Button.UP,
        "dpdown": Button.DOWN,
        "dpleft": Button.LEFT,
        "dpright": Button.RIGHT,
        "b": Button.A,
        "a": Button.B,
        "y": Button.X,
        "x": Button.Y,
        "leftshoulder": Button.L,
        "lefttrigger": Button.L,
        "rightshoulder": Button.R,
        "righttrigger": Button.R,
        "start": Button.START,
        "back": Button.SELECT,
    }


def _default_joystick() -> dict[int, Button]:
    # The usual order of generic USB/XInput pads: 0 bottom, 1 right, 2 left, 3 top,
    # 4/5 shoulders, 6 back, 7 start.
    return {
        0: Button.B,
        1: Button.A,
        2: Button.Y,
        3: Button.X,
        4: Button.L,
        5: Button.R,
        6: Button.SELECT,
        7: Button.START,
    }


@dataclass
class ShimConfig:
    """Every player-adjustable setting of the shim's input and display front-ends.

    Attributes:
        keys: pygame key name (as ``pygame.key.name`` spells it) -> DS button.
        pad_buttons: SDL game-controller button name or trigger name -> DS button.
        joystick_buttons: raw joystick button number -> DS button (pads SDL has no mapping for).
        stick_deadzone: how far (0..1) the left stick or a joystick axis must move to
            count as a d-pad press; triggers use the same threshold.
        cursor_toggle_key: key that shows/hides the stylus cursor. While it is shown
            the d-pad moves it and DS button A touches, and those buttons do not
            reach the program.
        cursor_toggle_pad: game-controller button that does the same.
        cursor_speed: cursor pixels per frame when a direction starts.
        cursor_fast_speed: pixels per frame after ``cursor_accel_frames`` frames of movement.
        cursor_accel_frames: frames of continuous movement before the cursor speeds up.
        fullscreen_key: key that toggles fullscreen (Alt+Enter always does too).
        swap_key: key that swaps the shown screen in the ``single`` layout.
        swap_pad: game-controller button that does the same.
        single_start_screen: screen shown first in the ``single`` layout (0 top, 1 bottom).
        top_display: monitor (display index) for the top screen's window in the
            ``separate`` layout.
        bottom_display: monitor for the bottom screen's window in the ``separate`` layout.
        renderer: ``"software"`` (SDL's software renderer through pygame._sdl2.video: no
            OpenGL stack in memory), ``"texture"`` (SDL's GPU renderer), ``"surface"``
            (pygame.transform on the window surface) or ``"auto"`` (software, else surface).
            A 256x192 screen drawn only when it changes needs no GPU, and the GL
            driver costs tens of MB resident (issue 18: 75 MB with Mesa's llvmpipe).
        vsync: ask the texture renderer to wait for the monitor's refresh.
        desktop_margin: (width, height) in pixels kept free for window borders and
            task bars when scale 0 picks the largest scale that fits the desktop.
        hide_pointer: hide the mouse pointer over the windows (a touch-screen kiosk,
            where a pointer left where the last finger was is only in the way).
        ignore_close: refuse close requests (the window manager's close button,
            Alt+F4, SDL's quit event): for unattended machines, where only the
            program decides when to stop.
        hot_keys: whether the fullscreen and swap hot keys act (off on an unattended
            machine, so a stray keyboard cannot leave fullscreen).
        keep_fullscreen: bring a fullscreen window back when it is minimised
            (e.g. the window manager's Alt+Space menu, Iconify) or pulled out of
            fullscreen or off its monitor (unattended machines).
    """

    keys: dict[str, Button] = field(default_factory=_default_keys)
    pad_buttons: dict[str, Button] = field(default_factory=_default_pad)
    joystick_buttons: dict[int, Button] = field(default_factory=_default_joystick)
    stick_deadzone: float = 0.5
    cursor_toggle_key: str = "t"
    cursor_toggle_pad: str = "rightstick"
    cursor_speed: int = 2
    cursor_fast_speed: int = 5
    cursor_accel_frames: int = 20
    fullscreen_key: str = "f11"
    swap_key: str = "tab"
    swap_pad: str = "leftstick"
    single_start_screen: int = 1
    top_display: int = 0
    bottom_display: int = 1
    renderer: str = "auto"
    vsync: bool = False
    desktop_margin: tuple[int, int] = (32, 96)
    hide_pointer: bool = False
    ignore_close: bool = False
    hot_keys: bool = True
    keep_fullscreen: bool = False

    def keys_for(self, button: Button) -> list[str]:
        """The keyboard keys mapped to a DS button, in the file's (or the defaults') order."""
        return [name for name, b in self.keys.items() if b == button]

    def key_codes(self) -> dict[int, Button]:
        """Return the key map as pygame key codes -> DS button mask (keys sharing a code merge)."""
        codes: dict[int, Button] = {}
        for name, button in self.keys.items():
            code = key_code(name)
            codes[code] = codes.get(code, Button(0)) | button
        return codes

    def pad_button_map(self) -> dict[int, Button]:
        """Return game-controller button index -> DS button mask (triggers left out)."""
        out: dict[int, Button] = {}
        for name, button in self.pad_buttons.items():
            if name in PAD_BUTTONS:
                index = PAD_BUTTONS[name]
                out[index] = out.get(index, Button(0)) | button
        return out

    def pad_trigger_map(self) -> dict[int, Button]:
        """Return game-controller trigger axis index -> DS button mask."""
        out: dict[int, Button] = {}
        for name, button in self.pad_buttons.items():
            if name in PAD_TRIGGERS:
                axis = PAD_TRIGGERS[name]
                out[axis] = out.get(axis, Button(0)) | button
        return out


def key_code(name: str) -> int:
    """Return the pygame key code for a key name such as ``"right shift"``.

    Raises:
        ValueError: the name is not a key pygame knows.
    """
    with warnings.catch_warnings():
        # key_code works before pygame.init(); pygame-ce still warns about it.
        warnings.simplefilter("ignore")
        return int(pygame.key.key_code(name))


def load_config(path: pathlib.Path | None, *, program_tables: Iterable[str] = ()) -> ShimConfig:
    """Read a TOML settings file over the defaults.

    Args:
        path: the file; ``None`` or a file that does not exist gives the defaults.
        program_tables: tables that belong to the program using the shim (it reads
            them itself); they are skipped here instead of being unknown tables.

    Raises:
        ConfigError: the file is not valid TOML or names an unknown table, setting,
            button, key or value; the message is one line starting with the file name.
    """
    data = _read_tables(path, program_tables)
    try:
        return config_from_dict(data)
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from None


def load_config_lenient(
    path: pathlib.Path | None, *, program_tables: Iterable[str] = ()
) -> tuple[ShimConfig, list[str]]:
    """Like :func:`load_config`, but a bad value costs only that value.

    For a file nobody is there to fix at once (an unattended kiosk, the player's
    data folder): each bad value (wrong kind, out of range, unknown key, button,
    setting or table) keeps its default and everything else in the file applies.
    A file that cannot be read at all (not TOML, not UTF-8, too large, not a
    regular file) gives all the defaults.

    Returns:
        The settings, and one line per problem naming the file, the table and
        setting, why, and the default used instead (empty when the file is fine).
    """
    try:
        data = _read_tables(path, program_tables)
    except ConfigError as exc:
        return ShimConfig(), [f"{exc}: using the default settings"]
    cfg, problems = _build(data)
    return cfg, [f"{path}: {problem.warning}" for problem in problems]


def _read_tables(path: pathlib.Path | None, program_tables: Iterable[str]) -> dict[str, Any]:
    """The file's parsed TOML without the program's tables ({} for no file).

    Raises:
        ConfigError: the file cannot be read or is not TOML (one line naming it).
    """
    if path is None:
        return {}
    import tomllib  # only a config file needs it: none is read at a plain start-up

    try:
        data = tomllib.loads(read_file(path, MAX_CONFIG_BYTES).decode("utf-8"))
    except FileNotFoundError:
        return {}
    except FileRefused as exc:
        raise ConfigError(f"{path}: {exc}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: cannot read: not UTF-8 text") from None
    except RecursionError:
        raise ConfigError(f"{path}: nested too deep") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    skip = set(program_tables)
    return {k: v for k, v in data.items() if k not in skip}


_SETTINGS: Final[dict[str, dict[str, str]]] = {
    "cursor": {
        "toggle_key": "cursor_toggle_key",
        "toggle_pad": "cursor_toggle_pad",
        "speed": "cursor_speed",
        "fast_speed": "cursor_fast_speed",
        "accel_frames": "cursor_accel_frames",
    },
    "display": {
        "fullscreen_key": "fullscreen_key",
        "swap_key": "swap_key",
        "swap_pad": "swap_pad",
        "single_start_screen": "single_start_screen",
        "top_display": "top_display",
        "bottom_display": "bottom_display",
        "renderer": "renderer",
        "vsync": "vsync",
        "desktop_margin": "desktop_margin",
        "hide_pointer": "hide_pointer",
        "ignore_close": "ignore_close",
        "hot_keys": "hot_keys",
        "keep_fullscreen": "keep_fullscreen",
    },
    "gamepad": {"deadzone": "stick_deadzone"},
}

_TABLES: Final = frozenset({"keys", "gamepad", "joystick", "cursor", "display"})


class _Problem(NamedTuple):
    """One bad value: ``message`` is what the strict reader raises, ``warning`` what the
    lenient one reports (the setting, the reason and the fallback, without the file)."""

    message: str
    warning: str


def config_from_dict(data: Mapping[str, Any]) -> ShimConfig:
    """Build a :class:`ShimConfig` from parsed TOML (see the module docstring for the layout).

    Raises:
        ConfigError: an unknown table, setting, button, key name or a value of the wrong
            kind (the first one in the order the file is applied).
    """
    cfg, problems = _build(data)
    if problems:
        raise ConfigError(problems[0].message)
    return cfg


def _build(data: Mapping[str, Any]) -> tuple[ShimConfig, list[_Problem]]:
    """Apply every good value of ``data`` over the defaults; list the bad ones.

    Each table, DS button remap and setting is checked on its own, and a bad one
    leaves the defaults it would have replaced. The problems come in the order the
    strict reader always met them, so its first one is the message it raises.
    """
    cfg = ShimConfig()
    problems: list[_Problem] = []
    tables: dict[str, Mapping[str, Any]] = {}
    for table, value in data.items():
        if table not in _TABLES:
            message = f"unknown table [{table}] (expected one of {', '.join(sorted(_TABLES))})"
            problems.append(_Problem(message, f"{message}: ignored"))
        elif not isinstance(value, dict):
            message = f"[{table}] must be a table"
            problems.append(_Problem(message, f"{message}: using the default [{table}] settings"))
        else:
            tables[table] = value
    if "keys" in tables:
        cfg.keys = _remap(cfg.keys, tables["keys"], "keys", _check_key_name, problems)
    if "gamepad" in tables:
        buttons = {k: v for k, v in tables["gamepad"].items() if k not in _SETTINGS["gamepad"]}
        cfg.pad_buttons = _remap(cfg.pad_buttons, buttons, "gamepad", _check_pad_name, problems)
    if "joystick" in tables:
        cfg.joystick_buttons = _remap(
            cfg.joystick_buttons, tables["joystick"], "joystick", _check_joy, problems
        )
    for table, names in _SETTINGS.items():
        for key, value in tables.get(table, {}).items():
            if table == "gamepad" and key not in names:
                continue  # a button, handled above
            if key not in names:
                message = f"[{table}] unknown setting {key!r}"
                problems.append(_Problem(message, f"{message}: ignored"))
                continue
            try:
                _set(cfg, names[key], value, f"[{table}] {key}")
            except ConfigError as exc:
                problems.append(_Problem(str(exc), f"{exc}: {_default_text(names[key])}"))
    for attr, message in list(_problems(cfg)):
        table, key = _FILE_NAMES[attr]  # the message names the attribute or the setting
        rest = message.removeprefix(attr) if message.startswith(attr) else message.removeprefix(key)
        problems.append(_Problem(message, f"[{table}] {key}{rest}: {_default_text(attr)}"))
        setattr(cfg, attr, getattr(ShimConfig(), attr))
    return cfg, problems


_FILE_NAMES: Final = {
    attr: (t, key) for t, names in _SETTINGS.items() for key, attr in names.items()
}
"""ShimConfig attribute -> (table, setting) as the file spells them."""


def _default_text(attr: str) -> str:
    """``using the default ...`` with the default of ``attr`` written as in the file."""
    import json  # a warning's text only: nothing at a plain start-up warns

    default = getattr(ShimConfig(), attr)
    if isinstance(default, tuple):
        default = list(default)
    return f"using the default {json.dumps(default)}"


def _remap(
    defaults: dict[_K, Button],
    table: Mapping[str, Any],
    where: str,
    check: Callable[[object, str], _K],
    problems: list[_Problem],
) -> dict[_K, Button]:
    """Replace the inputs of every DS button named in ``table``; keep the others.

    A button named wrongly, or given an input that is not one, is listed in
    ``problems`` and keeps the inputs it had.
    """
    result = dict(defaults)
    for button_name, inputs in table.items():
        button = BUTTON_NAMES.get(button_name.lower())
        if button is None:
            message = (
                f"[{where}] unknown DS button {button_name!r} "
                f"(expected one of {', '.join(BUTTON_NAMES)})"
            )
            problems.append(_Problem(message, f"{message}: ignored"))
            continue
        try:
            items = inputs if isinstance(inputs, list) else [inputs]
            checked = [check(item, where) for item in items]
        except ConfigError as exc:
            import json  # a warning's text only

            kept = json.dumps([k for k, v in result.items() if v == button])
            fallback = f"using the default [{where}] {button_name} = {kept}"
            problems.append(_Problem(str(exc), f"{exc}: {fallback}"))
            continue
        result = {k: v for k, v in result.items() if v != button}
        for item in checked:
            result[item] = button
    return result


def _check_key_name(item: object, where: str) -> str:
    if not isinstance(item, str):
        raise ConfigError(f"[{where}] key names must be strings, not {item!r}")
    try:
        key_code(item)
    except ValueError:
        raise ConfigError(f"[{where}] unknown key name {item!r} (see pygame.key.name)") from None
    return item.lower()


def _check_pad_name(item: object, where: str) -> str:
    if not isinstance(item, str) or item.lower() not in PAD_BUTTONS.keys() | PAD_TRIGGERS.keys():
        names = ", ".join([*PAD_BUTTONS, *PAD_TRIGGERS])
        raise ConfigError(f"[{where}] unknown gamepad button {item!r} (expected one of {names})")
    return item.lower()


def _check_joy(item: object, where: str) -> int:
    if not isinstance(item, int) or isinstance(item, bool) or item < 0:
        raise ConfigError(f"[{where}] joystick buttons are numbers 0 or more, not {item!r}")
    return item


def _set(cfg: ShimConfig, attr: str, value: object, where: str) -> None:
    current = getattr(cfg, attr)
    if isinstance(current, bool):
        ok = isinstance(value, bool)
    elif isinstance(current, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(current, float):
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        value = float(value) if ok else value  # type: ignore[arg-type]
    elif isinstance(current, tuple):
        ok = (
            isinstance(value, list)
            and len(value) == len(current)
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        )
        value = tuple(value) if ok else value  # type: ignore[arg-type]
    else:
        ok = isinstance(value, str)
    if not ok:
        kinds = {bool: "true or false", int: "whole number", float: "number", str: "string"}
        if isinstance(current, tuple):
            kind = f"list of {len(current)} whole numbers"
        else:
            kind = kinds[type(current)]
        raise ConfigError(f"{where}: expected a {kind}, not {value!r}")
    setattr(cfg, attr, value)


MAX_DESKTOP_MARGIN: Final = 4096
#: (setting, lowest, highest) for the whole-number settings: beyond these a value is a
#: typo (a cursor crossing the 256-pixel screen many times a frame, monitor 99).
_RANGES: Final = (
    ("cursor_speed", 1, 64),
    ("cursor_fast_speed", 1, 64),
    ("cursor_accel_frames", 0, 600),
    ("top_display", 0, 15),
    ("bottom_display", 0, 15),
)


def _problems(cfg: ShimConfig) -> Iterator[tuple[str, str]]:
    """Range checks that do not depend on the file layout: (attribute, message) per bad value.

    Each check looks at one attribute only, so putting back the default of a bad
    one cannot make another one bad.
    """
    for attr in ("cursor_toggle_key", "fullscreen_key", "swap_key"):
        name = getattr(cfg, attr)
        try:
            key_code(name)
        except ValueError:
            yield attr, f"{attr}: unknown key name {name!r}"
    for attr in ("cursor_toggle_pad", "swap_pad"):
        if getattr(cfg, attr) not in PAD_BUTTONS:
            yield attr, f"{attr}: unknown gamepad button {getattr(cfg, attr)!r}"
    if not 0.0 < cfg.stick_deadzone < 1.0:
        yield "stick_deadzone", f"deadzone must be between 0 and 1, not {cfg.stick_deadzone}"
    for attr, low, high in _RANGES:
        value = getattr(cfg, attr)
        if not low <= value <= high:
            yield attr, f"{attr} must be {low}-{high}, not {value}"
    if cfg.single_start_screen not in (0, 1):
        yield (
            "single_start_screen",
            f"single_start_screen must be 0 or 1, not {cfg.single_start_screen}",
        )
    if cfg.renderer not in RENDERERS:
        yield "renderer", f"renderer must be one of {', '.join(RENDERERS)}, not {cfg.renderer!r}"
    if not all(0 <= margin <= MAX_DESKTOP_MARGIN for margin in cfg.desktop_margin):
        yield (
            "desktop_margin",
            f"desktop_margin must be two numbers of pixels 0-{MAX_DESKTOP_MARGIN}, "
            f"not {list(cfg.desktop_margin)}",
        )
