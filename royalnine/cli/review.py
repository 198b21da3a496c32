"""``royalnine review RECORD [--json] [--out DIR]``: judge every placement of a finished match.

RECORD is a match record (a file of the history, ``royalnine demo --out``'s
``match.json``, any ``royalnine.match`` file of a finished match), a remote
transcript (``royalnine remote export``: one code a line, hex or text) or a
remote match's ``session.json``. Each placement is judged from what that seat
could see then (:mod:`royalnine.review`).

``--json`` prints one object::

    {"format": "royalnine.review", "version": 1, "rounds": 5, "tens": false,
     "totals": [21, 25], "names": ["YOU", "CPU"],
     "decisions": [{"round": 1, "half": 1, "seat": 0, "name": "YOU",
                    "played": {"R2": 0, ...}, "played_ev": 4.1, "best": {"R2": 1, ...},
                    "best_ev": 4.69, "loss": 0.59}, ...],
     "summary": [{"seat": 0, "name": "YOU", "loss": 3.2, "luck": -1.1, "points": 21,
                  "expected": 22.1, "biggest_mistake": 3}, ...]}

``names`` (and each entry's ``name``) are the seats' names as the game shows them
(English): YOU and CPU, YOU and RIVAL (a remote match's ``session.json`` knows which seat
was this player's), HOST and GUEST (a bare transcript does not), PLAYER 1 and PLAYER 2
(two players on one machine, or a record that does not say). ``seat`` (0 or 1) stays for
tools that read it; the text report uses the names only.

``decisions`` has one entry per placement in play order (round, half, seat),
cells 0-8 row-major in the order the cards were dealt; EVs are expected final
scores of the grid, rounded to 4 places, and ``loss`` is ``best_ev -
played_ev`` (computed exactly, then rounded). ``summary`` has one entry per
seat; ``biggest_mistake`` is the index in ``decisions`` of its costliest
placement (null if none lost anything).

``--out DIR`` writes one screenshot per review step (``step-001.png``...),
headless. Bad input (not a match, an impossible or unfinished match, a
truncated transcript, a newer version) exits with status 1 and one line on
stderr; nothing is written.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from royalnine.cli import path_arg, refuse
from royalnine.core.cards import Card
from royalnine.core.errors import CorruptRecord
from royalnine.core.files import UnreadableFile, parse_json, read_capped
from royalnine.core.match import Match
from royalnine.core.record import FORMAT, MatchRecord, MetaValue
from royalnine.i18n import seat_names
from royalnine.remote.session import SAVE_FORMAT as SESSION_FORMAT

if TYPE_CHECKING:  # imported when run: it loads numpy, which the errors do not need
    from royalnine.review import Analysis

MAX_INPUT = 4_000_000
"""The largest file read: a transcript of 99 rounds is far below (the remote verifier's cap)."""


class BadReview(ValueError):
    """Input that is not a finished match to review; ``str()`` is one line."""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the ``review`` subcommand."""
    p = sub.add_parser(
        "review",
        help="judge every placement of a finished match against the exact best",
        description="Step through a finished match: each placement with the best placement by "
        "exact expected score, its expected score and the expected points lost, judged from "
        "what that player could see then; per player the total loss and luck (points minus "
        "expected points). RECORD is a match record (history file, demo match.json) or a "
        "remote transcript.",
    )
    p.add_argument("record", type=Path, metavar="RECORD")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--out", type=path_arg, default=None, help="folder for one screenshot per step")
    p.add_argument("--lang", choices=("en", "ja"), default="en", help="language of screenshots")
    p.set_defaults(func=run)


def load_match(path: Path) -> tuple[Match, dict[str, MetaValue]]:
    """The finished match in ``path`` and its metadata; raises :class:`BadReview`."""
    try:
        data = read_capped(path, MAX_INPUT)
    except FileNotFoundError:
        raise BadReview(f"{path}: no such file") from None
    except UnreadableFile as exc:
        raise BadReview(f"{path}: {exc}") from None
    doc: Any = None
    if data.lstrip()[:1] == b"{":
        try:
            doc = parse_json(data)
        except UnreadableFile as exc:
            raise BadReview(f"{path}: not a match record ({exc})") from None
    try:
        if isinstance(doc, dict) and doc.get("format") == FORMAT:
            record = MatchRecord.from_json(data)
            match = record.replay()
            if not match.is_over:
                raise BadReview(
                    f"{path}: the match is not over (round {match.round.number} of "
                    f"{match.config.rounds}); only a finished match is reviewed"
                )
            return match, dict(record.meta)
        if isinstance(doc, dict) and doc.get("format") == SESSION_FORMAT:
            return _from_session(path, data)
        if isinstance(doc, dict):
            raise BadReview(f"{path}: not a Royal Nine match record (missing or foreign 'format')")
        return _from_transcript(path, data), {"mode": "remote"}
    except CorruptRecord as exc:
        raise BadReview(f"{path}: {exc}") from None


def _from_transcript(path: Path, data: bytes) -> Match:
    from royalnine.history import match_of_transcript
    from royalnine.remote.codec import BadCode
    from royalnine.remote.files import parse_transcript

    try:
        codes, _notes = parse_transcript(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise BadReview(f"{path}: not a match record or a transcript (not text)") from None
    except BadCode as exc:
        raise BadReview(f"{path}: not a match record or a transcript: {exc}") from None
    if not codes:
        raise BadReview(f"{path}: not a match record or a transcript (no codes)")
    return match_of_transcript(codes)


def _from_session(path: Path, data: bytes) -> tuple[Match, dict[str, MetaValue]]:
    from royalnine.history import match_of_transcript
    from royalnine.remote.codec import BadCode
    from royalnine.remote.session import RemoteSession

    try:
        session = RemoteSession.from_json(data.decode("utf-8"))
    except (BadCode, UnicodeDecodeError) as exc:
        raise BadReview(f"{path}: {exc}") from None
    match = match_of_transcript(list(session.transcript))
    return match, {"mode": "remote", "seat": session.seat}


def cells_json(cells: dict[Card, int]) -> dict[str, int]:
    """``{"R2": 0, ...}`` in the order given."""
    return {str(card): cell for card, cell in cells.items()}


def ev(value: Fraction) -> float:
    """An expectation as printed: rounded to 4 places."""
    return round(float(value), 4)


def report(
    match: Match, analysis: Analysis, names: tuple[str, str] = ("PLAYER 1", "PLAYER 2")
) -> dict[str, Any]:
    """The JSON document of a review (see the module docstring); ``names`` are the seats'
    names as the game shows them (:func:`royalnine.i18n.seat_names`)."""
    from royalnine.review import summarise

    decisions = analysis.decisions
    summary = []
    for s in summarise(match, decisions):
        biggest = None if s.biggest is None else decisions.index(s.biggest)
        summary.append(
            {
                "seat": s.seat,
                "name": names[s.seat],
                "loss": ev(s.loss),
                "luck": ev(s.luck),
                "points": s.points,
                "expected": ev(s.expected),
                "biggest_mistake": biggest,
            }
        )
    return {
        "format": "royalnine.review",
        "version": 1,
        "rounds": match.config.rounds,
        "tens": match.config.tens,
        "totals": list(match.totals()),
        "names": list(names),
        "decisions": [
            {
                "round": d.round,
                "half": d.half,
                "seat": d.seat,
                "name": names[d.seat],
                "played": cells_json(d.played),
                "played_ev": ev(d.played_ev),
                "best": cells_json(d.best),
                "best_ev": ev(d.best_ev),
                "loss": ev(d.loss),
            }
            for d in decisions
        ],
        "summary": summary,
    }


def text_report(doc: dict[str, Any]) -> str:
    """The review as lines of text."""
    halves = ("", "first", "second")
    width = max(len(name) for name in doc["names"])
    lines = []
    for d in doc["decisions"]:
        verdict = "best" if d["loss"] == 0 else f"lost {d['loss']:.4f}"
        lines.append(
            f"round {d['round']:>2} {halves[d['half']]:<6} half  {d['name']:<{width}}  "
            f"played {d['played_ev']:7.4f}  best {d['best_ev']:7.4f}  {verdict}"
        )
    for s in doc["summary"]:
        k = s["biggest_mistake"]
        if k is None:
            worst = "no mistake"
        else:
            d = doc["decisions"][k]
            worst = f"biggest mistake round {d['round']} {halves[d['half']]} half ({d['loss']:.4f})"
        lines.append(
            f"{s['name']}: points {s['points']}, expected {s['expected']:.4f}, "
            f"lost {s['loss']:.4f}, luck {s['luck']:+.4f}; {worst}"
        )
    return "\n".join(lines)


def check_out(out: Path, count: int) -> list[Path]:
    """The screenshot paths in ``out``; raises :class:`BadReview` if one may not be written
    (the folder is not a folder, a shot's name breaks the one output rule of
    :func:`petitcom_shim.files.check_output_path`)."""
    from petitcom_shim.files import check_output_path, output_error

    if os.path.lexists(out) and not out.is_dir():
        raise BadReview(f"--out {out}: not a folder")
    paths = [out / f"step-{i:03d}.png" for i in range(1, count + 1)]
    if not out.is_dir():
        return paths  # made before the shots are written: nothing in it yet
    for path in paths:
        try:
            check_output_path(path)
        except OSError as exc:
            raise BadReview(f"--out {output_error(path, exc)}") from None
    return paths


def screenshots(
    match: Match, meta: dict[str, MetaValue], analysis: Analysis, out: Path, lang: str
) -> list[Path]:
    """One PNG per review step in ``out``, drawn headless; each written atomically
    (:meth:`Machine.screenshot`)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from petitcom_shim import Machine
    from royalnine.app import App
    from royalnine.screens.review import ReviewScene
    from royalnine.storage import Settings, Storage

    m = Machine(headless=True, seed=1)
    try:
        settings = Settings(sound=False, music=False, effects=False, lang=lang)
        with tempfile.TemporaryDirectory(prefix="royalnine-review-") as home:
            scene = ReviewScene(match, meta, analysis=analysis)
            app = App(m, Storage(Path(home)), settings, first=lambda _app: scene)
            assert scene.builder is not None
            paths = check_out(out, len(scene.builder.all()))
            out.mkdir(parents=True, exist_ok=True)
            for i, path in enumerate(paths):
                scene.go(app, i)
                app.step(12)  # let the cards glide to their places
                m.screenshot(path)  # files.write_output: atomic, synced, keeps the mode
    finally:
        m.close()
    return paths


def run(args: argparse.Namespace) -> int:
    """Review a match; exit status 1 with one line on stderr on bad input."""
    from royalnine.review import Analysis

    try:
        match, meta = load_match(args.record)
        analysis = Analysis(match)
        if args.out is not None:
            check_out(args.out, 0)
    except BadReview as exc:
        return refuse("review", str(exc), args.json)
    analysis.run_here()
    if analysis.failed:  # a bug, not the input: say so in one line all the same
        return refuse("review", f"the analysis failed: {analysis.failed}", args.json)
    doc = report(match, analysis, seat_names(meta))
    if args.out is not None:
        try:
            paths = screenshots(match, meta, analysis, args.out, args.lang)
        except BadReview as exc:
            return refuse("review", str(exc), args.json)
        except OSError as exc:
            return refuse("review", f"--out {args.out}: {exc.strerror or exc}", args.json)
        if not args.json:
            print(f"wrote {len(paths)} screenshots to {args.out}")
    print(json.dumps(doc) if args.json else text_report(doc))
    return 0
