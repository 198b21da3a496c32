"""LOAD/SAVE of shim resources as Petit Computer files: which resource names map where.

PTC saves and loads a resource with ``SAVE "SPU0:NAME"`` / ``LOAD "SPU0:NAME"``:
the part before the colon names the resource, the part after it the file.
``Machine.save``/``Machine.load`` take the same string plus a path; this
module resolves the resource name to the shim's storage and moves payloads in
and out of it (the bytes themselves are ``petitcom_shim.ptcfile``'s business).

Resource names (petitcom.md §4; ``U``/``L`` picks the screen, without it the
current page of the matching subsystem decides, as in PTC; without a bank
number a name is bank 0, ``"BGF"``, ``"GRP"``, ``"COL"``, as PTC programs write it):

=================================  ====  =======================================
Names                              Type  Shim storage
=================================  ====  =======================================
BGU0-3, BGF0, BGD0-1, SPS0-1       CHR   ``Machine.chr`` banks (U/L)
SPU0-7 (upper), SPD0-3 (lower)     CHR   ``Machine.chr`` banks
COL0, COL1, COL2                   COL   BG, SP, GRP palette of a screen (U/L)
SCU0, SCU1                         SCR   BG layer 0, 1 map of a screen (U/L)
GRP0-3                             GRP   GRP pages (shared by both screens)
=================================  ====  =======================================

Everything is checked before anything is stored, so a bad file or a file of the
wrong type changes nothing.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import pygame

from petitcom_shim import files, ptcfile
from petitcom_shim.errors import IllegalFunctionCall
from petitcom_shim.video.chr import TILES_PER_BANK, ChrStore, parse_resource
from petitcom_shim.video.compose import ScreenVideo
from petitcom_shim.video.grp import GrpPage
from petitcom_shim.video.palette import decode_color

__all__ = ["Pages", "Slot", "Storage", "load", "resolve", "save", "split_target"]

# A name without a bank number is bank 0 ("COL" is COL0, "GRP" GRP0), and a screen
# letter only follows a number ([SBC] resources.c ``verify_resource_type``).
_COL = re.compile(r"^COL(?:([0-2])([UL]?))?$")
_SCR = re.compile(r"^SCU(?:([01])([UL]?))?$")
_GRP = re.compile(r"^GRP([0-3]?)$")


class Storage(Protocol):
    """Where resources live: the CHR banks, the two screens and the GRP pages.

    ``Machine`` is one; this module sits below it and so names only the parts it
    reads and writes, never ``Machine`` itself.
    """

    @property
    def chr(self) -> ChrStore:
        """The CHR banks of both screens."""
        ...

    @property
    def screens(self) -> Sequence[ScreenVideo]:
        """Upper (0) and lower (1) screen: palettes and BG layers."""
        ...

    @property
    def grp_pages(self) -> Sequence[GrpPage]:
        """The four GRP pages."""
        ...


@dataclass(frozen=True)
class Pages:
    """The current BGPAGE, SPPAGE and GPAGE: the screen of a name without ``U``/``L``."""

    bg: int
    sp: int
    grp: int


@dataclass(frozen=True)
class Slot:
    """One resolved resource: its canonical name, its file type and how to read/write it."""

    label: str
    kind: str
    read: Callable[[], bytes]
    write: Callable[[bytes], None]


def split_target(target: str) -> tuple[str, str | None]:
    """Split ``"SPU0:NAME"`` into ``("SPU0", "NAME")``; the name part may be absent.

    Raises:
        IllegalFunctionCall: more than one colon, or an empty resource part.
        ptcfile.PtcFileError: a name that is not 1-8 of ``A-Z0-9_``.
    """
    parts = target.split(":")
    if len(parts) > 2 or not parts[0].strip():
        raise IllegalFunctionCall(f'expected "RESOURCE:NAME" such as "SPU0:SHIP", got {target!r}')
    name = ptcfile.check_name(parts[1]) if len(parts) == 2 else None
    return parts[0].strip().upper(), name


def _screen(suffix: str, default: int) -> int:
    return {"U": 0, "L": 1}.get(suffix, default)


def resolve(m: Storage, res: str, pages: Pages) -> Slot:
    """Map a resource name (``SPU0``, ``COL1L``, ``SCU0``, ``GRP2`` ...) to the shim's storage.

    Raises:
        IllegalFunctionCall: not a resource name the shim stores (MEM and PRG included).
    """
    if (match := _COL.match(res)) is not None:
        kind = int(match.group(1) or 0)
        screen = _screen(match.group(2) or "", (pages.bg, pages.sp, pages.grp)[kind])
        palettes = m.screens[screen].palettes

        def write_col(data: bytes) -> None:
            # COLSET quantises 8-bit RGB back to the same word, so the file's words
            # come back exactly (a test checks all 65536).
            for n, word in enumerate(ptcfile.col_from_bytes(data).tolist()):
                palettes.colset(kind, n, decode_color(word))

        label = f"COL{kind}{'UL'[screen]}"
        return Slot(label, "COL", lambda: ptcfile.col_bytes(palettes.words[kind]), write_col)
    if (match := _SCR.match(res)) is not None:
        number = int(match.group(1) or 0)
        screen = _screen(match.group(2) or "", pages.bg)
        layer = m.screens[screen].bg.layers[number]

        def write_scr(data: bytes) -> None:
            layer.map[:] = ptcfile.scr_from_bytes(data)
            layer.mark_all()

        label = f"SCU{number}{'UL'[screen]}"
        return Slot(label, "SCR", lambda: ptcfile.scr_bytes(layer.map), write_scr)
    if (match := _GRP.match(res)) is not None:
        number = int(match.group(1) or 0)
        page = m.grp_pages[number]

        def write_grp(data: bytes) -> None:
            source = GrpPage()
            source.pixels[:] = ptcfile.grp_from_bytes(data)
            page.copy_from(source, 0, 0, 255, 191, 0, 0, mode=1)

        return Slot(f"GRP{number}", "GRP", lambda: ptcfile.grp_bytes(page.pixels), write_grp)
    if res in ("MEM", "PRG"):
        raise IllegalFunctionCall(f"{res} files hold no shim resource; use petitcom_shim.ptcfile")
    default = pages.sp if res.startswith("SP") else pages.bg
    ref = parse_resource(res, default)

    def write_chr(data: bytes) -> None:
        # 256 tiles stacked in an 8-pixel-wide strip: CHRLOAD's path, so the
        # store's change tracking sees one bulk load.
        tiles = ptcfile.chr_from_bytes(data)
        strip = pygame.Surface((8, 8 * TILES_PER_BANK), depth=8)
        pygame.surfarray.blit_array(strip, np.ascontiguousarray(tiles.reshape(-1, 8).T))
        m.chr.chrload(ref, strip, 0)

    return Slot(ref.name, "CHR", lambda: ptcfile.chr_bytes(m.chr.bank(ref)), write_chr)


def save(m: Storage, target: str, path: str | os.PathLike[str], pages: Pages) -> None:
    """SAVE "RES:NAME": write the resource as an SD-card ``.PTC`` file, atomically.

    Raises:
        IllegalFunctionCall: no ``:NAME`` part, or an unknown resource name.
        ptcfile.PtcFileError: a bad file name.
        OSError: the file cannot be written.
    """
    res, name = split_target(target)
    if name is None:
        raise IllegalFunctionCall(f'SAVE needs "RESOURCE:NAME", got {target!r}')
    slot = resolve(m, res, pages)
    file = ptcfile.PtcFile.of(name, slot.kind, slot.read())
    files.write_atomic(path, file.to_bytes())


def load(m: Storage, target: str, path: str | os.PathLike[str], pages: Pages) -> str:
    """LOAD "RES[:NAME]": fill the resource from a ``.PTC`` file; returns the file's name.

    With a ``:NAME`` part, the file's internal name must be that name (PTC looks
    files up by it). Nothing changes unless the whole file is good.

    Raises:
        IllegalFunctionCall: an unknown resource name.
        ptcfile.PtcFileError: the file is missing, malformed, of another type than
            the resource, or named differently.
    """
    res, name = split_target(target)
    slot = resolve(m, res, pages)
    file = ptcfile.read_file(path)
    where = os.fsdecode(path)
    if file.kind.name != slot.kind:
        raise ptcfile.PtcFileError(
            f"{where}: is a {file.kind.name} file; {slot.label} needs a {slot.kind} file"
        )
    if name is not None and file.name != name:
        raise ptcfile.PtcFileError(f"{where}: holds file {file.name!r}, not {name!r}")
    slot.write(file.payload)
    return file.name
