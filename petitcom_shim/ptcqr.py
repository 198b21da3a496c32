"""Petit Computer QR sets: a .PTC file as a numbered series of QR codes, and back.

Petit Computer (v2) reads a file from a *set* of QR codes (petitcom.md §8.3).
The file is first made into one *stream*::

    8   internal name, NUL-padded
    4   type tag without "PETC0n00": b"RPRG", b"RCHR", ...
    4   u32 LE  length of the zlib data
    4   u32 LE  length of the internal file
    …   zlib (RFC 1950) of the internal file (b"PETC…"; the PX01 header is not sent)

and the stream is cut into 630-byte segments, each sent in one QR code of
version 20 at error correction M (666 bytes in byte mode) behind a 36-byte
header::

    0   2   b"PT"
    2   1   code number, 1-based
    3   1   number of codes in the set
    4  16   MD5 of this code's segment
    20 16   MD5 of the whole stream
    36  …   segment

:func:`encode_set` and :func:`decode_set` are the pure steps (file <-> code
payloads); :func:`write_set` and :func:`read_set` add the images through
``petitcom_shim.qr``. Reading accepts the codes in any order (and the same
code twice) and names exactly what is wrong with a set: which numbers are
missing, which checksum fails, which code belongs to another set, which is not
a Petit Computer code at all.
"""

from __future__ import annotations

import hashlib
import os
import re
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from petitcom_shim import files, ptcfile, qr

__all__ = [
    "CHUNK_HEADER",
    "MAX_CODES",
    "QR_VERSION",
    "SEGMENT",
    "ChecksumMismatch",
    "Chunk",
    "ForeignCode",
    "MissingCodes",
    "MixedSets",
    "QRSetError",
    "decode_set",
    "encode_set",
    "parse_chunk",
    "read_set",
    "set_stream",
    "write_set",
]

#: QR version of every code of a set, as Petit Computer's own generator (97x97 modules).
QR_VERSION = 20
#: Bytes of one version-20 code at level M in byte mode.
CODE_BYTES = 666
#: Header in front of each segment.
CHUNK_HEADER = 36
#: Stream bytes per code.
SEGMENT = CODE_BYTES - CHUNK_HEADER
#: Code number and count are one byte each.
MAX_CODES = 255
#: Pixels per module and quiet zone (modules) of written images: a 420-pixel
#: square, sharp on any monitor for the DSi camera to read.
MODULE_PX = 4
BORDER = qr.QUIET_ZONE
#: At most this many images are read for one set (duplicates allowed, but bounded).
MAX_IMAGES = 2 * MAX_CODES
_STREAM_HEADER = 20


class QRSetError(qr.QRError):
    """A QR set cannot be made into a file; the subclass says why."""


class ForeignCode(QRSetError):
    """A QR code that is not part of any Petit Computer QR set."""


class MissingCodes(QRSetError):
    """Some numbered codes of the set were not given."""


class MixedSets(QRSetError):
    """Codes of two different sets (or two different codes with one number) were given."""


class ChecksumMismatch(QRSetError):
    """A segment or the whole stream does not match its MD5, or the stream is malformed."""


@dataclass(frozen=True)
class Chunk:
    """One code of a set: its number (1-based), the set size, both checksums and the segment."""

    index: int
    total: int
    segment_md5: bytes
    stream_md5: bytes
    segment: bytes

    def to_bytes(self) -> bytes:
        """The code's payload: ``PT``, number, count, two MD5s, segment."""
        return (
            b"PT"
            + bytes((self.index, self.total))
            + self.segment_md5
            + self.stream_md5
            + self.segment
        )


def set_stream(file: ptcfile.PtcFile) -> bytes:
    """The stream a set carries: name, type tag, both lengths, zlib of the internal file."""
    internal = file.internal
    packed = zlib.compress(internal, 9)
    return (
        file.name.encode("ascii").ljust(8, b"\0")
        + internal[8 : ptcfile.TAG_SIZE]
        + len(packed).to_bytes(4, "little")
        + len(internal).to_bytes(4, "little")
        + packed
    )


def encode_set(file: ptcfile.PtcFile) -> list[bytes]:
    """The payloads of the QR codes of ``file``'s set, in order (code 1 first).

    Raises:
        QRSetError: the file needs more than 255 codes.
    """
    stream = set_stream(file)
    total = -(-len(stream) // SEGMENT)
    if total > MAX_CODES:
        raise QRSetError(f"{file.name}: {total} QR codes needed, a set holds at most {MAX_CODES}")
    digest = hashlib.md5(stream).digest()
    chunks = []
    for i in range(total):
        segment = stream[i * SEGMENT : (i + 1) * SEGMENT]
        chunk = Chunk(i + 1, total, hashlib.md5(segment).digest(), digest, segment)
        chunks.append(chunk.to_bytes())
    return chunks


def parse_chunk(payload: bytes, where: str = "<code>") -> Chunk:
    """Split one code's payload into its fields, checking the header and the segment's MD5.

    Raises:
        ForeignCode: no ``PT`` header, a bad number/count, or an oversized segment.
        ChecksumMismatch: the segment does not match its MD5.
    """
    if len(payload) <= CHUNK_HEADER or payload[:2] != b"PT":
        raise ForeignCode(f"{where}: not a Petit Computer QR code (no PT header)")
    index, total = payload[2], payload[3]
    if not 1 <= index <= total:
        raise ForeignCode(f"{where}: not a Petit Computer QR code (code {index} of {total})")
    segment = payload[CHUNK_HEADER:]
    if len(segment) > SEGMENT:
        raise ForeignCode(f"{where}: not a Petit Computer QR code ({len(segment)}-byte segment)")
    chunk = Chunk(index, total, payload[4:20], payload[20:36], segment)
    if hashlib.md5(segment).digest() != chunk.segment_md5:
        raise ChecksumMismatch(f"{where}: code {index}/{total}: its data does not match its MD5")
    return chunk


def _ranges(numbers: list[int]) -> str:
    parts: list[str] = []
    start = prev = numbers[0]
    for n in [*numbers[1:], -1]:
        if n == prev + 1:
            prev = n
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = n
    return ", ".join(parts)


def decode_set(payloads: Iterable[tuple[str, bytes]]) -> ptcfile.PtcFile:
    """Rebuild the file from the payloads of its codes, given in any order.

    Args:
        payloads: ``(where, payload)`` pairs; ``where`` (a file name) starts
            every error message about that code.

    Raises:
        ForeignCode: a payload is not a Petit Computer code.
        MixedSets: codes of different sets, or two different codes with one number.
        MissingCodes: numbers of the set are missing (the message lists them).
        ChecksumMismatch: a segment or the joined stream fails its MD5, or the
            stream does not inflate to a good file.
        ptcfile.PtcFileError: the inflated file is not a valid Petit Computer file.
    """
    first: tuple[str, Chunk] | None = None
    found: dict[int, tuple[str, Chunk]] = {}
    for where, payload in payloads:
        chunk = parse_chunk(payload, where)
        if first is None:
            first = (where, chunk)
        elif (chunk.total, chunk.stream_md5) != (first[1].total, first[1].stream_md5):
            raise MixedSets(
                f"{where}: code {chunk.index}/{chunk.total} is from another set than "
                f"{first[0]} (code {first[1].index}/{first[1].total})"
            )
        seen = found.get(chunk.index)
        if seen is not None and seen[1] != chunk:
            raise MixedSets(f"{where} and {seen[0]}: two different codes numbered {chunk.index}")
        found[chunk.index] = (where, chunk)
    if first is None:
        raise MissingCodes("no QR codes given")
    total = first[1].total
    # Code 1 starts with the file name: name the set when we have it.
    label = f"set {_stream_name(found[1][1].segment)}: " if 1 in found else ""
    missing = [n for n in range(1, total + 1) if n not in found]
    if missing:
        raise MissingCodes(
            f"{label}missing code{'s' * (len(missing) > 1)} {_ranges(missing)} of {total}"
        )
    stream = b"".join(found[n][1].segment for n in range(1, total + 1))
    if hashlib.md5(stream).digest() != first[1].stream_md5:
        raise ChecksumMismatch(f"{label}the {total} codes joined do not match the set's MD5")
    return _file_from_stream(stream)


def _stream_name(stream: bytes) -> str:
    """The file name at the start of a stream, printable whatever the bytes are."""
    return stream[:8].rstrip(b"\0").decode("ascii", "replace")


def _file_from_stream(stream: bytes) -> ptcfile.PtcFile:
    if len(stream) < _STREAM_HEADER:
        raise ChecksumMismatch(f"the set's data is {len(stream)} bytes, too short for a file")
    name = _stream_name(stream)
    packed_len = int.from_bytes(stream[12:16], "little")
    size = int.from_bytes(stream[16:20], "little")
    packed = stream[_STREAM_HEADER:]
    if packed_len != len(packed):
        raise ChecksumMismatch(
            f"{name}: the set says {packed_len} compressed bytes, it carries {len(packed)}"
        )
    if size > ptcfile.MAX_FILE_BYTES:
        raise ChecksumMismatch(f"{name}: the set claims a {size}-byte file, larger than any PTC")
    inflater = zlib.decompressobj()
    try:
        internal = inflater.decompress(packed, size + 1)
    except zlib.error as err:
        raise ChecksumMismatch(f"{name}: the compressed data is corrupt ({err})") from None
    if len(internal) != size or not inflater.eof or inflater.unused_data:
        raise ChecksumMismatch(f"{name}: the data does not inflate to the {size} bytes announced")
    if internal[8 : ptcfile.TAG_SIZE] != stream[8:12]:
        raise ChecksumMismatch(f"{name}: the type {stream[8:12]!r} does not match the file inside")
    return ptcfile.PtcFile.from_internal(name, internal, where=f"QR set {name}")


# ------------------------------------------------------------------------- images


def write_set(
    file: ptcfile.PtcFile, folder: str | os.PathLike[str], stem: str | None = None
) -> list[Path]:
    """Write ``file``'s set as PNGs ``<stem>-01of03.png`` ... into ``folder`` (made if needed).

    Every code is QR version 20, level M, byte mode, as Petit Computer's own sets,
    4 pixels per module with a 4-module quiet zone. Each PNG is written atomically,
    after every name was checked (:func:`petitcom_shim.files.check_output_path`: a
    read-only image or a link to nothing refuses the set before anything is
    written); then the images of an earlier set with the same stem in ``folder``
    are removed.

    Returns:
        The image paths, code 1 first.

    Raises:
        QRSetError: the file needs more than 255 codes.
        OSError: the folder cannot be made or written (files.OutputRefused: an
            image's name breaks the output rule).
    """
    payloads = encode_set(file)
    Path(folder).mkdir(parents=True, exist_ok=True)
    width = max(2, len(str(len(payloads))))
    base = stem if stem is not None else file.name
    paths = [
        Path(folder) / f"{base}-{i:0{width}d}of{len(payloads):0{width}d}.png"
        for i in range(1, len(payloads) + 1)
    ]
    for path in paths:  # the one output rule, for every image before the first is written
        try:
            files.check_output_path(path)
        except files.OutputRefused as err:
            raise files.OutputRefused(f"{path.name}: {err}") from None
    for path, payload in zip(paths, payloads, strict=True):
        png = qr.png_bytes(payload, module_px=MODULE_PX, border=BORDER, version=QR_VERSION)
        files.write_output(path, png)
    # An earlier set of the same name (say 9 codes, now 2) would mix with the new
    # one when the folder is read back, so its leftover images go.
    stale = re.compile(rf"{re.escape(base)}-\d+of\d+\.png")
    for old in Path(folder).iterdir():
        if stale.fullmatch(old.name) and old not in paths:
            old.unlink()
    return paths


def _image_paths(sources: Sequence[str | os.PathLike[str]]) -> list[Path]:
    paths: list[Path] = []
    for source in sources:
        path = Path(source)
        if path.is_dir():
            found = sorted(p for p in path.iterdir() if p.suffix.lower() in qr.IMAGE_SUFFIXES)
            if not found:
                raise MissingCodes(f"{path}: no image files in this folder")
            paths.extend(found)
        else:
            paths.append(path)
        if len(paths) > MAX_IMAGES:
            raise QRSetError(f"more than {MAX_IMAGES} images given; a set has at most {MAX_CODES}")
    return paths


def read_set(sources: Sequence[str | os.PathLike[str]]) -> ptcfile.PtcFile:
    """Read a set from image files and folders (every image in a folder), in any order.

    Raises:
        qr.QRError: an image cannot be read or holds no code (``qr``'s errors), or
            any :class:`QRSetError` of :func:`decode_set`.
        ptcfile.PtcFileError: the set holds a malformed file.
    """
    paths = _image_paths(sources)
    return decode_set((str(p), qr.decode_image(p)) for p in paths)
