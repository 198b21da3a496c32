"""``royalnine remote``: two terminals play whole matches, one code per step, and verify."""

from __future__ import annotations

import json
import os
import random
import re
import time
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


# -- issue 24 item 3: every match answerable; item 6: a transcript given as text


def test_read_takes_a_code_into_its_own_match_not_the_latest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """B waits in match A, then hosts match C: A's honest reply is still read into A (it
    was refused as "this code belongs to match A; this device is playing match C")."""
    a, b = tmp_path / "a", tmp_path / "b"
    first = ok(capsys, a, "host", "--rounds", "1")
    joined = ok(capsys, b, "join", first["last_code_text"])  # B now waits for A's move 3
    other = ok(capsys, b, "host", "--rounds", "2")  # a match of its own: now the latest
    assert "forfeited" not in other  # waiting is not walking away
    reply = ok(capsys, a, "read", joined["last_code_text"])
    assert reply["made"] == [3]
    doc = ok(capsys, b, "read", reply["last_code_text"])
    assert doc["match"] == joined["match"] and doc["codes"] == 3
    status, refused = run(capsys, b, "read", reply["last_code_file"], "--match", other["match"])
    assert status == 1 and f"belongs to match {joined['match']}" in refused["error"]
    # every action names its match; the latest activity is only the default
    assert ok(capsys, b, "status", "--match", other["match"].lower())["codes"] == 1
    assert ok(capsys, b, "status", "--match", joined["match"])["needs_placement"]
    shown = ok(capsys, b, "show", "--match", other["match"])
    assert shown["match"] == other["match"] and shown["made"] == [1]
    exported = ok(capsys, b, "export", "--match", joined["match"])
    assert exported["match"] == joined["match"] and exported["codes"] == 3
    status, refused = run(capsys, b, "status", "--match", "0BADC0DE")
    assert status == 1 and "no match 0BADC0DE" in refused["error"]
    with pytest.raises(SystemExit) as usage:
        main(["remote", "status", "--home", str(b), "--json", "--match", "../../etc"])
    refused = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert usage.value.code == 2 and "not a match id" in refused["error"]
    host_code_1 = ok(capsys, a, "host", "--rounds", "1")["last_code_text"]
    status, refused = run(capsys, b, "read", host_code_1)
    assert status == 1 and "royalnine remote join" in refused["error"]


def test_read_match_refuses_a_transcript_of_another_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``read --match ID`` refuses a transcript (a file or its text) of any other match, as
    it refuses a code; nothing changes. Without ``--match`` it is judged as a claim
    against its own match (here it claims nothing)."""
    a, b = tmp_path / "a", tmp_path / "b"
    first = ok(capsys, a, "host", "--rounds", "1")
    joined = ok(capsys, b, "join", first["last_code_text"])
    other = ok(capsys, b, "host", "--rounds", "2")
    ok(capsys, a, "read", joined["last_code_text"])
    path = tmp_path / "a.txt"
    assert main(["remote", "export", "--home", str(a), str(path)]) == 0
    capsys.readouterr()
    before = sorted((p.name, p.read_bytes()) for p in (b / "remote").rglob("*") if p.is_file())
    for given in (str(path), path.read_text()):
        status, refused = run(capsys, b, "read", given, "--match", other["match"])
        assert status == 1, refused
        assert (
            f"belongs to match {joined['match']}, not to match {other['match']}"
            in (refused["error"])
        )
        status, refused = run(capsys, b, "read", given)
        assert status == 1 and "claims no match" in refused["error"]
    after = sorted((p.name, p.read_bytes()) for p in (b / "remote").rglob("*") if p.is_file())
    assert after == before


def test_list_shows_every_match_and_whose_move_is_due(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    assert ok(capsys, b, "list")["matches"] == []
    first = ok(capsys, a, "host", "--rounds", "1")
    joined = ok(capsys, b, "join", first["last_code_text"])
    other = ok(capsys, b, "host", "--rounds", "3")  # B waits in this one ...
    reply = ok(capsys, a, "read", joined["last_code_text"])
    ok(capsys, b, "read", reply["last_code_text"])  # ... and owes a placement in this one
    later = time.time() + 60  # the latest activity, whatever the clock's resolution
    os.utime(b / "remote" / other["match"] / "session.json", (later, later))
    doc = ok(capsys, b, "list")
    entries = {m["match"]: m for m in doc["matches"]}
    assert list(entries) == [other["match"], joined["match"]]  # the latest activity first
    assert entries[joined["match"]]["due"] == "you"
    assert entries[joined["match"]]["role"] == "guest"
    assert entries[joined["match"]]["needs_placement"]
    assert entries[other["match"]]["due"] == "opponent"
    assert entries[other["match"]]["due_role"] == "guest"
    assert entries[other["match"]]["due_move"] == 2
    main(["remote", "list", "--home", str(b)])
    text = capsys.readouterr().out
    assert f"{joined['match']}  guest  round 1 of 1  move 4 due from you" in text
    assert f"{other['match']}  host   round 1 of 3  move 2 due from the opponent" in text
    (b / "remote" / joined["match"] / "session.json").write_text("{")
    doc = ok(capsys, b, "list")
    assert [m["match"] for m in doc["matches"]] == [other["match"]]
    assert doc["damaged"][0]["match"] == joined["match"]


def test_read_takes_a_transcript_given_as_text_as_it_takes_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 24 item 6: the text is too long to be a file name; it was refused as "no such
    file, and not a text code". It is read exactly as the file holding it is: here a claim
    that holds on B (B's own wait is 0 s by its own clock), counted the same either way.
    The time B held the code is said in whole seconds and may tick between the two reads,
    so it is left out of the comparison."""
    import shutil

    a, b = tmp_path / "a", tmp_path / "b"
    Storage(a).save_settings(Settings(claim_after_s=0))
    Storage(b).save_settings(Settings(claim_after_s=0))
    code = ok(capsys, a, "host", "--rounds", "1")["last_code_text"]
    code = ok(capsys, b, "join", code)["last_code_text"]
    code = ok(capsys, a, "read", code)["last_code_text"]
    assert ok(capsys, b, "read", code)["needs_placement"]  # B owes move 4
    transcript = Path(ok(capsys, a, "claim")["transcript"])
    text = transcript.read_text()
    assert len(text) > os.pathconf("/", "PC_NAME_MAX")
    shutil.copytree(b, tmp_path / "b2")
    status, by_file_doc = run(capsys, b, "read", str(transcript))
    assert status == 0 and by_file_doc["claim"]["counted"], by_file_doc
    held = re.compile(r"\d+ (h \d+ min|min|s) ago")
    by_file = held.sub("held ago", json.dumps((status, by_file_doc)))
    by_text = held.sub("held ago", json.dumps(run(capsys, tmp_path / "b2", "read", text)))
    assert by_text.replace(str(tmp_path / "b2"), str(b)) == by_file
    assert "no such file" not in by_text
