"""The save area: a folder of ``.PTC`` files that LOAD, SAVE, EXEC, DELETE, RENAME and FILES use.

Petit Computer keeps its files in one flat store where a file is known by its
internal NAME and its TYPE (PRG, MEM, CHR, COL, SCR, GRP); two files may share
a name when their types differ. On a PC the same files sit in a folder under
any host names -- real projects ship ``STAR2-CHR.PTC`` and ``STAR2-SCR.PTC``,
both named STAR2 inside -- so this module finds a file by the name and type in
its PTC header, whatever the host file is called.

New files are written as ``NAME.PTC``, or ``NAME-TYPE.PTC`` when ``NAME.PTC``
already holds another file; a file that is saved again keeps its host name.
Writes are atomic (:func:`petitcom_shim.files.write_atomic`) and never
replace anything but a regular file. Files that cannot be read or are not
Petit Computer files are simply not part of the area (as on PTC, a damaged
file is not listed); reading a found file checks it completely. Opening an
area removes the temporary files of writes that were interrupted (a kill during
SAVE leaves ``.NAME.PTC.xxxxxxxx.tmp``), as the game does with its own folder.

The module sits below ``Machine`` (which holds one as ``Machine.files``) and
knows nothing of the interpreter: RESULT, MEM$ and the statements are the
``basic`` package's business.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from petitcom_shim import files, ptcfile
from petitcom_shim.ptcfile import PtcFile, PtcFileError

__all__ = ["KIND_NAMES", "Entry", "SaveArea"]

#: The file types a save area holds, in the order FILES lists them.
KIND_NAMES = ("PRG", "MEM", "GRP", "CHR", "SCR", "COL")
#: How much of a file the scan reads: the header and the internal file's tag.
_HEAD = ptcfile.HEADER_SIZE + ptcfile.TAG_SIZE
_TAGS = {kind.tag: name for name, kind in ptcfile.KINDS.items()}
#: The name :func:`petitcom_shim.files.write_atomic` gives a save's temporary file
#: (``tempfile.mkstemp``: the target's name, 8 random characters).
_TEMP_NAME = re.compile(r"\..+\.PTC\.[a-z0-9_]{8}\.tmp", re.IGNORECASE)
#: A temporary file is stale once it is this old (seconds): a younger one may be
#: another petitcom's SAVE into the same folder, still being written.
STALE_AFTER = 60.0


@dataclass(frozen=True)
class Entry:
    """One file of the save area: its internal name, type and host path."""

    name: str
    kind: str
    path: Path


def _check_kind(kind: str) -> str:
    upper = kind.upper()
    if upper not in ptcfile.KINDS:
        raise PtcFileError(f"unknown file type {kind!r}; one of {', '.join(KIND_NAMES)}")
    return upper


class SaveArea:
    """A folder of ``.PTC`` files seen as Petit Computer's file store.

    Args:
        folder: the folder; it need not exist until something is saved.
    """

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)
        self.cleaned = _clean_temp_files(self.folder)
        """Temporary files of interrupted SAVEs removed when the area was opened."""

    def __repr__(self) -> str:
        return f"SaveArea({str(self.folder)!r})"

    # ------------------------------------------------------------------ looking

    def _host_files(self) -> Iterator[Path]:
        try:
            with os.scandir(self.folder) as it:
                names = sorted(e.name for e in it if e.name.upper().endswith(".PTC"))
        except OSError:
            return
        for name in names:
            yield self.folder / name

    def entries(self) -> list[Entry]:
        """Every Petit Computer file in the folder, by host name order; others are skipped."""
        out: list[Entry] = []
        for path in self._host_files():
            head = _read_head(path)
            if head is not None:
                out.append(Entry(head[0], head[1], path))
        return out

    def find(self, name: str, kind: str) -> Entry | None:
        """The file called ``name`` of type ``kind``, or None."""
        name, kind = ptcfile.check_name(name), _check_kind(kind)
        return next((e for e in self.entries() if e.name == name and e.kind == kind), None)

    def names(self, kind: str | None = None) -> list[tuple[str, str]]:
        """(type, name) of every file, or of one type, sorted as FILES lists them."""
        wanted = None if kind is None else _check_kind(kind)
        found = {(e.kind, e.name) for e in self.entries() if wanted in (None, e.kind)}
        return sorted(found, key=lambda kn: (KIND_NAMES.index(kn[0]), kn[1]))

    def load(self, name: str, kind: str) -> PtcFile:
        """Read and check the file ``name`` of type ``kind``.

        Raises:
            PtcFileError: there is no such file, or it is damaged.
        """
        entry = self.find(name, kind)
        if entry is None:
            raise PtcFileError(f"no {kind.upper()} file {name.upper()} in {self.folder}")
        return ptcfile.read_file(entry.path)

    # ------------------------------------------------------------------ changing

    def save(self, file: PtcFile) -> Path:
        """Write ``file`` into the area atomically; returns the host path used.

        Raises:
            PtcFileError: the host file to write is not a regular file, or the folder
                cannot be written (the message says which).
        """
        entry = self.find(file.name, file.kind.name)
        path = entry.path if entry is not None else self._new_path(file.name, file.kind.name)
        _write(path, file.to_bytes())
        return path

    def _new_path(self, name: str, kind: str) -> Path:
        taken = {p.name.upper() for p in self._host_files()}
        for host in (f"{name}.PTC", f"{name}-{kind}.PTC"):
            if host.upper() not in taken and not os.path.lexists(self.folder / host):
                return self.folder / host
        raise PtcFileError(f"{self.folder}: both {name}.PTC and {name}-{kind}.PTC are taken")

    def delete(self, name: str, kind: str) -> None:
        """Remove the file ``name`` of type ``kind``.

        Raises:
            PtcFileError: no such file, or it cannot be removed.
        """
        entry = self.find(name, kind)
        if entry is None:
            raise PtcFileError(f"no {kind.upper()} file {name.upper()} in {self.folder}")
        try:
            entry.path.unlink()
        except OSError as exc:
            raise PtcFileError(f"{entry.path}: cannot delete it ({exc.strerror or exc})") from None

    def rename(self, old: str, new: str, kind: str) -> Path:
        """Give the file ``old`` of type ``kind`` the internal name ``new``; returns its path.

        The file keeps its host name when that is not ``OLD.PTC``/``OLD-TYPE.PTC``
        (a project's own naming); otherwise it moves to the new name's host file.

        Raises:
            PtcFileError: no such file, ``new`` is taken, or the file is damaged.
        """
        new = ptcfile.check_name(new)
        entry = self.find(old, kind)
        if entry is None:
            raise PtcFileError(f"no {kind.upper()} file {old.upper()} in {self.folder}")
        if self.find(new, kind) is not None:
            raise PtcFileError(f"a {entry.kind} file {new} already exists in {self.folder}")
        file = ptcfile.read_file(entry.path)
        renamed = PtcFile(new, file.kind, file.payload)
        generic = {f"{entry.name}.PTC", f"{entry.name}-{entry.kind}.PTC"}
        if entry.path.name.upper() not in generic:
            _write(entry.path, renamed.to_bytes())
            return entry.path
        path = self._new_path(new, entry.kind)
        _write(path, renamed.to_bytes())
        entry.path.unlink(missing_ok=True)
        return path


def _read_head(path: Path) -> tuple[str, str] | None:
    """(name, type) from a file's header, or None for anything that is not a PTC file."""
    try:
        data = files.read_file(path, ptcfile.MAX_FILE_BYTES)
    except OSError:
        return None
    if len(data) < _HEAD or data[:4] != ptcfile.MAGIC:
        return None
    kind = _TAGS.get(data[ptcfile.HEADER_SIZE : _HEAD])
    if kind is None:
        return None
    try:
        return ptcfile.check_name(data[12:20].rstrip(b"\0").decode("ascii")), kind
    except (UnicodeDecodeError, PtcFileError):
        return None


def _clean_temp_files(folder: Path) -> list[Path]:
    """Remove the stale temporary files of interrupted writes in ``folder``; returns them.

    Only regular files named as :func:`petitcom_shim.files.write_atomic` names them
    and older than :data:`STALE_AFTER` go; anything that cannot be looked at or
    removed is left alone, so this never fails.
    """
    removed: list[Path] = []
    try:
        with os.scandir(folder) as it:
            entries = [e for e in it if _TEMP_NAME.fullmatch(e.name)]
    except OSError:
        return removed
    now = time.time()
    for entry in entries:
        try:
            if (
                entry.is_file(follow_symlinks=False)
                and now - entry.stat(follow_symlinks=False).st_mtime >= STALE_AFTER
            ):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


def _write(path: Path, data: bytes) -> None:
    try:
        files.check_output(path)
        files.write_atomic(path, data)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise PtcFileError(f"{path}: cannot write it ({reason})") from None
