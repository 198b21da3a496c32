"""The console of both screens as text: the ``--console`` format of ``petitcom run``.

The upper console as 24 lines of 32 characters (trailing spaces kept), a line
``#LOWER``, then the lower console's 24 lines. Codes 0x20-0x7E are ASCII,
0x00 (a cleared cell) a space, 0xA1-0xDF half-width katakana (U+FF61-U+FF9F)
and every other code U+25A1 (□), so the file is plain UTF-8 text.
"""

from __future__ import annotations

from petitcom_shim import Machine

__all__ = ["console_text", "decode_cell"]


def decode_cell(code: int) -> str:
    """One console cell as the ``--console`` format writes it."""
    if code == 0:
        return " "
    if 0x20 <= code <= 0x7E:
        return chr(code)
    if 0xA1 <= code <= 0xDF:
        return chr(0xFF61 + code - 0xA1)
    return "\u25a1"


def console_text(machine: Machine) -> str:
    """Both consoles of ``machine`` in the ``--console`` format (ends with a newline)."""
    lines: list[str] = []
    for screen in (0, 1):
        if screen:
            lines.append("#LOWER")
        for row in machine.screens[screen].console.codes:
            lines.append("".join(decode_cell(int(c)) for c in row))
    return "\n".join(lines) + "\n"
