"""argparse value types shared by the shim's commands (``petitcom``, ``petitcom-qr``).

A module of its own so that ``petitcom run`` need not import the QR command
(and with it qrcode, zxing and PIL) for a number option.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

__all__ = ["int_range"]


def int_range(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text[:20]!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}, not {value}")
        return value

    return parse
