"""Example 3: the lower screen's software keyboard, function keys and icons.

The program asks for a name the way SmileBASIC's ``INPUT "NAME";N$`` does: the
question on the upper screen, the answer typed on the KYA keyboard of the lower
screen (tap the keys; the real keyboard types too; BS erases, ESC cancels).
Then it shows what the panel reports each frame: KEYBOARD (the key being
touched), FUNCNO (F1 types "HELLO"), ICONCHK() (the four icons) and ICONPAGE
(the arrows beside the icons). START quits.

Run it with ``python examples/03_keyboard.py``.
"""

from __future__ import annotations

from petitcom_shim import Button, Machine


def setup_panel(m: Machine) -> None:
    """The alphanumeric keyboard, a function key of our own and four icons on 3 pages."""
    m.pnltype("KYA")
    m.key(1, "HELLO")
    for slot, picture in enumerate((1, 20, 37, 54)):
        m.iconset(slot, picture)
    m.iconpmax = 3
    m.iconpuse = True


def run(m: Machine, frames: int | None = None) -> int:
    """Ask a name, then show the panel's state until START or ``frames`` frames.

    Returns:
        The number of frames that ran.
    """
    start = m.maincntl

    def left() -> int | None:
        return None if frames is None else frames - (m.maincntl - start)

    setup_panel(m)
    m.cls()
    m.print("WHAT IS YOUR NAME?")
    name = m.line_input(timeout=left())
    m.color(3)  # yellow
    m.print("NO NAME, THEN." if name is None else f"HELLO, {name}!")
    m.color(9)  # light blue
    seen = ""
    while m.running and (frames is None or (left() or 0) > 0):
        if m.keyboard:
            seen = f"KEYBOARD {m.keyboard:2d}"
        elif m.funcno:
            seen = f"FUNCNO {m.funcno}"
        elif m.iconchk() >= 0:
            seen = f"ICON {m.iconchk()}"
        m.locate(0, 10)
        m.print(f"LAST {seen:<20}")
        m.print(f"ICONPAGE {m.iconpage}/{m.iconpmax}  TYPED {m.inkey() or ' '}")
        if m.button(2) & Button.START:
            break
        m.vsync()
    return m.maincntl - start


def main() -> None:
    """Open a window and run until START or the window is closed."""
    m = Machine(title="petitcom_shim example 3")
    try:
        run(m)
    finally:
        m.close()


if __name__ == "__main__":
    main()
