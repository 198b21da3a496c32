"""The lower-screen keyboard's layout: where each key is, its KEYBOARD code and what it types.

Pure data and look-ups, no drawing (that is :mod:`petitcom_shim.video.panel`).
The positions, sizes and codes are Petit Computer's, as both reference
emulators lay them out ([SBC] source/subsystem/panel.c ``keyboard_pos`` and
``key_map``, [EMK] src/PanelKeyboard.cpp); what each key types on the
alphanumeric (KYA), symbol (KYM) and kana (KYK) keyboards, plain and shifted, is
[SBC]'s ``keyboard_chr`` (PTC character codes, petitcom.md §8.4). The art is ours.

Key codes (the value KEYBOARD reads): 1 ESC, 2-14 the top row, 15 BACKSPACE,
16-31 the second row, 32 TAB, 33-46 the third row, 47 SHIFT, 48-59 the fourth
row, 60 ENTER, 61 CAPS, 62-64 the KYA/KYM/KYK switches, 65 SPACE, 66 INSERT,
67 DELETE, 68 SEARCH. The panel's other touch areas have codes above 69 that
KEYBOARD never reports: 70 HELP, 71 RUN/STOP, 72 EDIT, 80/81 the ICONPAGE
up/down buttons, 90-93 the four icons, 101-105 the function keys, 106 the
exit button.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = [
    "BACKSPACE",
    "CAPS",
    "ENTER",
    "ESC",
    "FUNCTION_KEYS",
    "ICON_DOWN",
    "ICON_KEYS",
    "ICON_UP",
    "KEYBOARD_TYPES",
    "KEYS",
    "SHIFT",
    "SPACE",
    "Key",
    "key_at",
    "key_for_char",
    "typed_codes",
]

ESC: Final = 1
BACKSPACE: Final = 15
TAB: Final = 32
SHIFT: Final = 47
ENTER: Final = 60
CAPS: Final = 61
SWITCH_KYA: Final = 62
SWITCH_KYM: Final = 63
SWITCH_KYK: Final = 64
SPACE: Final = 65
INSERT: Final = 66
DELETE: Final = 67
SEARCH: Final = 68
HELP: Final = 70
RUN_STOP: Final = 71
EDIT: Final = 72
ICON_UP: Final = 80
ICON_DOWN: Final = 81
#: The four icon slots' codes (slot n is ``ICON_KEYS[n]``).
ICON_KEYS: Final = (90, 91, 92, 93)
#: The five function keys' codes (FUNCNO n is ``FUNCTION_KEYS[n - 1]``).
FUNCTION_KEYS: Final = (101, 102, 103, 104, 105)
EXIT: Final = 106
#: KEYBOARD reports only codes up to this one.
LAST_KEYBOARD_CODE: Final = 69

#: The panel types that show a keyboard, in the order of their switch keys 62-64.
KEYBOARD_TYPES: Final = ("KYA", "KYM", "KYK")


@dataclass(frozen=True)
class Key:
    """One touch area of the panel: its code, its hit box in screen pixels and its label.

    ``label`` names a special key ("ESC", "BS", ...); character keys have "" and
    show what they type.
    """

    code: int
    x: int
    y: int
    w: int
    h: int
    label: str = ""

    def contains(self, x: int, y: int) -> bool:
        """True if pixel (x, y) lies on the key."""
        return self.x <= x < self.x + self.w and self.y <= y < self.y + self.h


def _layout() -> tuple[Key, ...]:
    """Every touch area; hit boxes are [SBC] ``key_map``'s 8x8 cells."""
    keys: list[Key] = []
    # The four character rows: (first code, count, left of the first key, top).
    rows = ((2, 13, 24, 48), (16, 16, 0, 72), (33, 14, 24, 96), (48, 12, 32, 120))
    for first, count, left, top in rows:
        keys += [Key(first + i, left + 16 * i, top, 16, 24) for i in range(count)]
    keys += [
        Key(ESC, 0, 48, 24, 24, "ESC"),
        Key(BACKSPACE, 232, 48, 24, 24, "BS"),
        Key(TAB, 0, 96, 24, 24, "TAB"),
        Key(SHIFT, 0, 120, 32, 24, "SHIFT"),
        Key(ENTER, 224, 120, 32, 24, "ENTER"),
        Key(CAPS, 0, 144, 16, 16, "CAPS"),
        Key(SWITCH_KYA, 24, 144, 16, 16, "KYA"),
        Key(SWITCH_KYM, 40, 144, 16, 16, "KYM"),
        Key(SWITCH_KYK, 56, 144, 16, 16, "KYK"),
        Key(SPACE, 80, 144, 112, 16, "SPACE"),
        Key(INSERT, 200, 144, 16, 16, "INS"),
        Key(DELETE, 216, 144, 16, 16, "DEL"),
        Key(SEARCH, 240, 144, 16, 16, "SEARCH"),
        Key(HELP, 0, 168, 32, 24, "HELP"),
        Key(RUN_STOP, 40, 168, 48, 24, "RUN/STOP"),
        Key(EDIT, 88, 168, 48, 24, "EDIT"),
        Key(EXIT, 240, 0, 16, 16, "EXIT"),
    ]
    keys += [Key(code, 48 * n, 0, 48, 16, f"F{n + 1}") for n, code in enumerate(FUNCTION_KEYS)]
    return tuple(keys)


#: The keyboard's touch areas (icons and the ICONPAGE buttons are :data:`ICON_AREAS`).
KEYS: Final = _layout()

#: The icon slots (32x32 pictures, 24-pixel-wide hit boxes) and ICONPAGE's buttons.
ICON_AREAS: Final = tuple(Key(code, 160 + 24 * n, 168, 24, 24) for n, code in enumerate(ICON_KEYS))
ICON_PAGE_AREAS: Final = (Key(ICON_UP, 144, 168, 16, 12, "UP"), Key(ICON_DOWN, 144, 180, 16, 12))


def key_at(x: int, y: int, areas: tuple[Key, ...] = KEYS) -> Key | None:
    """The touch area under pixel (x, y), or None."""
    for key in areas:
        if key.contains(x, y):
            return key
    return None


# What the character keys type, per keyboard and shift state: one PTC code per key
# (two hex digits) for codes 2-14, 16-31, 33-46 and 48-59, row by row; 00 types
# nothing. The shifted kana keyboard types up to two codes per key (a kana and its
# voicing mark), four hex digits each. From [SBC] panel.c ``keyboard_chr``.
_Mode = tuple[str, bool]
_ROW_CODES: Final = ((2, 13), (16, 16), (33, 14), (48, 12))
_TABLES: Final[dict[_Mode, tuple[str, ...]]] = {
    ("KYA", False): (
        "31 32 33 34 35 36 37 38 39 30 2d 2b 3d",
        "24 22 51 57 45 52 54 59 55 49 4f 50 40 2a 28 29",
        "21 41 53 44 46 47 48 4a 4b 4c 3b 3a 3c 3e",
        "27 5a 58 43 56 42 4e 4d 2c 2e 2f 25",
    ),
    ("KYA", True): (
        "00 00 23 00 00 26 00 5e 5c 7e 00 7f 7c",
        "00 00 71 77 65 72 74 79 75 69 6f 70 60 00 5b 5d",
        "00 61 73 64 66 67 68 6a 6b 6c 00 00 7b 7d",
        "00 7a 78 63 76 62 6e 6d 00 00 3f 5f",
    ),
    ("KYM", False): (
        "f1 f2 f0 f3 0a e5 1a e4 e6 e7 10 07 14",
        "03 96 98 91 99 ec ee ef ed 0e 0f 05 06 04 0b 1b",
        "95 92 93 94 15 17 16 f4 f6 f7 f5 eb ea e8",
        "ff 9a 90 9b fc fd fe 97 9c 9d 9e 9f",
    ),
    ("KYM", True): (
        "00 80 00 00 00 e1 00 e0 e2 e3 11 08 00",
        "00 00 f8 1e fa 01 02 18 19 0c 12 13 00 00 e9 00",
        "00 1d 00 1c 00 81 82 83 84 85 86 87 00 00",
        "00 f9 1f fb 88 89 8a 8b 8c 8d 8e 8f",
    ),
    ("KYK", False): (
        "b1 b2 b3 b4 b5 c5 c6 c7 c8 c9 2d 2b 3d",
        "a0 a5 b6 b7 b8 b9 ba ca cb cc cd ce a2 a3 dd a1",
        "bb bc bd be bf cf d0 d1 d2 d3 d4 d5 d6 a4",
        "c0 c1 c2 c3 c4 d7 d8 d9 da db dc a6",
    ),
    ("KYK", True): (
        "a700 a800 a900 aa00 ab00 0000 0000 0000 0000 0000 cadf cbdf ccdf",
        "af00 b3de b6de b7de b8de b9de bade cade cbde ccde cdde cede cddf cedf 0000 0000",
        "bbde bcde bdde bede bfde 3100 3200 3300 3400 3500 ac00 ad00 ae00 0000",
        "c0de c1de c2de c3de c4de 3600 3700 3800 3900 3000 0000 0000",
    ),
}


def _decode(tables: dict[_Mode, tuple[str, ...]]) -> dict[_Mode, dict[int, bytes]]:
    """The hex rows as {key code: typed codes} per (keyboard, shifted)."""
    out: dict[_Mode, dict[int, bytes]] = {}
    for mode, rows in tables.items():
        keys: dict[int, bytes] = {}
        for (first, count), row in zip(_ROW_CODES, rows, strict=True):
            cells = row.split()
            if len(cells) != count:
                raise AssertionError(f"{mode} row from {first}: {len(cells)} keys, not {count}")
            for i, cell in enumerate(cells):
                codes = bytes(b for b in bytes.fromhex(cell) if b)
                if codes:
                    keys[first + i] = codes
        keys[TAB] = b"\t"
        keys[ENTER] = b"\r"
        keys[SPACE] = b" "
        out[mode] = keys
    return out


_CHARACTERS: Final = _decode(_TABLES)


def key_for_char(char: int) -> int:
    """The KYA key (its KEYBOARD code) that types PTC code ``char``, plain or shifted; 0 if none.

    The real keyboard reports through this: a PC key that types a character
    reads as the software key that types it.
    """
    for shifted in (False, True):
        for code, typed in _CHARACTERS["KYA", shifted].items():
            if typed == bytes((char,)):
                return code
    return 0


def typed_codes(kind: str, shifted: bool, code: int) -> bytes:
    """The PTC codes a key types on keyboard ``kind`` ("KYA", "KYM", "KYK"); b"" for none."""
    return _CHARACTERS.get((kind, shifted), {}).get(code, b"")
