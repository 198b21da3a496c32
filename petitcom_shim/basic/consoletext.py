"""The console of both screens as text: the ``--console`` format of ``petitcom run``.

The upper console as 24 lines of 32 characters (trailing spaces kept), a line
``#LOWER``, then the lower console's 24 lines. Each cell is written as the
Unicode character ``petitcom list`` uses for its code
(:data:`petitcom_shim.charset.PTC_TO_UNICODE`: ASCII, half-width katakana, ♥,
█ ...), except 0x00 (a cleared cell) and 0x0D (CHR$(13), drawn blank), which
are spaces: every line then has 32 characters and the file is plain UTF-8 text.
"""

from __future__ import annotations

from petitcom_shim import Machine
from petitcom_shim.charset import NEWLINE, PTC_TO_UNICODE

__all__ = ["console_text", "decode_cell"]


def decode_cell(code: int) -> str:
    """One console cell as the ``--console`` format writes it."""
    if code in (0, NEWLINE):
        return " "
    return PTC_TO_UNICODE[code]


def console_text(machine: Machine) -> str:
    """Both consoles of ``machine`` in the ``--console`` format (ends with a newline)."""
    lines: list[str] = []
    for screen in (0, 1):
        if screen:
            lines.append("#LOWER")
        for row in machine.screens[screen].console.codes:
            lines.append("".join(decode_cell(int(c)) for c in row))
    return "\n".join(lines) + "\n"
