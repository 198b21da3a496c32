"""The operator PIN: stored hashed, with a lock-out that grows after wrong tries.

The PIN lives in ``HOME/kiosk-pin.json`` (owner-only, mode 0600) as a salted
PBKDF2-SHA256 hash, together with the wrong tries so far and when the pad
opens again, so a restart does not reset the lock-out. It is set only with
``royalnine kiosk --set-pin`` (the PIN on standard input), never on the kiosk's
own screens: whoever first reached a "choose a PIN" pad would own the kiosk.

After :data:`FREE_TRIES` wrong PINs the pad locks for :data:`FIRST_LOCK`
seconds, and each further wrong PIN doubles that, up to :data:`MAX_LOCK`:
guessing 4 digits then takes years rather than the 11 hours it took with
three tries and a walk back. The right PIN clears the count.

There are two ways to the pad, each with a lock-out of its own
(:data:`WAYS`): the touchscreen gesture, which every visitor has, and the key
chord, which needs a keyboard the operator plugs in. A visitor who locks the
touch pad does not lock out the operator at the keyboard. ``--set-pin`` (the
same PIN again will do) clears both. Tries refused during a lock-out are not
logged one by one (a visitor tapping OK every 2 s would rotate the log's
history away): the first one says the pad is locked, and one line sums them
up when the lock-out is over.

A ``pin = "…"`` in the ``[kiosk]`` table of shim.toml (the old way) still works,
hashed in memory; the log asks to move it out of the plain-text file.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from royalnine.core.files import UnreadableFile, load_json, write_atomic

PIN_FILE = "kiosk-pin.json"
MAX_PIN_FILE_BYTES = 4_000
MIN_NEW_PIN, MAX_PIN = 4, 8
ITERATIONS = 100_000
FREE_TRIES = 3
FIRST_LOCK = 30.0
MAX_LOCK = 3600.0
WAYS = ("touch", "chord")
"""The ways to the PIN pad, each locked on its own: the gesture and the key chord."""
log = logging.getLogger("royalnine.kiosk")


@dataclass
class Lockout:
    """The wrong tries of one way to the pad, and the tries refused while it was locked."""

    failures: int = 0
    locked_until: float = 0.0
    refused: int = 0
    refused_since: float = 0.0


def hash_pin(pin: str, salt: str | None = None, iterations: int = ITERATIONS) -> str:
    """``pbkdf2_sha256$ITERATIONS$SALT$HASH`` (hex) of ``pin``."""
    salt = salt or secrets.token_hex(16)
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(salt), iterations)
    return f"pbkdf2_sha256${iterations}${salt}${digest.hex()}"


def pin_matches(pin: str, stored: str) -> bool:
    """Whether ``pin`` hashes to ``stored`` (compared in constant time)."""
    try:
        kind, rounds, salt, _ = stored.split("$")
        if kind != "pbkdf2_sha256" or not 1 <= int(rounds) <= 10_000_000:
            return False
        return hmac.compare_digest(hash_pin(pin, salt, int(rounds)), stored)
    except ValueError:
        return False


def new_pin_problem(pin: str) -> str:
    """Why ``pin`` cannot be a new PIN ("" if it can)."""
    if not (pin.isascii() and pin.isdigit() and MIN_NEW_PIN <= len(pin) <= MAX_PIN):
        return f"a PIN is {MIN_NEW_PIN}-{MAX_PIN} digits"
    return ""


class PinLock:
    """The PIN hash and the lock-outs of one kiosk folder.

    Args:
        home: the kiosk's folder.
        clock: seconds since the epoch.
        plain: a plain PIN from shim.toml ("" for none): used when no PIN file is set.

    Attributes:
        notice: one line for the operator menu when the PIN file was damaged.
        locks: the lock-out of each way to the pad (:data:`WAYS`).
    """

    def __init__(self, home: Path, clock: Callable[[], float], plain: str = "") -> None:
        self.path = home / PIN_FILE
        self.clock = clock
        self.notice = ""
        self.hash = ""
        self.locks = {way: Lockout() for way in WAYS}
        self._plain_hash = hash_pin(plain) if plain else ""
        self._seen: tuple[int, int, int] | None = None  # the file as last read or written
        self._reload(first=True)
        if self.hash == self._plain_hash and plain:
            log.warning(
                "the operator PIN is plain text in shim.toml: set it with `royalnine kiosk "
                "--home DIR --set-pin` (stored hashed) and delete the pin line"
            )

    @property
    def failures(self) -> int:
        """Wrong tries in a row on the touchscreen."""
        return self.locks["touch"].failures

    def _reload(self, *, first: bool = False) -> None:
        """Read the PIN file again: a PIN set with ``--set-pin`` (or the file deleted for a
        forgotten PIN) while the kiosk runs counts at once, and the next save never puts
        the old hash back over it. A file that cannot be read later on keeps what was read
        before (a damaged file must not open the pad to whoever sets a new PIN). A file
        nobody else changed is not read: what is in memory counts (wrong tries a
        read-only home could not save still lock the pad)."""
        seen = self._signature()
        if not first and seen == self._seen:
            return
        try:
            doc = load_json(self.path, MAX_PIN_FILE_BYTES)
        except FileNotFoundError:
            doc = {}
        except UnreadableFile as exc:
            if not first:
                return
            doc = {}
            self.notice = f"{PIN_FILE} unreadable ({exc}): set a new PIN with --set-pin"
            log.warning("%s", self.notice)
        self._seen = seen
        self.hash = ""
        for way, lock in self.locks.items():
            lock.failures, lock.locked_until = 0, 0.0
            if isinstance(doc, dict):
                prefix = "" if way == "touch" else f"{way}_"
                failures, until = doc.get(prefix + "failures"), doc.get(prefix + "locked_until")
                lock.failures = failures if isinstance(failures, int) and failures > 0 else 0
                lock.locked_until = float(until) if isinstance(until, int | float) else 0.0
        if isinstance(doc, dict):
            stored = doc.get("hash")
            self.hash = stored if isinstance(stored, str) else ""
        self.hash = self.hash or self._plain_hash

    def _signature(self) -> tuple[int, int, int] | None:
        """The PIN file's inode, size and change time (None when there is none)."""
        try:
            st = self.path.stat()
        except OSError:
            return None
        return (st.st_ino, st.st_size, st.st_mtime_ns)

    @property
    def is_set(self) -> bool:
        """Whether an operator PIN exists (the file is read again: see :meth:`_reload`)."""
        self._reload()
        return bool(self.hash)

    def locked_for(self, way: str = "touch") -> float:
        """Seconds until the pad takes a PIN again by ``way`` (0 when it does now).

        Never more than :data:`MAX_LOCK`: a clock set back after a wrong try (or a
        far-future time in the file) must not lock the pad for years. The first call
        after a lock-out ends logs how many tries it refused.
        """
        lock = self.locks[way]
        now = self.clock()
        lock.locked_until = min(lock.locked_until, now + MAX_LOCK)
        left = max(0.0, lock.locked_until - now)
        if not left:
            self.summarise(way)
        return left

    def summarise(self, way: str) -> None:
        """Log, in one line, the tries refused during the lock-out of ``way`` (if any)."""
        lock = self.locks[way]
        if lock.refused:
            since = time.strftime("%H:%M:%S", time.localtime(lock.refused_since))
            log.warning(
                "operator PIN pad (%s): %d tries refused while it was locked (since %s)",
                way,
                lock.refused,
                since,
            )
            lock.refused = 0

    def attempt(self, pin: str, way: str = "touch") -> bool:
        """Check a typed PIN; a wrong one counts towards the lock-out of ``way``.
        False while that way is locked (counted, logged once and summed up later)."""
        self._reload()
        lock = self.locks[way]
        wait_left = self.locked_for(way)
        if wait_left > 0:
            if not lock.refused:
                lock.refused_since = self.clock()
                log.warning(
                    "operator PIN refused (%s): the pad is locked for %.0f s; further tries "
                    "are summed up when the lock-out is over",
                    way,
                    wait_left,
                )
            lock.refused += 1
            return False
        if pin_matches(pin, self.hash):
            if lock.failures:
                log.info("operator PIN right after %d wrong tries (%s)", lock.failures, way)
            lock.failures, lock.locked_until = 0, 0.0
            self._save()
            return True
        lock.failures += 1
        wait = 0.0
        if lock.failures >= FREE_TRIES:
            # the doubling stops at MAX_LOCK (2**n of a huge count would not fit a float)
            doublings = min(lock.failures - FREE_TRIES, 32)
            wait = min(MAX_LOCK, FIRST_LOCK * 2**doublings)
            lock.locked_until = self.clock() + wait
        log.warning(
            "wrong operator PIN (%d in a row, %s)%s",
            lock.failures,
            way,
            f": the pad is locked for {wait:.0f} s" if wait else "",
        )
        self._save()
        return False

    def set_pin(self, pin: str) -> None:
        """Store a new PIN (hashed) and clear every lock-out; raises ValueError for a bad
        one, OSError if not saved."""
        problem = new_pin_problem(pin)
        if problem:
            raise ValueError(problem)
        self.hash = hash_pin(pin)
        for lock in self.locks.values():
            lock.failures, lock.locked_until = 0, 0.0
        self._save(strict=True)
        log.info("operator PIN set (stored hashed in %s)", self.path.name)

    def _save(self, *, strict: bool = False) -> None:
        doc: dict[str, object] = {"hash": self.hash}
        for way, lock in self.locks.items():
            prefix = "" if way == "touch" else f"{way}_"
            doc[prefix + "failures"] = lock.failures
            doc[prefix + "locked_until"] = lock.locked_until
        try:
            # write_atomic's temporary file is created owner-only (0600) and renamed over
            write_atomic(self.path, json.dumps(doc) + "\n")
            self._seen = self._signature()
        except OSError as exc:
            log.warning("could not save %s: %s", self.path.name, exc.strerror or exc)
            if strict:
                raise
