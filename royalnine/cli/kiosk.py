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

from royalnine.cli import path_arg, whole_number

LOG_DIR = "logs"
LOG_FILE = "kiosk.log"
LOG_BYTES = 1_000_000
LOG_KEEP = 5
WINDOW_CHECK_FRAME = 180
"""The frame after which the kiosk checks that its windows cover their monitors."""
BEAT_EVERY = 6
"""The heartbeat looks at the kiosk every this many frames (10 times a second): enough
for watchdog pings and a status file measured in seconds, and an idle kiosk spends
less on it than on every frame."""
KEEP_EVERY = 30
"""Frames between two looks at the windows through X (twice a second)."""
HIDDEN_GIVE_UP = 5.0
"""Seconds the windows may stay hidden in spite of being brought back before the kiosk
stops its watchdog pings (with WatchdogSec=6 the service restarts it some 6 s later)."""
log = logging.getLogger("royalnine.kiosk")


def add_parser(subparsers: Any) -> None:
    """Register ``kiosk``."""
    p = subparsers.add_parser("kiosk", help="run as an unattended dual-screen kiosk")
    p.add_argument(
        "--home", type=path_arg, metavar="DIR", default=None, help="the kiosk's data folder"
    )
    p.add_argument(
        "--top-display",
        type=whole_number,
        metavar="N",
        default=None,
        help="monitor of the top screen",
    )
    p.add_argument(
        "--bottom-display", type=whole_number, metavar="M", default=None, help="the touch monitor"
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
    p.add_argument("--seed", type=whole_number, default=None, help=argparse.SUPPRESS)
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
    if _back_off(home, stop):
        return 0
    try:
        return _serve(args, storage, config, shim, stop, warnings)
    except Exception as exc:
        log.exception("unexpected error, exiting so the service manager restarts the kiosk")
        _record_crash(storage, exc)
        return 1


def _back_off(home: Path, stop: list[str]) -> bool:
    """Wait before opening the windows when the kiosk keeps being started again quickly
    (kiosk.service.start_delay); True if a signal stopped it meanwhile."""
    from royalnine.kiosk.service import QUICK_GAP, Notifier, start_delay

    delay, streak = start_delay(home, time.time())
    if not delay:
        return False
    why = (
        f"started {streak + 1} times in a row within {QUICK_GAP:.0f} s of each other: "
        f"waiting {delay:.0f} s before opening the windows (crash-loop back-off)"
    )
    log.warning("%s", why)
    notifier = Notifier()
    notifier.extend_start(delay + 60, why)  # READY=1 comes later than TimeoutStartSec
    notifier.close()
    end = time.monotonic() + delay
    while time.monotonic() < end and not stop:
        time.sleep(0.2)
    return bool(stop)


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
    from royalnine.cli.play import SHIM_FILE
    from royalnine.kiosk.controller import new_kiosk
    from royalnine.kiosk.pin import WAYS
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
    layout, level, line = two_screen_layout(shim.top_display, shim.bottom_display)
    log.log(level, "%s", line)
    m = Machine(
        layout=layout, scale=0, fullscreen=not args.windowed, title="Royal Nine", config=shim
    )
    notifier = Notifier()
    heartbeat: Heartbeat | None = None
    try:
        app = new_kiosk(m, storage, config, seed=args.seed, start=args.start)
        exposed = world_readable_secret(storage.home / SHIM_FILE) if config.pin else ""
        if exposed:
            app.operator_notices.append(exposed)
        if not app.pin.is_set:
            log.warning(
                "no operator PIN is set: the operator menu stays locked until one is set "
                "with `royalnine kiosk --home %s --set-pin`",
                storage.home,
            )
        for line in app.operator_notices:
            if line != app.book.frozen:  # (logged when the statistics were read)
                log.warning("%s", line)
        if app.pin.notice:  # (logged when the PIN file was read)
            app.operator_notices.append(app.pin.notice)
        app.operator_notices += warnings  # already logged
        heartbeat = Heartbeat(app, notifier, StatusFile(storage.home, time.time()), layout)
        heartbeat.keeper = _window_keeper(m, args.windowed)
        app.on_frame.append(heartbeat)

        def x_server_lost() -> None:
            log.error(
                "lost the connection to the X server: statistics saved, exiting (status 1) "
                "so the service manager starts the kiosk again"
            )
            app.book.end_run("the X server went away")
            notifier.stopping("the X server went away")
            heartbeat.write_status("x server lost")

        if pygame.display.get_driver() == "x11":
            from royalnine.kiosk.x11 import on_connection_lost

            on_connection_lost(x_server_lost)
        while app.stop_reason is None:
            app.tick()
            if stop:
                app.request_stop(f"stopped by {stop[0]}", 0)
        log.info("kiosk stopping: %s (exit status %d)", app.stop_reason, app.exit_code)
        for way in WAYS:  # tries refused during a lock-out still going
            app.pin.summarise(way)
        notifier.stopping(app.stop_reason)
        app.book.end_run(app.stop_reason)
        heartbeat.write_status("stopping")
        return app.exit_code
    finally:
        notifier.close()
        if heartbeat is not None and heartbeat.keeper is not None:
            heartbeat.keeper.close()
        m.close()


def _window_keeper(m: Any, windowed: bool) -> Any:
    """A :class:`~royalnine.kiosk.x11.WindowKeeper` for the kiosk's fullscreen X windows,
    or None (windowed, not on X, or libX11 unusable: then SDL's own keep_fullscreen is all)."""
    import pygame

    from petitcom_shim.display import display_origin

    if windowed or pygame.display.get_driver() != "x11":
        return None
    from royalnine.kiosk.x11 import WindowKeeper

    sizes = pygame.display.get_desktop_sizes()
    monitors = {}
    for entry in getattr(m.frontend, "windows", []):
        if entry.display < len(sizes):
            monitors[entry.window.title] = (*display_origin(entry.display), *sizes[entry.display])
    try:
        keeper = WindowKeeper(monitors, time.monotonic)
    except OSError as exc:
        log.warning("cannot watch the windows through X (%s): a desktop key may hide them", exc)
        return None
    if hasattr(m.frontend, "reshow"):

        def reshow(window: Any) -> None:  # never SDL's show, which waits for a map
            for line in keeper.check([str(window.title)]):
                log.warning("%s", line)

        m.frontend.reshow = reshow
    return keeper


def two_screen_layout(top: int, bottom: int) -> tuple[str, int, str]:
    """Fullscreen on monitors ``top`` and ``bottom``: the layout that can show both
    screens, with a log level and a line saying why.

    ``separate`` (a window on each monitor) only when SDL can put a window on each;
    two X screens, mirrored monitors, one monitor or monitor numbers that do not
    exist would put both fullscreen windows on one monitor, the bottom one covering
    the top one, so the two screens then share one fullscreen window (``vertical``).
    ``royalnine play --layout separate --fullscreen`` falls back the same way.
    """
    import pygame

    from petitcom_shim.display import distinct_displays

    monitors = pygame.display.get_num_displays()
    if distinct_displays(top, bottom):
        return (
            "separate",
            logging.INFO,
            f"two screens: top on monitor {top}, bottom on monitor {bottom}",
        )
    if monitors >= 2 and top != bottom and max(top, bottom) < monitors:
        return (
            "vertical",
            logging.WARNING,
            f"monitors {top} and {bottom} share one desktop area (two X screens or mirrored "
            "monitors), where SDL cannot open a window on each: falling back to the vertical "
            "layout in one fullscreen window (make them two monitors of one X screen with "
            "xrandr)",
        )
    if monitors >= 2:
        return (
            "vertical",
            logging.WARNING,
            f"{monitors} monitors but top_display {top} / bottom_display {bottom} do not name "
            "two of them: falling back to the vertical layout in one fullscreen window",
        )
    return (
        "vertical",
        logging.INFO,
        "one monitor found: falling back to the vertical layout in one fullscreen window",
    )


class Heartbeat:
    """Called after every kiosk frame: watchdog pings, state for the service manager,
    and the status file (docs/kiosk.md, "Watchdog and status file").

    With a :attr:`keeper` (on X) it also looks at the windows twice a second and
    brings back any a window manager hid; windows that stay hidden for
    :data:`HIDDEN_GIVE_UP` seconds make the state ``hidden`` and stop the watchdog
    pings, so the service manager restarts a kiosk nobody can see.
    """

    def __init__(self, app: Any, notifier: Any, status: Any, layout: str) -> None:
        self.app = app
        self.notifier = notifier
        self.status = status
        self.layout = layout
        self.readied = False
        self.keeper: Any = None
        self.gave_up = False
        self.status_failed = False

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
        if self.keeper is not None and app.frames % KEEP_EVERY == 0:
            self.keep_windows()
        state = "hidden" if self.gave_up else self.state()
        if not self.readied:
            self.readied = True
            self.notifier.ready(state)
        else:
            self.notifier.status(state)
        if not self.gave_up:  # a kiosk nobody can see lets the watchdog restart it
            self.notifier.tick(time.monotonic())
        if self.status.due(time.time()):
            self.write_status(state)

    def keep_windows(self) -> None:
        """Bring back hidden windows; give up (state ``hidden``, no pings) if they stay so."""
        for line in self.keeper.check():
            log.warning("%s", line)
        hidden = self.keeper.hidden_for() >= HIDDEN_GIVE_UP
        if hidden and not self.gave_up:
            log.error(
                "the kiosk's windows stayed hidden for %.0f s: watchdog pings stopped so "
                "the service manager restarts the kiosk",
                HIDDEN_GIVE_UP,
            )
        elif self.gave_up and not hidden:
            log.warning("the kiosk's windows can be seen again: watchdog pings resumed")
        self.gave_up = hidden

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
        written = self.status.write(
            time.time(),
            {
                "state": state,
                "layout": self.layout,
                "frames": self.app.frames,
                "last_error": book.last_error or crash,
                "last_restart": dict(stats.last_restart),
                "statistics_save_errors": book.save_errors,
                "operator_pin_set": self.app.pin.is_set,
                "totals": {
                    **stats.counters,
                    **{f"matches_{k}": v for k, v in stats.matches.items()},
                },
            },
        )
        if not written and not self.status_failed:  # once a streak: it is tried every 5 s
            line = f"status file not written: {self.status.last_failure}"
            log.warning("%s (monitoring sees it stale until it is)", line)
            self.app.operator_notices.append(line)
        elif written and self.status_failed:
            log.info("status file written again (%d writes had failed)", self.status.failures)
        self.status_failed = not written
