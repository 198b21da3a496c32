"""Tests for the console font: the packaged PNG, its loader and its build tool.

The committed petitcom_shim/data/font8x8.png must equal a fresh build of
assets/font/font8x8.txt, every character the charset can produce must have a
glyph, and easily confused characters must look different.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from numpy.typing import NDArray
from PIL import Image

from petitcom_shim.charset import PTC_TO_UNICODE, to_ptc
from petitcom_shim.font import (
    glyphs_from_sheet,
    load_font,
    render_codes,
    sheet_from_glyphs,
)

REPO = Path(__file__).resolve().parent.parent
BLANK_BY_DESIGN = {0x00, 0x0D, 0x20}


@pytest.fixture(scope="module")
def build_font(load_tool: Callable[[str], ModuleType]) -> ModuleType:
    """tools/build_font.py, imported as a module."""
    return load_tool("build_font")


@pytest.fixture(scope="module")
def font() -> NDArray[np.uint8]:
    return load_font()


def glyph(font: NDArray[np.uint8], char: str) -> NDArray[np.uint8]:
    (code,) = to_ptc(char)
    cell: NDArray[np.uint8] = font[code]
    return cell


def test_load_font_contract(font: NDArray[np.uint8]) -> None:
    assert font.shape == (256, 8, 8)
    assert font.dtype == np.uint8
    assert set(np.unique(font)) <= {0, 1}
    assert load_font() is font  # cached
    with pytest.raises(ValueError):
        font[0x41, 0, 0] = 1  # shared, so read-only


def test_committed_png_matches_source(build_font: ModuleType, font: NDArray[np.uint8]) -> None:
    """Nobody may edit the PNG without the text source or the other way round."""
    assert np.array_equal(build_font.load_source(), font), (
        "petitcom_shim/data/font8x8.png is stale: run python tools/build_font.py --sheet"
    )


def test_png_format() -> None:
    with Image.open(REPO / "petitcom_shim" / "data" / "font8x8.png") as image:
        assert image.size == (128, 128)
        assert image.mode in ("1", "P", "L")


def test_png_layout_is_code_order(font: NDArray[np.uint8]) -> None:
    """Glyph for code c sits at grid column c % 16, row c // 16 of the image."""
    with Image.open(REPO / "petitcom_shim" / "data" / "font8x8.png") as image:
        pixels = np.asarray(image.convert("L"))
    code = ord("A")
    row, column = divmod(code, 16)
    cell = pixels[row * 8 : row * 8 + 8, column * 8 : column * 8 + 8] >= 128
    assert np.array_equal(cell, font[code] == 1)


def test_sheet_layout_round_trips() -> None:
    rng = np.random.default_rng(7)
    glyphs = rng.integers(0, 2, size=(256, 8, 8), dtype=np.uint8)
    sheet = sheet_from_glyphs(glyphs)
    assert sheet.shape == (128, 128)
    assert np.array_equal(sheet[8:16, 16:24], glyphs[0x12])
    assert np.array_equal(glyphs_from_sheet(sheet), glyphs)
    with pytest.raises(ValueError):
        sheet_from_glyphs(glyphs[:255])
    with pytest.raises(ValueError):
        glyphs_from_sheet(sheet[:64])


def test_render_codes(font: NDArray[np.uint8]) -> None:
    row = render_codes(to_ptc("Aｱ"))
    assert row.shape == (8, 16)
    assert np.array_equal(row[:, :8], font[0x41])
    assert np.array_equal(row[:, 8:], font[0xB1])
    assert render_codes(b"").shape == (8, 0)


def test_every_mapped_code_has_a_glyph(font: NDArray[np.uint8]) -> None:
    for code, char in enumerate(PTC_TO_UNICODE):
        inked = int(font[code].sum())
        if code in BLANK_BY_DESIGN:
            assert inked == 0, f"0x{code:02X} should be blank"
        else:
            assert inked > 0, f"0x{code:02X} {char!r} has an empty glyph"


def test_glyphs_are_all_distinct(font: NDArray[np.uint8]) -> None:
    first_with_shape: dict[bytes, int] = {}
    clashes = []
    for code in range(256):
        if code in BLANK_BY_DESIGN:
            continue
        first = first_with_shape.setdefault(font[code].tobytes(), code)
        if first != code:
            clashes.append(f"0x{code:02X} looks exactly like 0x{first:02X}")
    assert not clashes


@pytest.mark.parametrize(
    "group",
    [
        "0Oo",
        "1lI|",
        "ｿﾝ",
        "ｼﾂ",
        "ｸﾀ",
        "ｦｺﾖ",
        "ﾛｺ",
        "-━",
        "ｰ━",
        "~〜",
        "ｴI",
        "ﾊﾍ",
        "ﾉﾒ",
        "ﾇｽ",
        "ｱﾏ",
        "ｳﾜ",
        "5S",
        "8B",
    ],
)
def test_confusable_characters_differ_clearly(font: NDArray[np.uint8], group: str) -> None:
    """Look-alikes must differ in at least 4 pixels, enough to tell apart at 1x."""
    for a, b in itertools.combinations(group, 2):
        difference = int((glyph(font, a) != glyph(font, b)).sum())
        assert difference >= 4, f"{a!r} and {b!r} differ in only {difference} pixels"


def test_text_glyphs_leave_a_gap(font: NDArray[np.uint8]) -> None:
    """Letters, digits, punctuation and kana keep column 7 (and row 7 unless they descend) empty."""
    may_descend = set("_gjpqy,")
    text_codes = [*range(0x21, 0x7F), *range(0xA1, 0xE0)]
    for code in text_codes:
        char = PTC_TO_UNICODE[code]
        assert not font[code][:, 7].any(), f"{char!r} inks column 7"
        if char not in may_descend:
            assert not font[code][7].any(), f"{char!r} inks row 7"


# Box pieces and which cell edges they reach: (left, right, up, down).
BOX_EDGES = {
    "━": (1, 1, 0, 0), "┃": (0, 0, 1, 1), "┏": (0, 1, 0, 1), "┓": (1, 0, 0, 1),
    "┗": (0, 1, 1, 0), "┛": (1, 0, 1, 0), "┣": (0, 1, 1, 1), "┫": (1, 0, 1, 1),
    "┳": (1, 1, 0, 1), "┻": (1, 1, 1, 0), "╋": (1, 1, 1, 1),
}  # fmt: skip


@pytest.mark.parametrize("char", sorted(BOX_EDGES))
def test_box_pieces_join_neighbours(font: NDArray[np.uint8], char: str) -> None:
    """Box lines meet the cell edge exactly at rows/columns 3-4, so adjacent cells join."""
    cell = glyph(font, char)
    left, right, up, down = BOX_EDGES[char]
    line = np.array([0, 0, 0, 1, 1, 0, 0, 0], dtype=np.uint8)
    empty = np.zeros(8, dtype=np.uint8)
    assert np.array_equal(cell[:, 0], line if left else empty)
    assert np.array_equal(cell[:, 7], line if right else empty)
    assert np.array_equal(cell[0], line if up else empty)
    assert np.array_equal(cell[7], line if down else empty)


def test_block_elements_fill_as_named(font: NDArray[np.uint8]) -> None:
    assert glyph(font, "█").all()
    for char, cells in (("▁", (7, slice(None))), ("▔", (0, slice(None))),
                        ("▏", (slice(None), 0)), ("▕", (slice(None), 7))):  # fmt: skip
        assert int(glyph(font, char).sum()) == 8 and glyph(font, char)[cells].all()
    assert int(glyph(font, "▒").sum()) == 32
    assert int(glyph(font, "░").sum()) < 32 < int(glyph(font, "▓").sum())


def test_quadrant_blocks_follow_their_code_bits(font: NDArray[np.uint8]) -> None:
    """PTC's 0x81-0x8F: code - 0x80 has bit 1 top-left, 2 top-right, 4 bottom-left,
    8 bottom-right ([PTT] common.py lists them in this order)."""
    for bits in range(1, 16):
        cell = font[0x80 + bits]
        for bit, (rows, cols) in enumerate(((0, 0), (0, 4), (4, 0), (4, 4))):
            quarter = cell[rows : rows + 4, cols : cols + 4]
            assert quarter.all() if bits >> bit & 1 else not quarter.any()


# --- the build tool -------------------------------------------------------------------------


def _source_with(build_font: ModuleType, code: int, rows: list[str], label: str = "") -> str:
    """The real source text with one glyph block replaced (or the header changed)."""
    text: str = build_font.SOURCE.read_text(encoding="utf-8")
    lines = text.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith(f"char 0x{code:02X}"))
    end = header + 1
    while end < len(lines) and lines[end] and not lines[end].startswith("char"):
        end += 1
    new_header = f"char 0x{code:02X}{label}"
    return "\n".join([*lines[:header], new_header, *rows, *lines[end:]])


def test_parse_rejects_short_row_with_line_number(build_font: ModuleType) -> None:
    rows = ["XXXXXXX"] + ["........"] * 7
    text = _source_with(build_font, 0x41, rows, " 'A'")
    line = text.splitlines().index("XXXXXXX") + 1
    with pytest.raises(build_font.FontSourceError, match=rf"font8x8\.txt:{line}: .*0x41"):
        build_font.parse_font_source(text)


def test_parse_rejects_bad_cell(build_font: ModuleType) -> None:
    text = _source_with(build_font, 0x41, ["XXXX#..."] + ["........"] * 7)
    with pytest.raises(build_font.FontSourceError, match=r"cells of 'X' or '\.'"):
        build_font.parse_font_source(text)


def test_parse_rejects_wrong_row_count(build_font: ModuleType) -> None:
    with pytest.raises(build_font.FontSourceError, match=r"0x41 .* has 7 rows"):
        build_font.parse_font_source(_source_with(build_font, 0x41, ["........"] * 7))
    with pytest.raises(build_font.FontSourceError, match="more than 8 rows"):
        build_font.parse_font_source(_source_with(build_font, 0x41, ["........"] * 9))


def test_parse_rejects_duplicate_code(build_font: ModuleType) -> None:
    text = build_font.SOURCE.read_text(encoding="utf-8") + "\nchar 0x41\n" + "........\n" * 8
    with pytest.raises(build_font.FontSourceError, match=r"duplicate code 0x41 \(first at line"):
        build_font.parse_font_source(text)


def test_parse_rejects_wrong_label(build_font: ModuleType) -> None:
    text = _source_with(build_font, 0x41, ["........"] * 8, " 'B'")
    with pytest.raises(build_font.FontSourceError, match="label 'B' does not match code 0x41"):
        build_font.parse_font_source(text)


def test_parse_rejects_bad_header_and_orphan_rows(build_font: ModuleType) -> None:
    with pytest.raises(build_font.FontSourceError, match=r":1: bad glyph header"):
        build_font.parse_font_source("char 41 'A'\n")
    with pytest.raises(build_font.FontSourceError, match=r":2: glyph row before"):
        build_font.parse_font_source("# comment\n........\n")


def test_parse_rejects_missing_codes(build_font: ModuleType) -> None:
    text = "char 0x00\n" + "........\n" * 8
    with pytest.raises(build_font.FontSourceError, match="255 codes have no glyph: 0x01"):
        build_font.parse_font_source(text)


def test_parse_reads_ink(build_font: ModuleType) -> None:
    rows = ["X.......", ".X......", "........", "........", "........", "........", "........"]
    glyphs = build_font.parse_font_source(
        _source_with(build_font, 0x41, [*rows, ".......X"], " 'A'")
    )
    assert glyphs[0x41].sum() == 3
    assert glyphs[0x41][0, 0] == 1 and glyphs[0x41][1, 1] == 1 and glyphs[0x41][7, 7] == 1


def test_build_main_writes_and_checks(build_font: ModuleType, tmp_path: Path) -> None:
    output = tmp_path / "font.png"
    assert build_font.main(["--output", str(output)]) == 0
    assert build_font.main(["--output", str(output), "--check"]) == 0
    with Image.open(output) as image:
        assert image.size == (128, 128) and image.mode == "1"
    stale = build_font.load_source()
    stale[0x41] ^= 1
    output.write_bytes(build_font.font_png_bytes(stale))
    assert build_font.main(["--output", str(output), "--check"]) == 1
    assert build_font.main(["--output", str(tmp_path / "missing.png"), "--check"]) == 1


def test_build_main_reports_source_errors(
    build_font: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "broken.txt"
    source.write_text("char 0x00\nXX\n", encoding="utf-8")
    assert build_font.main(["--source", str(source), "--output", str(tmp_path / "o.png")]) == 2
    assert "broken.txt:2:" in capsys.readouterr().err
    assert not (tmp_path / "o.png").exists()


def test_render_sheet(build_font: ModuleType, font: NDArray[np.uint8]) -> None:
    sheet = build_font.render_sheet(font)
    assert sheet.ndim == 3 and sheet.shape[2] == 3
    assert sheet.shape[0] > 16 * 32 and sheet.shape[1] > 16 * 32
