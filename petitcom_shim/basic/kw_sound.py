"""Sound keywords: BEEP and the BGM verbs."""

from __future__ import annotations

from typing import Any

from petitcom_shim.basic.bind import args_of, bind_function, bind_statement, num
from petitcom_shim.basic.registry import Value, statement
from petitcom_shim.basic.runtime import Runtime

bind_statement("BGMPLAY", "bgmplay", 1, 8)
bind_statement("BGMSTOP", "bgmstop", 0, 2)
bind_statement("BGMVOL", "bgmvol", 1, 2)
bind_statement("BGMSET", "bgmset", 2, 9)
bind_statement("BGMCLEAR", "bgmclear", 0, 1)
bind_function("BGMCHK", "bgmchk", 0, 1)


@statement("BEEP", 0, 4)
def _beep(rt: Runtime, args: list[Value | None]) -> None:
    """BEEP [n[,pitch[,vol[,pan]]]]; an empty argument takes its default (BEEP 30,,127)."""
    defaults = (0, 0, 127, 64)
    values = [num(a, defaults[i]) for i, a in enumerate(args)]
    rt.machine.beep(*values)


@statement("BGMSETD", 2, 2)
def _bgmsetd(rt: Runtime, args: list[Value | None]) -> None:
    """BGMSETD n,@label: user song n from the DATA after the label."""
    n, label = args_of(args)
    if not isinstance(label, str):
        from petitcom_shim.basic.errors import BasicError

        raise BasicError("Type mismatch")
    rt.restore(label.encode("latin-1"))
    items: list[Any] = []
    while True:
        try:
            item = rt.read_str()
        except Exception:
            break
        items.append(item.decode("latin-1"))
        if not item.startswith(b"") or item[:1].isdigit() or item.startswith(b"-"):
            items[-1] = int(item) if item.lstrip(b"-").isdigit() else items[-1]
            break
    rt.machine.bgmsetd(n, items)
