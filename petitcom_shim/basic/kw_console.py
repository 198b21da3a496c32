"""Console keywords: LOCATE, COLOR, CLS, CHKCHR, CSRX, CSRY, TABSTEP."""

from __future__ import annotations

from petitcom_shim.basic.bind import bind_function, bind_statement, bind_sysvar, num
from petitcom_shim.basic.registry import Value
from petitcom_shim.basic.runtime import Runtime

bind_statement("LOCATE", "locate", 2, 2)
bind_statement("COLOR", "color", 1, 2)
bind_statement("CLS", "cls", 0, 0)
bind_function("CHKCHR", "chkchr", 2, 2)


#: The largest TABSTEP: a larger value is taken as 16 ([SBC] test_int_vars:
#: "TABSTEP=30" leaves 16). Below 1 is taken as 1 (our choice).
TABSTEP_MAX = 16


def _set_tabstep(rt: Runtime, value: Value) -> None:
    rt.machine.tabstep = min(max(num(value), 1), TABSTEP_MAX)


bind_sysvar("CSRX", "csrx")
bind_sysvar("CSRY", "csry")
bind_sysvar("TABSTEP", "tabstep", _set_tabstep)
