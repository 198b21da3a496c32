"""Match history: every finished match kept as a match record in ``HOME/history``.

One file per match, ``history/YYYYMMDD-HHMMSS[-n].json``, written atomically;
the newest :data:`MAX_MATCHES` are kept and older ones removed as new ones
arrive. Each is a :class:`~royalnine.core.record.MatchRecord` whose metadata
says what the list shows without replaying the match: ``date`` (local time,
``YYYY-MM-DD HH:MM``), ``mode`` (cpu, local, remote), ``level`` (vs CPU),
``seat`` (the seat played on this device; absent for two players on one
machine) and the final ``points0``/``points1``.

A file that cannot be read, is not a record, has odd metadata or replays into
an impossible or unfinished match is set aside (renamed, never deleted) with a
notice, like every other data file (:meth:`royalnine.storage.Storage.damaged`).
A remote match is kept from its verified transcript, only once it is over.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from royalnine.core.errors import CorruptRecord
from royalnine.core.files import write_atomic
from royalnine.core.match import Match, NextRound, Phase
from royalnine.core.record import MatchRecord, MetaValue, load_record
from royalnine.remote.codec import BadCode
from royalnine.remote.session import check_transcript
from royalnine.storage import MODES, Storage

FOLDER = "history"
MAX_MATCHES = 500
NAME = re.compile(r"\d{8}-\d{6}(-\d{1,4})?\.json")
"""History file names (anything else in the folder, e.g. a set-aside file, is not listed)."""
DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}")
"""The ``date`` metadata as :func:`add` writes it (the list draws it as it is)."""
HISTORY_MODES = (*MODES, "remote")


@dataclass(frozen=True)
class HistoryEntry:
    """One kept match as the HISTORY list shows it (the record is replayed only to review)."""

    path: Path
    record: MatchRecord
    date: str
    mode: str
    level: str
    seat: int | None
    points: tuple[int, int]

    @property
    def result(self) -> str:
        """``won``/``lost``/``drawn`` for the seat played here; ``p1``/``p2``/``drawn`` for
        two players on one machine."""
        a, b = self.points
        if a == b:
            return "drawn"
        winner = 0 if a > b else 1
        if self.seat is None:
            return f"p{winner + 1}"
        return "won" if winner == self.seat else "lost"

    def replay(self) -> Match:
        """The finished match; raises :class:`CorruptRecord` if it is not a finished match
        with the points the list showed."""
        match = self.record.replay()
        if not match.is_over:
            raise CorruptRecord(f"{self.path.name}: the match is not over")
        if match.totals() != self.points:
            raise CorruptRecord(f"{self.path.name}: its points do not match its rounds")
        return match


def folder(storage: Storage) -> Path:
    """The history folder of a data folder."""
    return storage.path(FOLDER)


def add(
    storage: Storage,
    match: Match,
    mode: str,
    meta: Mapping[str, MetaValue] | None = None,
    *,
    seat: int | None = 0,
    now: float | None = None,
) -> Path:
    """Keep a finished match; returns its file. Removes the oldest beyond :data:`MAX_MATCHES`.

    Raises ValueError for a match that is not over (nothing is written) and
    OSError when the folder cannot be written (the caller turns it into a notice).
    """
    if not match.is_over:
        raise ValueError("only a finished match is kept in the history")
    moment = time.localtime(time.time() if now is None else now)
    stamp = time.strftime("%Y%m%d-%H%M%S", moment)
    points = match.totals()
    doc: dict[str, MetaValue] = dict(meta or {})
    doc.update(
        date=time.strftime("%Y-%m-%d %H:%M", moment),
        mode=mode,
        points0=points[0],
        points1=points[1],
    )
    if seat is not None:
        doc["seat"] = seat
    base = folder(storage)
    path = base / f"{stamp}.json"
    n = 1
    while os.path.lexists(path):
        n += 1
        path = base / f"{stamp}-{n}.json"
    write_atomic(path, MatchRecord.of(match, doc).to_json())
    prune(storage)
    return path


def _names(storage: Storage) -> list[Path]:
    base = folder(storage)
    try:
        names = os.listdir(base)
    except OSError:
        return []
    return [base / n for n in sorted(names) if NAME.fullmatch(n)]


def _stamp_key(path: Path) -> tuple[str, int]:
    n = path.stem[16:]
    return (path.stem[:15], int(n) if n else 1)


def prune(storage: Storage) -> list[Path]:
    """Remove the oldest kept matches beyond :data:`MAX_MATCHES`; returns those removed."""
    paths = sorted(_names(storage), key=_stamp_key)
    gone = paths[: max(0, len(paths) - MAX_MATCHES)]
    for path in gone:
        path.unlink(missing_ok=True)
    return gone


def entry_of(path: Path) -> HistoryEntry:
    """Read one kept match (structure and metadata only); raises :class:`CorruptRecord`."""
    record = load_record(path)
    meta = record.meta
    mode, date, level = meta.get("mode"), meta.get("date"), meta.get("level", "")
    seat = meta.get("seat")
    points = (meta.get("points0"), meta.get("points1"))
    if mode not in HISTORY_MODES:
        raise CorruptRecord(f"{path}: unknown mode {mode!r}")
    if not isinstance(date, str) or not DATE.fullmatch(date) or not isinstance(level, str):
        raise CorruptRecord(f"{path}: bad date or level")
    if seat is not None and (
        not isinstance(seat, int) or isinstance(seat, bool) or seat not in (0, 1)
    ):
        raise CorruptRecord(f"{path}: bad seat {seat!r}")
    if not all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p < 10**6 for p in points):
        raise CorruptRecord(f"{path}: bad points")
    a, b = points
    assert isinstance(a, int) and isinstance(b, int)
    return HistoryEntry(path, record, date, str(mode), level[:8], seat, (a, b))


def paths(storage: Storage) -> list[Path]:
    """The files of the kept matches, newest first (not read: see :func:`read`)."""
    return sorted(_names(storage), key=_stamp_key, reverse=True)


def read(storage: Storage, path: Path) -> HistoryEntry | None:
    """One kept match, or None after setting a damaged file aside with a notice."""
    try:
        return entry_of(path)
    except CorruptRecord as exc:
        storage.damaged(path, "history", str(exc))
        return None


def entries(storage: Storage) -> list[HistoryEntry]:
    """Every kept match, newest first; a damaged file is set aside with a notice."""
    return [e for path in paths(storage) if (e := read(storage, path)) is not None]


def match_of_transcript(codes: list[bytes]) -> Match:
    """The finished match a remote transcript proves, checked code by code.

    Raises :class:`CorruptRecord` with one line for a transcript that breaks a
    rule, is cut short (a move is still due) or stops before the last common card.
    """
    try:
        check = check_transcript(codes)
    except BadCode as exc:
        raise CorruptRecord(f"not a valid remote transcript: {exc}") from None
    if not check.complete:
        raise CorruptRecord(f"the transcript is unfinished: {check.summary()}")
    match = check.match
    rnd = match.round
    if rnd.number != match.config.rounds or rnd.phase is not Phase.ROUND_OVER:
        raise CorruptRecord("the transcript ends before the match is over")
    return match.apply(NextRound())


def keep_remote(storage: Storage, codes: Sequence[bytes], seat: int) -> Path | None:
    """Keep a finished remote match as its transcript proves it (the game's result screen
    and ``royalnine remote`` both end a match here); None, keeping nothing, when the
    transcript does not verify to a finished match. OSError as :func:`add`."""
    try:
        match = match_of_transcript(list(codes))
    except CorruptRecord:
        return None
    return add(storage, match, "remote", seat=seat)
