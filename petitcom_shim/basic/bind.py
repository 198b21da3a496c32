"""Helpers for keyword modules that bind PTC keywords to :class:`~petitcom_shim.Machine` verbs.

A PTC number reaches a Machine verb as an ``int`` when it is whole and as its
exact ``float`` otherwise (the Machine floors what must be an integer, as PTC
does); a PTC string as ``str`` (Latin-1: resource names, hex and MML are
ASCII); a result comes back as a raw 20.12 number (a bool as TRUE/FALSE).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from petitcom_shim.basic import numbers
from petitcom_shim.basic.errors import BasicError
from petitcom_shim.basic.registry import Setter, Value, function, statement, sysvar
from petitcom_shim.basic.runtime import Runtime

__all__ = [
    "arg",
    "args_of",
    "bind_function",
    "bind_statement",
    "bind_sysvar",
    "num",
    "result",
    "text",
]


def arg(value: Value | None) -> Any:
    """A PTC value as a Machine argument (None stays None)."""
    if value is None:
        return None
    if isinstance(value, bytes):
        return value.decode("latin-1")
    return value >> 12 if not value & 0xFFF else value / 4096


def num(value: Value | None, default: int | None = None) -> int:
    """A PTC number as the integer a verb needs ("Missing operand" if empty and
    there is no default, "Type mismatch" for a string)."""
    if value is None:
        if default is None:
            raise BasicError("Missing operand")
        return default
    if isinstance(value, bytes):
        raise BasicError("Type mismatch")
    return numbers.to_int(value)


def text(value: Value | None) -> str:
    """A PTC string argument as ``str`` ("Type mismatch" for a number)."""
    if not isinstance(value, bytes):
        raise BasicError("Type mismatch" if value is not None else "Missing operand")
    return value.decode("latin-1")


def result(value: object) -> Value:
    """A Machine result as a PTC value (:func:`petitcom_shim.basic.numbers.from_machine`)."""
    return numbers.from_machine(value)


def args_of(args: Sequence[Value | None]) -> list[Any]:
    """Every argument converted as :func:`arg` does; trailing empty ones dropped.

    :func:`arg` is written out inline: this runs for every bound keyword call, and
    a function call per argument was most of a call's cost (issue 23 §4).
    """
    out = [
        a if a is None
        else a.decode("latin-1") if isinstance(a, bytes)
        else a >> 12 if not a & 0xFFF
        else a / 4096
        for a in args
    ]  # fmt: skip
    while out and out[-1] is None:
        out.pop()
    return out


def bind_statement(name: str, verb: str, low: int, high: int | None) -> None:
    """Register statement ``name`` calling ``machine.<verb>(*args)``."""

    def handler(rt: Runtime, args: list[Value | None]) -> None:
        getattr(rt.machine, verb)(*args_of(args))

    handler.__name__ = f"kw_{verb}"
    statement(name, low, high, verb=verb)(handler)


def bind_function(name: str, verb: str, low: int, high: int | None) -> None:
    """Register function ``name(...)`` returning ``machine.<verb>(*args)``."""

    def handler(rt: Runtime, args: list[Value | None]) -> Value:
        method: Callable[..., Any] = getattr(rt.machine, verb)
        return result(method(*args_of(args)))

    handler.__name__ = f"kw_{verb}"
    function(name, low, high, verb=verb)(handler)


def bind_sysvar(name: str, attr: str, setter: Setter | None = None) -> None:
    """Register system variable ``name`` reading ``machine.<attr>`` (a number or str)."""

    def handler(rt: Runtime) -> Value:
        return result(getattr(rt.machine, attr))

    handler.__name__ = f"sys_{attr}"
    sysvar(name, setter, verb=attr)(handler)
