"""The Petit Computer character set: Unicode text to PTC byte codes and back.

Petit Computer stores program text, console cells (CHKCHR) and CHR$ values as
one byte per character: ASCII in 0x20-0x7E, newline as 0x0D, half-width
katakana in 0xA1-0xDF (JIS X 0201 order) and line graphics and symbols in
0x01-0x1F, 0x80-0x9F and 0xE0-0xFF, with the card suits at 0xF0-0xF3.  The
symbol codes follow PTC's own table ([PTT] common.py); our font draws them
(assets/font/font8x8.txt) and docs/font.md lists them.

:func:`to_ptc` also accepts the text people actually type: full-width ASCII,
full-width katakana and hiragana (shown as katakana, voiced kana split into
base + ﾞ/ﾟ as on the real machine) and CRLF line ends.  :func:`from_ptc` is the
inverse into canonical Unicode, so ``from_ptc(to_ptc(s))`` is the normalised
form of ``s`` (half-width katakana stay half-width).
"""

from __future__ import annotations

import unicodedata
from typing import Final, Literal

__all__ = [
    "NEWLINE",
    "PTC_TO_UNICODE",
    "REPLACEMENT",
    "UnmappableCharacter",
    "from_ptc",
    "is_mappable",
    "to_ptc",
]

NEWLINE: Final = 0x0D
"""The PTC code of a line break (CHR$(13))."""

REPLACEMENT: Final = 0x3F
"""The code ``to_ptc(..., errors="replace")`` puts in place of an unmappable character: '?'."""

# Symbol codes, as Petit Computer (US v2) has them: [PTT] common.py ``CHARS``
# names the symbol at each code by its nearest Unicode look-alike.  The glyphs
# are our own drawings (assets/font/font8x8.txt).  Where [PTT] has no
# character for a code (0x03-0x06, 0x0E, 0x0F, 0x13, 0x14, 0x1B, 0x7F,
# 0xE8-0xEF, 0xF5-0xF7) the symbol is our own choice; docs/font.md marks them.
_SYMBOLS_01_1F: Final = (
    "🅐🅑"  # 0x01-0x02: the A and B buttons
    "◆◀▶☆"  # 0x03-0x06: ours
    "☺☻⇥★🖛🅻"  # 0x07-0x0C
    "\n"  # 0x0D: newline, drawn blank
    "×÷"  # 0x0E-0x0F: ours
    "♪♫🆁"  # 0x10-0x12
    "±°"  # 0x13-0x14: ours
    "🭽🭶🭾🅧🅨⭗"  # 0x15-0x1A: frame top pieces, the X and Y buttons, a ring
    "¥"  # 0x1B: ours
    "→←↑↓"  # 0x1C-0x1F
)
_SYMBOLS_80_9F: Final = (
    "◇▘▝▀▖▌▞▛▗▚▐▜▄▙▟█"  # 0x80-0x8F: 0x80 + quadrant bits (1 TL, 2 TR, 4 BL, 8 BR)
    "┻┳┣╋┫━┃■┏┓┗┛◢◣◥◤"  # 0x90-0x9F
)
_SYMBOLS_E0_FF: Final = (
    "◼●▲▼□○△▽"  # 0xE0-0xE7
    "∞≠≤≥√π…░"  # 0xE8-0xEF: ours
    "♠♥♦♣🯅"  # 0xF0-0xF4
    "▓♤♡"  # 0xF5-0xF7: ours
    "▔▏▕▁╱╲╳▒"  # 0xF8-0xFF
)


def _build_table() -> tuple[str, ...]:
    table = ["\x00"] * 256
    for offset, symbol in enumerate(_SYMBOLS_01_1F):
        table[0x01 + offset] = symbol
    for code in range(0x20, 0x7F):
        table[code] = chr(code)
    table[0x7F] = "◎"  # ours
    for offset, symbol in enumerate(_SYMBOLS_80_9F):
        table[0x80 + offset] = symbol
    table[0xA0] = "〜"  # a wave dash, as on PTC
    for code in range(0xA1, 0xE0):
        table[code] = chr(0xFF61 + code - 0xA1)  # U+FF61..U+FF9F, same order as JIS X 0201
    for offset, symbol in enumerate(_SYMBOLS_E0_FF):
        table[0xE0 + offset] = symbol
    return tuple(table)


#: Characters PTC has no code for, written with the PTC symbol that looks like
#: them: light box drawing becomes PTC's (heavy) box pieces.
_LOOK_ALIKES: Final = {
    "─": "━", "│": "┃", "┌": "┏", "┐": "┓", "└": "┗", "┘": "┛", "├": "┣", "┤": "┫",
    "┬": "┳", "┴": "┻", "┼": "╋", "╭": "┏", "╮": "┓", "╰": "┗", "╯": "┛",
}  # fmt: skip


PTC_TO_UNICODE: Final[tuple[str, ...]] = _build_table()
"""The canonical Unicode character of every PTC code 0x00-0xFF (index = code).

0x00 is U+0000 and 0x0D is '\\n'; 0xA0 is the wave dash U+301C.  Every entry is
one character and all 256 are distinct, so the table is a bijection.
"""


class UnmappableCharacter(ValueError):
    """A character has no PTC code, so the text cannot be shown or saved as PTC.

    Attributes:
        char: The offending character.
        position: Its index in the text given to :func:`to_ptc`.
    """

    def __init__(self, char: str, position: int) -> None:
        self.char = char
        self.position = position
        super().__init__(
            f"character {char!r} (U+{ord(char):04X}) at position {position} "
            "has no code in the PTC character set"
        )


_VOICED_MARKS: Final = {"\u3099": "ﾞ", "\u309a": "ﾟ", "゛": "ﾞ", "゜": "ﾟ"}

# Full-width kana JIS X 0201 has no half-width form for.  Small ka/ke/wa become
# the plain letters and the archaic wi/we become i/e, as Japanese 8-bit
# machines conventionally wrote them; wo has its own half-width letter ｦ.
_KANA_FALLBACK: Final = {"ヵ": "カ", "ヶ": "ケ", "ヮ": "ワ", "ヰ": "イ", "ヱ": "エ"}

_HIRAGANA_FIRST, _HIRAGANA_LAST = 0x3041, 0x3096  # ぁ .. ゖ
_KATAKANA_FIRST, _KATAKANA_LAST = 0x30A1, 0x30FC  # ァ .. ー
_HIRAGANA_TO_KATAKANA: Final = 0x60


def _half_width_kana() -> dict[str, str]:
    """Map full-width kana and CJK punctuation to their half-width PTC spelling."""
    # NFKC of each half-width letter is its full-width partner: invert that.
    full_to_half = {unicodedata.normalize("NFKC", half): half for half in PTC_TO_UNICODE[0xA1:0xE0]}
    full_to_half.update(_VOICED_MARKS)

    def half_form(char: str) -> str | None:
        if char in full_to_half:
            return full_to_half[char]
        if char in _KANA_FALLBACK:
            return half_form(_KANA_FALLBACK[char])
        parts = unicodedata.normalize("NFD", char)
        if len(parts) == 2 and parts[1] in _VOICED_MARKS:  # ガ = カ + U+3099
            base = half_form(parts[0])
            return None if base is None else base + _VOICED_MARKS[parts[1]]
        return None

    mapping: dict[str, str] = {}
    for code in range(_KATAKANA_FIRST, _KATAKANA_LAST + 1):
        half = half_form(chr(code))
        if half is not None:
            mapping[chr(code)] = half
    for code in range(_HIRAGANA_FIRST, _HIRAGANA_LAST + 1):
        katakana = chr(code + _HIRAGANA_TO_KATAKANA)
        if katakana in mapping:
            mapping[chr(code)] = mapping[katakana]
    for char in (*_VOICED_MARKS, *full_to_half):
        if (half := half_form(char)) is not None:
            mapping[char] = half
    return mapping


def _build_encoder() -> dict[str, bytes]:
    """Every single character to_ptc accepts, with the PTC bytes it becomes."""
    encoder = {char: bytes([code]) for code, char in enumerate(PTC_TO_UNICODE)}
    encoder["\r"] = bytes([NEWLINE])  # a lone CR; CRLF is folded before lookup
    encoder["\u3000"] = b" "  # ideographic (full-width) space
    encoder["\u00a0"] = b" "  # no-break space
    for char, symbol in _LOOK_ALIKES.items():
        encoder[char] = encoder[symbol]
    encoder["￥"] = encoder["¥"]
    for code in range(0xFF01, 0xFF5F):  # full-width ASCII ！..～
        encoder[chr(code)] = bytes([code - 0xFEE0])
    for full, half in _half_width_kana().items():
        encoder.setdefault(full, b"".join(encoder[c] for c in half))
    return encoder


_ENCODER: Final[dict[str, bytes]] = _build_encoder()

# str.translate tables for the fast paths: PTC codes travel as U+0000..U+00FF.
# Unmappable Latin-1 characters go to a non-Latin-1 sentinel so that encoding
# fails on them instead of passing through as a wrong code.
_SENTINEL: Final = "\uffff"


def _build_encode_translation() -> dict[int, str]:
    table = {ord(char): data.decode("latin-1") for char, data in _ENCODER.items()}
    for code in range(256):
        table.setdefault(code, _SENTINEL)
    return table


_ENCODE_TRANSLATION: Final[dict[int, str]] = _build_encode_translation()
_DECODE_TRANSLATION: Final[dict[int, str]] = dict(enumerate(PTC_TO_UNICODE))


def is_mappable(char: str) -> bool:
    """Return whether one character has a PTC spelling (so to_ptc accepts it)."""
    return char in _ENCODER


def to_ptc(text: str, errors: Literal["strict", "replace"] = "strict") -> bytes:
    """Encode text as PTC character codes.

    ASCII printables map to themselves and '\\n' (or CRLF, or a lone CR) to 0x0D.
    Half-width katakana map to 0xA1-0xDF; full-width katakana and hiragana map
    to half-width katakana, voiced and semi-voiced kana as two codes (ガ and が
    become ｶﾞ, パ becomes ﾊﾟ).  Full-width ASCII maps to ASCII, and the symbols
    of :data:`PTC_TO_UNICODE` to their codes.

    Args:
        text: The text to encode.
        errors: "strict" raises on a character with no PTC spelling;
            "replace" writes '?' (0x3F) in its place.

    Returns:
        The PTC bytes, one per cell the text occupies.

    Raises:
        UnmappableCharacter: With errors="strict", for the first character
            that has no PTC spelling.
        ValueError: When errors is neither "strict" nor "replace".
    """
    if errors not in ("strict", "replace"):
        raise ValueError(f"errors must be 'strict' or 'replace', not {errors!r}")
    folded = text.replace("\r\n", "\n")
    try:
        return folded.translate(_ENCODE_TRANSLATION).encode("latin-1")
    except UnicodeEncodeError:
        pass  # some character is unmappable: take the slow path that can say where
    out = bytearray()
    position = 0
    while position < len(text):
        char = text[position]
        if char == "\r" and text.startswith("\r\n", position):
            out.append(NEWLINE)
            position += 2
            continue
        data = _ENCODER.get(char)
        if data is None:
            if errors == "strict":
                raise UnmappableCharacter(char, position)
            data = bytes([REPLACEMENT])
        out += data
        position += 1
    return bytes(out)


def from_ptc(data: bytes | bytearray | memoryview) -> str:
    """Decode PTC character codes into canonical Unicode text.

    Every code decodes (see :data:`PTC_TO_UNICODE`): 0x0D becomes '\\n' and
    half-width katakana stay half-width, so ``to_ptc(from_ptc(b)) == b`` for any b.

    Args:
        data: PTC bytes, e.g. a console row or a PRG file's text.

    Returns:
        One character per byte.
    """
    return bytes(data).decode("latin-1").translate(_DECODE_TRANSLATION)
