"""SmileBASIC v2 numbers: 20.12 signed fixed point.

Every PTC number is a 32-bit word holding value * 4096 ([SBC] common.h
``FIXPOINT 12``; the manual: "uses fixed-point"). The interpreter keeps that
word as a plain Python ``int`` (the *raw* value) so compiled programs do
integer arithmetic; :class:`Fixed` wraps a raw word as a value type for the
API and tests. The rules, from [SBC] operators.c / mathptc.c:

- ``+ -``: exact; a result outside the 32-bit word is ``Overflow``.
- ``*``: the 64-bit product shifted right 12 bits (rounds toward -infinity).
- ``/``: ``(a << 12) / b`` truncated toward zero; ``/ 0`` is ``Division by zero``.
- ``%``: the remainder of the raw words with the sign of the dividend (C's
  ``%``); ``% 0`` is ``Division by zero``.
- ``AND OR XOR NOT``: on the integer parts (floored), the result an integer.
- PRINT/STR$ text: :func:`petitcom_shim.numbers.fixed_text`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from petitcom_shim.basic.errors import BasicError
from petitcom_shim.numbers import FIXED_MAX, FIXED_MIN, FIXED_ONE, fixed_text

__all__ = [
    "FIXED_MAX",
    "FIXED_MIN",
    "ONE",
    "Fixed",
    "add",
    "bit_and",
    "bit_not",
    "bit_or",
    "bit_xor",
    "check",
    "div",
    "from_float",
    "from_int",
    "mod",
    "mul",
    "neg",
    "parse",
    "result",
    "sub",
    "text",
    "to_float",
    "to_int",
]

ONE = FIXED_ONE


def overflow() -> int:
    """Raise PTC's Overflow (typed as returning so it fits in expressions)."""
    raise BasicError("Overflow")


def check(raw: int) -> int:
    """``raw`` if it fits the 32-bit word, else Overflow."""
    if FIXED_MIN <= raw <= FIXED_MAX:
        return raw
    return overflow()


def result(raw: int) -> int:
    """An arithmetic result: Overflow outside ±524287.999, so -524288 itself too.

    The word -524288 (``&H80000``, ``FLOOR(-524287.5)``) can be held and printed
    (as ``-0``), but ``Z+0``, ``Z-0``, ``Z*1`` and ``Z/1`` are Overflow on the
    handheld ([WIKI] "-0 (Numerical Value)"): the range is symmetric.
    """
    if -FIXED_MAX <= raw <= FIXED_MAX:
        return raw
    return overflow()


def add(a: int, b: int) -> int:
    """a + b."""
    return result(a + b)


def sub(a: int, b: int) -> int:
    """a - b."""
    return result(a - b)


def mul(a: int, b: int) -> int:
    """a * b: the product's low 12 fraction bits are dropped (toward -infinity)."""
    return result((a * b) >> 12)


def div(a: int, b: int) -> int:
    """a / b truncated toward zero, as C's integer division of ``a << 12`` by ``b``."""
    if b == 0:
        raise BasicError("Division by zero")
    n = a << 12
    q = abs(n) // abs(b)
    return result(q if (n < 0) == (b < 0) else -q)


def mod(a: int, b: int) -> int:
    """a % b with the sign of ``a`` (C's ``%`` on the raw words)."""
    if b == 0:
        raise BasicError("Division by zero")
    r = abs(a) % abs(b)
    return -r if a < 0 else r


def neg(a: int) -> int:
    """-a; -(-524288) wraps to -524288 in the 32-bit word (``?-Z`` shows ``-0``, [WIKI])."""
    return a if a == FIXED_MIN else check(-a)


def _wrap32(n: int) -> int:
    """A C ``int``'s wrap-around of ``n`` (the integer results of the bit operators)."""
    n &= 0xFFFFFFFF
    return n - (1 << 32) if n & 0x80000000 else n


def _bits(n: int) -> int:
    """The integer ``n`` as a 20.12 word, wrapping like the handheld's shift."""
    return _wrap32(n << 12)


def bit_and(a: int, b: int) -> int:
    """a AND b on the integer parts."""
    return _bits((a >> 12) & (b >> 12))


def bit_or(a: int, b: int) -> int:
    """a OR b on the integer parts."""
    return _bits((a >> 12) | (b >> 12))


def bit_xor(a: int, b: int) -> int:
    """a XOR b on the integer parts."""
    return _bits((a >> 12) ^ (b >> 12))


def bit_not(a: int) -> int:
    """NOT a: the bitwise complement of the integer part (NOT 0 is -1)."""
    return _bits(~(a >> 12))


def from_int(n: int) -> int:
    """The raw word of integer ``n`` (Overflow outside -524288..524287)."""
    return check(n << 12)


def to_int(raw: int) -> int:
    """The integer part a verb sees: floored, as PTC's arithmetic shift."""
    return raw >> 12


def from_float(x: float) -> int:
    """A float result (SIN, SQR, ...) as a 20.12 word, truncated toward zero."""
    if math.isnan(x) or math.isinf(x):
        return overflow()
    return check(int(x * 4096))


def from_machine(value: object) -> int | bytes:
    """A :class:`~petitcom_shim.Machine` verb's result as a PTC value: a bool as
    TRUE/FALSE, a number as its 20.12 word, a ``str`` as PTC bytes (Latin-1)."""
    if isinstance(value, bool):
        return 4096 if value else 0
    if isinstance(value, int):
        return from_int(value)
    if isinstance(value, float):
        return from_float(value)
    if isinstance(value, str):
        return value.encode("latin-1", "replace")
    raise BasicError("Type mismatch")


def to_float(raw: int) -> float:
    """The exact value of a raw word as a float."""
    return raw / 4096


def text(raw: int) -> bytes:
    """PRINT/STR$ text of a number as PTC character bytes."""
    if not raw & 4095 and raw != -2147483648:  # a whole number (the word &H80000 is "-0")
        return b"%d" % (raw >> 12)
    return fixed_text(raw).encode("ascii")


_DIGITS = b"0123456789ABCDEF"


def _digits(data: bytes, i: int, base: int) -> tuple[int, int, int]:
    """Read digits of ``base`` from ``data[i:]``: (value, count, next index)."""
    value = count = 0
    while i < len(data):
        d = _DIGITS.find(data[i : i + 1].upper())
        if d < 0 or d >= base:
            break
        value = value * base + d
        count += 1
        i += 1
    return value, count, i


def parse(data: bytes, *, signed: bool = True) -> tuple[int, int]:
    """Read a number at the start of ``data`` as VAL and the tokenizer do.

    Decimal with an optional fraction (``12``, ``1.5``, ``.5``), ``&H``
    hexadecimal or ``&B`` binary, an optional leading ``-`` when ``signed``.
    Reading stops at the first character that does not fit (VAL("12AB") is 12).
    The fraction is truncated to 1/4096 ([SBC] ``str_to_number``: VAL("0.6666")
    is 2730/4096).

    Returns:
        (raw value, number of bytes read); (0, 0) when nothing was read.

    Raises:
        BasicError: Overflow when the number does not fit.
    """
    i = 0
    negative = False
    if signed and data[:1] == b"-":
        negative, i = True, 1
    if data[i : i + 1] == b"&" and data[i + 1 : i + 2].upper() in (b"H", b"B"):
        base = 16 if data[i + 1 : i + 2].upper() == b"H" else 2
        value, count, end = _digits(data, i + 2, base)
        if value >= 1 << 20:
            return overflow(), 0
        if value & 0x80000:  # the 20-bit integer part's sign bit: &HFFFFF is -1
            value -= 1 << 20
        raw = value << 12
        return (-raw if negative else raw), end
    whole, count, end = _digits(data, i, 10)
    raw = whole << 12
    if data[end : end + 1] == b".":
        frac, fcount, fend = _digits(data, end + 1, 10)
        if fcount or count:
            raw += (frac << 12) // (10**fcount)
            end = fend
    elif not count:
        return 0, 0
    if raw > FIXED_MAX:
        return overflow(), 0
    return (-raw if negative else raw), end


@dataclass(frozen=True, order=True)
class Fixed:
    """A PTC number as a value: ``raw`` is value * 4096 (a 32-bit word).

    Arithmetic follows PTC (see the module docstring) and raises
    :class:`BasicError` ("Overflow", "Division by zero") as the handheld does;
    ``str()`` is PRINT's text.
    """

    raw: int

    def __post_init__(self) -> None:
        check(self.raw)

    @classmethod
    def of(cls, value: int | float | str) -> Fixed:
        """A number from an int, a float (truncated) or decimal text (as VAL)."""
        if isinstance(value, str):
            return cls(parse(value.encode("ascii"))[0])
        if isinstance(value, int):
            return cls(from_int(value))
        return cls(from_float(value))

    def __add__(self, other: Fixed) -> Fixed:
        return Fixed(add(self.raw, other.raw))

    def __sub__(self, other: Fixed) -> Fixed:
        return Fixed(sub(self.raw, other.raw))

    def __mul__(self, other: Fixed) -> Fixed:
        return Fixed(mul(self.raw, other.raw))

    def __truediv__(self, other: Fixed) -> Fixed:
        return Fixed(div(self.raw, other.raw))

    def __mod__(self, other: Fixed) -> Fixed:
        return Fixed(mod(self.raw, other.raw))

    def __neg__(self) -> Fixed:
        return Fixed(neg(self.raw))

    def __int__(self) -> int:
        return to_int(self.raw)

    def __float__(self) -> float:
        return to_float(self.raw)

    def __str__(self) -> str:
        return fixed_text(self.raw)
