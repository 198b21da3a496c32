"""The language's built-in functions on raw 20.12 numbers and PTC bytes.

Each ``f_NAME`` is called by compiled code (``CHR$`` is ``f_CHRS``). Edge
cases follow [SBC] strfuncs.c / mathptc.c (its tests are checked on the
handheld) and are listed in docs/petitcom-decisions.md: CHR$ outside 0-255 is
"Out of range", MID$ past the end is "", INSTR of "" is 0, VAL reads as far as
it can (VAL("12AB") = 12, VAL("&H4FE4HR") = &H4FE4).
"""

from __future__ import annotations

import math
import struct

from petitcom_shim.basic import numbers
from petitcom_shim.basic.errors import BasicError

__all__ = ["MAX_STRING", "cat", "rep"]

#: PTC's longest string.
MAX_STRING = 256


def cat(a: bytes, b: bytes) -> bytes:
    """a + b ("String too long" past 256 characters)."""
    if len(a) + len(b) > MAX_STRING:
        raise BasicError("String too long")
    return a + b


def rep(a: bytes, n: int) -> bytes:
    """a * n: ``a`` repeated (a negative count repeats nothing)."""
    count = max(numbers.to_int(n), 0)
    if len(a) * count > MAX_STRING:
        raise BasicError("String too long")
    return a * count


def _count(raw: int) -> int:
    """A non-negative integer argument ("Out of range" when negative)."""
    n = numbers.to_int(raw)
    if n < 0:
        raise BasicError("Out of range")
    return n


def _f32(x: float) -> float:
    """``x`` rounded to a single-precision float, as the handheld computes maths
    ([SBC] test_int_math: POW(524287.984,1) is 524287+3968/4096, the nearest
    float32, and POW(524287.985,1) overflows)."""
    try:
        value: float = struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)
    return value


def _real(raw: int) -> float:
    return _f32(numbers.to_float(raw))


def _res(x: float) -> int:
    return numbers.from_float(_f32(x))


def f_ABS(a: int) -> int:
    """|a|; ABS(-524288) stays -524288, the 32-bit word wrapping ([SBC] test_int_math)."""
    return a if a >= 0 or a == numbers.FIXED_MIN else -a


def f_SIN(a: int) -> int:
    """SIN of radians."""
    return _res(math.sin(_real(a)))


def f_COS(a: int) -> int:
    """COS of radians."""
    return _res(math.cos(_real(a)))


def f_TAN(a: int) -> int:
    """TAN of radians (Overflow where it is too large)."""
    return _res(math.tan(_real(a)))


def f_ATAN(a: int, b: int | None = None) -> int:
    """ATAN(x) or ATAN(y, x) in radians."""
    if b is None:
        return _res(math.atan(_real(a)))
    return _res(math.atan2(_real(a), _real(b)))


def f_EXP(a: int) -> int:
    """e to the power a."""
    try:
        return _res(math.exp(_real(a)))
    except OverflowError:
        return numbers.overflow()


def f_LOG(a: int) -> int:
    """Natural logarithm; 0 or less is "Illegal function call"."""
    if a <= 0:
        raise BasicError("Illegal function call")
    return _res(math.log(_real(a)))


def f_FLOOR(a: int) -> int:
    """The largest integer not above a."""
    return a & ~0xFFF


def f_POW(a: int, b: int) -> int:
    """a to the power b, in single precision: a result beyond float range is
    "Illegal function call" (POW(999,999)), one beyond 20.12 "Overflow"
    (POW(999,9)) ([SBC] test_int_math)."""
    try:
        value = _f32(math.pow(_real(a), _real(b)))
    except (ValueError, ZeroDivisionError, OverflowError):
        raise BasicError("Illegal function call") from None
    if math.isinf(value) or math.isnan(value):
        raise BasicError("Illegal function call")
    return numbers.from_float(value)


def f_SGN(a: int) -> int:
    """-1, 0 or 1."""
    return 4096 if a > 0 else -4096 if a < 0 else 0


def f_SQR(a: int) -> int:
    """Square root; negative is "Illegal function call"."""
    if a < 0:
        raise BasicError("Illegal function call")
    return _res(math.sqrt(_real(a)))


def f_RAD(a: int) -> int:
    """Degrees to radians."""
    return _res(math.radians(_real(a)))


def f_DEG(a: int) -> int:
    """Radians to degrees."""
    return _res(math.degrees(_real(a)))


def f_ASC(s: bytes) -> int:
    """The code of the first character; "" is a "Syntax error" ([SBC] func_asc, "for some
    reason", and [SBS] docs-ptc-asc agree)."""
    if not s:
        raise BasicError("Syntax error")
    return s[0] << 12


def f_CHRS(a: int) -> bytes:
    """The one-character string of code a (0-255, else "Out of range")."""
    c = numbers.to_int(a)
    if not 0 <= c <= 255:
        raise BasicError("Out of range")
    return bytes((c,))


def f_HEXS(a: int, digits: int | None = None) -> bytes:
    """Hexadecimal of the integer part (floored); negative numbers as 20-bit two's
    complement (HEX$(-5) is "FFFFB"); with ``digits`` (1-5) the last that many
    digits, zero-padded (HEX$(9,3) is "009", HEX$(-9,2) "F7") ([SBC] test_int_func)."""
    n = numbers.to_int(a) & 0xFFFFF
    if digits is None:
        return f"{n:X}".encode("ascii")
    width = numbers.to_int(digits)
    if not 1 <= width <= 5:
        raise BasicError("Illegal function call")
    return f"{n:05X}"[-width:].encode("ascii")


def f_INSTR(s: bytes, sub: bytes, start: int | None = None) -> int:
    """INSTR(s, sub[, start]): index of ``sub`` in ``s`` from ``start``, -1 if
    absent; an empty ``sub`` is found at 0 ([SBC] test_int_func: the start comes
    last, INSTR(A$,"A",1) finds nothing in "ABC...")."""
    first = 0 if start is None else _count(start)
    if not sub:
        return 0
    return s.find(sub, first) << 12


def f_LEFTS(s: bytes, n: int) -> bytes:
    """The first n characters."""
    return s[: _count(n)]


def f_RIGHTS(s: bytes, n: int) -> bytes:
    """The last n characters."""
    count = _count(n)
    return s[len(s) - count :] if count < len(s) else s


def f_MIDS(s: bytes, start: int, n: int) -> bytes:
    """n characters from index start ("" past the end)."""
    first = _count(start)
    return s[first : first + _count(n)]


def f_LEN(s: bytes) -> int:
    """The number of characters."""
    return len(s) << 12


def f_STRS(a: int) -> bytes:
    """The number as PRINT shows it."""
    return numbers.text(a)


def f_VAL(s: bytes) -> int:
    """The number at the start of the string (0 if there is none)."""
    return numbers.parse(s)[0]


def f_SUBSTS(s: bytes, start: int, n: int, new: bytes) -> bytes:
    """``s`` with n characters from index start replaced by ``new``."""
    first, count = _count(start), _count(n)
    if first > len(s):
        raise BasicError("Out of range")
    out = s[:first] + new + s[first + count :]
    if len(out) > MAX_STRING:
        raise BasicError("String too long")
    return out
