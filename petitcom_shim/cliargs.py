"""argparse value types shared by the shim's commands (``petitcom``, ``petitcom-qr``).

A module of its own so that ``petitcom run`` need not import the QR command
(and with it qrcode, zxing and PIL) for a number option.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

__all__ = ["int_range"]


def int_range(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``, in ASCII digits (Python's
    ``int`` also takes Arabic-Indic and full-width digits, and underscores)."""

    def parse(text: str) -> int:
        body = text.strip()
        digits = body[1:] if body[:1] in "+-" else body
        if not (digits.isascii() and digits.isdigit()):
            raise argparse.ArgumentTypeError(f"not a whole number: {text[:20]!r}")
        value = int(body)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}, not {value}")
        return value

    return parse
