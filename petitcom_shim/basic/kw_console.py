"""Console keywords: LOCATE, COLOR, CLS, CHKCHR, CSRX, CSRY, TABSTEP."""

from __future__ import annotations

from petitcom_shim.basic.bind import bind_function, bind_statement, bind_sysvar, num
from petitcom_shim.basic.registry import Value
from petitcom_shim.basic.runtime import Runtime

bind_statement("LOCATE", "locate", 2, 2)
bind_statement("COLOR", "color", 1, 2)
bind_statement("CLS", "cls", 0, 0)
bind_function("CHKCHR", "chkchr", 2, 2)


def _set_tabstep(rt: Runtime, value: Value) -> None:
    rt.machine.tabstep = num(value)


bind_sysvar("CSRX", "csrx")
bind_sysvar("CSRY", "csry")
bind_sysvar("TABSTEP", "tabstep", _set_tabstep)
