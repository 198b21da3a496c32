"""How SmileBASIC v2 turns a number into the integer a verb needs.

PTC keeps every number as 20.12 fixed point and a verb taking a coordinate,
colour or id uses the integer part of that word, an arithmetic shift right by
12 bits: the value rounds toward negative infinity, so -0.5 becomes -1, not 0
(Python's ``int()`` rounds toward zero). [SBC] ``FP_TO_INT`` / ``STACK_INT``
and its SPOFS (``x & 0xfffff000``) do exactly this.
"""

from __future__ import annotations

import math

__all__ = ["FIXED_MAX", "FIXED_MIN", "FIXED_ONE", "fixed_text", "to_fixed", "to_int"]

#: 1.0 in PTC's 20.12 fixed point.
FIXED_ONE = 4096
#: The largest and smallest 20.12 words (524287.999... and -524288), as raw integers.
FIXED_MAX = 2**31 - 1
FIXED_MIN = -(2**31)


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


def fixed_text(raw: int) -> str:
    """PRINT/STR$ text of a 20.12 number given as its raw word (value * 4096).

    PTC prints at most three decimals without trailing zeros: it adds 2/4096 to
    the fraction and truncates to thousandths, so 2/3 prints as ``0.666`` and a
    fraction under 0.0005 vanishes (``1.0001`` prints ``1``). Negative numbers
    are the magnitude after ``-``, even when no digit is left: -1/4096 prints
    ``-0`` ([SBC] test_strs: -2/4096 is "-0"); a fraction that reaches 1000
    thousandths carries into the units (``0.9995`` prints ``1``; [SBC] prints a
    stray character there). The word -524288 (``&H80000``), whose magnitude the
    32-bit word cannot hold, prints ``-0`` ([WIKI] "-0 (Numerical Value)").
    [SBC] ``fixp_to_char`` (its tests are checked on the handheld); the choice
    against rounding is recorded in docs/petitcom-decisions.md.
    """
    if raw == FIXED_MIN:  # its negation wraps to itself: the handheld shows "-0"
        return "-0"
    sign = "-" if raw < 0 else ""
    mag = -raw if raw < 0 else raw
    whole = mag >> 12
    thousandths = (((mag & 0xFFF) + 2) * 1000) >> 12
    if thousandths == 1000:  # 4094/4096 and up: the carry reaches the units
        whole, thousandths = whole + 1, 0
    if not thousandths:
        return f"{sign}{whole}"
    digits = f"{thousandths:03d}".rstrip("0")
    return f"{sign}{whole}.{digits}"
