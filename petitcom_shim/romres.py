"""User-supplied ROM resources: PTC's own default CHR banks and palettes, from files.

The shim ships none of Petit Computer's art or palettes. A user who extracted them
from their own copy can hand the folder to ``Machine(resources=DIR)``; the files
are the ones both reference emulators read:

* one file per CHR bank, named after the bank without the screen letter:
  ``BGF0.PTC``, ``BGD0.PTC``-``BGD1.PTC``, ``BGU0.PTC``-``BGU3.PTC``,
  ``SPU0.PTC``-``SPU7.PTC``, ``SPS0.PTC``-``SPS1.PTC``, ``SPD0.PTC``-``SPD3.PTC``
  ([SBC] resources.c ``init_resource``, which reads ``resources/XXXX.PTC``;
  [EMK] Visual.cpp ``chrinit_``, ``resources/graphics/XXXX.PTC``). The same file
  serves the upper and the lower screen, as in both emulators;
* ``COL0.PTC``, ``COL1.PTC``, ``COL2.PTC`` for the BG, sprite and GRP palettes of
  both screens ([SBC] ``init_col``, [EMK] ``colinit_``).

Each file may be an SD-card file (``PX01`` header, as ``SAVE "COL0:COL0"`` on the
handheld writes it) or a bare internal file (``PETC0100RCHR`` + payload), the two
forms [SBC] ``check_load_file`` accepts. Names are matched without regard to case.
A bank without a file keeps the shim's own default. A file that is there but
unreadable, of the wrong type or size is refused with a one-line
:class:`ResourceError` naming it; nothing is half-loaded.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from petitcom_shim import files, ptcfile
from petitcom_shim.errors import PetitcomError
from petitcom_shim.video.chr import FAMILIES

__all__ = ["CHR_FILES", "COL_FILES", "ResourceError", "RomResources", "load_resources"]

#: The CHR bank files a resource folder may hold, in the order above.
CHR_FILES: tuple[str, ...] = tuple(
    f"{family}{bank}" for family, (count, _) in FAMILIES.items() for bank in range(count)
)
#: The palette files: COL0 (BG), COL1 (sprites), COL2 (GRP).
COL_FILES: tuple[str, ...] = ("COL0", "COL1", "COL2")
_SUFFIX = ".PTC"


class ResourceError(PetitcomError):
    """A resource folder or file that cannot be used; the message names it."""


@dataclass(frozen=True)
class RomResources:
    """Default banks and palettes read from a resource folder.

    Attributes:
        chr: Bank name (``"SPU0"``) -> (256, 8, 8) pixel values, for the banks found.
        col: COL number (0-2) -> 256 colour words, for the palettes found.
        folder: Where they came from.
    """

    chr: Mapping[str, npt.NDArray[np.uint8]] = field(default_factory=dict)
    col: Mapping[int, npt.NDArray[np.uint16]] = field(default_factory=dict)
    folder: Path | None = None


def _payload(path: Path, kind: str, name: str) -> bytes:
    """The payload of one resource file in either accepted form, checked for ``kind``."""
    where = os.fsdecode(path)
    try:
        data = files.read_file(path, ptcfile.MAX_FILE_BYTES)
    except OSError as err:  # files.FileRefused: a folder, a FIFO, too large, unreadable
        raise ResourceError(f"{where}: {err}") from None
    try:
        if data[:4] == b"PX01":
            found = ptcfile.PtcFile.from_bytes(data, where)
        else:
            found = ptcfile.PtcFile.from_internal(name, data, where)
    except ptcfile.PtcFileError as err:
        raise ResourceError(str(err)) from None
    if found.kind.name != kind:
        raise ResourceError(f"{where}: a {found.kind.name} file, {name} needs a {kind} file")
    return found.payload


def load_resources(folder: str | os.PathLike[str]) -> RomResources:
    """Read every resource file present in ``folder``.

    Raises:
        ResourceError: ``folder`` is not a folder, or a file in it is not a usable
            resource of its name's type (the message names the file).
    """
    base = Path(folder)
    if not base.is_dir():
        raise ResourceError(f"{os.fsdecode(base)}: not a folder of resource files")
    try:
        present = {p.name.upper(): p for p in base.iterdir()}
    except OSError as err:
        reason = err.strerror or err
        raise ResourceError(f"{os.fsdecode(base)}: cannot list it ({reason})") from None
    chrs: dict[str, npt.NDArray[np.uint8]] = {}
    for name in CHR_FILES:
        path = present.get(name + _SUFFIX)
        if path is not None:
            chrs[name] = ptcfile.chr_from_bytes(_payload(path, "CHR", name)).copy()
    cols: dict[int, npt.NDArray[np.uint16]] = {}
    for kind, name in enumerate(COL_FILES):
        path = present.get(name + _SUFFIX)
        if path is not None:
            cols[kind] = ptcfile.col_from_bytes(_payload(path, "COL", name)).copy()
    return RomResources(chr=chrs, col=cols, folder=base)
