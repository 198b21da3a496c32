"""Petit Computer's own file formats: the ``PX01`` SD-card file and its resource payloads.

A Petit Computer file (petitcom.md §8) is an *internal file* -- a 12-byte tag
``"PETC" + version + "R" + type`` followed by the payload -- and, on the SD
card, a 36-byte ``PX01`` header in front of it::

    0x00  4  "PX01"
    0x04  4  u32 LE  length of the internal file
    0x08  4  u32 LE  type id: PRG 0, MEM 1, GRP 2, CHR 3, SCR 4, COL 5 (or 0, see below)
    0x0C  8  internal name, [A-Z0-9_], NUL-padded
    0x14 16  MD5 of b"PETITCOM" + internal file
    0x24  …  internal file

The type-id field is accepted as files in the wild write it: the handheld
writes the ids above, while the PC tools that made many shared files write 0
for every type (PTC-EmkII's and sbc's ``txt_to_ptc.py``; the PTC wiki calls the
field "always zero"). Neither reference reads it: the tag decides the type, so
here 0 or the tag's own id is accepted and any other value is refused as
damage (docs/petitcom-decisions.md).

This module is pure (no pygame, no Machine): :class:`PtcFile` parses and
builds those bytes, checking every field, and the ``*_bytes``/``*_from_bytes``
pairs convert the four resource payloads (CHR, COL, SCR, GRP) to and from the
numpy arrays the shim keeps. ``Machine.load``/``Machine.save`` put the two
together; ``petitcom_shim.ptcqr`` turns a :class:`PtcFile` into a QR set.
"""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from petitcom_shim import files
from petitcom_shim.errors import PetitcomError

__all__ = [
    "HEADER_SIZE",
    "KINDS",
    "MAX_FILE_BYTES",
    "TAG_SIZE",
    "FileKind",
    "PtcFile",
    "PtcFileError",
    "check_name",
    "chr_bytes",
    "chr_from_bytes",
    "col_bytes",
    "col_from_bytes",
    "grp_bytes",
    "grp_from_bytes",
    "mem_bytes",
    "mem_from_bytes",
    "prg_package",
    "prg_payload",
    "prg_text",
    "read_file",
    "scr_bytes",
    "scr_from_bytes",
]

MAGIC = b"PX01"
#: Size of the SD-card header in front of the internal file.
HEADER_SIZE = 36
#: Size of the internal file's ``PETCvvvvRTTT`` tag.
TAG_SIZE = 12
#: Salt in front of the internal file in the header's MD5 (petitcom.md §8.2).
MD5_SALT = b"PETITCOM"
#: The largest file read at all: a 524288-byte program with all 45 packaged
#: resources is about 1.06 MB (petitcom.md §8.1), so 2 MiB leaves room and
#: still refuses a huge file before reading it.
MAX_FILE_BYTES = 2 * 1024 * 1024
#: PRG text is at most this long (petitcom.md §8.1).
MAX_PROGRAM_BYTES = 524288

_NAME = re.compile(rb"[A-Z0-9_]{1,8}")


class PtcFileError(PetitcomError):
    """A Petit Computer file is missing, malformed, or of the wrong type; the message says which."""


@dataclass(frozen=True)
class FileKind:
    """One resource type: its header type id, the version in its tag and its payload size.

    ``size`` is None for PRG, whose length depends on the program.
    """

    name: str
    type_id: int
    version: str
    size: int | None

    @property
    def tag(self) -> bytes:
        """The internal file's 12-byte tag, e.g. ``b"PETC0100RCHR"``."""
        return f"PETC{self.version}R{self.name}".encode("ascii")


#: The six file types (petitcom.md §8.1, §8.2), by name.
KINDS: dict[str, FileKind] = {
    k.name: k
    for k in (
        FileKind("PRG", 0, "0300", None),
        FileKind("MEM", 1, "0200", 516),
        FileKind("GRP", 2, "0100", 49152),
        FileKind("CHR", 3, "0100", 8192),
        FileKind("SCR", 4, "0100", 8192),
        FileKind("COL", 5, "0100", 512),
    )
}
_BY_TAG = {k.tag: k for k in KINDS.values()}


def check_name(name: str) -> str:
    """Validate an internal file name: 1-8 of ``A-Z``, ``0-9``, ``_`` (lower case is upper-cased).

    Raises:
        PtcFileError: empty, too long, or another character.
    """
    upper = name.upper()
    if not upper.isascii() or _NAME.fullmatch(upper.encode("ascii")) is None:
        raise PtcFileError(f"file name {name!r} must be 1-8 characters of A-Z, 0-9 and _")
    return upper


def _u32(data: bytes, offset: int) -> int:
    return int.from_bytes(data[offset : offset + 4], "little")


def _parse_name(raw: bytes, where: str) -> str:
    text = raw.rstrip(b"\0")
    if _NAME.fullmatch(text) is None:
        raise PtcFileError(f"{where}: internal name {raw!r} is not 1-8 of A-Z, 0-9, _")
    return text.decode("ascii")


@dataclass(frozen=True)
class PtcFile:
    """One Petit Computer file: its internal name, type and payload (the bytes after the tag).

    Build one with :meth:`of` (checks the payload), :meth:`from_bytes` (an SD-card
    file) or :meth:`from_internal` (what a QR set carries).
    """

    name: str
    kind: FileKind
    payload: bytes

    @classmethod
    def of(cls, name: str, kind: str, payload: bytes, where: str = "<data>") -> PtcFile:
        """A file of type ``kind`` ("CHR", "COL", ...) named ``name``, after checking the payload.

        Raises:
            PtcFileError: unknown type, bad name, or a payload of the wrong size.
        """
        file_kind = KINDS.get(kind)
        if file_kind is None:
            raise PtcFileError(f"{where}: unknown file type {kind!r}")
        _check_payload(file_kind, payload, where)
        return cls(check_name(name), file_kind, bytes(payload))

    @property
    def internal(self) -> bytes:
        """The internal file: tag plus payload (what the header's MD5 and a QR set cover)."""
        return self.kind.tag + self.payload

    def to_bytes(self) -> bytes:
        """The SD-card file: the 36-byte ``PX01`` header, then the internal file."""
        internal = self.internal
        return (
            MAGIC
            + len(internal).to_bytes(4, "little")
            + self.kind.type_id.to_bytes(4, "little")
            + self.name.encode("ascii").ljust(8, b"\0")
            + _md5(MD5_SALT + internal)
            + internal
        )

    @classmethod
    def from_internal(cls, name: str, internal: bytes, where: str = "<data>") -> PtcFile:
        """Parse an internal file (``PETC…``) and give it ``name``.

        Raises:
            PtcFileError: an unknown or malformed tag, or a payload of the wrong size.
        """
        tag = internal[:TAG_SIZE]
        kind = _BY_TAG.get(tag)
        if kind is None:
            raise PtcFileError(f"{where}: not a Petit Computer file (tag {tag!r})")
        return cls.of(name, kind.name, internal[TAG_SIZE:], where)

    @classmethod
    def from_bytes(cls, data: bytes, where: str = "<data>") -> PtcFile:
        """Parse an SD-card file, checking magic, length, type id, name, MD5 and payload size.

        Raises:
            PtcFileError: the first thing found wrong, in one line starting with ``where``.
        """
        if len(data) > MAX_FILE_BYTES:
            raise PtcFileError(f"{where}: {len(data)} bytes is larger than any Petit Computer file")
        if len(data) < HEADER_SIZE + TAG_SIZE:
            raise PtcFileError(f"{where}: {len(data)} bytes is too short for a Petit Computer file")
        if data[:4] != MAGIC:
            raise PtcFileError(f"{where}: not a Petit Computer file (no PX01 at the start)")
        length = _u32(data, 4)
        if length != len(data) - HEADER_SIZE:
            raise PtcFileError(
                f"{where}: header says {length} bytes follow it, the file has "
                f"{len(data) - HEADER_SIZE} (truncated or padded)"
            )
        type_id = _u32(data, 8)
        internal = data[HEADER_SIZE:]
        kind = _BY_TAG.get(internal[:TAG_SIZE])
        if kind is None:
            raise PtcFileError(f"{where}: not a Petit Computer file (tag {internal[:TAG_SIZE]!r})")
        if type_id not in (0, kind.type_id):
            raise PtcFileError(
                f"{where}: header type id {type_id} is neither 0 nor {kind.name}'s "
                f"{kind.type_id} (damaged header)"
            )
        name = _parse_name(data[12:20], where)
        if _md5(MD5_SALT + internal) != data[20:36]:
            raise PtcFileError(f"{where}: MD5 checksum does not match the contents")
        return cls.of(name, kind.name, internal[TAG_SIZE:], where)


def _md5(data: bytes) -> bytes:
    """The MD5 digest of ``data`` (a PTC header's checksum).

    ``hashlib`` is imported here, by the first file written or read: it loads the
    OpenSSL library, a few milliseconds of a start-up that reads no PTC file.
    """
    import hashlib

    return hashlib.md5(data).digest()


def _check_payload(kind: FileKind, payload: bytes, where: str) -> None:
    if kind.size is not None:
        if len(payload) != kind.size:
            raise PtcFileError(
                f"{where}: a {kind.name} file holds {kind.size} bytes of data, this one "
                f"{len(payload)}"
            )
        return
    # PRG: two package words and the program length, then the text padded to 4.
    if len(payload) < 12:
        raise PtcFileError(f"{where}: PRG data is {len(payload)} bytes, too short")
    text = _u32(payload, 8)
    if text > MAX_PROGRAM_BYTES or 12 + text > len(payload):
        raise PtcFileError(f"{where}: PRG program length {text} does not fit the file")


def read_file(path: str | os.PathLike[str]) -> PtcFile:
    """Read and check an SD-card ``.PTC`` file, reading at most :data:`MAX_FILE_BYTES`.

    Raises:
        PtcFileError: missing, not a regular file, unreadable, too large, or malformed.
    """
    where = os.fsdecode(path)
    try:
        data = files.read_file(path, MAX_FILE_BYTES)
    except FileNotFoundError:
        raise PtcFileError(f"{where}: no such file") from None
    except OSError as err:  # files.FileRefused: a FIFO, a device, a folder, too large ...
        raise PtcFileError(f"{where}: {err}") from None
    return PtcFile.from_bytes(data, where)


# ------------------------------------------------------------------ resource payloads


def chr_bytes(tiles: npt.NDArray[np.uint8]) -> bytes:
    """A CHR bank: 256 tiles of 8x8 pixels 0-15 as 8192 bytes, low nibble = left pixel."""
    t = np.asarray(tiles, dtype=np.uint8).reshape(256, 8, 4, 2)
    return ((t[..., 0] & 0xF) | (t[..., 1] & 0xF) << 4).astype(np.uint8).tobytes()


def chr_from_bytes(data: bytes) -> npt.NDArray[np.uint8]:
    """Inverse of :func:`chr_bytes`: (256, 8, 8) pixel values 0-15."""
    packed = np.frombuffer(data, dtype=np.uint8).reshape(256, 8, 4)
    return np.stack([packed & 0xF, packed >> 4], axis=-1).reshape(256, 8, 8)


def col_bytes(words: npt.NDArray[np.uint16]) -> bytes:
    """A COL resource: 256 colour words, little-endian u16 each (512 bytes)."""
    return np.asarray(words, dtype="<u2").reshape(256).tobytes()


def col_from_bytes(data: bytes) -> npt.NDArray[np.uint16]:
    """Inverse of :func:`col_bytes`."""
    return np.frombuffer(data, dtype="<u2").astype(np.uint16)


def scr_bytes(tile_map: npt.NDArray[np.uint16]) -> bytes:
    """An SCR resource from a 64x64 map indexed ``[y, x]``.

    Stored as four 32x32 blocks in the order top-left, top-right, bottom-left,
    bottom-right, each row-major, one little-endian u16 tile word per cell.
    """
    m = np.asarray(tile_map, dtype=np.uint16).reshape(2, 32, 2, 32)  # [by, y, bx, x]
    return m.transpose(0, 2, 1, 3).astype("<u2").tobytes()


def scr_from_bytes(data: bytes) -> npt.NDArray[np.uint16]:
    """Inverse of :func:`scr_bytes`: the (64, 64) map indexed ``[y, x]``."""
    blocks = np.frombuffer(data, dtype="<u2").reshape(2, 2, 32, 32)  # [by, bx, y, x]
    return blocks.transpose(0, 2, 1, 3).reshape(64, 64).astype(np.uint16)


def grp_bytes(pixels: npt.NDArray[np.uint8]) -> bytes:
    """A GRP page from (192, 256) pixels.

    Stored as 64x64-pixel blocks (4 across, 3 down), each of 8x8 tiles row by
    row, each tile 8 rows of 8 bytes: ``px + 8*py + 64*tx + 512*ty + 4096*bx +
    16384*by``.
    """
    p = np.asarray(pixels, dtype=np.uint8).reshape(3, 8, 8, 4, 8, 8)  # [by, ty, py, bx, tx, px]
    return p.transpose(0, 3, 1, 4, 2, 5).tobytes()


def grp_from_bytes(data: bytes) -> npt.NDArray[np.uint8]:
    """Inverse of :func:`grp_bytes`: (192, 256) pixels."""
    p = np.frombuffer(data, dtype=np.uint8).reshape(3, 4, 8, 8, 8, 8)  # [by, bx, ty, tx, py, px]
    return p.transpose(0, 2, 4, 1, 3, 5).reshape(192, 256).copy()


# ------------------------------------------------------------------ PRG and MEM payloads


def prg_payload(text: bytes, package: tuple[int, int] = (0, 0)) -> bytes:
    """A PRG payload: package words (high, low), the text's length, the text padded to 4 bytes.

    ``text`` is PTC-charset bytes with CR line ends (petitcom.md §8.1).

    Raises:
        PtcFileError: the text is longer than PTC's 524288 bytes.
    """
    if len(text) > MAX_PROGRAM_BYTES:
        raise PtcFileError(
            f"a program holds at most {MAX_PROGRAM_BYTES} bytes, this one {len(text)}"
        )
    padded = bytes(text) + b"\0" * (-len(text) % 4)
    high, low = package
    return (
        high.to_bytes(4, "little") + low.to_bytes(4, "little") + len(text).to_bytes(4, "little")
    ) + padded


def prg_text(payload: bytes) -> bytes:
    """The program text of a PRG payload (checked by :meth:`PtcFile.of`), without padding."""
    return bytes(payload[12 : 12 + _u32(payload, 8)])


def prg_package(payload: bytes) -> tuple[int, int]:
    """The two package words (high, low) of a PRG payload: which resources ride along."""
    return _u32(payload, 0), _u32(payload, 4)


#: MEM$ holds at most this many characters (petitcom.md §8.1).
MEM_CHARS = 256


def _mem_unit(code: int) -> int:
    """The UTF-16 unit a MEM file stores for PTC code ``code`` ([SBC] ``to_wide``, [AJC] table).

    Printable ASCII is stored full width (with curly quotes for ``"`` and ``'``),
    half-width katakana as full-width katakana (NFKC, except that the prolonged
    sound mark stays U+FF70 and the voicing marks are the spacing U+309B/U+309C);
    every other code, the space included, is stored as itself.
    """
    if code == 0x22:
        return 0x201D
    if code == 0x27:
        return 0x2019
    if 0x21 <= code <= 0x7F:
        return 0xFF00 | (code - 0x20)
    if 0xA1 <= code <= 0xDF:
        special = {0xB0: 0xFF70, 0xDE: 0x309B, 0xDF: 0x309C}
        if code in special:
            return special[code]
        return ord(unicodedata.normalize("NFKC", chr(0xFF61 + code - 0xA1)))
    return code


_MEM_UNITS = tuple(_mem_unit(c) for c in range(256))
_MEM_CODES = {unit: code for code, unit in enumerate(_MEM_UNITS)}


def mem_bytes(text: bytes) -> bytes:
    """A MEM payload for MEM$ = ``text`` (PTC codes): 256 UTF-16LE units, then the length.

    Raises:
        PtcFileError: more than 256 characters.
    """
    if len(text) > MEM_CHARS:
        raise PtcFileError(f"MEM$ holds at most {MEM_CHARS} characters, not {len(text)}")
    units = b"".join(_MEM_UNITS[c].to_bytes(2, "little") for c in text)
    return units.ljust(2 * MEM_CHARS, b"\0") + len(text).to_bytes(4, "little")


def mem_from_bytes(payload: bytes, where: str = "<data>") -> bytes:
    """Inverse of :func:`mem_bytes`: the PTC codes of the MEM$ a MEM payload holds.

    Half-width ASCII units (as some PC tools write) are read as themselves.

    Raises:
        PtcFileError: a length over 256, or a unit no PTC character is stored as.
    """
    length = _u32(payload, 2 * MEM_CHARS)
    if length > MEM_CHARS:
        raise PtcFileError(f"{where}: MEM length {length} is over {MEM_CHARS}")
    out = bytearray()
    for i in range(length):
        unit = int.from_bytes(payload[2 * i : 2 * i + 2], "little")
        code = _MEM_CODES.get(unit, unit if 0x20 <= unit <= 0x7E else None)
        if code is None:
            raise PtcFileError(f"{where}: MEM character {i + 1} (U+{unit:04X}) is not a PTC one")
        out.append(code)
    return bytes(out)
