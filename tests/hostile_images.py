"""A corpus of hostile image files for the "no image can crash or stall" tests.

Each entry is a file (or a special file) that a player might drop on the window,
put in the inbox or pass to ``petitcom-qr decode``: wrong colour spaces, extreme
sizes and aspect ratios, truncated files of every format we open, and special
files that could block or never end. None holds a readable code, so every one must
give a :class:`petitcom_shim.qr.QRError` with a one-line reason.
"""

from __future__ import annotations

import io
import os
import struct
import sys
import zlib
from pathlib import Path

from PIL import Image

from petitcom_shim import qr


def png_header_only(width: int, height: int, colour_type: int = 0) -> bytes:
    """A PNG whose IHDR claims width x height, with one tiny IDAT: costs nothing to write."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    ihdr = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(b"\x00" * 64))
        + chunk(b"IEND", b"")
    )


def _saved(image: Image.Image, fmt: str, **options: object) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format=fmt, **options)
    return buffer.getvalue()


def build(folder: Path) -> list[Path]:
    """Write the corpus into ``folder`` and return the paths, in a fixed order."""
    folder.mkdir(parents=True, exist_ok=True)
    files: dict[str, bytes] = {}
    # Wrong or unusual colour spaces (no code in them, but they must be read, not crash).
    files["lab-small.tif"] = _saved(Image.new("LAB", (20, 20), (50, 0, 0)), "TIFF")
    files["lab.tif"] = _saved(Image.new("LAB", (64, 64), (50, 10, 10)), "TIFF")
    files["cmyk.jpg"] = _saved(Image.new("CMYK", (64, 64), (0, 50, 0, 10)), "JPEG")
    files["cmyk.tif"] = _saved(Image.new("CMYK", (64, 64)), "TIFF")
    files["ycbcr.jpg"] = _saved(Image.new("YCbCr", (64, 64)), "JPEG")
    files["float.tif"] = _saved(Image.new("F", (64, 64), 3.5), "TIFF")
    files["i16.png"] = _saved(Image.new("I;16", (64, 64), 1000), "PNG")
    files["one-bit.bmp"] = _saved(Image.new("1", (64, 64)), "BMP")
    # Extreme sizes and aspect ratios, from the header alone (cheap to write).
    files["strip-1x39000000.png"] = png_header_only(1, 39_000_000)
    files["strip-39000000x1.png"] = png_header_only(39_000_000, 1)
    files["strip-30x60000.png"] = png_header_only(30, 60_000)
    files["huge-8000x6000.png"] = png_header_only(8000, 6000, colour_type=2)
    files["bomb-60000x60000.png"] = png_header_only(60_000, 60_000)
    files["zero-size.png"] = png_header_only(0, 0)
    files["tiny-1x1.gif"] = _saved(Image.new("L", (1, 1)), "GIF")
    files["long-real-40x2000.png"] = _saved(Image.new("L", (40, 2000), 255), "PNG")
    # Truncated and damaged files of each format we open.
    code = qr.encode_image(bytes(range(60)), module_px=4)
    for fmt, suffix in (("PNG", "png"), ("JPEG", "jpg"), ("GIF", "gif"), ("BMP", "bmp")):
        whole = _saved(code.convert("RGB") if fmt == "JPEG" else code, fmt)
        files[f"cut-half.{suffix}"] = whole[: len(whole) // 2]
        files[f"cut-header.{suffix}"] = whole[:20]
    webp = _saved(code.convert("RGB"), "WEBP")
    files["cut-half.webp"] = webp[: len(webp) // 2]
    tiff = _saved(code, "TIFF")
    files["cut-half.tif"] = tiff[: len(tiff) // 2]
    files["empty.png"] = b""
    files["text.png"] = b"this is not an image\n"
    files["eps.png"] = b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\nshowpage\n"
    files["garbage-jpeg.jpg"] = b"\xff\xd8\xff\xe0" + bytes(range(256)) * 8
    for name, data in files.items():
        (folder / name).write_bytes(data)
    paths = [folder / name for name in files]
    # Special files: a directory named like an image, a link to /dev/zero, a FIFO.
    directory = folder / "directory.png"
    directory.mkdir(exist_ok=True)
    paths.append(directory)
    if sys.platform != "win32":
        zero = folder / "dev-zero.png"
        if not zero.is_symlink():
            os.symlink("/dev/zero", zero)
        fifo = folder / "fifo.png"
        if not fifo.exists():
            os.mkfifo(fifo)
        paths += [zero, fifo]
    return paths
