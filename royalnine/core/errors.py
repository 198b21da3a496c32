"""The errors the rules core raises: one class per kind of bad input or illegal action."""

from __future__ import annotations


class RoyalNineError(Exception):
    """Base class of every error the Royal Nine package raises on purpose."""


class BadCard(RoyalNineError, ValueError):
    """A card string that is not a card of this game (``"R0"``, ``"G5"``, or a 10 without tens)."""


class BadGrid(RoyalNineError, ValueError):
    """A grid that cannot be scored: wrong number of cards, duplicates, or unknown cards."""


class IllegalMove(RoyalNineError, ValueError):
    """An action the rules do not allow in the current state; the state is left unchanged."""


class CorruptRecord(RoyalNineError, ValueError):
    """A saved match or record that is damaged, foreign, of an unknown version, or inconsistent."""
