"""The play and demo commands: flags reach the settings; demo --headless --out writes each stage."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from royalnine.cli import build_parser, main
from royalnine.cli.play import _settings


def test_play_flags_override_the_saved_settings_for_this_run(tmp_path: Path) -> None:
    flags = ["--layout", "single", "--scale", "3", "--lang", "ja", "--tens", "--rounds", "3"]
    flags += ["--seed", "7", "--level", "easy", "--fullscreen"]
    args = build_parser().parse_args(["play", "--home", str(tmp_path), *flags])
    assert callable(args.func) and args.seed == 7
    storage, settings = _settings(args)
    assert storage.home == tmp_path
    assert (settings.layout, settings.scale, settings.lang) == ("single", 3, "ja")
    assert (settings.tens, settings.rounds, settings.difficulty, settings.fullscreen) == (
        True,
        3,
        "easy",
        True,
    )
    assert not (tmp_path / "settings.json").exists()  # flags are for this run only


def test_bad_rounds_are_refused(tmp_path: Path) -> None:
    args = build_parser().parse_args(["play", "--home", str(tmp_path), "--rounds", "0"])
    with pytest.raises(SystemExit):
        _settings(args)


def test_demo_headless_writes_a_screenshot_of_each_stage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "shots"
    status = main(
        ["demo", "--headless", "--rounds", "1", "--home", str(tmp_path), "--out", str(out)]
    )
    assert status == 0
    names = {p.stem for p in out.glob("*.png")}
    assert {"title", "reveal", "round_result", "match_result"} <= names
    with Image.open(out / "title.png") as img:
        assert img.size == (256, 384)
    assert "demo finished" in capsys.readouterr().out


def test_the_demos_match_record_keeps_its_mode_and_a_failed_write_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """match.json was written with the player data's writer: mode 0600 each time, and a
    full disk ended the demo in a traceback."""
    import errno
    import os

    out = tmp_path / "shots"
    out.mkdir()
    (out / "match.json").write_text("{}")
    (out / "match.json").chmod(0o644)
    argv = ["demo", "--headless", "--rounds", "1", "--home", str(tmp_path / "h"), "--out", str(out)]
    assert main(argv) == 0
    assert (out / "match.json").stat().st_mode & 0o777 == 0o644
    assert (out / "match.json").read_text() != "{}"

    import petitcom_shim.files

    real = petitcom_shim.files.write_atomic

    def full_for_the_record(path: Path, data: bytes, **kw: Any) -> None:
        if Path(path).name == "match.json":  # the screenshots still fit
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(path, data, **kw)

    monkeypatch.setattr(petitcom_shim.files, "write_atomic", full_for_the_record)
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert str(exc.value) == f"royalnine demo: {out / 'match.json'}: No space left on device"


def test_controls_file_is_read_from_home_or_the_flag(tmp_path: Path) -> None:
    from petitcom_shim import Button
    from royalnine.cli.play import _shim_config

    args = build_parser().parse_args(["play", "--home", str(tmp_path)])
    storage, _ = _settings(args)
    assert _shim_config(args, storage) is None  # no file: the shim's defaults
    (tmp_path / "shim.toml").write_text('[keys]\na = ["space"]\n')
    config = _shim_config(args, storage)
    assert config is not None and config.keys["space"] == Button.A
    other = tmp_path / "kiosk.toml"
    # the kiosk's shim.toml, [kiosk] table and all, is a controls file too
    other.write_text('[display]\ntop_display = 1\nbottom_display = 0\n[kiosk]\npin = "2468"\n')
    args = build_parser().parse_args(["play", "--home", str(tmp_path), "--controls", str(other)])
    assert _shim_config(args, storage).top_display == 1


@pytest.mark.parametrize("content", ["[keys]\na = 5\n", "not toml ["])
def test_a_bad_controls_file_named_by_flag_stops_with_one_line(
    tmp_path: Path, content: str
) -> None:
    from royalnine.cli.play import _shim_config

    bad = tmp_path / "mine.toml"
    bad.write_text(content)
    args = build_parser().parse_args(["play", "--home", str(tmp_path), "--controls", str(bad)])
    storage, _ = _settings(args)
    with pytest.raises(SystemExit) as exc:
        _shim_config(args, storage)
    message = str(exc.value)
    assert message.startswith("royalnine: ") and "mine.toml" in message and "\n" not in message
    args = build_parser().parse_args(["play", "--controls", str(tmp_path / "missing.toml")])
    with pytest.raises(SystemExit, match="no such file"):
        _shim_config(args, storage)


@pytest.mark.parametrize(
    ("content", "lines"),
    [
        ("[keys]\na = 5\nb = ['space']\n[cursor]\nspeed = 0\nfast_speed = 9\n", 2),
        ("not toml [", 1),
    ],
)
def test_a_bad_controls_file_in_home_is_reported_and_the_game_starts(
    tmp_path: Path, content: str, lines: int, capsys: pytest.CaptureFixture[str]
) -> None:
    from petitcom_shim import Button
    from petitcom_shim.config import ShimConfig
    from royalnine.cli.play import _shim_config

    (tmp_path / "shim.toml").write_text(content)
    args = build_parser().parse_args(["play", "--home", str(tmp_path)])
    storage, _ = _settings(args)
    config = _shim_config(args, storage)
    if lines == 1:  # unreadable: all the defaults
        assert config == ShimConfig()
    else:  # each bad value keeps its default, the good ones apply
        assert (config.keys["space"], config.keys["x"]) == (Button.B, Button.A)
        assert (config.cursor_speed, config.cursor_fast_speed) == (2, 9)
    err = capsys.readouterr().err.splitlines()
    assert len(err) == lines and all(line.startswith("royalnine: ") for line in err)
    assert all("shim.toml: " in line and "using the default" in line for line in err)
    (notice,) = storage.notices  # one notice in the game, however many bad values
    assert "controls file has an error" in notice.text("en") and "shim.toml" in notice.text("en")
    assert (tmp_path / "shim.toml").read_text() == content  # the player's file is left alone


def test_play_without_any_display_says_so_instead_of_running_invisibly(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")
    }
    env["SDL_AUDIODRIVER"] = "dummy"
    try:
        done = subprocess.run(
            [sys.executable, "-m", "royalnine.cli", "--home", str(tmp_path)],
            env=env,
            capture_output=True,
            text=True,
            timeout=30,
        )
    except subprocess.TimeoutExpired:
        pytest.skip("SDL found a real display here")
    assert done.returncode != 0
    assert "royalnine: no display to open a window on" in done.stderr


def test_the_demo_stops_when_its_window_is_closed(tmp_path: Path) -> None:
    """A closed window (or SIGTERM, which SDL turns into a close request) ends the demo."""
    from petitcom_shim import Machine
    from royalnine.game import new_game
    from royalnine.screens.autoplay import AutoPlayer
    from royalnine.storage import Settings, Storage

    app = new_game(Machine(headless=True), Storage(tmp_path), Settings(sound=False))
    player = AutoPlayer(app, seed=1)
    for _ in range(30):
        player.step()
    app.m.running = False  # what the window's close button does
    assert player.play() == 0 and not player.finished


# --- the demo plays in a throwaway profile (issue 18 item 1) -------------------


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_the_demo_reads_the_players_settings_and_writes_nothing_to_their_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With a saved match there it used to stop on "Start a new match?" (or raise after
    60000 frames headless), and each run added a lost match to the statistics."""
    import royalnine.game
    from royalnine.core import Match, MatchConfig
    from royalnine.storage import SaveGame, Settings, Storage

    home = tmp_path / "player"
    player = Storage(home)
    player.save_settings(Settings(lang="ja", layout="side", rounds=1))
    player.save_game(SaveGame(Match.new(MatchConfig(rounds=1)), "cpu", {"level": "hard"}))
    before = _tree(home)
    seen: list[tuple[str, str, Path]] = []
    real_new_game = royalnine.game.new_game

    def spy(m: object, storage: Storage, settings: Settings, **kw: object) -> object:
        seen.append((settings.lang, settings.layout, storage.home))
        return real_new_game(m, storage, settings, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(royalnine.game, "new_game", spy)
    for _ in range(2):
        assert main(["demo", "--headless", "--home", str(home)]) == 0
        assert "demo finished" in capsys.readouterr().out
    assert _tree(home) == before  # no stats.json, the save and the settings as they were
    assert [s[:2] for s in seen] == [("ja", "side")] * 2
    assert all(s[2] != home and not s[2].exists() for s in seen)  # the scratch folder is gone


@pytest.mark.parametrize(
    "case", ["file", "fifo", "device", "under_a_file", "link_to_file", "dangling_link"]
)
def test_demo_out_that_is_not_a_usable_folder_stops_with_one_line(
    tmp_path: Path, case: str
) -> None:
    import os

    target = tmp_path / "target"
    target.write_text("keep")
    out = {
        "file": target,
        "fifo": tmp_path / "fifo",
        "device": Path(os.devnull),
        "under_a_file": target / "shots",
        "link_to_file": tmp_path / "link",
        "dangling_link": tmp_path / "dangling",
    }[case]
    if case == "fifo":
        os.mkfifo(out)
    elif case == "link_to_file":
        out.symlink_to(target)
    elif case == "dangling_link":
        out.symlink_to(tmp_path / "missing" / "deeper")
        (tmp_path / "missing").write_text("a file where a folder should be")
    with pytest.raises(SystemExit) as exc:
        main(["demo", "--headless", "--home", str(tmp_path / "h"), "--out", str(out)])
    message = str(exc.value)
    assert message.startswith("royalnine demo: --out ") and "\n" not in message
    assert target.read_text() == "keep" and os.path.exists(os.devnull)
    assert not (tmp_path / "h").exists()  # nothing was started


@pytest.mark.parametrize(
    "argv",
    [
        ["demo", "--headless", "--out", ""],
        ["play", "--home", ""],
        ["remote", "status", "--home", ""],
        ["remote", "export", ""],
        ["kiosk", "--stats-csv", ""],
    ],
)
def test_an_empty_path_is_refused_not_taken_as_the_current_folder(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert "an empty path" in capsys.readouterr().err


def test_the_game_takes_a_gap_for_this_run(tmp_path: Path) -> None:
    args = build_parser().parse_args(["play", "--home", str(tmp_path), "--gap", "16"])
    assert _settings(args)[1].gap == 16
    args = build_parser().parse_args(["play", "--home", str(tmp_path), "--gap", "999"])
    with pytest.raises(SystemExit, match="--gap must be 0 to 192"):
        _settings(args)


def test_a_data_folder_named_before_the_command_goes_to_the_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``royalnine --home DIR kiosk ...`` (as the idle-CPU tool runs it) means
    ``royalnine kiosk --home DIR ...``; ``--home=DIR`` too; ``--home DIR`` alone is play."""
    import royalnine.cli as cli

    seen: list[list[str]] = []
    monkeypatch.setattr(cli, "build_parser", _recording_parser(seen))
    for argv, want in (
        (
            ["--home", str(tmp_path), "kiosk", "--windowed"],
            ["kiosk", "--home", str(tmp_path), "--windowed"],
        ),
        ([f"--home={tmp_path}", "review", "x"], ["review", f"--home={tmp_path}", "x"]),
        (["--home", str(tmp_path)], ["play", "--home", str(tmp_path)]),
        (["kiosk", "--home", str(tmp_path)], ["kiosk", "--home", str(tmp_path)]),
    ):
        cli.main(argv)
        assert seen[-1] == want


def _recording_parser(seen: list[list[str]]) -> Callable[[], argparse.ArgumentParser]:
    class Recorder(argparse.ArgumentParser):
        def parse_args(self, args: Sequence[str] | None = None, namespace: object = None) -> Any:  # type: ignore[override]
            seen.append(list(args or []))
            return argparse.Namespace(func=lambda _a: 0)

    return lambda: Recorder()
