"""No image can crash or stall the QR reader: a corpus of hostile files (wrong colour
spaces, extreme sizes and aspect ratios, truncated files, a FIFO, a link to
/dev/zero, a directory) each gives a QRError with a one-line reason, through
``decode_image`` and through the ``petitcom-qr decode`` command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import hostile_images
import numpy as np
import pytest
from PIL import Image

from petitcom_shim import qr


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return hostile_images.build(tmp_path_factory.mktemp("hostile"))


def test_every_hostile_image_is_a_one_line_qr_error(corpus: list[Path]) -> None:
    for path in corpus:
        with pytest.raises(qr.QRError) as info:
            qr.decode_image(path)
        message = str(info.value)
        assert "\n" not in message, path.name
        assert path.name in message, (path.name, message)
        assert "Traceback" not in message


def test_the_same_files_given_as_bytes_are_qr_errors_too(corpus: list[Path]) -> None:
    for path in corpus:
        if path.is_file() and not path.is_symlink():
            with pytest.raises(qr.QRError):
                qr.decode_image(path.read_bytes())


@pytest.mark.parametrize(
    ("name", "error", "reason"),
    [
        ("fifo.png", qr.UnreadableImage, "not a regular file"),
        ("dev-zero.png", qr.UnreadableImage, "not a regular file"),
        ("directory.png", qr.UnreadableImage, "directory"),
        ("strip-1x39000000.png", qr.NoCodeFound, "too small"),
        ("strip-30x60000.png", qr.ImageTooLarge, "long and thin"),
        ("long-real-40x2000.png", qr.ImageTooLarge, "long and thin"),
        ("huge-8000x6000.png", qr.ImageTooLarge, "megapixels"),
        ("eps.png", qr.UnreadableImage, "not a picture"),
        ("lab.tif", qr.NoCodeFound, "no QR code"),
    ],
)
def test_reasons(corpus: list[Path], name: str, error: type[qr.QRError], reason: str) -> None:
    if sys.platform == "win32" and name in ("fifo.png", "dev-zero.png"):
        pytest.skip("no FIFOs or /dev/zero on Windows")
    with pytest.raises(error, match=reason):
        qr.decode_image(next(p for p in corpus if p.name == name))


def test_a_code_in_a_lab_image_is_read_from_its_lightness_band() -> None:
    grey = qr.encode_image(b"lab code", module_px=4)
    # Pillow stores L* 0-100 as 0-255; a dim print: lightness 20-70 (of 100).
    lightness = 51 + np.asarray(grey, dtype=np.int32) * 127 // 255
    bands = [Image.fromarray(lightness.astype(np.uint8))] + [Image.new("L", grey.size, 128)] * 2
    lab = Image.merge("LAB", bands)
    assert qr.decode_image(lab) == b"lab code"


def test_a_file_over_the_byte_limit_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "big.png"
    qr.encode_png(b"x" * 50, path)
    monkeypatch.setattr(qr, "MAX_FILE_BYTES", path.stat().st_size - 1)
    with pytest.raises(qr.ImageTooLarge, match="MiB"):
        qr.decode_image(path)


def test_a_parser_failure_of_any_type_becomes_unreadable_image(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pillow plugins raise struct.error, IndexError, KeyError... for hostile files."""
    path = tmp_path / "code.png"
    qr.encode_png(b"ok", path)

    def broken_load(self: Image.Image) -> None:
        raise IndexError("tile index out of range")

    monkeypatch.setattr(Image.Image, "load", broken_load)
    with pytest.raises(qr.UnreadableImage, match="IndexError"):
        qr.decode_image(path)


def test_cli_reports_every_hostile_image_on_one_line_and_never_hangs(
    corpus: list[Path],
) -> None:
    """The command runs in a child process: a FIFO that blocked it would hit the timeout
    (a hang guard, far above the time the corpus takes, not a timing assertion)."""
    result = subprocess.run(
        [sys.executable, "-m", "petitcom_shim.qrcli", "decode", *map(str, corpus)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert "Traceback" not in result.stderr
    assert len(lines) == len(corpus)
    for path, line in zip(corpus, lines, strict=True):
        assert line.startswith("petitcom-qr: ") and path.name in line
