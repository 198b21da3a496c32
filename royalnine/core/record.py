"""Match records as versioned JSON: the config, the actions in order, and free-form metadata.

A saved match *is* its record: loading replays every action through the rules,
so a file that was edited into an impossible match is refused, not trusted.
Files are written atomically so a crash never leaves half a save.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from royalnine.core.cards import Card
from royalnine.core.errors import BadCard, CorruptRecord, IllegalMove
from royalnine.core.files import (
    UnreadableFile,
    parse_json,
    read_capped,
    version_is,
    write_atomic,
)
from royalnine.core.match import (
    Action,
    Confirm,
    Deal,
    Match,
    MatchConfig,
    NextRound,
    Place,
    Unplace,
)

FORMAT = "royalnine.match"
VERSION = 1
MAX_BYTES = 1_000_000

MetaValue = str | int | float | bool | None


@dataclass(frozen=True)
class MatchRecord:
    """Everything needed to rebuild a match, plus metadata such as player names."""

    config: MatchConfig
    actions: tuple[Action, ...]
    meta: Mapping[str, MetaValue] = field(default_factory=dict)

    @classmethod
    def of(cls, match: Match, meta: Mapping[str, MetaValue] | None = None) -> MatchRecord:
        """The record of a match so far."""
        return cls(match.config, match.history, dict(meta or {}))

    def replay(self) -> Match:
        """Rebuild the match; raises :class:`CorruptRecord` if an action is illegal."""
        match = Match.new(self.config)
        for i, action in enumerate(self.actions, 1):
            try:
                match = match.apply(action)
            except IllegalMove as exc:
                raise CorruptRecord(f"action {i} is illegal: {exc}") from None
        return match

    def to_json(self) -> str:
        """Versioned JSON text."""
        doc = {
            "format": FORMAT,
            "version": VERSION,
            "config": {"rounds": self.config.rounds, "tens": self.config.tens},
            "actions": [action_to_json(a) for a in self.actions],
            "meta": dict(self.meta),
        }
        return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str | bytes) -> MatchRecord:
        """Parse and check a record (structure only; :meth:`replay` checks the rules)."""
        if len(text) > MAX_BYTES:
            raise CorruptRecord(f"match file is too large ({len(text)} bytes)")
        try:
            doc = parse_json(text)
        except UnreadableFile as exc:
            raise CorruptRecord(f"not a Royal Nine match file ({exc})") from None
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise CorruptRecord("not a Royal Nine match file (missing or foreign 'format')")
        if not version_is(doc, VERSION):
            raise CorruptRecord(
                f"match file version {doc.get('version')!r} is not supported (this is {VERSION})"
            )
        try:
            cfg = doc["config"]
            rounds, tens = cfg["rounds"], cfg["tens"]
            bad_rounds = not isinstance(rounds, int) or isinstance(rounds, bool)
            if bad_rounds or not isinstance(tens, bool):
                raise TypeError("config values have the wrong type")
            config = MatchConfig(rounds=rounds, tens=tens)
            actions = tuple(action_from_json(a, tens=tens) for a in doc["actions"])
            meta = doc.get("meta", {})
            if not isinstance(meta, dict) or not all(
                isinstance(v, str | int | float | bool | type(None)) for v in meta.values()
            ):
                raise TypeError("meta must be an object of plain values")
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise CorruptRecord(f"damaged match file: {exc}") from None
        return cls(config, actions, meta)


def action_to_json(action: Action) -> list[Any]:
    """A compact JSON form: ``["deal", "R1,B2,..."]``, ``["place", 0, "R1", 3]``..."""
    if isinstance(action, Deal):
        return ["deal", ",".join(str(c) for c in action.cards)]
    if isinstance(action, Place):
        return ["place", action.seat, str(action.card), action.cell]
    if isinstance(action, Unplace):
        return ["unplace", action.seat, str(action.card)]
    if isinstance(action, Confirm):
        return ["confirm", action.seat]
    return ["next"]


def action_from_json(item: Any, *, tens: bool) -> Action:
    """Inverse of :func:`action_to_json`; raises ValueError/TypeError on anything else."""
    if not isinstance(item, list) or not item or not isinstance(item[0], str):
        raise ValueError(f"bad action {item!r}")
    kind, args = item[0], item[1:]

    def seat(x: Any) -> int:
        if not isinstance(x, int) or isinstance(x, bool) or x not in (0, 1):
            raise ValueError(f"bad seat {x!r}")
        return x

    def card(x: Any) -> Card:
        if not isinstance(x, str):
            raise ValueError(f"bad card {x!r}")
        try:
            return Card.parse(x, tens=tens)
        except BadCard as exc:
            raise ValueError(str(exc)) from None

    if kind == "deal" and len(args) == 1 and isinstance(args[0], str):
        return Deal(tuple(card(c) for c in args[0].split(",")))
    if kind == "place" and len(args) == 3:
        cell = args[2]
        if not isinstance(cell, int) or isinstance(cell, bool):
            raise ValueError(f"bad cell {cell!r}")
        return Place(seat(args[0]), card(args[1]), cell)
    if kind == "unplace" and len(args) == 2:
        return Unplace(seat(args[0]), card(args[1]))
    if kind == "confirm" and len(args) == 1:
        return Confirm(seat(args[0]))
    if kind == "next" and not args:
        return NextRound()
    raise ValueError(f"bad action {item!r}")


def match_to_json(match: Match, meta: Mapping[str, MetaValue] | None = None) -> str:
    """A match state as JSON (its record)."""
    return MatchRecord.of(match, meta).to_json()


def match_from_json(text: str | bytes) -> Match:
    """Rebuild a match from :func:`match_to_json` output; raises :class:`CorruptRecord`."""
    return MatchRecord.from_json(text).replay()


def save_record(path: Path, record: MatchRecord) -> None:
    """Save a record atomically."""
    write_atomic(path, record.to_json())


def load_record(path: Path) -> MatchRecord:
    """Load a record; a missing or unusable file raises :class:`CorruptRecord` naming it."""
    try:
        data = read_capped(path, MAX_BYTES)
    except FileNotFoundError:
        raise CorruptRecord(f"{path}: cannot read (no such file)") from None
    except UnreadableFile as exc:
        raise CorruptRecord(f"{path}: {exc}") from None
    try:
        return MatchRecord.from_json(data)
    except CorruptRecord as exc:
        raise CorruptRecord(f"{path}: {exc}") from None
