"""Nothing within PTC's limits stalls, swamps or breaks ``petitcom`` (issue 23 §5): stale
temporary files of interrupted SAVEs, folders that cannot be reached, a program at
PTC's size limit."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from petitcom_shim.basic import cli as petitcomcli
from petitcom_shim.savearea import STALE_AFTER, SaveArea


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = petitcomcli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _age(path: Path, seconds: float) -> None:
    when = time.time() - seconds
    os.utime(path, (when, when))


def test_a_later_run_removes_what_a_killed_save_left(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A kill during SAVE leaves ``.NAME.PTC.xxxxxxxx.tmp`` (write_atomic's temporary
    file); the next run with that save area removes it, but not a young one (another
    petitcom may be saving right now) nor anything else."""
    area = tmp_path / "area"
    area.mkdir()
    stale = [area / ".GAME.PTC.k2j_9xqa.tmp", area / ".GAME-MEM.PTC.abcdefgh.tmp"]
    young = area / ".OTHER.PTC.zz1234zz.tmp"
    kept = [area / ".notes.tmp", area / "GAME.PTC.abcdefgh.tmp", area / ".X.PTC.short.tmp"]
    for path in [*stale, young, *kept]:
        path.write_bytes(b"PX01")
    (area / ".DIR.PTC.abcdefgh.tmp").mkdir()
    for path in [*stale, *kept]:
        _age(path, STALE_AFTER + 5)
    src = tmp_path / "prog.txt"
    src.write_text('?"OK"\n', encoding="utf-8")
    code, _, err = run(capsys, "run", src, "--headless", "--files", area)
    assert (code, err) == (0, "")
    assert not any(p.exists() for p in stale)
    assert young.exists() and all(p.exists() for p in kept)
    assert (area / ".DIR.PTC.abcdefgh.tmp").is_dir()


def test_save_area_on_a_missing_folder_cleans_nothing(tmp_path: Path) -> None:
    assert SaveArea(tmp_path / "none").cleaned == []


@pytest.mark.parametrize("option", ["--files", "--resources"])
def test_a_folder_name_too_long_is_one_line_in_run_and_direct(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str
) -> None:
    src = tmp_path / "prog.txt"
    src.write_text("?1\n", encoding="utf-8")
    folder = tmp_path / ("a" * 300)
    message = f"{option} {folder}: cannot be read (File name too long)"
    for argv in (["run", src, "--headless", "--json", option, folder], ["direct", option, folder]):
        code, out, err = run(capsys, *argv)
        assert code == 2 and err == f"petitcom: {message}\n"
        if "--json" in argv:  # the same error as the one JSON line on stdout
            assert json.loads(out) == {
                "status": "usage", "frames": None, "error": message, "line": None
            }  # fmt: skip
        else:
            assert out == ""


@pytest.mark.parametrize("option", ["--files", "--resources"])
def test_an_unreadable_folder_is_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    option: str,
) -> None:
    """A folder under one the user may not read (tests run as root, who may read
    anything, so the refusal is the operating system's answer, stood in for)."""
    src = tmp_path / "prog.txt"
    src.write_text("?1\n", encoding="utf-8")
    locked = tmp_path / "locked" / "area"
    real_scandir = os.scandir

    def scandir(path: object) -> object:
        if str(path).startswith(str(locked.parent)):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", scandir)
    for argv in (["run", src, "--headless", option, locked], ["direct", option, locked]):
        code, out, err = run(capsys, *argv)
        assert (code, out) == (2, "")
        assert err == f"petitcom: {option} {locked}: cannot be read (Permission denied)\n"
