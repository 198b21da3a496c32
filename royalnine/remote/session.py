"""A remote match between two devices that exchange one QR code per move.

The protocol (see docs/remote.md for the argument):

* **Deals by commit-reveal.** Each player keeps a secret seed and a hash chain
  over it; the first two messages exchange the chain ends (commitments).
  Each deal stage's randomness hashes the match id, the stage and both
  players' chain values for that stage, which are revealed one per stage,
  each checked with one hash. Nobody can choose or bias a deal, and a value
  is revealed only once every placement before that stage is fixed, so
  nobody learns cards early. The common card is the last stage of a round.
* **Simultaneous placing.** The first player to place a half sends a sealed
  commitment; the second places in the clear; the first then opens the seal.
* **History.** Each message carries its move number and the hash of the
  previous message, and every item is checked against the rules before any
  state changes: a changed, reordered, replayed, truncated or foreign code is
  refused with a one-line reason.

Every message carries everything its sender may send at that moment, so a
round costs about five codes. The :class:`RemoteSession` of one device holds
only that device's secret and what it was shown; :func:`verify_transcript`
rebuilds and checks a whole match from its codes alone.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from royalnine.core.cards import Card
from royalnine.core.errors import IllegalMove
from royalnine.core.match import (
    HAND_SIZE,
    Deal,
    Match,
    MatchConfig,
    NextRound,
    Phase,
    placement_actions,
)
from royalnine.core.view import PlayerView, view
from royalnine.remote.codec import (
    MATCH_ID_BYTES,
    BadCode,
    Hello,
    Item,
    Join,
    Message,
    Open,
    PlaceClear,
    Reveal,
    Seal,
    decode,
    encode,
    match_label,
)
from royalnine.remote.crypto import (
    DIGEST,
    chain_step,
    chain_value,
    draw_cards,
    h,
    placement_digest,
    stage_seed,
)

STAGES_PER_ROUND = 3
HALVES = 2
SAVE_FORMAT = "royalnine.remote"
SAVE_VERSION = 1

Entropy = Callable[[int], bytes]
HalfKey = tuple[int, int]


def message_hash(data: bytes) -> bytes:
    """What the next message must carry as ``prev``."""
    return h(b"R9msg", data)


def stage_of(round_number: int, step: int) -> int:
    """Stage number (from 1) of a round's first deal (step 1), second deal (2) or centre (3)."""
    return STAGES_PER_ROUND * (round_number - 1) + step


def halves_before(stage: int) -> int:
    """How many placements (halves) each seat must have fixed before ``stage`` may be revealed."""
    round_index, step = divmod(stage - 1, STAGES_PER_ROUND)
    return HALVES * round_index + min(step, HALVES)


def half_key(index: int) -> HalfKey:
    """(round, half) of a seat's ``index``-th placement, counting from 0."""
    return (index // HALVES + 1, index % HALVES + 1)


@dataclass
class _Seat:
    """What is known of one seat's side of the protocol."""

    commitment: bytes | None = None
    reveals: list[bytes] = field(default_factory=list)
    """Chain values for stages 1, 2, ... in order."""
    fixed: int = 0
    """Placements (halves) sealed or sent in the clear."""
    seals: dict[HalfKey, bytes] = field(default_factory=dict)
    opened: set[HalfKey] = field(default_factory=set)
    cells: dict[HalfKey, bytes] = field(default_factory=dict)
    """Placements whose cells are known (opened, in the clear, or this device's own)."""

    def copy(self) -> _Seat:
        """An independent copy (a code is checked on a copy before it is kept)."""
        return replace(
            self,
            reveals=list(self.reveals),
            seals=dict(self.seals),
            opened=set(self.opened),
            cells=dict(self.cells),
        )


class _Protocol:
    """The shared rules of the protocol, applied to messages from either seat."""

    def __init__(
        self,
        match_id: bytes,
        config: MatchConfig,
        local: tuple[int, Callable[[int], bytes]] | None = None,
    ) -> None:
        self.match_id = match_id
        self.config = config
        self.local = local
        """(seat, stage -> chain value) of the device running this, which knows its own values."""
        self.match = Match.new(config)
        self.seats = (_Seat(), _Seat())
        self.transcript: list[bytes] = []

    @property
    def stages(self) -> int:
        """Stages in the whole match: three a round."""
        return STAGES_PER_ROUND * self.config.rounds

    def check_header(self, msg: Message, data: bytes, reader: int | None) -> None:
        """Is ``msg`` the next move of this match? ``reader`` is the reading device's seat."""
        label = match_label(msg.match_id)
        here = match_label(self.match_id)
        expected = len(self.transcript)
        if msg.match_id != self.match_id:
            raise BadCode(
                f"this code belongs to match {label}; this device is playing match {here}"
            )
        if msg.seq != expected:
            if msg.seq < expected and self.transcript[msg.seq] == data:
                raise BadCode(
                    f"this code is move {msg.seq + 1} of match {label}, already read; "
                    f"this device is waiting for move {expected + 1}"
                )
            raise BadCode(
                f"this code is move {msg.seq + 1} of match {label}; "
                f"this device is waiting for move {expected + 1}"
            )
        if reader is not None and msg.sender == reader:
            raise BadCode(f"move {msg.seq + 1} is this device's own move to send, not one to read")
        prev = message_hash(self.transcript[-1]) if self.transcript else bytes(DIGEST)
        if msg.prev != prev:
            raise BadCode(
                f"move {msg.seq + 1} of match {label} does not follow the moves this device has "
                "seen (changed or from another history)"
            )

    def apply(self, msg: Message, data: bytes) -> None:
        """Apply every item of a message whose header was checked; raises BadCode."""
        sender = msg.sender
        if msg.seq == 0:
            if not msg.items or not isinstance(msg.items[0], Hello):
                raise BadCode("the first move of a match must say hello")
        elif msg.seq == 1 and (not msg.items or not isinstance(msg.items[0], Join)):
            raise BadCode("the second move of a match must join it")
        if not msg.items:
            raise BadCode(f"move {msg.seq + 1} is empty")
        for item in msg.items:
            self._apply_item(sender, msg.seq, item)
            self.advance()
        self.transcript.append(data)

    def _apply_item(self, sender: int, seq: int, item: Item) -> None:
        me, other = self.seats[sender], self.seats[1 - sender]
        if isinstance(item, Hello):
            if seq != 0:
                raise BadCode("hello is allowed only in the first move")
            me.commitment = _check_digest(item.commitment)
        elif isinstance(item, Join):
            if seq != 1:
                raise BadCode("join is allowed only in the second move")
            me.commitment = _check_digest(item.commitment)
        elif isinstance(item, Reveal):
            self._reveal(sender, item)
        elif isinstance(item, Seal):
            key = self._next_half(sender, item.round, item.half)
            stage = stage_of(key[0], key[1])
            if len(other.reveals) < stage:
                raise BadCode(f"seat {sender} sealed round {key[0]} half {key[1]} before its deal")
            me.seals[key] = _check_digest(item.digest)
            me.fixed += 1
        elif isinstance(item, PlaceClear):
            key = self._next_half(sender, item.round, item.half)
            if key not in other.seals:
                raise BadCode(
                    f"seat {sender} placed round {key[0]} half {key[1]} in the clear "
                    "before the other seat sealed"
                )
            me.cells[key] = item.cells
            me.opened.add(key)
            me.fixed += 1
        elif isinstance(item, Open):
            key = (item.round, item.half)
            if key not in me.seals or key in me.opened:
                raise BadCode(f"seat {sender} opened round {key[0]} half {key[1]} without a seal")
            if other.fixed <= self._half_index(key):
                raise BadCode(f"seat {sender} opened round {key[0]} half {key[1]} too early")
            expected = placement_digest(
                self.match_id, sender, key[0], key[1], item.cells, item.nonce
            )
            if expected != me.seals[key]:
                raise BadCode(
                    f"seat {sender}'s placement for round {key[0]} half {key[1]} "
                    "does not match its seal"
                )
            me.cells[key] = item.cells
            me.opened.add(key)

    def _reveal(self, sender: int, item: Reveal) -> None:
        me, other = self.seats[sender], self.seats[1 - sender]
        stage = len(me.reveals) + 1
        if item.stage != stage or stage > self.stages:
            raise BadCode(f"seat {sender} revealed stage {item.stage}; stage {stage} was due")
        if me.commitment is None or other.commitment is None:
            raise BadCode(f"seat {sender} revealed before both players committed")
        need = halves_before(stage)
        if me.fixed < need or other.fixed < need:
            raise BadCode(f"seat {sender} revealed stage {stage} before the placements before it")
        previous = me.reveals[-1] if me.reveals else me.commitment
        if chain_step(_check_digest(item.value)) != previous:
            raise BadCode(f"seat {sender}'s value for stage {stage} does not match its commitment")
        me.reveals.append(item.value)

    def _half_index(self, key: HalfKey) -> int:
        round_number, half = key
        return HALVES * (round_number - 1) + half - 1

    def _next_half(self, sender: int, round_number: int, half: int) -> HalfKey:
        seat = self.seats[sender]
        key = half_key(seat.fixed)
        if (round_number, half) != key:
            raise BadCode(
                f"seat {sender} placed round {round_number} half {half}; "
                f"round {key[0]} half {key[1]} was due"
            )
        if key[0] > self.config.rounds:
            raise BadCode(f"seat {sender} placed after the last round")
        opened = self.seats[sender].opened
        for index in range(seat.fixed):
            earlier = half_key(index)
            if earlier not in opened:
                raise BadCode(
                    f"seat {sender} placed before opening round {earlier[0]} half {earlier[1]}"
                )
        return key

    def value(self, seat: int, stage: int) -> bytes | None:
        """A seat's chain value for ``stage`` if known here (revealed, or this device's own)."""
        reveals = self.seats[seat].reveals
        if len(reveals) >= stage:
            return reveals[stage - 1]
        if self.local is not None and self.local[0] == seat:
            return self.local[1](stage)
        return None

    def stage_known(self, stage: int) -> bool:
        """Both players' values for ``stage`` are known here."""
        return all(self.value(seat, stage) is not None for seat in (0, 1))

    def advance(self) -> None:
        """Apply every deal and placement that has become known to the core match."""
        while True:
            m = self.match
            rnd = m.round
            if rnd.phase is Phase.ROUND_OVER and rnd.number < self.config.rounds:
                if self.stage_known(stage_of(rnd.number + 1, 1)):
                    self.match = m.apply(NextRound())
                    continue
                return
            if rnd.phase.is_deal:
                step = 3 if rnd.phase is Phase.REVEAL else rnd.phase.half
                stage = stage_of(rnd.number, step)
                if not self.stage_known(stage):
                    return
                host, guest = self.value(0, stage), self.value(1, stage)
                assert host is not None and guest is not None
                seed = stage_seed(self.match_id, stage, host, guest)
                self.match = m.apply(Deal(draw_cards(seed, m.undealt(), m.deal_size())))
                continue
            if rnd.phase.is_place:
                key = (rnd.number, rnd.phase.half)
                progressed = False
                for seat in (0, 1):
                    cells = self.seats[seat].cells.get(key)
                    if cells is None or rnd.confirmed[seat]:
                        continue
                    hand = rnd.dealt[seat][-HAND_SIZE:]
                    placement = {card: int(cell) for card, cell in zip(hand, cells, strict=True)}
                    try:
                        self.match = self.match.apply_all(placement_actions(seat, placement))
                    except IllegalMove as exc:
                        raise BadCode(f"seat {seat}'s placement is illegal: {exc}") from None
                    progressed = True
                if progressed:
                    continue
            return


def _check_digest(value: bytes) -> bytes:
    if len(value) != DIGEST:
        raise BadCode("damaged Royal Nine code (a value has the wrong length)")
    return value


class RemoteSession:
    """One device's side of a remote match: its secret, the codes so far, and what it may see."""

    def __init__(
        self,
        seat: int,
        match_id: bytes,
        config: MatchConfig,
        secret: bytes,
    ) -> None:
        self.seat = seat
        self.secret = secret
        self._proto = _Protocol(match_id, config, (seat, self._chain_value))
        self._pending: HalfKey | None = None
        """This device's placement made locally but not yet sent."""

    # -- starting --

    @classmethod
    def host(cls, config: MatchConfig, entropy: Entropy = os.urandom) -> RemoteSession:
        """Start a match as seat 0; the first code to send is :meth:`compose`."""
        return cls(0, entropy(MATCH_ID_BYTES), config, entropy(DIGEST))

    @classmethod
    def join(cls, first_code: bytes, entropy: Entropy = os.urandom) -> RemoteSession:
        """Join the match that ``first_code`` (the host's hello) starts, as seat 1."""
        msg = decode(first_code)
        if msg.seq != 0 or not msg.items or not isinstance(msg.items[0], Hello):
            raise BadCode(f"this code is move {msg.seq + 1}; to join a match, read its first code")
        hello = msg.items[0]
        if not 1 <= hello.rounds <= 99:
            raise BadCode(f"the match asks for {hello.rounds} rounds; 1-99 are allowed")
        session = cls(1, msg.match_id, MatchConfig(hello.rounds, hello.tens), entropy(DIGEST))
        session.receive(first_code)
        return session

    # -- state --

    @property
    def match_id(self) -> bytes:
        """The match's id (shown as 8 hex digits)."""
        return self._proto.match_id

    @property
    def label(self) -> str:
        """The match id as players see it."""
        return match_label(self.match_id)

    @property
    def config(self) -> MatchConfig:
        """The rules agreed in the first code."""
        return self._proto.config

    @property
    def transcript(self) -> tuple[bytes, ...]:
        """Every code of the match so far, in order."""
        return tuple(self._proto.transcript)

    @property
    def match(self) -> Match:
        """The match as this device knows it (never more than this seat may see)."""
        return self._proto.match

    def view(self) -> PlayerView:
        """This seat's view of the match."""
        return view(self._proto.match, self.seat)

    @property
    def finished(self) -> bool:
        """Every round has been revealed here."""
        rnd = self._proto.match.round
        return rnd.number == self.config.rounds and rnd.phase is Phase.ROUND_OVER

    @property
    def my_turn(self) -> bool:
        """This device is due to send the next code."""
        return len(self._proto.transcript) % 2 == self.seat and not self._done_sending()

    @property
    def needs_placement(self) -> bool:
        """The local player must place this half before the next code can be made."""
        return self._proto.match.awaiting(self.seat) and self._pending is None

    @property
    def opponent_sealed(self) -> bool:
        """The opponent has fixed (sealed) this half's placement, not yet shown here."""
        rnd = self._proto.match.round
        if not rnd.phase.is_place:
            return False
        return self._proto.seats[1 - self.seat].fixed > self._half_index_now()

    def known_cells(self, seat: int, round_number: int, half: int) -> bytes | None:
        """A seat's cells for one half, in deal order, once this device may know them.

        For the other seat that is after it was opened or placed in the clear,
        never while it is only sealed.
        """
        return self._proto.seats[seat].cells.get((round_number, half))

    def last_code(self) -> bytes | None:
        """The last code this device sent (to show again while waiting)."""
        number = self.last_code_number()
        return None if number is None else self._proto.transcript[number - 1]

    def last_code_number(self) -> int | None:
        """The move number (from 1) of the last code this device sent."""
        for index in range(len(self._proto.transcript) - 1, -1, -1):
            if index % 2 == self.seat:
                return index + 1
        return None

    def waiting_message(self) -> str:
        """What this device is waiting for, in one line."""
        if self.finished:
            return f"match {self.label} is over"
        if self.needs_placement:
            return "place your cards"
        if self.my_turn:
            return f"show move {len(self._proto.transcript) + 1} to your opponent"
        return f"waiting for opponent: move {len(self._proto.transcript) + 1} of match {self.label}"

    # -- acting --

    def place(self, placement: Mapping[Card, int]) -> None:
        """Fix this half's placement (all 4 cards); it is sent in the next code."""
        if not self.needs_placement:
            raise IllegalMove("there is nothing to place now")
        match = self._proto.match
        hand = match.round.dealt[self.seat][-HAND_SIZE:]
        if set(placement) != set(hand):
            raise IllegalMove("a placement must put exactly this half's 4 cards")
        match.apply_all(placement_actions(self.seat, placement))  # validates, changes nothing
        key = (match.round.number, match.round.phase.half)
        cells = bytes(placement[card] for card in hand)
        self._proto.seats[self.seat].cells[key] = cells
        self._pending = key
        self._proto.advance()

    def compose(self) -> bytes:
        """Make this device's next code and record it as sent."""
        if not self.my_turn:
            raise IllegalMove(self.waiting_message())
        if self.needs_placement:
            raise IllegalMove("place your cards first: the next code carries them")
        items = self._items()
        if not items:
            raise IllegalMove("there is nothing to send")
        proto = self._proto
        prev = message_hash(proto.transcript[-1]) if proto.transcript else bytes(DIGEST)
        msg = Message(proto.match_id, len(proto.transcript), prev, tuple(items))
        data = encode(msg)
        proto.check_header(msg, data, None)
        proto.apply(msg, data)
        self._pending = None
        return data

    def receive(self, code: bytes) -> None:
        """Read the opponent's code. Nothing changes unless the whole code is valid."""
        msg = decode(code)
        trial = _copy_protocol(self._proto)
        trial.check_header(msg, bytes(code), self.seat)
        trial.apply(msg, bytes(code))
        self._proto = trial

    # -- internals --

    def _done_sending(self) -> bool:
        return self.finished and not self._items()

    def _half_index_now(self) -> int:
        rnd = self._proto.match.round
        return HALVES * (rnd.number - 1) + rnd.phase.half - 1

    def _nonce(self, key: HalfKey) -> bytes:
        return h(b"R9nonce", self.secret, bytes(key))

    def _chain_value(self, stage: int) -> bytes:
        return chain_value(self.secret, self._proto.stages - stage)

    def _items(self) -> list[Item]:
        proto = self._proto
        me, other = proto.seats[self.seat], proto.seats[1 - self.seat]
        items: list[Item] = []
        seq = len(proto.transcript)
        if seq == 0:
            return [Hello(self.config.rounds, self.config.tens, self._chain_value(0))]
        fixed = me.fixed
        if seq == 1:
            items.append(Join(self._chain_value(0)))
        for key in sorted(me.seals):
            if key not in me.opened and other.fixed > proto._half_index(key):
                items.append(Open(key[0], key[1], me.cells[key], self._nonce(key)))
        if self._pending is not None:
            key = self._pending
            cells = me.cells[key]
            if other.fixed > proto._half_index(key):
                items.append(PlaceClear(key[0], key[1], cells))
            else:
                digest = placement_digest(
                    proto.match_id, self.seat, key[0], key[1], cells, self._nonce(key)
                )
                items.append(Seal(key[0], key[1], digest))
            fixed += 1
        revealed = len(me.reveals)
        while revealed < proto.stages:
            stage = revealed + 1
            need = halves_before(stage)
            if fixed < need or other.fixed < need or other.commitment is None:
                break
            items.append(Reveal(stage, self._chain_value(stage)))
            revealed += 1
        return items

    # -- saving --

    def to_json(self) -> str:
        """This device's state: its secret, its own placements, and the codes so far.

        Holds nothing the player may not know: the opponent's future chain
        values are not here, so no undealt card follows from this file.
        """
        me = self._proto.seats[self.seat]
        doc = {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "seat": self.seat,
            "match_id": self.match_id.hex(),
            "rounds": self.config.rounds,
            "tens": self.config.tens,
            "secret": self.secret.hex(),
            "cells": {f"{r}.{hf}": c.hex() for (r, hf), c in sorted(me.cells.items())},
            "pending": list(self._pending) if self._pending else None,
            "transcript": [m.hex() for m in self._proto.transcript],
        }
        return json.dumps(doc)

    @classmethod
    def from_json(cls, text: str) -> RemoteSession:
        """Rebuild a session by replaying its codes; raises BadCode for a damaged file."""
        try:
            doc = json.loads(text)
            if not isinstance(doc, dict) or doc.get("format") != SAVE_FORMAT:
                raise BadCode("not a Royal Nine remote match file")
            if doc.get("version") != SAVE_VERSION:
                raise BadCode(f"remote match file version {doc.get('version')!r} is not supported")
            seat = doc["seat"]
            if seat not in (0, 1):
                raise ValueError("bad seat")
            session = cls(
                seat,
                bytes.fromhex(doc["match_id"]),
                MatchConfig(int(doc["rounds"]), bool(doc["tens"])),
                bytes.fromhex(doc["secret"]),
            )
            own = {
                (int(k.split(".")[0]), int(k.split(".")[1])): bytes.fromhex(v)
                for k, v in doc["cells"].items()
            }
            codes = [bytes.fromhex(m) for m in doc["transcript"]]
            pending = doc["pending"]
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise BadCode(f"damaged remote match file: {exc}") from None
        proto = session._proto
        proto.seats[seat].cells.update(own)
        for code in codes:
            msg = decode(code)
            proto.check_header(msg, code, None)
            proto.apply(msg, code)
        if pending is not None:
            session._pending = (int(pending[0]), int(pending[1]))
            proto.advance()
        return session


def _copy_protocol(proto: _Protocol) -> _Protocol:
    copy = _Protocol(proto.match_id, proto.config, proto.local)
    copy.match = proto.match
    copy.transcript = list(proto.transcript)
    copy.seats = (proto.seats[0].copy(), proto.seats[1].copy())
    return copy


def verify_transcript(codes: list[bytes]) -> Match:
    """Check a whole match from its codes alone and rebuild it: every deal, placement and score.

    Raises :class:`BadCode` naming the first code that breaks a rule.
    """
    if not codes:
        raise BadCode("an empty transcript")
    first = decode(codes[0])
    if not first.items or not isinstance(first.items[0], Hello):
        raise BadCode("a transcript starts with the host's hello")
    hello = first.items[0]
    proto = _Protocol(first.match_id, MatchConfig(hello.rounds, hello.tens))
    for number, code in enumerate(codes, 1):
        try:
            msg = decode(code)
            proto.check_header(msg, code, None)
            proto.apply(msg, code)
        except BadCode as exc:
            raise BadCode(f"code {number}: {exc}") from None
    return proto.match
