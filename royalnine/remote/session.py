"""A remote match between two devices that exchange one QR code per move.

The protocol (see docs/remote.md for the argument):

* **Deals by commit-reveal.** Each player keeps a secret seed and a hash chain
  over it; the first two messages exchange the chain ends (commitments).
  Each deal stage's randomness hashes the match id, the stage and both
  players' chain values for that stage, which are revealed one per stage,
  each checked with one hash. Nobody can choose or bias a deal, and a value
  is revealed only once every placement before that stage is fixed, so
  nobody learns cards early. Two stages a round: the first deal (which
  shares its stage with the previous round's common card) and the second
  deal; the last round's common card is one more stage.
* **Simultaneous placing.** The first player to place a half sends a sealed
  commitment; the second places in the clear; the first then opens the seal.
* **History.** Each message carries its move number and the hash of the
  previous message, and every item is checked against the rules before any
  state changes: a changed, reordered, replayed, truncated or foreign code is
  refused with a one-line reason.
* **Complete codes.** What a code must carry at each move follows from the
  codes before it (:meth:`_Protocol.due`): a code must carry exactly that,
  in that order, so a code missing an item, cut at an item boundary or
  carrying an extra one is refused, and the reader always has a move to make.
* **Fairness rota.** The host reveals first for the first deal, so the first
  hand depends on a value the host sends after the guest has joined; the
  seat that learns the common card first hands over once, at the middle
  round (see :meth:`_Protocol.reveal_first`).
* **Walk-aways and damage.** A device waiting for the other can claim the
  match after a wait (a forfeit win, :meth:`RemoteSession.claim`); the other
  device counts that claim only by its own codes and clock
  (:attr:`RemoteSession.received_at`, ``files.claim_here``). A move read is
  never replaced, not even after a roll-back (:meth:`RemoteSession.rollback`):
  a changed seal or placement cannot be told from a cheat's.

Every message carries everything its sender may send at that moment. The
:class:`RemoteSession` of one device holds only that device's secret and what
it was shown; :func:`check_transcript` rebuilds and checks a whole match, or an
abandoned one, from its codes alone.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from royalnine.core.cards import Card
from royalnine.core.errors import IllegalMove
from royalnine.core.files import version_is
from royalnine.core.match import (
    HAND_SIZE,
    MAX_ROUNDS,
    Deal,
    Match,
    MatchConfig,
    MatchOutcome,
    NextRound,
    Phase,
    placement_actions,
)
from royalnine.core.scoring import CENTRE
from royalnine.core.view import PlayerView, view
from royalnine.remote.codec import (
    MATCH_ID_BYTES,
    MAX_MESSAGE,
    BadCode,
    Hello,
    Item,
    Join,
    Message,
    Open,
    PlaceClear,
    Reveal,
    Seal,
    Shape,
    Tag,
    decode,
    describe,
    encode,
    half_index,
    match_label,
    shape,
)
from royalnine.remote.crypto import (
    DIGEST,
    chain_step,
    chain_value,
    deal_seed,
    draw_cards,
    h,
    placement_digest,
    stage_seed,
)

STAGES_PER_ROUND = 2
"""New stages a round: the first deal (shared with the previous centre), the second deal."""
HALVES = 2
SAVE_FORMAT = "royalnine.remote"
SAVE_VERSION = 2

Entropy = Callable[[int], bytes]
HalfKey = tuple[int, int]


def message_hash(data: bytes) -> bytes:
    """What the next message must carry as ``prev``."""
    return h(b"R9msg", data)


def stage_of(round_number: int, step: int) -> int:
    """Stage number (from 1) of a round's first deal (step 1), second deal (2) or centre (3).

    Two stages a round: a round's common card and the next round's first deal
    need the same placements fixed, so they share one stage (and one value
    from each player, drawn apart by :func:`deal_seed`): stage 2r - 1 is round
    r's first deal (and round r - 1's centre), stage 2r its second deal, and
    stage 2R + 1 the last round's centre.
    """
    return STAGES_PER_ROUND * (round_number - 1) + step


def halves_before(stage: int) -> int:
    """How many placements (halves) each seat must have fixed before ``stage`` may be revealed."""
    return stage - 1


def half_key(index: int) -> HalfKey:
    """(round, half) of a seat's ``index``-th placement, counting from 0 (the inverse of
    :func:`royalnine.remote.codec.half_index`)."""
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
        """Stages in the whole match: two a round, and the last round's centre."""
        return STAGES_PER_ROUND * self.config.rounds + 1

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
        """Apply every item of a message whose header was checked; raises BadCode.

        The message must carry exactly what :meth:`due` says its sender owes at
        this move, in that order: nothing left out, nothing extra.
        """
        sender = msg.sender
        expected = self.due(sender)
        got = [shape(item) for item in msg.items]
        if got != expected:
            raise BadCode(_mismatch(msg.seq + 1, expected, got))
        for item in msg.items:
            self._apply_item(sender, msg.seq, item)
            self.advance()
        self.transcript.append(data)

    def reveal_first(self, stage: int) -> int | None:
        """The seat that must reveal its value for ``stage`` before the other may (None: either).

        The seat revealing second learns the deal first. The host goes first
        for the first deal, so its first hand depends on a value it sends
        after the guest joined (re-hosting cannot re-deal it). For a common
        card the seat that placed in the clear reveals first (the sealer
        learns the result first), except at the hand-over round
        (:meth:`hands_over`), where the sealer reveals first.
        """
        if stage == 1:
            return 0
        if stage % 2 == 0:
            return None
        round_number = (stage - 1) // 2  # the round whose common card this stage deals
        sealer = 0 if (round_number, 1) in self.seats[0].seals else 1
        return sealer if self.hands_over(round_number) else 1 - sealer

    def hands_over(self, round_number: int) -> bool:
        """Whether the lead changes hands at this round's common card.

        Codes alternate and a round takes four once under way, so the same seat
        would always seal first and learn the common card first. Once a match
        (at its middle round) the sealer reveals first instead: the other seat
        learns that common card first and seals first from then on. It costs
        one code per match (a second hand-over would cost another).
        """
        rounds = self.config.rounds
        return rounds >= 2 and round_number == rounds // 2 + 1

    def may_reveal(self, seat: int, stage: int, fixed: int | None = None) -> bool:
        """Whether ``seat`` may reveal ``stage`` now (having fixed ``fixed`` halves)."""
        me, other = self.seats[seat], self.seats[1 - seat]
        if me.commitment is None or other.commitment is None or stage > self.stages:
            return False
        need = halves_before(stage)
        if (me.fixed if fixed is None else fixed) < need or other.fixed < need:
            return False
        first = self.reveal_first(stage)
        return first is None or first == seat or len(other.reveals) >= stage

    def due(self, sender: int) -> list[Shape]:
        """Exactly what ``sender``'s next message must carry, in order.

        Openings of its seals the other seat has answered, then its placement
        if its next half is dealt to it (sealed if the other has not fixed
        that half, else in the clear), then every chain value it may reveal.
        Empty when the sender owes nothing (the match is over for it).
        """
        seq = len(self.transcript)
        if seq == 0:
            return [(Tag.HELLO, 0, 0)]
        if seq == 1:
            return [(Tag.JOIN, 0, 0)]
        me, other = self.seats[sender], self.seats[1 - sender]
        out: list[Shape] = []
        for key in sorted(me.seals):
            if key not in me.opened and other.fixed > half_index(*key):
                out.append((Tag.OPEN, *key))
        fixed = me.fixed
        key = half_key(fixed)
        if key[0] <= self.config.rounds and len(other.reveals) >= stage_of(*key):
            out.append((Tag.SEAL if other.fixed <= fixed else Tag.PLACE, *key))
            fixed += 1
        stage = len(me.reveals) + 1
        while self.may_reveal(sender, stage, fixed):
            out.append((Tag.REVEAL, stage, 0))
            stage += 1
        return out

    def next_due(self) -> tuple[int, list[Shape]]:
        """The seat due to send the next code and what it must carry (empty: match complete)."""
        sender = len(self.transcript) % 2
        return sender, self.due(sender)

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
            if other.fixed <= half_index(*key):
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
        me = self.seats[sender]
        stage = len(me.reveals) + 1
        if item.stage != stage or not self.may_reveal(sender, stage):
            raise BadCode(f"seat {sender} revealed stage {item.stage} out of turn")
        previous = me.reveals[-1] if me.reveals else me.commitment
        if chain_step(_check_digest(item.value)) != previous:
            raise BadCode(f"seat {sender}'s value for stage {stage} does not match its commitment")
        me.reveals.append(item.value)

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
                seed = deal_seed(seed, centre=step == 3)
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


def _mismatch(number: int, expected: list[Shape], got: list[Shape]) -> str:
    """Why a code's items are not what its move requires, in one line."""
    if not expected:
        return f"move {number} is not due: the match is complete"
    for want, have in zip(expected, got, strict=False):
        if want != have:
            if have in expected:
                return f"move {number} carries its items out of order"
            return f"move {number} carries {describe(have)} where {describe(want)} was due"
    if len(got) < len(expected):
        return f"move {number} is incomplete: it lacks {describe(expected[len(got)])}"
    return f"move {number} carries {describe(got[len(expected)])}, which is not due"


def _check_digest(value: bytes) -> bytes:
    if len(value) != DIGEST:
        raise BadCode("damaged Royal Nine code (a value has the wrong length)")
    return value


class Broken(BadCode):
    """A reply that does not follow the code this device sent: its code was damaged or
    tampered with on the way. ``remedy`` says what this device can do: ``"show"`` (show
    its last code again, which sends nothing new). A code that differs from one already
    read here is refused outright, with no remedy: a move read here is never replaced."""

    def __init__(self, message: str, remedy: str) -> None:
        super().__init__(message)
        self.remedy = remedy


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
        self._chain: list[bytes] = []
        """This seat's hash chain from the secret, made on first use: a stage's value is
        then one lookup, not up to 2 x 99 hashes each time the protocol asks for it."""
        self._proto = _Protocol(match_id, config, (seat, self._chain_value))
        self.waiting_since: float | None = None
        """When this device last showed its last code (seconds since the epoch): its own
        claim counts from it."""
        self.damaged_reply = False
        """A damaged reply to this device's last code was read: the other side has seen a
        code, so showing it again (SHOW AGAIN, COPY, ``remote show``) no longer restarts the
        wait, or a peer could put a claim off for ever with damaged replies."""
        self.received_at: float | None = None
        """When this device read (and showed) the opponent's last code: a claim against this
        device counts only once this device's own clock shows the wait since then."""
        self._forgotten: dict[int, bytes] = {}
        """Codes read here and then forgotten by a roll-back, by index: that move is only
        ever read again as the same code, so a roll-back can never take a new seal or
        placement chosen after this device's answer was seen."""
        self.claimed = False
        """This device claimed the match: the other seat stopped answering and forfeits."""
        self.forfeited = False
        """The other seat claimed the match (this device learnt it from its transcript):
        this device lost it by forfeit."""

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
        session = cls(1, msg.match_id, hello_config(msg.items[0]), entropy(DIGEST))
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
    def complete(self) -> bool:
        """No code is due from either seat: the whole match is in the transcript."""
        return not self._proto.next_due()[1]

    @property
    def over(self) -> bool:
        """Nothing more will happen here: the match is finished, or was claimed."""
        return self.finished or self.ended_by_claim

    @property
    def ended_by_claim(self) -> bool:
        """One seat claimed the match (this one, or the other: :attr:`forfeited`)."""
        return self.claimed or self.forfeited

    @property
    def forfeit_winner(self) -> int | None:
        """The seat that won by forfeit (this one, after a claim), else None."""
        if self.forfeited:
            return 1 - self.seat
        return self.seat if self.claimed else None

    def outcome(self) -> MatchOutcome | None:
        """How the match ended here: by its scores once finished, None before."""
        if not self.finished:
            return None
        return self._proto.match.apply(NextRound()).outcome()

    @property
    def my_turn(self) -> bool:
        """This device is due to send the next code."""
        sender, due = self._proto.next_due()
        return sender == self.seat and bool(due) and not self.ended_by_claim

    @property
    def needs_placement(self) -> bool:
        """The local player must place this half before the next code can be made."""
        return self._proto.match.awaiting(self.seat) and not self.ended_by_claim

    @property
    def opponent_sealed(self) -> bool:
        """The opponent has fixed (sealed) this half's placement, not yet shown here."""
        rnd = self._proto.match.round
        if not rnd.phase.is_place:
            return False
        return self._proto.seats[1 - self.seat].fixed > half_index(rnd.number, rnd.phase.half)

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

    def waiting_for_opponent(self) -> bool:
        """The other seat owes the next code."""
        sender, due = self._proto.next_due()
        return sender != self.seat and bool(due) and not self.ended_by_claim

    def waiting_message(self) -> str:
        """What this device is waiting for, in one line."""
        if self.claimed:
            return f"match {self.label} claimed: the other player forfeits"
        if self.forfeited:
            return f"match {self.label} was claimed by the other player: lost by forfeit"
        if self.finished and not self.my_turn:
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
        self._proto.advance()

    def compose(self, now: float | None = None) -> bytes:
        """Make this device's next code and record it as sent (at ``now``, default the clock)."""
        if not self.my_turn:
            raise IllegalMove(self.waiting_message())
        if self.needs_placement:
            raise IllegalMove("place your cards first: the next code carries them")
        items = self._items()
        proto = self._proto
        prev = message_hash(proto.transcript[-1]) if proto.transcript else bytes(DIGEST)
        msg = Message(proto.match_id, len(proto.transcript), prev, tuple(items))
        data = encode(msg)
        proto.check_header(msg, data, None)
        proto.apply(msg, data)
        self.waiting_since = time.time() if now is None else now
        self.damaged_reply = False
        return data

    def receive(self, code: bytes, now: float | None = None) -> None:
        """Read the opponent's code (at ``now``, default the clock: when a claim against this
        device may count is measured from it). Nothing changes unless the whole code is valid.

        Raises:
            Broken: the code shows the two histories differ (a code was damaged
                or tampered with); its ``remedy`` says what this device can do.
            BadCode: any other refusal.
        """
        if self.ended_by_claim:
            raise BadCode(f"match {self.label} was claimed: this device reads no more codes")
        data = bytes(code)
        msg = decode(data)
        self._check_broken(msg, data)
        trial = _copy_protocol(self._proto)
        trial.check_header(msg, data, self.seat)
        trial.apply(msg, data)
        self._proto = trial
        if self._forgotten.get(msg.seq) != data:  # read again after a roll-back: same time
            self.received_at = time.time() if now is None else now

    def _check_broken(self, msg: Message, data: bytes) -> None:
        """Say plainly when a code of this match shows a damaged or changed code."""
        proto = self._proto
        if msg.match_id != proto.match_id or msg.sender == self.seat:
            return
        seq, number = msg.seq, msg.seq + 1
        known = len(proto.transcript)
        # A move read here is never replaced, not even after a roll-back. A code changed in
        # transit that still reads differs only in what nothing can check yet (a seal, a
        # placement in the clear, a commitment), which is exactly what a cheat changes after
        # seeing this device's answer to choose its cards: the two cannot be told apart.
        before = proto.transcript[seq] if seq < known else self._forgotten.get(seq)
        if before is not None and before != data:
            raise BadCode(
                f"damaged or tampered code: move {number} differs from the move {number} "
                "read here; a move read here is never replaced (a changed seal or placement "
                "is how a cheat would choose its cards after seeing yours)"
            )
        if seq == known and seq > 0 and msg.prev != message_hash(proto.transcript[-1]):
            raise Broken(
                f"damaged or tampered code: move {number} does not follow move {seq} as "
                f"sent from here; show move {seq} again",
                "show",
            )

    def rollback(self) -> int:
        """Forget the last code read from the opponent and this device's codes after it.

        The device then reads that move again, as the opponent shows it once more.
        A roll-back keeps what was read: only the same code is ever read as that move
        again (never a new seal or placement chosen after this device's answer was
        seen), and this device's own placements stay as they were (they are sent again
        unchanged, never re-chosen). Returns the move number forgotten.
        """
        transcript = self._proto.transcript
        theirs = [i for i in range(len(transcript)) if i % 2 != self.seat]
        if not theirs:
            raise IllegalMove("there is no code read from the opponent to roll back")
        drop = theirs[-1]
        if drop == 0:
            raise IllegalMove("the first code cannot be rolled back: join the match again")
        rebuilt = RemoteSession(self.seat, self.match_id, self.config, self.secret)
        rebuilt._replay(transcript[:drop], dict(self._proto.seats[self.seat].cells))
        self._forgotten[drop] = transcript[drop]  # only this code can be read there again
        self._proto = rebuilt._proto
        # The wait keeps running: the other side has owed an answer since this device's
        # last code, and a bogus variant of a code (anyone can make one) must not stop
        # the clock, or a player could send one, go silent and never be claimed against.
        return drop + 1

    def mark_shown(self, now: float | None = None) -> None:
        """This device shows its last code again (COPY, the code screen, ``remote show``):
        the opponent may be seeing it for the first time now, so the claim wait starts
        again from ``now`` (default the clock). Nothing happens while this device owes the
        next code itself, or once a damaged reply showed that the opponent had seen a code
        (:meth:`note_damaged_reply`)."""
        if self.waiting_for_opponent() and not self.damaged_reply:
            self.waiting_since = time.time() if now is None else now

    def note_damaged_reply(self) -> None:
        """A reply to this device's last code was refused as damaged (:class:`Broken`,
        remedy ``"show"``): the other side had a code to answer, so from now on showing the
        code again never restarts the claim wait (else damaged replies sent just before
        the wait ends would put a claim off for ever)."""
        if self.waiting_for_opponent():
            self.damaged_reply = True

    def unanswered_for(self, now: float) -> float | None:
        """How long (seconds, by this device's clock) this device has held the opponent's
        last code without answering it; None if it owes no code or never read one here
        with a time (a match saved by an earlier version)."""
        if self.ended_by_claim or self.waiting_for_opponent() or self.received_at is None:
            return None
        if not (self.my_turn or self.needs_placement):
            return None
        return max(0.0, now - self.received_at)

    def can_claim(self, now: float, after_s: float) -> bool:
        """Whether this device may claim the match now: the other seat has owed a code
        for at least ``after_s`` seconds since this device last showed its last one."""
        return self.claim_refusal(now, after_s) is None

    def claim_refusal(self, now: float, after_s: float) -> str | None:
        """Why the match cannot be claimed now (one line), or None if it can."""
        if self.ended_by_claim:
            return "this match was already claimed"
        if len(self._proto.transcript) < 2:
            return "nobody has joined this match yet"
        if not self.waiting_for_opponent():
            return "the opponent owes no code: nothing to claim"
        if self.waiting_since is None:
            return "show your last code again first"
        left = self.waiting_since + after_s - now
        if left > 0:
            return f"the opponent may still answer: wait {duration(left)} more"
        return None

    def claim(self, now: float, after_s: float) -> None:
        """Claim the match: the opponent stopped answering and forfeits it.

        Raises IllegalMove (one line) when the opponent does not owe a code or
        the wait is not over.
        """
        refusal = self.claim_refusal(now, after_s)
        if refusal is not None:
            raise IllegalMove(refusal)
        self.claimed = True

    # -- internals --

    def _replay(self, codes: list[bytes], own_cells: dict[HalfKey, bytes]) -> None:
        proto = self._proto
        proto.seats[self.seat].cells.update(own_cells)
        for code in codes:
            msg = decode(code)
            proto.check_header(msg, code, None)
            proto.apply(msg, code)
        proto.advance()

    def _nonce(self, key: HalfKey) -> bytes:
        return h(b"R9nonce", self.secret, bytes(key))

    def _chain_value(self, stage: int) -> bytes:
        steps = self._proto.stages - stage
        if not self._chain:
            self._chain = [self.secret]
            for _ in range(self._proto.stages):
                self._chain.append(chain_step(self._chain[-1]))
        if 0 <= steps < len(self._chain):
            return self._chain[steps]
        return chain_value(self.secret, steps)

    def _items(self) -> list[Item]:
        """The items :meth:`_Protocol.due` requires, filled in from this device's secrets."""
        proto = self._proto
        me = proto.seats[self.seat]
        items: list[Item] = []
        for tag, a, b in proto.due(self.seat):
            key = (a, b)
            if tag is Tag.HELLO:
                items.append(Hello(self.config.rounds, self.config.tens, self._chain_value(0)))
            elif tag is Tag.JOIN:
                items.append(Join(self._chain_value(0)))
            elif tag is Tag.REVEAL:
                items.append(Reveal(a, self._chain_value(a)))
            elif tag is Tag.OPEN:
                items.append(Open(a, b, me.cells[key], self._nonce(key)))
            elif tag is Tag.PLACE:
                items.append(PlaceClear(a, b, me.cells[key]))
            else:
                digest = placement_digest(
                    proto.match_id, self.seat, a, b, me.cells[key], self._nonce(key)
                )
                items.append(Seal(a, b, digest))
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
            "transcript": [m.hex() for m in self._proto.transcript],
            "waiting_since": self.waiting_since,
            "damaged_reply": self.damaged_reply,
            "received_at": self.received_at,
            "forgotten": {str(k): c.hex() for k, c in sorted(self._forgotten.items())},
            "claimed": self.claimed,
            "forfeited": self.forfeited,
        }
        return json.dumps(doc)

    @classmethod
    def from_json(cls, text: str) -> RemoteSession:
        """Rebuild a session by replaying its codes; raises BadCode for a damaged file.

        Every field is checked before it is used (types, lengths, ranges), and the
        rebuilt state must hold together (this device's own placements are for halves
        dealt to it, and each one it sealed opens its seal), so a damaged file is
        refused here, in one line, and never crashes the game or a command later.
        """
        try:
            doc = json.loads(text)
            if not isinstance(doc, dict) or doc.get("format") != SAVE_FORMAT:
                raise ValueError("not a Royal Nine remote match file")
            if not version_is(doc, SAVE_VERSION):
                raise ValueError(f"version {doc.get('version')!r} is not supported")
            seat = _int_field(doc, "seat", 0, 1)
            rounds = _int_field(doc, "rounds", 1, MAX_ROUNDS)
            tens = doc.get("tens")
            if not isinstance(tens, bool):
                raise ValueError("'tens' is not true or false")
            session = cls(
                seat,
                _hex_field(doc.get("match_id"), "match_id", MATCH_ID_BYTES),
                MatchConfig(rounds, tens),
                _hex_field(doc.get("secret"), "secret", DIGEST),
            )
            own = _cells_field(doc.get("cells"), rounds)
            transcript = doc.get("transcript")
            if not isinstance(transcript, list):
                raise ValueError("'transcript' is not a list")
            codes = [_hex_field(m, "a code", None) for m in transcript]
            session.waiting_since = _time_field(doc, "waiting_since")
            session.received_at = _time_field(doc, "received_at")  # new: absent means unknown
            # "forfeited", "damaged_reply" are new: absent means false
            for name in ("claimed", "forfeited", "damaged_reply"):
                value = doc.get(name, False)
                if not isinstance(value, bool):
                    raise ValueError(f"{name!r} is not true or false")
            session.claimed = doc.get("claimed", False)
            session.forfeited = doc.get("forfeited", False)
            session.damaged_reply = doc.get("damaged_reply", False)
            session._forgotten = _forgotten_field(doc.get("forgotten", {}))
            session._replay(codes, own)
            session._check_own_cells(own)
        except (BadCode, IllegalMove, KeyError, TypeError, ValueError, OverflowError) as exc:
            raise BadCode(f"damaged remote match file: {exc}") from None
        return session

    def _check_own_cells(self, own: dict[HalfKey, bytes]) -> None:
        """ValueError unless each saved placement of this device is for a half due from it,
        legal, and, if it was sealed, opens that seal (else a later deal or code would
        be refused over and over)."""
        proto = self._proto
        me = proto.seats[self.seat]
        for key, cells in own.items():
            # the half being placed (or, after a roll-back, the one sent again) at most
            if half_index(*key) > me.fixed:
                raise ValueError(f"a placement for round {key[0]} half {key[1]}, not due yet")
            both = own.get((key[0], 1), b"") + own.get((key[0], 2), b"")
            if len(set(both)) != len(both) or CENTRE in both:
                raise ValueError(f"the placements of round {key[0]} overlap or use the centre")
            seal = me.seals.get(key)
            if seal is not None and key not in me.opened:
                digest = placement_digest(
                    proto.match_id, self.seat, key[0], key[1], cells, self._nonce(key)
                )
                if digest != seal:
                    raise ValueError(
                        f"the placement for round {key[0]} half {key[1]} is not the one sealed"
                    )
        for key in me.seals:
            if key not in me.cells:
                raise ValueError(
                    f"the placement sealed for round {key[0]} half {key[1]} is missing"
                )


def _int_field(doc: dict[str, object], name: str, low: int, high: int) -> int:
    value = doc.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name!r} is not a whole number {low}-{high}: {value!r}")
    return value


def _time_field(doc: dict[str, object], name: str) -> float | None:
    """A time in seconds since the epoch, or None (absent or null)."""
    value = doc.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{name!r} is not a time: {value!r}")
    return float(value)


def _forgotten_field(value: object) -> dict[int, bytes]:
    """The codes a roll-back forgot: {"index": code in hex}, each index within the match."""
    if not isinstance(value, dict):
        raise ValueError("'forgotten' is not a table")
    out: dict[int, bytes] = {}
    for key, code in value.items():
        if not (isinstance(key, str) and key.isascii() and key.isdecimal() and len(key) < 6):
            raise ValueError(f"forgotten entry {key!r} is not a move index")
        out[int(key)] = _hex_field(code, f"forgotten entry {key}", None)
    return out


def _hex_field(value: object, name: str, size: int | None) -> bytes:
    if not isinstance(value, str) or len(value) > 2 * MAX_MESSAGE:
        raise ValueError(f"{name} is not hex text")
    data = bytes.fromhex(value)
    if size is not None and len(data) != size:
        raise ValueError(f"{name} has {len(data)} bytes, not {size}")
    return data


def _cells_field(value: object, rounds: int) -> dict[HalfKey, bytes]:
    """This device's placements as saved: {"round.half": 4 cells in hex}, each checked."""
    if not isinstance(value, dict):
        raise ValueError("'cells' is not a table")
    own: dict[HalfKey, bytes] = {}
    for key, cells in value.items():
        parts = key.split(".") if isinstance(key, str) else []
        if len(parts) != 2 or not all(p.isascii() and p.isdecimal() for p in parts):
            raise ValueError(f"cells entry {key!r} is not ROUND.HALF")
        round_number, half = int(parts[0]), int(parts[1])
        if not (1 <= round_number <= rounds and half in (1, 2)):
            raise ValueError(f"cells entry {key!r} names no half of this match")
        data = _hex_field(cells, f"cells entry {key}", HAND_SIZE)
        if any(cell > 8 for cell in data):
            raise ValueError(f"cells entry {key} holds a cell outside 0-8")
        own[(round_number, half)] = data
    return own


def hello_config(hello: Hello) -> MatchConfig:
    """The rules a host's hello asks for; BadCode (one line) for a number of rounds the
    game does not play."""
    if not 1 <= hello.rounds <= MAX_ROUNDS:
        raise BadCode(f"the match asks for {hello.rounds} rounds; 1-{MAX_ROUNDS} are allowed")
    return MatchConfig(hello.rounds, hello.tens)


def duration(seconds: float) -> str:
    """A wait in words: "3 h 20 min", "5 min", "12 s"."""
    whole = int(seconds + 0.999)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes} min"
    if minutes:
        return f"{minutes} min"
    return f"{secs} s"


@dataclass(frozen=True)
class TranscriptCheck:
    """What :func:`check_transcript` found: a valid history, finished or not."""

    match: Match
    codes: int
    complete: bool
    """Every code of the match is there (nobody owes one)."""
    due_seat: int | None
    """The seat that owes the next code (0 host, 1 guest), None when complete."""
    label: str = ""
    """The match id as players see it."""

    def summary(self) -> str:
        """One line: the result, or whose move is due."""
        label = "host (seat 0)", "guest (seat 1)"
        if self.complete:
            totals = self.match.totals()
            return f"valid and complete: {self.codes} codes, host {totals[0]} - guest {totals[1]}"
        assert self.due_seat is not None
        # A fact about this file, not a verdict: a transcript cut short on purpose reads
        # the same, so it never says who walked away (see judge_forfeit in files.py).
        return (
            f"valid but unfinished: {self.codes} codes, the last from the "
            f"{label[1 - self.due_seat]}; move {self.codes + 1} (the {label[self.due_seat]}'s) "
            "is not in it"
        )


def _copy_protocol(proto: _Protocol) -> _Protocol:
    copy = _Protocol(proto.match_id, proto.config, proto.local)
    copy.match = proto.match
    copy.transcript = list(proto.transcript)
    copy.seats = (proto.seats[0].copy(), proto.seats[1].copy())
    return copy


def check_transcript(codes: list[bytes]) -> TranscriptCheck:
    """Check a finished or abandoned match from its codes alone and say where it stands.

    Raises :class:`BadCode` naming the first code that breaks a rule.
    """
    proto = _replay_transcript(codes)
    sender, due = proto.next_due()
    return TranscriptCheck(
        proto.match, len(codes), not due, sender if due else None, match_label(proto.match_id)
    )


def verify_transcript(codes: list[bytes]) -> Match:
    """Check a whole match from its codes alone and rebuild it: every deal, placement and score.

    Raises :class:`BadCode` naming the first code that breaks a rule.
    """
    return _replay_transcript(codes).match


def _replay_transcript(codes: list[bytes]) -> _Protocol:
    if not codes:
        raise BadCode("an empty transcript")
    first = decode(codes[0])
    if not first.items or not isinstance(first.items[0], Hello):
        raise BadCode("a transcript starts with the host's hello")
    proto = _Protocol(first.match_id, hello_config(first.items[0]))
    for number, code in enumerate(codes, 1):
        try:
            msg = decode(code)
            proto.check_header(msg, code, None)
            proto.apply(msg, code)
        except BadCode as exc:
            raise BadCode(f"code {number}: {exc}") from None
    return proto
