"""``royalnine remote``: play a remote match by QR codes from a terminal, a script or a bot.

The same saved matches as the game (``HOME/remote/<MATCH>/session.json``; the
commands act on the one ``--match ID`` names, by default on the one with the
latest activity, and ``read`` on the one the code itself names), so a match can
be started in the window and continued here, or the other way round. One code
per step: each command that makes a code writes it as a PNG
(``HOME/remote/<MATCH>/move-NN.png``, or ``--out``) and prints it in its text
form; a CODE argument is an image file (PNG or photo), a text file holding
the text form, or the text form itself. ``--json`` prints one JSON object.

    royalnine remote host [--rounds N] [--tens]     start a match; prints code 1
    royalnine remote join CODE                      join with the host's code 1
    royalnine remote list                           the matches here, whose move is due
    royalnine remote status                         where the match stands
    royalnine remote read CODE                      read the opponent's code (and answer it)
    royalnine remote place CELL CELL CELL CELL      place this half's cards (deal order)
    royalnine remote show                           this device's last code again
    royalnine remote rollback                       forget a damaged code that was read
    royalnine remote claim                          the opponent stopped answering: win by forfeit
    royalnine remote export [FILE]                  the transcript so far
    royalnine remote verify TRANSCRIPT              check a finished or abandoned match

Every action on a match in progress takes ``--match ID`` (its 8 hex digits, as
``list`` shows them).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
import time
from os.path import isfile
from pathlib import Path
from typing import Any

from royalnine.cli import path_arg, whole_number
from royalnine.core.cards import Card
from royalnine.core.errors import BadCard, IllegalMove, RoyalNineError
from royalnine.core.files import UnreadableFile, read_capped, write_atomic
from royalnine.core.match import MatchConfig
from royalnine.homelock import HomeInUse, HomeLock, hold
from royalnine.remote.codec import BadCode, decode, match_label
from royalnine.remote.files import (
    CURRENT_FILE,
    TRANSCRIPT_FILE,
    abandon_current,
    claim_here,
    code_path,
    count_claim,
    host_session,
    is_transcript_text,
    join_session,
    judge_forfeit,
    load_session,
    match_folder,
    migrate_current,
    parse_transcript,
    read_session,
    record_claim,
    same_match,
    save_session,
    session_path,
    session_paths,
    transcript_text,
    write_transcript,
)
from royalnine.remote.session import Broken, RemoteSession, check_transcript
from royalnine.remote.textcode import from_text, to_text
from royalnine.storage import Storage, default_home

MODE = "remote"
ENDED_FILE = "remote/ended.json"
SEATS = ("host", "guest")


class CliError(RoyalNineError):
    """A command that cannot be done now; its message is the one line printed."""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``remote`` subcommand and its actions."""
    p = sub.add_parser(
        "remote",
        help="play a remote match by QR codes from the terminal",
        description="Play a remote match by QR codes, one code per step, on the same saved "
        "state as the game. CODE is an image file (PNG or photo), a text file holding a "
        "text code, or the text code itself (groups of five letters and digits). Several "
        "matches may be in progress: an action works on the match --match ID names (list "
        "shows the ids), else on the one with the latest activity; read works on the match "
        "its code belongs to.",
    )
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)

    def action(
        name: str,
        help_text: str,
        *,
        on_match: bool = False,
        match_help: str = "the match to act on (8 hex digits, as list shows them; default: "
        "the one with the latest activity)",
    ) -> argparse.ArgumentParser:
        a = actions.add_parser(name, help=help_text, description=help_text)
        a.add_argument("--home", type=path_arg, help="the data folder (as for the game)")
        a.add_argument("--json", action="store_true", help="print one JSON object")
        if on_match:
            a.add_argument("--match", type=match_id_arg, metavar="ID", help=match_help)
        a.set_defaults(func=run, match=None)
        return a

    host = action("host", "start a remote match as host; writes code 1")
    host.add_argument(
        "--rounds", type=whole_number, default=None, help="rounds (default: the settings)"
    )
    host.add_argument("--tens", action="store_true", default=None, help="play with the tens")
    host.add_argument("--out", type=path_arg, help="write the code PNG here too")
    join = action("join", "join a match with the host's code 1; writes code 2")
    join.add_argument("code", metavar="CODE")
    join.add_argument("--out", type=path_arg, help="write the code PNG here too")
    action("list", "the remote matches in progress here: their ids, and whose move is due in each")
    action("status", "where the match in progress stands", on_match=True)
    read = action(
        "read",
        "read the opponent's code into the match it belongs to (its id is in the code), and "
        "answer it if no placement is needed",
        on_match=True,
        match_help="refuse a code or transcript of any other match than this one (8 hex "
        "digits); a code that does not read goes to this match (default: the latest activity)",
    )
    read.add_argument(
        "code",
        metavar="CODE",
        help="an image, a text file or the text of a code; or the opponent's transcript "
        "(a file, or its text) claiming the match",
    )
    read.add_argument("--out", type=path_arg, help="write the answer's PNG here too")
    place = action("place", "place this half's 4 cards and write the next code", on_match=True)
    place.add_argument(
        "cells",
        nargs="+",
        metavar="CELL",
        help="a cell 0-8 (row-major, 4 is the centre) for each card of the hand in the order "
        "status lists it, or CARD=CELL pairs (e.g. R3=0)",
    )
    place.add_argument("--out", type=path_arg, help="write the code PNG here too")
    show = action("show", "this device's last code again (to send it once more)", on_match=True)
    show.add_argument("--out", type=path_arg, help="write the code PNG here too")
    action(
        "rollback",
        "forget the last code read (it was damaged) and this device's answer",
        on_match=True,
    )
    action(
        "claim",
        "the opponent has not answered for the set wait: win the match by forfeit",
        on_match=True,
    )
    export = action("export", "write the transcript so far (stdout if no FILE or -)", on_match=True)
    export.add_argument("file", nargs="?", type=path_arg, metavar="FILE")
    verify = action(
        "verify",
        "check a transcript: valid or not, the result or where it stops, and its forfeit notes "
        "(it only reports; a claim against this device is counted only by `read`)",
    )
    verify.add_argument(
        "transcript",
        type=path_arg,
        nargs="+",
        metavar="TRANSCRIPT",
        help="a transcript; more: the other device's transcripts of the same match, to "
        "check a forfeit note against",
    )


MATCH_ID = re.compile(r"[0-9A-Fa-f]{8}")


def match_id_arg(text: str) -> str:
    """``--match ID``: a match id as players see it (8 hex digits, any case)."""
    if MATCH_ID.fullmatch(text) is None:
        raise argparse.ArgumentTypeError(
            f"{text[:20]!r} is not a match id (8 hex digits, as `royalnine remote list` shows)"
        )
    return text.upper()


def check_out(path: Path | None) -> None:
    """Refuse an ``--out`` that cannot be written before anything is done, so a bad one
    changes nothing (the one rule of :func:`petitcom_shim.files.check_output_path`)."""
    from petitcom_shim.files import check_output_path, output_error

    if path is None:
        return
    try:
        check_output_path(path)
    except OSError as exc:
        raise CliError(f"--out {output_error(path, exc)}") from None


def run(args: argparse.Namespace) -> int:
    """Do one action; a refusal is one line on stderr and exit status 1 (with ``--json``,
    one JSON line on stdout too)."""
    try:
        lock = _hold(args)
    except HomeInUse as exc:
        if args.json:
            print(json.dumps({"ok": False, "error": str(exc)}))
        print(f"royalnine remote {args.action}: {exc}", file=sys.stderr)
        return 1
    with lock:
        return _run(args)


WRITES = frozenset({"host", "join", "read", "place", "rollback", "claim"})
"""The actions that change the match, its save or the history: they hold the data folder."""


def _hold(args: argparse.Namespace) -> HomeLock | contextlib.nullcontext[None]:
    """The data folder held for an action that writes (:mod:`royalnine.homelock`); the
    others only read and run beside the game."""
    if args.action not in WRITES:
        return contextlib.nullcontext()
    return hold((args.home or default_home()).expanduser(), "command")


def _run(args: argparse.Namespace) -> int:
    storage = Storage(args.home)
    try:
        check_out(getattr(args, "out", None))
        out = ACTIONS[args.action](args, storage)
    except (CliError, BadCode, IllegalMove, BadCard) as exc:
        doc: dict[str, Any] = {"ok": False, "error": str(exc)}
        if isinstance(exc, Broken):
            doc["remedy"] = exc.remedy
        if args.json:
            print(json.dumps(doc))
        print(f"royalnine remote {args.action}: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        reason = exc.strerror or str(exc)
        error = f"{exc.filename}: {reason}" if exc.filename else reason
        if args.json:
            print(json.dumps({"ok": False, "error": error}))
        print(f"royalnine remote {args.action}: {error}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({"ok": True, **out}))
    else:
        print(out.pop("text", ""))
    return 0 if out.get("valid", True) else 1


# -- reading and writing codes --


MAX_TEXT_FILE = 16_000
"""A file holding a text code is a few hundred bytes."""
MAX_TRANSCRIPT_FILE = 4_000_000
"""A transcript of 99 rounds is well under 1 MB even in the text form; more is no transcript."""


def read_code(arg: str) -> bytes:
    """A code from an image file, a text file holding a text code, or a text code."""
    path = Path(arg)
    if not os.path.lexists(path):
        try:
            return from_text(arg)
        except BadCode as exc:
            raise CliError(f"{arg[:40]}: no such file, and not a text code ({exc})") from None
    from petitcom_shim.qr import QRError, decode_image

    try:
        return decode_image(path)
    except QRError as exc:
        image_error = exc
    try:  # not an image: perhaps a file holding a text code
        return from_text(read_capped(path, MAX_TEXT_FILE).decode("utf-8"))
    except (UnreadableFile, FileNotFoundError, UnicodeDecodeError, BadCode):
        raise CliError(str(image_error)) from None  # it names the file


def write_code(storage: Storage, session: RemoteSession, number: int, out: Path | None) -> Path:
    """Write code ``number`` as a PNG in the match folder (and to ``out``); returns its path."""
    from petitcom_shim.qr import encode_png, png_bytes

    code = session.transcript[number - 1]
    if out is not None:  # first: a device that fails (/dev/full) leaves no match folder
        write_output_or_refuse(out, png_bytes(code))
    path = code_path(storage.home, session.label, number)
    path.parent.mkdir(parents=True, exist_ok=True)
    encode_png(code, path)
    return path


def write_output_or_refuse(path: Path, data: bytes) -> None:
    """Write an output file the user named (:func:`petitcom_shim.files.write_output`:
    atomic for a regular file, into a FIFO or device, ``-`` = stdout); a refusal or
    failure is a :class:`CliError` naming the path."""
    from petitcom_shim.files import output_error, write_output

    try:
        write_output(path, data)
    except OSError as exc:
        raise CliError(output_error(path, exc)) from None


def pump(storage: Storage, session: RemoteSession, out: Path | None) -> list[int]:
    """Make every code due from this device now; returns their numbers."""
    made: list[int] = []
    while session.my_turn and not session.needs_placement:
        session.compose()
        made.append(len(session.transcript))
        write_code(storage, session, made[-1], out)
    return made


def settle(storage: Storage, session: RemoteSession) -> None:
    """Save the session; once the match is over here, record it once and keep its transcript."""
    if session.over and not session.my_turn:
        write_atomic(storage.home / ENDED_FILE, session.to_json())
        if session.claimed:
            record_claim(storage, session)
            return
        write_transcript(storage.home, session)
        outcome = session.outcome()
        assert outcome is not None
        storage.record_result(outcome, MODE, seat=session.seat)
        session_path(storage.home, session.label).unlink(missing_ok=True)
        keep_in_history(storage, session)
    else:
        save_session(storage.home, session)


def keep_in_history(storage: Storage, session: RemoteSession) -> None:
    """Keep the finished match in the history as the game does (after the session is
    settled: a history that cannot be written only says so on stderr)."""
    from royalnine import history

    try:
        history.keep_remote(storage, session.transcript, session.seat)
    except OSError as exc:
        print(f"royalnine remote: not kept in the history: {exc.strerror or exc}", file=sys.stderr)


def current(storage: Storage, label: str | None = None) -> RemoteSession:
    """The match in progress ``label`` names (default: the latest activity); a refusal if
    there is none."""
    session = load_session(storage.home, label)
    if session is None:
        if label is not None:
            raise CliError(
                f"no match {label} in progress here (`royalnine remote list` lists them)"
            )
        raise CliError("no remote match in progress here: host or join one")
    return session


def current_or_ended(storage: Storage, label: str | None = None) -> RemoteSession:
    """The match in progress (``label``'s, or the latest), else the last one that ended on
    this device (if it is ``label``'s)."""
    session = load_session(storage.home, label)
    if session is not None:
        return session
    ended = storage.home / ENDED_FILE
    session = read_session(ended)
    if session is not None and label in (None, session.label):
        return session
    if label is not None:
        raise CliError(f"no match {label} here (`royalnine remote list` shows the matches)")
    raise CliError("no remote match here: host or join one")


def match_of_code(storage: Storage, code: bytes, label: str | None) -> RemoteSession:
    """The match a code is read into: the one its own match id names, whichever match had
    the latest activity (a reply in match A is read into A while this device also plays
    B). A code that names no match (it does not decode) goes to ``label``'s match, or the
    latest, whose reading then says what is wrong with it."""
    try:
        msg = decode(code)
    except BadCode:
        return current(storage, label)
    own = match_label(msg.match_id)
    if label is not None and label != own:
        raise CliError(f"this code belongs to match {own}, not to match {label}")
    session = load_session(storage.home, own)
    if session is not None:
        return session
    if msg.seq == 0:
        raise CliError(
            f"this is code 1 of match {own}, which is not played here: to join it, "
            "`royalnine remote join CODE`"
        )
    raise CliError(f"this code belongs to match {own}, which is not in progress here")


# -- describing --


def describe(storage: Storage, session: RemoteSession, made: list[int]) -> dict[str, Any]:
    """The state as JSON-ready data, with a readable ``text``."""
    v = session.view()
    settings = storage.load_settings()
    now = time.time()
    refusal = session.claim_refusal(now, settings.claim_after_s)
    last = session.last_code_number()
    doc: dict[str, Any] = {
        "match": session.label,
        "seat": session.seat,
        "role": SEATS[session.seat],
        "rounds": session.config.rounds,
        "tens": session.config.tens,
        "codes": len(session.transcript),
        "state": session.waiting_message(),
        "my_turn": session.my_turn,
        "needs_placement": session.needs_placement,
        "waiting_for_opponent": session.waiting_for_opponent(),
        "finished": session.finished,
        "claimed": session.claimed,
        "forfeit": "won" if session.claimed else "lost" if session.forfeited else None,
        "can_claim": refusal is None,
        "claim_refusal": refusal,
        "round": v.round_number,
        "phase": v.phase.name.lower(),
        "hand": [str(c) for c in v.hand],
        "opponent_dealt": [str(c) for c in v.opponent_dealt],
        "grid": [None if c is None else str(c) for c in v.grid],
        "opponent_grid": [None if c is None else str(c) for c in v.opponent_grid],
        "centre": None if v.centre is None else str(v.centre),
        "results": [list(r.points) for r in v.results],
        "totals": list(v.totals),
        "made": made,
        "last_code": last,
    }
    if last is not None:
        code = session.transcript[last - 1]
        doc["last_code_file"] = str(code_path(storage.home, session.label, last))
        doc["last_code_text"] = to_text(code)
    doc["text"] = _text(doc, made)
    return doc


def _text(doc: dict[str, Any], made: list[int]) -> str:
    lines = [f"match {doc['match']} ({doc['role']}, rounds: {doc['rounds']}): {doc['state']}"]
    if doc["claimed"]:
        lines.append("won by forfeit: the other player stopped answering")
    elif doc["forfeit"] == "lost":
        lines.append("lost by forfeit: the other player claimed the match")
    for number in made:
        lines.append(f"code {number} to send: {doc['last_code_file']}")
    if made:
        lines.append(doc["last_code_text"])
    if doc["needs_placement"]:
        lines.append(f"round {doc['round']}, {doc['phase']}: hand {' '.join(doc['hand'])}")
        lines.append(f"opponent's cards this half: {' '.join(doc['opponent_dealt'])}")
    lines.append("your grid:      " + _grid(doc["grid"]))
    lines.append("opponent grid:  " + _grid(doc["opponent_grid"]))
    mine, theirs = doc["totals"][doc["seat"]], doc["totals"][1 - doc["seat"]]
    lines.append(f"totals: you {mine}, opponent {theirs}")
    if doc["waiting_for_opponent"] and not doc["can_claim"]:
        lines.append(f"claim: {doc['claim_refusal']}")
    elif doc["can_claim"]:
        lines.append("the opponent has not answered: you may claim the match")
    return "\n".join(lines)


def _grid(cells: list[str | None]) -> str:
    rows = (cells[r * 3 : r * 3 + 3] for r in range(3))
    return " | ".join(" ".join(f"{c or '-':>3}" for c in row) for row in rows)


# -- actions --


def do_host(args: argparse.Namespace, storage: Storage) -> dict[str, Any]:
    settings = storage.load_settings()
    rounds = settings.rounds if args.rounds is None else args.rounds
    if not 1 <= rounds <= 99:
        raise CliError(f"--rounds {rounds}: 1-99 are allowed")
    tens = settings.tens if args.tens is None else args.tens
    session = host_session(storage.home, MatchConfig(rounds=rounds, tens=tens))
    made = pump(storage, session, args.out)  # a code that cannot be written forfeits nothing
    forfeited = abandon_current(storage)
    save_session(storage.home, session)
    return _with_forfeit(describe(storage, session, made), forfeited)


def _with_forfeit(doc: dict[str, Any], forfeited: str | None) -> dict[str, Any]:
    """Say that a new match replaced one this device owed a code in (a forfeit loss)."""
    if forfeited is not None:
        doc["forfeited"] = forfeited
        doc["text"] = f"match {forfeited} abandoned: lost by forfeit\n" + doc["text"]
    return doc


def do_join(args: argparse.Namespace, storage: Storage) -> dict[str, Any]:
    # a bad code, or one whose id a match here already has, forfeits nothing
    session = join_session(storage.home, read_code(args.code))
    made = pump(storage, session, args.out)
    forfeited = abandon_current(storage)
    save_session(storage.home, session)
    return _with_forfeit(describe(storage, session, made), forfeited)


def do_list(args: argparse.Namespace, storage: Storage) -> dict[str, Any]:
    """Every match in progress here, the latest activity first: its id, and whose move is
    due. A damaged save is listed as such (and left as it is)."""
    damaged: list[dict[str, str | None]] = []
    try:
        migrate_current(storage.home)
    except BadCode as exc:
        damaged.append({"match": None, "file": CURRENT_FILE, "error": str(exc)})
    matches: list[dict[str, Any]] = []
    for path in session_paths(storage.home):
        try:
            session = read_session(path)
        except BadCode as exc:
            damaged.append({"match": path.parent.name, "file": str(path), "error": str(exc)})
            continue
        if session is not None:
            matches.append(list_entry(session))
    lines = [
        f"{m['match']}  {m['role']:<5}  round {m['round']} of {m['rounds']}  "
        f"move {m['due_move']} due from {'you' if m['due'] == 'you' else 'the opponent'}"
        f"  ({m['state']})"
        for m in matches
    ]
    lines += [f"{d['match'] or d['file']}  damaged: {d['error']}" for d in damaged]
    if not matches and not damaged:
        lines.append("no remote match in progress here: host or join one")
    return {"matches": matches, "damaged": damaged, "text": "\n".join(lines)}


def list_entry(session: RemoteSession) -> dict[str, Any]:
    """One match of ``list``: its id, this device's seat, and whose move is due."""
    mine = session.my_turn or session.needs_placement
    due_seat = session.seat if mine else 1 - session.seat
    return {
        "match": session.label,
        "seat": session.seat,
        "role": SEATS[session.seat],
        "rounds": session.config.rounds,
        "round": session.view().round_number,
        "codes": len(session.transcript),
        "due": "you" if mine else "opponent",
        "due_role": SEATS[due_seat],
        "due_move": len(session.transcript) + 1,
        "needs_placement": session.needs_placement,
        "state": session.waiting_message(),
    }


def do_status(args: argparse.Namespace, storage: Storage) -> dict[str, Any]:
    return describe(storage, current_or_ended(storage, args.match), [])


def do_read(args: argparse.Namespace, storage: Storage) -> dict[str, Any]:
    claimed = read_claim(args, storage)
    if claimed is not None:
        return claimed
    code = read_code(args.code)
    session = match_of_code(storage, code, args.match)
    return receive_and_answer(args, storage, session, code)


def receive_and_answer(
    args: argparse.Namespace, storage: Storage, session: RemoteSession, code: bytes
) -> dict[str, Any]:
    """Read one code of the opponent, make every code due in answer, save."""
    try:
        session.receive(code)
    except Broken as exc:  # a damaged reply: showing the code again won't restart the wait
        if exc.remedy == "show" and not session.damaged_reply:
            session.note_damaged_reply()
            save_session(storage.home, session)
        raise
    made = pump(storage, session, args.out)
    doc = describe(storage, session, made)
    settle(storage, session)
    return doc


def read_claim(args: argparse.Namespace, storage: Storage) -> dict[str, Any] | None:
    """``read`` of the other player's transcript (a file, or its text) that claims the
    match against this device (the match its codes' own id names; with ``--match``, a
    transcript of any other match is refused); None if ``args.code`` is no transcript.

    The claim counts (a forfeit loss here) only if :func:`claim_here` finds it holds by
    this device's own codes and clock; a transcript holding the code this device never
    had is read as that code, and the match goes on. Anything else is a refusal that
    changes nothing. The output says what was done and why."""
    path = Path(args.code)
    try:  # isfile is False for any name the system refuses: a transcript's text is too long
        text = read_capped(path, MAX_TRANSCRIPT_FILE).decode("utf-8") if isfile(path) else args.code
    except (UnreadableFile, OSError, UnicodeDecodeError):
        return None
    if not is_transcript_text(text):
        return None
    codes, notes = parse_transcript(text)
    verdict = judge_forfeit(check_transcript(codes), notes)
    if verdict.refused:
        raise CliError(f"a transcript with a refused note: {verdict.refused[0]}")
    own = match_label(decode(codes[0]).match_id)
    if args.match is not None and args.match != own:  # as for a code (match_of_code)
        raise CliError(f"this transcript belongs to match {own}, not to match {args.match}")
    now = time.time()
    here = claim_here(storage.home, codes, verdict, now, storage.load_settings().claim_after_s)
    session = here.session
    if here.kind == "read" and session is not None and here.code is not None:
        doc = receive_and_answer(args, storage, session, here.code)
        doc["claim"] = {"counted": False, "kind": here.kind, "text": here.text}
        doc["text"] = here.text + "\n" + doc["text"]
        return doc
    if here.kind != "count" or session is None:
        if here.kind == "wait" and session is not None and session.received_at is None:
            session.received_at = now  # saved by an earlier version: the wait starts now
            save_session(storage.home, session)
        raise CliError(here.text)
    told = count_claim(storage, here)
    write_atomic(storage.home / ENDED_FILE, session.to_json())  # for `status`
    doc = describe(storage, session, [])
    doc["claim"] = {"counted": True, "kind": here.kind, "text": told}
    doc["text"] = f"{here.text}.\n{told}\n{doc['text']}"
    return doc


def do_place(args: argparse.Namespace, storage: Storage) -> dict[str, Any]:
    session = current(storage, args.match)
    if not session.needs_placement:
        raise CliError(session.waiting_message())
    hand = session.view().hand
    session.place(parse_cells(args.cells, hand, tens=session.config.tens))
    made = pump(storage, session, args.out)
    doc = describe(storage, session, made)
    settle(storage, session)
    return doc


def parse_cells(words: list[str], hand: tuple[Card, ...], *, tens: bool) -> dict[Card, int]:
    """A placement from 4 cells (in hand order) or CARD=CELL pairs."""
    placement: dict[Card, int] = {}
    if all("=" in w for w in words):
        for word in words:
            name, _, cell = word.partition("=")
            placement[Card.parse(name, tens=tens)] = _cell(cell)
    elif len(words) == len(hand):
        placement = {card: _cell(w) for card, w in zip(hand, words, strict=True)}
    else:
        cards = " ".join(map(str, hand))
        raise CliError(f"give {len(hand)} cells, one per card of the hand ({cards})")
    return placement


def _cell(word: str) -> int:
    """A cell 0-8 as typed: one ASCII digit (not "²", "⑤" or a 5,000-digit number)."""
    cell = word.strip()
    if len(cell) != 1 or cell not in "012345678":
        raise CliError(f"{word[:20]!r} is not a cell 0-8")
    return int(cell)


def do_show(args: argparse.Namespace, storage: Storage) -> dict[str, Any]:
    session = current_or_ended(storage, args.match)
    number = session.last_code_number()
    if number is None:
        raise CliError("this device has sent no code yet")
    write_code(storage, session, number, args.out)
    if session.waiting_for_opponent():  # shown again: the claim wait starts again
        session.mark_shown()
        save_session(storage.home, session)
    return describe(storage, session, [number])


def do_rollback(args: argparse.Namespace, storage: Storage) -> dict[str, Any]:
    session = current(storage, args.match)
    dropped = session.rollback()
    save_session(storage.home, session)
    doc = describe(storage, session, [])
    doc["rolled_back"] = dropped
    doc["text"] = (
        f"forgot move {dropped} and after; read move {dropped} again (only the same code: "
        "a move read here is never replaced)\n" + doc["text"]
    )
    return doc


def do_claim(args: argparse.Namespace, storage: Storage) -> dict[str, Any]:
    session = current(storage, args.match)
    session.claim(time.time(), storage.load_settings().claim_after_s)
    doc = describe(storage, session, [])
    settle(storage, session)
    doc["transcript"] = str(match_folder(storage.home, session.label) / TRANSCRIPT_FILE)
    doc["text"] += f"\ntranscript: {doc['transcript']}"
    return doc


def _codes(n: int) -> str:
    """ "1 code", "25 codes": a count as a person writes it."""
    return f"{n} code" if n == 1 else f"{n} codes"


def do_export(args: argparse.Namespace, storage: Storage) -> dict[str, Any]:
    session = current_or_ended(storage, args.match)
    text = transcript_text(session)
    if args.file is None or str(args.file) == "-":
        return {"match": session.label, "codes": len(session.transcript), "text": text.rstrip()}
    write_output_or_refuse(args.file, text.encode("utf-8"))
    return {
        "match": session.label,
        "codes": len(session.transcript),
        "file": str(args.file),
        "text": f"{_codes(len(session.transcript))} written to {args.file}",
    }


def read_transcript(path: Path) -> tuple[list[bytes], list[str]]:
    """The codes and comment lines of a transcript file; CliError (one line) if unreadable."""
    try:
        data = read_capped(path, MAX_TRANSCRIPT_FILE)
        return parse_transcript(data.decode("utf-8"))
    except UnreadableFile as exc:
        raise CliError(f"{path}: {exc}") from None
    except UnicodeDecodeError as exc:
        raise CliError(f"{path}: not a text file ({exc.reason})") from None


def do_verify(args: argparse.Namespace, storage: Storage) -> dict[str, Any]:
    first, *rest = args.transcript
    try:
        codes, notes = read_transcript(first)
        result = check_transcript(codes)
        others = [read_transcript(path)[0] for path in rest]
        for other in others:
            check_transcript(other)
            differs = same_match(codes, other)
            if differs is not None:
                raise BadCode(differs)
    except BadCode as exc:
        return {"valid": False, "reason": str(exc), "text": f"INVALID: {exc}"}
    verdict = judge_forfeit(result, notes, tuple(others))
    forfeit = verdict.forfeit
    doc: dict[str, Any] = {
        "valid": not verdict.refused,
        "codes_valid": True,
        "complete": result.complete,
        "codes": result.codes,
        "due_seat": result.due_seat,
        "due_role": None if result.due_seat is None else SEATS[result.due_seat],
        "due_move": None if result.complete else result.codes + 1,
        "results": [list(r.points) for r in result.match.results],
        "totals": list(result.match.totals()),
        "notes": list(verdict.accepted),
        "forfeit": None
        if forfeit is None
        else {
            "seat": forfeit.seat,
            "role": forfeit.role,
            "move": forfeit.move,
            "claimed": forfeit.claimed,
        },
        "refused_notes": list(verdict.refused),
        "remarks": list(verdict.remarks),
    }
    text = [result.summary(), *(f"note: {n}" for n in verdict.accepted)]
    if verdict.refused:
        doc["reason"] = "refused note: " + verdict.refused[0]
        text[0] = "INVALID forfeit note; " + text[0]
    text += [f"refused: {n}" for n in verdict.refused] + list(verdict.remarks)
    for r in result.match.results:
        text.append(f"round {r.number}: host {r.points[0]} - guest {r.points[1]}")
    # verify only reports: what `read` of this file would do to a match here, never done
    here = claim_here(
        storage.home, codes, verdict, time.time(), storage.load_settings().claim_after_s
    )
    if here.kind != "none":
        would = {
            "count": "`royalnine remote read` of this file would count it here",
            "read": "`royalnine remote read` of this file would read that move",
        }.get(here.kind, "it would not count here")
        doc["here"] = {"kind": here.kind, "would_count": here.kind == "count", "text": here.text}
        text.append(f"here: {here.text} ({would}; verify changes nothing)")
    doc["text"] = "\n".join(text)
    return doc


ACTIONS = {
    "host": do_host,
    "join": do_join,
    "list": do_list,
    "status": do_status,
    "read": do_read,
    "place": do_place,
    "show": do_show,
    "rollback": do_rollback,
    "claim": do_claim,
    "export": do_export,
    "verify": do_verify,
}
