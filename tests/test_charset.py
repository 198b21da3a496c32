"""Tests for petitcom_shim.charset: the PTC character table, to_ptc and from_ptc.

Spec: docs/font.md and /work/shared/spec/petitcom.md §8.4 (0x20-0x7E ASCII,
0x0D newline, 0xA1-0xDF half-width katakana in JIS X 0201 order, suits at
0xF0-0xF3).  The kana expectations below are written out by hand, not derived
the way the module derives them, so the two can catch each other's mistakes.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from petitcom_shim.charset import (
    NEWLINE,
    PTC_TO_UNICODE,
    UnmappableCharacter,
    from_ptc,
    is_mappable,
    to_ptc,
)

HALF_WIDTH_KANA = "｡｢｣､･ｦｧｨｩｪｫｬｭｮｯｰｱｲｳｴｵｶｷｸｹｺｻｼｽｾｿﾀﾁﾂﾃﾄﾅﾆﾇﾈﾉﾊﾋﾌﾍﾎﾏﾐﾑﾒﾓﾔﾕﾖﾗﾘﾙﾚﾛﾜﾝﾞﾟ"

# Every full-width katakana JIS X 0201 can spell, with its half-width spelling.
KATAKANA_TO_HALF = {
    "ァ": "ｧ", "ア": "ｱ", "ィ": "ｨ", "イ": "ｲ", "ゥ": "ｩ", "ウ": "ｳ", "ェ": "ｪ", "エ": "ｴ",
    "ォ": "ｫ", "オ": "ｵ", "カ": "ｶ", "ガ": "ｶﾞ", "キ": "ｷ", "ギ": "ｷﾞ", "ク": "ｸ", "グ": "ｸﾞ",
    "ケ": "ｹ", "ゲ": "ｹﾞ", "コ": "ｺ", "ゴ": "ｺﾞ", "サ": "ｻ", "ザ": "ｻﾞ", "シ": "ｼ", "ジ": "ｼﾞ",
    "ス": "ｽ", "ズ": "ｽﾞ", "セ": "ｾ", "ゼ": "ｾﾞ", "ソ": "ｿ", "ゾ": "ｿﾞ", "タ": "ﾀ", "ダ": "ﾀﾞ",
    "チ": "ﾁ", "ヂ": "ﾁﾞ", "ッ": "ｯ", "ツ": "ﾂ", "ヅ": "ﾂﾞ", "テ": "ﾃ", "デ": "ﾃﾞ", "ト": "ﾄ",
    "ド": "ﾄﾞ", "ナ": "ﾅ", "ニ": "ﾆ", "ヌ": "ﾇ", "ネ": "ﾈ", "ノ": "ﾉ", "ハ": "ﾊ", "バ": "ﾊﾞ",
    "パ": "ﾊﾟ", "ヒ": "ﾋ", "ビ": "ﾋﾞ", "ピ": "ﾋﾟ", "フ": "ﾌ", "ブ": "ﾌﾞ", "プ": "ﾌﾟ", "ヘ": "ﾍ",
    "ベ": "ﾍﾞ", "ペ": "ﾍﾟ", "ホ": "ﾎ", "ボ": "ﾎﾞ", "ポ": "ﾎﾟ", "マ": "ﾏ", "ミ": "ﾐ", "ム": "ﾑ",
    "メ": "ﾒ", "モ": "ﾓ", "ャ": "ｬ", "ヤ": "ﾔ", "ュ": "ｭ", "ユ": "ﾕ", "ョ": "ｮ", "ヨ": "ﾖ",
    "ラ": "ﾗ", "リ": "ﾘ", "ル": "ﾙ", "レ": "ﾚ", "ロ": "ﾛ", "ヮ": "ﾜ", "ワ": "ﾜ", "ヰ": "ｲ",
    "ヱ": "ｴ", "ヲ": "ｦ", "ン": "ﾝ", "ヴ": "ｳﾞ", "ヵ": "ｶ", "ヶ": "ｹ", "ヷ": "ﾜﾞ", "ヸ": "ｲﾞ",
    "ヹ": "ｴﾞ", "ヺ": "ｦﾞ", "・": "･", "ー": "ｰ",
}  # fmt: skip

# Hiragana and the katakana they are shown as, letter for letter.
HIRAGANA = (
    "ぁあぃいぅうぇえぉおかがきぎくぐけげこごさざしじすずせぜそぞただちぢっつづてでとど"
    "なにぬねのはばぱひびぴふぶぷへべぺほぼぽまみむめもゃやゅゆょよらりるれろゎわゐゑをん"
    "ゔゕゖ"
)
HIRAGANA_AS_KATAKANA = (
    "ァアィイゥウェエォオカガキギクグケゲコゴサザシジスズセゼソゾタダチヂッツヅテデトド"
    "ナニヌネノハバパヒビピフブプヘベペホボポマミムメモャヤュユョヨラリルレロヮワヰヱヲン"
    "ヴヵヶ"
)

OTHER_KANA_MARKS = {"\u3099": "ﾞ", "\u309a": "ﾟ", "゛": "ﾞ", "゜": "ﾟ"}

# Assigned characters of U+3040-U+30FF that deliberately have no PTC spelling:
# iteration marks (their reading depends on context), the digraphs ゟ/ヿ and the
# double hyphen ゠.
UNMAPPABLE_KANA = set("ゝゞゟ゠ヽヾヿ")

CJK_PUNCTUATION = {"。": "｡", "「": "｢", "」": "｣", "、": "､"}

# Codes whose character is not unique to a single spelling: (code, its character).
SUITS = {0xF0: "♠", 0xF1: "♥", 0xF2: "♦", 0xF3: "♣"}


def half_to_ptc(half: str) -> bytes:
    """Encode half-width katakana by JIS X 0201 position: U+FF61 is 0xA1."""
    return bytes(0xA1 + ord(char) - 0xFF61 for char in half)


def test_table_has_one_distinct_character_per_code() -> None:
    assert len(PTC_TO_UNICODE) == 256
    assert all(len(char) == 1 for char in PTC_TO_UNICODE)
    assert len(set(PTC_TO_UNICODE)) == 256


def test_table_fixed_ranges() -> None:
    """Spec §8.4: ASCII, newline, kana and suit positions are fixed by PTC itself."""
    for code in range(0x20, 0x7F):
        assert PTC_TO_UNICODE[code] == chr(code)
    assert PTC_TO_UNICODE[NEWLINE] == "\n"
    assert "".join(PTC_TO_UNICODE[0xA1:0xE0]) == HALF_WIDTH_KANA
    for code, suit in SUITS.items():
        assert PTC_TO_UNICODE[code] == suit
        assert to_ptc(suit) == bytes([code])


def test_documented_symbols() -> None:
    """PTC's own symbol codes ([PTT] common.py CHARS), a sample, so it cannot drift."""
    expected = {
        0x01: "🅐", 0x02: "🅑", 0x0A: "★", 0x10: "♪", 0x11: "♫", 0x18: "🅧", 0x19: "🅨",
        0x1C: "→", 0x1D: "←", 0x1E: "↑", 0x1F: "↓", 0x80: "◇", 0x81: "▘", 0x8F: "█",
        0x93: "╋", 0x95: "━", 0x96: "┃", 0x97: "■", 0x98: "┏", 0x99: "┓", 0x9A: "┗",
        0x9B: "┛", 0xA0: "〜", 0xE0: "◼", 0xE1: "●", 0xE5: "○", 0xF4: "🯅", 0xFF: "▒",
    }  # fmt: skip
    for code, char in expected.items():
        assert PTC_TO_UNICODE[code] == char
        assert to_ptc(char) == bytes([code])


def test_light_box_drawing_writes_ptc_box_pieces() -> None:
    """PTC has only the heavy box set; light pieces are spelled with it."""
    assert to_ptc("┌─┬┐│├┼┤└┴┘╭╮╰╯") == to_ptc("┏━┳┓┃┣╋┫┗┻┛┏┓┗┛")


def test_ascii_and_newlines() -> None:
    assert to_ptc("Royal Nine 9!") == b"Royal Nine 9!"
    assert to_ptc("a\nb") == b"a\rb"
    assert to_ptc("a\r\nb") == b"a\rb"
    assert to_ptc("a\rb") == b"a\rb"
    assert to_ptc("\r\n\r\n") == b"\r\r"
    assert from_ptc(b"a\rb") == "a\nb"
    assert to_ptc("") == b""
    assert from_ptc(b"") == ""


def test_half_width_katakana_codes() -> None:
    assert to_ptc(HALF_WIDTH_KANA) == bytes(range(0xA1, 0xE0))
    assert from_ptc(bytes(range(0xA1, 0xE0))) == HALF_WIDTH_KANA


def test_brief_examples() -> None:
    assert to_ptc("ガ") == to_ptc("ｶﾞ") == bytes([0xB6, 0xDE])
    assert to_ptc("パ") == to_ptc("ﾊﾟ") == bytes([0xCA, 0xDF])
    assert to_ptc("が") == to_ptc("ガ")
    assert to_ptc("ー。「・") == to_ptc("ｰ｡｢･")
    assert to_ptc("ァィゥェォャュョッ") == to_ptc("ｧｨｩｪｫｬｭｮｯ")
    assert from_ptc(to_ptc("ロイヤルナイン")) == "ﾛｲﾔﾙﾅｲﾝ"
    assert from_ptc(to_ptc("ストレート フラッシュ")) == "ｽﾄﾚｰﾄ ﾌﾗｯｼｭ"


def test_kana_blocks_exhaustively() -> None:
    """Every assigned character of U+3040-U+30FF maps as tabled above, or is refused."""
    hiragana_to_half = {
        hira: KATAKANA_TO_HALF[kata]
        for hira, kata in zip(HIRAGANA, HIRAGANA_AS_KATAKANA, strict=True)
    }
    expected = {**KATAKANA_TO_HALF, **hiragana_to_half, **OTHER_KANA_MARKS}
    checked = 0
    for code in range(0x3040, 0x3100):
        char = chr(code)
        if unicodedata.category(char) == "Cn":
            continue  # unassigned code point
        if char in expected:
            assert to_ptc(char) == half_to_ptc(expected[char]), f"U+{code:04X} {char}"
            assert is_mappable(char)
        else:
            assert char in UNMAPPABLE_KANA, f"U+{code:04X} {char} is neither tabled nor refused"
            assert not is_mappable(char)
            with pytest.raises(UnmappableCharacter):
                to_ptc(char)
        checked += 1
    assert checked == 0x30FF - 0x3040 + 1 - 3  # U+3040, U+3097 and U+3098 are unassigned


def test_combining_marks_compose_like_precomposed_kana() -> None:
    assert to_ptc("カ\u3099") == to_ptc("ガ")
    assert to_ptc("ハ\u309a") == to_ptc("パ")
    assert to_ptc(unicodedata.normalize("NFD", "ガギグゲゴ")) == to_ptc("ガギグゲゴ")


def test_cjk_punctuation_and_spaces() -> None:
    for full, half in CJK_PUNCTUATION.items():
        assert to_ptc(full) == half_to_ptc(half)
    assert to_ptc("\u3000") == b" "
    assert to_ptc("〜") == b"\xa0"  # PTC has a wave dash of its own
    assert to_ptc("\u00a0") == b" "
    assert to_ptc("￥") == to_ptc("¥")


def test_full_width_ascii() -> None:
    for code in range(0xFF01, 0xFF5F):
        assert to_ptc(chr(code)) == bytes([code - 0xFEE0])
    assert to_ptc("ＲＯＹＡＬ　９") == b"ROYAL 9"


def test_unmappable_strict_names_character_and_position() -> None:
    with pytest.raises(UnmappableCharacter) as caught:
        to_ptc("ガ\r\nOK漢字")
    error = caught.value
    assert isinstance(error, ValueError)
    assert error.char == "漢"
    assert error.position == 5  # a position in the text as given, before any folding
    message = str(error)
    assert "\n" not in message
    assert "'漢'" in message and "U+6F22" in message and "position 5" in message


def test_unmappable_latin1_is_not_passed_through() -> None:
    """Tab and other Latin-1 characters without a PTC code must not leak in as raw bytes."""
    for char in "\t\x01\x7f\x80é·":
        with pytest.raises(UnmappableCharacter):
            to_ptc(f"a{char}")


def test_errors_replace() -> None:
    assert to_ptc("a\tb漢ガ", errors="replace") == b"a?b?" + to_ptc("ガ")
    assert to_ptc("ok", errors="replace") == b"ok"


def test_errors_unknown_mode() -> None:
    with pytest.raises(ValueError, match="errors"):
        to_ptc("x", errors="ignore")  # type: ignore[arg-type]


def test_from_ptc_accepts_bytearray_and_memoryview() -> None:
    assert from_ptc(bytearray(b"A\xb1")) == "Aｱ"
    assert from_ptc(memoryview(b"\xf1")) == "♥"


@given(st.binary())
def test_bytes_round_trip(data: bytes) -> None:
    assert to_ptc(from_ptc(data)) == data


@given(st.text(alphabet=st.sampled_from(PTC_TO_UNICODE)))
def test_canonical_text_round_trip(text: str) -> None:
    assert from_ptc(to_ptc(text)) == text


# Lossless input forms: canonical characters, full-width ASCII, and kana whose
# half-width spelling keeps all information (not ヰヱ and the small ヵヶヮ).
_LOSSY = set("ヰヱヵヶヮゐゑゕゖゎヸヹ")
_TYPED_ALPHABET = sorted(
    {c for c in PTC_TO_UNICODE if c not in "\x00\n"}
    | {chr(code) for code in range(0xFF01, 0xFF5F)}
    | (set(KATAKANA_TO_HALF) - _LOSSY)
    | (set(HIRAGANA) - _LOSSY)
    | set(CJK_PUNCTUATION)
)


def _katakana(text: str) -> str:
    return "".join(
        HIRAGANA_AS_KATAKANA[HIRAGANA.index(char)] if char in HIRAGANA else char for char in text
    )


@given(st.text(alphabet=st.sampled_from(_TYPED_ALPHABET)))
def test_typed_text_decodes_to_its_normal_form(text: str) -> None:
    """from_ptc(to_ptc(s)) is s with hiragana as katakana, everything in NFKC terms."""
    decoded = from_ptc(to_ptc(text))
    assert unicodedata.normalize("NFKC", decoded) == unicodedata.normalize("NFKC", _katakana(text))
    assert to_ptc(decoded) == to_ptc(text)  # decoding gives the canonical spelling


@given(st.text())
def test_any_text_encodes_or_names_the_first_bad_character(text: str) -> None:
    try:
        data = to_ptc(text)
    except UnmappableCharacter as error:
        assert text[error.position] == error.char
        assert not is_mappable(error.char)
        assert all(is_mappable(c) for c in text[: error.position])
        replaced = to_ptc(text, errors="replace")
        assert b"?" in replaced
    else:
        assert to_ptc(from_ptc(data)) == data


def test_docs_table_matches_code() -> None:
    """docs/font.md shows the whole code table; it must say what the code does."""
    doc = (Path(__file__).resolve().parent.parent / "docs" / "font.md").read_text("utf-8")
    names = {"NUL": "\x00", "NL": "\n", "SP": " "}
    rows = [line for line in doc.splitlines() if line.startswith("| **")]
    assert len(rows) == 16
    for high, line in enumerate(rows):
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        assert cells[0] == f"**{high:X}_**"
        shown = [names.get(cell, cell.removeprefix("\\")) for cell in cells[1:]]
        assert shown == list(PTC_TO_UNICODE[high * 16 : high * 16 + 16]), f"row {high:X}_"
