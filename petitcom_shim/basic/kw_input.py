"""Input keywords: BUTTON, BTRIG, BREPEAT, INKEY$, TCHX/TCHY/TCHST/TCHTIME, KEYBOARD."""

from __future__ import annotations

from petitcom_shim import charset
from petitcom_shim.basic.bind import bind_function, bind_statement, bind_sysvar
from petitcom_shim.basic.registry import Value, function
from petitcom_shim.basic.runtime import Runtime

bind_function("BUTTON", "button", 0, 1)
bind_function("BTRIG", "btrig", 0, 0)
bind_statement("BREPEAT", "brepeat", 1, 3)


@function("INKEY$", 0, 0)
def _inkey(rt: Runtime, args: list[Value | None]) -> bytes:
    """INKEY$(): the next key typed, or ""."""
    key = rt.machine.inkey()  # PTC charset: kana typed on the KYK keyboard stay kana
    return charset.to_ptc(key, errors="replace") if isinstance(key, str) else bytes(key)


for _name in ("TCHX", "TCHY", "TCHST", "TCHTIME", "KEYBOARD"):
    bind_sysvar(_name, _name.lower())
