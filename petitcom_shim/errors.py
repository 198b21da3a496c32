"""Errors raised by the emulated Petit Computer, named after SmileBASIC's own messages.

A SmileBASIC program stops with "Illegal function call" or "Out of range" when a
verb gets an argument it cannot use; the shim raises the matching exception so a
port fails loudly where the original would have stopped. Every message starts
with PTC's own error name (``str(OutOfRange("sprite id 100 not in 0-99"))`` is
``"Out of range: sprite id 100 not in 0-99"``), so a Petit Computer programmer
recognises the error at once.
"""

from __future__ import annotations

from typing import ClassVar

__all__ = ["Break", "IllegalFunctionCall", "OutOfRange", "PetitcomError"]


class PetitcomError(ValueError):
    """Base class of every error the shim raises for bad arguments.

    Subclasses for PTC's own errors set :attr:`ptc_name`, the message Petit
    Computer shows (the list in [PEMU] data.c ``GetErrorMessage``); the detail
    given to the constructor follows it after a colon. Without a ``ptc_name``
    (other shim errors) the message is the detail alone.
    """

    ptc_name: ClassVar[str] = ""

    def __init__(self, detail: str = "") -> None:
        self.detail = detail
        name = self.ptc_name
        super().__init__(f"{name}: {detail}" if name and detail else detail or name)


class IllegalFunctionCall(PetitcomError):
    """SmileBASIC "Illegal function call": an argument has a form the verb does not accept.

    Examples: a sprite size outside the 12 legal shapes, SPANGLE on sprite 32 or
    above, a sprite verb on a sprite that was never SPSET, SPCHR with only some of
    its optional arguments, a CHRSET string that is not 64 hex digits, an unknown
    resource name.
    """

    ptc_name = "Illegal function call"


class OutOfRange(PetitcomError):
    """SmileBASIC "Out of range": a number is outside the range the verb allows.

    Examples: sprite id 100, palette 16, BG layer 2, screen 2.
    """

    ptc_name = "Out of range"


class Break(Exception):
    """SmileBASIC "Break": SELECT was pressed while the program runs (opt-in, see
    :attr:`petitcom_shim.Machine.select_break`).

    Not a :class:`PetitcomError`: nothing was wrong with any argument; the user
    stopped the program, as PTC's SELECT does.
    """

    ptc_name: ClassVar[str] = "Break"

    def __init__(self) -> None:
        super().__init__(self.ptc_name)
