"""System keywords: DATE$, TIME$, MAINCNTL, MAINCNTH, SYSBEEP, DTREAD, TMREAD."""

from __future__ import annotations

from typing import Any

from petitcom_shim.basic import numbers
from petitcom_shim.basic.bind import arg, bind_sysvar
from petitcom_shim.basic.errors import BasicError
from petitcom_shim.basic.registry import Value, statement
from petitcom_shim.basic.runtime import Runtime

bind_sysvar("DATE$", "date")
bind_sysvar("TIME$", "time")
bind_sysvar("MAINCNTL", "maincntl")
bind_sysvar("MAINCNTH", "maincnth")


def _set_sysbeep(rt: Runtime, value: Value) -> None:
    """SYSBEEP=n: the Machine's switch of the system sounds (the panel's key clicks);
    the value is floored and nonzero means on."""
    rt.machine.sysbeep = arg(value)


bind_sysvar("SYSBEEP", "sysbeep", _set_sysbeep)


def _split3(value: Value | None, sep: bytes, widths: tuple[int, int, int]) -> list[int]:
    """The three digit fields of "YYYY/MM/DD" or "HH:MM:SS", each of exactly its
    width; any digits are accepted (9999/99/99 is fine), another shape is
    "Illegal function call" ([SBC] test_int_func DTREAD/TMREAD cases)."""
    if not isinstance(value, bytes):
        raise BasicError("Type mismatch")
    parts = value.split(sep)
    if [len(p) for p in parts] != list(widths) or not all(p.isdigit() for p in parts):
        raise BasicError("Illegal function call")
    return [int(p) for p in parts]


def _assign(refs: list[Any], values: list[int]) -> None:
    for ref, v in zip(refs, values, strict=True):
        if not hasattr(ref, "set"):
            raise BasicError("Syntax error")
        ref.set(numbers.from_int(v))


@statement("DTREAD", 4, 4, refs=True)
def _dtread(rt: Runtime, args: list[Any]) -> None:
    """DTREAD (date$),Y,M,D."""
    _assign(args[1:], _split3(rt.value(args[0]), b"/", (4, 2, 2)))


@statement("TMREAD", 4, 4, refs=True)
def _tmread(rt: Runtime, args: list[Any]) -> None:
    """TMREAD (time$),H,M,S."""
    _assign(args[1:], _split3(rt.value(args[0]), b":", (2, 2, 2)))
