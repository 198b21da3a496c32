"""Console keywords: LOCATE, COLOR, CLS, CHKCHR, CSRX, CSRY, TABSTEP."""

from __future__ import annotations

from petitcom_shim.basic import numbers
from petitcom_shim.basic.bind import bind_function, bind_statement, num
from petitcom_shim.basic.registry import Value, sysvar
from petitcom_shim.basic.runtime import Runtime

bind_statement("LOCATE", "locate", 2, 2)
bind_statement("COLOR", "color", 1, 2)
bind_statement("CLS", "cls", 0, 0)
bind_function("CHKCHR", "chkchr", 2, 2)


@sysvar("CSRX")
def _csrx(rt: Runtime) -> int:
    return numbers.from_int(rt.machine.csrx)


@sysvar("CSRY")
def _csry(rt: Runtime) -> int:
    return numbers.from_int(rt.machine.csry)


def _set_tabstep(rt: Runtime, value: Value) -> None:
    rt.machine.tabstep = num(value)


@sysvar("TABSTEP", setter=_set_tabstep)
def _tabstep(rt: Runtime) -> int:
    return numbers.from_int(rt.machine.tabstep)
