"""Example 2: art made in the shim, saved as Petit Computer files and QR sets, loaded back.

The upper screen is built the SmileBASIC way: characters with CHRSET, colours
with COLSET, a BG map with BGPUT/BGFILL and a picture on a GRP page. Then, as
a PTC program would with ``SAVE "BGU0:CARDS"``, each resource is saved as a
``.PTC`` file (the format a real Petit Computer keeps on its SD card) and each
file as a QR set that a DSi can scan with Petit Computer's QR reader. Finally
the files are loaded onto the lower screen, which shows the same picture, and
the QR set of the GRP page is read back to check it. START quits.

Run it with ``python examples/02_ptc_files.py [OUTPUT_FOLDER]`` (default
``ptc_out``); the files land in that folder and each QR set in ``qr/NAME/``
inside it (``petitcom-qr from-qr ptc_out/qr/CARDS -o CARDS.PTC`` reads one back).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from petitcom_shim import Button, Machine, ptcfile, ptcqr

# Our own 16x16 card-suit drawings, one hex digit per pixel (0 = transparent),
# cut into four 8x8 CHRSET tiles each.
HEART = (
    "0000000000000000", "00FFFF0000FFFF00", "0FEEEEF00FEEEEF0", "FEEDDEEFFEEDDEEF",
    "FEDDDDEEEEDDDDEF", "FEDDDDDDDDDDDDEF", "FEDDDDDDDDDDDDEF", "0FEDDDDDDDDDDEF0",
    "0FEDDDDDDDDDDEF0", "00FEDDDDDDDDEF00", "000FEDDDDDDEF000", "0000FEDDDDEF0000",
    "00000FEDDEF00000", "000000FEEF000000", "0000000FF0000000", "0000000000000000",
)  # fmt: skip
SPADE = (
    "0000000FF0000000", "000000FEEF000000", "00000FEDDEF00000", "0000FEDDDDEF0000",
    "000FEDDDDDDEF000", "00FEDDDDDDDDEF00", "0FEDDDDDDDDDDEF0", "FEDDDDDDDDDDDDEF",
    "FEDDDDDDDDDDDDEF", "FEDDDDEDDEDDDDEF", "0FEEEEFEEFEEEEF0", "00FFFF0EE0FFFF00",
    "000000FEEF000000", "00000FEDDEF00000", "0000FFFFFFFF0000", "0000000000000000",
)  # fmt: skip
CLOTH = "1111111112111111111111111111112111111111111121111111111111111111"

#: Resource -> file name: what gets saved, as in ``SAVE "BGU0:CARDS"``.
SAVES = {"BGU0": "CARDS", "COL0": "CARDPAL", "SCU0": "TABLE", "GRP0": "ROSETTE"}


def tiles16(rows: tuple[str, ...]) -> list[str]:
    """Cut a 16x16 drawing into four CHRSET strings (top-left, top-right, bottom-left, -right)."""
    return ["".join(row[x : x + 8] for row in rows[y : y + 8]) for y in (0, 8) for x in (0, 8)]


def build_art(m: Machine) -> None:
    """Upper screen: characters, a palette, a BG table of cards and GRP rings behind them."""
    m.acls()
    m.bgpage(0)
    m.chrset("BGU0", 1, CLOTH)
    for n, tile in enumerate(tiles16(HEART) + tiles16(SPADE)):
        m.chrset("BGU0", 2 + n, tile)
    # palette 2: green cloth (pixels 1, 2); 3: red suit, 4: dark suit (pixels 13-15)
    m.colset("BG", 2 * 16 + 1, "1E6B35")
    m.colset("BG", 2 * 16 + 2, "2A8244")
    suits = {3: ("E83030", "FFD0D0", "801010"), 4: ("303048", "E0E0F0", "101018")}
    for pal, shades in suits.items():
        for n, rgb in enumerate(shades, 13):
            m.colset("BG", 16 * pal + n, rgb)
    m.bgfill(1, 0, 0, 63, 63, 1, 2)  # the cloth on the back layer
    for row in range(3):
        for col in range(8):
            x, y = 1 + col * 4, 9 + row * 5
            first = 2 if (row + col) % 2 == 0 else 6
            for n, (dx, dy) in enumerate(((0, 0), (1, 0), (0, 1), (1, 1))):
                m.bgput(0, x + dx, y + dy, first + n, 3 if first == 2 else 4)
    m.gpage(0, 0, 0)
    m.gprio(2)  # between the cloth (BG1) and the cards (BG0)
    m.gcls(0)
    for r in range(8, 104, 6):
        m.gcircle(128, 112, r, 16 + (r * 7) % 216)


def save_everything(m: Machine, out: Path) -> dict[str, int]:
    """SAVE each resource as out/NAME.PTC and as a QR set in out/qr/NAME; returns codes per file."""
    codes = {}
    for res, name in SAVES.items():
        path = out / f"{name}.PTC"
        m.save(f"{res}:{name}", path)
        codes[name] = len(ptcqr.write_set(ptcfile.read_file(path), out / "qr" / name))
    return codes


def load_onto_lower_screen(m: Machine, out: Path) -> None:
    """LOAD the files into the lower screen's resources and GRP page 1, shown there."""
    m.bgpage(1)
    m.load("BGU0:CARDS", out / "CARDS.PTC")
    m.load("COL0:CARDPAL", out / "CARDPAL.PTC")
    m.load("SCU0:TABLE", out / "TABLE.PTC")
    m.bgfill(1, 0, 0, 63, 63, 1, 2)
    m.load("GRP1:ROSETTE", out / "ROSETTE.PTC")
    m.gpage(1, 1, 1)
    m.gprio(2)
    m.bgpage(0)


def report(m: Machine, codes: dict[str, int], checked: bool) -> None:
    """Console text on the upper screen: the files written and the QR check."""
    m.cpage(0)
    m.color(0)
    m.locate(0, 0)
    m.print("SAVED AS .PTC AND QR SETS:")
    for name, count in codes.items():
        m.print(f" {name:<8} {count} QR CODE{'S' if count > 1 else ''}")
    m.color(4 if checked else 13)
    m.print("QR SET READ BACK: " + ("SAME FILE" if checked else "DIFFERENT!"))
    m.cpage(1)
    m.color(0)
    m.locate(0, 23)
    m.print("LOADED FROM THE .PTC FILES", end="")
    m.cpage(0)


def run(m: Machine, frames: int | None = None, out: Path | None = None) -> int:
    """Build, save, load and show; then scroll both tables until START or ``frames`` frames.

    ``out`` is the folder for the files; None = a temporary folder removed afterwards.
    """
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) if out is None else out
        folder.mkdir(parents=True, exist_ok=True)
        build_art(m)
        codes = save_everything(m, folder)
        load_onto_lower_screen(m, folder)
        rings = ptcqr.read_set([folder / "qr" / "ROSETTE"])
        checked = rings == ptcfile.read_file(folder / "ROSETTE.PTC")
        report(m, codes, checked)
    count = 0
    while m.running and (frames is None or count < frames):
        for screen in (0, 1):
            m.bgpage(screen)
            m.bgofs(1, m.maincntl // 2, m.maincntl // 4)
        m.bgpage(0)
        if m.button(2) & Button.START:
            break
        m.vsync(1)
        count += 1
    return count


def main() -> None:
    """Open a window, write the files into the folder given (default ptc_out) and show them."""
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "ptc_out")
    m = Machine(title="petitcom_shim example 2")
    try:
        run(m, out=out)
        print(f"files in {out.resolve()}, QR sets in {(out / 'qr').resolve()}/NAME")
    finally:
        m.close()


if __name__ == "__main__":
    main()
