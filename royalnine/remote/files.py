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
from dataclasses import dataclass
from pathlib import Path

from royalnine.core.errors import RoyalNineError
from royalnine.core.files import UnreadableFile, parse_json, read_capped, write_atomic
from royalnine.core.match import MatchConfig
from royalnine.remote.codec import BadCode, decode, match_label
from royalnine.remote.session import Entropy, RemoteSession, TranscriptCheck
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


MAX_TRANSCRIPT_CODES = 1000
"""A match of 99 rounds has 401 codes: a file with more is no transcript, and is refused
before the rest of it is read (4 MB of long code lines would take a second)."""


def parse_transcript(text: str) -> tuple[list[bytes], list[str]]:
    """Codes (hex or text form, one a line) and comment lines of a transcript file.

    A line is a code alone: it is never searched for a code inside chat text (that
    search is for pasted messages), so each line costs time in proportion to its length.
    """
    codes: list[bytes] = []
    notes: list[str] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            notes.append(line[1:].strip())
            continue
        if len(codes) == MAX_TRANSCRIPT_CODES:
            raise BadCode(f"line {number}: a transcript has at most {MAX_TRANSCRIPT_CODES} codes")
        try:
            is_hex = HEX_LINE.fullmatch(line) is not None
            codes.append(bytes.fromhex(line) if is_hex else from_text(line, chat=False))
        except (ValueError, BadCode) as exc:
            raise BadCode(f"line {number} is not a code: {exc}") from None
    return codes, notes


SEATS = ("host", "guest")
CLAIM_NOTE = re.compile(
    r"claimed by the (host|guest): the (host|guest) forfeits "
    r"\(move (\d{1,5}) was due from the (host|guest)\)"
)
ABANDON_NOTE = re.compile(
    r"abandoned by the (host|guest) while move (\d{1,5}) was due from it: "
    r"the (host|guest) forfeits"
)
LEARNT_NOTE = "learnt here"
"""In a note this device added on learning of a claim against it (not a new claim)."""


@dataclass(frozen=True)
class Forfeit:
    """A walk-away a transcript's notes record: who forfeits, at which move, and how."""

    seat: int
    """The seat that forfeits (0 host, 1 guest)."""
    move: int
    """The move that was due from it."""
    claimed: bool
    """True: the other seat claimed the match; False: this seat abandoned it."""

    @property
    def role(self) -> str:
        """ "host" or "guest": the seat that forfeits."""
        return SEATS[self.seat]


@dataclass(frozen=True)
class ForfeitVerdict:
    """What ``verify`` makes of a transcript's forfeit notes (see :func:`judge_forfeit`)."""

    forfeit: Forfeit | None
    """The walk-away the notes record and the codes agree with, None if none."""
    refused: tuple[str, ...]
    """Notes refused: forged, contradicting the codes or each other, one line each."""
    remarks: tuple[str, ...]
    """What the codes can and cannot show about it, one line each."""


def _forfeit_of(note: str) -> tuple[Forfeit | None, str | None]:
    """The forfeit a note records, or why it is refused (None, None: no forfeit note)."""
    claim, abandon = CLAIM_NOTE.fullmatch(note), ABANDON_NOTE.fullmatch(note)
    if claim is not None:
        by, loser, move, due = claim.groups()
        if by == loser or due != loser:
            return None, f"a forged claim note (its seats do not agree): {note}"
        return Forfeit(SEATS.index(loser), int(move), claimed=True), None
    if abandon is not None:
        by, move, loser = abandon.groups()
        if by != loser:
            return None, f"a forged note (its seats do not agree): {note}"
        return Forfeit(SEATS.index(loser), int(move), claimed=False), None
    if LEARNT_NOTE in note:
        return None, None
    if re.search(r"forfeit|claim", note, re.IGNORECASE):
        return None, f"not a note this program writes: {note[:80]}"
    return None, None


def judge_forfeit(
    check: TranscriptCheck, notes: list[str], others: tuple[list[bytes], ...] = ()
) -> ForfeitVerdict:
    """Judge a transcript's forfeit notes against its codes (and the other device's
    transcripts, ``others``, if given).

    A note is the word of the device that wrote it: the codes can refuse it (the
    match is complete, or the move it names is not the one due, or another note
    says otherwise) but never prove it, because a transcript cut short on purpose
    reads like an honest one. Only the other seat's own transcript can settle it:
    if it holds the move the note says never came, the note is refused; if it ends
    at the same code, that seat had the code and did not answer it.
    """
    found: list[Forfeit] = []
    refused: list[str] = []
    for note in notes:
        forfeit, why = _forfeit_of(note)
        if why is not None:
            refused.append(why)
        elif forfeit is not None and forfeit not in found:
            found.append(forfeit)
    if len(found) > 1:
        refused.append("contradictory forfeit notes: " + "; ".join(_says(f) for f in found))
    if refused:  # a file with a forged note is accepted for its codes only
        found = []
    remarks: list[str] = []
    if found:
        forfeit = found[0]
        wrong = _contradiction(check, forfeit, others)
        if wrong is not None:
            refused.append(f"{_says(forfeit)}, but {wrong}")
            found = []
        else:
            remarks.append(_proof(check, forfeit, others))
    elif not check.complete and not refused:
        remarks.append(
            "no forfeit note: a transcript alone cannot show who stopped answering "
            "(it may have been cut short)"
        )
    return ForfeitVerdict(found[0] if found else None, tuple(refused), tuple(remarks))


def _says(forfeit: Forfeit) -> str:
    how = "claimed against" if forfeit.claimed else "abandoned by"
    return f"a note says move {forfeit.move} was {how} the {forfeit.role}"


def _contradiction(
    check: TranscriptCheck, forfeit: Forfeit, others: tuple[list[bytes], ...]
) -> str | None:
    """Why the codes refuse a forfeit note, or None if they agree with it."""
    if check.complete:
        return "the match is complete"
    if check.due_seat != forfeit.seat or forfeit.move != check.codes + 1:
        role = SEATS[check.due_seat or 0]
        return f"the codes end with move {check.codes + 1} due from the {role}"
    for codes in others:
        if len(codes) > check.codes:
            return f"the other transcript holds move {check.codes + 1}: it was answered"
    return None


def _proof(check: TranscriptCheck, forfeit: Forfeit, others: tuple[list[bytes], ...]) -> str:
    """What the codes show about a forfeit note that they do not refuse."""
    loser = forfeit.role
    if not forfeit.claimed:
        return f"the {loser} noted its own walk-away at move {forfeit.move}"
    if any(len(codes) == check.codes for codes in others):
        return (
            f"the {loser}'s own transcript ends at move {check.codes} too: it had the code "
            "and did not answer it"
        )
    return (
        f"unproven: the {loser} may never have received move {check.codes}, or this "
        f"transcript may be cut short; verify it with the {loser}'s transcript"
    )


def same_match(codes: list[bytes], other: list[bytes]) -> str | None:
    """Why two transcripts are not two devices' records of one history (None if they are):
    every move both hold must be the same code."""
    for number, (mine, theirs) in enumerate(zip(codes, other, strict=False), 1):
        if mine != theirs:
            if number == 1:
                return "the transcripts are of different matches"
            return f"the transcripts differ at move {number} (a damaged or changed code)"
    return None


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


@dataclass(frozen=True)
class Learnt:
    """What this device made of a claim against it (see :func:`learn_claim`)."""

    text: str
    """One line for the player."""
    counted: bool
    """True: the match ended here as a forfeit loss; False: the claim does not hold here."""
    session: RemoteSession
    """This device's match (ended by the claim when ``counted``)."""


def learn_claim(storage: Storage, codes: list[bytes], verdict: ForfeitVerdict) -> Learnt | None:
    """A claim against this device, read from the claimer's transcript (``verify`` or
    ``read`` of the file, or its text pasted in the game).

    If the claim is against this device's seat in a match in progress here and its
    codes are this device's history (or that and the one code this device never got),
    the match ends here as it did on the claimer's device: a forfeit loss in the
    statistics, the transcript kept with a note. If this device has already answered,
    the claim does not hold and nothing changes. None when it is about no match here.
    """
    forfeit = verdict.forfeit
    if forfeit is None or not forfeit.claimed or not codes:
        return None
    label = match_label(decode(codes[0]).match_id)
    try:
        session = load_session(storage.home, label)
    except BadCode:
        return None
    if session is None or session.seat != forfeit.seat or session.over:
        return None
    mine = list(session.transcript)
    if len(mine) > len(codes) or same_match(codes, mine) is not None:
        last = session.last_code_number()
        return Learnt(
            f"match {label}: the other player claims it, but this device sent move "
            f"{last}; the claim does not hold here (send move {last} again)",
            counted=False,
            session=session,
        )
    other = SEATS[1 - session.seat]
    note = (
        f"claimed by the {other} at move {forfeit.move} ({LEARNT_NOTE} from its transcript): "
        f"counted here as a forfeit loss of the {forfeit.role}"
    )
    session.forfeited = True
    write_transcript(storage.home, session, note)
    storage.record_forfeit("remote", won=False)
    session_path(storage.home, label).unlink(missing_ok=True)
    return Learnt(
        f"match {label} was claimed by the {other}: counted here as a forfeit loss",
        counted=True,
        session=session,
    )


def is_transcript_text(text: str) -> bool:
    """Whether pasted or read text is a transcript (comment lines, then codes), not a code."""
    return text.lstrip().startswith("# Royal Nine remote match")
