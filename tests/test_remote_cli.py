"""``royalnine remote``: two terminals play whole matches, one code per step, and verify."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
import special_outputs

from petitcom_shim.qr import decode_image
from royalnine import history
from royalnine.cli import main
from royalnine.remote.textcode import from_text
from royalnine.storage import Settings, Storage


def run(capsys: pytest.CaptureFixture[str], home: Path, *args: str) -> tuple[int, dict[str, Any]]:
    """One command in one terminal, with --json; returns the exit status and the object."""
    status = main(["remote", args[0], "--home", str(home), "--json", *args[1:]])
    out = capsys.readouterr().out.strip().splitlines()
    return status, json.loads(out[-1])


def ok(capsys: pytest.CaptureFixture[str], home: Path, *args: str) -> dict[str, Any]:
    status, doc = run(capsys, home, *args)
    assert status == 0 and doc["ok"], doc
    return doc


def play_turn(capsys: pytest.CaptureFixture[str], home: Path, rng: random.Random) -> dict[str, Any]:
    """Place if the hand is waiting (random free cells), as a script or a bot would."""
    doc = ok(capsys, home, "status")
    if doc["needs_placement"]:
        free = [i for i, c in enumerate(doc["grid"]) if c is None and i != 4]
        cells = rng.sample(free, len(doc["hand"]))
        doc = ok(capsys, home, "place", *map(str, cells))
    return doc


@pytest.mark.parametrize("use_text", [False, True])
def test_two_terminals_play_a_whole_match_and_verify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], use_text: bool
) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    rng = random.Random(4)
    doc = ok(capsys, a, "host", "--rounds", "2")
    assert doc["made"] == [1] and Path(doc["last_code_file"]).is_file()

    def carry(doc: dict[str, Any]) -> str:
        return str(doc["last_code_text"] if use_text else doc["last_code_file"])

    doc = ok(capsys, b, "join", carry(doc))
    homes = {0: a, 1: b}
    sender = 1
    steps = 0
    while True:
        code = carry(doc)
        receiver = homes[1 - sender]
        doc = ok(capsys, receiver, "read", code)
        if not doc["made"]:
            doc = play_turn(capsys, receiver, rng)
        sender = 1 - sender
        steps += 1
        if not doc["made"]:
            break
        assert steps < 100
    assert doc["finished"]
    for home in (a, b):
        status = ok(capsys, home, "status")
        assert status["finished"] and len(status["results"]) == 2
        exported = tmp_path / f"{home.name}.txt"
        ok(capsys, home, "export", str(exported))
        verdict = ok(capsys, home, "verify", str(exported))
        assert verdict["valid"] and verdict["complete"] and verdict["due_seat"] is None
        assert verdict["totals"] == status["totals"]
        stats = Storage(home).stats()["remote"]
        assert stats["played"] == 1
        # kept in the history like a match finished in the game (issue 17), once
        (entry,) = history.entries(Storage(home))
        assert entry.mode == "remote" and entry.seat == (0 if home == a else 1)
        assert entry.points == tuple(status["totals"])


def test_claim_after_the_wait_and_verify_shows_whose_move_is_due(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    Storage(a).save_settings(Settings(claim_after_s=0))
    doc = ok(capsys, a, "host", "--rounds", "1")
    doc = ok(capsys, b, "join", doc["last_code_text"])
    doc = ok(capsys, a, "read", doc["last_code_text"])  # the host's value: now the guest owes
    assert doc["can_claim"]
    status, refused = run(capsys, b, "claim")  # the guest's wait is the default day
    assert status == 1 and "wait" in refused["error"]
    doc = ok(capsys, a, "claim")
    assert doc["claimed"] and doc["forfeit"] == "won"
    stats = Storage(a).stats()["remote"]
    assert stats["won"] == 1 and stats["forfeit_won"] == 1
    verdict = ok(capsys, a, "verify", doc["transcript"])
    assert verdict["valid"] and not verdict["complete"]
    assert verdict["due_role"] == "guest" and verdict["due_move"] == 4
    assert any("forfeits" in n for n in verdict["notes"])
    status, refused = run(capsys, a, "read", doc["last_code_text"])
    assert status == 1


def test_claim_is_refused_before_the_wait(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    doc = ok(capsys, a, "host", "--rounds", "1")
    doc = ok(capsys, b, "join", doc["last_code_text"])
    status, refused = run(capsys, b, "claim")
    assert status == 1 and "wait" in refused["error"]


def test_a_damaged_code_is_reported_and_never_replaced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The host reads a guest code whose seal was changed in transit and answers; the guest's
    device says so and shows its code again, which the host refuses to take in place of the
    one it read: a changed seal cannot be told from a re-seal."""
    from royalnine.remote.textcode import to_text

    a, b = tmp_path / "a", tmp_path / "b"
    doc = ok(capsys, a, "host", "--rounds", "1")
    doc = ok(capsys, b, "join", doc["last_code_text"])
    doc = ok(capsys, a, "read", doc["last_code_text"])
    doc = ok(capsys, b, "read", doc["last_code_text"])
    doc = ok(capsys, b, "place", "0", "1", "2", "3")  # sealed
    doc = ok(capsys, a, "read", doc["last_code_text"])
    doc = ok(capsys, a, "place", "0", "1", "2", "3")  # in the clear
    doc = ok(capsys, b, "read", doc["last_code_text"])
    doc = ok(capsys, b, "place", "5", "6", "7", "8")  # guest opens and seals its 2nd half
    good = doc["last_code_text"]
    raw = bytearray(from_text(good))
    raw[-20] ^= 0x11  # inside the second seal: still a well-formed code
    doc = ok(capsys, a, "read", to_text(bytes(raw)))
    doc = ok(capsys, a, "place", "5", "6", "7", "8")
    status, broken = run(capsys, b, "read", doc["last_code_text"])
    assert status == 1 and "damaged or tampered" in broken["error"] and broken["remedy"] == "show"
    again = ok(capsys, b, "show")
    assert again["last_code_text"] == good
    # the true code differs from the move read: never taken in its place (issue 24 item 4),
    # not even after a roll-back, and no remedy is offered that would take it
    status, refused = run(capsys, a, "read", good)
    assert status == 1 and "never replaced" in refused["error"] and "remedy" not in refused
    ok(capsys, a, "rollback")
    status, refused = run(capsys, a, "read", good)
    assert status == 1 and "never replaced" in refused["error"]


def test_bad_input_is_one_line_and_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = tmp_path / "a"
    status, doc = run(capsys, a, "status")
    assert status == 1 and "no remote match" in doc["error"]
    ok(capsys, a, "host", "--rounds", "1")
    (saved,) = (a / "remote").glob("*/session.json")
    before = saved.read_text()
    for args in (("read", "AAAAA BBBBB"), ("read", "nonsense"), ("place", "1", "2"), ("rollback",)):
        status, doc = run(capsys, a, *args)
        assert status == 1 and "\n" not in doc["error"], args
    assert saved.read_text() == before
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    status, doc = run(capsys, a, "read", str(empty))
    assert status == 1 and doc["error"].count("empty.png") == 1, doc  # named once
    junk = tmp_path / "junk.txt"
    junk.write_text("not a transcript\n")
    status, doc = run(capsys, a, "verify", str(junk))
    assert status == 1 and not doc["valid"]


def test_verify_refuses_what_is_no_regular_file_without_waiting_on_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A FIFO nobody writes to, or a folder, is refused in one line, never waited on."""
    fifo = tmp_path / "fifo"
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    os.mkfifo(fifo)
    for target in (fifo, tmp_path):
        status, doc = run(capsys, tmp_path / "a", "verify", str(target))
        assert status == 1 and "not a regular file" in doc["error"] and "\n" not in doc["error"]


def test_a_new_match_over_one_this_device_owed_a_code_in_is_a_forfeit_loss(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    doc = ok(capsys, a, "host", "--rounds", "1")
    doc = ok(capsys, b, "join", doc["last_code_text"])
    code3 = ok(capsys, a, "read", doc["last_code_text"])
    ok(capsys, b, "read", code3["last_code_text"])  # the guest must place: it owes a code
    again = ok(capsys, b, "host", "--rounds", "1")  # the guest walks away from it
    assert again["forfeited"] == doc["match"]
    stats = Storage(b).stats()["remote"]
    assert stats["lost"] == 1 and stats["forfeit_lost"] == 1
    (kept,) = (b / "remote").glob(f"{doc['match']}/transcript.txt")
    verdict = ok(capsys, b, "verify", str(kept))
    assert verdict["due_role"] == "guest" and any("abandoned" in n for n in verdict["notes"])
    # the host, which was waiting, forfeits nothing by hosting anew
    assert "forfeited" not in ok(capsys, a, "host", "--rounds", "1")


@pytest.mark.slow
def test_the_console_command_runs_in_a_real_terminal_process(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    base = [sys.executable, "-m", "royalnine.cli", "remote"]
    home = ["--home", str(tmp_path), "--json"]
    done = subprocess.run(
        [*base, "host", *home, "--rounds", "1"], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["ok"] and from_text(doc["last_code_text"]) == decode_image(
        next(tmp_path.glob("remote/*/move-01.png"))
    )
    done = subprocess.run([*base, "place", *home, "0"], capture_output=True, text=True, env=env)
    assert done.returncode == 1 and done.stderr.count("\n") == 1


@pytest.mark.parametrize("kind", special_outputs.KINDS)
@pytest.mark.parametrize("command", ["export", "host --out"])
def test_an_output_that_is_not_a_regular_file_is_written_into_or_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, command: str
) -> None:
    """Issue 18 item 6: `remote export /dev/null` replaced /dev/null with a regular file."""
    home = tmp_path / "home"
    with special_outputs.made(kind, tmp_path) as target:
        if command == "export":
            ok(capsys, home, "host")
            status = main(["remote", "export", "--home", str(home), str(target.path)])
        else:
            status = main(["remote", "host", "--home", str(home), "--out", str(target.path)])
        # the one output rule (files.check_output_path) for both: --out is checked first
        refused = target.refused
        target.ended(status, capsys.readouterr().err, refused=refused)
        target.check(refused=refused)
        if command == "export" and target.received:
            assert target.received.decode().startswith("# Royal Nine")


def test_export_to_dash_prints_the_transcript(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ok(capsys, tmp_path, "host")
    assert main(["remote", "export", "--home", str(tmp_path), "-"]) == 0
    assert capsys.readouterr().out.startswith("# Royal Nine")
    assert not (tmp_path / "-").exists() and not Path("-").exists()


def test_export_counts_one_code_in_the_singular(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Right after `host` the transcript holds one code: "1 code written", not "1 codes"."""
    ok(capsys, tmp_path, "host")
    out = tmp_path / "t.txt"
    assert main(["remote", "export", "--home", str(tmp_path), str(out)]) == 0
    assert f"1 code written to {out}" in capsys.readouterr().out
