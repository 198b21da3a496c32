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
import errno
import logging
import logging.handlers
import os
import signal
import stat
import sys
import time
from pathlib import Path
from typing import Any

from royalnine.cli import path_arg

LOG_DIR = "logs"
LOG_FILE = "kiosk.log"
LOG_BYTES = 1_000_000
LOG_KEEP = 5
WINDOW_CHECK_FRAME = 180
BEAT_EVERY = 6
"""The heartbeat looks at the kiosk every this many frames (10 times a second): enough
for watchdog pings and a status file measured in seconds, and an idle kiosk spends
less on it than on every frame."""
"""The frame after which the kiosk checks that its windows cover their monitors."""
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
        "--set-pin",
        action="store_true",
        help="read a new operator PIN (4-8 digits) from standard input, store it hashed, exit",
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


def setup_logging(home: Path) -> Path | None:
    """Log to stderr (the journal, under systemd) and to a rotating file in ``HOME/logs/``.

    Returns the log file, or None when there can be none: a read-only home, a file
    named ``logs``, a log that is not a regular file (a FIFO would block the kiosk
    forever at start) or cannot be written. The kiosk then runs and logs to stderr
    only, after one warning line. Text that is not UTF-8 (a home path in another
    encoding) is written with backslash escapes, never as a "Logging error".
    """
    fmt = logging.Formatter("%(asctime)s %(levelname)s %(message)s")
    stream = logging.StreamHandler()
    stream.setFormatter(fmt)
    log.handlers = [stream]
    log.setLevel(logging.INFO)
    log.propagate = False
    path = home / LOG_DIR / LOG_FILE
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _check_log_file(path)
        handler = logging.handlers.RotatingFileHandler(
            path,
            maxBytes=LOG_BYTES,
            backupCount=LOG_KEEP,
            encoding="utf-8",
            errors="backslashreplace",
        )
    except OSError as exc:
        log.warning(
            "cannot write the log file %s (%s): logging to stderr only",
            path,
            exc.strerror or exc,
        )
        return None
    handler.setFormatter(fmt)
    log.handlers.insert(0, handler)
    return path


def _check_log_file(path: Path) -> None:
    """Raise OSError unless ``path`` is (or can be created as) a writable regular file.

    It is opened without blocking, so a FIFO nobody reads is found out instead of
    hanging the kiosk before its first frame.
    """
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a FIFO with no reader
            raise OSError(exc.errno, "not a regular file (a FIFO)") from None
        raise
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
    finally:
        os.close(fd)


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


def set_pin(home: Path) -> int:
    """``--set-pin``: one line of standard input becomes the operator PIN (stored hashed)."""
    from royalnine.kiosk.pin import PIN_FILE, PinLock, new_pin_problem

    pin = sys.stdin.readline(100).strip()
    problem = new_pin_problem(pin)
    if problem:
        print(f"royalnine: --set-pin: {problem} on standard input", file=sys.stderr)
        return 2
    try:
        PinLock(home, time.time).set_pin(pin)
    except OSError as exc:
        print(f"royalnine: --set-pin: cannot write {home / PIN_FILE}: {exc}", file=sys.stderr)
        return 1
    print(f"operator PIN set (stored hashed in {home / PIN_FILE})")
    return 0


def world_readable_secret(path: Path) -> str:
    """A warning when ``path`` (shim.toml with a PIN in it) can be read by every user."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return ""
    if mode & stat.S_IROTH:
        return f"{path} holds the operator PIN and every user can read it: chmod 600 it"
    return ""


def run_kiosk(args: argparse.Namespace) -> int:
    """Run the kiosk until the operator or a signal stops it; refused (one line, status 1)
    while another program holds the data folder (:mod:`royalnine.homelock`).
    ``--stats-csv`` and ``--set-pin`` need no hold: they work beside a running kiosk."""
    from royalnine.homelock import HomeInUse, hold
    from royalnine.storage import default_home

    home = (args.home or default_home()).expanduser()
    if args.stats_csv is not None:
        return export_csv(home, args.stats_csv)
    if args.set_pin:
        return set_pin(home)
    try:
        lock = hold(home, "kiosk")
    except HomeInUse as exc:
        print(f"royalnine kiosk: {exc}", file=sys.stderr)
        return 1
    with lock:  # held while the kiosk runs (the process's end releases it in any case)
        return _run_kiosk(args, home)


def _run_kiosk(args: argparse.Namespace, home: Path) -> int:
    from royalnine.cli.play import PROGRAM_TABLES, SHIM_FILE
    from royalnine.kiosk.config import KioskConfigError, load_lenient
    from royalnine.kiosk.controller import KioskStorage

    storage = KioskStorage(home)
    overrides = {
        "top_display": args.top_display,
        "bottom_display": args.bottom_display,
        "attract_after": args.attract_after,
        "reset_after": args.reset_after,
    }
    try:
        config, warnings = load_lenient(home / SHIM_FILE, overrides)
    except KioskConfigError as exc:  # the command line: whoever typed it sees this at once
        print(f"royalnine: {exc}", file=sys.stderr)
        return 2
    log_path = setup_logging(home)
    from petitcom_shim.config import load_config_lenient

    # a typo in shim.toml costs only the value concerned (one warning line each)
    shim, shim_warnings = load_config_lenient(home / SHIM_FILE, program_tables=PROGRAM_TABLES)
    warnings += shim_warnings
    shim = dataclasses.replace(
        shim,
        top_display=config.top_display,
        bottom_display=config.bottom_display,
        hide_pointer=True,
        ignore_close=True,
        hot_keys=False,
        keep_fullscreen=True,
    )
    for line in warnings:
        log.warning("%s", line)
    # SDL would turn SIGTERM into a quit event, which the kiosk refuses: take the signals here.
    os.environ.setdefault("SDL_NO_SIGNAL_HANDLERS", "1")
    os.environ.setdefault("SDL_VIDEO_MINIMIZE_ON_FOCUS_LOSS", "0")
    stop: list[str] = []

    def on_signal(signum: int, _frame: object) -> None:
        stop.append(signal.Signals(signum).name)

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, on_signal)
    log.info("kiosk starting in %s (log %s)", home, log_path or "stderr only")
    try:
        return _serve(args, storage, config, shim, stop, warnings)
    except Exception as exc:
        log.exception("unexpected error, exiting so the service manager restarts the kiosk")
        _record_crash(storage, exc)
        return 1


def _record_crash(storage: Any, exc: Exception) -> None:
    """Note the error as the reason of the coming restart (best effort)."""
    from royalnine.kiosk.stats import StatsBook

    try:
        book = StatsBook(storage.home, time.time, storage.set_aside)
        book.end_run(f"restarted after an error: {type(exc).__name__}: {exc}")
    except Exception:  # already failing; the log has the traceback
        log.exception("could not record the crash in the statistics")


def _serve(
    args: argparse.Namespace,
    storage: Any,
    config: Any,
    shim: Any,
    stop: list[str],
    warnings: list[str],
) -> int:
    import pygame

    from petitcom_shim import Machine
    from petitcom_shim.display import distinct_displays
    from royalnine.cli.play import SHIM_FILE
    from royalnine.kiosk.controller import new_kiosk
    from royalnine.kiosk.service import Notifier, StatusFile

    try:
        pygame.display.init()
        nowhere = pygame.display.get_driver() in ("offscreen", "dummy") and not os.environ.get(
            "SDL_VIDEODRIVER"
        )
    except pygame.error:  # the driver SDL_VIDEODRIVER names has no server (yet)
        nowhere = True
    if nowhere:
        # SDL found no display and fell back to drawing nowhere: a kiosk nobody can see
        # would look alive to the service manager forever. Exit, so that it retries.
        log.error(
            "no display to open a window on (is DISPLAY or WAYLAND_DISPLAY set, "
            "and may this user use it?): exiting so the service manager tries again"
        )
        return 1
    monitors = pygame.display.get_num_displays()
    wanted = (shim.top_display, shim.bottom_display)
    if distinct_displays(*wanted):
        layout = "separate"
        log.info(
            "two screens: top on monitor %d, bottom on monitor %d",
            shim.top_display,
            shim.bottom_display,
        )
    elif monitors >= 2 and wanted[0] != wanted[1] and max(wanted) < monitors:
        layout = "vertical"
        log.warning(
            "monitors %d and %d share one desktop area (two X screens or mirrored monitors), "
            "where SDL cannot open a window on each: falling back to the vertical layout in "
            "one fullscreen window (make them two monitors of one X screen with xrandr)",
            *wanted,
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
    notifier = Notifier()
    try:
        app = new_kiosk(m, storage, config, seed=args.seed, start=args.start)
        exposed = world_readable_secret(storage.home / SHIM_FILE) if config.pin else ""
        if exposed:
            app.operator_notices.append(exposed)
        if app.pin.notice:
            app.operator_notices.append(app.pin.notice)
        for line in app.operator_notices:
            log.warning("%s", line)
        app.operator_notices += warnings  # already logged
        heartbeat = Heartbeat(app, notifier, StatusFile(storage.home, time.time()), layout)
        app.on_frame.append(heartbeat)
        while app.stop_reason is None:
            app.tick()
            if stop:
                app.request_stop(f"stopped by {stop[0]}", 0)
        log.info("kiosk stopping: %s (exit status %d)", app.stop_reason, app.exit_code)
        notifier.stopping(app.stop_reason)
        app.book.end_run(app.stop_reason)
        heartbeat.write_status("stopping")
        return app.exit_code
    finally:
        notifier.close()
        m.close()


class Heartbeat:
    """Called after every kiosk frame: watchdog pings, state for the service manager,
    and the status file (docs/kiosk.md, "Watchdog and status file")."""

    def __init__(self, app: Any, notifier: Any, status: Any, layout: str) -> None:
        self.app = app
        self.notifier = notifier
        self.status = status
        self.layout = layout
        self.readied = False

    def state(self) -> str:
        """A short name of what the kiosk shows: attract, title, match, operator, ..."""
        now = self.app.state()
        if now["countdown"]:
            return "still-there countdown"
        name = str(now["scene"]).removesuffix("Scene").removeprefix("Kiosk").lower()
        return f"{name} (match going)" if now["mid_match"] and name != "match" else name

    def __call__(self, app: Any) -> None:
        if app.frames == WINDOW_CHECK_FRAME:
            self.check_windows()
        if self.readied and app.frames % BEAT_EVERY:
            return  # pings, status and the status file are all on a scale of seconds
        state = self.state()
        if not self.readied:
            self.readied = True
            self.notifier.ready(state)
        else:
            self.notifier.status(state)
        self.notifier.tick(time.monotonic())
        if self.status.due(time.time()):
            self.write_status(state)

    def check_windows(self) -> None:
        """A few seconds in (the window manager has answered by then): say if a window
        does not cover its monitor, which the desktop's settings must then allow."""
        uncovered = getattr(self.app.m.frontend, "uncovered", None)
        for line in uncovered() if uncovered is not None else []:
            log.warning("%s: check the window manager's settings (docs/kiosk.md)", line)

    def write_status(self, state: str) -> None:
        """Rewrite the status file now."""
        book = self.app.book
        stats = book.stats
        reason = stats.last_restart.get("reason", "")
        crash = reason if reason.startswith(("restarted after an error", "unexpected")) else ""
        self.status.write(
            time.time(),
            {
                "state": state,
                "layout": self.layout,
                "frames": self.app.frames,
                "last_error": book.last_error or crash,
                "last_restart": dict(stats.last_restart),
                "statistics_save_errors": book.save_errors,
                "totals": {
                    **stats.counters,
                    **{f"matches_{k}": v for k, v in stats.matches.items()},
                },
            },
        )
