"""The binary format of one remote-match message (one QR code).

A message is a fixed header followed by items::

    "R9" | version u8 | match id (4) | move number u16 | hash of previous message (16) | items...

Items (tag u8, then a fixed-size body):

=====  ========  ==========================================================
tag    name      body
=====  ========  ==========================================================
0x01   HELLO     rounds u8, flags u8 (bit 0: tens), host chain commitment (16)
0x02   JOIN      guest chain commitment (16)
0x03   REVEAL    stage u8, chain value (16)
0x04   SEAL      half index u8, placement commitment (16)
0x05   OPEN      half index u8, cells (4), nonce (16)
0x06   PLACE     half index u8, cells (4)   (in the clear, after the other sealed)
=====  ========  ==========================================================

A half index is 2 x (round - 1) + (half - 1): one byte names round 1-128 and
its half. Stages number at most 2 x 99 + 1, so one byte holds them too.

Decoding checks structure only and never trusts lengths from the data; the
session checks meaning. Nothing is pickled or evaluated.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from royalnine.core.errors import RoyalNineError
from royalnine.remote.crypto import DIGEST

MAGIC = b"R9"
VERSION = 2
MATCH_ID_BYTES = 4
HEADER = len(MAGIC) + 1 + MATCH_ID_BYTES + 2 + DIGEST
MAX_MESSAGE = 400
MAX_ROUND = 128


class BadCode(RoyalNineError, ValueError):
    """A code that is not a valid move of this match: foreign, damaged, tampered or out of order."""


class Tag(enum.IntEnum):
    """Item tags."""

    HELLO = 1
    JOIN = 2
    REVEAL = 3
    SEAL = 4
    OPEN = 5
    PLACE = 6


@dataclass(frozen=True)
class Hello:
    """The host starts a match: its rules and its chain commitment."""

    rounds: int
    tens: bool
    commitment: bytes


@dataclass(frozen=True)
class Join:
    """The guest accepts: its chain commitment."""

    commitment: bytes


@dataclass(frozen=True)
class Reveal:
    """The sender's chain value for a deal stage (stages count from 1)."""

    stage: int
    value: bytes


@dataclass(frozen=True)
class Seal:
    """A commitment to the sender's placement for a half, to be opened later."""

    round: int
    half: int
    digest: bytes


@dataclass(frozen=True)
class Open:
    """Opens an earlier :class:`Seal`."""

    round: int
    half: int
    cells: bytes
    nonce: bytes


@dataclass(frozen=True)
class PlaceClear:
    """A placement sent in the clear, allowed once the other player has sealed theirs."""

    round: int
    half: int
    cells: bytes


Item = Hello | Join | Reveal | Seal | Open | PlaceClear


@dataclass(frozen=True)
class Message:
    """One message of a remote match."""

    match_id: bytes
    seq: int
    prev: bytes
    items: tuple[Item, ...]

    @property
    def sender(self) -> int:
        """The seat that sent it: the host (0) sends even moves, the guest (1) odd ones."""
        return self.seq % 2


Shape = tuple[Tag, int, int]
"""What an item is, without its contents: (tag, round or stage, half) -- what the protocol
requires at a move is a list of shapes."""


def shape(item: Item) -> Shape:
    """The shape of an item: its tag and which stage or half it is about."""
    if isinstance(item, Hello):
        return (Tag.HELLO, 0, 0)
    if isinstance(item, Join):
        return (Tag.JOIN, 0, 0)
    if isinstance(item, Reveal):
        return (Tag.REVEAL, item.stage, 0)
    tag = Tag.SEAL if isinstance(item, Seal) else Tag.OPEN if isinstance(item, Open) else Tag.PLACE
    return (tag, item.round, item.half)


def describe(item: Shape) -> str:
    """A shape in words, for refusals ("the seal of round 2 half 1")."""
    tag, a, b = item
    if tag is Tag.HELLO:
        return "a hello"
    if tag is Tag.JOIN:
        return "a join"
    if tag is Tag.REVEAL:
        return f"the value for stage {a}"
    what = {Tag.SEAL: "the seal", Tag.OPEN: "the opening", Tag.PLACE: "the placement"}[tag]
    return f"{what} of round {a} half {b}"


def match_label(match_id: bytes) -> str:
    """How a match id is shown to players (8 hex digits)."""
    return match_id.hex().upper()


def encode(message: Message) -> bytes:
    """The bytes of a message."""
    out = bytearray(MAGIC)
    out.append(VERSION)
    out += message.match_id
    out += message.seq.to_bytes(2, "big")
    out += message.prev
    for item in message.items:
        out += _encode_item(item)
    return bytes(out)


def half_index(round_number: int, half: int) -> int:
    """The one-byte name of a round's half; ValueError outside rounds 1-128, halves 1-2."""
    if not (1 <= round_number <= MAX_ROUND and half in (1, 2)):
        raise ValueError(f"no half {half} of round {round_number} in a code")
    return 2 * (round_number - 1) + half - 1


def _encode_item(item: Item) -> bytes:
    if isinstance(item, Hello):
        return bytes((Tag.HELLO, item.rounds, int(item.tens))) + item.commitment
    if isinstance(item, Join):
        return bytes((Tag.JOIN,)) + item.commitment
    if isinstance(item, Reveal):
        return bytes((Tag.REVEAL, item.stage)) + item.value
    if isinstance(item, Seal):
        return bytes((Tag.SEAL, half_index(item.round, item.half))) + item.digest
    if isinstance(item, Open):
        return bytes((Tag.OPEN, half_index(item.round, item.half))) + item.cells + item.nonce
    return bytes((Tag.PLACE, half_index(item.round, item.half))) + item.cells


_BODY = {
    Tag.HELLO: 2 + DIGEST,
    Tag.JOIN: DIGEST,
    Tag.REVEAL: 1 + DIGEST,
    Tag.SEAL: 1 + DIGEST,
    Tag.OPEN: 1 + 4 + DIGEST,
    Tag.PLACE: 1 + 4,
}


def decode(data: bytes) -> Message:
    """Parse a message; raises :class:`BadCode` with a one-line reason."""
    if not isinstance(data, bytes | bytearray):
        raise BadCode("a code must be bytes")
    data = bytes(data)
    if len(data) > MAX_MESSAGE:
        raise BadCode(f"not a Royal Nine code ({len(data)} bytes is too long)")
    if not data.startswith(MAGIC):
        raise BadCode("not a Royal Nine code (it does not start with R9)")
    if len(data) < HEADER:
        raise BadCode("damaged Royal Nine code (too short)")
    if data[2] != VERSION:
        raise BadCode(f"Royal Nine code of format version {data[2]}; this program reads {VERSION}")
    pos = 3
    match_id = data[pos : pos + MATCH_ID_BYTES]
    pos += MATCH_ID_BYTES
    seq = int.from_bytes(data[pos : pos + 2], "big")
    pos += 2
    prev = data[pos : pos + DIGEST]
    pos += DIGEST
    items: list[Item] = []
    while pos < len(data):
        try:
            tag = Tag(data[pos])
        except ValueError:
            raise BadCode(f"damaged Royal Nine code (unknown item {data[pos]:#04x})") from None
        body = data[pos + 1 : pos + 1 + _BODY[tag]]
        if len(body) != _BODY[tag]:
            raise BadCode("damaged Royal Nine code (an item is cut short)")
        items.append(_decode_item(tag, body))
        pos += 1 + _BODY[tag]
    return Message(match_id, seq, prev, tuple(items))


def message_ends(data: bytes) -> list[int]:
    """The lengths at which a message that begins with ``data`` could end, by its
    structure alone: after the header, then after each whole item that follows.

    Finding a code in chat text tries only these lengths, never every one: a few
    per place a code could start, so the search costs time in proportion to the text.
    """
    ends: list[int] = []
    pos = HEADER
    limit = min(len(data), MAX_MESSAGE)
    while pos <= limit:
        ends.append(pos)
        if pos == limit or data[pos] not in _TAGS:
            break
        pos += 1 + _BODY[Tag(data[pos])]
    return ends


_TAGS = frozenset(Tag)


def _decode_item(tag: Tag, body: bytes) -> Item:
    if tag is Tag.HELLO:
        if body[1] not in (0, 1):
            raise BadCode("damaged Royal Nine code (unknown rule flags)")
        return Hello(body[0], bool(body[1]), body[2:])
    if tag is Tag.JOIN:
        return Join(body)
    if tag is Tag.REVEAL:
        return Reveal(body[0], body[1:])
    round_number, half = body[0] // 2 + 1, body[0] % 2 + 1
    if tag is Tag.SEAL:
        return Seal(round_number, half, body[1:])
    if tag is Tag.OPEN:
        return Open(round_number, half, body[1:5], body[5:])
    return PlaceClear(round_number, half, body[1:5])
