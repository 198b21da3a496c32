"""20.12 fixed point (petitcom_shim.basic.numbers) against an exact model (Fraction)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from petitcom_shim.basic import numbers
from petitcom_shim.basic.errors import BasicError
from petitcom_shim.basic.numbers import FIXED_MAX, FIXED_MIN, Fixed

raw = st.integers(FIXED_MIN, FIXED_MAX)
nonzero = raw.filter(lambda r: r != 0)


def exact(r: int) -> Fraction:
    return Fraction(r, 4096)


def fits(value: Fraction) -> bool:
    """An arithmetic result's range is symmetric: -524288 itself is Overflow ([WIKI] "-0")."""
    return Fraction(-FIXED_MAX, 4096) <= value <= Fraction(FIXED_MAX, 4096)


@given(raw, raw)
def test_add_and_sub_are_exact_or_overflow(a: int, b: int) -> None:
    for op, model in ((numbers.add, exact(a) + exact(b)), (numbers.sub, exact(a) - exact(b))):
        if fits(model):
            assert exact(op(a, b)) == model
        else:
            with pytest.raises(BasicError, match="Overflow"):
                op(a, b)


@given(raw, raw)
def test_mul_drops_fraction_bits_toward_minus_infinity(a: int, b: int) -> None:
    model = Fraction(math.floor(exact(a) * exact(b) * 4096), 4096)
    if fits(model):
        assert exact(numbers.mul(a, b)) == model
    else:
        with pytest.raises(BasicError, match="Overflow"):
            numbers.mul(a, b)


@given(raw, nonzero)
def test_div_truncates_toward_zero(a: int, b: int) -> None:
    q = exact(a) / exact(b) * 4096
    model = Fraction(math.floor(q) if q >= 0 else math.ceil(q), 4096)
    if fits(model):
        assert exact(numbers.div(a, b)) == model
    else:
        with pytest.raises(BasicError, match="Overflow"):
            numbers.div(a, b)


@given(raw, nonzero)
def test_mod_has_the_dividends_sign(a: int, b: int) -> None:
    r = numbers.mod(a, b)
    assert abs(r) < abs(b)
    assert r == 0 or (r < 0) == (a < 0)
    q = Fraction(a, b)
    trunc = math.floor(q) if q >= 0 else math.ceil(q)
    assert a == trunc * b + r


def test_division_by_zero() -> None:
    for op in (numbers.div, numbers.mod):
        with pytest.raises(BasicError, match="Division by zero"):
            op(4096, 0)


def model_text(r: int) -> str:
    """PTC's rule in exact arithmetic: |x| + 2/4096, truncated to thousandths, "-" kept."""
    if r == FIXED_MIN:
        return "-0"  # the word's negation wraps ([WIKI] "-0 (Numerical Value)")
    t = math.floor((abs(exact(r)) + Fraction(2, 4096)) * 1000)
    whole, frac = divmod(t, 1000)
    if frac == 0:
        return ("-" if r < 0 else "") + str(whole)
    return ("-" if r < 0 else "") + f"{whole}." + f"{frac:03d}".rstrip("0")


@given(raw)
def test_text_follows_ptcs_rule(r: int) -> None:
    assert numbers.text(r).decode() == model_text(r)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(2, 3), "0.666"),  # [SBC]'s rule; rounding would give 0.667
        (Fraction(-1, 2), "-0.5"),
        (Fraction(1, 8), "0.125"),
        (Fraction(1, 10000), "0"),
        (Fraction(-1, 10000), "0"),
        (Fraction(100000), "100000"),
        (Fraction(-524288), "-0"),  # [WIKI] "-0 (Numerical Value)"
        (Fraction(-2, 4096), "-0"),  # [SBC] test_strs "Convert -2/4096 to string"
        (Fraction(-4, 4096), "-0.001"),  # [SBC] test_strs
    ],
)
def test_text_examples(value: Fraction, text: str) -> None:
    r = math.floor(value * 4096) if value >= 0 else math.ceil(value * 4096)
    assert str(Fixed(r)) == text


@pytest.mark.parametrize(
    ("source", "expected"),
    [  # [SBC] tests/test_int_code.c "VAL tests" (raw 20.12 values)
        (b"", 0),
        (b"1 0", 4096),
        (b"00000000000123456", 123456 * 4096),
        (b"0.0005", 2),
        (b"AF58 B", 0),
        (b"4565FGHG", 4565 * 4096),
        (b" ", 0),
        (b"..", 0),
        (b"01.99 88.", 8151),
        (b"&H4FE4HR6 77 6", 20452 * 4096),
        (b"524287.999994", 0x7FFFFFFF),
        (b"-0.0005", -2),
        (b"0.6666", 2730),
        (b"MN230", 0),
    ],
)
def test_parse_like_val(source: bytes, expected: int) -> None:
    assert numbers.parse(source)[0] == expected


def test_parse_overflow() -> None:
    with pytest.raises(BasicError, match="Overflow"):
        numbers.parse(b"524288")
    with pytest.raises(BasicError, match="Overflow"):
        numbers.parse(b"&H100000")


def test_hex_and_binary() -> None:
    assert numbers.parse(b"&HFF")[0] == 255 * 4096
    assert numbers.parse(b"&hff")[0] == 255 * 4096
    assert numbers.parse(b"&B101")[0] == 5 * 4096
    assert numbers.parse(b"&HFFFFF")[0] == -4096  # the 20-bit integer part's sign


@given(raw, raw)
def test_bit_operators_work_on_integer_parts(a: int, b: int) -> None:
    ia, ib = a >> 12, b >> 12

    def word(n: int) -> int:
        n &= 0xFFFFF  # 20 integer bits, as a 32-bit word shifted by 12
        return (n - (1 << 20) if n & 0x80000 else n) * 4096

    assert numbers.bit_and(a, b) == word(ia & ib)
    assert numbers.bit_or(a, b) == word(ia | ib)
    assert numbers.bit_xor(a, b) == word(ia ^ ib)
    assert numbers.bit_not(a) == word(~ia)


@given(raw, raw)
def test_fixed_value_type_matches_the_raw_operations(a: int, b: int) -> None:
    x, y = Fixed(a), Fixed(b)
    assert int(x) == a >> 12
    assert float(x) == a / 4096
    if fits(exact(a) + exact(b)):
        assert (x + y).raw == a + b
    if b and fits(exact(a) / exact(b)):
        assert (x / y).raw == numbers.div(a, b)


def test_fixed_of() -> None:
    assert Fixed.of(3).raw == 3 * 4096
    assert Fixed.of("1.5").raw == 6144
    assert Fixed.of(0.1).raw == 409
    with pytest.raises(BasicError):
        Fixed(FIXED_MAX + 1)
