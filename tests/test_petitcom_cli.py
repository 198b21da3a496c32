"""The ``petitcom`` command's exact contract: options, outputs, exit codes, bad input.

Each test runs ``petitcom_shim.basic.cli.main`` in-process (headless) on programs written
here; the examples and the conformance suite run through it in
tests/test_basic_examples.py.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pygame
import pytest

from petitcom_shim import ptcfile
from petitcom_shim.basic import cli as petitcomcli
from petitcom_shim.ptcfile import PtcFile


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = petitcomcli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def program(tmp_path: Path, text: str, name: str = "prog.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def outcome(out: str) -> dict[str, object]:
    lines = out.splitlines()
    assert len(lines) == 1
    parsed: dict[str, object] = json.loads(lines[0])
    assert list(parsed) == ["status", "frames", "error", "line"]
    return parsed


def test_run_writes_console_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = program(tmp_path, '?"HI ｱ♥"\n?1/4\n')
    con = tmp_path / "out.txt"
    code, out, err = run(capsys, "run", src, "--headless", "--json", "--console", con)
    assert (code, err) == (0, "")
    assert out == '{"status": "ended", "frames": 0, "error": null, "line": null}\n'
    lines = con.read_text(encoding="utf-8").split("\n")
    assert len(lines) == 50 and lines[-1] == "" and lines[24] == "#LOWER"
    assert all(len(line) == 32 for line in lines[:24] + lines[25:49])
    assert lines[0] == "HI ｱ♥" + " " * 27  # 0xF1 is written as `petitcom list` writes it
    assert lines[1].rstrip() == "0.25"
    assert lines[25:49] == [" " * 32] * 24


def test_frames_stops_a_program_that_never_calls_vsync(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = program(tmp_path, "@L\nGOTO @L\n")
    code, out, _ = run(capsys, "run", src, "--headless", "--json", "--frames", "3")
    assert code == 0
    result = outcome(out)
    assert result["status"] == "stopped" and result["frames"] == 3


def test_frames_with_vsync_and_scripted_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = program(tmp_path, "@L\nVSYNC 1\nIF BUTTON()==16 THEN ?MAINCNTL:END\nGOTO @L\n")
    script = tmp_path / "in.txt"
    script.write_text("# press A from frame 5\n5 B A\n")
    con = tmp_path / "c.txt"
    code, out, _ = run(
        capsys, "run", src, "--headless", "--json", "--input", script, "--console", con
    )
    assert (code, outcome(out)["status"]) == (0, "ended")
    assert con.read_text().split("\n")[0].rstrip() == "5"


def test_program_error_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = program(tmp_path, "A=1\nGOTO @NOWHERE\n")
    code, out, _ = run(capsys, "run", src, "--headless", "--json")
    assert code == 1
    assert outcome(out) == {
        "status": "error",
        "frames": 0,
        "error": "Undefined label",
        "line": 2,
    }
    code, out, err = run(capsys, "run", src, "--headless")
    assert (code, out) == (1, "")
    assert err == "petitcom: Undefined label (line 2)\n"


def test_seed_makes_rnd_repeatable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = program(tmp_path, 'FOR I=1 TO 8:?RND(1000);" ";:NEXT\n')
    texts = []
    for seed in ("7", "7", "8"):
        con = tmp_path / f"c{len(texts)}.txt"
        assert run(capsys, "run", src, "--headless", "--seed", seed, "--console", con)[0] == 0
        texts.append(con.read_text())
    assert texts[0] == texts[1] != texts[2]


def test_screenshot_is_a_png_of_both_screens(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:

    shot = tmp_path / "shot.png"
    assert run(capsys, "run", program(tmp_path, "?1\n"), "--headless", "--screenshot", shot)[0] == 0
    assert pygame.image.load(str(shot)).get_size() == (256, 384)


def test_save_area_defaults_to_the_programs_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = program(tmp_path, 'MEM$="SAVED":SAVE "MEM:NOTE":?RESULT\n')
    con = tmp_path / "c.txt"
    assert run(capsys, "run", src, "--headless", "--console", con)[0] == 0
    assert con.read_text().split("\n")[0].rstrip() == "1"
    assert ptcfile.mem_from_bytes(ptcfile.read_file(tmp_path / "NOTE.PTC").payload) == b"SAVED"
    other = tmp_path / "area"
    other.mkdir()
    reader = program(tmp_path, 'LOAD "MEM:NOTE":?RESULT;MEM$\n', "reader.txt")
    assert run(capsys, "run", reader, "--headless", "--files", other, "--console", con)[0] == 0
    assert con.read_text().split("\n")[0].rstrip() == "0"
    assert run(capsys, "run", reader, "--headless", "--console", con)[0] == 0
    assert con.read_text().split("\n")[0].rstrip() == "1SAVED"


# ------------------------------------------------------------------ usage errors: exit 2


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["run"], "the following arguments are required: PROGRAM"),
        (["run", "p.txt", "--frames", "x"], "not a whole number"),
        (["run", "p.txt", "--frames", "-1"], "must be from 0"),
        (["run", "p.txt", "--speed", "fast"], "invalid choice: 'fast'"),
        (["run", "p.txt", "--bogus"], "unrecognized arguments: --bogus"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        (["pack", "p.txt"], "required: -o/--output"),
    ],
)
def test_usage_errors_are_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as exit_:
        petitcomcli.main(argv)
    out, err = capsys.readouterr()
    assert exit_.value.code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("petitcom") and message in err


def _unreadable(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    good = PtcFile.of("P", "PRG", ptcfile.prg_payload(b"?1\r")).to_bytes()
    cases = {
        "missing": (tmp_path / "none.PTC", "no such file"),
        "truncated PRG": (tmp_path / "trunc.PTC", "truncated or padded"),
        "damaged PRG": (tmp_path / "damaged.PTC", "MD5 checksum does not match"),
        "binary garbage": (tmp_path / "garbage.bin", "is not UTF-8"),
        "fifo": (tmp_path / "fifo", "not a regular file"),
        "folder of no images": (tmp_path / "empty", "no image files"),
        "not a program": (tmp_path / "col.PTC", "is a COL file, not a program"),
    }
    cases["truncated PRG"][0].write_bytes(good[:-2])
    cases["damaged PRG"][0].write_bytes(good[:-1] + b"X")
    cases["binary garbage"][0].write_bytes(bytes(range(128, 256)) * 8)
    os.mkfifo(cases["fifo"][0])
    cases["folder of no images"][0].mkdir()
    cases["not a program"][0].write_bytes(PtcFile.of("C", "COL", bytes(512)).to_bytes())
    return cases


def test_unreadable_programs_exit_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for path, message in _unreadable(tmp_path).values():
        for command in (["run", path, "--headless"], ["list", path]):
            code, out, err = run(capsys, *command)
            assert (code, out) == (2, ""), path
            assert err.count("\n") == 1 and message in err, (path, err)


def test_a_100kb_line_runs_or_gives_ptcs_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = program(tmp_path, "A=1" + ":A=A+1" * 20_000 + "\n?A\n")
    assert src.stat().st_size > 100_000
    code, out, err = run(capsys, "run", src, "--headless", "--json", "--frames", "10")
    assert code in (0, 1) and err == ""
    assert outcome(out)["status"] in ("ended", "error")


def test_special_files_are_never_replaced_as_outputs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The one output rule (files.check_output_path): a folder and a link to nothing are
    refused before the run, a FIFO nobody reads when it is written; none is replaced."""
    src = program(tmp_path, "?1\n")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "dir").mkdir()
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    says = {fifo: "a FIFO with no reader", tmp_path / "dir": "is a folder"}
    says[tmp_path / "dangling"] = "a link to nothing"
    for target, message in says.items():
        for option in ("--console", "--screenshot"):
            code, out, err = run(capsys, "run", src, "--headless", option, target)
            assert code == 2 and out == "" and message in err, (target, err)
            assert err.count("\n") == 1
        code, _, err = run(capsys, "pack", src, "-o", target)
        assert code == 2 and message in err
    assert fifo.exists() and (tmp_path / "dir").is_dir() and (tmp_path / "dangling").is_symlink()
    assert not (tmp_path / "nowhere").exists()
    code, _, err = run(capsys, "run", src, "--headless", "--console", tmp_path / "no" / "c.txt")
    assert code == 2 and "does not exist" in err


@pytest.mark.parametrize("option", ["--console", "--screenshot", "-o"])
def test_outputs_are_synced_with_their_folder_and_keep_the_files_mode(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, option: str
) -> None:
    """The command's own writer renamed an unsynced file over the old one (a crash could
    leave it empty) and gave a replaced file the temporary file's mode 0600."""
    from test_shim_files import spy_on_fsync

    src = program(tmp_path, "?1\n")
    target = tmp_path / "out.bin"
    target.write_bytes(b"old")
    target.chmod(0o644)
    synced = spy_on_fsync(monkeypatch)
    argv = (
        ["pack", src, "-o", target]
        if option == "-o"
        else ["run", src, "--headless", option, target]
    )
    assert run(capsys, *argv)[0] == 0
    assert target.read_bytes() != b"old"
    assert False in synced and True in synced  # the file, then its folder
    assert target.stat().st_mode & 0o777 == 0o644


def test_bad_input_script_and_resources_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = program(tmp_path, "?1\n")
    script = tmp_path / "in.txt"
    script.write_text("0 B A\n1 B HOLD\n")
    code, _, err = run(capsys, "run", src, "--headless", "--input", script)
    assert code == 2 and err == f"petitcom: {script}:2: unknown button 'HOLD' (one of " + (
        "UP DOWN LEFT RIGHT A B X Y L R START SELECT, joined by +)\n"
    )
    code, _, err = run(capsys, "run", src, "--headless", "--resources", tmp_path / "none")
    assert code == 2 and "--resources" in err and "no such folder (it is missing)" in err
    code, _, err = run(capsys, "run", src, "--headless", "--files", tmp_path / "none")
    assert code == 2 and "no such folder (it is missing)" in err


# ------------------------------------------------------------------ list and pack


def test_pack_writes_a_prg_a_dsi_loads_and_list_reads_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = program(tmp_path, 'CLS\r\n?"♠ ｶﾞ"\r\n', "cards.txt")
    out_path = tmp_path / "MYCARDS.PTC"
    code, out, _ = run(capsys, "pack", src, "-o", out_path)
    assert code == 0 and "PRG file MYCARDS" in out
    raw = out_path.read_bytes()
    text = b'CLS\r?"\xf0 \xb6\xde"\r'
    # petitcom.md §8.2, written out by hand: header, type id 0, name, MD5, tag, PRG payload.
    internal = b"PETC0300RPRG" + bytes(8) + len(text).to_bytes(4, "little") + text  # no padding
    assert raw[:4] == b"PX01"
    assert raw[4:8] == len(internal).to_bytes(4, "little")
    assert raw[8:12] == bytes(4)
    assert raw[12:20] == b"MYCARDS\0"
    assert raw[20:36] == hashlib.md5(b"PETITCOM" + internal).digest()
    assert raw[36:] == internal
    code, out, _ = run(capsys, "list", out_path)
    assert (code, out) == (0, 'CLS\n?"♠ ｶﾞ"\n')


def test_run_in_a_window_with_frames(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without --headless a window opens (in memory under SDL's dummy driver)."""
    src = program(tmp_path, "@L\nVSYNC 1\nGOTO @L\n")
    code, out, _ = run(capsys, "run", src, "--frames", "4", "--json")
    assert code == 0 and outcome(out) == {
        "status": "stopped",
        "frames": 4,
        "error": None,
        "line": None,
    }


def test_no_display_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:

    def no_window(**_: object) -> None:
        raise pygame.error("x11 not available")

    monkeypatch.setattr(petitcomcli, "Machine", no_window)
    code, out, err = run(capsys, "run", program(tmp_path, "?1\n"))
    assert (code, out) == (2, "")
    assert err == "petitcom: cannot open a window (x11 not available); use --headless\n"


def test_resources_folder_reaches_the_machine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--resources DIR is Machine(resources=DIR): the user's CHR/COL files are the defaults."""
    words = bytes(range(256)) * 2
    (tmp_path / "res").mkdir()
    (tmp_path / "res" / "COL0.PTC").write_bytes(PtcFile.of("COL0", "COL", words).to_bytes())
    src = program(tmp_path, 'COLINIT:COLREAD("BG",1),R,G,B:?R;",";G;",";B\n')
    con = tmp_path / "c.txt"
    code, _, err = run(
        capsys, "run", src, "--headless", "--resources", tmp_path / "res", "--console", con
    )
    assert (code, err) == (0, "")
    from petitcom_shim.video.palette import decode_color

    r, g, b = decode_color(int.from_bytes(words[2:4], "little"))  # the file's colour 1
    assert con.read_text().split("\n")[0].rstrip() == f"{r},{g},{b}"
    (tmp_path / "res" / "COL1.PTC").write_bytes(b"PX01 broken")
    code, out, err = run(capsys, "run", src, "--headless", "--resources", tmp_path / "res")
    assert (code, out) == (2, "") and err.startswith("petitcom: --resources: ")
    assert err.count("\n") == 1


def test_key_map_lets_enter_and_backspace_type() -> None:
    from petitcom_shim import Button

    keys = petitcomcli._config().keys
    assert not {"return", "enter", "backspace"} & set(keys)
    assert keys["right ctrl"] == Button.START and keys["escape"] == Button.SELECT


def test_typing_t_does_not_toggle_the_stylus_cursor() -> None:
    """T types in this command, so it is not the cursor toggle: after typing "T" the
    A button (the X key) must stay a button, not a tap on the software keyboard."""
    import pygame

    from petitcom_shim.input import Input

    inp = Input(petitcomcli._config())
    inp.key_down(pygame.K_t)
    inp.key_up(pygame.K_t)
    assert not inp.cursor_visible
    inp.key_down(pygame.K_F9)
    assert inp.cursor_visible


def test_help_says_how_to_break(capsys: pytest.CaptureFixture[str]) -> None:
    """--help names the break key: SELECT (Esc) only, START being an ordinary button
    ([SBC]'s main loop sets ERR_BREAK on SELECT alone)."""
    with pytest.raises(SystemExit) as exit_info:
        petitcomcli.main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "Esc or Right Shift  SELECT: breaks a running program" in out
    assert "START is a button programs read" in out


def test_no_display_found_is_exit_2_not_an_invisible_window(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no display SDL falls back to its offscreen driver by itself: a window
    nobody sees (DIRECT mode would then never end). The command says so instead."""
    for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    code, out, err = run(capsys, "run", program(tmp_path, "?1\n"), "--frames", "1", "--json")
    assert code == 2 and outcome(out)["status"] == "usage"
    assert err.startswith("petitcom: no display to open a window on") and err.count("\n") == 1


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
@pytest.mark.parametrize("option", ["--console", "--screenshot", "-o"])
def test_an_output_folder_that_cannot_be_written_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str
) -> None:
    """/proc takes no new files: the write fails after the checks, and says so in one line."""
    src = program(tmp_path, "?1\n")
    out_path = "/proc/petitcom-out.txt"
    if option == "-o":
        argv: tuple[str | Path, ...] = ("pack", src, "-o", out_path)
    else:
        argv = ("run", src, "--headless", option, out_path)
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert err.startswith(f"petitcom: {out_path}: ") and err.endswith("; not written\n")
    assert err.count("\n") == 1


def test_an_output_named_dash_is_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "run", program(tmp_path, "?7\n"), "--headless", "--console", "-")
    assert (code, out) == (0, "")
    assert (tmp_path / "-").read_text(encoding="utf-8").startswith("7 ")


def test_stdout_closed_early_is_one_line_exit_2(tmp_path: Path) -> None:
    """`petitcom run --json | true`: the reader is gone when the JSON line is written."""
    import subprocess
    import sys

    src = program(tmp_path, "?1\n")
    proc = subprocess.Popen(
        [sys.executable, "-m", "petitcom_shim.basic.cli", "run", str(src), "--headless", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"},
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 2
    assert err == "petitcom: standard output was closed before all was written\n"


def test_a_program_starts_with_the_keyboard_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PTC shows the KYA keyboard when a program starts ([SBC] `init_panel`), so a
    program that INPUTs can be typed into; PNLTYPE "OFF" hides it again."""

    def lower_lit(source: str) -> int:
        shot = tmp_path / "shot.png"
        code = run(capsys, "run", program(tmp_path, source), "--headless", "--screenshot", shot)
        assert code[0] == 0
        image = pygame.image.load(str(shot))
        lower = image.subsurface(
            (0, image.get_height() // 2, image.get_width(), image.get_height() // 2)
        )
        return sum(
            1
            for x in range(0, lower.get_width(), 4)
            for y in range(0, lower.get_height(), 4)
            if lower.get_at((x, y))[:3] != (0, 0, 0)
        )

    assert lower_lit("VSYNC 1\n") > 500
    assert lower_lit('PNLTYPE "OFF":VSYNC 1\n') == 0
