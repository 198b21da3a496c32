"""One program at a time on a data folder: a lock file held for the program's lifetime.

Two ``royalnine`` windows on the same home both offered and resumed the same
saved match, and each overwrote the other's save and history. The game, the
kiosk and the ``remote`` commands that write now take an exclusive ``flock`` on
``HOME/royalnine.lock`` first (:func:`hold`); a second one is refused in one line
that names the first one's process id. The kernel releases a ``flock`` when its
holder ends however it ends (a kill, a crash, a power cut ends everything), so a
stale lock file never blocks: only a running holder does.

Programs that only read (``review``, ``remote status``, ``kiosk --stats-csv``)
take no lock, but :func:`busy` tells :class:`~royalnine.storage.Storage` not to
remove "interrupted writes" that may be the running program's writes in flight.

Where ``fcntl`` does not exist (Windows) there is no lock, and nothing is refused.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import TracebackType

from royalnine.core.errors import RoyalNineError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no flock, no guard
    fcntl = None  # type: ignore[assignment]

LOCK_FILE = "royalnine.lock"
"""The lock file in the data folder; it holds the holder's process id, for the message."""

_held: dict[Path, HomeLock] = {}
"""The data folders this process holds (a second open of the lock file in the same process
would be refused by flock too: the holder's own Storage asks here first)."""


class HomeInUse(RoyalNineError):
    """Another program holds the data folder; ``str()`` is the one line to print."""


def _key(home: Path) -> Path:
    try:
        return home.expanduser().resolve()
    except OSError:
        return home.expanduser().absolute()


class HomeLock:
    """A held lock on a data folder (a context manager; :meth:`release` ends it)."""

    def __init__(self, home: Path, fd: int | None) -> None:
        self.home = home
        self._fd = fd
        """The lock file, open and locked; None where the folder cannot hold one."""
        self.holds = 1
        """How many :func:`hold` calls of this process have it and not released it."""

    def release(self) -> None:
        """One holder is done; the last one lets another program have the folder (the
        process's end does that too)."""
        self.holds -= 1
        if self.holds > 0:
            return
        if _held.get(_key(self.home)) is self:
            del _held[_key(self.home)]
        if self._fd is not None:
            os.close(self._fd)  # closing the only descriptor drops the flock
            self._fd = None

    def __enter__(self) -> HomeLock:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()


def _open(home: Path) -> int | None:
    """The lock file opened for writing (created, with the folder, if need be); None if the
    folder cannot hold one (not a folder, read-only: Storage says so in its own words)."""
    try:
        home.mkdir(parents=True, exist_ok=True)
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        return os.open(home / LOCK_FILE, flags, 0o644)
    except OSError:
        return None


def _holder(fd: int) -> str:
    """The holder's process id as its lock file says, or "" if it says nothing readable."""
    try:
        text = os.pread(fd, 32, 0).decode("ascii", errors="replace").strip()
    except OSError:
        return ""
    return text if text.isascii() and text.isdigit() else ""


def hold(home: Path, what: str = "Royal Nine") -> HomeLock:
    """Take the data folder ``home`` for this process, or raise :class:`HomeInUse`.

    ``what`` names this program in the refusal's advice. Taking a folder this process
    already holds returns the same lock, which it keeps until every taker released it.
    """
    key = _key(home)
    if key in _held:
        _held[key].holds += 1
        return _held[key]
    fd = _open(home)
    if fd is None or fcntl is None:
        if fd is not None:
            os.close(fd)
        lock = HomeLock(home, None)
        _held[key] = lock
        return lock
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        pid = _holder(fd)
        os.close(fd)
        who = f"another Royal Nine (process {pid})" if pid else "another Royal Nine"
        raise HomeInUse(
            f"the data folder {home} is in use by {who}; close it first, "
            f"or give this {what} its own folder with --home DIR"
        ) from None
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
    except OSError:
        pass  # the lock holds all the same; only the message loses the process id
    lock = HomeLock(home, fd)
    _held[key] = lock
    return lock


def busy(home: Path) -> bool:
    """True if another process holds ``home`` now (this process's own hold is not busy)."""
    if fcntl is None or _key(home) in _held:
        return False
    try:
        fd = os.open(home / LOCK_FILE, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return False  # no lock file: nobody has held the folder
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)  # (a shared lock taken for the test goes with it)
    return False
