"""Telling the service manager and monitoring tools that the kiosk is alive.

* :class:`Notifier` speaks systemd's notify protocol (``sd_notify``) without a
  library: each message is one datagram of ``KEY=value`` lines sent to the
  Unix socket named by ``$NOTIFY_SOCKET`` (a leading ``@`` names an abstract
  socket). ``READY=1`` once the first frame is drawn (the unit is
  ``Type=notify``), ``WATCHDOG=1`` from the frame loop at half the
  ``$WATCHDOG_USEC`` interval, ``STATUS=`` when the kiosk's state changes and
  ``STOPPING=1`` at the end. A kiosk that hangs, or is frozen with SIGSTOP,
  stops pinging and the service manager kills and restarts it.
* :class:`StatusFile` rewrites ``HOME/kiosk-status.json`` every few seconds
  (atomically): state, pid, uptime, the last error and the statistics totals,
  for any monitoring tool.

Without ``$NOTIFY_SOCKET`` (not started by systemd) the notifier does nothing.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from royalnine.core.files import UnreadableFile, load_json, write_atomic

STATUS_FILE = "kiosk-status.json"
STATUS_EVERY = 5.0
"""Seconds between rewrites of the status file."""
STARTS_FILE = "kiosk-starts.json"
QUICK_GAP = 120.0
"""A start less than this many seconds after the one before continues a crash loop."""
FREE_QUICK_STARTS = 3
"""Quick restarts in a row that wait nothing (an operator RESTART, a kill, X restarting)."""
MAX_START_DELAY = 60.0


class Notifier:
    """``sd_notify`` as datagrams to ``$NOTIFY_SOCKET`` (nothing at all without it).

    Args:
        environ: the environment to read ``NOTIFY_SOCKET``, ``WATCHDOG_USEC`` and
            ``WATCHDOG_PID`` from (``os.environ``).

    Attributes:
        interval: seconds between watchdog pings (half the service manager's
            timeout), or None when no watchdog was asked for.
        sent: every message sent, oldest first (the last 20), for tests.
    """

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        where = env.get("NOTIFY_SOCKET", "")
        self._address = "\0" + where[1:] if where.startswith("@") else where
        self._socket: socket.socket | None = None
        self.interval: float | None = None
        self.sent: list[str] = []
        self._last_ping = float("-inf")
        self._status = ""
        pid = env.get("WATCHDOG_PID", "")
        usec = env.get("WATCHDOG_USEC", "")
        if (
            usec.isascii()
            and usec.isdigit()
            and int(usec) > 0
            and (not pid or pid == str(os.getpid()))
        ):
            self.interval = int(usec) / 2_000_000

    @property
    def active(self) -> bool:
        """Whether a service manager listens."""
        return bool(self._address)

    def send(self, message: str) -> bool:
        """Send one message; False if there is no socket or it refused (never raises)."""
        if not self._address:
            return False
        try:
            if self._socket is None:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
                self._socket.setblocking(False)
            self._socket.sendto(message.encode("utf-8", "backslashreplace"), self._address)
        except OSError:
            return False
        self.sent = [*self.sent[-19:], message]
        return True

    def ready(self, status: str) -> None:
        """The kiosk is up and drawing."""
        self._status = status
        self.send(f"READY=1\nSTATUS={status}\nMAINPID={os.getpid()}")

    def status(self, status: str) -> None:
        """What the kiosk is doing, when it changes (``systemctl status`` shows it)."""
        if status != self._status:
            self._status = status
            self.send(f"STATUS={status}")

    def tick(self, now: float) -> None:
        """Called every frame: a watchdog ping when one is due."""
        due = self.interval is not None and now - self._last_ping >= self.interval
        if due and self.send("WATCHDOG=1"):
            self._last_ping = now

    def extend_start(self, seconds: float, status: str) -> None:
        """Ask for ``seconds`` more before READY=1 is due (TimeoutStartSec), saying why."""
        self.send(f"EXTEND_TIMEOUT_USEC={int(seconds * 1_000_000)}\nSTATUS={status}")

    def stopping(self, status: str) -> None:
        """The kiosk is stopping on purpose."""
        self.send(f"STOPPING=1\nSTATUS={status}")

    def close(self) -> None:
        """Close the socket."""
        if self._socket is not None:
            self._socket.close()
            self._socket = None


class StatusFile:
    """``HOME/kiosk-status.json``, rewritten atomically at most every :data:`STATUS_EVERY` s.

    A write that fails (full disk, read-only home) is counted (``failures``, with
    the reason in ``last_failure``) and tried again at the next interval; it never
    stops the kiosk. The file itself then says how many writes failed.
    """

    def __init__(self, home: Path, started: float) -> None:
        self.path = home / STATUS_FILE
        self.started = started
        self.failures = 0
        self.last_failure = ""
        self._written = float("-inf")

    def due(self, now: float) -> bool:
        """Whether the next rewrite is due (also when the clock was set back since)."""
        return not 0 <= now - self._written < STATUS_EVERY

    def write(self, now: float, fields: dict[str, Any]) -> bool:
        """Rewrite the file with ``fields`` plus pid, start, update time and uptime."""
        self._written = now
        doc = {
            "pid": os.getpid(),
            "started": _iso(self.started),
            "updated": _iso(now),
            "uptime_s": round(max(0.0, now - self.started), 1),
            "status_write_errors": self.failures,
            **fields,
        }
        try:
            write_atomic(self.path, json.dumps(doc, indent=1, sort_keys=True) + "\n")
        except OSError as exc:
            self.failures += 1
            self.last_failure = str(exc.strerror or exc)
            return False
        return True


def _iso(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def start_delay(home: Path, now: float) -> tuple[float, int]:
    """The crash-loop back-off: seconds to wait before this start opens its windows, and
    how many quick starts came before it in a row.

    The unit restarts the kiosk 2 s after any failure and never gives up (systemd 252,
    Debian 12's, cannot grow that delay itself: RestartSteps= came in 254). So the kiosk
    notes each start in ``HOME/kiosk-starts.json``; a start within :data:`QUICK_GAP`
    seconds of the one before continues a loop. After :data:`FREE_QUICK_STARTS` such
    starts the wait doubles from 2 s up to :data:`MAX_START_DELAY`, and one run that
    lasts starts the count again. A file that cannot be read or written means no wait.
    """
    path = home / STARTS_FILE
    try:
        doc = load_json(path, 1000)
    except (FileNotFoundError, UnreadableFile):
        doc = {}
    last = doc.get("last_start") if isinstance(doc, dict) else None
    quick = doc.get("quick") if isinstance(doc, dict) else None
    loop = isinstance(last, int | float) and 0 <= now - last < QUICK_GAP
    streak = min(int(quick), 1000) + 1 if loop and isinstance(quick, int) and quick >= 0 else 0
    with contextlib.suppress(OSError):  # (a full disk: no back-off, the statistics say why)
        write_atomic(path, json.dumps({"last_start": now, "quick": streak}) + "\n")
    extra = streak - FREE_QUICK_STARTS + 1
    return (0.0 if extra <= 0 else min(MAX_START_DELAY, 2.0**extra)), streak
