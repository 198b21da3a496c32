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
from royalnine.remote.session import Entropy, RemoteSession, TranscriptCheck, duration
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
_SEAT = r"(host|guest)"
_MOVE = r"([1-9][0-9]{0,4})"
HEADER_NOTE = re.compile(rf"Royal Nine remote match ([0-9A-F]{{8}}), as kept by the {_SEAT}")
CLAIM_NOTE = re.compile(
    rf"claimed by the {_SEAT}: the {_SEAT} forfeits \(move {_MOVE} was due from the {_SEAT}\)"
)
ABANDON_NOTE = re.compile(
    rf"abandoned by the {_SEAT} while move {_MOVE} was due from it: the {_SEAT} forfeits"
)
LEARNT_NOTE = "learnt here"
"""In a note this device added on learning of a claim against it (not a new claim)."""
COUNTED_NOTE = re.compile(
    rf"claimed by the {_SEAT} at move {_MOVE} \({LEARNT_NOTE} from its transcript\): "
    rf"counted here as a forfeit loss of the {_SEAT}"
)
"""The notes this program writes (:func:`transcript_text`, :func:`abandon_current`,
:func:`count_claim`), matched exactly (ASCII only: no look-alike letters)."""


@dataclass(frozen=True)
class Forfeit:
    """A walk-away a transcript's notes record: who forfeits, at which move, and how."""

    seat: int
    """The seat that forfeits (0 host, 1 guest)."""
    move: int
    """The move that was due from it."""
    claimed: bool
    """True: the other seat claimed the match; False: this seat abandoned it."""
    admitted: bool = False
    """The note was written by the seat that forfeits (it abandoned the match, or its
    device counted the other's claim): its own word, not the claimer's."""

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
    accepted: tuple[str, ...] = ()
    """The notes that are exactly what this program writes (the header and its one note)."""


def _shown(note: str) -> str:
    """A refused note as it may be printed: cut, every non-ASCII letter escaped (so a
    look-alike letter shows as what it is) and no control character reaching a terminal."""
    return ascii(note[:80])


def _forfeit_of(note: str, writer: int) -> tuple[Forfeit | None, str | None]:
    """The forfeit a note below the header records, or why it is refused.

    ``writer`` is the seat the header names: each note this program writes is tied to
    the seat whose device writes it (a claim by the claimer, an abandon or a counted claim
    by the seat that forfeits), so any other seat in it is a forgery.
    """
    me, other = SEATS[writer], SEATS[1 - writer]
    plain = note.isascii()  # re's [0-9] and the words are ASCII too: no look-alikes
    claim = CLAIM_NOTE.fullmatch(note) if plain else None
    abandon = ABANDON_NOTE.fullmatch(note) if plain else None
    counted = COUNTED_NOTE.fullmatch(note) if plain else None
    if claim is not None:
        by, loser, move, due = claim.groups()
        if (by, loser, due) != (me, other, other):
            why = f"a file kept by the {me} holds only the {me}'s claim against the {other}"
            return None, f"a forged claim note ({why}): {note}"
        return Forfeit(1 - writer, int(move), claimed=True), None
    if abandon is not None:
        by, move, loser = abandon.groups()
        if (by, loser) != (me, me):
            why = f"a file kept by the {me} notes only the {me}'s own walk-away"
            return None, f"a forged note ({why}): {note}"
        return Forfeit(writer, int(move), claimed=False, admitted=True), None
    if counted is not None:
        by, move, loser = counted.groups()
        if (by, loser) != (other, me):
            why = f"a file kept by the {me} counts only a claim against the {me}"
            return None, f"a forged note ({why}): {note}"
        return Forfeit(writer, int(move), claimed=True, admitted=True), None
    return None, f"not a note this program writes: {_shown(note)}"


def _notes_of(
    check: TranscriptCheck, notes: list[str]
) -> tuple[list[Forfeit], list[str], list[str]]:
    """Match a transcript's notes against what this program writes: the header (this
    match's id and the seat whose device kept it), then at most one note of that seat.
    Returns the forfeits recorded, the refusals and the notes accepted."""
    if not notes:
        return [], [], []
    header = HEADER_NOTE.fullmatch(notes[0]) if notes[0].isascii() else None
    if header is None:
        return [], [f"not the header this program writes first: {_shown(notes[0])}"], []
    if check.label and header.group(1) != check.label:
        return [], [f"the header names match {header.group(1)}; the codes are of {check.label}"], []
    writer = SEATS.index(header.group(2))
    found: list[Forfeit] = []
    refused: list[str] = []
    for note in notes[1:]:
        forfeit, why = _forfeit_of(note, writer)
        if why is not None:
            refused.append(why)
        elif forfeit is not None and forfeit not in found:
            found.append(forfeit)
    if len(found) > 1:
        refused.append("contradictory forfeit notes: " + "; ".join(_says(f) for f in found))
    elif len(notes) > 2 and not refused:
        extra = len(notes) - 1
        refused.append(f"this program writes one note under the header; this file has {extra}")
    return found, refused, [] if refused else notes


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
    found, refused, accepted = _notes_of(check, notes)
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
    return ForfeitVerdict(
        found[0] if found else None, tuple(refused), tuple(remarks), tuple(accepted)
    )


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
    if forfeit.admitted:
        return (
            f"the {loser}'s own device counted the claim against it at move {forfeit.move} "
            "(it had the code and did not answer it for the wait, by its own clock)"
        )
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
class ClaimHere:
    """What a claim read from the other device's transcript means on this device (see
    :func:`claim_here`); nothing is changed by finding it out."""

    kind: str
    """``"count"``: it holds here, once the player agrees (:func:`count_claim`);
    ``"read"``: the transcript holds the code this device never had: read :attr:`code`,
    and the match goes on; ``"wait"``: this device got its last code too recently;
    ``"answered"``: this device's history goes past the claim or differs from it;
    ``"none"``: it claims nothing against a match in progress here."""
    text: str
    """One line for the player."""
    session: RemoteSession | None = None
    """This device's match the claim is about."""
    forfeit: Forfeit | None = None
    code: bytes | None = None
    """For ``"read"``: the code this device never had."""


def claim_here(
    home: Path,
    codes: list[bytes],
    verdict: ForfeitVerdict,
    now: float,
    after_s: float,
    session: RemoteSession | None = None,
) -> ClaimHere:
    """What the other player's claim (its transcript's codes and judged notes) means here.

    A claim counts against this device only from what this device can see for itself
    (docs/remote.md, "What a claim proves"): the claim's codes are exactly the codes
    this device has, the last of them is the other seat's and this device never answered
    it, and this device's own clock shows the claim wait (``after_s``) since it read
    that code. A claim that holds a code this device never had does not count: that code
    is read, as any code, and the match goes on. ``session`` is the match as the caller
    holds it (else it is loaded from ``home``).
    """
    forfeit = verdict.forfeit
    none = ClaimHere("none", "this transcript claims no match in progress here against this device")
    if forfeit is None or not forfeit.claimed or forfeit.admitted or not codes:
        return none
    label = match_label(decode(codes[0]).match_id)
    if session is None or session.label != label:
        try:
            session = load_session(home, label)
        except BadCode:
            return none
    if session is None or session.seat != forfeit.seat or session.over:
        return none
    other = SEATS[1 - session.seat]
    head = f"match {label}: the {other} claims it"
    mine = list(session.transcript)
    if same_match(codes, mine) is not None or len(mine) > len(codes):
        last = session.last_code_number()
        return ClaimHere(
            "answered",
            f"{head}, but this device sent move {last}; the claim does not hold here "
            f"(send move {last} again)",
            session,
            forfeit,
        )
    if len(codes) > len(mine):
        n = len(mine) + 1
        return ClaimHere(
            "read",
            f"{head}, but its transcript holds move {n}, which this device never had: a "
            f"claim never counts before this device has the code; move {n} is read here "
            "and the match goes on",
            session,
            forfeit,
            codes[len(mine)],
        )
    held = session.unanswered_for(now)
    k = len(mine)
    if held is None:
        return ClaimHere(
            "wait",
            f"{head}; this device has no time for when it read move {k} (saved by an "
            f"earlier version): the claim can count here {duration(after_s)} from now; "
            "answer it now",
            session,
            forfeit,
        )
    if held < after_s:
        return ClaimHere(
            "wait",
            f"{head}, but this device read move {k} only {duration(held)} ago by its own "
            f"clock; a claim counts here only after {duration(after_s)}: answer it now",
            session,
            forfeit,
        )
    return ClaimHere(
        "count",
        f"{head}: this device read move {k} {duration(held)} ago by its own clock and has not "
        "answered it; counting the claim ends the match here as a forfeit loss",
        session,
        forfeit,
    )


def count_claim(storage: Storage, here: ClaimHere) -> str:
    """Count a claim :func:`claim_here` found holds (``"count"``), once the player asked:
    the match ends here as it did on the claimer's device, a forfeit loss in the
    statistics (counted once: the match in progress is forgotten), the transcript kept
    with a note. Returns one line saying what was done."""
    session, forfeit = here.session, here.forfeit
    assert here.kind == "count" and session is not None and forfeit is not None
    other = SEATS[1 - session.seat]
    note = (
        f"claimed by the {other} at move {forfeit.move} ({LEARNT_NOTE} from its transcript): "
        f"counted here as a forfeit loss of the {forfeit.role}"
    )
    session.forfeited = True
    write_transcript(storage.home, session, note)
    storage.record_forfeit("remote", won=False)
    session_path(storage.home, session.label).unlink(missing_ok=True)
    return (
        f"match {session.label} was claimed by the {other}: counted here as a forfeit loss "
        f"(move {len(session.transcript)} was left unanswered on this device)"
    )


def is_transcript_text(text: str) -> bool:
    """Whether pasted or read text is a transcript (comment lines, then codes), not a code."""
    return text.lstrip().startswith("# Royal Nine remote match")
