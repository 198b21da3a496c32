"""An emulated Petit Computer (SmileBASIC v2, Nintendo DSi) hardware layer on pygame-ce.

Two 256x192 screens, console, BG layers, sprites, GRP pages, palettes, CHR
banks, buttons and stylus, BEEP and QR images, behind SmileBASIC-style verbs on
a :class:`Machine`. It knows nothing about any particular game.
"""

import os

# pygame prints a banner on import; a hardware layer should be quiet.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from petitcom_shim.errors import Break, IllegalFunctionCall, OutOfRange, PetitcomError
from petitcom_shim.input import Button
from petitcom_shim.machine import Machine, SpriteState

__all__ = [
    "Break",
    "Button",
    "IllegalFunctionCall",
    "Machine",
    "OutOfRange",
    "PetitcomError",
    "SpriteState",
]
