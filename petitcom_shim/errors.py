"""Errors raised by the emulated Petit Computer, named after SmileBASIC's own messages.

A SmileBASIC program stops with "Illegal function call" or "Out of range" when a
verb gets an argument it cannot use; the shim raises the matching exception so a
port fails loudly where the original would have stopped.
"""

from __future__ import annotations

__all__ = ["IllegalFunctionCall", "OutOfRange", "PetitcomError"]


class PetitcomError(ValueError):
    """Base class of every error the shim raises for bad arguments."""


class IllegalFunctionCall(PetitcomError):
    """SmileBASIC "Illegal function call": an argument has a form the verb does not accept.

    Examples: a sprite size outside the 12 legal shapes, SPANGLE on sprite 32 or
    above, a CHRSET string that is not 64 hex digits, an unknown resource name.
    """


class OutOfRange(PetitcomError):
    """SmileBASIC "Out of range": a number is outside the range the verb allows.

    Examples: sprite id 100, palette 16, BG layer 2, screen 2.
    """
