"""Output paths that are not regular files, for the tests of every command that writes one.

Issue 18 item 6: as root, ``royalnine remote export /dev/null`` replaced the
machine's /dev/null with a regular file. Each command that takes an output path
is run on every :data:`KINDS` target; :meth:`Target.check` then says whether the
command did the right thing: wrote into a FIFO or device that exists, replaced the
file behind a link (the link stays), refused a folder or a FIFO nobody reads,
and never replaced any of them.

No test writes into the machine's own devices: a device is a private copy of
/dev/null made with mknod (skipped where that is not allowed), and a link to
/dev/null is checked to still point at it.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

KINDS = ("fifo", "fifo_no_reader", "device", "link_to_device", "link_to_file", "folder")
"""Every kind of target; the ones written into vs refused are in :data:`REFUSED`."""
REFUSED = frozenset({"fifo_no_reader", "folder"})


@dataclass
class Target:
    """One output target and what it was before the command ran."""

    kind: str
    path: Path
    _reader: int | None = None
    _link_to: Path | None = None
    received: bytes = field(default=b"")

    @property
    def refused(self) -> bool:
        """The command must refuse this target (one line, non-zero exit)."""
        return self.kind in REFUSED

    def check(self, expected: bytes | None = None, *, refused: bool | None = None) -> None:
        """The target is still what it was; written targets got ``expected`` (or something).
        ``refused``: the command refused it (default: :attr:`refused`)."""
        info = os.lstat(self.path)
        if self.kind.startswith("fifo"):
            assert stat.S_ISFIFO(info.st_mode), "the FIFO was replaced"
        elif self.kind == "device":
            assert stat.S_ISCHR(info.st_mode), "the device was replaced"
        elif self.kind == "folder":
            assert stat.S_ISDIR(info.st_mode) and list(self.path.iterdir()) == []
        else:
            assert stat.S_ISLNK(info.st_mode), "the link was replaced"
            assert self._link_to is not None and Path(os.readlink(self.path)) == self._link_to
            if self.kind == "link_to_device":
                assert stat.S_ISCHR(os.stat(self.path).st_mode)
            elif self._link_to.read_bytes() != b"old":
                self.received = self._link_to.read_bytes()
        if self._reader is not None:
            chunks = []
            while True:
                try:
                    chunk = os.read(self._reader, 1 << 16)
                except BlockingIOError:
                    break
                if not chunk:
                    break
                chunks.append(chunk)
            os.close(self._reader)
            self._reader = None
            self.received = b"".join(chunks)
        written = not (self.refused if refused is None else refused)
        if written and self.kind in ("fifo", "link_to_file"):
            assert self.received, "nothing was written into it"
            if expected is not None:
                assert self.received == expected

    def ended(self, status: int, err: str, *, refused: bool | None = None) -> None:
        """A command's exit: a refusal is status 1 and one line naming the path; a write
        is status 0 and says nothing on stderr. ``refused``: as in :meth:`check`."""
        if self.refused if refused is None else refused:
            assert status == 1 and len(err.splitlines()) == 1 and str(self.path) in err
        else:
            assert status == 0 and err == ""

    def close(self) -> None:
        """Close the FIFO's reading end if the test did not check it."""
        if self._reader is not None:
            os.close(self._reader)
            self._reader = None


@contextlib.contextmanager
def made(kind: str, folder: Path) -> Iterator[Target]:
    """:func:`make` for a ``with`` block, which closes the FIFO's reading end after it."""
    target = make(kind, folder)
    try:
        yield target
    finally:
        target.close()


def make(kind: str, folder: Path) -> Target:
    """A target of ``kind`` in ``folder`` (skips the test where it cannot be made)."""
    path = folder / f"out-{kind}"
    target = Target(kind, path)
    if kind in ("fifo", "fifo_no_reader"):
        os.mkfifo(path)
        if kind == "fifo":  # a reader that never blocks: the data waits in the pipe
            target._reader = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    elif kind == "device":
        try:
            os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a copy of /dev/null
        except (OSError, AttributeError):
            pytest.skip("cannot make a device node here (needs root on Linux)")
    elif kind == "link_to_device":
        target._link_to = Path(os.devnull)
        path.symlink_to(target._link_to)
    elif kind == "link_to_file":
        target._link_to = folder / "real-file"
        target._link_to.write_bytes(b"old")
        path.symlink_to(target._link_to)
    elif kind == "folder":
        path.mkdir()
    else:
        raise ValueError(kind)
    return target
