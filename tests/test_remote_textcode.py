"""Text codes: round trips, and every one-character typo and adjacent swap is detected."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from royalnine.remote.codec import BadCode
from royalnine.remote.textcode import (
    ALPHABET,
    GROUP,
    TextCodeError,
    from_text,
    text_lines,
    to_text,
)


def sample_codes() -> list[bytes]:
    rng = random.Random(7)
    sizes = [0, 1, 2, 3, 4, 5, 44, 73, 105]
    return [bytes(rng.randrange(256) for _ in range(n)) for n in sizes]


@given(st.binary(max_size=400))
def test_round_trip(data: bytes) -> None:
    text = to_text(data)
    assert from_text(text) == data
    assert set(text) <= set(ALPHABET + " ")
    assert all(len(group) <= GROUP for group in text.split())


def test_the_reader_forgives_case_spacing_dashes_and_look_alikes() -> None:
    data = bytes(range(40))
    text = to_text(data)
    assert from_text(text.lower()) == data
    assert from_text(text.replace(" ", "")) == data
    assert from_text("\n".join(text_lines(text, 32)) + "\n") == data
    assert from_text(text.replace(" ", "-")) == data
    assert from_text(text.replace("0", "O").replace("1", "l")) == data


@pytest.mark.parametrize("data", sample_codes())
def test_every_one_character_substitution_is_detected(data: bytes) -> None:
    """Exhaustive: every position, every other character of the alphabet."""
    chars = list(to_text(data))
    positions = [i for i, ch in enumerate(chars) if ch != " "]
    for i in positions:
        original = chars[i]
        for replacement in ALPHABET:
            if replacement == original:
                continue
            chars[i] = replacement
            with pytest.raises(TextCodeError, match="typo in group"):
                from_text("".join(chars))
        chars[i] = original
    assert from_text("".join(chars)) == data


@pytest.mark.parametrize("data", sample_codes())
def test_every_adjacent_transposition_is_detected(data: bytes) -> None:
    """Every pair of neighbouring characters swapped, within a group and across groups."""
    packed = to_text(data).replace(" ", "")
    for i in range(len(packed) - 1):
        if packed[i] == packed[i + 1]:
            continue
        swapped = packed[:i] + packed[i + 1] + packed[i] + packed[i + 2 :]
        with pytest.raises(TextCodeError):
            from_text(swapped)


def test_a_missing_or_repeated_group_is_detected() -> None:
    data = bytes(range(73))
    groups = to_text(data).split()
    for k in range(len(groups) - 1):
        with pytest.raises(TextCodeError):
            from_text(" ".join(groups[:k] + groups[k + 1 :]))
        with pytest.raises(TextCodeError):
            from_text(" ".join(groups[: k + 1] + groups[k:]))
    with pytest.raises(TextCodeError):
        from_text(" ".join([groups[1], groups[0], *groups[2:]]))


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("   - \n", "empty"),
        ("ABC", "at least 5"),
        ("Here's my code: 12345", "not in a text code"),
        ("UUUUU", "not in a text code"),
        ("x" * 5000, "at most"),
    ],
)
def test_not_a_text_code(text: str, reason: str) -> None:
    with pytest.raises(TextCodeError, match=reason) as info:
        from_text(text)
    assert "\n" not in str(info.value)
    assert isinstance(info.value, BadCode)


def test_text_lines_fold_whole_groups() -> None:
    text = to_text(bytes(range(73)))
    lines = text_lines(text, 32)
    assert all(len(line) <= 32 for line in lines)
    assert " ".join(lines) == text
    assert len(lines[0].split()) == 5


def _messenger_forms(text: str) -> dict[str, str]:
    """A text code as real messengers and people pass it on (issue 16 item 7)."""
    lines = text_lines(text, 32)
    full_width = "".join(chr(ord(c) + 0xFEE0) if c.isalnum() else c for c in text)
    return {
        "no-break spaces": text.replace(" ", "\u00a0"),
        "narrow no-break spaces": text.replace(" ", "\u202f"),
        "zero-width spaces": text.replace(" ", " \u200b").replace("A", "A\u200b"),
        "a byte-order mark": "\ufeff" + text,
        "full-width letters and digits": full_width,
        "ideographic spaces": full_width.replace(" ", "\u3000"),
        "a quote": "\n".join("> " + line for line in lines),
        "a nested quote": "\n".join(">> " + line for line in lines),
        "line breaks inside groups": text[:7] + "\n" + text[7:20] + "\r\n" + text[20:],
        "chat text around it": f"hey, here's my code: {text} thanks! see you",
        "chat text on other lines": f"Here is move 5 :)\n{chr(10).join(lines)}\nyour turn!",
        "chat words glued by spaces": f"code {text} ok",
        "a quote with chat": "> ok here\n" + "\n".join("> " + line for line in lines),
        "en dashes": text.replace(" ", "\u2013"),
    }


@pytest.mark.parametrize("data", [bytes(range(5)), bytes(range(44)), bytes(range(83))])
def test_text_pasted_from_real_messengers_reads(data: bytes) -> None:
    for name, form in _messenger_forms(to_text(data)).items():
        assert from_text(form) == data, name


@pytest.mark.parametrize("data", sample_codes()[5:])
def test_a_typo_in_a_code_with_chat_around_it_is_still_refused(data: bytes) -> None:
    """One-character typos, with chat text around the code, in a quote, with messenger
    spaces: still refused, and named as a typo."""
    chars = list(to_text(data))
    rng = random.Random(3)
    positions = [i for i, ch in enumerate(chars) if ch != " "]
    for i in rng.sample(positions, min(24, len(positions))):  # a fast test
        original = chars[i]
        chars[i] = rng.choice([c for c in ALPHABET if c != original])
        typo = "".join(chars)
        for form in (f"my code: {typo} thx", "> " + typo, typo.replace(" ", "\u00a0")):
            with pytest.raises(TextCodeError, match="typo in group"):
                from_text(form)
        chars[i] = original
