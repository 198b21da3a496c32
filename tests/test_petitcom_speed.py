"""What makes ``petitcom run`` as fast as the C emulator (issue 23 §4), checked by the
work done rather than by the clock: start-up imports, CLS, BGMCHK, keyword binding.
tools/bench_basic.py --games measures the times."""

from __future__ import annotations

import hashlib
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
from petitcom_shim.video.chr import FAMILIES
from petitcom_shim.video.default_art import default_bank

#: Modules only QR codes, cameras or pictures need, and their cost at start-up.
HEAVY = ("PIL", "qrcode", "zxingcpp")
#: Modules a headless run of a program that plays no sound does not need: captures,
#: scripted input, DIRECT mode and the debugger, the windows, the sound stack, resource
#: files, and the standard library only those bring in (json: --json; tomllib: a config
#: file; hashlib, which loads OpenSSL: a PTC file's checksum or the first sprite shown).
LAZY = (
    "petitcom_shim.capture",
    "petitcom_shim.inputscript",
    "petitcom_shim.basic.direct",
    "petitcom_shim.basic.editor",
    "petitcom_shim.basic.debugger",
    "petitcom_shim.display",
    "petitcom_shim.sound",
    "petitcom_shim.bgm",
    "petitcom_shim.mml",
    "petitcom_shim.ptcres",
    "json",
    "tomllib",
    "hashlib",
    "logging",
    "concurrent.futures",
    "fractions",
    "importlib.readers",
)


def _modules_after(tmp_path: Path, program: str, *options: str) -> tuple[int, set[str]]:
    """Run ``petitcom run`` on ``program`` in a fresh Python (headless, console and PNG
    written, as a test harness runs it); its exit status and the modules it imported."""
    src = tmp_path / "prog.txt"
    src.write_text(program, encoding="utf-8")
    argv = [str(src), "--headless", "--console", str(tmp_path / "c.txt")]
    argv += ["--screenshot", str(tmp_path / "s.png"), *options]
    script = (
        "import sys\n"
        "from petitcom_shim.basic import cli\n"
        f"code = cli.main(['run', *{argv!r}])\n"
        "print(code, ' '.join(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True
    )
    code, names = done.stdout.splitlines()[-1].split(" ", 1)
    assert (tmp_path / "s.png").stat().st_size > 0
    return int(code), set(names.split())


def test_a_headless_run_imports_no_qr_or_picture_library(tmp_path: Path) -> None:
    """Before, ``petitcom run`` imported qrcode, zxing and PIL (a sixth of its start-up)
    for a plain text program; now only a QR set or a camera brings them in."""
    code, modules = _modules_after(tmp_path, '?"HI"\nGLINE 0,0,9,9,3\n')
    assert code == 0
    assert {m.split(".")[0] for m in modules} & set(HEAVY) == set()


def test_a_headless_run_imports_only_what_it_uses(tmp_path: Path) -> None:
    """A headless run of a program without sound imports none of :data:`LAZY` (a
    fifth of its start-up before, docs/basic-internals.md "Start-up"); a program that
    plays sound imports the sound stack when it first does, and works the same."""
    code, modules = _modules_after(tmp_path, '?"HI"\nGLINE 0,0,9,9,3\n', "--frames", "2")
    assert code == 0
    assert modules & set(LAZY) == set()
    program = 'BEEP 3\nBGMPLAY "T240CDE"\nVSYNC 1\n?BGMCHK(0)\n'
    code, modules = _modules_after(tmp_path, program, "--json")
    assert code == 0
    assert {"petitcom_shim.sound", "petitcom_shim.bgm", "petitcom_shim.mml", "json"} <= modules
    assert (tmp_path / "c.txt").read_text(encoding="utf-8").split("\n")[0].rstrip() == "1"


def test_the_cli_constants_agree_with_their_modules() -> None:
    """The command keeps two values of modules it imports only when used."""
    from petitcom_shim import capture
    from petitcom_shim.basic import cli, direct

    assert cli.CAPTURE_SECONDS == capture.MAX_SECONDS
    assert cli.KEYBOARD == direct.KEYBOARD


def test_a_silent_machine_makes_its_sound_players_when_first_used() -> None:
    """Headless (no audio) the BEEP and BGM players are made on first use, silent; a
    machine with sound opens them (and the mixer) at once, so its first BEEP does not
    wait for the device."""
    machine = Machine(headless=True)
    assert machine._sound is None and machine._bgm is None
    machine.vsync(1)  # a frame without them
    assert machine.sysbeep == 1
    assert machine._sound is not None and not machine.sound.enabled
    assert machine.bgm is machine._bgm and not machine.bgm.enabled
    machine.close()
    loud = Machine(headless=True, audio=True)  # the dummy audio driver in the tests
    assert loud._sound is not None and loud._bgm is not None
    loud.close()


#: SHA-256 of every default bank's tiles (FAMILIES in name order, banks in order) as the
#: per-tile code made them before it was made whole-array (docs "Start-up").
DEFAULT_ART_SHA256 = "7d1415a3a5bea70b146f3d4f767b7163c2468423cc6074f9e255733457a2df46"


def test_the_default_chr_art_is_the_same_tiles() -> None:
    digest = hashlib.sha256()
    for family, (count, _) in sorted(FAMILIES.items()):
        for bank in range(count):
            tiles = default_bank(family, bank)
            if tiles is not None:
                assert tiles.dtype == np.uint8 and tiles.shape == (256, 8, 8)
                assert not tiles.flags.writeable
            digest.update(b"-" if tiles is None else tiles.tobytes())
    assert digest.hexdigest() == DEFAULT_ART_SHA256


def test_an_empty_bg_layer_draws_its_first_tile() -> None:
    """An empty layer's colour index is a shared read-only view until a tile is drawn."""
    machine = Machine(headless=True)
    layer = machine.screens[0].bg.layers[0]
    machine.screen_surface(0)
    assert not layer.index.flags.writeable
    machine.bgput(0, 1, 1, 0x0F)  # tile 15: solid in value 15
    pixels = machine.screen_array(0)
    assert layer.index.flags.writeable
    assert (layer.index[8:16, 8:16] == 15).all() and (layer.index[16:24, 8:16] == 256).all()
    assert len({tuple(p) for p in pixels[8:16, 8:16].reshape(-1, 3)}) == 1
    blank = Machine(headless=True).screen_array(0)
    assert (pixels[8:16, 8:16] != blank[8:16, 8:16]).any()
    assert (pixels[:8] == blank[:8]).all()


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
