"""The operator PIN: stored hashed, with a lock-out that grows after wrong tries.

The PIN lives in ``HOME/kiosk-pin.json`` (owner-only, mode 0600) as a salted
PBKDF2-SHA256 hash, together with the wrong tries so far and when the pad
opens again, so a restart does not reset the lock-out. It is set on the PIN
pad the first time the operator menu is opened (typed twice), or with
``royalnine kiosk --set-pin`` (the PIN on standard input).

After :data:`FREE_TRIES` wrong PINs the pad locks for :data:`FIRST_LOCK`
seconds, and each further wrong PIN doubles that, up to :data:`MAX_LOCK`:
guessing 4 digits then takes years rather than the 11 hours it took with
three tries and a walk back. The right PIN clears the count.

A ``pin = "…"`` in the ``[kiosk]`` table of shim.toml (the old way) still works,
hashed in memory; the log asks to move it out of the plain-text file.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
from collections.abc import Callable
from pathlib import Path

from royalnine.core.files import UnreadableFile, load_json, write_atomic

PIN_FILE = "kiosk-pin.json"
MAX_PIN_FILE_BYTES = 4_000
MIN_NEW_PIN, MAX_PIN = 4, 8
ITERATIONS = 100_000
FREE_TRIES = 3
FIRST_LOCK = 30.0
MAX_LOCK = 3600.0
log = logging.getLogger("royalnine.kiosk")


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
    """The PIN hash and the lock-out of one kiosk folder.

    Args:
        home: the kiosk's folder.
        clock: seconds since the epoch.
        plain: a plain PIN from shim.toml ("" for none): used when no PIN file is set.

    Attributes:
        notice: one line for the operator menu when the PIN file was damaged.
    """

    def __init__(self, home: Path, clock: Callable[[], float], plain: str = "") -> None:
        self.path = home / PIN_FILE
        self.clock = clock
        self.notice = ""
        self.hash = ""
        self.failures = 0
        self.locked_until = 0.0
        self._plain_hash = hash_pin(plain) if plain else ""
        self._seen: tuple[int, int, int] | None = None  # the file as last read or written
        self._reload(first=True)
        if self.hash == self._plain_hash and plain:
            log.warning(
                "the operator PIN is plain text in shim.toml: set it with `royalnine kiosk "
                "--home DIR --set-pin` (stored hashed) and delete the pin line"
            )

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
            self.notice = f"{PIN_FILE} unreadable ({exc}): set a new PIN"
            log.warning("%s", self.notice)
        self._seen = seen
        self.hash, self.failures, self.locked_until = "", 0, 0.0
        if isinstance(doc, dict):
            stored = doc.get("hash")
            self.hash = stored if isinstance(stored, str) else ""
            failures, until = doc.get("failures"), doc.get("locked_until")
            self.failures = failures if isinstance(failures, int) and failures > 0 else 0
            self.locked_until = float(until) if isinstance(until, int | float) else 0.0
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

    def locked_for(self) -> float:
        """Seconds until the pad takes a PIN again (0 when it does now).

        Never more than :data:`MAX_LOCK`: a clock set back after a wrong try (or a
        far-future time in the file) must not lock the pad for years.
        """
        now = self.clock()
        self.locked_until = min(self.locked_until, now + MAX_LOCK)
        return max(0.0, self.locked_until - now)

    def attempt(self, pin: str) -> bool:
        """Check a typed PIN; a wrong one counts towards the lock-out. False while locked."""
        self._reload()
        if self.locked_for() > 0:
            log.warning("operator PIN refused: the pad is locked for %.0f s", self.locked_for())
            return False
        if pin_matches(pin, self.hash):
            if self.failures:
                log.info("operator PIN right after %d wrong tries", self.failures)
            self.failures, self.locked_until = 0, 0.0
            self._save()
            return True
        self.failures += 1
        wait = 0.0
        if self.failures >= FREE_TRIES:
            # the doubling stops at MAX_LOCK (2**n of a huge count would not fit a float)
            doublings = min(self.failures - FREE_TRIES, 32)
            wait = min(MAX_LOCK, FIRST_LOCK * 2**doublings)
            self.locked_until = self.clock() + wait
        log.warning(
            "wrong operator PIN (%d in a row)%s",
            self.failures,
            f": the pad is locked for {wait:.0f} s" if wait else "",
        )
        self._save()
        return False

    def set_pin(self, pin: str) -> None:
        """Store a new PIN (hashed); raises ValueError for a bad one, OSError if not saved."""
        problem = new_pin_problem(pin)
        if problem:
            raise ValueError(problem)
        self.hash = hash_pin(pin)
        self.failures, self.locked_until = 0, 0.0
        self._save(strict=True)
        log.info("operator PIN set (stored hashed in %s)", self.path.name)

    def _save(self, *, strict: bool = False) -> None:
        doc = {"hash": self.hash, "failures": self.failures, "locked_until": self.locked_until}
        try:
            # write_atomic's temporary file is created owner-only (0600) and renamed over
            write_atomic(self.path, json.dumps(doc) + "\n")
            self._seen = self._signature()
        except OSError as exc:
            log.warning("could not save %s: %s", self.path.name, exc.strerror or exc)
            if strict:
                raise
