"""Reading files a program is handed (settings, dropped images) without trusting them.

A path may name a FIFO nobody writes to, a link to ``/dev/zero``, a folder or a
huge file. :func:`read_file` opens without blocking, accepts only regular files
and reads at most ``limit`` bytes whatever size the file system reports, so a
strange file costs one clear error instead of a hang or all the memory.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


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
