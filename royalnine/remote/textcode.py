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
import itertools
import re
import unicodedata

from royalnine.remote.codec import MAGIC, MAX_MESSAGE, BadCode, message_ends

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


def _hash_bits(data: bytes) -> int:
    """The 20 bits of the whole-payload hash that a code's last group carries."""
    return int.from_bytes(hashlib.sha256(b"royalnine text code\0" + data).digest()[:3], "big") >> 4


def _hash_values(data: bytes) -> list[int]:
    digest = _hash_bits(data)
    return [(digest >> (5 * (HASH_CHARS - 1 - i))) & 31 for i in range(HASH_CHARS)]


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
    """The digits of a text that holds only code characters (and skipped ones)."""
    if len(text) > MAX_TEXT:
        raise TextCodeError(f"text is {len(text)} characters; a text code has at most {MAX_TEXT}")
    upper = text.upper()
    other = _FOREIGN.search(upper)
    if other is not None:
        ch = other.group()
        shown = repr(ch) if ch.isprintable() else f"U+{ord(ch):04X}"
        raise TextCodeError(
            f"{shown} is not in a text code (only 0-9 and A-Z without U, in groups of 5)"
        )
    return list(upper.translate(_TO_DIGIT).encode("latin-1"))


_FOREIGN = re.compile(
    "[^" + "".join(sorted(_VALUE)) + "".join(f"\\u{ord(ch):04x}" for ch in sorted(_SKIPPED)) + "]"
)
_TO_DIGIT = {**{ord(ch): chr(v) for ch, v in _VALUE.items()}, **dict.fromkeys(map(ord, _SKIPPED))}
"""Code characters to their digits (as characters 0-31), skipped characters to nothing."""
_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))
_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"
_QUOTE = re.compile(r"^[ \t]*(?:>[ \t]*)+", re.MULTILINE)
_CODE_CHARS = "".join(sorted(_VALUE)) + "".join(sorted(_VALUE)).lower()
_SKIPPED_CLASS = "".join(f"\\u{ord(ch):04x}" for ch in sorted(_SKIPPED))
_RUN = re.compile(f"[{_CODE_CHARS}{_SKIPPED_CLASS}]+")
_WORD_GAP = re.compile(f"[{_SKIPPED_CLASS}]+")
_BASE32 = "0123456789ABCDEFGHIJKLMNOPQRSTUV"
_AS_BASE32 = str.maketrans({ch: _BASE32[v] for ch, v in _VALUE.items()})
"""A code's characters as Python's own base-32 digits, so ``int(digits, 32)`` reads them."""


def _start_group() -> str:
    """The first group of every Royal Nine code: the magic "R9" fills its four digits."""
    digits = _to_values(MAGIC)[:DATA_PER_GROUP]
    return "".join(_BASE32[v] for v in [*digits, _check_value(digits)])


_START = _start_group()
_LONGEST = len(to_text(bytes(MAX_MESSAGE)).replace(" ", ""))
"""Characters of the longest code there can be: no code in chat text is longer."""
_LONGEST_DATA = -(-MAX_MESSAGE * 8 // 5)
"""Data digits of the longest code."""


def normalise(text: str) -> str:
    """Text as messengers deliver it, made plain: full-width letters and digits and odd
    spaces (no-break, ideographic) become ASCII, zero-width characters and soft hyphens
    go, Unicode dashes become ``-``, and a leading ``> `` quote is taken off each line."""
    text = unicodedata.normalize("NFKC", text[: MAX_TEXT * 2]).translate(_ZERO_WIDTH)
    for dash in _DASHES:
        text = text.replace(dash, "-")
    return _QUOTE.sub("", text)


def _runs(text: str) -> list[list[str]]:
    """The runs of code characters in a text: each run a list of words (split where spaces,
    line breaks or dashes were), in base-32 digits. Any other character (punctuation,
    ``U``, a letter of another script) ends a run; chat words made only of code
    characters ("ok", "thanks") are part of the run they touch."""
    runs: list[list[str]] = []
    for match in _RUN.finditer(text):
        words = [w for w in _WORD_GAP.split(match.group().upper()) if w]
        if words:
            runs.append([w.translate(_AS_BASE32) for w in words])
    return runs


def _digits(chars: str) -> list[int]:
    return [int(ch, 32) for ch in chars]


MAX_TRIES = 2000
"""Lengths a chat text's code starts may be tried at (by hash, and a group checked counts
as one more) before the text is refused as too full of code starts: an honest message
with a few codes needs a few hundred at most, and the budget bounds a hostile one."""


def _search(text: str) -> bytes | None:
    """The longest Royal Nine code in a chat message.

    A code is looked for only where one can start (its first group is always the same,
    ``R9``) and only at the lengths its structure allows
    (:func:`royalnine.remote.codec.message_ends`), each tried by its hash group before
    its groups are checked: a few tries per start, so the time grows with the text, and
    a stretch of chat or of another code's groups is never read as a code of other bytes.
    Codes may start or end inside a word (a messenger joined a chat word to them).

    Raises:
        TextCodeError: more than :data:`MAX_TRIES` tries (a text made to be slow).
    """
    best: bytes | None = None
    tries = 0
    for words in _runs(text):
        run = "".join(words)
        # A code's data digits are every group's first four characters (the fifth is its
        # check): read once for each of the five ways groups can fall in the run.
        data_digits: dict[int, str] = {}
        at = run.find(_START)
        while at >= 0:
            align = at % GROUP
            if align not in data_digits:
                data_digits[align] = "".join(
                    run[i : i + DATA_PER_GROUP] for i in range(align, len(run), GROUP)
                )
            first = (at - align) // GROUP * DATA_PER_GROUP
            digits = data_digits[align][first : first + _LONGEST_DATA]
            found, tried = _code_at(run[at : at + _LONGEST], digits, len(best or b""))
            tries += tried
            if tries > MAX_TRIES:
                raise TextCodeError("too many code starts in this text: paste the code alone")
            if found is not None:
                best = found
            at = run.find(_START, at + 1)
    return best


def _code_at(room: str, digits: str, longer_than: int) -> tuple[bytes | None, int]:
    """The longest code longer than ``longer_than`` bytes at the start of ``room`` (whose
    data digits are ``digits``), or None; and the tries it took (see :data:`MAX_TRIES`)."""
    # A code of n bytes holds the first n bytes the digits spell: one reading serves all.
    usable = len(digits) * 5 // 8
    stream = (int(digits, 32) >> (len(digits) * 5 - usable * 8)).to_bytes(usable, "big")
    tried = 0
    for size in reversed(message_ends(stream)):
        if size <= longer_than:
            break
        tried += 1
        full, rest = divmod(-(-size * 8 // 5), DATA_PER_GROUP)
        hash_at = GROUP * full + (rest + 1 if rest else 0)
        written = room[hash_at : hash_at + HASH_CHARS]
        if len(written) < HASH_CHARS or int(written, 32) != _hash_bits(stream[:size]):
            continue
        tried += hash_at // GROUP  # checking every group costs about a try each
        try:
            return _parse(_digits(room[: hash_at + GROUP])), tried
        except TextCodeError:
            continue
    return None, tried


def _trimmed(text: str) -> list[int]:
    """The longest run of code words, less the words at either end that are not groups
    of five (chat words such as "code" or "ok" around a code)."""
    words = max(_runs(text), key=lambda run: sum(map(len, run)), default=[])
    return _digits("".join(_trim(words, leading=True)))


def _trim(words: list[str], *, leading: bool) -> list[str]:
    """``words`` less up to three words that are not groups of five at its end (and at
    its start if ``leading``)."""
    for _ in range(3):
        if leading and words and len(words[0]) != GROUP:
            words = words[1:]
        if words and len(words[-1]) != GROUP:
            words = words[:-1]
    return words


_NEAR_START = re.compile(
    "(?=" + "|".join(_START[:i] + "." + _START[i + 1 :] for i in range(GROUP)) + ")"
)
"""A code's first group with one typo in it."""


def _from_start(text: str) -> list[int] | None:
    """The digits from the start of the Royal Nine code most likely meant to its run's
    end, less chat words after it; None if no run holds a code's first group (or one
    with a typo: found only when no run holds it exact)."""
    runs = [(words, "".join(words)) for words in _runs(text)]
    starts = [(len(run) - run.find(_START), words, run) for words, run in runs if _START in run]
    if not starts:
        found = ((words, run, _NEAR_START.search(run)) for words, run in runs)
        starts = [(len(run) - m.start(), words, run) for words, run, m in found if m is not None]
    if not starts:
        return None
    # the first start of the run with the most after it: the code, not a quote inside it
    size, words, run = max(starts, key=lambda start: start[0])
    at = len(run) - size
    ends = list(itertools.accumulate(map(len, words)))
    first = next(i for i, end in enumerate(ends) if end > at)
    return _digits("".join([run[at : ends[first]], *_trim(words[first + 1 :], leading=False)]))


def from_text(text: str, *, chat: bool = True) -> bytes:
    """Read a text code back into the code's bytes.

    Args:
        text: the text as pasted or typed: case, spaces, line breaks and dashes do not
            matter, and O/I/L read as 0/1/1.
        chat: look for a code inside chat text too (False: the text must be a code
            alone, as a transcript's line is).

    Returns:
        The payload bytes exactly as given to :func:`to_text`.

    Raises:
        TextCodeError: not a text code, or a typo; the message says which group.

    Text pasted from a messenger reads too: odd spaces, full-width characters and
    ``> `` quotes are made plain (:func:`normalise`), and a Royal Nine code with chat
    text around it is found (:func:`_search`). Text made only of code characters is
    read as it is first, so every typo refused before still is; when a code is not
    found, the error is about the code most likely meant (from its first group on),
    so it names the group with the typo.
    """
    if len(text) > MAX_TEXT:
        raise TextCodeError(f"text is {len(text)} characters; a text code has at most {MAX_TEXT}")
    plain = normalise(text)
    try:
        values = _clean(plain)
    except TextCodeError as exc:  # other characters: chat text around the code?
        if not chat:
            raise
        foreign: TextCodeError | None = exc
    else:
        foreign = None
        try:
            return _parse(values)
        except TextCodeError as exc:
            if not chat:
                raise
            whole = exc
    found = _search(plain)
    if found is not None:
        return found
    meant = _from_start(plain)
    if meant is not None:  # a Royal Nine code's start: say what is wrong after it
        return _parse(meant)
    trimmed = _trimmed(plain)
    if foreign is None:  # only code characters: at most chat words of them cut off
        if trimmed and trimmed != values:
            with contextlib.suppress(TextCodeError):
                return _parse(trimmed)
        raise whole from None
    if len(trimmed) >= 2 * GROUP:  # most likely the code: say what is wrong with it
        return _parse(trimmed)
    raise foreign from None


_WEIGHTED = [bytes(row) + bytes(256 - 32) for row in _TIMES]
"""Per place in a group, each digit times its weight (a table for ``bytes.translate``)."""
_AS_ASCII = ALPHABET.translate(_AS_BASE32).encode().ljust(256, b"0")
"""Digits as the ASCII of Python's base-32 digits (a table for ``bytes.translate``)."""


def _first_bad_group(digits: bytes, groups: int) -> int | None:
    """The index of the first of the ``groups`` groups of five at the start of ``digits``
    whose check fails; None if they all hold. Each place's weighted digits are found for
    every group at once (``bytes.translate``), so a long code costs little time."""
    end = groups * GROUP
    total = 0
    for place in range(GROUP):
        total ^= int.from_bytes(digits[place:end:GROUP].translate(_WEIGHTED[place]), "big")
    if total == 0:
        return None
    return groups - 1 - (total.bit_length() - 1) // 8  # the first group is the highest byte


def _parse(values: list[int]) -> bytes:
    """The payload of a code's digits, checked group by group and as a whole."""
    if not values:
        raise TextCodeError("no text code here: it is empty")
    if len(values) < GROUP:
        raise TextCodeError(f"a text code has at least {GROUP} characters, not {len(values)}")
    # Every group has five characters except perhaps the last data group (2-4), so the
    # groups are found from the count alone, whatever spacing the text arrived with.
    digits = bytes(values)
    full, rest = divmod(len(digits) - GROUP, GROUP)
    if rest == 1:
        raise TextCodeError("the text code has a character too many or too few")
    count = full + (rest > 0) + 1
    short = [GROUP * full] if rest else []  # where the short last data group is
    starts = [*range(0, GROUP * full, GROUP), *short, len(digits) - GROUP]
    bad = _first_bad_group(digits, full)
    if bad is None and rest and not _group_ok(values[GROUP * full : GROUP * full + rest]):
        bad = full
    if bad is None and not _group_ok(values[-GROUP:]):
        bad = count - 1
    if bad is not None:
        group = digits[starts[bad] : starts[bad] + (GROUP if bad != full or not rest else rest)]
        shown = "".join(ALPHABET[v] for v in group)
        raise TextCodeError(
            f"typo in group {bad + 1} of {count} ({shown}): check it against the sender's"
        )
    ascii_digits = digits[: len(digits) - GROUP].translate(_AS_ASCII)
    data_chars = b"".join(ascii_digits[i : i + DATA_PER_GROUP] for i in starts[:-1])
    if rest:  # the short group's check is its last character
        data_chars = data_chars[:-1]
    size, spare = divmod(len(data_chars) * 5, 8)
    if -(-size * 8 // 5) != len(data_chars):
        raise TextCodeError("the text code has a character too many or too few")
    bits = int(data_chars, 32) if data_chars else 0
    if bits & ((1 << spare) - 1):
        raise TextCodeError("the text code has a character too many or too few")
    data = (bits >> spare).to_bytes(size, "big")
    if values[-GROUP:-1] != _hash_values(data):
        raise TextCodeError(
            "the text code does not hold together (a group is missing, repeated or swapped)"
        )
    return data


def text_lines(text: str, width: int) -> list[str]:
    """A text code folded into lines of whole groups at most ``width`` characters wide."""
    groups = text.split()
    per_line = max(1, (width + 1) // (GROUP + 1))
    return [" ".join(groups[i : i + per_line]) for i in range(0, len(groups), per_line)]
