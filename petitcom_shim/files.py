"""Reading files a program is handed (settings, dropped images) without trusting them.

A path may name a FIFO nobody writes to, a link to ``/dev/zero``, a folder or a
huge file. :func:`read_file` opens without blocking, accepts only regular files
and reads at most ``limit`` bytes whatever size the file system reports, so a
strange file costs one clear error instead of a hang or all the memory.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path

#: File name endings of the images a QR code is read from (lower case).
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp", ".tif", ".tiff")


class FileRefused(OSError):
    """A file that cannot be read as data; the message is one line without the path."""


class NotRegularFile(FileRefused):
    """A folder, FIFO, device or socket where a file was expected.

    Attributes:
        is_dir: True when it is a folder (callers word that case their own way).
    """

    def __init__(self, message: str, *, is_dir: bool) -> None:
        super().__init__(message)
        self.is_dir = is_dir


class FileTooLarge(FileRefused):
    """A file over the limit.

    Attributes:
        size: the size the file system reported, or None when the file only
            grew past the limit while it was being read.
    """

    def __init__(self, message: str, *, size: int | None) -> None:
        super().__init__(message)
        self.size = size


def read_file(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file ``path`` (links followed), at most ``limit`` of them.

    Raises:
        FileNotFoundError: there is no such file.
        NotRegularFile: a folder, FIFO, device or socket (a :class:`FileRefused`).
        FileTooLarge: more than ``limit`` bytes, by its size or while read (a :class:`FileRefused`).
        FileRefused: it cannot be opened or read.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(Path(path), flags)
    except FileNotFoundError:
        raise
    except IsADirectoryError:  # where folders cannot be opened at all
        raise NotRegularFile("not a regular file", is_dir=True) from None
    except OSError as exc:
        raise FileRefused(f"cannot open it ({exc.strerror or exc})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFile("not a regular file", is_dir=stat.S_ISDIR(info.st_mode))
        if info.st_size > limit:  # refused without reading it
            raise FileTooLarge(f"larger than {limit:,} bytes", size=info.st_size)
        data = bytearray()
        while len(data) <= limit:
            chunk = os.read(fd, min(1 << 16, limit + 1 - len(data)))
            if not chunk:
                return bytes(data)
            data += chunk
        raise FileTooLarge(f"larger than {limit:,} bytes", size=None)
    except FileRefused:
        raise
    except OSError as exc:
        raise FileRefused(f"cannot read it ({exc.strerror or exc})") from None
    finally:
        os.close(fd)


def check_output(path: str | os.PathLike[str]) -> None:
    """Refuse to write over anything but a regular file (or nothing): never replace a FIFO,
    device, folder or socket, or a link to one.

    Raises:
        NotRegularFile: ``path`` exists and is not a regular file.
    """
    try:
        info = os.stat(Path(path))
    except FileNotFoundError:
        if os.path.islink(path):  # a dangling link: writing would replace the link
            raise NotRegularFile("a link to nothing", is_dir=False) from None
        return
    except OSError as exc:
        raise FileRefused(f"cannot look at it ({exc.strerror or exc})") from None
    if not stat.S_ISREG(info.st_mode):
        raise NotRegularFile("not a regular file", is_dir=stat.S_ISDIR(info.st_mode))


# ------------------------------------------------------------------------- writing


class OutputRefused(OSError):
    """An output path that is not written: a folder, a socket, a FIFO nobody reads, an
    empty name. The message is one line without the path (callers name it)."""


def check_output_path(path: str | os.PathLike[str]) -> None:
    """Refuse an output path the user named that :func:`write_output` would not write.

    This is the one rule for output files of ``royalnine``, ``petitcom`` and
    ``petitcom-qr`` (docs/petitcom-decisions.md "Output paths"): what a path
    names is never replaced unless it is a regular file the user may write.

    * ``-`` is standard output, for the commands that say so.
    * A new name is created, atomically, in a folder that exists.
    * A regular file, or a link to one, is replaced atomically (keeping its
      permissions; the link stays) -- unless it is read-only (no write bit).
    * An existing FIFO or character device (``/dev/null``, a terminal, a pipe)
      is written into, as a shell's ``>`` would; it is never replaced.
    * An empty name, a folder, a socket, a block device and a link to nothing
      (writing would create some other file than the one named) are refused.

    Checked up front by commands that run long before they write (``petitcom
    run --console``); :func:`write_output` checks again when it writes.

    Raises:
        OutputRefused: as above, one line without the path.
    """
    name = os.fspath(path)
    if name == "":
        raise OutputRefused("an empty file name")
    if name == "-":
        return
    try:
        mode = os.stat(name).st_mode
    except FileNotFoundError:
        if os.path.islink(name):
            raise OutputRefused("a link to nothing; not replacing it") from None
        folder = Path(name).absolute().parent
        if not folder.is_dir():
            raise OutputRefused(f"the folder {folder} does not exist") from None
        return
    except OSError as exc:
        raise OutputRefused(f"cannot look at it ({exc.strerror or exc})") from None
    if stat.S_ISREG(mode):
        if not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
            raise OutputRefused("a read-only file; not replacing it")
    elif stat.S_ISDIR(mode):
        raise OutputRefused("is a folder")
    elif not (stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)):
        raise OutputRefused("not a regular file, FIFO or character device; not replacing it")


def write_output(path: str | os.PathLike[str], data: bytes) -> None:
    """Write a program's output file without ever destroying what the path names.

    The rule is :func:`check_output_path`'s: ``-`` writes to standard output, a
    regular file (or a new name) is replaced atomically (:func:`write_atomic`),
    a FIFO or character device is written into, anything else is refused; a FIFO
    with no reader (which would block) is refused too.

    Raises:
        OutputRefused: as above.
        OSError: the file or its folder cannot be written.
    """
    check_output_path(path)
    name = os.fspath(path)
    if name == "-":
        import sys

        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    target = Path(os.path.realpath(name))  # through links: the link itself stays
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        write_atomic(target, data)
        return
    if stat.S_ISREG(mode):
        write_atomic(target, data, mode=stat.S_IMODE(mode))
    else:
        _write_into(target, data)


def stdout_closed(prog: str) -> None:
    """After a BrokenPipeError on standard output (``CMD | head -c 100``): point stdout at
    nothing, so the interpreter's last flush at exit does not fail again with a
    traceback, and say so in one line on stderr. Every command of the project
    (``royalnine``, ``petitcom``, ``petitcom-qr``) ends this way."""
    import sys

    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    with contextlib.suppress(OSError):
        print(f"{prog}: standard output was closed before all was written", file=sys.stderr)


def output_error(path: str | os.PathLike[str], exc: OSError) -> str:
    """The one-line reason an output could not be written, naming the path the user gave
    (not a temporary file's name)."""
    return f"{os.fspath(path) or repr('')}: {exc.strerror or exc}"


def _write_into(target: Path, data: bytes) -> None:
    """Write into an existing FIFO or device (never created, truncated or replaced)."""
    flags = os.O_WRONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(target, flags)
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a FIFO with nobody reading: writing would block
            raise OutputRefused("a FIFO with no reader") from None
        raise
    try:
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)  # the reader is there: wait for it as a pipe does
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def write_atomic(path: str | os.PathLike[str], data: bytes, *, mode: int | None = None) -> None:
    """Replace ``path`` so that it holds either the old or the new bytes, never a mix.

    The data is synced before the rename and the folder after it, so a power cut
    leaves the last complete state; a failure removes the temporary file. The new
    file gets ``mode`` (default: what a new file gets under the umask).

    Raises:
        OSError: the folder does not exist or cannot be written.
    """
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, _new_file_mode() if mode is None else mode)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    sync_folder(target.parent)


def _new_file_mode() -> int:
    umask = os.umask(0o22)
    os.umask(umask)
    return 0o666 & ~umask


def sync_folder(folder: str | os.PathLike[str]) -> None:
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
