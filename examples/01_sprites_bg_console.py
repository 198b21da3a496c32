"""Example 1: sprites, scrolling BG layers, console text and the touch screen.

Written only against the public ``petitcom_shim`` API, in the style of a
SmileBASIC program: define characters with CHRSET, build two BG layers and let
them scroll at different speeds, bounce a few spinning sprites, steer a ship
with the D-pad, and draw on the lower screen with the stylus (touch to send the
ship there). START quits.

Run it with ``python examples/01_sprites_bg_console.py``.
"""

from __future__ import annotations

from petitcom_shim import Button, Machine

# Our own 8x8 characters, one hex digit per pixel (0 = transparent).
STAR = "0000000000000000000F00000000000000000000000000000000000A00000000"
BRICK = "CCCCCCCECEEEEEEECEEEEEEECEEEEEEECCCCCCCCEEECEEEEEEECEEEEEEECEEEE"
# 16x16 sprites drawn as 16 rows of 16 pixels, cut into four 8x8 tiles below.
BALL_ART = (
    "00000FFFFFF00000", "000FFEEEEEEFF000", "00FEEEDDDDEEEF00", "0FEEDDDDDDDDEEF0",
    "0FEDDDCCCCDDDEF0", "FEEDDCCFFCCDDEEF", "FEDDCCFFFFCCDDEF", "FEDDCFFFFFFCDDEF",
    "FEDDCFFFFFFCDDEF", "FEDDCCFFFFCCDDEF", "FEEDDCCFFCCDDEEF", "0FEDDDCCCCDDDEF0",
    "0FEEDDDDDDDDEEF0", "00FEEEDDDDEEEF00", "000FFEEEEEEFF000", "00000FFFFFF00000",
)  # fmt: skip
SHIP_ART = (
    "0000000FF0000000", "000000FEEF000000", "000000FEEF000000", "00000FEDDEF00000",
    "00000FEDDEF00000", "0000FEDCCDEF0000", "0000FEDCCDEF0000", "000FEDCFFCDEF000",
    "00FEEDCFFCDEEF00", "0FEEDDCCCCDDEEF0", "FEEDDDDCCDDDDEEF", "FEDDF00CC00FDDEF",
    "FEDF000CC000FDEF", "FEF0000FF0000FEF", "FF000000000000FF", "F00000000000000F",
)  # fmt: skip

BALLS = 6
SHIP = 20


def tiles16(rows: tuple[str, ...]) -> list[str]:
    """Cut a 16x16 drawing into the four CHRSET strings of a 16x16 sprite (TL, TR, BL, BR)."""
    return ["".join(row[x : x + 8] for row in rows[y : y + 8]) for y in (0, 8) for x in (0, 8)]


def setup(m: Machine) -> list[list[int]]:
    """Define characters, fill the BG layers and create the sprites; returns ball velocities."""
    m.acls()
    m.chrset("BGU0", 1, STAR)
    m.chrset("BGU0", 2, BRICK)
    m.bgfill(1, 0, 0, 63, 63, 0)
    for _ in range(160):  # a scattered star field on the back layer
        m.bgput(1, m.rnd(64), m.rnd(64), 1, 9 + m.rnd(3))
    m.bgfill(0, 0, 21, 63, 23, 2, 8)  # brick ground on the front layer
    for t, tile in enumerate(tiles16(BALL_ART) + tiles16(SHIP_ART)):  # characters 0 and 1
        m.chrset("SPU0", t, tile)
    velocities = []
    for i in range(BALLS):
        m.spset(i, 0, 3 + i, 0, 0, 1)
        m.sphome(i, 8, 8)
        m.spofs(i, 20 + i * 36, 30 + (i * 23) % 100)
        m.spangle(i, 359, 60 + i * 10, 1 if i % 2 else -1)
        velocities.append([1 + i % 3, 1 + (i + 1) % 2])
    m.spset(SHIP, 1, 9, 0, 0, 0)
    m.sphome(SHIP, 8, 8)
    m.spofs(SHIP, 128, 150)
    m.color(3)
    m.print("PETIT COMPUTER SHIM - EXAMPLE 1")
    m.color(0)
    m.print("D-PAD MOVE, A TURN, START ENDS")
    m.print("TOUCH THE LOWER SCREEN TO DRAW")
    m.cpage(1)
    m.cls()
    m.print("DRAW HERE")
    m.cpage(0)
    m.gpage(1)
    m.gcls(0)
    m.gcolor(13)
    return velocities


def frame(
    m: Machine, velocities: list[list[int]], last_touch: list[int] | None
) -> list[int] | None:
    """One frame of game logic; returns the stylus position to join the next stroke to."""
    t = m.maincntl
    m.bgofs(1, t // 4, 0)
    m.bgofs(0, t, 0)
    for i, v in enumerate(velocities):
        x, y = m.spread(i)[:2]
        if not 8 <= x + v[0] <= 248:
            v[0] = -v[0]
        if not 8 <= y + v[1] <= 160:
            v[1] = -v[1]
        m.spofs(i, x + v[0], y + v[1])
        if m.spchk(i) & 2 == 0:
            m.spangle(i, 359 if m.spread(i).angle < 180 else 0, 60, 1)
    held = m.button()
    x, y = m.spread(SHIP)[:2]
    dx = (1 if held & Button.RIGHT else 0) - (1 if held & Button.LEFT else 0)
    dy = (1 if held & Button.DOWN else 0) - (1 if held & Button.UP else 0)
    if dx or dy:
        m.spofs(SHIP, max(8, min(248, x + 2 * dx)), max(8, min(184, y + 2 * dy)))
    if m.button(2) & Button.A and not m.spchk(SHIP) & 2:
        m.beep(2)
        m.spangle(SHIP, m.spread(SHIP).angle + 180, 20, 1)  # a clockwise half turn
    m.locate(0, 4)
    m.print(f"FRAME {t:5d}  HITS ", end="")
    m.print(sum(1 for i in range(BALLS) if m.sphitsp(SHIP, i)), " ", end="")
    if m.tchst:
        if last_touch is not None:
            m.gline(last_touch[0], last_touch[1], m.tchx, m.tchy)
        else:
            m.gpset(m.tchx, m.tchy)
            m.spofs(SHIP, max(8, min(248, m.tchx)), max(8, min(184, m.tchy)), 20)
        return [m.tchx, m.tchy]
    return None


def run(m: Machine, frames: int | None = None) -> int:
    """Run the example until START, the window closes, or ``frames`` frames have passed."""
    velocities = setup(m)
    touch: list[int] | None = None
    count = 0
    while m.running and (frames is None or count < frames):
        touch = frame(m, velocities, touch)
        if m.button(2) & Button.START:
            break
        m.vsync(1)
        count += 1
    return count


def main() -> None:
    """Open a window and run until START or the window is closed."""
    m = Machine(title="petitcom_shim example 1")
    try:
        run(m)
    finally:
        m.close()


if __name__ == "__main__":
    main()
