"""What every command of the three programs does the same way (issue 26 item 9).

``royalnine``, ``petitcom`` and ``petitcom-qr``: numbers are ASCII digits, a
refusal with ``--json`` is exactly one JSON line, output paths follow the one
rule of :func:`petitcom_shim.files.check_output_path`, and a closed standard
output is one line on stderr, never a traceback.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from petitcom_shim import qrcli
from petitcom_shim.basic import cli as petitcomcli
from royalnine.cli import main as royalnine_main
from royalnine.kiosk.service import Notifier

GRID = "R1,R2,R3,B4,R5,B6,B7,B8,R9"
#: Look like digits to Python's ``int`` and ``str.isdigit``, but are not ASCII.
NOT_ASCII_DIGITS = ("²", "١٢", "１２", "1_000")


def royalnine(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = royalnine_main(list(argv))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def petitcom(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    try:
        code = petitcomcli.main([str(a) for a in argv])
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def qr(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    try:
        code = qrcli.main([str(a) for a in argv])
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def one_json_line(out: str) -> dict[str, object]:
    lines = out.splitlines()
    assert len(lines) == 1, out
    doc: dict[str, object] = json.loads(lines[0])
    return doc


# ------------------------------------------------------------------ numbers


@pytest.mark.parametrize("digit", ["²", "٣", "３"])
def test_a_card_rank_that_is_not_an_ascii_digit_is_one_line_not_a_traceback(
    capsys: pytest.CaptureFixture[str], digit: str
) -> None:
    code, out, err = royalnine(capsys, "score", GRID[:-1] + digit)
    assert (code, out) == (1, "") and err.count("\n") == 1 and "not a card" in err
    code, out, err = royalnine(
        capsys, "hint", "--hand", f"R1,R2,R3,R{digit}", "--opponent", "B1,B2,B3,B4"
    )
    assert (code, out) == (1, "") and err.count("\n") == 1 and "not a card" in err


@pytest.mark.parametrize("text", NOT_ASCII_DIGITS)
def test_number_options_take_ascii_digits_only(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str
) -> None:
    src = tmp_path / "p.txt"
    src.write_text("?1\n", encoding="utf-8")
    for argv in (["play", "--seed", text], ["play", "--rounds", text], ["kiosk", "--seed", text]):
        code, _, err = royalnine(capsys, *argv, "--home", str(tmp_path / "h"))
        assert code == 2 and "not a whole number" in err, (argv, err)
    for option in ("--frames", "--seed"):
        code, _, err = petitcom(capsys, "run", src, "--headless", option, text)
        assert code == 2 and "not a whole number" in err, (option, err)
    code, _, err = qr(capsys, "encode", "--hex", "ab", "-o", tmp_path / "q.png", "--border", text)
    assert code == 2 and "not a whole number" in err
    assert not (tmp_path / "h").exists()


def test_ascii_numbers_still_work(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    src = tmp_path / "p.txt"
    src.write_text("?1\n", encoding="utf-8")
    assert petitcom(capsys, "run", src, "--headless", "--frames", "+12", "--seed", "7")[0] == 0


@pytest.mark.parametrize("usec", ["²", "１０００", "٣٠٠٠"])
def test_a_watchdog_interval_in_other_digits_is_no_watchdog(usec: str) -> None:
    assert Notifier({"WATCHDOG_USEC": usec}).interval is None
    assert Notifier({"WATCHDOG_USEC": "4000000"}).interval == 2.0


def test_kiosk_hours_take_ascii_digits_only() -> None:
    from royalnine.kiosk.config import parse_hours

    assert parse_hours("09:00-17:30") == (540, 1050)
    assert parse_hours("０９:００-１７:３０") is None
    assert parse_hours("٠٩:٠٠-17:30") is None


# ------------------------------------------------------------------ --json


def test_score_with_json_prints_one_json_line_per_bad_grid(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = royalnine(capsys, "score", "--json", "R1,R2")
    assert code == 1 and one_json_line(out)["ok"] is False and err.count("\n") == 1
    code, out, _ = royalnine(capsys, "score", "--json", GRID, "nonsense")
    lines = out.splitlines()
    assert code == 1 and len(lines) == 2
    assert "total" in json.loads(lines[0]) and json.loads(lines[1])["ok"] is False


def test_hint_with_json_prints_one_json_line_on_bad_input(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = royalnine(capsys, "hint", "--json", "--hand", "R1", "--opponent", "B1")
    doc = one_json_line(out)
    assert code == 1 and doc["ok"] is False and "4 cards" in str(doc["error"])


def test_review_with_json_prints_one_json_line_on_bad_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "bad.json"
    record.write_text("{not json", encoding="utf-8")
    code, out, err = royalnine(capsys, "review", str(record), "--json")
    assert code == 1 and one_json_line(out)["ok"] is False and err.count("\n") == 1
    code, out, err = royalnine(capsys, "review", str(tmp_path / "missing.json"), "--json")
    assert code == 1 and one_json_line(out)["ok"] is False


def test_review_out_empty_is_refused_not_taken_as_no_out(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = royalnine(capsys, "review", str(tmp_path / "x.json"), "--out", "", "--json")
    assert code == 2 and "empty path" in err and one_json_line(out)["ok"] is False


@pytest.mark.parametrize(
    "argv",
    [
        ["run", "MISSING.PTC", "--headless", "--json"],
        ["run", "MISSING.PTC", "--headless", "--json", "--frames", "x"],
        ["run", "--json"],
    ],
)
def test_petitcom_run_with_json_prints_one_json_line_when_it_cannot_start(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str]
) -> None:
    code, out, err = petitcom(capsys, *argv)
    doc = one_json_line(out)
    assert code == 2 and err.count("\n") == 1
    assert doc == {"status": "usage", "frames": None, "error": doc["error"], "line": None}
    assert doc["error"] and str(doc["error"]) in err


# ------------------------------------------------------------------ output paths


def _read_only(tmp_path: Path) -> Path:
    path = tmp_path / "kept.out"
    path.write_bytes(b"old")
    path.chmod(stat.S_IRUSR | stat.S_IRGRP)
    return path


def _dangling(tmp_path: Path) -> Path:
    link = tmp_path / "dangling.out"
    link.symlink_to(tmp_path / "nowhere.out")
    return link


def _outputs(tmp_path: Path, target: Path) -> list[tuple[str, list[str | Path]]]:
    """Every command that writes a file the user names, writing to ``target``."""
    src = tmp_path / "p.txt"
    src.write_text("?1\n", encoding="utf-8")
    ptc = tmp_path / "P.PTC"
    assert petitcomcli.main(["pack", str(src), "-o", str(ptc)]) == 0
    return [
        ("petitcom", ["run", src, "--headless", "--console", target]),
        ("petitcom", ["run", src, "--headless", "--screenshot", target]),
        ("petitcom", ["pack", src, "-o", target]),
        ("qr", ["encode", "--hex", "ab", "-o", target]),
        ("royalnine", ["remote", "export", "--home", tmp_path / "h", target]),
        ("royalnine", ["kiosk", "--home", tmp_path / "k", "--stats-csv", target]),
    ]


def _run(capsys: pytest.CaptureFixture[str], program: str, argv: list[str | Path]) -> int:
    capsys.readouterr()
    if program == "petitcom":
        return petitcom(capsys, *argv)[0]
    if program == "qr":
        return qr(capsys, *argv)[0]
    if argv[0] == "remote":
        royalnine(capsys, "remote", "host", "--home", str(argv[3]))
    return royalnine(capsys, *map(str, argv))[0]


@pytest.mark.parametrize("kind", ["read-only file", "link to nothing"])
def test_every_command_refuses_a_read_only_file_and_a_link_to_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, kind: str
) -> None:
    target = _read_only(tmp_path) if kind == "read-only file" else _dangling(tmp_path)
    for program, argv in _outputs(tmp_path, target):
        code = _run(capsys, program, argv)
        err = capsys.readouterr().err
        assert code != 0, (program, argv)
        if kind == "read-only file":
            assert target.read_bytes() == b"old", (program, argv)
            assert not target.stat().st_mode & stat.S_IWUSR
        else:
            assert target.is_symlink() and not (tmp_path / "nowhere.out").exists(), argv
        del err


def test_every_command_writes_into_dev_null_without_replacing_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    before = os.stat(os.devnull)
    for program, argv in _outputs(tmp_path, Path(os.devnull)):
        code = _run(capsys, program, argv)
        assert code == 0, (program, argv, capsys.readouterr().err)
        after = os.stat(os.devnull)
        assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino


def test_review_refuses_a_read_only_screenshot(tmp_path: Path) -> None:
    from royalnine.cli.review import BadReview, check_out

    out = tmp_path / "shots"
    out.mkdir()
    shot = out / "step-001.png"
    shot.write_bytes(b"old")
    shot.chmod(stat.S_IRUSR)
    with pytest.raises(BadReview, match="read-only"):
        check_out(out, 3)


# ------------------------------------------------------------------ closed stdout


def _with_stdout_closed(argv: list[str]) -> tuple[int, str]:
    """Run a command whose standard output is a pipe nobody reads (closed at once)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    try:
        done = subprocess.run(
            [sys.executable, "-m", *argv],
            stdout=write_end,
            stderr=subprocess.PIPE,
            env=env,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)
    return done.returncode, done.stderr.decode()


def test_a_closed_stdout_is_one_line_in_every_program(tmp_path: Path) -> None:
    image = tmp_path / "q.png"
    assert qrcli.main(["encode", "--hex", "ab" * 200, "-o", str(image)]) == 0
    for argv, prog in (
        (["petitcom_shim.qrcli", "decode", str(image)], "petitcom-qr"),
        (["royalnine.cli", "score", GRID], "royalnine"),
    ):
        code, err = _with_stdout_closed(argv)
        assert "Traceback" not in err and code == 1, (argv, err)
        assert err == f"{prog}: standard output was closed before all was written\n"


# ------------------------------------------------------------------ petitcom specifics


def test_files_naming_a_missing_folder_says_it_is_missing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    src = tmp_path / "p.txt"
    src.write_text("?1\n", encoding="utf-8")
    code, _, err = petitcom(capsys, "run", src, "--headless", "--files", tmp_path / "gone")
    assert code == 2 and "no such folder (it is missing)" in err and err.count("\n") == 1
    code, _, err = petitcom(capsys, "run", src, "--headless", "--files", src)
    assert code == 2 and "not a folder" in err


def test_help_says_what_dash_means_for_console_and_screenshot(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        petitcomcli.main(["run", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for option in ("--console FILE", "--screenshot FILE"):
        after = text.split(option, 2)[-1]
        assert "FILE - is a file named -, not stdout" in after[:120], option


def test_to_qr_refuses_a_read_only_image_before_writing_any(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    src = tmp_path / "p.txt"
    lines = "".join(f"?{i * 7919 % 100003}\n" for i in range(900))  # hard to compress
    src.write_text(lines, encoding="utf-8")  # more than one code
    ptc = tmp_path / "P.PTC"
    assert petitcomcli.main(["pack", str(src), "-o", str(ptc)]) == 0
    out = tmp_path / "set"
    assert qr(capsys, "to-qr", ptc, "-o", out)[0] == 0
    images = sorted(out.iterdir())
    assert len(images) >= 2
    first = images[0].read_bytes()
    images[0].write_bytes(b"mine")
    images[-1].chmod(stat.S_IRUSR)
    code, _, err = qr(capsys, "to-qr", ptc, "-o", out)
    assert code == 1 and "read-only" in err and images[-1].name in err
    assert images[0].read_bytes() == b"mine" != first  # nothing was written
