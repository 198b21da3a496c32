"""QR codes as images: raw bytes to QR matrix/PNG/GRP drawing, and images back to bytes.

This is the "bytes <-> QR image" step only. What the bytes mean (a Petit Computer
``PT`` chunk, a Royal Nine message) is decided elsewhere; here every payload is an
opaque byte string that must round-trip exactly. Hence the encoder always uses QR
byte mode with error correction M (as Petit Computer's own QR sets, spec §8.3), and
the decoder reads the symbol's raw bytes, never a text interpretation of them.

Decoding uses zxing-cpp; where the zbar library is installed it is a fallback, run
in its binary mode (``ZBAR_CFG_BINARY``) so that it does not transcode the bytes.
See docs/qr.md for what each decoder does with bytes and ECI.
"""

from __future__ import annotations

import ctypes
import io
import os
import warnings
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
import qrcode
import qrcode.constants
import qrcode.exceptions
import qrcode.util
import zxingcpp
from PIL import Image, ImageFilter, ImageOps, UnidentifiedImageError

from petitcom_shim import files

__all__ = [
    "DEFAULT_DECODERS",
    "IMAGE_FORMATS",
    "IMAGE_SUFFIXES",
    "MAX_ASPECT",
    "MAX_FILE_BYTES",
    "MAX_IMAGE_PIXELS",
    "MAX_VERSION_ON_SCREEN",
    "MIN_IMAGE_SIDE",
    "QUIET_ZONE",
    "ImageTooLarge",
    "NoCodeFound",
    "QRError",
    "QRTooLarge",
    "SeveralCodes",
    "UnreadableImage",
    "available_decoders",
    "capacity",
    "decode_image",
    "draw_qr",
    "encode_image",
    "encode_matrix",
    "encode_png",
    "screen_layout",
]

#: Images with more pixels than this are refused before their pixels are decoded.
MAX_IMAGE_PIXELS = 40_000_000
#: Image files larger than this are refused before they are read.
MAX_FILE_BYTES = 64 * 1024 * 1024
#: Images whose longer side is more than this many times the shorter are refused
#: from their header: a photo or screenshot of a code is never that long and thin,
#: and such strips only cost time (a 1x39,000,000 PNG took seconds to fail).
MAX_ASPECT = 8
#: Images narrower or lower than a version 1 code (21 modules at 1 px) hold no code.
MIN_IMAGE_SIDE = 21
#: File formats decode_image opens. Others (EPS runs Ghostscript, for example) are
#: refused unread: a code arrives as a PNG, a JPEG or a screenshot.
IMAGE_FORMATS = ("PNG", "JPEG", "MPO", "GIF", "BMP", "WEBP", "TIFF", "PPM")
#: File name endings taken as images when a folder is searched for codes.
IMAGE_SUFFIXES = files.IMAGE_SUFFIXES
#: Light modules required around the code on every side (ISO/IEC 18004 asks for 4).
QUIET_ZONE = 4
#: Smallest number of screen pixels per module that draw_qr accepts.
MIN_SCREEN_MODULE_PX = 2
#: Largest QR version that fits a 256x192 screen at 2 px/module with the quiet zone.
MAX_VERSION_ON_SCREEN = 17
#: Default GRP colours for draw_qr: COL2 indices that are black and white in the
#: shim's default COL2 (1 = console black, 231 = white corner of the colour cube).
#: GRP colour 0 is transparent, so it is never used for either.
DARK_COLOR = 1
LIGHT_COLOR = 231
#: Decoders tried, in order, by decode_image when none are named.
DEFAULT_DECODERS = ("zxing", "zbar")

_ERROR_CORRECTION = qrcode.constants.ERROR_CORRECT_M
_MAX_VERSION = 40
# Images larger than this on their longest side also get a downscaled attempt.
_DOWNSCALE_SIDE = 1200
# Images smaller than this on their longest side also get an upscaled attempt.
_UPSCALE_SIDE = 400

BoolMatrix = npt.NDArray[np.bool_]
ImageSource = str | os.PathLike[str] | bytes | bytearray | memoryview | Image.Image


class QRError(ValueError):
    """Base class of every error this module raises about QR data or images."""


class NoCodeFound(QRError):
    """The image was read, but no QR code could be decoded from it."""


class SeveralCodes(QRError):
    """The image holds more than one different QR code, so the payload is ambiguous."""


class UnreadableImage(QRError):
    """The source is not an image Pillow can read, or the file is corrupt or truncated."""


class ImageTooLarge(QRError):
    """The image or file is too large or too long and thin; refused before decoding it."""


class QRTooLarge(QRError):
    """The payload does not fit the requested QR version, QR at all, or the screen."""


# --------------------------------------------------------------------------- encoding


def capacity(version: int) -> int:
    """Return how many bytes a QR code of ``version`` holds in byte mode at level M.

    Args:
        version: QR version 1-40.

    Returns:
        The byte capacity (for example 213 for version 10, 666 for version 20).

    Raises:
        ValueError: if ``version`` is not 1-40.
    """
    _check_version(version)
    bits = int(qrcode.util.BIT_LIMIT_TABLE[_ERROR_CORRECTION][version])
    header_bits = 4 + int(qrcode.util.length_in_bits(qrcode.util.MODE_8BIT_BYTE, version))
    return (bits - header_bits) // 8


def _check_version(version: int) -> None:
    if not isinstance(version, int) or not 1 <= version <= _MAX_VERSION:
        raise ValueError(f"QR version must be an integer 1-{_MAX_VERSION}, not {version!r}")


def _as_bytes(data: bytes | bytearray | memoryview) -> bytes:
    # A str would need an encoding choice, which is exactly what this module refuses
    # to make on the caller's behalf.
    if not isinstance(data, bytes | bytearray | memoryview):
        raise TypeError(f"QR payload must be bytes, not {type(data).__name__}")
    return bytes(data)


def _build(data: bytes | bytearray | memoryview, version: int | None) -> qrcode.QRCode:
    payload = _as_bytes(data)
    if version is not None:
        _check_version(version)
        if len(payload) > capacity(version):
            raise QRTooLarge(
                f"{len(payload)} bytes do not fit a version {version} QR code "
                f"(at most {capacity(version)} bytes at level M)"
            )
    elif len(payload) > capacity(_MAX_VERSION):
        raise QRTooLarge(
            f"{len(payload)} bytes do not fit any QR code "
            f"(at most {capacity(_MAX_VERSION)} bytes at level M)"
        )
    code = qrcode.QRCode(version=version, error_correction=_ERROR_CORRECTION, border=0)
    # Passing QRData with an explicit mode stops qrcode from splitting the payload into
    # numeric/alphanumeric segments or treating it as text.
    code.add_data(qrcode.util.QRData(payload, mode=qrcode.util.MODE_8BIT_BYTE))
    try:
        code.make(fit=version is None)
    except qrcode.exceptions.DataOverflowError as err:  # pragma: no cover - checked above
        raise QRTooLarge(f"{len(payload)} bytes do not fit the QR code: {err}") from err
    return code


def encode_matrix(
    data: bytes | bytearray | memoryview, *, version: int | None = None
) -> BoolMatrix:
    """Encode ``data`` as a QR module matrix.

    Byte mode, error correction M, the smallest version that fits unless
    ``version`` is given.

    Args:
        data: The payload; any bytes, including empty.
        version: Force this QR version (1-40) instead of the smallest that fits.

    Returns:
        A square (n, n) bool array, True = dark module, without a quiet zone.

    Raises:
        QRTooLarge: if the payload does not fit ``version`` (or version 40).
        TypeError: if ``data`` is not bytes-like (a str must be encoded first).
        ValueError: if ``version`` is not 1-40.
    """
    return np.array(_build(data, version).modules, dtype=np.bool_)


MAX_MODULE_PX = 64
"""Pixels per module: 64 already makes a version-40 code 12,000 pixels wide."""
MAX_BORDER = 40
"""Quiet zone in modules: the standard asks for 4; ten times that is never needed."""


def _validate_raster(module_px: int, border: int) -> None:
    """Refuse raster sizes that would take seconds and gigabytes to draw."""
    if not isinstance(module_px, int) or not 1 <= module_px <= MAX_MODULE_PX:
        raise ValueError(
            f"module_px must be an integer from 1 to {MAX_MODULE_PX}, not {module_px!r}"
        )
    if not isinstance(border, int) or not 0 <= border <= MAX_BORDER:
        raise ValueError(f"border must be an integer from 0 to {MAX_BORDER}, not {border!r}")


def encode_image(
    data: bytes | bytearray | memoryview,
    *,
    module_px: int = 8,
    border: int = QUIET_ZONE,
    version: int | None = None,
) -> Image.Image:
    """Render ``data`` as a black-on-white greyscale QR image.

    Args:
        data: The payload bytes.
        module_px: Image pixels per module side.
        border: Quiet zone width in modules on every side.
        version: Force this QR version (1-40).

    Returns:
        A mode "L" Pillow image, (n + 2*border) * module_px pixels square.

    Raises:
        QRTooLarge, TypeError, ValueError: as :func:`encode_matrix`, or for bad sizes.
    """
    _validate_raster(module_px, border)
    matrix = np.pad(encode_matrix(data, version=version), border, constant_values=False)
    pixels = np.where(matrix, 0, 255).astype(np.uint8)
    pixels = np.repeat(np.repeat(pixels, module_px, axis=0), module_px, axis=1)
    return Image.fromarray(pixels)


def encode_png(
    data: bytes | bytearray | memoryview,
    path: str | os.PathLike[str],
    *,
    module_px: int = 8,
    border: int = QUIET_ZONE,
    version: int | None = None,
) -> None:
    """Write ``data`` as a QR code to a 1-bit PNG file at ``path``.

    Args:
        data: The payload bytes.
        path: Output file, written by :func:`petitcom_shim.files.write_output`: a
            regular file is replaced atomically, ``-`` is standard output, a FIFO or
            device is written into, anything else is refused.
        module_px: Image pixels per module side.
        border: Quiet zone width in modules on every side.
        version: Force this QR version (1-40).

    Raises:
        QRTooLarge, TypeError, ValueError: as :func:`encode_image`.
        OSError: if the file cannot be written (files.OutputRefused: see above).
    """
    png = png_bytes(data, module_px=module_px, border=border, version=version)
    files.write_output(path, png)


def png_bytes(
    data: bytes | bytearray | memoryview,
    *,
    module_px: int = 8,
    border: int = QUIET_ZONE,
    version: int | None = None,
) -> bytes:
    """``data`` as a QR code in a 1-bit PNG file's bytes (arguments as :func:`encode_png`)."""
    image = encode_image(data, module_px=module_px, border=border, version=version)
    buffer = io.BytesIO()
    image.convert("1").save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


# ----------------------------------------------------------------------- screen drawing


class GrpCanvas(Protocol):
    """The two Machine verbs draw_qr needs (see docs/shim-api.md)."""

    def gpage(self, screen: int, /) -> None:
        """Select the screen whose GRP draw page the following calls draw on."""

    def gfill(self, x1: int, y1: int, x2: int, y2: int, color: int, /) -> None:
        """Fill the inclusive rectangle (x1, y1)-(x2, y2) with a COL2 colour."""


def _screen_layout_for(modules: int, width: int, height: int) -> tuple[int, int]:
    total = modules + 2 * QUIET_ZONE
    module_px = min(width, height) // total
    if module_px < MIN_SCREEN_MODULE_PX:
        version = (modules - 17) // 4
        largest = (min(width, height) // MIN_SCREEN_MODULE_PX - 2 * QUIET_ZONE - 17) // 4
        hint = (
            f"the largest that fits is version {largest} ({capacity(largest)} bytes)"
            if largest >= 1
            else "no QR code fits"
        )
        raise QRTooLarge(
            f"a version {version} QR code ({modules} modules + {2 * QUIET_ZONE} quiet) does "
            f"not fit {width}x{height} at {MIN_SCREEN_MODULE_PX} px per module; {hint}"
        )
    return module_px, total * module_px


def screen_layout(
    data: bytes | bytearray | memoryview, width: int = 256, height: int = 192
) -> tuple[int, int]:
    """Work out how large ``data``'s QR code is drawn on a ``width`` x ``height`` screen.

    The code gets the largest whole number of pixels per module that fits with a
    4-module quiet zone; at least 2 pixels per module are required, because one
    pixel per module does not survive a phone camera pointed at a DS screen.

    Args:
        data: The payload bytes.
        width: Screen width in pixels.
        height: Screen height in pixels.

    Returns:
        ``(module_px, size_px)``: pixels per module, and the side of the whole drawn
        square including the quiet zone.

    Raises:
        QRTooLarge: if the code does not fit at 2 pixels per module.
    """
    return _screen_layout_for(len(encode_matrix(data)), width, height)


def _dark_rectangles(matrix: BoolMatrix) -> list[tuple[int, int, int, int]]:
    """Cover the dark modules with rectangles (col0, row0, col1, row1), inclusive.

    Horizontal runs are merged with identical runs in the rows below, which cuts the
    number of GFILL calls several times over compared with one per module.
    """
    done: list[tuple[int, int, int, int]] = []
    open_runs: dict[tuple[int, int], int] = {}  # (col0, col1) -> first row
    rows = len(matrix)
    for row in range(rows + 1):
        runs: set[tuple[int, int]] = set()
        if row < rows:
            line = matrix[row]
            col = 0
            while col < len(line):
                if line[col]:
                    start = col
                    while col < len(line) and line[col]:
                        col += 1
                    runs.add((start, col - 1))
                else:
                    col += 1
        for run in [r for r in open_runs if r not in runs]:
            done.append((run[0], open_runs.pop(run), run[1], row - 1))
        for run in runs:
            open_runs.setdefault(run, row)
    return done


def draw_qr(
    machine: GrpCanvas,
    data: bytes | bytearray | memoryview,
    screen: int,
    x: int | None = None,
    y: int | None = None,
    *,
    dark: int = DARK_COLOR,
    light: int = LIGHT_COLOR,
    max_size: int | None = None,
) -> tuple[int, int, int]:
    """Draw ``data``'s QR code on ``screen``'s GRP draw page.

    Calls ``machine.gpage(screen)`` (so that screen stays selected afterwards, as
    after a GPAGE in BASIC) and then ``gfill``: one fill for the light square
    including the quiet zone, then rectangles over the dark modules.

    Args:
        machine: The Machine (anything with ``gpage`` and ``gfill``).
        data: The payload bytes.
        screen: 0 = top screen, 1 = bottom.
        x: Left edge of the square (quiet zone included); None = centred.
        y: Top edge of the square; None = centred.
        dark: COL2 colour for dark modules.
        light: COL2 colour for light modules and the quiet zone.
        max_size: the most pixels the square may take (quiet zone included), for a
            code in a corner of a busy screen; None = as large as the screen allows.

    Returns:
        ``(x, y, size_px)`` of the drawn square.

    Raises:
        QRTooLarge: if the code does not fit (the screen, or ``max_size``) at 2 pixels
            per module.
        ValueError: if ``x``/``y`` put part of the square off the 256x192 page.
    """
    width, height = 256, 192
    matrix = encode_matrix(data)
    area = min(width, height) if max_size is None else min(max_size, width, height)
    module_px, size_px = _screen_layout_for(len(matrix), area, area)
    left = (width - size_px) // 2 if x is None else x
    top = (height - size_px) // 2 if y is None else y
    if not (0 <= left <= width - size_px and 0 <= top <= height - size_px):
        raise ValueError(
            f"a {size_px}x{size_px} QR code at ({left}, {top}) does not fit the "
            f"{width}x{height} screen"
        )
    machine.gpage(screen)
    machine.gfill(left, top, left + size_px - 1, top + size_px - 1, light)
    origin_x = left + QUIET_ZONE * module_px
    origin_y = top + QUIET_ZONE * module_px
    for col0, row0, col1, row1 in _dark_rectangles(matrix):
        machine.gfill(
            origin_x + col0 * module_px,
            origin_y + row0 * module_px,
            origin_x + (col1 + 1) * module_px - 1,
            origin_y + (row1 + 1) * module_px - 1,
            dark,
        )
    return left, top, size_px


# --------------------------------------------------------------------------- decoding


def _source_name(src: ImageSource) -> str:
    if isinstance(src, str | os.PathLike):
        return os.fsdecode(src)
    if isinstance(src, Image.Image):
        return str(getattr(src, "filename", "") or "<image>")
    return "<bytes>"


def _check_pixels(name: str, width: int, height: int) -> None:
    """Refuse, from the size alone, images that cannot hold a code or would cost seconds."""
    if width * height > MAX_IMAGE_PIXELS:
        raise ImageTooLarge(
            f"{name}: image is {width}x{height} ({width * height / 1e6:.1f} megapixels); "
            f"the limit is {MAX_IMAGE_PIXELS / 1e6:.0f} megapixels"
        )
    if min(width, height) < MIN_IMAGE_SIDE:
        raise NoCodeFound(
            f"{name}: image is {width}x{height}, too small to hold a QR code "
            f"(at least {MIN_IMAGE_SIDE}x{MIN_IMAGE_SIDE})"
        )
    if max(width, height) > MAX_ASPECT * min(width, height):
        raise ImageTooLarge(
            f"{name}: image is {width}x{height}, too long and thin for a QR code "
            f"(the limit is {MAX_ASPECT}:1)"
        )


def _read_file(path: Path, name: str) -> bytes:
    """The bytes of the regular file at ``path`` (:func:`petitcom_shim.files.read_file`:
    nothing that could block or never end, at most MAX_FILE_BYTES), refusals as QRErrors.
    """
    try:
        return files.read_file(path, MAX_FILE_BYTES)
    except FileNotFoundError as err:
        raise UnreadableImage(f"{name}: no such file") from err
    except files.NotRegularFile as err:
        if err.is_dir:
            raise UnreadableImage(f"{name}: is a directory, not an image") from err
        raise UnreadableImage(
            f"{name}: is not a regular file (a FIFO, device or socket), not an image"
        ) from err
    except files.FileTooLarge as err:
        if err.size is None:  # it grew while we read it
            raise ImageTooLarge(f"{name}: file is over {MAX_FILE_BYTES / 2**20:.0f} MiB") from err
        raise ImageTooLarge(
            f"{name}: file is {err.size / 2**20:.0f} MiB; "
            f"the limit is {MAX_FILE_BYTES / 2**20:.0f} MiB"
        ) from err
    except OSError as err:  # files.FileRefused: cannot open it / cannot read it (reason)
        raise UnreadableImage(f"{name}: {err}") from err


def _open_image(src: ImageSource, name: str) -> Image.Image:
    """Open ``src``, refuse unsuitable images from the header alone, then load the pixels.

    Every failure is a :class:`QRError`: Pillow's plugins raise many exception types
    for hostile files (ValueError, struct.error, IndexError, MemoryError...), and a
    file from another player must never take the program down.
    """
    if isinstance(src, Image.Image):
        _check_pixels(name, *src.size)
        return src
    if isinstance(src, str | os.PathLike):
        data = _read_file(Path(os.fsdecode(src)), name)
    else:
        data = bytes(src)
        if len(data) > MAX_FILE_BYTES:
            raise ImageTooLarge(f"{name}: over {MAX_FILE_BYTES / 2**20:.0f} MiB")
    try:
        with warnings.catch_warnings():
            # Pillow warns (then errors) about decompression bombs far above our own
            # limit; turn the warning into an error so it cannot leak to stderr.
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data), formats=_formats())
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as err:
        raise ImageTooLarge(f"{name}: image is too large to decode ({err})") from err
    except UnidentifiedImageError as err:
        # words a player understands: what is wrong, and what would work
        raise UnreadableImage(
            f"{name}: not a picture (send a PNG of the code or a photo of it)"
        ) from err
    except Exception as err:  # any parser failure is an unreadable file
        raise UnreadableImage(f"{name}: cannot read image ({_reason(err)})") from err
    try:
        _check_pixels(name, *image.size)
        if image.format in ("JPEG", "MPO"):
            # Decode a large JPEG at 1/2, 1/4 or 1/8 scale straight from the DCT data,
            # keeping at least 2x the downscale side: far less work, same codes found.
            image.draft("L", (2 * _DOWNSCALE_SIDE, 2 * _DOWNSCALE_SIDE))
        image.load()
    except QRError:
        image.close()
        raise
    except Exception as err:  # as above
        image.close()
        raise UnreadableImage(f"{name}: corrupt or truncated image ({_reason(err)})") from err
    return image


@cache
def _formats() -> list[str]:
    """IMAGE_FORMATS that this Pillow can open (MPO, for one, is a plugin of its own)."""
    Image.init()
    return [name for name in IMAGE_FORMATS if name in Image.OPEN]


def _reason(err: BaseException) -> str:
    """One line about an exception from a parser, whatever its type."""
    text = " ".join(str(err).split())[:120]
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


def _to_grey(image: Image.Image) -> Image.Image:
    """Greyscale with transparency flattened onto white (transparent pixels are paper)."""
    if image.mode == "LAB":  # Pillow cannot convert LAB; its L band is the lightness
        return image.getchannel("L")
    if image.mode == "HSV":
        return image.getchannel("V")
    if image.mode in ("I", "I;16", "I;16B", "I;16L", "F"):
        values = np.asarray(image, dtype=np.float64)
        low, high = float(values.min()), float(values.max())
        scaled = (values - low) * (255.0 / (high - low)) if high > low else values * 0
        return Image.fromarray(scaled.astype(np.uint8))
    if image.mode in ("RGBA", "LA", "PA", "La", "RGBa") or "transparency" in image.info:
        rgba = image.convert("RGBA")
        paper = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(paper, rgba).convert("L")
    return image.convert("L")


def _otsu_threshold(grey: Image.Image) -> Image.Image:
    hist = np.array(grey.histogram()[:256], dtype=np.float64)
    levels = np.arange(256, dtype=np.float64)
    weight0 = np.cumsum(hist)
    weight1 = weight0[-1] - weight0
    mean0 = np.cumsum(hist * levels) / np.maximum(weight0, 1)
    mean1 = (np.sum(hist * levels) - np.cumsum(hist * levels)) / np.maximum(weight1, 1)
    threshold = int(np.argmax(weight0 * weight1 * (mean0 - mean1) ** 2))
    return grey.point(lambda v: 255 if v > threshold else 0)


def _shrunk(image: Image.Image, side: int) -> Image.Image:
    """``image`` scaled down (box filter) so its longer side is ``side``; as is if smaller."""
    factor = side / max(image.size)
    if factor >= 1.0:
        return image
    size = (max(1, round(image.width * factor)), max(1, round(image.height * factor)))
    return image.resize(size, Image.Resampling.BOX)


def _variants(grey: Image.Image) -> Iterator[Image.Image]:
    """Yield the image as is, then cleaned-up versions, cheapest and likeliest first."""
    yield grey
    stretched = ImageOps.autocontrast(grey, cutoff=1)
    yield stretched
    side = max(grey.size)
    if side > _DOWNSCALE_SIDE:
        yield _shrunk(stretched, _DOWNSCALE_SIDE)
    if side < _UPSCALE_SIDE:
        yield stretched.resize((grey.width * 3, grey.height * 3), Image.Resampling.NEAREST)
    # The filters run on at most twice the downscale size, which keeps a no-code
    # 40 MP photo to a few seconds while a 1080p screenshot keeps every pixel.
    work = _shrunk(stretched, 2 * _DOWNSCALE_SIDE)
    # Unsharp masking recovers codes blurred well past what the binarizers accept
    # (out-of-focus photos); the median filter removes JPEG and sensor speckle.
    yield work.filter(ImageFilter.UnsharpMask(radius=4, percent=200, threshold=0))
    yield work.filter(ImageFilter.MedianFilter(3))
    yield _otsu_threshold(work.filter(ImageFilter.GaussianBlur(1)))


@cache
def _zxing_formats() -> Any:
    fmt = zxingcpp.BarcodeFormat
    # zxing-cpp 3 counts Micro QR and rMQR as "QRCode"; Petit Computer uses only the
    # full-size symbol, and leaving the others out avoids false Micro QR finds.
    if hasattr(fmt, "QRCodeModel2"):
        return zxingcpp.BarcodeFormats([fmt.QRCodeModel1, fmt.QRCodeModel2])
    return fmt.QRCode  # pragma: no cover - zxing-cpp 2.x


def _decode_zxing(grey: Image.Image) -> list[bytes]:
    pixels = np.asarray(grey, dtype=np.uint8)
    found = zxingcpp.read_barcodes(pixels, formats=_zxing_formats())
    # Barcode.bytes is the symbol's data with ECI designators removed and no
    # character set applied; Barcode.text would be transcoded.
    return [bytes(code.bytes) for code in found if code.valid]


class _Zbar:
    """zbar through pyzbar's ctypes bindings, with ZBAR_CFG_BINARY switched on.

    pyzbar.decode cannot set that option, and without it zbar converts byte-mode
    data to UTF-8 text (guessing ISO-8859-1 or Shift-JIS), so ``b"\\xff"`` would come
    back as ``b"\\xc3\\xbf"``.
    """

    ZBAR_CFG_ENABLE = 0
    ZBAR_CFG_BINARY = 4  # zbar >= 0.23; older versions reject it (see __init__)
    Y800 = 0x30303859  # fourcc "Y800": 8-bit greyscale

    def __init__(self, wrapper: Any) -> None:
        self._w = wrapper
        self._qr = int(wrapper.ZBarSymbol.QRCODE)
        scanner = wrapper.zbar_image_scanner_create()
        try:
            # A zbar without binary mode returns non-zero here: better no fallback
            # than one that silently alters bytes.
            if wrapper.zbar_image_scanner_set_config(scanner, self._qr, self.ZBAR_CFG_BINARY, 1):
                raise OSError("this libzbar has no ZBAR_CFG_BINARY (needs zbar 0.23 or later)")
        finally:
            wrapper.zbar_image_scanner_destroy(scanner)

    def decode(self, grey: Image.Image) -> list[bytes]:
        w = self._w
        pixels = grey.tobytes()
        scanner = w.zbar_image_scanner_create()
        image = w.zbar_image_create()
        try:
            w.zbar_image_scanner_set_config(scanner, 0, self.ZBAR_CFG_ENABLE, 0)
            w.zbar_image_scanner_set_config(scanner, self._qr, self.ZBAR_CFG_ENABLE, 1)
            w.zbar_image_scanner_set_config(scanner, self._qr, self.ZBAR_CFG_BINARY, 1)
            w.zbar_image_set_format(image, self.Y800)
            w.zbar_image_set_size(image, grey.width, grey.height)
            w.zbar_image_set_data(image, pixels, len(pixels), None)
            found: list[bytes] = []
            if w.zbar_scan_image(scanner, image) > 0:
                symbol = w.zbar_image_first_symbol(image)
                while symbol:
                    length = w.zbar_symbol_get_data_length(symbol)
                    found.append(ctypes.string_at(w.zbar_symbol_get_data(symbol), length))
                    symbol = w.zbar_symbol_next(symbol)
            return found
        finally:
            w.zbar_image_destroy(image)
            w.zbar_image_scanner_destroy(scanner)


@cache
def _zbar() -> _Zbar | None:
    """The zbar decoder, or None where libzbar is missing or too old (imported lazily)."""
    try:
        import pyzbar.wrapper  # raises ImportError when libzbar is not installed
    except (ImportError, OSError):
        return None
    try:
        return _Zbar(pyzbar.wrapper)
    except OSError:
        return None


def available_decoders() -> tuple[str, ...]:
    """Return the decoder names usable here: always "zxing", plus "zbar" if installed."""
    return ("zxing", "zbar") if _zbar() is not None else ("zxing",)


def _decoder_functions(decoders: Sequence[str]) -> list[Callable[[Image.Image], list[bytes]]]:
    functions: list[Callable[[Image.Image], list[bytes]]] = []
    for name in decoders:
        if name == "zxing":
            functions.append(_decode_zxing)
        elif name == "zbar":
            zbar = _zbar()
            if zbar is not None:
                functions.append(zbar.decode)
        else:
            raise ValueError(f"unknown QR decoder {name!r}; choose from {DEFAULT_DECODERS}")
    return functions


def decode_image(src: ImageSource, *, decoders: Sequence[str] = DEFAULT_DECODERS) -> bytes:
    """Read the payload bytes of the one QR code in an image.

    Accepts generated PNGs, screenshots, JPEGs and phone photos. Each decoder tries
    the image as is, then contrast-stretched, rescaled, denoised and thresholded
    versions, and the first that finds a code wins. Images over MAX_IMAGE_PIXELS
    are refused from their header, before any pixel is decoded, as are files over
    MAX_FILE_BYTES and images more than MAX_ASPECT times longer than wide: so the
    time any one image can take is bounded. Every failure to read an image raises
    a :class:`QRError` with a one-line reason; nothing else escapes.

    Args:
        src: A file path, the encoded file's bytes, or a Pillow image.
        decoders: Decoder names to try in order; "zbar" is skipped silently where
            libzbar is not installed (see :func:`available_decoders`).

    Returns:
        The QR code's data bytes exactly as encoded (byte mode, no text decoding).

    Raises:
        UnreadableImage: not an image, corrupt, truncated, an unsupported colour
            mode, no such file, or not a regular file (a FIFO, a device, a directory).
        ImageTooLarge: over MAX_IMAGE_PIXELS pixels or MAX_FILE_BYTES bytes, or longer
            than MAX_ASPECT times its width (or the reverse).
        NoCodeFound: no QR code could be decoded (or the image is too small for one).
        SeveralCodes: more than one different QR code in the image.
        ValueError: an unknown decoder name.
    """
    name = _source_name(src)
    functions = _decoder_functions(decoders)
    image = _open_image(src, name)
    try:
        return _decode_opened(image, name, functions)
    except QRError:
        raise
    except Exception as err:  # a colour mode or decoder failure, not a crash
        raise UnreadableImage(f"{name}: cannot read image ({_reason(err)})") from err
    finally:
        if image is not src:  # close what we opened (multi-frame files keep it open)
            image.close()


def _decode_opened(
    image: Image.Image, name: str, functions: Sequence[Callable[[Image.Image], list[bytes]]]
) -> bytes:
    grey = _to_grey(image)
    variants: list[Image.Image] = []
    source = _variants(grey)
    for decode in functions:
        index = 0
        while True:
            if index == len(variants):
                variant = next(source, None)
                if variant is None:
                    break
                variants.append(variant)
            variant = variants[index]
            if decode is not _decode_zxing:
                # zbar takes seconds on a 40 MP image where zxing takes a fraction of
                # one; as the fallback it sees at most twice the downscale side.
                variant = _shrunk(variant, 2 * _DOWNSCALE_SIDE)
            found = list(dict.fromkeys(decode(variant)))
            index += 1
            if len(found) == 1:
                return found[0]
            if len(found) > 1:
                raise SeveralCodes(
                    f"{name}: {len(found)} different QR codes in one image; crop it to one"
                )
    raise NoCodeFound(f"{name}: no QR code found")
