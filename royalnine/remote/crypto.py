"""Hashing for remote matches: commitments, hash chains and dealing from shared randomness.

Every value is 16 bytes (SHA-256 truncated to 128 bits: far beyond what a
card game needs against preimages, and small enough for one QR code). Each
hash is domain-separated by a short label so a value made for one purpose can
never pass for another.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from royalnine.core.cards import Card

DIGEST = 16


def h(label: bytes, *parts: bytes) -> bytes:
    """SHA-256 of a label and length-prefixed parts, truncated to :data:`DIGEST` bytes."""
    hasher = hashlib.sha256(label)
    for part in parts:
        hasher.update(len(part).to_bytes(2, "big"))
        hasher.update(part)
    return hasher.digest()[:DIGEST]


def chain_step(value: bytes) -> bytes:
    """One link of a hash chain: x(i+1) = H(x(i))."""
    return h(b"R9chain", value)


def chain_value(seed: bytes, steps: int) -> bytes:
    """The value ``steps`` links down the chain from ``seed``."""
    value = seed
    for _ in range(steps):
        value = chain_step(value)
    return value


def stage_seed(match_id: bytes, stage: int, reveal_host: bytes, reveal_guest: bytes) -> bytes:
    """The randomness of one deal stage: both players' reveals bound to the match and the stage."""
    return hashlib.sha256(
        b"R9stage" + match_id + stage.to_bytes(2, "big") + reveal_host + reveal_guest
    ).digest()


def deal_seed(stage: bytes, *, centre: bool) -> bytes:
    """The seed of one draw from a stage: a common card and the next first deal share a
    stage, so each use gets its own seed."""
    return hashlib.sha256((b"R9centre" if centre else b"R9deal") + stage).digest()


def draw_cards(seed: bytes, pool: Sequence[Card], count: int) -> tuple[Card, ...]:
    """Draw ``count`` distinct cards uniformly from ``pool`` with a SHA-256 counter stream.

    Rejection sampling keeps every card exactly equally likely; the order of
    ``pool`` must be canonical (deck order) so both devices draw the same cards.
    """
    remaining = list(pool)
    if count > len(remaining):
        raise ValueError(f"cannot draw {count} cards from {len(remaining)}")
    drawn: list[Card] = []
    counter = 0
    while len(drawn) < count:
        block = hashlib.sha256(seed + counter.to_bytes(4, "big")).digest()
        counter += 1
        for i in range(0, len(block), 4):
            n = len(remaining)
            value = int.from_bytes(block[i : i + 4], "big")
            limit = (1 << 32) - ((1 << 32) % n)
            if value >= limit:
                continue
            drawn.append(remaining.pop(value % n))
            if len(drawn) == count:
                break
    return tuple(drawn)


def placement_digest(
    match_id: bytes, seat: int, round_number: int, half: int, cells: bytes, nonce: bytes
) -> bytes:
    """The commitment to a placement: hiding (random nonce) and binding (hash)."""
    where = bytes((seat, round_number, half))
    return h(b"R9place", match_id, where, cells, nonce)
