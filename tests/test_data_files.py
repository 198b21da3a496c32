"""No data file, however damaged or strange, stops the game (issue: files that must never
stop the game). Each case failed before: a crash, a hang, or memory read until it ran out."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from royalnine.core import Match, MatchConfig, MatchOutcome
from royalnine.core.files import (
    UnreadableFile,
    load_json,
    parse_json,
    read_capped,
    write_atomic,
)
from royalnine.storage import (
    SAVE_FILE,
    SETTINGS_FILE,
    STATS_FILE,
    CorruptSaveSetAside,
    Settings,
    Storage,
)

DEEP = "[" * 1000 + "]" * 1000  # 2 KB: enough for a RecursionError in json.loads
REMOTE_FILE = "remote/current.json"


def hangs(call: Callable[[], object], seconds: float = 10.0) -> bool:
    """Run ``call`` in a thread; True if it has not returned after ``seconds``."""
    done = threading.Event()

    def run() -> None:
        try:
            call()
        except BaseException:
            pass
        finally:
            done.set()

    threading.Thread(target=run, daemon=True).start()
    return not done.wait(seconds)


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[Callable[[Path], Path]]:
    made: list[Path] = []

    def make(path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(path)
        made.append(path)
        return path

    yield make
    for path in made:  # unblock anything still waiting on a FIFO
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            os.close(fd)
        except OSError:
            pass


# --- the reader --------------------------------------------------------------


def test_read_capped_refuses_special_files_without_blocking(
    tmp_path: Path, fifo: Callable[[Path], Path]
) -> None:
    with pytest.raises(UnreadableFile, match="FIFO"):
        read_capped(fifo(tmp_path / "pipe"), 100)
    with pytest.raises(UnreadableFile, match="device"):
        read_capped(Path("/dev/zero"), 100)
    link = tmp_path / "zero.json"
    link.symlink_to("/dev/zero")
    with pytest.raises(UnreadableFile, match="device"):
        read_capped(link, 100)
    with pytest.raises(UnreadableFile, match="folder"):
        read_capped(tmp_path, 100)
    with pytest.raises(FileNotFoundError):
        read_capped(tmp_path / "missing", 100)


def test_read_capped_does_not_trust_the_reported_size(tmp_path: Path) -> None:
    path = tmp_path / "big"
    path.write_bytes(b"x" * 101)
    assert read_capped(path, 101) == b"x" * 101
    with pytest.raises(UnreadableFile, match="too large"):
        read_capped(path, 100)
    # /proc files report size 0 but have content: read by content, not by st_size
    assert read_capped(Path("/proc/self/status"), 1_000_000).startswith(b"Name:")


def test_parse_json_refuses_deep_nesting_and_bad_text() -> None:
    with pytest.raises(UnreadableFile, match="nested deeper"):
        parse_json(DEEP)
    with pytest.raises(UnreadableFile, match="UTF-8"):
        parse_json(b"\xff\xfe{}")
    with pytest.raises(UnreadableFile, match="bad JSON"):
        parse_json("{oops")
    assert parse_json('{"a": ["[[[[", "]]"]}') == {"a": ["[[[[", "]]"]}  # brackets in strings


# --- every loader, every strange file ------------------------------------------


def _strange_files(
    tmp_path: Path, fifo: Callable[[Path], Path]
) -> dict[str, Callable[[Path], None]]:
    def deep(path: Path) -> None:
        path.write_text(DEEP)

    def zero(path: Path) -> None:
        path.symlink_to("/dev/zero")

    def pipe(path: Path) -> None:
        fifo(path)

    def folder(path: Path) -> None:
        path.mkdir()

    return {"deep": deep, "dev-zero": zero, "fifo": pipe, "folder": folder}


KINDS = ["deep", "dev-zero", "fifo", "folder"]


@pytest.mark.parametrize("kind", KINDS)
def test_strange_settings_are_set_aside_with_the_right_notice(
    tmp_path: Path, fifo: Callable[[Path], Path], kind: str
) -> None:
    _strange_files(tmp_path, fifo)[kind](tmp_path / SETTINGS_FILE)
    st = Storage(tmp_path)
    assert not hangs(lambda: st.load_settings())
    assert st.load_settings() == Settings()
    assert st.notices and all("settings file" in str(n) for n in st.notices)
    assert list(tmp_path.glob("settings.json.corrupt-*"))


@pytest.mark.parametrize("kind", KINDS)
def test_strange_statistics_are_set_aside_and_results_still_recorded(
    tmp_path: Path, fifo: Callable[[Path], Path], kind: str
) -> None:
    _strange_files(tmp_path, fifo)[kind](tmp_path / STATS_FILE)
    st = Storage(tmp_path)
    assert not hangs(lambda: st.stats())
    st.record_result(MatchOutcome((9, 3), 0), "local")
    assert st.stats()["local"]["played"] == 1
    assert st.notices and "statistics file" in str(st.notices[0])


@pytest.mark.parametrize("kind", KINDS)
def test_strange_saves_are_set_aside(
    tmp_path: Path, fifo: Callable[[Path], Path], kind: str
) -> None:
    (tmp_path / "saves").mkdir()
    _strange_files(tmp_path, fifo)[kind](tmp_path / SAVE_FILE)
    st = Storage(tmp_path)
    with pytest.raises(CorruptSaveSetAside, match="saved match"):
        st.load_game()
    assert st.load_game() is None


@pytest.mark.parametrize("kind", KINDS)
def test_strange_remote_saves_are_set_aside(
    tmp_path: Path, fifo: Callable[[Path], Path], kind: str
) -> None:
    from royalnine.screens.remote import RemoteLink

    (tmp_path / "remote").mkdir()
    _strange_files(tmp_path, fifo)[kind](tmp_path / REMOTE_FILE)
    st = Storage(tmp_path)
    with pytest.raises(CorruptSaveSetAside, match="remote match"):
        RemoteLink.load(st)
    assert RemoteLink.load(st) is None


@pytest.mark.parametrize(
    "doc",
    [
        {"format": "royalnine.remote", "version": 1, "seat": "0"},
        {"format": "royalnine.remote", "version": 1, "seat": 0, "match_id": 5},
        {
            "format": "royalnine.remote",
            "version": 1,
            "seat": 0,
            "match_id": "00" * 8,
            "rounds": "5",
            "tens": [],
            "secret": "00" * 32,
            "cells": [],
            "transcript": {},
            "pending": "x",
        },
        [1, 2, 3],
        "text",
    ],
)
def test_remote_saves_with_odd_field_types_are_set_aside(tmp_path: Path, doc: object) -> None:
    from royalnine.screens.remote import RemoteLink

    (tmp_path / "remote").mkdir()
    (tmp_path / REMOTE_FILE).write_text(json.dumps(doc))
    with pytest.raises(CorruptSaveSetAside):
        RemoteLink.load(Storage(tmp_path))


@pytest.mark.parametrize(
    "entry",
    [
        {"played": "many", "won": 1},
        {"played": 1, "best": None},
        {"played": -4},
        {"played": 1.5},
        {"played": True},
        "not an object",
        {"played": 10**30},
    ],
)
def test_statistics_entries_that_are_not_counts_never_crash(tmp_path: Path, entry: object) -> None:
    (tmp_path / STATS_FILE).write_text(json.dumps({"cpu:hard": entry}))
    st = Storage(tmp_path)
    st.record_result(MatchOutcome((10, 4), 0), "cpu", {"difficulty": "hard"})
    assert st.stats()["cpu:hard"] == {"played": 1, "won": 1, "lost": 0, "drawn": 0, "best": 10}
    assert "statistics file" in str(st.notices[0])
    (kept,) = tmp_path.glob("stats.json.corrupt-*")
    assert json.loads(kept.read_text()) == {"cpu:hard": entry}


def test_a_match_ends_normally_over_damaged_statistics(tmp_path: Path) -> None:
    from petitcom_shim import Machine
    from royalnine.game import new_game
    from royalnine.screens.autoplay import AutoPlayer
    from royalnine.screens.result import MatchResultScene

    (tmp_path / STATS_FILE).write_text(json.dumps({"cpu:normal": {"played": "many", "best": None}}))
    app = new_game(Machine(headless=True), Storage(tmp_path), Settings(sound=False, rounds=1))
    AutoPlayer(app, seed=1).play(max_frames=10_000)
    assert isinstance(app.scene, MatchResultScene)
    assert Storage(tmp_path).stats()["cpu:normal"]["played"] == 1
    assert any(n.what == "stats" for n in app.notices)  # reported, not silent


# --- a read-only data folder ---------------------------------------------------


def _refuse_renames(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: Path, target: object) -> Path:
        raise PermissionError(30, "Read-only file system")

    monkeypatch.setattr(Path, "replace", refuse)


def test_damaged_files_in_a_read_only_folder_do_not_stop_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / SETTINGS_FILE).write_text("{oops")
    (tmp_path / "saves").mkdir()
    (tmp_path / SAVE_FILE).write_text("garbage")
    _refuse_renames(monkeypatch)
    st = Storage(tmp_path)
    assert st.load_settings() == Settings()
    assert "could not be moved aside" in str(st.notices[0])
    assert "settings.json" in st.notices[0].text("en")
    with pytest.raises(CorruptSaveSetAside, match="could not be moved aside"):
        st.load_game()


def test_the_game_starts_in_a_read_only_folder_with_damaged_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from petitcom_shim import Machine
    from royalnine.game import new_game
    from royalnine.screens.title import TitleScene

    (tmp_path / SETTINGS_FILE).write_text("{oops")
    (tmp_path / "saves").mkdir()
    (tmp_path / SAVE_FILE).write_text("garbage")
    _refuse_renames(monkeypatch)
    storage = Storage(tmp_path)
    app = new_game(Machine(headless=True), storage, storage.load_settings())
    app.step(3)
    assert isinstance(app.scene, TitleScene)


# --- notices name the right file, in both languages -------------------------------


def test_each_notice_names_its_own_file_in_both_languages(tmp_path: Path) -> None:
    (tmp_path / SETTINGS_FILE).write_text("{oops")
    (tmp_path / STATS_FILE).write_text("[]")
    st = Storage(tmp_path)
    st.load_settings()
    st.stats()
    settings, stats = st.notices
    assert "settings file" in settings.text("en") and "settings.json.corrupt-" in settings.name
    assert "statistics file" in stats.text("en") and "stats.json.corrupt-" in stats.name
    assert "ｾｯﾃｲ" in settings.text("ja") and "ｾｲｾｷ" in stats.text("ja")
    for notice in (settings, stats):
        assert "Damaged save" not in notice.text("en")
        assert notice.name in notice.text("ja")


# --- writes ------------------------------------------------------------------


def test_interrupted_writes_leave_nothing_behind_at_the_next_start(tmp_path: Path) -> None:
    (tmp_path / "saves").mkdir()
    (tmp_path / "remote" / "ABCD1234").mkdir(parents=True)
    left = [
        tmp_path / ".settings.json.k2j3h4.tmp",
        tmp_path / "saves" / ".current.json.abc123.tmp",
        tmp_path / "remote" / "ABCD1234" / ".transcript.txt.zz9.tmp",
    ]
    for path in left:
        path.write_text("half")
    keep = [tmp_path / "notes.tmp", tmp_path / ".hidden", tmp_path / "saves" / "current.json"]
    for path in keep:
        path.write_text("mine")
    st = Storage(tmp_path)
    assert sorted(st.cleaned) == sorted(left)
    assert not any(p.exists() for p in left) and all(p.exists() for p in keep)


def test_write_atomic_syncs_the_file_and_then_its_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from test_shim_files import spy_on_fsync

    synced = spy_on_fsync(monkeypatch)
    write_atomic(tmp_path / "a.json", "{}")
    assert synced == [False, True]
    assert load_json(tmp_path / "a.json", 10) == {}
    # durable=False (the kiosk's touch count, ten times a second): replaced whole, no sync
    write_atomic(tmp_path / "a.json", "[]", durable=False)
    assert synced == [False, True] and load_json(tmp_path / "a.json", 10) == []


# --- command lines -----------------------------------------------------------


def test_score_reads_stdin_that_is_not_utf8_line_by_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from royalnine.cli import main

    good = b"R1,R2,R3,B4,R5,B6,B7,B8,R9\n"
    data = good + b"\xff\xfe garbage \x80\n" + b"R9," * 5000 + b"\n" + good
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    assert main(["score"]) == 1
    out, err = capsys.readouterr()
    assert out.count("total") == 0 and out.count(": 5") == 2  # both good lines scored
    errors = err.splitlines()
    assert len(errors) == 2
    assert errors[0].startswith("royalnine score: line 2: not UTF-8")
    assert errors[1].startswith("royalnine score: line 3:")
    assert all(len(line) < 200 for line in errors)  # a bad line is echoed cut short


def test_score_scores_each_grid_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import royalnine.cli.score as score

    calls: list[object] = []
    real = score.score_grid

    def counting(cells: object) -> object:
        calls.append(cells)
        return real(cells)  # type: ignore[arg-type]

    monkeypatch.setattr(score, "score_grid", counting)
    assert score.main if hasattr(score, "main") else True
    from royalnine.cli import main

    assert main(["score", "R1,R2,R3,B4,R5,B6,B7,B8,R9", "R1,R2,R3,B4,R5,B6,B7,B8,B9"]) == 0
    assert len(calls) == 2


def test_score_reports_every_bad_argument_and_scores_the_rest(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from royalnine.cli import main

    long_card = "R" + "1" * 10_000
    code = main(["score", "R1,R2", "R1,R2,R3,B4,R5,B6,B7,B8,R9", f"{long_card},R2"])
    out, err = capsys.readouterr()
    assert code == 1 and "total 5" in out
    assert len(err.splitlines()) == 2 and all(len(line) < 200 for line in err.splitlines())


@pytest.mark.parametrize(
    ("flag", "value"), [("--module-px", "100000"), ("--module-px", "0"), ("--border", "1500")]
)
def test_petitcom_qr_encode_bounds_its_raster(tmp_path: Path, flag: str, value: str) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "petitcom_shim.qrcli",
            "encode",
            "--hex",
            "00",
            "-o",
            str(tmp_path / "q.png"),
            flag,
            value,
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "must be from" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "q.png").exists()


def test_qr_library_refuses_huge_rasters() -> None:
    from petitcom_shim.qr import encode_image

    with pytest.raises(ValueError, match="module_px"):
        encode_image(b"x", module_px=1500)
    with pytest.raises(ValueError, match="border"):
        encode_image(b"x", border=100_000)


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_controls_files_that_are_not_files(
    tmp_path: Path, fifo: Callable[[Path], Path], kind: str
) -> None:
    from petitcom_shim.config import ConfigError, ShimConfig, load_config, load_config_lenient

    path = tmp_path / "shim.toml"
    if kind == "fifo":
        fifo(path)
    else:
        path.symlink_to("/dev/zero")
    outcome: list[object] = []
    assert not hangs(lambda: outcome.append(_config_error(load_config, path)))
    assert outcome and isinstance(outcome[0], ConfigError)
    assert "not a regular file" in str(outcome[0])
    lenient: list[tuple[ShimConfig, list[str]]] = []
    assert not hangs(lambda: lenient.append(load_config_lenient(path)))
    assert lenient and lenient[0][0] == ShimConfig()  # the defaults, and one line saying why
    assert lenient[0][1] == [f"{path}: not a regular file: using the default settings"]


def _config_error(load: Callable[[Path], object], path: Path) -> object:
    try:
        return load(path)
    except Exception as exc:
        return exc


def test_a_deep_saved_match_record_is_refused(tmp_path: Path) -> None:
    from royalnine.core import CorruptRecord, MatchRecord

    doc = '{"format": "royalnine.match", "version": 1, "config": {"rounds": 5, "tens": false},'
    with pytest.raises(CorruptRecord, match="nested deeper"):
        MatchRecord.from_json(doc + '"actions": ' + DEEP + "}")
    assert Match.new(MatchConfig(rounds=1))  # the core still works after refusing it
