"""Issue 16: the trust holes of remote play (a colliding match id, a roll-back or a
held-back code that stops the claim clock) and inputs that must never crash."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from test_remote import entropy
from test_remote import place_randomly as place

from royalnine.cli import main
from royalnine.core import MatchConfig
from royalnine.remote.codec import BadCode, Seal, decode, encode
from royalnine.remote.files import (
    INBOX_DIR,
    join_session,
    load_session,
    save_session,
    session_path,
)
from royalnine.remote.session import Broken, RemoteSession
from royalnine.remote.textcode import to_text
from royalnine.storage import Storage

DAY = 86_400.0


def step(sender: RemoteSession, receiver: RemoteSession, rng: random.Random, now: float) -> bytes:
    if sender.needs_placement:
        place(sender, rng)
    code = sender.compose(now=now)
    receiver.receive(code)
    return code


def run(capsys: pytest.CaptureFixture[str], home: Path, *args: str) -> tuple[int, list[str]]:
    """One ``royalnine remote`` command with --json: its status and its stdout lines."""
    status = main(["remote", args[0], "--home", str(home), "--json", *args[1:]])
    return status, capsys.readouterr().out.strip().splitlines()


def one_json(capsys: pytest.CaptureFixture[str], home: Path, *args: str) -> dict[str, Any]:
    status, lines = run(capsys, home, *args)
    assert len(lines) == 1, lines
    doc: dict[str, Any] = json.loads(lines[0])
    assert doc["ok"] == (status == 0)
    return doc


# -- 1. a match id cannot overwrite another match


def test_a_hello_with_the_id_of_a_match_in_progress_is_refused_and_changes_nothing(
    tmp_path: Path,
) -> None:
    """A hostile host copies the id of a match this device is playing: joining it must not
    replace that match's save or codes."""
    home = tmp_path / "b"
    host, rng = RemoteSession.host(MatchConfig(2), entropy(1)), random.Random(1)
    guest = join_session(home, host.compose(now=0.0), entropy(2))
    save_session(home, guest)
    step(guest, host, rng, 0.0)
    save_session(home, guest)
    before = session_path(home, guest.label).read_bytes()
    hostile = RemoteSession(0, host.match_id, MatchConfig(1), bytes(16))
    with pytest.raises(BadCode, match=f"already has a match {guest.label}"):
        join_session(home, hostile.compose(now=0.0), entropy(3))
    assert session_path(home, guest.label).read_bytes() == before
    # the honest opponent's next code is still read
    loaded = load_session(home, guest.label)
    assert loaded is not None
    loaded.receive(step(host, guest, rng, 0.0))


def test_cli_join_of_a_colliding_id_forfeits_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    code1 = one_json(capsys, a, "host", "--rounds", "1")["last_code_text"]
    one_json(capsys, b, "join", code1)
    # the guest now owes nothing; make it owe a code by reading the host's move 3
    doc = one_json(capsys, a, "read", one_json(capsys, b, "status")["last_code_text"])
    one_json(capsys, b, "read", doc["last_code_text"])  # b must place: it owes a code
    saved = next((b / "remote").glob("*/session.json")).read_bytes()
    doc = one_json(capsys, b, "join", code1)  # the same hello again (or a copied id)
    assert not doc["ok"] and "already has a match" in doc["error"]
    assert next((b / "remote").glob("*/session.json")).read_bytes() == saved
    assert Storage(b).stats().get("remote", {}).get("forfeit_lost", 0) == 0


def test_a_host_never_picks_an_id_this_device_already_has(tmp_path: Path) -> None:
    from royalnine.remote.files import host_session, match_folder

    draws = [bytes([7, 7, 7, 7]), bytes(16), bytes([7, 7, 7, 7]), bytes(16), b"\1\2\3\4", bytes(16)]
    taken = RemoteSession.host(MatchConfig(1), lambda n: bytes([7] * n))
    match_folder(tmp_path, taken.label).mkdir(parents=True)
    session = host_session(tmp_path, MatchConfig(1), lambda n: draws.pop(0)[:n].ljust(n, b"\0"))
    assert session.label == "01020304"


# -- 2. a roll-back cannot disable the claim


def _variant(code: bytes) -> bytes:
    """The same move with a different seal: parseable, and it differs from the one read."""
    msg = decode(code)
    items = tuple(
        Seal(i.round, i.half, bytes(b ^ 0xFF for b in i.digest)) if isinstance(i, Seal) else i
        for i in msg.items
    )
    assert items != msg.items
    return encode(replace(msg, items=items))


def test_a_bogus_variant_and_a_roll_back_do_not_stop_the_claim_clock() -> None:
    rng = random.Random(5)
    host = RemoteSession.host(MatchConfig(2), entropy(5))
    guest = RemoteSession.join(host.compose(now=0.0), entropy(6))
    step(guest, host, rng, 10.0)  # move 2
    step(host, guest, rng, 20.0)  # move 3
    sealed = step(guest, host, rng, 30.0)  # move 4: the guest's first seal
    step(host, guest, rng, 40.0)  # move 5: the host answers, then waits
    assert host.waiting_for_opponent()
    # the guest (who learns first) sends a bogus variant of move 4 and goes silent
    with pytest.raises(BadCode, match="never replaced") as info:
        host.receive(_variant(sealed))
    assert not isinstance(info.value, Broken)
    host.rollback()  # the command still exists: it keeps the clock (and what was read)
    assert host.waiting_for_opponent()
    assert not host.can_claim(40.0 + DAY - 1, DAY)
    assert host.can_claim(40.0 + DAY, DAY), host.claim_refusal(40.0 + DAY, DAY)


# -- 3. the wait counts from when the opponent could first see the code


def test_a_code_held_back_and_shown_later_restarts_the_wait() -> None:
    rng = random.Random(7)
    host = RemoteSession.host(MatchConfig(1), entropy(7))
    guest = RemoteSession.join(host.compose(now=0.0), entropy(8))
    step(guest, host, rng, 0.0)
    host.compose(now=100.0)  # made, but held back
    host.mark_shown(now=100.0 + 23 * 3600)  # shown (SHOW AGAIN, COPY, `show`) 23 h later
    assert not host.can_claim(100.0 + 24 * 3600, DAY)
    assert host.can_claim(100.0 + 23 * 3600 + DAY, DAY)
    # reloading keeps it
    again = RemoteSession.from_json(host.to_json())
    assert again.waiting_since == 100.0 + 23 * 3600


def test_cli_show_restarts_the_wait(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import time

    a, b = tmp_path / "a", tmp_path / "b"
    clock = [1_000_000.0]
    monkeypatch.setattr(time, "time", lambda: clock[0])
    code = one_json(capsys, a, "host", "--rounds", "1")["last_code_text"]
    code = one_json(capsys, b, "join", code)["last_code_text"]
    one_json(capsys, a, "read", code)  # a answers with move 3, then waits
    clock[0] += 23 * 3600
    one_json(capsys, a, "show")
    clock[0] += 3600
    doc = one_json(capsys, a, "claim")
    assert not doc["ok"] and "wait" in doc["error"]
    clock[0] += DAY
    assert one_json(capsys, a, "claim")["ok"]


# -- 6. no traceback, ever


@pytest.mark.parametrize("cell", ["²", "⑤", "9" * 5000, "٣", " 1 2"])
def test_odd_digits_in_place_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cell: str
) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    code = one_json(capsys, a, "host", "--rounds", "1")["last_code_text"]
    code = one_json(capsys, b, "join", code)["last_code_text"]
    code = one_json(capsys, a, "read", code)["last_code_text"]
    assert one_json(capsys, b, "read", code)["needs_placement"]
    doc = one_json(capsys, b, "place", cell, "0", "1", "2")
    assert not doc["ok"] and "is not a cell 0-8" in doc["error"]
    assert one_json(capsys, b, "status")["needs_placement"]


@pytest.mark.parametrize("rounds", [0, 100, 255])
def test_verify_of_a_hello_with_odd_rounds_is_invalid_not_a_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rounds: int
) -> None:
    hostile = RemoteSession(0, b"\1\2\3\4", MatchConfig(1), bytes(16))
    code = bytearray(hostile.compose(now=0.0))
    code[3 + 4 + 2 + 16 + 1] = rounds  # the hello's rounds byte
    path = tmp_path / "t.txt"
    path.write_text(bytes(code).hex() + "\n")
    status, lines = run(capsys, tmp_path, "verify", str(path))
    assert status == 1 and len(lines) == 1
    doc = json.loads(lines[0])
    assert doc["valid"] is False and "rounds" in doc["reason"]


def _saved_midway(tmp_path: Path) -> tuple[Path, dict[str, Any], RemoteSession]:
    rng = random.Random(3)
    host = RemoteSession.host(MatchConfig(2), entropy(3))
    guest = RemoteSession.join(host.compose(now=0.0), entropy(4))
    for _ in range(4):
        step(guest, host, rng, 0.0)
        step(host, guest, rng, 0.0)
    save_session(tmp_path, guest)
    path = session_path(tmp_path, guest.label)
    return path, json.loads(path.read_text()), host


BAD_FIELDS: list[tuple[str, object]] = [
    ("cells", {"1.1": "000102"}),  # three cells
    ("cells", {"1.1": "0001020309"}),  # five
    ("cells", {"1.1": "00010209"}),  # a cell 9
    ("cells", {"1.1": "00000000"}),  # the same cell four times
    ("cells", {"1.3": "00010203"}),  # no half 3
    ("cells", {"x": "00010203"}),
    ("cells", []),
    ("cells", {"1.1": 5}),
    ("seat", True),
    ("seat", 2),
    ("rounds", 0),
    ("rounds", "2"),
    ("tens", "yes"),
    ("match_id", "0102"),
    ("secret", "00"),
    ("transcript", "00"),
    ("transcript", [5]),
    ("waiting_since", "soon"),
    ("waiting_since", float("inf")),
    ("claimed", "no"),
    ("received_at", "yesterday"),
    ("received_at", float("nan")),
    ("damaged_reply", 1),
    ("forgotten", ["00"]),
    ("forgotten", {"x": "00"}),
    ("forgotten", {"3": "zz"}),
]


@pytest.mark.parametrize(("field", "value"), BAD_FIELDS)
def test_every_field_of_a_save_is_checked_when_it_is_read(
    tmp_path: Path, field: str, value: object
) -> None:
    path, doc, _host = _saved_midway(tmp_path)
    doc[field] = value
    path.write_text(json.dumps(doc))
    with pytest.raises(BadCode, match="damaged remote match file"):
        load_session(tmp_path)


def test_a_save_with_cut_cells_for_the_next_half_is_refused_not_crashing_a_later_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Today such a save loads, then `remote read` crashes (on every restart) once the
    opponent's code deals that half."""
    from royalnine.remote.session import half_key

    path, doc, host = _saved_midway(tmp_path)
    guest = RemoteSession.from_json(path.read_text())
    rng = random.Random(9)
    step(guest, host, rng, 0.0)
    save_session(tmp_path, guest)
    doc = json.loads(path.read_text())
    nxt = half_key(guest._proto.seats[guest.seat].fixed)
    doc["cells"][f"{nxt[0]}.{nxt[1]}"] = "000102"
    path.write_text(json.dumps(doc))
    if host.needs_placement:
        place(host, rng)
    code = tmp_path / "code.txt"
    code.write_text(to_text(host.compose(now=0.0)))
    for _restart in range(2):
        status, lines = run(capsys, tmp_path, "read", str(code))
        assert status == 1 and len(lines) == 1
        assert "damaged remote match file" in json.loads(lines[0])["error"]


@pytest.mark.parametrize(
    "args",
    [
        ("read", "missing.png"),
        ("verify", "missing.txt"),
        ("host", "--out", "no/such/folder/code.png"),
        ("host", "--out", "."),
        ("host", "--out", "/dev/full"),
        ("host", "--rounds", "many"),
        ("place",),
        ("frobnicate",),
    ],
)
def test_with_json_every_call_prints_exactly_one_json_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    argv = ["remote", args[0], "--home", str(tmp_path), "--json", *args[1:]]
    try:
        status = main(argv)
    except SystemExit as exc:  # argparse's usage errors
        status = exc.code if isinstance(exc.code, int) else 2
    lines = capsys.readouterr().out.strip().splitlines()
    assert status != 0 and len(lines) == 1, lines
    doc = json.loads(lines[0])
    assert doc["ok"] is False and doc["error"] and "\n" not in doc["error"]


def test_a_match_makes_the_inbox_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one_json(capsys, tmp_path, "host", "--rounds", "1")
    assert (tmp_path / INBOX_DIR).is_dir()


# -- 4. verify judges claims honestly; 9. the claimed-against side learns of the claim


def _silent_guest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, Path, Path]:
    """A hosts, B joins and reads A's move 3, then goes silent owing move 4; A claims.
    Returns both homes and A's transcript (with its claim note)."""
    import time

    clock = [1_000_000.0]
    monkeypatch.setattr(time, "time", lambda: clock[0])
    a, b = tmp_path / "a", tmp_path / "b"
    code = one_json(capsys, a, "host", "--rounds", "1")["last_code_text"]
    code = one_json(capsys, b, "join", code)["last_code_text"]
    code = one_json(capsys, a, "read", code)["last_code_text"]
    assert one_json(capsys, b, "read", code)["needs_placement"]  # B owes move 4
    clock[0] += DAY + 1
    claim = one_json(capsys, a, "claim")
    return a, b, Path(claim["transcript"])


def test_a_cut_transcript_blames_nobody(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(11)
    host = RemoteSession.host(MatchConfig(1), entropy(11))
    guest = RemoteSession.join(host.compose(now=0.0), entropy(12))
    while not host.complete:
        sender, receiver = (host, guest) if len(host.transcript) % 2 == 0 else (guest, host)
        step(sender, receiver, rng, 0.0)
    for cut in range(1, len(host.transcript)):
        path = tmp_path / f"cut-{cut}.txt"
        path.write_text("".join(c.hex() + "\n" for c in host.transcript[:cut]))
        doc = one_json(capsys, tmp_path, "verify", str(path))
        assert doc["valid"] and not doc["complete"] and doc["forfeit"] is None
        assert "due from" not in doc["text"] and "forfeits" not in doc["text"]
        assert any("cannot show who stopped answering" in r for r in doc["remarks"])


def test_forged_and_contradictory_claim_notes_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, _b, transcript = _silent_guest(tmp_path, capsys, monkeypatch)
    text = transcript.read_text()
    doc = one_json(capsys, a, "verify", str(transcript))
    assert doc["valid"] and doc["forfeit"] == {
        "seat": 1,
        "role": "guest",
        "move": 4,
        "claimed": True,
    }
    assert any("unproven" in r for r in doc["remarks"])
    forged = {
        "wrong move": text.replace("move 4 was due", "move 6 was due"),
        "wrong seat": text.replace(
            "claimed by the host: the guest forfeits (move 4 was due from the guest)",
            "claimed by the guest: the host forfeits (move 4 was due from the host)",
        ),
        "seats disagree": text.replace("due from the guest", "due from the host"),
        "two notes": text.replace(
            "# claimed",
            "# abandoned by the host while move 4 was due from it: the host forfeits\n# claimed",
        ),
        "hand-written": text + "# the guest forfeits, trust me\n",
    }
    for name, changed in forged.items():
        path = tmp_path / f"{name}.txt"
        path.write_text(changed)
        status, lines = run(capsys, tmp_path, "verify", str(path))
        doc = json.loads(lines[0])
        assert status == 1 and not doc["valid"] and doc["codes_valid"], name
        assert doc["forfeit"] is None and doc["refused_notes"], name


def test_the_other_transcript_settles_a_claim(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _a, b, transcript = _silent_guest(tmp_path, capsys, monkeypatch)
    mine = tmp_path / "b.txt"
    one_json(capsys, b, "export", str(mine))
    doc = one_json(capsys, tmp_path, "verify", str(transcript), str(mine))
    assert doc["valid"] and any("did not answer" in r for r in doc["remarks"])
    # had B answered, its transcript would hold move 4: the claim is refused
    doc = one_json(capsys, b, "place", "0", "1", "2", "3")
    one_json(capsys, b, "export", str(mine))
    status, lines = run(capsys, tmp_path, "verify", str(transcript), str(mine))
    doc = json.loads(lines[0])
    assert status == 1 and doc["forfeit"] is None and "answered" in doc["refused_notes"][0]


def test_the_claimed_against_device_learns_it_lost_by_forfeit(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _a, b, transcript = _silent_guest(tmp_path, capsys, monkeypatch)
    saved = next((b / "remote").glob("*/session.json")).read_bytes()
    doc = one_json(capsys, b, "verify", str(transcript))  # only reports (issue 24)
    assert doc["here"]["would_count"] and "verify changes nothing" in doc["text"]
    assert next((b / "remote").glob("*/session.json")).read_bytes() == saved
    assert not Storage(b).stats().get("remote")
    doc = one_json(capsys, b, "read", str(transcript))
    told = doc["text"]
    assert doc["claim"]["counted"] and "claimed by the host" in told and "forfeit loss" in told
    stats = Storage(b).stats()["remote"]
    assert stats["lost"] == 1 and stats["forfeit_lost"] == 1
    assert not list((b / "remote").glob("*/session.json"))
    kept = next((b / "remote").glob("*/transcript.txt")).read_text()
    assert "counted here as a forfeit loss" in kept
    status = one_json(capsys, b, "status")
    assert status["forfeit"] == "lost" and not status["my_turn"] and not status["can_claim"]
    # told twice, counted once
    assert not one_json(capsys, b, "read", str(transcript))["ok"]
    assert Storage(b).stats()["remote"]["forfeit_lost"] == 1


def test_a_claim_against_a_device_that_did_answer_counts_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _a, b, transcript = _silent_guest(tmp_path, capsys, monkeypatch)
    one_json(capsys, b, "place", "0", "1", "2", "3")  # B did send move 4 (A never got it)
    doc = one_json(capsys, b, "read", str(transcript))
    assert not doc["ok"] and "does not hold" in doc["error"]
    assert Storage(b).stats().get("remote", {}).get("forfeit_lost", 0) == 0
    assert one_json(capsys, b, "status")["waiting_for_opponent"]


@pytest.mark.parametrize("out", ["/dev/full", "no/such/folder/c.png", "."])
def test_a_bad_out_changes_nothing_and_forfeits_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], out: str
) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    code = one_json(capsys, a, "host", "--rounds", "1")["last_code_text"]
    code = one_json(capsys, b, "join", code)["last_code_text"]
    one_json(capsys, a, "read", code)
    assert one_json(capsys, b, "read", one_json(capsys, a, "status")["last_code_text"])[
        "needs_placement"
    ]  # b owes a code: a new match would forfeit this one
    before = sorted(p.name for p in (b / "remote").iterdir())
    doc = one_json(capsys, b, "host", "--out", out)
    assert not doc["ok"]
    assert sorted(p.name for p in (b / "remote").iterdir()) == before
    assert Storage(b).stats().get("remote", {}).get("forfeit_lost", 0) == 0
