"""How SmileBASIC v2 turns a number into the integer a verb needs.

PTC keeps every number as 20.12 fixed point and a verb taking a coordinate,
colour or id uses the integer part of that word, an arithmetic shift right by
12 bits: the value rounds toward negative infinity, so -0.5 becomes -1, not 0
(Python's ``int()`` rounds toward zero). [SBC] ``FP_TO_INT`` / ``STACK_INT``
and its SPOFS (``x & 0xfffff000``) do exactly this.
"""

from __future__ import annotations

import math

__all__ = ["FIXED_ONE", "to_fixed", "to_int"]

#: 1.0 in PTC's 20.12 fixed point.
FIXED_ONE = 4096


def to_fixed(value: float) -> float:
    """``value`` as the nearest 20.12 fixed-point number (a multiple of 1/4096)."""
    return round(float(value) * FIXED_ONE) / FIXED_ONE


def to_int(value: float) -> int:
    """The integer a PTC verb sees: the fixed-point value rounded toward -infinity.

    The value is first taken to the nearest 1/4096 so that binary floating-point
    noise (``2.9999999999999996``) behaves like the exact decimal PTC would hold.
    """
    if isinstance(value, int):
        return value
    return math.floor(to_fixed(value))
