"""A device's remote-match files, shared by the game and the ``royalnine remote`` command.

Everything lives under the home folder (``HOME/remote/...``): the match in
progress (``current.json``), each match's codes (``<MATCH>/move-NN.png``) and,
when a match ends or is claimed, its transcript (``<MATCH>/transcript.txt``).
A transcript line may hold a code in hex or in the text form of
:mod:`royalnine.remote.textcode`.
No pygame here: the QR images are made by the callers.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from royalnine.core.errors import RoyalNineError
from royalnine.core.files import UnreadableFile, parse_json, read_capped, write_atomic
from royalnine.core.match import MatchConfig
from royalnine.remote.codec import BadCode
from royalnine.remote.session import Entropy, RemoteSession
from royalnine.remote.textcode import from_text
from royalnine.storage import Storage

REMOTE_DIR = "remote"
CURRENT_FILE = "remote/current.json"
TRANSCRIPT_FILE = "transcript.txt"
HEX_LINE = re.compile(r"[0-9a-fA-F]+")


def current_path(home: Path) -> Path:
    """Where earlier versions kept their one match in progress (moved by
    :func:`migrate_current`)."""
    return home / CURRENT_FILE


def match_folder(home: Path, label: str) -> Path:
    """Where one match's codes and transcript are kept."""
    return home / REMOTE_DIR / label


def code_path(home: Path, label: str, number: int) -> Path:
    """The PNG of code ``number`` of a match."""
    return match_folder(home, label) / f"move-{number:02d}.png"


SESSION_FILE = "session.json"


def session_path(home: Path, label: str) -> Path:
    """Where a match in progress is saved: beside its codes, one file per match, so
    several matches can run at once."""
    return match_folder(home, label) / SESSION_FILE


INBOX_DIR = "remote/inbox"
"""Where the opponent's code images can be put (read, then moved to ``inbox/read``)."""


def save_session(home: Path, session: RemoteSession) -> None:
    """Save a match in progress atomically (after every code); the inbox folder is made
    with it, so it is there to be found as soon as a remote match exists."""
    write_atomic(session_path(home, session.label), session.to_json())
    (home / INBOX_DIR).mkdir(parents=True, exist_ok=True)


def id_taken(home: Path, label: str) -> bool:
    """Whether this device already has a match with this id (in progress or ended): its
    folder exists. Ids are unique per device, so no match's save or codes are replaced."""
    return os.path.lexists(match_folder(home, label))


def host_session(home: Path, config: MatchConfig, entropy: Entropy = os.urandom) -> RemoteSession:
    """A new match hosted here, with an id no match on this device has had."""
    while True:
        session = RemoteSession.host(config, entropy)
        if not id_taken(home, session.label):
            return session


def join_session(home: Path, first_code: bytes, entropy: Entropy = os.urandom) -> RemoteSession:
    """Join the match that a host's code 1 starts; BadCode (one line) if this device
    already has a match with that id (the host picks the id: a match in progress here
    is never replaced by another)."""
    session = RemoteSession.join(first_code, entropy)
    if id_taken(home, session.label):
        raise BadCode(
            f"this device already has a match {session.label}; ask the host to host a new match"
        )
    return session


def session_paths(home: Path) -> list[Path]:
    """The saved matches in progress, the latest activity first."""
    try:
        found = [p for p in (home / REMOTE_DIR).glob(f"*/{SESSION_FILE}") if p.is_file()]
    except OSError:
        return []
    return sorted(found, key=lambda p: -_mtime(p))


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


MAX_SESSION_BYTES = 1_000_000
# What a damaged session file can raise while it is rebuilt (wrong types, odd values,
# codes that no longer fit the rules): each means "damaged", never a crash.
DAMAGED_SESSION: tuple[type[Exception], ...] = (
    UnreadableFile,
    RoyalNineError,
    KeyError,
    TypeError,
    ValueError,
    IndexError,
    AttributeError,
    OverflowError,
)


def load_session(home: Path, label: str | None = None) -> RemoteSession | None:
    """A match in progress: ``label``'s, or the one with the latest activity; None if
    there is none. Raises BadCode (one line) for a damaged file.

    A match saved by earlier versions as ``remote/current.json`` is moved to its
    own folder first.
    """
    migrate_current(home)
    if label is not None:
        return read_session(session_path(home, label))
    paths = session_paths(home)
    return read_session(paths[0]) if paths else None


def migrate_current(home: Path) -> str | None:
    """Move the one match of earlier versions (``remote/current.json``) beside its codes;
    returns its label. Raises BadCode if that file is damaged (it is left in place)."""
    legacy = current_path(home)
    session = read_session(legacy)
    if session is None:
        return None
    if not session_path(home, session.label).exists():
        save_session(home, session)
    legacy.unlink(missing_ok=True)
    return session.label


def read_session(path: Path) -> RemoteSession | None:
    """A saved session, or None if there is no file; BadCode (one line) for anything
    else: not a regular file, too large, nested too deep, odd types, codes that fail."""
    try:
        data = read_capped(path, MAX_SESSION_BYTES)
        parse_json(data)  # refuses deep nesting and non-JSON before the session parses it
        return RemoteSession.from_json(data.decode("utf-8"))
    except FileNotFoundError:
        return None
    except BadCode:
        raise
    except DAMAGED_SESSION as exc:
        raise BadCode(f"damaged remote match file: {exc}") from None


def transcript_text(session: RemoteSession, note: str | None = None) -> str:
    """The transcript so far as text: comment lines, then one code in hex a line.

    A claimed match says so in a comment; :func:`parse_transcript` skips comments,
    and ``verify`` then shows that the other seat's move is due.
    """
    seats = ("host", "guest")
    lines = [f"# Royal Nine remote match {session.label}, as kept by the {seats[session.seat]}"]
    if session.claimed:
        other = 1 - session.seat
        lines.append(
            f"# claimed by the {seats[session.seat]}: the {seats[other]} forfeits "
            f"(move {len(session.transcript) + 1} was due from the {seats[other]})"
        )
    if note is not None:
        lines.append(f"# {note}")
    lines += [code.hex() for code in session.transcript]
    return "\n".join(lines) + "\n"


def parse_transcript(text: str) -> tuple[list[bytes], list[str]]:
    """Codes (hex or text form, one a line) and comment lines of a transcript file."""
    codes: list[bytes] = []
    notes: list[str] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            notes.append(line[1:].strip())
            continue
        try:
            is_hex = HEX_LINE.fullmatch(line) is not None
            codes.append(bytes.fromhex(line) if is_hex else from_text(line))
        except (ValueError, BadCode) as exc:
            raise BadCode(f"line {number} is not a code: {exc}") from None
    return codes, notes


def write_transcript(home: Path, session: RemoteSession, note: str | None = None) -> Path:
    """Keep the transcript so far beside the match's codes; returns its path."""
    path = match_folder(home, session.label) / TRANSCRIPT_FILE
    write_atomic(path, transcript_text(session, note))
    return path


def record_claim(storage: Storage, session: RemoteSession) -> Path:
    """A claimed match ends here: a forfeit win in the statistics, the transcript kept
    (with the claim noted), the match in progress forgotten. Returns the transcript."""
    storage.record_forfeit("remote", won=True)
    path = write_transcript(storage.home, session)
    session_path(storage.home, session.label).unlink(missing_ok=True)
    return path


def abandon_current(storage: Storage) -> str | None:
    """Before a new match replaces the one in progress: if this device owed the next code
    (its player walks away), record a forfeit loss and keep the transcript with a note.

    Returns the abandoned match's label, or None if nothing was forfeited. A damaged
    file is left for the caller's loading to report.
    """
    try:
        session = load_session(storage.home)
    except BadCode:
        return None
    if session is None or session.over or not (session.my_turn or session.needs_placement):
        return None
    role = ("host", "guest")[session.seat]
    note = (
        f"abandoned by the {role} while move {len(session.transcript) + 1} was due "
        f"from it: the {role} forfeits"
    )
    write_transcript(storage.home, session, note)
    storage.record_forfeit("remote", won=False)
    session_path(storage.home, session.label).unlink(missing_ok=True)
    return session.label
