"""Reading and writing the game's small data files so that no file can stop the game.

A data file may be anything by the time it is read: damaged JSON, JSON nested a
thousand deep, a link to ``/dev/zero``, a FIFO nobody writes to, a folder. The
readers here open only regular files, never block on opening, read at most a
fixed number of bytes (the size the file system reports is not trusted) and
refuse deep nesting, each with a one-line :class:`UnreadableFile`. The writer
replaces a file atomically and makes the rename itself durable, and
:func:`clean_temp_files` removes what an interrupted write left behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

MAX_DEPTH = 32
"""No data file of ours nests deeper; anything deeper is refused before it can recurse."""
TEMP_PREFIX, TEMP_SUFFIX = ".", ".tmp"


class UnreadableFile(ValueError):
    """A data file that cannot be used: not a regular file, too large, not text, not JSON,
    nested too deep. The message is one line and does not name the file (callers do)."""


class CannotRead(UnreadableFile):
    """The file may be fine but could not be opened or read (no permission, an I/O error):
    callers that would set a damaged file aside leave this one alone."""


def read_capped(path: Path, limit: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    Raises:
        FileNotFoundError: there is no such file (callers treat that as "no data yet").
        UnreadableFile: it is not a regular file (a FIFO, a device, a folder; links are
            followed and judged by what they point to), it cannot be read, or it holds
            more than ``limit`` bytes.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise CannotRead(f"cannot open ({exc.strerror or exc})") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise UnreadableFile(f"not a regular file ({_kind(mode)})")
        chunks: list[bytes] = []
        got = 0
        while got <= limit:
            chunk = os.read(fd, min(65536, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > limit:
            raise UnreadableFile(f"too large (over {limit:,} bytes)")
        return b"".join(chunks)
    except OSError as exc:
        raise CannotRead(f"cannot read ({exc.strerror or exc})") from None
    finally:
        os.close(fd)


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


def parse_json(data: bytes | str, *, max_depth: int = MAX_DEPTH) -> Any:
    """Parse JSON text from a file; raises :class:`UnreadableFile` for anything else.

    Text that is not UTF-8, is not JSON, or nests deeper than ``max_depth`` is
    refused with one line, so no loader ever meets a RecursionError.
    """
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError:
        raise UnreadableFile("not UTF-8 text") from None
    if _depth_exceeds(text, max_depth):
        raise UnreadableFile(f"nested deeper than {max_depth} levels")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else "not JSON"
        raise UnreadableFile(f"bad JSON ({reason[:80]})") from None


def _depth_exceeds(text: str, limit: int) -> bool:
    """Whether brackets outside strings nest deeper than ``limit`` (a linear scan)."""
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def version_is(doc: dict[str, Any], wanted: int) -> bool:
    """Whether ``doc["version"]`` is exactly the whole number ``wanted``.

    Not ``doc.get("version") == wanted``: in Python JSON's ``true`` equals 1, and so
    does ``1.0``; neither is a version this program wrote.
    """
    value = doc.get("version")
    return type(value) is int and value == wanted


def load_json(path: Path, limit: int) -> Any:
    """:func:`read_capped` then :func:`parse_json`: the document, or one-line refusal."""
    return parse_json(read_capped(path, limit))


def write_atomic(path: Path, text: str, *, durable: bool = True) -> None:
    """Write ``text`` so that ``path`` holds either the old or the new content, never a mix.

    The data is synced before the rename and the folder after it, so a power cut
    leaves the last complete state; a failure removes the temporary file. With
    ``durable=False`` nothing is synced: the rename still makes the write whole for
    every reader and survives the writer being killed, but a power cut may undo it
    (for frequent small updates, such as the kiosk's touch count, where a sync each
    time would cost more than the update is worth).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(
        prefix=f"{TEMP_PREFIX}{path.name}.", suffix=TEMP_SUFFIX, dir=path.parent
    )
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    if durable:
        _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (a no-op where folders cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def is_temp_file(path: Path) -> bool:
    """Whether ``path`` is named like a temporary file of :func:`write_atomic`."""
    name = path.name
    return name.startswith(TEMP_PREFIX) and name.endswith(TEMP_SUFFIX) and name.count(".") >= 3


def clean_temp_files(folder: Path, *, depth: int = 2) -> list[Path]:
    """Remove what interrupted writes left in ``folder`` and its subfolders; returns them.

    Only regular files named like :func:`write_atomic`'s temporary files are
    removed; anything unreadable is skipped, so this never fails.
    """
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        try:
            if entry.is_dir(follow_symlinks=False):
                if depth > 0:
                    removed += clean_temp_files(Path(entry.path), depth=depth - 1)
            elif entry.is_file(follow_symlinks=False) and is_temp_file(Path(entry.path)):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue
    return removed
