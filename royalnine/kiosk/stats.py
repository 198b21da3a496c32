"""Visitor statistics of a kiosk, kept in ``HOME/kiosk-stats.json`` (no pygame here).

What is counted: sessions (a visitor's first touch to their return to the
attract loop), matches started / completed / abandoned (in total, by kind such
as ``cpu:hard`` or ``local``, and by day), visitor wins against the CPU, Royal
Nines and busts seen in visitors' matches, the length of completed matches,
touches, uptime, and the last restart with its reason.

Every save rewrites the whole file atomically (a temporary file beside it,
fsync, rename), so a kill at any moment leaves either the previous or the new
file. Reading is defensive: a file that is too large, not a regular file, not
JSON, nested absurdly deep or holding a value of the wrong type is renamed aside
(never deleted) and reported in one line for the operator menu; the kiosk goes
on with fresh statistics and never crashes over it. Temporary files left by an
interrupted write are removed at the next start (:func:`royalnine.core.files.clean_temp_files`).
"""

from __future__ import annotations

import csv
import io
import json
import logging
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from royalnine.core.files import (
    CannotRead,
    UnreadableFile,
    clean_temp_files,
    load_json,
    version_is,
    write_atomic,
)

log = logging.getLogger("royalnine.kiosk")

STATS_FILE = "kiosk-stats.json"
VERSION = 1
MAX_BYTES = 1_000_000
KEEP_LENGTHS = 1000
"""Completed-match lengths kept for the median (the mean uses every match)."""
KEEP_DAYS = 400
RESULTS = ("started", "completed", "abandoned")
DAY_FIELDS = ("sessions", *RESULTS)
COUNTERS = (
    "sessions",
    "touches",
    "visitor_wins",
    "cpu_wins",
    "draws_vs_cpu",
    "royal_nines",
    "busts",
    "length_count",
)


class StatsDamaged(ValueError):
    """The statistics file cannot be used; the message says why in a few words."""


class StatsUnreadable(StatsDamaged):
    """The statistics file could not be opened or read (e.g. no permission): it may be
    fine, so it is neither set aside nor overwritten."""


def _count(value: object, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise StatsDamaged(f"{where} is not a count")
    return value


def _seconds(value: object, where: str) -> float:
    if not isinstance(value, int | float) or isinstance(value, bool) or not 0 <= value < 1e12:
        raise StatsDamaged(f"{where} is not a number of seconds")
    return float(value)


def _text(value: object, where: str) -> str:
    if not isinstance(value, str) or len(value) > 200:
        raise StatsDamaged(f"{where} is not a short text")
    return value


def _results(value: object, where: str) -> dict[str, int]:
    if not isinstance(value, dict):
        raise StatsDamaged(f"{where} is not an object")
    return {k: _count(value.get(k, 0), f"{where}.{k}") for k in RESULTS}


def _day(day: str) -> bool:
    try:
        time.strptime(day, "%Y-%m-%d")
    except ValueError:
        return False
    return True


@dataclass
class KioskStats:
    """The counters; :meth:`to_doc` / :meth:`from_doc` are the file's JSON object."""

    counters: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COUNTERS, 0))
    matches: dict[str, int] = field(default_factory=lambda: dict.fromkeys(RESULTS, 0))
    by_kind: dict[str, dict[str, int]] = field(default_factory=dict)
    per_day: dict[str, dict[str, int]] = field(default_factory=dict)
    lengths: list[float] = field(default_factory=list)
    length_total: float = 0.0
    uptime: float = 0.0
    last_restart: dict[str, str] = field(default_factory=dict)
    run: dict[str, Any] = field(default_factory=dict)
    """The run that wrote the file: when it started and, once it ended cleanly, why."""

    # -- reading and writing --

    def to_doc(self) -> dict[str, Any]:
        """The JSON object written to the file."""
        return {
            "version": VERSION,
            **self.counters,
            "matches": dict(self.matches),
            "by_kind": {k: dict(v) for k, v in sorted(self.by_kind.items())},
            "per_day": {k: dict(v) for k, v in sorted(self.per_day.items())},
            "lengths": [round(x, 2) for x in self.lengths],
            "length_total": round(self.length_total, 2),
            "uptime": round(self.uptime, 1),
            "last_restart": dict(self.last_restart),
            "run": dict(self.run),
        }

    @classmethod
    def from_doc(cls, doc: object) -> KioskStats:
        """Statistics from a parsed file; raises :class:`StatsDamaged` on any wrong value."""
        if not isinstance(doc, dict):
            raise StatsDamaged("not a JSON object")
        if not version_is(doc, VERSION):
            raise StatsDamaged(f"unknown version {doc.get('version')!r}")
        out = cls()
        out.counters = {k: _count(doc.get(k, 0), k) for k in COUNTERS}
        out.matches = _results(doc.get("matches", {}), "matches")
        kinds = doc.get("by_kind", {})
        days = doc.get("per_day", {})
        if not isinstance(kinds, dict) or not isinstance(days, dict) or len(kinds) > 100:
            raise StatsDamaged("by_kind or per_day is not an object")
        out.by_kind = {_text(k, "kind"): _results(v, f"by_kind.{k}") for k, v in kinds.items()}
        for day, value in days.items():
            if not _day(day) or not isinstance(value, dict):
                raise StatsDamaged(f"per_day has a bad entry {day!r}")
            out.per_day[day] = {f: _count(value.get(f, 0), f"per_day.{day}") for f in DAY_FIELDS}
        lengths = doc.get("lengths", [])
        if not isinstance(lengths, list) or len(lengths) > KEEP_LENGTHS:
            raise StatsDamaged("lengths is not a short list")
        out.lengths = [_seconds(x, "a match length") for x in lengths]
        out.length_total = _seconds(doc.get("length_total", 0.0), "length_total")
        out.uptime = _seconds(doc.get("uptime", 0.0), "uptime")
        for name in ("last_restart", "run"):
            value = doc.get(name, {})
            if not isinstance(value, dict):
                raise StatsDamaged(f"{name} is not an object")
        restart = doc.get("last_restart", {})
        out.last_restart = {_text(k, "key"): _text(v, "last_restart") for k, v in restart.items()}
        run = doc.get("run", {})
        out.run = {
            "started": _text(run.get("started", ""), "run.started"),
            "clean": bool(run.get("clean", False)),
            "reason": _text(run.get("reason", ""), "run.reason"),
            "open_match": _text(run.get("open_match", ""), "run.open_match"),
        }
        return out

    # -- figures --

    def mean_length(self) -> float | None:
        """Mean length in seconds of every completed match counted, or None before the first."""
        n = self.counters["length_count"]
        return self.length_total / n if n else None

    def median_length(self) -> float | None:
        """Median length of the last :data:`KEEP_LENGTHS` completed matches, or None."""
        return statistics.median(self.lengths) if self.lengths else None

    def days(self, last: int, today: str) -> list[tuple[str, dict[str, int]]]:
        """The ``last`` days up to ``today`` (oldest first), zeros where nothing happened."""
        t = time.mktime(time.strptime(today, "%Y-%m-%d")) + 12 * 3600  # noon: DST-proof
        out = []
        for k in range(last - 1, -1, -1):
            day = time.strftime("%Y-%m-%d", time.localtime(t - k * 86400))
            out.append((day, self.per_day.get(day, dict.fromkeys(DAY_FIELDS, 0))))
        return out

    def csv_text(self) -> str:
        """Every figure as CSV rows ``section,key,field,value`` (one table, easy to pivot)."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(("section", "key", "field", "value"))
        for name in COUNTERS:
            w.writerow(("total", "", name, self.counters[name]))
        for name in RESULTS:
            w.writerow(("total", "", f"matches_{name}", self.matches[name]))
        mean, median = self.mean_length(), self.median_length()
        w.writerow(("total", "", "mean_match_seconds", "" if mean is None else f"{mean:.1f}"))
        w.writerow(("total", "", "median_match_seconds", "" if median is None else f"{median:.1f}"))
        w.writerow(("total", "", "uptime_seconds", f"{self.uptime:.0f}"))
        w.writerow(("total", "", "last_restart_at", self.last_restart.get("at", "")))
        w.writerow(("total", "", "last_restart_reason", self.last_restart.get("reason", "")))
        for kind, entry in sorted(self.by_kind.items()):
            for name in RESULTS:
                w.writerow(("kind", kind, name, entry[name]))
        for day, entry in sorted(self.per_day.items()):
            for name in DAY_FIELDS:
                w.writerow(("day", day, name, entry[name]))
        return buf.getvalue()


def day_of(t: float) -> str:
    """The local calendar day of a clock reading, as ``YYYY-MM-DD``."""
    return time.strftime("%Y-%m-%d", time.localtime(t))


def stamp(t: float) -> str:
    """A clock reading as local ISO time to the second."""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(t))


def read_stats(path: Path) -> KioskStats | None:
    """The statistics in ``path``, or None if there is no file; raises :class:`StatsDamaged`."""
    try:
        doc = load_json(path, MAX_BYTES)
    except FileNotFoundError:
        return None
    except CannotRead as exc:
        raise StatsUnreadable(str(exc)) from None
    except UnreadableFile as exc:
        raise StatsDamaged(str(exc)) from None
    return KioskStats.from_doc(doc)


class StatsBook:
    """The statistics of one kiosk run: loads at start, counts events, saves atomically.

    Args:
        home: the kiosk's data folder.
        clock: seconds since the epoch (``time.time``; the soak and the tests give a fake one).
        set_aside: renames a damaged file aside and returns the new path
            (:meth:`royalnine.storage.Storage.set_aside`).

    Attributes:
        notice: one line for the operator menu when the file had to be set aside.
        save_errors: saves that failed (full disk, read-only folder); the kiosk goes on.
            Each failure is logged; the operator menu and the status file show them.
        last_error: the latest failed save, one line ("" when none failed).
    """

    def __init__(
        self, home: Path, clock: Callable[[], float], set_aside: Callable[[Path], Path]
    ) -> None:
        self.path = home / STATS_FILE
        self.clock = clock
        self.notice = ""
        self.save_errors = 0
        self.last_error = ""
        self.frozen = ""  # why the file is left alone (it could not be read), or ""
        clean_temp_files(home, depth=0)
        try:
            loaded = read_stats(self.path)
        except StatsUnreadable as exc:
            # Perhaps only a permission went wrong: never set aside, never overwritten
            # with counts restarted from zero. The kiosk runs; nothing is saved.
            loaded = None
            self.frozen = f"statistics cannot be read ({exc}): not saved until that is fixed"
            self.notice = self.frozen
            log.warning("%s", self.frozen)
        except StatsDamaged as exc:
            loaded = None
            try:
                moved = set_aside(self.path)
                self.notice = (
                    f"statistics were damaged ({exc}); started afresh, kept as {moved.name}"
                )
            except OSError as err:
                self.notice = f"statistics were damaged ({exc}) and could not be moved: {err}"
        self.stats = loaded or KioskStats()
        self._since = clock()

    # -- the run --

    def begin_run(self, *, reset: bool = False) -> None:
        """Record this start; how the previous run ended is the reason of this restart."""
        now = self.clock()
        prev = self.stats.run
        if reset:
            reason = "statistics reset"
        elif not prev:
            reason = "first start"
        elif prev.get("clean"):
            reason = str(prev.get("reason") or "stopped")
        else:
            reason = "unexpected end (crash, kill or power loss)"
        if prev.get("open_match") and not reset:
            # a visitor's match was going when the last run ended: it was abandoned
            self.match_event(str(prev["open_match"]), "abandoned")
        self.stats.last_restart = {"at": stamp(now), "reason": reason}
        self.stats.run = {"started": stamp(now), "clean": False, "reason": "", "open_match": ""}
        self._since = now
        self.save()

    def end_run(self, reason: str) -> None:
        """Record a clean end and why (the next start reports it as the restart reason)."""
        self.stats.run = {**self.stats.run, "clean": True, "reason": reason[:200]}
        if self.stats.run.get("open_match"):  # stopped mid-match: that match is abandoned
            self.match_event(str(self.stats.run["open_match"]), "abandoned")
            self.stats.run["open_match"] = ""
        self.save()

    # -- events --

    def _today(self) -> dict[str, int]:
        day = day_of(self.clock())
        entry = self.stats.per_day.setdefault(day, dict.fromkeys(DAY_FIELDS, 0))
        if len(self.stats.per_day) > KEEP_DAYS:
            for old in sorted(self.stats.per_day)[: len(self.stats.per_day) - KEEP_DAYS]:
                del self.stats.per_day[old]
        return entry

    def touches(self, n: int) -> None:
        """Count touches (saved with the next event, not one write per touch)."""
        self.stats.counters["touches"] += n

    def session_started(self) -> None:
        """A visitor touched the attract loop."""
        self.stats.counters["sessions"] += 1
        self._today()["sessions"] += 1
        self.save()

    def match_event(self, kind: str, result: str) -> None:
        """A match of ``kind`` (``cpu:LEVEL`` or ``local``) was started, completed or abandoned."""
        self.stats.matches[result] += 1
        entry = self.stats.by_kind.setdefault(kind[:40], dict.fromkeys(RESULTS, 0))
        entry[result] += 1
        self._today()[result] += 1

    def match_started(self, kind: str) -> None:
        """A visitor's match began (until it ends, the file names it as open)."""
        self.match_event(kind, "started")
        self.stats.run["open_match"] = kind[:40]
        self.save()

    def match_ended(
        self,
        kind: str,
        *,
        completed: bool,
        seconds: float,
        royal_nines: int,
        busts: int,
        winner_vs_cpu: str | None = None,
    ) -> None:
        """A visitor's match ended: completed (with its length and, against the CPU, who won:
        ``"visitor"``, ``"cpu"`` or ``"draw"``) or abandoned."""
        self.match_event(kind, "completed" if completed else "abandoned")
        self.stats.run["open_match"] = ""
        c = self.stats.counters
        c["royal_nines"] += royal_nines
        c["busts"] += busts
        if completed:
            c["length_count"] += 1
            self.stats.length_total += max(0.0, seconds)
            self.stats.lengths = [*self.stats.lengths, max(0.0, seconds)][-KEEP_LENGTHS:]
            if winner_vs_cpu == "visitor":
                c["visitor_wins"] += 1
            elif winner_vs_cpu == "cpu":
                c["cpu_wins"] += 1
            elif winner_vs_cpu == "draw":
                c["draws_vs_cpu"] += 1
        self.save()

    def reset(self) -> Path | None:
        """Start the statistics afresh (the operator confirmed it), keeping the old ones.

        They are written to ``kiosk-stats.json.reset-DATE`` first; returns that file,
        or None when it could not be written (the reset goes ahead; the log says so).
        """
        self.save()
        archive = self.path.with_name(
            f"{self.path.name}.reset-{time.strftime('%Y%m%d-%H%M%S', time.gmtime(self.clock()))}"
        )
        kept: Path | None = archive
        try:
            write_atomic(archive, json.dumps(self.stats.to_doc(), indent=1) + "\n")
        except OSError as exc:
            log.warning("statistics reset, but the old ones could not be kept: %s", exc.strerror)
            kept = None
        self.stats = KioskStats()
        self.begin_run(reset=True)
        return kept

    # -- saving --

    def save(self, *, durable: bool = True) -> bool:
        """Write the file atomically (uptime brought up to now); False if the disk refused.

        ``durable=False`` skips the syncs (:func:`~royalnine.core.files.write_atomic`):
        for the touch count, saved within a tenth of a second of each touch."""
        now = self.clock()
        self.stats.uptime += max(0.0, now - self._since)
        self._since = now
        if self.frozen:
            self.last_error = self.frozen
            return False
        try:
            text = json.dumps(self.stats.to_doc(), indent=1) + "\n"
            write_atomic(self.path, text, durable=durable)
        except OSError as exc:
            self.save_errors += 1
            self.last_error = f"statistics not saved: {exc.strerror or exc}"
            log.warning("%s (%d failed saves in this run)", self.last_error, self.save_errors)
            return False
        return True

    def flush(self) -> None:
        """Save now and then, so touches and uptime reach the file between events too."""
        self.save()
