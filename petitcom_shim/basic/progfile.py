"""Reading a program from whatever a person has: a .PTC file, a raw PRG, a QR set or text.

``petitcom run PROGRAM`` accepts four kinds of PROGRAM, told apart by content,
not by name:

* an SD-card ``.PTC`` file of type PRG (``PX01`` header, petitcom.md §8.2);
* a raw PRG, the internal file a QR set carries (``PETC0300RPRG`` ...);
* a QR set: a folder of images, or one image file, read with ``ptcqr``;
* UTF-8 text, where PTC-only characters are written as ``petitcom_shim.charset``
  maps them (``♥`` for 0xF1, ``ｱ`` or ``ア`` for 0xB1, ``★`` for 0x0A ...), with
  LF, CRLF or CR line ends (with CR ends, as in PTC, an LF is character 0x0A).

Anything else -- a damaged or truncated PRG, another file type, binary
garbage, text with a character PTC does not have -- is a :class:`ProgramError`
with one line saying what and where. The result is the program's text in the
PTC charset with CR line ends, ready for ``Interpreter.load``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from petitcom_shim import charset, files, ptcfile
from petitcom_shim.errors import PetitcomError

__all__ = ["Program", "ProgramError", "from_text", "name_from", "read_program", "source_text"]

_RAW_PRG = ptcfile.KINDS["PRG"].tag
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_LONE_CR = re.compile(r"\r(?!\n)")
_NOT_NAME = re.compile(r"[^A-Z0-9_]")


class ProgramError(PetitcomError):
    """A program file that cannot be read or is not a program; the message is one line."""


@dataclass(frozen=True)
class Program:
    """A program ready to run: its internal name (PRGNAME$), PTC text, and what it was read from.

    Attributes:
        name: 1-8 of ``A-Z0-9_``: the file's internal name, else made from the host name.
        text: the program in the PTC charset, CR line ends.
        origin: "PTC", "PRG", "QR" or "TEXT".
        package: the PRG's two package words (which resources ride along), or zeros.
    """

    name: str
    text: bytes
    origin: str
    package: tuple[int, int] = (0, 0)


def name_from(path: str | os.PathLike[str]) -> str:
    """An internal name made from a host file name: upper case, ``A-Z0-9_`` only, 8 at most."""
    stem = _NOT_NAME.sub("", Path(path).stem.upper())[:8]
    return stem or "PROGRAM"


def from_text(text: str, where: str = "<text>") -> bytes:
    """UTF-8 program text (already decoded) to PTC bytes with CR line ends.

    Lines end with LF or CRLF -- or, in a file that ends any line with a CR alone
    (PTC's own convention), with CR only, and an LF there is character 0x0A. A
    0x0A inside a line is otherwise written as its glyph ``★``.

    Raises:
        ProgramError: a control character (binary data) or a character PTC lacks,
            named with its line and column.
    """
    text = text.removeprefix("\ufeff")
    if _LONE_CR.search(text):
        # CR alone ends lines, as in PTC's own files: an LF is then character 0x0A,
        # written as its glyph so that to_ptc keeps it (docs/petitcom-decisions.md).
        text = text.replace("\n", charset.PTC_TO_UNICODE[0x0A])
    else:
        text = text.replace("\r\n", "\r").replace("\n", "\r")
    lines = text.split("\r")
    # each distinct character checked once: a program at PTC's size limit has 500,000
    unmappable = {char for char in set(text) if not charset.is_mappable(char)}
    for number, line in enumerate(lines, 1):
        if (bad := _CONTROL.search(line)) is not None:
            raise ProgramError(
                f"{where}: line {number}: control character U+{ord(bad.group()):04X} "
                "(binary data, not program text)"
            )
        for column, char in enumerate(line, 1) if unmappable else ():
            if char in unmappable:
                raise ProgramError(
                    f"{where}: line {number}, column {column}: {char!r} (U+{ord(char):04X}) "
                    "is not a Petit Computer character"
                )
    data = charset.to_ptc(text)
    if len(data) > ptcfile.MAX_PROGRAM_BYTES:
        raise ProgramError(
            f"{where}: {len(data)} bytes is longer than PTC's {ptcfile.MAX_PROGRAM_BYTES}"
        )
    return data


def source_text(text: bytes) -> str:
    """PTC program bytes as Unicode text with LF line ends (what ``petitcom list`` prints)."""
    return charset.from_ptc(text)


def _from_file(file: ptcfile.PtcFile, where: str, origin: str) -> Program:
    if file.kind.name != "PRG":
        raise ProgramError(f"{where}: is a {file.kind.name} file, not a program (PRG)")
    payload = file.payload
    return Program(file.name, ptcfile.prg_text(payload), origin, ptcfile.prg_package(payload))


def _refused(err: Exception, where: str) -> ProgramError:
    message = str(err)
    return ProgramError(message if message.startswith(where) else f"{where}: {message}")


def _read_qr_set(path: str | os.PathLike[str], where: str) -> Program:
    """A program from a QR set (a folder or an image of codes).

    The QR modules are imported here, not at the top: they bring in qrcode, zxing
    and PIL, a sixth of ``petitcom run``'s start-up, and only a QR set needs them.
    """
    from petitcom_shim import ptcqr, qr

    try:
        return _from_file(ptcqr.read_set([path]), where, "QR")
    except qr.QRError as err:
        raise _refused(err, where) from None


def read_program(path: str | os.PathLike[str]) -> Program:
    """Read PROGRAM as a .PTC file, raw PRG, QR set (folder or image) or UTF-8 text.

    Raises:
        ProgramError: missing, unreadable, special, damaged, not a program, or not text.
    """
    where = os.fspath(path)
    try:
        if Path(path).is_dir() or Path(path).suffix.lower() in files.IMAGE_SUFFIXES:
            return _read_qr_set(path, where)
        data = files.read_file(path, ptcfile.MAX_FILE_BYTES)
    except FileNotFoundError:
        raise ProgramError(f"{where}: no such file") from None
    except (OSError, ptcfile.PtcFileError) as err:
        raise _refused(err, where) from None
    try:
        if data.startswith(ptcfile.MAGIC):
            return _from_file(ptcfile.PtcFile.from_bytes(data, where), where, "PTC")
        if data.startswith(b"PETC"):
            if not data.startswith(_RAW_PRG):
                raise ProgramError(f"{where}: is a {data[9:12]!r} internal file, not a program")
            return _from_file(
                ptcfile.PtcFile.from_internal(name_from(path), data, where), where, "PRG"
            )
    except ptcfile.PtcFileError as err:
        raise ProgramError(str(err)) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ProgramError(
            f"{where}: byte {err.start} is not UTF-8 (not a .PTC file, a PRG or program text)"
        ) from None
    return Program(name_from(path), from_text(text, where), "TEXT")
