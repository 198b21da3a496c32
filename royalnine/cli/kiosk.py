"""The ``royalnine kiosk`` command: an unattended dual-screen kiosk (docs/kiosk.md).

Each screen goes fullscreen on its own monitor at the largest whole scale,
centred, with the pointer hidden and touches read only from the bottom
screen; with one monitor the two screens share one fullscreen window in the
vertical layout (and the log says so). Close requests and the window hot keys
are refused; the operator stops or restarts the kiosk from the operator menu,
the service manager with SIGTERM.

Exit status: 0 after SIGTERM/SIGINT, 64 after the operator's EXIT (the unit
does not restart it), 75 after the operator's RESTART, 1 after an unexpected
error (logged with its traceback in ``HOME/logs/kiosk.log``; the service
manager starts the kiosk again, straight into the attract loop), 2 for bad
settings (one line on stderr).
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import logging.handlers
import os
import signal
import sys
from pathlib import Path
from typing import Any

from royalnine.cli import path_arg

LOG_DIR = "logs"
LOG_FILE = "kiosk.log"
LOG_BYTES = 1_000_000
LOG_KEEP = 5
log = logging.getLogger("royalnine.kiosk")


def add_parser(subparsers: Any) -> None:
    """Register ``kiosk``."""
    p = subparsers.add_parser("kiosk", help="run as an unattended dual-screen kiosk")
    p.add_argument(
        "--home", type=path_arg, metavar="DIR", default=None, help="the kiosk's data folder"
    )
    p.add_argument(
        "--top-display", type=int, metavar="N", default=None, help="monitor of the top screen"
    )
    p.add_argument(
        "--bottom-display", type=int, metavar="M", default=None, help="the touch monitor"
    )
    p.add_argument(
        "--attract-after",
        type=float,
        metavar="S",
        default=None,
        help="idle seconds on a menu (default 60)",
    )
    p.add_argument(
        "--reset-after",
        type=float,
        metavar="S",
        default=None,
        help="idle seconds mid-match (default 90)",
    )
    p.add_argument(
        "--stats-csv",
        type=path_arg,
        metavar="FILE",
        default=None,
        help="write the statistics as CSV and exit",
    )
    p.add_argument(
        "--windowed", action="store_true", help="windows instead of fullscreen (to try it out)"
    )
    p.add_argument(
        "--start",
        choices=("attract", "title", "operator"),
        default="attract",
        help="first screen (attract in service; the others for measurements and screenshots)",
    )
    p.add_argument("--seed", type=int, default=None, help=argparse.SUPPRESS)
    p.set_defaults(func=run_kiosk)


def setup_logging(home: Path) -> Path:
    """Log to a rotating file in ``HOME/logs/`` and to stderr (the journal, under systemd)."""
    folder = home / LOG_DIR
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / LOG_FILE
    handler = logging.handlers.RotatingFileHandler(
        path, maxBytes=LOG_BYTES, backupCount=LOG_KEEP, encoding="utf-8"
    )
    fmt = logging.Formatter("%(asctime)s %(levelname)s %(message)s")
    handler.setFormatter(fmt)
    log.handlers = [handler, logging.StreamHandler()]
    log.handlers[1].setFormatter(fmt)
    log.setLevel(logging.INFO)
    log.propagate = False
    return path


def export_csv(home: Path, out: Path) -> int:
    """``--stats-csv``: the statistics as CSV (``-`` for stdout); the kiosk need not run."""
    from petitcom_shim.files import output_error, write_output
    from royalnine.kiosk.stats import STATS_FILE, KioskStats, StatsDamaged, read_stats

    try:
        stats = read_stats(home / STATS_FILE) or KioskStats()
    except StatsDamaged as exc:
        print(f"royalnine: {home / STATS_FILE}: damaged statistics ({exc})", file=sys.stderr)
        return 1
    try:
        write_output(out, stats.csv_text().encode("utf-8"))
    except OSError as exc:
        print(f"royalnine: --stats-csv: {output_error(out, exc)}", file=sys.stderr)
        return 1
    return 0


def run_kiosk(args: argparse.Namespace) -> int:
    """Run the kiosk until the operator or a signal stops it."""
    from royalnine.cli.play import PROGRAM_TABLES, SHIM_FILE
    from royalnine.kiosk.config import KioskConfigError, load
    from royalnine.kiosk.controller import KioskStorage

    storage = KioskStorage(args.home)
    home = storage.home
    if args.stats_csv is not None:
        return export_csv(home, args.stats_csv)
    overrides = {
        "top_display": args.top_display,
        "bottom_display": args.bottom_display,
        "attract_after": args.attract_after,
        "reset_after": args.reset_after,
    }
    try:
        config = load(home / SHIM_FILE, overrides)
    except KioskConfigError as exc:
        print(f"royalnine: {exc}", file=sys.stderr)
        return 2
    from petitcom_shim.config import ConfigError, load_config

    try:
        shim = load_config(home / SHIM_FILE, program_tables=PROGRAM_TABLES)
    except ConfigError as exc:
        print(f"royalnine: {exc}", file=sys.stderr)
        return 2
    shim = dataclasses.replace(
        shim,
        top_display=config.top_display,
        bottom_display=config.bottom_display,
        hide_pointer=True,
        ignore_close=True,
        hot_keys=False,
    )
    try:
        log_path = setup_logging(home)
    except OSError as exc:
        print(f"royalnine: cannot write logs in {home}: {exc}", file=sys.stderr)
        return 2
    # SDL would turn SIGTERM into a quit event, which the kiosk refuses: take the signals here.
    os.environ.setdefault("SDL_NO_SIGNAL_HANDLERS", "1")
    os.environ.setdefault("SDL_VIDEO_MINIMIZE_ON_FOCUS_LOSS", "0")
    stop: list[str] = []

    def on_signal(signum: int, _frame: object) -> None:
        stop.append(signal.Signals(signum).name)

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, on_signal)
    log.info("kiosk starting in %s (log %s)", home, log_path)
    try:
        return _serve(args, storage, config, shim, stop)
    except Exception as exc:
        log.exception("unexpected error, exiting so the service manager restarts the kiosk")
        _record_crash(storage, exc)
        return 1


def _record_crash(storage: Any, exc: Exception) -> None:
    """Note the error as the reason of the coming restart (best effort)."""
    import time

    from royalnine.kiosk.stats import StatsBook

    try:
        book = StatsBook(storage.home, time.time, storage.set_aside)
        book.end_run(f"restarted after an error: {type(exc).__name__}: {exc}")
    except Exception:  # already failing; the log has the traceback
        log.exception("could not record the crash in the statistics")


def _serve(args: argparse.Namespace, storage: Any, config: Any, shim: Any, stop: list[str]) -> int:
    import pygame

    from petitcom_shim import Machine
    from royalnine.kiosk.controller import new_kiosk

    pygame.display.init()
    monitors = pygame.display.get_num_displays()
    wanted = (shim.top_display, shim.bottom_display)
    if monitors >= 2 and wanted[0] != wanted[1] and max(wanted) < monitors:
        layout = "separate"
        log.info(
            "two screens: top on monitor %d, bottom on monitor %d",
            shim.top_display,
            shim.bottom_display,
        )
    elif monitors >= 2:
        layout = "vertical"
        log.warning(
            "%d monitors but top_display %d / bottom_display %d do not name two of them: "
            "falling back to the vertical layout in one fullscreen window",
            monitors,
            *wanted,
        )
    else:
        layout = "vertical"
        log.info("one monitor found: falling back to the vertical layout in one fullscreen window")
    m = Machine(
        layout=layout, scale=0, fullscreen=not args.windowed, title="Royal Nine", config=shim
    )
    try:
        app = new_kiosk(m, storage, config, seed=args.seed, start=args.start)
        for line in app.operator_notices:
            log.warning("%s", line)
        while app.stop_reason is None:
            app.tick()
            if stop:
                app.request_stop(f"stopped by {stop[0]}", 0)
        log.info("kiosk stopping: %s (exit status %d)", app.stop_reason, app.exit_code)
        app.book.end_run(app.stop_reason)
        return app.exit_code
    finally:
        m.close()
