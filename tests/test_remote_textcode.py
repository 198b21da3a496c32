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


# -- issue 24: a paste that cannot freeze anything, and typos named where they are --


def _royal_nine_codes() -> list[bytes]:
    from test_remote_protocol import honest

    return honest(3, 2)


def _hostile_texts() -> dict[str, str]:
    """Chat texts made to be slow to search: every stretch of words checks as groups,
    every group is a code's first group, or codes' structures walk a long way."""
    tiny = to_text(b"\x00")
    longest = to_text(b"R9\x02" + bytes(22) + bytes([6, 0, 0, 0, 0, 0]) * 62).split()
    longest[-1] = "00000"  # its hash is wrong: every length is tried
    return {
        "390 groups that check": "00000 " * 390 + "hi!",
        "groups that check, a tiny code at the end": "hey " + "00000 " * 390 + tiny,
        "every group a code's start": "A8WGA " * 390 + "!",
        "every group a code's start, 4,000 characters": ("A8WGA " * 700)[:3999] + "!",
        "code starts, joined": "A8WGA" * 799 + "!",
        "long structures with a wrong hash": ((" ".join(longest) + " ") * 5)[:3999] + "!",
        "100,000 characters": ("00000 " * 20_000)[:99_999] + "!",
    }


class _Counted:
    """A stand-in for ``hashlib`` in the text code module that counts hashes, and fails
    the test at once past ``limit`` (so a slow search fails fast instead of hanging)."""

    def __init__(self, limit: int) -> None:
        import hashlib

        self.real = hashlib
        self.calls = 0
        self.limit = limit

    def sha256(self, data: bytes) -> object:
        self.calls += 1
        assert self.calls <= self.limit, "the search hashes without bound"
        return self.real.sha256(data)


@pytest.mark.parametrize("name", list(_hostile_texts()))
def test_a_hostile_paste_is_read_or_refused_with_bounded_work(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The search tries each place a code can start at the few lengths its structure
    allows (issue 24 item 2: the old search parsed every stretch of words, cubic)."""
    from royalnine.remote import textcode

    counted = _Counted(textcode.MAX_TRIES + 10)
    monkeypatch.setattr(textcode, "hashlib", counted)
    parses = 0
    real_parse = textcode._parse

    def parse(values: list[int]) -> bytes:
        nonlocal parses
        parses += 1
        assert parses <= 20, "the search parses without bound"
        return real_parse(values)

    monkeypatch.setattr(textcode, "_parse", parse)
    with pytest.raises(TextCodeError) as info:
        from_text(_hostile_texts()[name])
    assert "\n" not in str(info.value)


def test_a_transcript_line_is_never_searched_as_chat(monkeypatch: pytest.MonkeyPatch) -> None:
    """Transcript lines are hex or a whole text code: chat around a code is refused."""
    from royalnine.remote import textcode
    from royalnine.remote.files import parse_transcript

    code = _royal_nine_codes()[0]
    assert from_text(f"my code: {to_text(code)} thx") == code
    searched: list[str] = []
    monkeypatch.setattr(textcode, "_search", lambda text: searched.append(text))
    line = "00000 " * 600 + to_text(b"\x00")
    header = "# Royal Nine remote match 00000000, as kept by the host\n"
    with pytest.raises(BadCode, match="line 2 is not a code"):
        parse_transcript(header + "\n".join([line] * 25))
    with pytest.raises(BadCode, match="line 2 is not a code"):
        parse_transcript(header + f"my code: {to_text(code)} thx\n")
    assert parse_transcript(header + to_text(code).lower() + "\n")[0] == [code]
    assert searched == []
    # more codes than any match has (a 99-round match has 401): refused, not all read
    with pytest.raises(BadCode, match="line 1002: a transcript has at most 1000 codes"):
        parse_transcript(header + "\n".join([to_text(code)] * 5000))


def _noisy(text: str, rng: random.Random) -> str:
    """A code as a messenger and a person pass it on: some groups joined (the spaces
    lost), broken over lines, with chat words around it, some made of code letters."""
    words: list[str] = []
    for group in text.split():
        if words and rng.random() < 0.3:
            words[-1] += group
        else:
            words.append(group)
    chat = ["ok", "ok!", "here", "code:", "hey, here's my move", "thx", "your turn", "lol", "k"]
    glue = [" ", "\n"]
    before, after = rng.choice(chat) + rng.choice(glue), rng.choice(glue) + rng.choice(chat)
    return before + " ".join(words) + after


def test_an_honest_code_reads_when_chat_words_touch_joined_groups() -> None:
    """Issue 24 item 6: "ok" next to two groups a messenger joined made the code unreadable
    (the longest stretch of whole words ran into the chat word)."""
    codes = _royal_nine_codes()
    groups = to_text(codes[3]).split()
    assert from_text(" ".join([*groups[:-2], groups[-2] + groups[-1], "ok"])) == codes[3]
    assert from_text("ok " + groups[0] + groups[1] + " " + " ".join(groups[2:])) == codes[3]
    rng = random.Random(24)
    for _ in range(400):
        code = rng.choice(codes)
        assert from_text(_noisy(to_text(code), rng)) == code


def test_a_typo_is_named_even_with_junk_codes_in_the_chat() -> None:
    """Issue 24 item 6: a tiny code of other bytes in the chat, or a stretch of groups
    inside the code, is never read instead of the code; the typo's group is named."""
    code = _royal_nine_codes()[4]
    groups = to_text(code).split()
    rng = random.Random(6)
    for number in range(1, len(groups) + 1):
        typo = list(groups)
        chars = list(typo[number - 1])
        chars[2] = rng.choice([c for c in ALPHABET if c != chars[2]])
        typo[number - 1] = "".join(chars)
        tiny = to_text(bytes([number]))
        for text in (
            f"{tiny} ok here: {' '.join(typo)} thx",
            f"ok{' '.join(typo)}",
            f"move {' '.join(typo)}? {tiny}",
        ):
            with pytest.raises(TextCodeError, match=f"typo in group {number} of {len(groups)}"):
                from_text(text)
