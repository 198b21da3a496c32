"""Sound keywords: BEEP and the BGM verbs (BGMPRG, BGMSETV and BGMGETV too)."""

from __future__ import annotations

from petitcom_shim.basic import numbers
from petitcom_shim.basic.bind import bind_function, bind_statement, num
from petitcom_shim.basic.errors import BasicError
from petitcom_shim.basic.registry import Value, statement
from petitcom_shim.basic.runtime import Runtime

bind_statement("BGMPLAY", "bgmplay", 1, 8)
bind_statement("BGMSTOP", "bgmstop", 0, 2)
bind_statement("BGMVOL", "bgmvol", 1, 2)
bind_statement("BGMSET", "bgmset", 2, 9)
bind_statement("BGMCLEAR", "bgmclear", 0, 1)
bind_function("BGMCHK", "bgmchk", 0, 1)
bind_statement("BGMPRG", "bgmprg", 2, 7)
bind_statement("BGMSETV", "bgmsetv", 3, 3)
bind_function("BGMGETV", "bgmgetv", 2, 2)


@statement("BEEP", 0, 4)
def _beep(rt: Runtime, args: list[Value | None]) -> None:
    """BEEP [n[,pitch[,vol[,pan]]]]; an empty argument takes its default (BEEP 30,,127)."""
    defaults = (0, 0, 127, 64)
    values = [num(a, defaults[i]) for i, a in enumerate(args)]
    rt.machine.beep(*values)


@statement("BGMSETD", 2, 2)
def _bgmsetd(rt: Runtime, args: list[Value | None]) -> None:
    """BGMSETD n,@label: user song n from the DATA after the label, its strings
    (quoted or not) up to the first number (``DATA 0`` ends a song)."""
    n, label = num(args[0]), args[1]
    if not isinstance(label, bytes):
        raise BasicError("Type mismatch")
    rt.restore(label)
    parts: list[object] = []
    while True:
        item = rt.data_item()
        if not item.startswith(b'"'):
            raw, used = numbers.parse(item)
            if item and used == len(item):
                parts.append(numbers.to_int(raw))
                break
        parts.append(item.strip(b'"').decode("latin-1"))
    rt.machine.bgmsetd(n, parts)
