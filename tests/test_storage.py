"""The data folder: home selection, settings, the saved match, damaged files set aside."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from royalnine.core import Dealer, Match, MatchConfig, MatchOutcome
from royalnine.storage import (
    SAVE_FILE,
    SETTINGS_FILE,
    CorruptSaveSetAside,
    SaveGame,
    Settings,
    Storage,
    default_home,
)


def test_home_comes_from_argument_then_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ROYALNINE_HOME", str(tmp_path / "env"))
    assert default_home() == tmp_path / "env"
    assert Storage().home == tmp_path / "env"
    assert Storage(tmp_path / "arg").home == tmp_path / "arg"
    monkeypatch.delenv("ROYALNINE_HOME")
    assert "royalnine" in str(default_home()).lower()


def test_settings_round_trip_and_defaults(tmp_path: Path) -> None:
    st = Storage(tmp_path)
    assert st.load_settings() == Settings()
    st.save_settings(Settings(lang="ja", tens=True, rounds=3, difficulty="easy"))
    assert st.load_settings() == Settings(lang="ja", tens=True, rounds=3, difficulty="easy")


def test_out_of_range_settings_fall_back_per_field(tmp_path: Path) -> None:
    st = Storage(tmp_path)
    (tmp_path / SETTINGS_FILE).write_text(json.dumps({"lang": "xx", "rounds": 5000, "tens": True}))
    s = st.load_settings()
    assert s.lang == "en" and s.rounds == 5 and s.tens is True


def test_damaged_settings_are_set_aside_not_deleted(tmp_path: Path) -> None:
    st = Storage(tmp_path)
    (tmp_path / SETTINGS_FILE).write_text("{oops")
    assert st.load_settings() == Settings()
    kept = list(tmp_path.glob("settings.json.corrupt-*"))
    assert len(kept) == 1 and kept[0].read_text() == "{oops"
    assert st.notices and "settings file was damaged" in str(st.notices[0])


def half_played_match() -> Match:
    m = Match.new(MatchConfig(rounds=2))
    return m.apply(Dealer(random.Random(1)).deal(m))


def test_save_and_resume(tmp_path: Path) -> None:
    st = Storage(tmp_path)
    assert st.load_game() is None
    match = half_played_match()
    st.save_game(SaveGame(match, "local", {"difficulty": "hard"}))
    loaded = st.load_game()
    assert loaded is not None
    assert (
        loaded.match == match and loaded.mode == "local" and loaded.meta == {"difficulty": "hard"}
    )
    st.clear_game()
    assert st.load_game() is None


@pytest.mark.parametrize("content", ["", "garbage", '{"format": "royalnine.match", "version": 7}'])
def test_corrupt_save_is_set_aside_with_a_message(tmp_path: Path, content: str) -> None:
    st = Storage(tmp_path)
    path = tmp_path / SAVE_FILE
    path.parent.mkdir(parents=True)
    path.write_text(content)
    with pytest.raises(CorruptSaveSetAside, match=r"kept as saves/current\.json\.corrupt-"):
        st.load_game()
    assert not path.exists()
    (kept,) = path.parent.glob("current.json.corrupt-*")
    assert kept.read_text() == content
    assert st.load_game() is None


def test_statistics(tmp_path: Path) -> None:
    st = Storage(tmp_path)
    st.record_result(MatchOutcome((10, 4), 0), "cpu", {"difficulty": "hard"})
    st.record_result(MatchOutcome((3, 4), 1), "cpu", {"difficulty": "hard"})
    assert st.stats()["cpu:hard"] == {"played": 2, "won": 1, "lost": 1, "drawn": 0, "best": 10}
    # a remote player sits at seat 1: its win and its score count as its own
    st.record_result(MatchOutcome((3, 9), 1), "remote", seat=1)
    assert st.stats()["remote"] == {"played": 1, "won": 1, "lost": 0, "drawn": 0, "best": 9}


def test_a_fifo_save_is_named_once_in_its_notice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The line on stderr said "royalnine: PATH: PATH: not a regular file" (issue 18 item 7)."""
    import os

    from royalnine.storage import CorruptSaveSetAside

    (tmp_path / "saves").mkdir()
    path = tmp_path / "saves" / "current.json"
    os.mkfifo(path)
    with pytest.raises(CorruptSaveSetAside) as exc:
        Storage(tmp_path).load_game()
    (line,) = capsys.readouterr().err.splitlines()
    assert line.count(str(path)) == 1 and "not a regular file" in line
    assert str(exc.value).count(str(tmp_path)) == 0  # the notice names it relative to HOME


def test_a_home_that_is_a_file_is_said_once_and_not_called_damaged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "home"
    home.write_text("a file")
    storage = Storage(home)
    assert storage.load_settings() == Settings() and storage.stats() == {}
    assert storage.load_game() is None
    (notice,) = storage.notices
    assert notice.key == "notice_no_home"
    assert notice.text("en") == f"The data folder is a file, so nothing is saved: {home}"
    assert "damaged" not in capsys.readouterr().err
    assert home.read_text() == "a file"
