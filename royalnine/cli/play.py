"""The ``royalnine play`` (default) and ``royalnine demo`` commands.

``play`` opens the game window. ``demo`` plays a CPU-vs-CPU match through the
UI (stylus input injected by :mod:`royalnine.screens.autoplay`) and, with
``--out DIR``, writes a screenshot of each stage and the finished match's record
``match.json`` (for ``royalnine review``); ``--headless`` runs it with
no window and no real clock (how the README screenshots are made).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

from royalnine.cli import path_arg, whole_number
from royalnine.storage import DIFFICULTIES, LAYOUTS, MAX_GAP, current_name

PROCESS_START = time.perf_counter()
SHIM_FILE = "shim.toml"
PROGRAM_TABLES = ("kiosk",)
"""Tables of shim.toml that Royal Nine reads itself (royalnine.kiosk.config), not the shim."""
SHIM_LAYOUTS = {"side": "horizontal"}
"""The game's layout names that the shim spells differently."""
RUN_OPTIONS = ("layout", "gap", "scale", "fullscreen", "fit", "lang", "tens", "rounds")


def shim_layout(layout: str) -> str:
    """The petitcom_shim layout for one of the game's layout names."""
    return SHIM_LAYOUTS.get(layout, layout)


def _today(name: str) -> str:
    """argparse type: an older flag spelling (``horizontal``, ``match``) as today's name."""
    return str(current_name(name))


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--home",
        type=path_arg,
        default=None,
        help="data folder (default: $ROYALNINE_HOME or the per-user folder)",
    )
    p.add_argument(
        "--layout",
        type=_today,
        choices=LAYOUTS,
        default=None,
        help="how the two screens sit in the window (this run only)",
    )
    p.add_argument(
        "--gap",
        type=whole_number,
        default=None,
        metavar="PIXELS",
        help="DS pixels between the two screens, as DS emulators offer (vertical, side and "
        "separate layouts; this run only)",
    )
    p.add_argument(
        "--fit",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a resized or maximised window scales smoothly (default: whole-number scales; "
        "this run only)",
    )
    p.add_argument(
        "--scale",
        type=whole_number,
        default=None,
        help="window scale (0 = largest that fits; this run only)",
    )
    p.add_argument(
        "--fullscreen", action="store_true", default=None, help="open full screen (this run only)"
    )
    p.add_argument(
        "--lang", choices=("en", "ja"), default=None, help="English or Japanese (this run only)"
    )
    p.add_argument(
        "--tens",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="play with the two tens (this run only)",
    )
    p.add_argument(
        "--rounds",
        type=whole_number,
        default=None,
        help="rounds per match (5 in the original; this run only)",
    )
    p.add_argument(
        "--seed", type=whole_number, default=None, help="seed the deals (reproducible matches)"
    )
    p.add_argument(
        "--controls",
        type=path_arg,
        default=None,
        help=f"hardware settings file: keys, gamepad, kiosk monitors (default: HOME/{SHIM_FILE})",
    )


def add_parser(subparsers: Any) -> None:
    """Register ``play``."""
    play = subparsers.add_parser("play", help="start the game window (the default command)")
    _common(play)
    play.add_argument(
        "--level",
        type=_today,
        choices=DIFFICULTIES,
        default=None,
        help="CPU level (this run only)",
    )
    play.set_defaults(func=run_play)


def add_demo_parser(subparsers: Any) -> None:
    """Register ``demo``."""
    demo = subparsers.add_parser(
        "demo", help="watch a CPU-vs-CPU match; --out DIR saves screenshots"
    )
    _common(demo)
    demo.add_argument("--headless", action="store_true", help="no window, no real clock")
    demo.add_argument(
        "--out", type=path_arg, default=None, help="folder for one screenshot per stage"
    )
    demo.add_argument("--shot-scale", type=whole_number, default=1, help="screenshot scale (1-4)")
    demo.add_argument(
        "--mode", choices=("cpu", "local"), default="cpu", help="match mode to play through"
    )
    demo.set_defaults(func=run_demo)


def _settings(args: argparse.Namespace) -> tuple[Any, Any]:
    """The data folder and the settings this run uses (the saved ones with the flags)."""
    storage, saved, overrides = _options(args)
    return storage, _run_settings(saved, overrides)


def _options(args: argparse.Namespace) -> tuple[Any, Any, dict[str, object]]:
    """The data folder, the saved settings, and this run's overrides from the flags.

    Flags apply to this run only: they are kept apart from the saved settings,
    so saving OPTIONS later writes only what the player chose there.
    """
    from royalnine.storage import Storage

    storage = Storage(args.home)
    saved = storage.load_settings()
    return storage, saved, _overrides(args, saved)


def _overrides(args: argparse.Namespace, saved: Any) -> dict[str, object]:
    """This run's options from the flags (checked against the saved settings they override)."""
    overrides: dict[str, object] = {}
    for name in RUN_OPTIONS:
        value = getattr(args, name, None)
        if value is not None:
            overrides[name] = value
    if getattr(args, "level", None):
        overrides["difficulty"] = args.level
    rounds = overrides.get("rounds", saved.rounds)
    scale = overrides.get("scale", saved.scale)
    if not isinstance(rounds, int) or not 1 <= rounds <= 99:
        raise SystemExit("royalnine: --rounds must be 1-99")
    if not isinstance(scale, int) or not 0 <= scale <= 6:
        raise SystemExit("royalnine: --scale must be 0 (fit the screen) to 6")
    gap = overrides.get("gap", saved.gap)
    if not isinstance(gap, int) or not 0 <= gap <= MAX_GAP:
        raise SystemExit(f"royalnine: --gap must be 0 to {MAX_GAP} DS pixels")
    return overrides


def _run_settings(saved: Any, overrides: dict[str, object]) -> Any:
    import dataclasses

    return dataclasses.replace(saved, **overrides)


def _shim_config(args: argparse.Namespace, storage: Any, home: Path | None = None) -> Any:
    """The shim's settings (key and pad maps, kiosk monitors) from --controls or HOME/shim.toml.

    HOME is ``home`` if given (the demo's player folder), else the storage's;
    notices go to ``storage``.

    A missing HOME/shim.toml means the built-in defaults. A bad file named with
    --controls ends the program with the one-line reason (the player asked for
    it just now); a bad value in HOME/shim.toml is left where it is, reported
    (one stderr line each, one notice in the game) and its default used, the
    rest of the file applying, so a file in the data folder never stops the game.
    """
    from petitcom_shim.config import ConfigError, load_config, load_config_lenient
    from royalnine.storage import Notice

    path: Path | None = args.controls
    if path is not None:
        if not os.path.lexists(path):
            raise SystemExit(f"royalnine: --controls: no such file: {path}")
        try:  # the same file as HOME/shim.toml may be named here, [kiosk] table and all
            return load_config(path, program_tables=PROGRAM_TABLES)
        except ConfigError as exc:
            raise SystemExit(f"royalnine: {exc}") from None
    path = (home or storage.home) / SHIM_FILE
    if not os.path.lexists(path):
        return None
    config, warnings = load_config_lenient(path, program_tables=PROGRAM_TABLES)
    for line in warnings:
        print(f"royalnine: {line}", file=sys.stderr)
    if warnings:
        storage.notices.append(Notice("notice_ignored", "controls", SHIM_FILE, "; ".join(warnings)))
    return config


def _invisible() -> bool:
    """SDL fell back to a video driver that shows nothing (no display was found)."""
    import pygame

    return pygame.display.get_init() and pygame.display.get_driver() in ("offscreen", "dummy")


def _fullscreen_separate(shim: Any) -> str:
    """``--layout separate --fullscreen``: ``separate`` when each screen can have a monitor
    of its own, else (two X screens, one monitor) ``vertical`` with the kiosk's warning
    on stderr: two fullscreen windows on one monitor hid the top screen, with nothing said.
    """
    import logging

    import pygame

    from petitcom_shim.config import ShimConfig
    from royalnine.cli.kiosk import two_screen_layout

    config = shim if shim is not None else ShimConfig()
    try:
        pygame.display.init()
    except pygame.error:
        return "separate"  # no display: the check below the window's opening says so
    layout, level, line = two_screen_layout(config.top_display, config.bottom_display)
    if level >= logging.WARNING or layout != "separate":
        print(f"royalnine: {line}", file=sys.stderr)
    return layout


def run_play(args: argparse.Namespace) -> int:
    """Open the window and run the game until it is closed; refused (one line, status 1)
    while another program holds the data folder (:mod:`royalnine.homelock`)."""
    from royalnine.homelock import HomeInUse, hold
    from royalnine.storage import default_home

    try:
        lock = hold((getattr(args, "home", None) or default_home()).expanduser(), "game")
    except HomeInUse as exc:
        print(f"royalnine: {exc}", file=sys.stderr)
        return 1
    with lock:  # held until the game ends (the process's end releases it in any case)
        return _run_play(args)


def _run_play(args: argparse.Namespace) -> int:
    from petitcom_shim import Machine
    from royalnine.art import window_icon
    from royalnine.game import new_game

    storage, saved, overrides = _options(args)
    settings = _run_settings(saved, overrides)
    shim = _shim_config(args, storage)
    layout = shim_layout(settings.layout)
    if layout == "separate" and settings.fullscreen:
        layout = _fullscreen_separate(shim)
    m = Machine(
        layout=layout,
        scale=settings.scale,
        gap=settings.gap,
        fullscreen=bool(settings.fullscreen),
        title="Royal Nine",
        audio=True,  # MUSIC and SOUND FX can be turned on in OPTIONS at any time
        config=shim,
        fit=bool(settings.fit),
        icon=window_icon(),
    )
    if _invisible() and not os.environ.get("SDL_VIDEODRIVER"):
        m.close()
        raise SystemExit(
            "royalnine: no display to open a window on (is DISPLAY or WAYLAND_DISPLAY set?); "
            "`royalnine demo --headless --out DIR` runs without one"
        )
    app = new_game(m, storage, saved, overrides=overrides, seed=args.seed)
    if os.environ.get("ROYALNINE_BENCH_FIRST_FRAME"):
        app.tick()
        print(f"first-frame {time.perf_counter() - PROCESS_START:.4f}", flush=True)
        m.close()
        return 0
    try:
        app.run()
    finally:
        m.close()
    return 0


def keep_record(storage: Any, path: Path) -> None:
    """Copy the newest match of the history to ``path`` (``royalnine review`` reads it),
    by the one output rule of :func:`petitcom_shim.files.check_output_path`."""
    from petitcom_shim.files import output_error, write_output
    from royalnine import history

    kept = history.entries(storage)
    if not kept:
        return
    try:  # atomic and synced, keeping a replaced file's mode
        write_output(path, kept[0].record.to_json().encode("utf-8"))
    except OSError as exc:
        raise SystemExit(f"royalnine demo: {output_error(path, exc)}") from None
    print(f"wrote {path}")


def run_demo(args: argparse.Namespace) -> int:
    """Play a CPU-vs-CPU match through the UI, optionally saving screenshots.

    The demo plays in a throwaway profile: it reads the player's settings (language,
    layout, ...) and controls from the data folder but writes nothing there (no save,
    no statistics, no settings), and a saved match there is neither shown nor touched.
    """
    import tempfile

    from royalnine.core.files import UnreadableFile
    from royalnine.storage import Settings, Storage, default_home, read_settings

    home = (args.home or default_home()).expanduser()
    try:
        saved = read_settings(home)
    except UnreadableFile as exc:
        print(f"royalnine: {home}: settings not used ({exc})", file=sys.stderr)
        saved = Settings()
    overrides = _overrides(args, saved)
    out: Path | None = args.out
    if out is not None:
        _check_out_folder(out)
    with tempfile.TemporaryDirectory(prefix="royalnine-demo-") as scratch:
        return _play_demo(args, Storage(Path(scratch)), home, saved, overrides, out)


def _check_out_folder(out: Path) -> None:
    """Make the screenshot folder; an unusable one ends the demo with one line."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise SystemExit(f"royalnine demo: --out {out}: not a folder") from None
    except OSError as exc:
        raise SystemExit(f"royalnine demo: --out {out}: {exc.strerror or exc}") from None
    if not out.is_dir():
        raise SystemExit(f"royalnine demo: --out {out}: not a folder")
    if not os.access(out, os.W_OK | os.X_OK):
        raise SystemExit(f"royalnine demo: --out {out}: cannot write there")


def _play_demo(
    args: argparse.Namespace,
    storage: Any,
    home: Path,
    saved: Any,
    overrides: dict[str, object],
    out: Path | None,
) -> int:
    """The demo itself, on the throwaway ``storage``."""
    from petitcom_shim import Machine
    from petitcom_shim.files import output_error
    from royalnine.art import window_icon
    from royalnine.game import new_game
    from royalnine.screens.autoplay import AutoPlayer

    if args.headless:
        overrides["sound"] = overrides["music"] = overrides["effects"] = False
    settings = _run_settings(saved, overrides)
    m = Machine(
        headless=args.headless,
        layout=shim_layout(settings.layout),
        scale=settings.scale,
        gap=settings.gap,
        title="Royal Nine demo",
        audio=settings.music or settings.effects,
        config=_shim_config(args, storage, home),
        fit=bool(settings.fit),
        icon=None if args.headless else window_icon(),
    )
    try:
        seed = args.seed if args.seed is not None else 2013
        app = new_game(m, storage, saved, overrides=overrides, seed=seed)
        app.demo = True

        def shoot(stage: str) -> None:
            if out is None:
                return
            app.step(12)  # let animations settle
            path = out / f"{stage}.png"
            try:
                m.screenshot(path, scale=max(1, min(4, args.shot_scale)))
            except OSError as exc:
                raise SystemExit(f"royalnine demo: {output_error(path, exc)}") from None
            print(f"wrote {path}")

        player = AutoPlayer(
            app, mode=args.mode, level=settings.difficulty, seed=args.seed or 0, on_stage=shoot
        )
        frames = player.play()
    finally:
        m.close()
    print(f"demo {'finished' if player.finished else 'stopped'} in {frames} frames")
    if out is not None and player.finished:
        keep_record(storage, out / "match.json")
    return 0
