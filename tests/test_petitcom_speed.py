"""What makes ``petitcom run`` as fast as the C emulator (issue 23 §4), checked by the
work done rather than by the clock: start-up imports, CLS, BGMCHK, keyword binding.
tools/bench_basic.py --games measures the times."""

from __future__ import annotations

import io
import subprocess
import sys
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from petitcom_shim import Machine, font, mml
from petitcom_shim.basic import Interpreter
from petitcom_shim.basic.bind import arg, args_of
from petitcom_shim.basic.consoletext import console_text

#: Modules only QR codes, cameras or pictures need, and their cost at start-up.
HEAVY = ("PIL", "qrcode", "zxingcpp")


def test_a_headless_run_imports_no_qr_or_picture_library(tmp_path: Path) -> None:
    """Before, ``petitcom run`` imported qrcode, zxing and PIL (a sixth of its start-up)
    for a plain text program; now only a QR set or a camera brings them in."""
    src = tmp_path / "prog.txt"
    src.write_text('?"HI"\nGLINE 0,0,9,9,3\n', encoding="utf-8")
    script = (
        "import sys\n"
        "from petitcom_shim.basic import cli\n"
        f"code = cli.main(['run', {str(src)!r}, '--headless', '--console', "
        f"{str(tmp_path / 'c.txt')!r}, '--screenshot', {str(tmp_path / 's.png')!r}])\n"
        f"print(code, sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True
    )
    assert done.stdout.splitlines()[-1] == "0 []"
    assert (tmp_path / "s.png").stat().st_size > 0


def test_the_font_reads_as_pil_read_it() -> None:
    package, path = font.FONT_RESOURCE
    data = resources.files(package).joinpath(path).read_bytes()
    with Image.open(io.BytesIO(data)) as image:
        grey = np.asarray(image.convert("L"), dtype=np.uint8)
    expected = font.glyphs_from_sheet((grey >= 128).astype(np.uint8))
    assert np.array_equal(font.decode_font_png(data), expected)


def test_bgmchk_works_out_a_songs_length_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before, every BGMCHK (and every frame) went through the tempo map in fractions."""
    calls = []
    seconds = mml.Song.seconds

    def counted(self: mml.Song, position: object) -> float:
        calls.append(position)
        return seconds(self, position)  # type: ignore[arg-type]

    monkeypatch.setattr(mml.Song, "seconds", counted)
    machine = Machine(headless=True)
    basic = Interpreter(machine)
    basic.load(
        b'BGMPLAY "T120L4CDEFGABCDEFGAB"\r'  # a song that ends (a looping one never asks)
        b"FOR F=1 TO 30:FOR I=1 TO 20:P=BGMCHK(0):NEXT:VSYNC 1:NEXT\r?P\r"
    )
    assert basic.run().status == "ended"
    assert console_text(machine).split("\n")[0].rstrip() == "1"
    assert len(calls) <= 2


def _screen(machine: Machine) -> list[str]:
    return console_text(machine).split("\n")[:24]


def test_cls_clears_what_was_printed_and_takes_the_colours() -> None:
    """CLS skips rows already clear (and a console already clear in its colours)."""
    machine = Machine(headless=True)
    machine.cls()
    machine.cls()
    machine.print(b"HELLO")
    machine.cls()
    assert _screen(machine) == [" " * 32] * 24
    assert (machine.csrx, machine.csry) == (0, 0)
    machine.color(3, 5)
    machine.cls()
    con = machine.screens[0].console  # the cells' colours are not in the console text
    assert (con.bg_cells == 5).all() and (con.fg_cells == 3).all()
    machine.print(b"X")
    machine.cls()
    machine.cls()
    assert (con.codes == 0).all() and (con.bg_cells == 5).all()
    machine.color(3, 0)
    for _ in range(30):  # scrolls in background 0
        machine.print(b"LINE")
    machine.color(3, 5)
    machine.cls()
    assert (con.codes == 0).all() and (con.bg_cells == 5).all()


values = st.one_of(
    st.none(),
    st.binary(max_size=8),
    st.integers(-(2**31), 2**31 - 1),
)


@given(st.lists(values, max_size=6))
def test_bound_arguments_convert_as_arg_does(args: list[int | bytes | None]) -> None:
    expected = [arg(a) for a in args]
    while expected and expected[-1] is None:
        expected.pop()
    got = args_of(args)
    assert got == expected
    assert [type(x) for x in got] == [type(x) for x in expected]
