"""petitcom_shim.qr: byte-exact round trips, degraded images, screen drawing, errors, CLI."""

from __future__ import annotations

import io
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
import qrcode.util
from hypothesis import example, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw, ImageFilter

from petitcom_shim import qr, qrcli

HAS_ZBAR = "zbar" in qr.available_decoders()
needs_zbar = pytest.mark.skipif(not HAS_ZBAR, reason="libzbar (0.23+) is not installed")

# Payloads that would break a decoder which interprets bytes as text.
TRICKY = [
    b"\x00" * 40,
    b"\xff" * 40,
    "日本語テキスト".encode(),  # valid UTF-8
    "ロイヤルナイン".encode("shift_jis"),  # valid Shift-JIS
    b"\x1b$B",  # ISO-2022-JP escape
    b"\\000026" + b"\xe3\x81\x82",  # zxing's textual ECI marker, then UTF-8
    bytes([0b0111, 0x1A]) + b"\x82\xa0",  # an ECI mode nibble as data
    b"\xef\xbb\xbfBOM",  # UTF-8 byte order mark
    b"0123456789",  # digits only: must still be byte mode
    bytes(range(256)),
]


def grid_image(data: bytes, module_px: int = 4) -> Image.Image:
    return qr.encode_image(data, module_px=module_px)


# ----------------------------------------------------------------------- encoding


def test_matrix_is_square_bool_without_quiet_zone() -> None:
    matrix = qr.encode_matrix(b"A")
    assert matrix.dtype == np.bool_
    assert matrix.shape == (21, 21)
    # Finder patterns touch the edges: no quiet zone is included.
    assert matrix[0, :7].all() and matrix[:7, 0].all() and matrix[-1, :7].all()


def test_smallest_version_at_level_m() -> None:
    assert qr.capacity(10) == 213
    assert qr.capacity(20) == 666  # Petit Computer's own sets (spec §8.3)
    assert len(qr.encode_matrix(b"x" * 213)) == 57  # version 10
    assert len(qr.encode_matrix(b"x" * 214)) == 61  # version 11
    assert len(qr.encode_matrix(b"")) == 21


def test_digits_are_encoded_in_byte_mode() -> None:
    # 100 digits fit version 3-M (29 modules) in numeric mode; byte mode needs version 6.
    assert qr.capacity(5) < 100 <= qr.capacity(6)
    assert len(qr.encode_matrix(b"0123456789" * 10)) == 41


def test_forced_version() -> None:
    assert len(qr.encode_matrix(b"a", version=5)) == 37
    assert qr.decode_image(qr.encode_image(b"a", version=5)) == b"a"
    with pytest.raises(qr.QRTooLarge, match="version 1"):
        qr.encode_matrix(b"x" * 15, version=1)
    with pytest.raises(ValueError, match="1-40"):
        qr.encode_matrix(b"a", version=41)


def test_payload_over_version_40_is_refused() -> None:
    with pytest.raises(qr.QRTooLarge, match="any QR code"):
        qr.encode_matrix(b"x" * (qr.capacity(40) + 1))


def test_text_must_be_encoded_by_the_caller() -> None:
    with pytest.raises(TypeError, match="bytes"):
        qr.encode_matrix("text")  # type: ignore[arg-type]


def test_image_geometry_and_bad_raster_arguments() -> None:
    image = qr.encode_image(b"A", module_px=3, border=2)
    assert image.mode == "L"
    assert image.size == ((21 + 4) * 3,) * 2
    pixels = np.asarray(image)
    assert set(np.unique(pixels)) == {0, 255}
    assert (pixels[:6] == 255).all()  # the border is light
    with pytest.raises(ValueError, match="module_px"):
        qr.encode_image(b"A", module_px=0)
    with pytest.raises(ValueError, match="border"):
        qr.encode_image(b"A", border=-1)


def test_encode_png_writes_a_small_one_bit_png(tmp_path: Path) -> None:
    path = tmp_path / "code.png"
    qr.encode_png(b"\x00\xff" * 50, path)
    with Image.open(path) as image:
        assert image.format == "PNG"
        assert image.mode == "1"
    assert path.stat().st_size < 2000
    assert qr.decode_image(path) == b"\x00\xff" * 50


# --------------------------------------------------------------------- round trips


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=1, max_size=300))
@example(TRICKY[0])
@example(TRICKY[1])
@example(TRICKY[2])
@example(TRICKY[3])
@example(TRICKY[5])
@example(TRICKY[6])
def test_round_trip_random_bytes(data: bytes) -> None:
    assert qr.decode_image(grid_image(data, module_px=2)) == data


@pytest.mark.parametrize("data", TRICKY, ids=range(len(TRICKY)))
def test_zxing_alone_returns_raw_bytes(data: bytes) -> None:
    assert qr.decode_image(grid_image(data), decoders=["zxing"]) == data


@needs_zbar
@pytest.mark.parametrize("data", [*TRICKY, b""], ids=range(len(TRICKY) + 1))
def test_zbar_alone_returns_raw_bytes(data: bytes) -> None:
    assert qr.decode_image(grid_image(data), decoders=["zbar"]) == data


@needs_zbar
def test_empty_payload_round_trips_through_the_fallback() -> None:
    # zxing-cpp never reports a symbol with no content; zbar does (docs/qr.md).
    assert qr.decode_image(grid_image(b"")) == b""


def test_unknown_decoder_name() -> None:
    with pytest.raises(ValueError, match="unknown QR decoder"):
        qr.decode_image(grid_image(b"A"), decoders=["opencv"])


def test_sources_path_bytes_and_image(tmp_path: Path) -> None:
    data = b"\x80source\x81"
    path = tmp_path / "c.png"
    qr.encode_png(data, path)
    assert qr.decode_image(path) == data
    assert qr.decode_image(str(path)) == data
    assert qr.decode_image(path.read_bytes()) == data
    assert qr.decode_image(Image.open(path)) == data


def test_transparent_background_counts_as_paper() -> None:
    grey = np.asarray(grid_image(b"alpha"))
    rgba = np.zeros((*grey.shape, 4), dtype=np.uint8)  # light = transparent black
    rgba[..., 3] = np.where(grey == 0, 255, 0)
    assert qr.decode_image(Image.fromarray(rgba)) == b"alpha"


def test_sixteen_bit_greyscale_png() -> None:
    grey = np.asarray(grid_image(b"deep")).astype(np.uint16) * 257
    image = Image.fromarray(grey)
    assert image.mode.startswith("I;16")
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    assert qr.decode_image(buffer.getvalue()) == b"deep"


# ----------------------------------------------------------------- degraded images


PAYLOAD = bytes(range(0, 250, 3)) + "ハート♥".encode("utf-16-le")


def jpeg(image: Image.Image, quality: int) -> bytes:
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, format="JPEG", quality=quality)
    return buffer.getvalue()


def perspective_coefficients(
    src: list[tuple[float, float]], dst: list[tuple[float, float]]
) -> list[float]:
    """Coefficients for Image.transform(PERSPECTIVE) mapping output dst corners to src."""
    rows = []
    rhs = []
    for (x, y), (u, v) in zip(dst, src, strict=True):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs += [u, v]
    return [float(c) for c in np.linalg.solve(np.array(rows), np.array(rhs))]


@pytest.mark.parametrize("radius", [2.2, 3.2])
def test_gaussian_blur(radius: float) -> None:
    # Radius 3.2 (half a module) defeats both decoders on the image as is; the
    # sharpened variant decode_image tries next reads it.
    image = grid_image(PAYLOAD, module_px=6).filter(ImageFilter.GaussianBlur(radius))
    assert qr.decode_image(image) == PAYLOAD


def test_perspective_warp() -> None:
    image = grid_image(PAYLOAD, module_px=6)
    w, h = image.size
    size = (w + 120, h + 80)
    corners = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
    skewed = [(40.0, 20.0), (w + 100.0, 50.0), (w + 60.0, h + 70.0), (10.0, h + 30.0)]
    warped = image.transform(
        size,
        Image.Transform.PERSPECTIVE,
        perspective_coefficients(corners, skewed),
        Image.Resampling.BILINEAR,
        fillcolor=235,
    )
    assert qr.decode_image(warped) == PAYLOAD


def test_jpeg_quality_40() -> None:
    assert qr.decode_image(jpeg(grid_image(PAYLOAD, module_px=3), 40)) == PAYLOAD


class FakeGrp:
    """Records GPAGE/GFILL like the Machine and rasterises the fills onto 256x192 pages."""

    def __init__(self) -> None:
        self.pages = np.zeros((2, 192, 256), dtype=np.uint8)
        self.screen: int | None = None
        self.fills: list[tuple[int, int, int, int, int]] = []

    def gpage(self, screen: int, /) -> None:
        self.screen = screen

    def gfill(self, x1: int, y1: int, x2: int, y2: int, color: int, /) -> None:
        assert self.screen is not None, "gfill before gpage"
        assert 0 <= x1 <= x2 < 256 and 0 <= y1 <= y2 < 192
        self.fills.append((x1, y1, x2, y2, color))
        self.pages[self.screen, y1 : y2 + 1, x1 : x2 + 1] = color

    def rgb(self, screen: int) -> npt.NDArray[np.uint8]:
        """Dark colour as black, light as white, the rest (transparent GRP) mid blue."""
        page = self.pages[screen]
        out = np.empty((*page.shape, 3), dtype=np.uint8)
        out[...] = (40, 60, 140)
        out[page == qr.DARK_COLOR] = 0
        out[page == qr.LIGHT_COLOR] = 255
        return out


def test_ds_screen_upscaled_three_times() -> None:
    data = bytes(range(200))  # version 10 -> 2 px per module on the DS screen
    grp = FakeGrp()
    qr.draw_qr(grp, data, 1)
    frame = Image.fromarray(grp.rgb(1)).resize((768, 576), Image.Resampling.NEAREST)
    assert qr.decode_image(frame) == data


def test_busy_full_hd_screenshot() -> None:
    rng = np.random.default_rng(7)
    ramp = np.linspace(0, 255, 1920, dtype=np.float64)
    canvas = np.empty((1080, 1920, 3), dtype=np.float64)
    canvas[..., 0] = ramp
    canvas[..., 1] = ramp[::-1]
    canvas[..., 2] = np.linspace(40, 200, 1080)[:, None]
    canvas += rng.normal(0, 25, canvas.shape)
    screenshot = Image.fromarray(np.clip(canvas, 0, 255).astype(np.uint8))
    draw = ImageDraw.Draw(screenshot)
    for _ in range(60):
        x, y = (int(v) for v in rng.integers(0, [1800, 1000]))
        box = (x, y, x + int(rng.integers(20, 200)), y + int(rng.integers(10, 120)))
        colour = tuple(int(c) for c in rng.integers(0, 256, 3))
        if rng.random() < 0.5:
            draw.rectangle(box, fill=colour)
        else:
            draw.ellipse(box, outline=colour, width=3)
    draw.text((100, 100), "Petit Computer window", fill=(255, 255, 255))
    code = grid_image(PAYLOAD, module_px=3)  # about 1/10 of the screen height
    screenshot.paste(code.convert("RGB"), (1333, 611))
    assert qr.decode_image(screenshot) == PAYLOAD


def test_phone_photo_of_a_screen() -> None:
    """Rotated, unevenly lit, low contrast, noisy and JPEG-compressed all at once."""
    rng = np.random.default_rng(3)
    code = grid_image(PAYLOAD, module_px=5).rotate(17, expand=True, fillcolor=255)
    pixels = np.asarray(code, dtype=np.float64) * 0.55 + 50  # a grey-ish LCD
    light = np.linspace(0.75, 1.15, pixels.shape[1])[None, :]
    pixels = pixels * light + rng.normal(0, 8, pixels.shape)
    photo = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8))
    assert qr.decode_image(jpeg(photo.filter(ImageFilter.GaussianBlur(1)), 60)) == PAYLOAD


# --------------------------------------------------------------------- screen layout


def test_screen_layout() -> None:
    assert qr.screen_layout(b"A") == (6, 174)  # version 1: (21 + 8) * 6
    assert qr.screen_layout(b"x" * qr.capacity(10)) == (2, 130)  # (57 + 8) * 2
    assert qr.screen_layout(b"x" * qr.capacity(17)) == (2, 186)
    assert qr.MAX_VERSION_ON_SCREEN == 17
    with pytest.raises(qr.QRTooLarge, match="largest that fits is version 17"):
        qr.screen_layout(b"x" * qr.capacity(18))
    assert qr.screen_layout(b"A", 512, 384) == (13, 377)


def test_draw_qr_centred_and_decodable() -> None:
    data = b"\x00draw\xff" * 10
    grp = FakeGrp()
    left, top, size = qr.draw_qr(grp, data, 0)
    module_px, expected = qr.screen_layout(data)
    assert size == expected
    assert (left, top) == ((256 - size) // 2, (192 - size) // 2)
    assert grp.screen == 0
    assert grp.fills[0] == (left, top, left + size - 1, top + size - 1, qr.LIGHT_COLOR)
    assert qr.decode_image(Image.fromarray(grp.rgb(0))) == data
    assert not grp.pages[1].any()
    # The drawn modules are exactly the matrix, module_px pixels each.
    quiet = qr.QUIET_ZONE * module_px
    inner = grp.pages[0, top + quiet : top + size - quiet, left + quiet : left + size - quiet]
    modules = inner[::module_px, ::module_px] == qr.DARK_COLOR
    assert np.array_equal(modules, qr.encode_matrix(data))
    # Runs are merged: far fewer fills than dark modules.
    assert len(grp.fills) < modules.sum() / 2


def test_draw_qr_at_position_and_colours() -> None:
    grp = FakeGrp()
    left, top, size = qr.draw_qr(grp, b"here", 1, x=0, y=10, dark=5, light=6)
    assert (left, top) == (0, 10)
    page = grp.pages[1]
    assert set(np.unique(page[10 : 10 + size, :size])) == {5, 6}
    assert not page[:10].any() and not page[:, size:].any()


def test_draw_qr_refuses_off_page_or_oversized() -> None:
    with pytest.raises(ValueError, match="does not fit"):
        qr.draw_qr(FakeGrp(), b"A", 0, x=100)
    with pytest.raises(ValueError, match="does not fit"):
        qr.draw_qr(FakeGrp(), b"A", 0, y=-1)
    grp = FakeGrp()
    with pytest.raises(qr.QRTooLarge):
        qr.draw_qr(grp, b"x" * qr.capacity(18), 0)
    assert grp.fills == []  # nothing half-drawn


# ---------------------------------------------------------------------- error paths


def png_header_only(width: int, height: int) -> bytes:
    """A PNG whose IHDR claims width x height, with one tiny IDAT: costs nothing to write."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(b"\x00" * 64))
        + chunk(b"IEND", b"")
    )


def assert_one_line_naming(err: qr.QRError, name: str) -> None:
    message = str(err)
    assert "\n" not in message
    assert name in message


def test_text_file_is_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("not an image\n")
    with pytest.raises(qr.UnreadableImage) as info:
        qr.decode_image(path)
    assert_one_line_naming(info.value, "notes.txt")
    # words a player understands (issue 16): no library names
    assert "not a picture" in str(info.value) and "Pillow" not in str(info.value)


def test_missing_file_is_unreadable(tmp_path: Path) -> None:
    with pytest.raises(qr.UnreadableImage, match="no such file"):
        qr.decode_image(tmp_path / "absent.png")


def test_truncated_png_is_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "cut.png"
    qr.encode_png(bytes(range(200)), path, module_px=4)
    path.write_bytes(path.read_bytes()[:-120])
    with pytest.raises(qr.UnreadableImage) as info:
        qr.decode_image(path)
    assert_one_line_naming(info.value, "cut.png")


def test_blank_image_has_no_code(tmp_path: Path) -> None:
    path = tmp_path / "blank.png"
    Image.new("RGB", (640, 480), (250, 250, 250)).save(path)
    with pytest.raises(qr.NoCodeFound) as info:
        qr.decode_image(path)
    assert_one_line_naming(info.value, "blank.png")


def test_two_different_codes_side_by_side() -> None:
    left, right = grid_image(b"left"), grid_image(b"right")
    both = Image.new("L", (left.width + right.width + 40, max(left.height, right.height)), 255)
    both.paste(left, (0, 0))
    both.paste(right, (left.width + 40, 0))
    with pytest.raises(qr.SeveralCodes, match="2 different"):
        qr.decode_image(both)


def test_two_copies_of_one_code_are_fine() -> None:
    code = grid_image(b"same")
    both = Image.new("L", (code.width * 2 + 40, code.height), 255)
    both.paste(code, (0, 0))
    both.paste(code, (code.width + 40, 0))
    assert qr.decode_image(both) == b"same"


@pytest.mark.parametrize(
    ("width", "height"),
    [(8000, 5001), (20000, 10000)],  # over our 40 MP; the second also over Pillow's bomb limit
)
def test_huge_header_refused_before_decoding(tmp_path: Path, width: int, height: int) -> None:
    path = tmp_path / "huge.png"
    path.write_bytes(png_header_only(width, height))
    assert path.stat().st_size < 200
    with pytest.raises(qr.ImageTooLarge) as info:
        qr.decode_image(path)
    assert_one_line_naming(info.value, "huge.png")


def test_errors_are_value_errors() -> None:
    for error in (qr.NoCodeFound, qr.SeveralCodes, qr.UnreadableImage, qr.ImageTooLarge):
        assert issubclass(error, qr.QRError)
    assert issubclass(qr.QRTooLarge, qr.QRError)
    assert issubclass(qr.QRError, ValueError)


# ------------------------------------------------------------------------------ CLI


def test_cli_encode_then_decode(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cli.png"
    assert qrcli.main(["encode", "--hex", "00FF82a0 e381", "-o", str(out), "--module-px", "3"]) == 0
    with Image.open(out) as image:
        assert image.size == ((21 + 8) * 3,) * 2
    assert qrcli.main(["decode", str(out), str(out)]) == 0
    assert capsys.readouterr().out == "00ff82a0e381\n00ff82a0e381\n"


def test_cli_decode_reports_failures_and_continues(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.png"
    qr.encode_png(b"\x01\x02", good)
    text = tmp_path / "bad.txt"
    text.write_text("hello")
    blank = tmp_path / "blank.png"
    Image.new("L", (50, 50), 255).save(blank)
    huge = tmp_path / "huge.png"
    huge.write_bytes(png_header_only(9000, 9000))
    assert qrcli.main(["decode", str(text), str(good), str(blank), str(huge), str(good)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "0102\n0102\n"
    errors = captured.err.splitlines()
    assert len(errors) == 3
    assert "bad.txt" in errors[0] and "blank.png" in errors[1] and "huge.png" in errors[2]


def test_cli_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        qrcli.main(["encode", "--hex", "abc", "-o", str(tmp_path / "x.png")])
    assert info.value.code == 2
    assert "hex" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        qrcli.main(["--help"])
    assert info.value.code == 0
    assert "decode" in capsys.readouterr().out
    too_big = "00" * (qr.capacity(40) + 1)
    assert qrcli.main(["encode", "--hex", too_big, "-o", str(tmp_path / "x.png")]) == 1
    assert "do not fit" in capsys.readouterr().err


class _EciHeader:
    """A fake qrcode segment that writes an ECI header (mode 0111 + 8-bit designator)."""

    mode = 0b0111

    def __init__(self, designator: int) -> None:
        self.designator = designator

    def __len__(self) -> int:
        return self.designator  # qrcode writes len() in the "length" field: the designator

    def write(self, buffer: object) -> None:
        """Nothing after the designator."""


def test_zxing_returns_the_bytes_of_a_code_that_declares_an_eci(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Codes from other generators may carry ECI 26 (UTF-8); the bytes still come back raw."""
    original = qrcode.util.length_in_bits
    monkeypatch.setattr(
        qrcode.util, "length_in_bits", lambda mode, v: 8 if mode == 0b0111 else original(mode, v)
    )
    data = "日本".encode() + b"\xff\x00"  # not valid UTF-8 despite the ECI
    code = qrcode.QRCode(version=2, border=4, box_size=4)
    code.data_list = [_EciHeader(26), qrcode.util.QRData(data, mode=qrcode.util.MODE_8BIT_BYTE)]
    code.make(fit=False)
    monkeypatch.undo()
    image = code.make_image().get_image().convert("L")
    assert qr.decode_image(image, decoders=["zxing"]) == data


def test_without_libzbar_zxing_is_the_only_decoder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyzbar.wrapper", None)  # import now fails
    qr._zbar.cache_clear()
    try:
        assert qr.available_decoders() == ("zxing",)
        assert qr.decode_image(grid_image(b"zx only")) == b"zx only"
        with pytest.raises(qr.NoCodeFound):
            qr.decode_image(grid_image(b"zbar absent"), decoders=["zbar"])
    finally:
        monkeypatch.undo()
        qr._zbar.cache_clear()
    assert ("zbar" in qr.available_decoders()) == HAS_ZBAR


def test_palette_gif_with_transparent_paper() -> None:
    grey = grid_image(b"gif")
    palette = grey.convert("P")
    light_index = palette.getpixel((0, 0))
    assert isinstance(light_index, int)
    colours = palette.getpalette() or []
    colours[3 * light_index : 3 * light_index + 3] = [0, 0, 0]  # paper is transparent black
    palette.putpalette(colours)
    buffer = io.BytesIO()
    palette.save(buffer, format="GIF", transparency=light_index)
    assert qr.decode_image(buffer.getvalue()) == b"gif"


def test_cli_runs_as_a_module() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "petitcom_shim.qrcli", "--help"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0
    assert "petitcom-qr" in result.stdout
