"""Input keywords: BUTTON, BTRIG, BREPEAT, INKEY$, TCHX/TCHY/TCHST/TCHTIME, KEYBOARD."""

from __future__ import annotations

from petitcom_shim.basic import numbers
from petitcom_shim.basic.bind import bind_function, bind_statement
from petitcom_shim.basic.registry import Value, function, sysvar
from petitcom_shim.basic.runtime import Runtime

bind_function("BUTTON", "button", 0, 1)
bind_function("BTRIG", "btrig", 0, 0)
bind_statement("BREPEAT", "brepeat", 1, 3)


@function("INKEY$", 0, 0)
def _inkey(rt: Runtime, args: list[Value | None]) -> bytes:
    """INKEY$(): the next key typed, or ""."""
    key = rt.machine.inkey()
    return key.encode("latin-1", "replace") if isinstance(key, str) else bytes(key)


def _touch(name: str, attr: str) -> None:
    def handler(rt: Runtime) -> int:
        return numbers.from_int(int(getattr(rt.machine, attr)))

    handler.__name__ = f"sys_{attr}"
    sysvar(name)(handler)


for _name, _attr in (
    ("TCHX", "tchx"),
    ("TCHY", "tchy"),
    ("TCHST", "tchst"),
    ("TCHTIME", "tchtime"),
    ("KEYBOARD", "keyboard"),
):
    _touch(_name, _attr)
