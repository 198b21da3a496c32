"""A code as text: the bytes of a QR code written in typo-evident base32, for messengers.

Most messengers carry text more easily than images, so every code can also be
copied and pasted as text. The form::

    8ZK3Q 1VX0D 4M7RA ... 2HBC9

is Crockford's base32 alphabet (``0-9 A-Z`` without ``I L O U``), in groups of
five characters: four carry data (the last data group may carry fewer) and the
fifth is a check over its group. A last group carries 20 bits of a hash of the
whole payload, with its own check.

Why this check. Each group ``x_0 .. x_k`` (``x_k`` the check) satisfies
``sum(a^j * x_j) = 0`` over GF(32), ``a`` a primitive element. Every weight
``a^j`` is non-zero and distinct, so:

- changing any one character of a group changes the sum by ``a^j * d`` with
  ``d != 0``: never zero, so **every one-character typo is detected**;
- swapping two different adjacent characters of a group changes it by
  ``a^j * (1 + a) * d``: never zero, so **every adjacent transposition is
  detected**; a swap across two groups is a typo in each of them;
- the error names the group, so the player knows where to look.

The hash group catches what per-group checks cannot see (a dropped or repeated
group, groups swapped). The reader is forgiving where it cannot be misled: case is
ignored, spaces, line breaks and dashes are skipped, and ``O`` reads as ``0``,
``I`` and ``L`` as ``1`` (Crockford's rules), since those are the confusions of a
person copying by hand.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import unicodedata

from royalnine.remote.codec import BadCode

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
GROUP = 5
"""Characters a group (data and check)."""
DATA_PER_GROUP = GROUP - 1
HASH_CHARS = DATA_PER_GROUP
"""Characters of the whole-payload hash (20 bits) in the last group."""
MAX_TEXT = 4000
"""Longer pasted text is refused unread (a code of 400 bytes is about 810 characters)."""

_VALUE = {ch: i for i, ch in enumerate(ALPHABET)}
_VALUE.update({"O": 0, "I": 1, "L": 1})
_SKIPPED = frozenset(" \t\r\n\v\f\x85\u2028\u2029-")
_POLY = 0b100101  # x^5 + x^2 + 1, primitive: its root generates GF(32)'s 31 non-zero elements


class TextCodeError(BadCode):
    """Text that is not a text code, or one with a typo (the message says where)."""


def _mul(a: int, b: int) -> int:
    """Multiply in GF(32)."""
    out = 0
    while b:
        if b & 1:
            out ^= a
        b >>= 1
        a <<= 1
        if a & 0b100000:
            a ^= _POLY
    return out


_POW = [1]
for _ in range(GROUP):
    _POW.append(_mul(_POW[-1], 2))
_INV = {a: next(b for b in range(1, 32) if _mul(a, b) == 1) for a in range(1, 32)}
# The group sums only ever multiply by a weight a^j: one table row per weight.
_TIMES = [[_mul(weight, value) for value in range(32)] for weight in _POW]


def _check_value(data: list[int]) -> int:
    """The check x_k that makes sum(a^j * x_j) over the group zero (k = len(data))."""
    total = 0
    for j, value in enumerate(data):
        total ^= _TIMES[j][value]
    return _mul(total, _INV[_POW[len(data)]])  # in GF(2^n), minus is plus


def _group_ok(values: list[int]) -> bool:
    total = 0
    for j, value in enumerate(values):
        total ^= _TIMES[j][value]
    return total == 0


def _to_values(data: bytes) -> list[int]:
    """Base32 digits of ``data``, most significant first, the last one zero-padded."""
    bits = int.from_bytes(data, "big") if data else 0
    count = -(-len(data) * 8 // 5)
    bits <<= count * 5 - len(data) * 8
    return [(bits >> (5 * (count - 1 - i))) & 31 for i in range(count)]


def _hash_values(data: bytes) -> list[int]:
    digest = int.from_bytes(hashlib.sha256(b"royalnine text code\0" + data).digest()[:3], "big")
    return [(digest >> (5 * (HASH_CHARS - 1 - i) + 4)) & 31 for i in range(HASH_CHARS)]


def to_text(code: bytes) -> str:
    """Write a code's bytes as text: groups of five characters separated by spaces.

    Args:
        code: the payload bytes (any, including empty).

    Returns:
        The text form, for example ``"8ZK3Q 1VX0D ..."``; :func:`from_text` reads it back.
    """
    values = _to_values(bytes(code))
    chunks = [values[i : i + DATA_PER_GROUP] for i in range(0, len(values), DATA_PER_GROUP)]
    chunks.append(_hash_values(bytes(code)))
    groups = ["".join(ALPHABET[v] for v in [*chunk, _check_value(chunk)]) for chunk in chunks]
    return " ".join(groups)


def _clean(text: str) -> list[int]:
    if len(text) > MAX_TEXT:
        raise TextCodeError(f"text is {len(text)} characters; a text code has at most {MAX_TEXT}")
    values: list[int] = []
    for ch in text.upper():
        if ch in _SKIPPED:
            continue
        value = _VALUE.get(ch)
        if value is None:
            shown = repr(ch) if ch.isprintable() else f"U+{ord(ch):04X}"
            raise TextCodeError(
                f"{shown} is not in a text code (only 0-9 and A-Z without U, in groups of 5)"
            )
        values.append(value)
    return values


_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))
_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"
_QUOTE = re.compile(r"^[ \t]*(?:>[ \t]*)+", re.MULTILINE)
_TOKEN_EDGE = re.compile(r"^[^0-9A-Za-z]+|[^0-9A-Za-z]+$")
MAX_TOKENS = 400
"""Words of a pasted text searched for a code (a chat message around one has far fewer)."""


def normalise(text: str) -> str:
    """Text as messengers deliver it, made plain: full-width letters and digits and odd
    spaces (no-break, ideographic) become ASCII, zero-width characters and soft hyphens
    go, Unicode dashes become ``-``, and a leading ``> `` quote is taken off each line."""
    text = unicodedata.normalize("NFKC", text[: MAX_TEXT * 2]).translate(_ZERO_WIDTH)
    for dash in _DASHES:
        text = text.replace(dash, "-")
    return _QUOTE.sub("", text)


def _values(chars: str) -> list[int] | None:
    """The digits of code characters (dashes skipped), None if one is no code character."""
    out: list[int] = []
    for ch in chars.upper():
        if ch == "-":
            continue
        value = _VALUE.get(ch)
        if value is None:
            return None
        out.append(value)
    return out


def _runs(text: str) -> list[list[list[int]]]:
    """The runs of words made only of code characters (between words that are not), each
    word as its digits; punctuation at a word's edge ends a run there."""
    runs: list[list[list[int]]] = [[]]
    for word in text.split():
        core = _TOKEN_EDGE.sub("", word)
        values = _values(core) if core else None
        if values is None:
            runs.append([])
            continue
        if core != word and word[0] == core[0]:  # "8ZK3Q," ends the run after it
            runs[-1].append(values)
            runs.append([])
        else:
            if core != word:  # "(8ZK3Q" starts a new run
                runs.append([])
            runs[-1].append(values)
    return [run for run in runs if run]


def _search(text: str) -> bytes | None:
    """The longest stretch of whole words in a chat message that reads as a code."""
    runs = _runs(text)
    if sum(len(run) for run in runs) > MAX_TOKENS:
        return None
    best: bytes | None = None
    best_size = 0
    for run in runs:
        flat = [v for word in run for v in word]
        starts = [0]
        for word in run:
            starts.append(starts[-1] + len(word))
        # a code starts and ends with a whole group that checks: test each place once
        opens = [_group_ok(flat[k : k + GROUP]) for k in range(len(flat) + 1)]
        for i in range(len(run)):
            if not opens[starts[i]]:
                continue
            for j in range(len(run), i, -1):
                size = starts[j] - starts[i]
                if size <= best_size or size < GROUP or not opens[starts[j] - GROUP]:
                    continue
                try:
                    best = _parse(flat[starts[i] : starts[j]])
                except TextCodeError:
                    continue
                best_size = size
    return best


def _trimmed(text: str) -> list[int]:
    """The longest run of code words, less the words at either end that are not groups
    of five (chat words such as "code" or "ok" around a code)."""
    words = max(_runs(text), key=lambda run: sum(map(len, run)), default=[])
    for _ in range(3):
        if words and len(words[0]) != GROUP:
            words = words[1:]
        if words and len(words[-1]) != GROUP:
            words = words[:-1]
    return [v for word in words for v in word]


def from_text(text: str) -> bytes:
    """Read a text code back into the code's bytes.

    Args:
        text: the text as pasted or typed: case, spaces, line breaks and dashes do not
            matter, and O/I/L read as 0/1/1.

    Returns:
        The payload bytes exactly as given to :func:`to_text`.

    Raises:
        TextCodeError: not a text code, or a typo; the message says which group.

    Text pasted from a messenger reads too: odd spaces, full-width characters and
    ``> `` quotes are made plain (:func:`normalise`), and a code with chat text around
    it is found as the longest stretch of whole words that reads as a code. Text made
    only of code characters is read as it is, so every typo refused before still is.
    """
    if len(text) > MAX_TEXT:
        raise TextCodeError(f"text is {len(text)} characters; a text code has at most {MAX_TEXT}")
    plain = normalise(text)
    try:
        values = _clean(plain)
    except TextCodeError as exc:  # other characters: chat text around the code?
        foreign: TextCodeError | None = exc
    else:
        foreign = None
        try:
            return _parse(values)
        except TextCodeError as exc:
            whole = exc
    trimmed = _trimmed(plain)
    if foreign is None:  # only code characters: at most chat words of them cut off
        if trimmed and trimmed != values:
            with contextlib.suppress(TextCodeError):
                return _parse(trimmed)
        raise whole from None
    found = _search(plain)
    if found is not None:
        return found
    if len(trimmed) >= 2 * GROUP:  # most likely the code: say what is wrong with it
        _parse(trimmed)
    raise foreign from None


def _parse(values: list[int]) -> bytes:
    """The payload of a code's digits, checked group by group and as a whole."""
    if not values:
        raise TextCodeError("no text code here: it is empty")
    if len(values) < GROUP:
        raise TextCodeError(f"a text code has at least {GROUP} characters, not {len(values)}")
    # Every group has five characters except perhaps the last data group (2-4), so the
    # groups are found from the count alone, whatever spacing the text arrived with.
    data_part = values[:-GROUP]
    groups = [data_part[i : i + GROUP] for i in range(0, len(data_part), GROUP)]
    groups.append(values[-GROUP:])
    if len(groups) > 1 and len(groups[-2]) < 2:
        raise TextCodeError("the text code has a character too many or too few")
    for number, group in enumerate(groups, start=1):
        if not _group_ok(group):
            shown = "".join(ALPHABET[v] for v in group)
            raise TextCodeError(
                f"typo in group {number} of {len(groups)} ({shown}): check it against the sender's"
            )
    data_digits = [v for group in groups[:-1] for v in group[:-1]]
    size, spare = divmod(len(data_digits) * 5, 8)
    if -(-size * 8 // 5) != len(data_digits):
        raise TextCodeError("the text code has a character too many or too few")
    bits = 0
    for value in data_digits:
        bits = bits << 5 | value
    if bits & ((1 << spare) - 1):
        raise TextCodeError("the text code has a character too many or too few")
    data = (bits >> spare).to_bytes(size, "big")
    if groups[-1][:-1] != _hash_values(data):
        raise TextCodeError(
            "the text code does not hold together (a group is missing, repeated or swapped)"
        )
    return data


def text_lines(text: str, width: int) -> list[str]:
    """A text code folded into lines of whole groups at most ``width`` characters wide."""
    groups = text.split()
    per_line = max(1, (width + 1) // (GROUP + 1))
    return [" ".join(groups[i : i + per_line]) for i in range(0, len(groups), per_line)]
