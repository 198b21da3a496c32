"""Petit Computer QR sets (petitcom.md §8.3): stream and chunk layout, image round trips, errors."""

from __future__ import annotations

import hashlib
import random
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest
import special_outputs
import zxingcpp
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from petitcom_shim import ptcfile, ptcqr, qr, qrcli
from petitcom_shim.ptcfile import PtcFile


def col_file(seed: int = 0) -> PtcFile:
    words = np.random.default_rng(seed).integers(0, 65536, 256, dtype=np.uint16)
    return PtcFile.of("PAL", "COL", ptcfile.col_bytes(words))


def noisy_chr(name: str = "NOISE", seed: int = 1) -> PtcFile:
    """A CHR bank of random pixels: barely compressible, so its set has 14 codes."""
    tiles = np.random.default_rng(seed).integers(0, 16, (256, 8, 8), dtype=np.uint8)
    return PtcFile.of(name, "CHR", ptcfile.chr_bytes(tiles))


def few_codes() -> PtcFile:
    """A CHR bank with 32 random tiles: a set of a few codes."""
    tiles = np.zeros((256, 8, 8), dtype=np.uint8)
    tiles[:32] = np.random.default_rng(4).integers(0, 16, (32, 8, 8), dtype=np.uint8)
    return PtcFile.of("FEW", "CHR", ptcfile.chr_bytes(tiles))


def chunks_of(stream: bytes) -> list[bytes]:
    """Cut any stream into PT chunks by hand, per the table in petitcom.md §8.3."""
    total = -(-len(stream) // 630)
    out = []
    for i in range(total):
        segment = stream[i * 630 : (i + 1) * 630]
        out.append(
            b"PT"
            + bytes([i + 1, total])
            + hashlib.md5(segment).digest()
            + hashlib.md5(stream).digest()
            + segment
        )
    return out


def named(payloads: list[bytes]) -> list[tuple[str, bytes]]:
    return [(f"code{i}", p) for i, p in enumerate(payloads, 1)]


# ------------------------------------------------------------------ byte layouts


def test_stream_layout() -> None:
    file = col_file()
    stream = ptcqr.set_stream(file)
    assert stream[0:8] == b"PAL\0\0\0\0\0"
    assert stream[8:12] == b"RCOL"
    assert stream[12:16] == (len(stream) - 20).to_bytes(4, "little")
    assert stream[16:20] == bytes([0x0C, 0x02, 0, 0])  # 524 = 12-byte tag + 512
    assert zlib.decompress(stream[20:]) == b"PETC0100RCOL" + file.payload


def test_chunk_layout_and_checksum_placement() -> None:
    file = noisy_chr()
    stream = ptcqr.set_stream(file)
    payloads = ptcqr.encode_set(file)
    assert len(payloads) == -(-len(stream) // 630) == 14
    assert payloads == chunks_of(stream)  # the hand-made cut
    for n, payload in enumerate(payloads, 1):
        assert payload[0:2] == b"PT"
        assert payload[2] == n and payload[3] == 14
        assert payload[4:20] == hashlib.md5(payload[36:]).digest()
        assert payload[20:36] == hashlib.md5(stream).digest()
        assert len(payload) == (666 if n < 14 else 36 + len(stream) - 13 * 630)
    assert b"".join(p[36:] for p in payloads) == stream


def test_exact_multiple_has_no_empty_last_code(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ptcqr, "set_stream", lambda file: b"x" * 1260)
    payloads = ptcqr.encode_set(col_file())
    assert [len(p) for p in payloads] == [666, 666]


def test_every_code_is_version_20_level_m(tmp_path: Path) -> None:
    paths = ptcqr.write_set(col_file(), tmp_path)
    assert [p.name for p in paths] == ["PAL-01of01.png"]
    with Image.open(paths[0]) as image:
        assert image.size == ((97 + 8) * 4, (97 + 8) * 4)
    # an independent reader's view of the symbol: version 20, level M, binary, no ECI
    with Image.open(paths[0]) as image:
        (found,) = zxingcpp.read_barcodes(np.asarray(image.convert("L")))
    assert found.ec_level == "M"
    assert found.symbology_identifier == "]Q1"  # QR model 2 without ECI
    assert found.content_type == zxingcpp.ContentType.Binary
    if hasattr(found, "extra"):  # zxing-cpp 3 reports the version
        assert found.extra["Version"] == "20"
    assert bytes(found.bytes) == ptcqr.encode_set(col_file())[0]
    assert qr.capacity(20) - ptcqr.CHUNK_HEADER == ptcqr.SEGMENT == 630


def test_a_new_set_replaces_the_old_one(tmp_path: Path) -> None:
    assert len(ptcqr.write_set(few_codes(), tmp_path, stem="SET")) == 2
    (tmp_path / "SET-notes.png").write_bytes(b"not ours")
    ptcqr.write_set(col_file(), tmp_path, stem="SET")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["SET-01of01.png", "SET-notes.png"]


# ------------------------------------------------------------------- round trips


def test_payload_round_trip_any_order() -> None:
    file = noisy_chr()
    payloads = ptcqr.encode_set(file)
    shuffled = payloads[:]
    random.Random(3).shuffle(shuffled)
    assert ptcqr.decode_set(named(shuffled + payloads[:2])) == file  # duplicates are fine


def test_image_round_trip_through_real_qr_codes(tmp_path: Path) -> None:
    file = few_codes()
    paths = ptcqr.write_set(file, tmp_path)
    assert len(paths) == 2
    assert ptcqr.read_set(paths[::-1]) == file
    assert ptcqr.read_set([tmp_path]) == file  # a folder


@pytest.mark.slow
def test_image_round_trip_of_a_large_set(tmp_path: Path) -> None:
    file = noisy_chr()
    paths = ptcqr.write_set(file, tmp_path)
    assert len(paths) == 14
    random.Random(5).shuffle(paths)
    assert ptcqr.read_set(paths) == file
    assert ptcqr.read_set([tmp_path]) == file  # a folder


def test_cli_round_trip_is_byte_identical(tmp_path: Path) -> None:
    source = tmp_path / "PAL.PTC"
    source.write_bytes(col_file().to_bytes())
    qrs = tmp_path / "qrs"
    assert qrcli.main(["to-qr", str(source), "-o", str(qrs)]) == 0
    back = tmp_path / "back.PTC"
    assert qrcli.main(["from-qr", str(qrs), "-o", str(back)]) == 0
    assert back.read_bytes() == source.read_bytes()


def test_cli_as_a_module(tmp_path: Path) -> None:
    source = tmp_path / "PAL.PTC"
    source.write_bytes(col_file().to_bytes())
    run = subprocess.run(
        [sys.executable, "-m", "petitcom_shim.qrcli", "to-qr", str(source), "-o", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == str(tmp_path / "PAL-01of01.png")


# ------------------------------------------------------------------------ errors


def test_missing_codes_are_named() -> None:
    payloads = ptcqr.encode_set(noisy_chr())
    kept = [p for n, p in enumerate(payloads, 1) if n not in (2, 5, 6, 7, 14)]
    with pytest.raises(ptcqr.MissingCodes, match=r"^set NOISE: missing codes 2, 5-7, 14 of 14$"):
        ptcqr.decode_set(named(kept))
    with pytest.raises(ptcqr.MissingCodes, match=r"^missing code 1 of 14$"):
        ptcqr.decode_set(named(payloads[1:]))
    with pytest.raises(ptcqr.MissingCodes, match="no QR codes"):
        ptcqr.decode_set([])


def test_wrong_segment_checksum() -> None:
    payloads = ptcqr.encode_set(noisy_chr())
    bad = bytearray(payloads[2])
    bad[100] ^= 1
    payloads[2] = bytes(bad)
    with pytest.raises(ptcqr.ChecksumMismatch, match=r"^code3: code 3/14: its data does not"):
        ptcqr.decode_set(named(payloads))


def test_wrong_set_checksum() -> None:
    payloads = ptcqr.encode_set(noisy_chr())
    segment = bytearray(payloads[4][36:])
    segment[0] ^= 1  # a consistent code (its own MD5 fixed) with the wrong data
    payloads[4] = payloads[4][:4] + hashlib.md5(segment).digest() + payloads[4][20:36] + segment
    with pytest.raises(ptcqr.ChecksumMismatch, match=r"^set NOISE: the 14 codes joined do not"):
        ptcqr.decode_set(named(payloads))


def test_code_of_another_set() -> None:
    ours = ptcqr.encode_set(noisy_chr(seed=1))
    theirs = ptcqr.encode_set(noisy_chr(seed=2))
    mixed = [*named(ours[:5]), ("stray.png", theirs[5]), *named(ours[6:])]
    with pytest.raises(ptcqr.MixedSets, match=r"^stray\.png: code 6/14 is from another set"):
        ptcqr.decode_set(mixed)


def test_two_different_codes_with_one_number() -> None:
    stream = ptcqr.set_stream(col_file())
    good = chunks_of(stream)[0]
    segment = bytearray(good[36:])
    segment[-1] ^= 0xFF
    twin = good[:4] + hashlib.md5(segment).digest() + good[20:36] + segment
    with pytest.raises(ptcqr.MixedSets, match="two different codes numbered 1"):
        ptcqr.decode_set([("a", good), ("b", twin)])


@pytest.mark.parametrize(
    "payload",
    [b"https://example.com/", b"PT", b"PT" + bytes([0, 1]) + bytes(40), b"PT\x03\x02" + bytes(40)],
)
def test_foreign_codes(payload: bytes) -> None:
    with pytest.raises(ptcqr.ForeignCode, match=r"^x\.png: not a Petit Computer QR code"):
        ptcqr.decode_set([("x.png", payload)])


def test_bad_streams_behind_good_checksums() -> None:
    def decode(stream: bytes) -> PtcFile:
        return ptcqr.decode_set(named(chunks_of(stream)))

    good = ptcqr.set_stream(col_file())
    with pytest.raises(ptcqr.ChecksumMismatch, match="corrupt"):
        decode(good[:20] + b"\x78\x9c" + b"\xff" * (len(good) - 22))
    with pytest.raises(ptcqr.ChecksumMismatch, match="compressed bytes"):
        decode(good + b"\0")
    bomb = zlib.compress(bytes(10_000_000))  # claims 524 bytes, inflates to 10 MB
    with pytest.raises(ptcqr.ChecksumMismatch, match="does not inflate to the 524 bytes"):
        decode(good[:12] + len(bomb).to_bytes(4, "little") + good[16:20] + bomb)
    with pytest.raises(ptcqr.ChecksumMismatch, match="larger than any"):
        decode(good[:16] + (1 << 30).to_bytes(4, "little") + good[20:])
    with pytest.raises(ptcqr.ChecksumMismatch, match="type b'RCHR' does not match"):
        decode(good[:8] + b"RCHR" + good[12:])
    with pytest.raises(ptcfile.PtcFileError, match="file name"):
        decode(b"bad name" + good[8:])
    with pytest.raises(ptcqr.ChecksumMismatch, match="too short"):
        decode(b"PAL")


def test_too_large_for_one_set() -> None:
    prg = bytes(8) + (500_000).to_bytes(4, "little") + random.Random(1).randbytes(500_000)
    with pytest.raises(ptcqr.QRSetError, match="a set holds at most 255"):
        ptcqr.encode_set(PtcFile.of("BIG", "PRG", prg))


def test_cli_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = ptcqr.write_set(few_codes(), tmp_path / "set")
    paths[0].unlink()
    qr.encode_png(b"https://example.com/", tmp_path / "url.png")
    out = tmp_path / "out.PTC"
    cases = [
        ([str(tmp_path / "set")], "missing code 1 of 2"),
        ([str(tmp_path / "url.png")], "url.png: not a Petit Computer QR code"),
        ([str(tmp_path / "nothing.png")], "nothing.png: no such file"),
        ([str(tmp_path / "gone")], "gone: no such file"),
        ([str(tmp_path / "empty")], "empty: no image files in this folder"),
    ]
    (tmp_path / "empty").mkdir()
    for images, message in cases:
        assert qrcli.main(["from-qr", *images, "-o", str(out)]) == 1
        err = capsys.readouterr().err
        assert err.startswith("petitcom-qr: ") and message in err and err.count("\n") == 1
        assert not out.exists()
    (tmp_path / "bad.PTC").write_bytes(b"PX01 not really")
    assert qrcli.main(["to-qr", str(tmp_path / "bad.PTC"), "-o", str(tmp_path / "o")]) == 1
    assert "too short" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_program_file_round_trip() -> None:
    text = b'PRINT "HELLO"\r'
    prg = bytes(8) + len(text).to_bytes(4, "little") + text + b"\0\0"
    file = PtcFile.of("HELLO", "PRG", prg)
    payloads = ptcqr.encode_set(file)
    assert payloads[0][36:48] == b"HELLO\0\0\0RPRG"
    assert ptcqr.decode_set(named(payloads)) == file


def test_a_photographed_code_still_reads(tmp_path: Path) -> None:
    # a set image as a camera might see it: smaller, slightly turned, JPEG-compressed
    file = col_file()
    (path,) = ptcqr.write_set(file, tmp_path)
    with Image.open(path) as image:
        grey = image.convert("L").resize((300, 300), Image.Resampling.BILINEAR)
    photo = grey.rotate(4, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=255)
    photo.save(tmp_path / "photo.jpg", quality=60)
    assert ptcqr.read_set([tmp_path / "photo.jpg"]) == file


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 700), st.integers(0, 255)), max_size=3))
def test_damaged_sets_fail_cleanly(cuts: list[tuple[int, int, int]]) -> None:
    payloads = ptcqr.encode_set(few_codes())
    for code, offset, value in cuts:
        if code < len(payloads):
            damaged = bytearray(payloads[code])
            if offset < len(damaged):
                damaged[offset] = value
            else:
                del damaged[len(damaged) // 2 :]
            payloads[code] = bytes(damaged)
    try:
        result = ptcqr.decode_set(named(payloads))
    except (qr.QRError, ptcfile.PtcFileError) as err:
        assert "\n" not in str(err)
    else:
        assert result == few_codes()


@pytest.mark.parametrize("kind", special_outputs.KINDS)
@pytest.mark.parametrize("command", ["from-qr", "encode"])
def test_cli_output_that_is_not_a_regular_file_is_written_into_or_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, command: str
) -> None:
    """Issue 18 item 6: `from-qr -o` given a device, FIFO or link replaced it."""
    source = tmp_path / "PAL.PTC"
    source.write_bytes(col_file().to_bytes())
    qrs = tmp_path / "qrs"
    assert qrcli.main(["to-qr", str(source), "-o", str(qrs)]) == 0
    capsys.readouterr()
    with special_outputs.made(kind, tmp_path) as target:
        if command == "from-qr":
            status = qrcli.main(["from-qr", str(qrs), "-o", str(target.path)])
        else:
            status = qrcli.main(["encode", "--hex", "00ff", "-o", str(target.path)])
        target.ended(status, capsys.readouterr().err)
        target.check(source.read_bytes() if command == "from-qr" else None)


@pytest.mark.parametrize("command", ["from-qr", "to-qr", "encode"])
def test_cli_refuses_an_empty_output_name(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: str,
) -> None:
    """``-o ""`` wrote into the current folder (issue 18 item 7)."""
    source = tmp_path / "PAL.PTC"
    source.write_bytes(col_file().to_bytes())
    monkeypatch.chdir(tmp_path)
    argv = {
        "from-qr": ["from-qr", str(source), "-o", ""],
        "to-qr": ["to-qr", str(source), "-o", ""],
        "encode": ["encode", "--hex", "00", "-o", ""],
    }[command]
    with pytest.raises(SystemExit) as exc:
        qrcli.main(argv)
    assert exc.value.code == 2 and "an empty path" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["PAL.PTC"]


def test_to_qr_says_plainly_that_its_output_is_no_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``-o FILE`` printed Python's "[Errno 17] File exists"."""
    source = tmp_path / "PAL.PTC"
    source.write_bytes(col_file().to_bytes())
    (tmp_path / "file").write_bytes(b"kept")
    for target, reason in (
        (tmp_path / "file", "not a folder"),
        (tmp_path / "file" / "sub", "Not a directory"),
    ):
        assert qrcli.main(["to-qr", str(source), "-o", str(target)]) == 1
        out, err = capsys.readouterr()
        assert out == "" and err == f"petitcom-qr: {target}: {reason}\n"
    assert (tmp_path / "file").read_bytes() == b"kept"
