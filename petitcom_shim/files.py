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


def read_file(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file ``path`` (links followed), at most ``limit`` of them.

    Raises:
        FileNotFoundError: there is no such file.
        FileRefused: not a regular file, unreadable, or more than ``limit`` bytes.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(Path(path), flags)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise FileRefused(f"cannot open it ({exc.strerror or exc})") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise FileRefused("not a regular file")
        data = bytearray()
        while len(data) <= limit:
            chunk = os.read(fd, min(1 << 16, limit + 1 - len(data)))
            if not chunk:
                return bytes(data)
            data += chunk
        raise FileRefused(f"larger than {limit:,} bytes")
    except FileRefused:
        raise
    except OSError as exc:
        raise FileRefused(f"cannot read it ({exc.strerror or exc})") from None
    finally:
        os.close(fd)
