"""``royalnine review RECORD [--json] [--out DIR]``: the exact contract, every input, bad input."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from test_remote_protocol import honest, next_code, start, turns
from test_review import play

from royalnine import history
from royalnine.cli import main
from royalnine.core.record import MatchRecord
from royalnine.storage import Storage

DECISION_FIELDS = [
    "round", "half", "seat", "name", "played", "played_ev", "best", "best_ev", "loss"
]  # fmt: skip


def review(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["review", *args])
    out, err = capsys.readouterr()
    return code, out, err


def review_json(capsys: pytest.CaptureFixture[str], path: Path) -> dict[str, Any]:
    code, out, err = review(capsys, str(path), "--json")
    assert (code, err) == (0, "")
    doc: dict[str, Any] = json.loads(out)  # one JSON object, nothing else
    return doc


@pytest.fixture
def easy_vs_hard(tmp_path: Path) -> Path:
    path = tmp_path / "match.json"
    path.write_text(MatchRecord.of(play(("easy", "hard"), 11, rounds=3)).to_json())
    return path


def test_json_has_one_decision_per_placement_with_the_exact_fields(
    capsys: pytest.CaptureFixture[str], easy_vs_hard: Path
) -> None:
    doc = review_json(capsys, easy_vs_hard)
    decisions = doc["decisions"]
    assert len(decisions) == 3 * 4
    assert [(d["round"], d["half"], d["seat"]) for d in decisions] == [
        (r, h, s) for r in (1, 2, 3) for h in (1, 2) for s in (0, 1)
    ]
    for d in decisions:
        assert list(d) == DECISION_FIELDS
        for key in ("played", "best"):
            assert len(d[key]) == 4 and set(d[key]) == set(d["played"])
            assert all(0 <= c <= 8 and c != 4 for c in d[key].values())
        assert d["loss"] == pytest.approx(d["best_ev"] - d["played_ev"], abs=1e-4)
        assert d["loss"] >= 0
    hard = [d for d in decisions if d["seat"] == 1]
    assert all(d["loss"] == 0 and d["best"] == d["played"] for d in hard)
    summary = {s["seat"]: s for s in doc["summary"]}
    assert set(summary) == {0, 1}
    assert summary[0]["loss"] > 0 and summary[1]["loss"] == 0
    assert summary[0]["loss"] == pytest.approx(
        sum(d["loss"] for d in decisions if d["seat"] == 0), abs=1e-3
    )
    for s in summary.values():
        assert s["points"] == doc["totals"][s["seat"]]
        assert s["luck"] == pytest.approx(s["points"] - s["expected"], abs=1e-3)
    worst = decisions[summary[0]["biggest_mistake"]]
    assert worst["seat"] == 0 and worst["loss"] == max(d["loss"] for d in decisions)
    assert summary[1]["biggest_mistake"] is None


def test_text_report_names_each_placement_and_the_summary(
    capsys: pytest.CaptureFixture[str], easy_vs_hard: Path
) -> None:
    code, out, err = review(capsys, str(easy_vs_hard))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert len(lines) == 12 + 2
    # the players by the names the game gives them (a record without a mode: two players)
    assert lines[-1].startswith("PLAYER 2: points") and "no mistake" in lines[-1]
    assert "seat" not in out and " PLAYER 1 " in lines[0]


@pytest.mark.parametrize(
    ("meta", "names"),
    [
        ({"mode": "cpu", "seat": 0}, ["YOU", "CPU"]),
        ({"mode": "cpu", "seat": 1}, ["CPU", "YOU"]),
        ({"mode": "local"}, ["PLAYER 1", "PLAYER 2"]),
        ({"mode": "remote", "seat": 1}, ["RIVAL", "YOU"]),
    ],
)
def test_the_review_names_the_players_as_the_game_does(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    meta: dict[str, Any],
    names: list[str],
) -> None:
    """`royalnine review` called them "seat 0" and "seat 1"; JSON keeps ``seat`` and adds
    the names."""
    path = tmp_path / "match.json"
    record = MatchRecord.of(play(("easy", "hard"), 11, rounds=1), meta=meta)
    path.write_text(record.to_json())
    doc = review_json(capsys, path)
    assert doc["names"] == names
    assert [(s["seat"], s["name"]) for s in doc["summary"]] == [(0, names[0]), (1, names[1])]
    assert all(d["name"] == names[d["seat"]] for d in doc["decisions"])
    code, out, _ = review(capsys, str(path))
    assert code == 0 and out.splitlines()[-1].startswith(f"{names[1]}: points")


def test_a_remote_transcript_is_reviewed_from_its_codes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    codes = honest(3, rounds=2)
    path = tmp_path / "transcript.txt"
    path.write_text("# a finished remote match\n" + "\n".join(c.hex() for c in codes) + "\n")
    doc = review_json(capsys, path)
    assert len(doc["decisions"]) == 2 * 4 and doc["rounds"] == 2
    assert doc["names"] == ["HOST", "GUEST"]  # a transcript does not say whose side was whose
    # cut short by one code: a truncated transcript is refused in one line
    path.write_text("\n".join(c.hex() for c in codes[:-1]) + "\n")
    code, out, err = review(capsys, str(path))
    assert code == 1 and out == "" and err.count("\n") == 1
    assert "unfinished" in err and "royalnine review:" in err


def test_demo_output_and_history_files_are_reviewed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "shots"
    home = tmp_path / "home"
    argv = ["demo", "--headless", "--rounds", "1", "--home", str(home), "--out", str(out)]
    assert main(argv) == 0
    capsys.readouterr()
    # the demo plays in a throwaway folder (issue 18 item 1): the player's history stays empty
    assert history.entries(Storage(home)) == []
    doc = review_json(capsys, out / "match.json")
    assert len(doc["decisions"]) == 4 and len(doc["totals"]) == 2


def _edit(path: Path, change: Any) -> None:
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda d: d["actions"].__setitem__(0, ["deal", "R1,R1,R2,R3,R4,R5,R6,R7"]), "illegal"),
        (lambda d: d["actions"].__setitem__(2, ["place", 0, "R9", 4]), "illegal"),
        (lambda d: d.__setitem__("version", 2), "version 2 is not supported"),
        (lambda d: d.__setitem__("actions", d["actions"][:-5]), "not over"),
        (lambda d: d.__setitem__("format", "something.else"), "format"),
    ],
)
def test_bad_records_are_refused_in_one_line_and_nothing_is_written(
    capsys: pytest.CaptureFixture[str], easy_vs_hard: Path, change: Any, says: str
) -> None:
    _edit(easy_vs_hard, change)
    before = easy_vs_hard.read_bytes()
    out = easy_vs_hard.parent / "shots"
    code, stdout, err = review(capsys, str(easy_vs_hard), "--json", "--out", str(out))
    assert code == 1 and [json.loads(line)["ok"] for line in stdout.splitlines()] == [False]
    assert err.startswith("royalnine review: ") and err.count("\n") == 1 and says in err
    assert "Traceback" not in err
    assert not out.exists() and easy_vs_hard.read_bytes() == before


@pytest.mark.parametrize(
    "content", [b"", b"\xff\xfe binary", b"hello world\n", b"[1, 2]", b'{"format": 3}']
)
def test_files_that_are_no_match_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "x"
    path.write_bytes(content)
    code, out, err = review(capsys, str(path))
    assert code == 1 and out == "" and err.count("\n") == 1 and "Traceback" not in err


def test_a_missing_file_and_a_folder_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for path in (tmp_path / "nothing.json", tmp_path):
        code, out, err = review(capsys, str(path))
        assert code == 1 and out == "" and err.count("\n") == 1


def test_out_writes_one_screenshot_per_step(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "match.json"
    path.write_text(MatchRecord.of(play(("easy", "hard"), 12, rounds=1)).to_json())
    out = tmp_path / "shots"
    code, stdout, err = review(capsys, str(path), "--out", str(out))
    assert code == 0 and err == ""
    shots = sorted(out.iterdir())
    # 2 deals, 4 placements, the common card, the scoring lines, the summary
    assert len(shots) >= 2 + 4 + 1 + 2 + 1
    assert [p.name for p in shots] == [f"step-{i:03d}.png" for i in range(1, len(shots) + 1)]
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in shots)
    assert f"wrote {len(shots)} screenshots" in stdout


def test_out_screenshots_get_a_new_files_mode_and_keep_an_old_ones(
    capsys: pytest.CaptureFixture[str], easy_vs_hard: Path
) -> None:
    """Each was written to a mkstemp file (mode 0600) renamed over: other users could not
    read a fresh screenshot, and a shared one lost its mode when written again."""
    out = easy_vs_hard.parent / "shots"
    out.mkdir()
    (out / "step-001.png").write_bytes(b"old")
    (out / "step-001.png").chmod(0o664)
    umask = os.umask(0o022)
    try:
        assert review(capsys, str(easy_vs_hard), "--out", str(out))[0] == 0
    finally:
        os.umask(umask)
    assert (out / "step-001.png").stat().st_mode & 0o777 == 0o664
    assert (out / "step-002.png").stat().st_mode & 0o777 == 0o644
    assert (out / "step-001.png").read_bytes()[:4] == b"\x89PNG"
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # no temporary file left


def test_out_never_replaces_what_is_not_a_regular_file(
    capsys: pytest.CaptureFixture[str], easy_vs_hard: Path
) -> None:
    out = easy_vs_hard.parent / "shots"
    out.mkdir()
    os.mkfifo(out / "step-002.png")  # the one output rule: a FIFO nobody reads is refused
    code, _, err = review(capsys, str(easy_vs_hard), "--out", str(out))
    assert code == 1 and "a FIFO with no reader" in err and err.count("\n") == 1
    assert stat.S_ISFIFO(os.lstat(out / "step-002.png").st_mode)  # never replaced
    code, _, err = review(capsys, str(easy_vs_hard), "--out", str(easy_vs_hard))
    assert code == 1 and "not a folder" in err


def test_a_remote_session_file_is_reviewed_once_over(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    host, guest = start(6, rounds=1)
    path = tmp_path / "session.json"
    path.write_text(guest.to_json())  # joined, nothing played: not reviewable
    code, out, err = review(capsys, str(path))
    assert code == 1 and out == "" and "unfinished" in err and err.count("\n") == 1
    for sender, receiver in turns(host, guest):
        receiver.receive(next_code(sender))
    path.write_text(guest.to_json())
    doc = review_json(capsys, path)
    assert len(doc["decisions"]) == 4
