"""Build the console font PNG (and a human-readable sheet) from assets/font/font8x8.txt.

The text source is the font's only editable form; the PNG in the package is
generated from it and committed so an installed package works without this
tool.  tests/test_font.py checks that the committed PNG matches a fresh build.

Usage:
    python tools/build_font.py            # write petitcom_shim/data/font8x8.png
    python tools/build_font.py --sheet    # ... and docs/font-sheet.png
    python tools/build_font.py --check    # exit 1 if the committed PNG is stale
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np
from numpy.typing import NDArray
from PIL import Image

REPO: Final = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as a script from a checkout: import the package beside us
    sys.path.insert(0, str(REPO))

from petitcom_shim.charset import PTC_TO_UNICODE  # noqa: E402
from petitcom_shim.font import (  # noqa: E402
    GLYPH_COUNT,
    GLYPH_SIZE,
    SHEET_COLUMNS,
    decode_font_png,
    sheet_from_glyphs,
)

SOURCE: Final = REPO / "assets" / "font" / "font8x8.txt"
FONT_PNG: Final = REPO / "petitcom_shim" / "data" / "font8x8.png"
SHEET_PNG: Final = REPO / "docs" / "font-sheet.png"

INK: Final = "X"
EMPTY: Final = "."
_HEADER: Final = re.compile(r"char 0x(?P<code>[0-9A-Fa-f]{2})(?: '(?P<label>.)')?")


class FontSourceError(ValueError):
    """The font text source is malformed; the message names the file and line."""

    def __init__(self, source: str, line: int, problem: str) -> None:
        self.source = source
        self.line = line
        super().__init__(f"{source}:{line}: {problem}")


@dataclass
class _Glyph:
    code: int
    line: int
    rows: list[str]


def parse_font_source(text: str, source: str = "font8x8.txt") -> NDArray[np.uint8]:
    """Parse the font text format into glyphs, strictly.

    Every code 0x00-0xFF must appear exactly once, each with exactly 8 rows of
    exactly 8 cells ('X' ink, '.' empty).  A label, when given, must be the
    character the PTC charset assigns to that code, so a glyph cannot silently
    land in the wrong slot.

    Args:
        text: The whole source file.
        source: Name used in error messages.

    Returns:
        Array of shape (256, 8, 8), dtype uint8, 1 = ink.

    Raises:
        FontSourceError: On the first problem, with its line number.
    """
    glyphs: dict[int, _Glyph] = {}
    current: _Glyph | None = None

    def finish(glyph: _Glyph | None, line: int) -> None:
        if glyph is not None and len(glyph.rows) != GLYPH_SIZE:
            raise FontSourceError(
                source,
                line,
                f"glyph 0x{glyph.code:02X} (from line {glyph.line}) has {len(glyph.rows)} rows,"
                f" expected {GLYPH_SIZE}",
            )

    lines = text.splitlines()
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("char"):
            finish(current, number)
            match = _HEADER.fullmatch(line)
            if match is None:
                raise FontSourceError(
                    source, number, f"bad glyph header {line!r}; expected: char 0xHH 'c'"
                )
            code = int(match["code"], 16)
            if code in glyphs:
                raise FontSourceError(
                    source,
                    number,
                    f"duplicate code 0x{code:02X} (first at line {glyphs[code].line})",
                )
            label = match["label"]
            if label is not None and label != PTC_TO_UNICODE[code]:
                raise FontSourceError(
                    source,
                    number,
                    f"label {label!r} does not match code 0x{code:02X},"
                    f" which the charset assigns to {PTC_TO_UNICODE[code]!r}",
                )
            current = glyphs[code] = _Glyph(code, number, [])
            continue
        if current is None:
            raise FontSourceError(source, number, "glyph row before the first 'char' header")
        if len(line) != GLYPH_SIZE or set(line) - {INK, EMPTY}:
            raise FontSourceError(
                source,
                number,
                f"glyph 0x{current.code:02X}: row {line!r} must be {GLYPH_SIZE} cells of"
                f" '{INK}' or '{EMPTY}'",
            )
        if len(current.rows) == GLYPH_SIZE:
            raise FontSourceError(
                source, number, f"glyph 0x{current.code:02X} has more than {GLYPH_SIZE} rows"
            )
        current.rows.append(line)
    finish(current, len(lines))
    missing = [f"0x{code:02X}" for code in range(GLYPH_COUNT) if code not in glyphs]
    if missing:
        raise FontSourceError(
            source, len(lines), f"{len(missing)} codes have no glyph: {', '.join(missing[:8])}"
        )
    out = np.zeros((GLYPH_COUNT, GLYPH_SIZE, GLYPH_SIZE), dtype=np.uint8)
    for code, glyph in glyphs.items():
        out[code] = [[cell == INK for cell in row] for row in glyph.rows]
    return out


def load_source(path: Path = SOURCE) -> NDArray[np.uint8]:
    """Read and parse a font text source file."""
    return parse_font_source(path.read_text(encoding="utf-8"), path.name)


def font_png_bytes(glyphs: NDArray[np.uint8]) -> bytes:
    """Encode glyphs as the packaged 1-bit 128x128 PNG (white = ink)."""
    import io

    image = Image.fromarray(sheet_from_glyphs(glyphs) * np.uint8(255), mode="L").convert("1")
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


# Colours of the overview sheet.
_SHEET_BACKGROUND: Final = (28, 30, 48)
_SHEET_CELL: Final = (0, 0, 0)
_SHEET_INK: Final = (255, 255, 255)
_SHEET_LABEL: Final = (255, 216, 96)
_SHEET_UNASSIGNED: Final = (60, 24, 24)
_SHEET_SCALE: Final = 4
_SHEET_PITCH: Final = GLYPH_SIZE * _SHEET_SCALE + 8
_LABEL_SCALE: Final = 2


def _draw_text(
    canvas: NDArray[np.uint8],
    glyphs: NDArray[np.uint8],
    text: str,
    x: int,
    y: int,
    colour: tuple[int, int, int],
) -> None:
    """Draw ASCII text onto an RGB canvas with the font itself, at label scale."""
    size = GLYPH_SIZE * _LABEL_SCALE
    for index, char in enumerate(text):
        glyph = np.kron(glyphs[ord(char)], np.ones((_LABEL_SCALE, _LABEL_SCALE), dtype=np.uint8))
        left = x + index * size
        canvas[y : y + size, left : left + size][glyph == 1] = colour


def render_sheet(glyphs: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """Render the labelled overview: every glyph at 4x on a 16x16 grid.

    Rows are the high hex digit of the code and columns the low digit; labels
    are drawn with the font itself.  Cells of codes that are blank by design
    (0x00, 0x0D newline, 0x20 space) are tinted so they read as intentional.

    Returns:
        An RGB array (height, width, 3).
    """
    label = GLYPH_SIZE * _LABEL_SCALE
    left = 3 * label
    top = 2 * label + 3 * label
    width = left + SHEET_COLUMNS * _SHEET_PITCH + label
    height = top + SHEET_COLUMNS * _SHEET_PITCH + label
    canvas = np.empty((height, width, 3), dtype=np.uint8)
    canvas[:] = _SHEET_BACKGROUND
    _draw_text(canvas, glyphs, "Royal Nine 8x8 font: PTC codes", left, label // 2, _SHEET_INK)
    _draw_text(canvas, glyphs, "row = high digit, column = low", left, 2 * label, _SHEET_LABEL)
    blank_by_design = {0x00, 0x0D, 0x20}
    for index in range(SHEET_COLUMNS):
        digit = f"{index:X}"
        x = left + index * _SHEET_PITCH + (_SHEET_PITCH - label) // 2
        _draw_text(canvas, glyphs, f"_{digit}", x - label // 2, top - label - 4, _SHEET_LABEL)
        y = top + index * _SHEET_PITCH + (_SHEET_PITCH - label) // 2
        _draw_text(canvas, glyphs, f"{digit}_", label // 2, y, _SHEET_LABEL)
    big = np.ones((_SHEET_SCALE, _SHEET_SCALE), dtype=np.uint8)
    glyph_pixels = GLYPH_SIZE * _SHEET_SCALE
    for code in range(GLYPH_COUNT):
        row, column = divmod(code, SHEET_COLUMNS)
        x = left + column * _SHEET_PITCH + 4
        y = top + row * _SHEET_PITCH + 4
        cell = canvas[y : y + glyph_pixels, x : x + glyph_pixels]
        cell[:] = _SHEET_UNASSIGNED if code in blank_by_design else _SHEET_CELL
        cell[np.kron(glyphs[code], big) == 1] = _SHEET_INK
    return canvas


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the process exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--source", type=Path, default=SOURCE, help="font text source")
    parser.add_argument("--output", type=Path, default=FONT_PNG, help="font PNG to write")
    parser.add_argument("--sheet", action="store_true", help="also write docs/font-sheet.png")
    parser.add_argument(
        "--check", action="store_true", help="only check that --output matches the source"
    )
    args = parser.parse_args(argv)
    try:
        glyphs = load_source(args.source)
    except FontSourceError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.check:
        if not args.output.exists():
            print(f"{args.output} is missing; run tools/build_font.py", file=sys.stderr)
            return 1
        if not np.array_equal(decode_font_png(args.output.read_bytes()), glyphs):
            print(f"{args.output} is stale; run tools/build_font.py", file=sys.stderr)
            return 1
        print(f"{args.output} matches {args.source}")
        return 0
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_bytes(font_png_bytes(glyphs))
    print(f"wrote {args.output}")
    if args.sheet:
        Image.fromarray(render_sheet(glyphs), mode="RGB").save(SHEET_PNG, optimize=True)
        print(f"wrote {SHEET_PNG}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
