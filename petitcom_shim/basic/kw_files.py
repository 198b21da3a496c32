"""LOAD, SAVE, EXEC, APPEND, DELETE, RENAME, FILES, SENDFILE, RECVFILE on the save area.

A file is named as PTC names it: ``"TYPE:NAME"`` where TYPE is a resource
(``PRG``, ``MEM``, ``SPU0``, ``BGU1L``, ``COL0``, ``SCU0``, ``GRP2`` ...) and
NAME 1-8 of ``A-Z0-9_``; without ``TYPE:`` the file is a program (PRG). The
files live in ``Machine.files`` (:class:`petitcom_shim.savearea.SaveArea`),
found by the name and type in their headers.

RESULT, as PTC sets it ([SBC] ``cmd_load``/``cmd_save``): 1 when the file
operation worked, 0 when it did not (no such file, a damaged file, a folder
that cannot be written). A resource name PTC does not have is "Illegal
resource type" and a bad file name "Illegal function call", and change
nothing. LOAD's and SAVE's second argument (PTC's confirmation dialog) is
accepted and ignored: the shim never asks.

- ``LOAD "PRG:NAME"`` replaces the program in memory (PRGNAME$ and PACKAGE$
  follow it); a program that does it keeps running to its end, and RUN then
  runs the new one. ``SAVE "PRG:NAME"`` saves the program in memory.
- ``LOAD``/``SAVE "MEM:NAME"`` move MEM$ (at most 256 characters).
- ``APPEND "NAME"`` adds the program NAME after the program in memory.
- ``EXEC "NAME"`` loads the program NAME and runs it from its first line with
  the variables cleared; when it cannot be loaded RESULT is 0 and the program
  goes on.
- ``FILES ["TYPE"]`` prints the files, one ``TYPE:NAME`` per line (all types, or
  one).
- ``SENDFILE``/``RECVFILE`` need the handheld's wireless link, which the shim
  does not have: they always fail with "Communication error".

The decisions are recorded in docs/petitcom-decisions.md.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable
from pathlib import Path

from petitcom_shim import ptcfile
from petitcom_shim.basic import numbers
from petitcom_shim.basic.errors import BasicError
from petitcom_shim.basic.registry import Value, statement, sysvar
from petitcom_shim.basic.runtime import ExecProgram, Interpreter, Runtime
from petitcom_shim.errors import PetitcomError
from petitcom_shim.ptcfile import PtcFile, PtcFileError
from petitcom_shim.savearea import KIND_NAMES, SaveArea

__all__ = ["COMMUNICATION_ERROR", "kind_of", "package_text", "set_program"]

COMMUNICATION_ERROR = "Communication error"
_OK = numbers.from_int(1)
_FAILED = 0
#: Resource names PTC accepts in "TYPE:NAME" ([SBC] ``valid_resource_types``),
#: by the file type they hold. Without a bank number a name means bank 0
#: ("GRP:NAME", "BGF:NAME", "SPU:NAME"), and a screen letter only follows a number
#: ([SBC] ``verify_resource_type``); published programs use both forms.
_RESOURCES = (
    (re.compile(r"PRG"), "PRG"),
    (re.compile(r"MEM"), "MEM"),
    (re.compile(r"GRP[0-3]?"), "GRP"),
    (re.compile(r"COL([0-2][UL]?)?"), "COL"),
    (re.compile(r"SCU([01][UL]?)?"), "SCR"),
    # SPU (upper screen only) and SPD (lower only) also take their own screen's
    # suffix: a public PTC v2 game loads "SPU1U:NAME" (docs/compat.md).
    (
        re.compile(
            r"BGU([0-3][UL]?)?|BGF(0[UL]?)?|BGD([01][UL]?)?|SPS([01][UL]?)?"
            r"|SPU([0-7]U?)?|SPD([0-3]L?)?"
        ),
        "CHR",
    ),
)


def kind_of(resource: str) -> str:
    """The file type a resource name holds ("SPU0" -> "CHR").

    Raises:
        BasicError: "Illegal resource type" for a name PTC does not have.
    """
    for pattern, kind in _RESOURCES:
        if pattern.fullmatch(resource):
            return kind
    raise BasicError("Illegal resource type")


def _target(arg: Value | None) -> tuple[str, str, str]:
    """(resource, type, NAME) of a "TYPE:NAME" argument; PRG when there is no TYPE."""
    if not isinstance(arg, bytes):
        raise BasicError("Type mismatch")
    text = arg.decode("latin-1").upper()
    resource, _, name = text.rpartition(":")
    resource = resource or "PRG"
    kind = kind_of(resource)
    try:
        return resource, kind, ptcfile.check_name(name)
    except PtcFileError:
        raise BasicError("Illegal function call") from None


def _area(rt: Runtime) -> SaveArea:
    area = rt.machine.files
    if area is None:
        raise PtcFileError("this machine has no save area")
    return area


def package_text(package: tuple[int, int]) -> bytes:
    """PACKAGE$ of a program: its 45 package bits as 12 hex digits (high word first)."""
    high, low = package
    return f"{high & 0x1FFF:04X}{low:08X}".encode("ascii")


def set_program(it: Interpreter, name: str, text: bytes, package: tuple[int, int] = (0, 0)) -> None:
    """Put a program in memory with its PRGNAME$ and PACKAGE$ (LOAD, EXEC, ``petitcom run``)."""
    it.load(text)
    it.rt.prgname = name.encode("ascii")
    it.rt.package = package_text(package)


def _program(file: PtcFile) -> tuple[str, bytes, tuple[int, int]]:
    return file.name, ptcfile.prg_text(file.payload), ptcfile.prg_package(file.payload)


def _load(rt: Runtime, resource: str, kind: str, name: str) -> None:
    area = _area(rt)
    if kind == "PRG":
        set_program(rt.interp, *_program(area.load(name, "PRG")))
    elif kind == "MEM":
        file = area.load(name, "MEM")
        rt.mem = ptcfile.mem_from_bytes(file.payload, file.name)
    else:
        entry = area.find(name, kind)
        if entry is None:
            raise PtcFileError(f"no {kind} file {name}")
        rt.machine.load(f"{resource}:{name}", entry.path)


def _resource_file(rt: Runtime, resource: str, name: str) -> PtcFile:
    """A resource's current contents as a file: through Machine.save, the public way."""
    with tempfile.TemporaryDirectory(prefix="petitcom-save-") as folder:
        path = Path(folder) / "RES.PTC"
        rt.machine.save(f"{resource}:{name}", path)
        return ptcfile.read_file(path)


def _save(rt: Runtime, resource: str, kind: str, name: str) -> None:
    area = _area(rt)
    if kind == "PRG":
        file = PtcFile.of(name, "PRG", ptcfile.prg_payload(rt.interp.source))
    elif kind == "MEM":
        file = PtcFile.of(name, "MEM", ptcfile.mem_bytes(rt.mem))
    else:
        file = _resource_file(rt, resource, name)
    area.save(file)


def _filed(rt: Runtime, action: Callable[[], object]) -> bool:
    """Do a file action; RESULT 1 and True if it worked, 0 and False if the file side failed."""
    try:
        action()
    except PtcFileError:
        rt.result = _FAILED
        return False
    except PetitcomError as err:  # a resource name the machine refused
        raise BasicError("Illegal resource type") from err
    rt.result = _OK
    return True


@statement("LOAD", 1, 2)
def load(rt: Runtime, args: list[Value | None]) -> None:
    """LOAD "TYPE:NAME"[,dialog]."""
    resource, kind, name = _target(args[0])
    _filed(rt, lambda: _load(rt, resource, kind, name))


@statement("SAVE", 1, 2)
def save(rt: Runtime, args: list[Value | None]) -> None:
    """SAVE "TYPE:NAME"[,dialog]."""
    resource, kind, name = _target(args[0])
    _filed(rt, lambda: _save(rt, resource, kind, name))


@statement("EXEC", 1, 1)
def exec_(rt: Runtime, args: list[Value | None]) -> None:
    """EXEC "NAME": run another program from the save area from its first line."""
    _, kind, name = _target(args[0])
    if kind != "PRG":
        raise BasicError("Illegal resource type")
    loaded: list[tuple[str, bytes, tuple[int, int]]] = []
    if _filed(rt, lambda: loaded.append(_program(_area(rt).load(name, "PRG")))):
        set_program(rt.interp, *loaded[0])
        raise ExecProgram()


@statement("APPEND", 1, 1)
def append(rt: Runtime, args: list[Value | None]) -> None:
    """APPEND "NAME": add the program NAME after the program in memory (PRGNAME$ stays)."""
    _, kind, name = _target(args[0])
    if kind != "PRG":
        raise BasicError("Illegal resource type")

    def add() -> None:
        text = _program(_area(rt).load(name, "PRG"))[1]
        source = rt.interp.source
        if source and not source.endswith(b"\r"):
            source += b"\r"
        rt.interp.load(source + text)

    _filed(rt, add)


@statement("DELETE", 1, 1)
def delete(rt: Runtime, args: list[Value | None]) -> None:
    """DELETE "TYPE:NAME": remove a file of the save area."""
    _, kind, name = _target(args[0])
    _filed(rt, lambda: _area(rt).delete(name, kind))


@statement("RENAME", 2, 2)
def rename(rt: Runtime, args: list[Value | None]) -> None:
    """RENAME "TYPE:OLD","NEW": give a file of the save area another name."""
    _, kind, old = _target(args[0])
    new = args[1]
    if not isinstance(new, bytes):
        raise BasicError("Type mismatch")
    try:
        new_name = ptcfile.check_name(new.decode("latin-1"))
    except PtcFileError:
        raise BasicError("Illegal function call") from None
    _filed(rt, lambda: _area(rt).rename(old, new_name, kind))


@statement("FILES", 0, 1)
def files(rt: Runtime, args: list[Value | None]) -> None:
    """FILES ["TYPE"]: print the save area's files, one TYPE:NAME a line."""
    kind: str | None = None
    if args and args[0] is not None:
        if not isinstance(args[0], bytes):
            raise BasicError("Type mismatch")
        kind = args[0].decode("latin-1").upper()
        if kind not in KIND_NAMES:
            raise BasicError("Illegal resource type")
    area = rt.machine.files
    for file_kind, name in [] if area is None else area.names(kind):
        rt.machine.print(f"{file_kind}:{name}")


@statement("SENDFILE", 0, None)
def sendfile(rt: Runtime, args: list[Value | None]) -> None:
    """SENDFILE: the wireless link is not emulated; always a communication error."""
    raise BasicError(COMMUNICATION_ERROR)


@statement("RECVFILE", 0, None)
def recvfile(rt: Runtime, args: list[Value | None]) -> None:
    """RECVFILE: the wireless link is not emulated; always a communication error."""
    raise BasicError(COMMUNICATION_ERROR)


def _set_mem(rt: Runtime, value: Value) -> None:
    if not isinstance(value, bytes):
        raise BasicError("Type mismatch")
    rt.mem = value


@sysvar("MEM$", setter=_set_mem)
def _mem(rt: Runtime) -> bytes:
    """MEM$: the string LOAD/SAVE "MEM:NAME" move (kept across EXEC)."""
    return rt.mem


@sysvar("PRGNAME$")
def _prgname(rt: Runtime) -> bytes:
    """PRGNAME$: the name of the program in memory."""
    return rt.prgname


@sysvar("PACKAGE$")
def _package(rt: Runtime) -> bytes:
    """PACKAGE$: the package bits of the program in memory (:func:`package_text`)."""
    return rt.package
