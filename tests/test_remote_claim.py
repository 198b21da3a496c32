"""Issue 24: a forfeit only a real walk-away can earn (items 1, 4 and 5).

A claim counts against a device only from what that device can see for itself (its
own codes and its own clock since it read its last code); ``verify`` only reports;
SHOW AGAIN after a damaged reply never restarts the claimant's wait; a move read is
never replaced, not even after a roll-back (no re-seal); ``verify`` refuses every
note this program would not write, for the seat that would write it.
"""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from test_remote_protocol import next_code, start, turns

from royalnine.cli import main
from royalnine.remote.codec import BadCode, Message, PlaceClear, Seal, decode, encode
from royalnine.remote.crypto import placement_digest
from royalnine.remote.files import load_session, save_session, transcript_text
from royalnine.remote.session import Broken, RemoteSession
from royalnine.remote.textcode import to_text
from royalnine.screens.remote import RemoteLink
from royalnine.screens.remote_io import Arrival, read_pasted
from royalnine.storage import Storage

DAY = 86_400.0
SEATS = ("host", "guest")


def cli(capsys: pytest.CaptureFixture[str], home: Path, *args: str) -> tuple[int, dict[str, Any]]:
    """One ``royalnine remote`` command with --json: its status and its one JSON line."""
    status = main(["remote", args[0], "--home", str(home), "--json", *args[1:]])
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1, lines
    doc: dict[str, Any] = json.loads(lines[0])
    return status, doc


def copy(session: RemoteSession) -> RemoteSession:
    return RemoteSession.from_json(session.to_json())


def claim_text(claimer: RemoteSession) -> str:
    """The transcript a claimer's device writes (header, claim note, codes), whether or
    not its wait was over: what a cheat sends instead of its code."""
    forged = copy(claimer)
    forged.claimed = True
    return transcript_text(forged)


def remote_stats(home: Path) -> dict[str, int]:
    return dict(Storage(home).stats().get("remote") or {})


def forfeits(home: Path) -> int:
    """Forfeits recorded on a device, won or lost."""
    stats = remote_stats(home)
    return stats.get("forfeit_lost", 0) + stats.get("forfeit_won", 0)


def saved(home: Path) -> bytes:
    (path,) = (home / "remote").glob("*/session.json")
    return path.read_bytes()


# -- item 1: a forged claim never counts -------------------------------------------------


def at_every_move(rounds: int, seed: int) -> Any:
    """(attacker, victim) at every move of a match: the victim sent the last code and
    waits; the attacker has made its next code (in its transcript) but not sent it."""
    reference_len = None
    k = 1
    while reference_len is None or k < reference_len - 1:  # the last code ends the match
        host, guest = start(seed, rounds)
        players = (host, guest)
        if k == 1:  # the host's code 1 only: anyone who saw it can forge a join
            next_code(guest)
            yield guest, copy(host), k
        else:
            for sender, receiver in turns(host, guest):
                receiver.receive(next_code(sender))
                if len(receiver.transcript) == k:
                    break
            attacker, victim = players[k % 2], players[1 - k % 2]
            assert len(victim.transcript) == k and victim.waiting_for_opponent()
            next_code(attacker)
            yield attacker, copy(victim), k
        if reference_len is None:
            full_host, full_guest = start(seed, rounds)
            for sender, receiver in turns(full_host, full_guest):
                receiver.receive(next_code(sender))
            reference_len = len(full_host.transcript)
        k += 1


@pytest.mark.parametrize("rounds", [1, 2])
def test_a_forged_claim_at_every_move_is_read_as_a_move_and_never_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rounds: int
) -> None:
    """The attack of issue 24: on its own turn the attacker makes its next code, does not
    send it, and sends a claimer's transcript ending with it instead. Through `verify` it
    changes nothing; through `read` and a paste in the game, the device reads the code it
    never had and the match goes on. No forfeit is recorded, at any move."""
    moves = 0
    for attacker, victim, k in at_every_move(rounds, seed=3 + rounds):
        text = claim_text(attacker)
        assert f"(move {k + 2} was due from the {SEATS[victim.seat]})" in text
        path = tmp_path / f"claim-{k}.txt"
        path.write_text(text)
        homes = {how: tmp_path / f"{how}-{k}" for how in ("verify", "read", "paste")}
        for home in homes.values():
            save_session(home, copy(victim))

        status, doc = cli(capsys, homes["verify"], "verify", str(path))
        assert status == 0 and doc["valid"] and doc["here"]["kind"] == "read", k
        assert not doc["here"]["would_count"] and "unproven" in doc["remarks"][0]
        assert saved(homes["verify"]) == saved(homes["paste"])  # nothing changed
        assert not remote_stats(homes["verify"])

        status, doc = cli(capsys, homes["read"], "read", str(path))
        assert status == 0 and not doc["claim"]["counted"] and "never had" in doc["text"], k
        assert doc["forfeit"] is None and doc["codes"] >= k + 1 and not forfeits(homes["read"])
        status, doc = cli(capsys, homes["read"], "export")
        assert doc["text"].split("\n")[1 : k + 2] == [c.hex() for c in attacker.transcript]

        link = RemoteLink(copy(victim), Storage(homes["paste"]))
        assert link.accept([read_pasted("the clipboard", text)]), link.error
        assert link.pending_claim is None and link.claimed_against is None
        assert link.session.transcript[: k + 1] == attacker.transcript
        assert not link.session.forfeited and not forfeits(homes["paste"])
        assert "never had" in (link.error or "")
        moves += 1
    assert moves == (6 if rounds == 1 else 11)


@pytest.mark.parametrize("rounds", [1])
def test_a_claim_right_after_the_code_arrived_waits_for_this_devices_clock(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rounds: int
) -> None:
    """At every move: the victim has just read the claimer's code (and not answered); a
    claim with exactly its codes does not count until this device's own clock shows the
    wait, through read and paste; verify says so and changes nothing."""
    owed = 0
    for attacker, victim, k in at_every_move(rounds, seed=9):
        victim.receive(attacker.transcript[k], now=time.time())  # read just now
        if not victim.needs_placement:
            continue  # the program answers at once: nothing is ever left unanswered
        owed += 1
        path = tmp_path / f"claim-{k}.txt"
        path.write_text(claim_text(attacker))
        home = tmp_path / f"home-{k}"
        save_session(home, copy(victim))
        before = saved(home)
        status, doc = cli(capsys, home, "verify", str(path))
        assert doc.get("here", {}).get("kind") == "wait", (k, doc)
        assert not doc["here"]["would_count"]
        status, doc = cli(capsys, home, "read", str(path))
        assert status == 1 and "only" in doc["error"] and "answer it now" in doc["error"], k
        link = RemoteLink(copy(victim), Storage(home))
        assert not link.accept([read_pasted("the clipboard", path.read_text())])
        assert link.pending_claim is None and "answer it now" in (link.error or "")
        assert saved(home) == before and not remote_stats(home)
    assert owed >= 3


def test_a_real_walk_away_counts_only_when_read_and_says_what_it_did(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [1_000_000.0]
    monkeypatch.setattr(time, "time", lambda: clock[0])
    host, guest = start(31, rounds=1)
    host.receive(guest.compose(now=clock[0]))
    guest.receive(host.compose(now=clock[0]), now=clock[0])  # the guest owes move 4
    home = tmp_path / "guest"
    save_session(home, guest)
    claimed = copy(host)
    claimed.claim(now=clock[0] + DAY, after_s=DAY)
    path = tmp_path / "claim.txt"
    path.write_text(transcript_text(claimed))
    clock[0] += DAY - 60  # a minute short on the guest's own clock
    status, doc = cli(capsys, home, "read", str(path))
    assert status == 1 and "answer it now" in doc["error"] and not remote_stats(home)
    clock[0] += 60
    status, doc = cli(capsys, home, "verify", str(path))
    assert doc["here"]["would_count"] and not remote_stats(home)
    status, doc = cli(capsys, home, "read", str(path))
    assert status == 0 and doc["claim"]["counted"] and doc["forfeit"] == "lost"
    assert "has not answered it" in doc["text"] and "counted here as a forfeit loss" in doc["text"]
    assert remote_stats(home)["forfeit_lost"] == 1


def test_a_match_saved_without_a_receipt_time_starts_the_wait_when_a_claim_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [1_000_000.0]
    monkeypatch.setattr(time, "time", lambda: clock[0])
    host, guest = start(33, rounds=1)
    host.receive(guest.compose(now=0.0))
    guest.receive(host.compose(now=0.0), now=0.0)
    old = json.loads(guest.to_json())
    del old["received_at"]  # as an earlier version saved it
    home = tmp_path / "guest"
    save_session(home, RemoteSession.from_json(json.dumps(old)))
    claimed = copy(host)
    claimed.claim(now=DAY, after_s=DAY)
    path = tmp_path / "claim.txt"
    path.write_text(transcript_text(claimed))
    status, doc = cli(capsys, home, "read", str(path))
    assert status == 1 and "earlier version" in doc["error"]
    clock[0] += DAY
    status, doc = cli(capsys, home, "read", str(path))
    assert status == 0 and doc["claim"]["counted"]


# -- item 1: a damaged reply never restarts the claimant's wait ---------------------------


def damaged_reply(reply: bytes) -> bytes:
    """The reply with its ``prev`` changed: it does not follow the code it answers."""
    msg = decode(reply)
    return encode(replace(msg, prev=bytes(b ^ 0x33 for b in msg.prev)))


def test_repeated_damaged_replies_never_restart_the_wait() -> None:
    host, guest = start(35, rounds=1)
    host.receive(next_code(guest))
    host.compose(now=0.0)
    guest.receive(host.transcript[-1], now=0.0)
    reply = next_code(guest)
    host.mark_shown(now=100.0)  # copied to send, before any reply: the wait starts again
    for hours in (23, 47, 71):  # a damaged reply just before the wait ends, again and again
        with pytest.raises(Broken) as exc:
            host.receive(damaged_reply(reply))
        assert exc.value.remedy == "show"
        host.note_damaged_reply()
        host.mark_shown(now=hours * 3600.0)  # SHOW AGAIN, COPY, `remote show`
        host = copy(host)  # and it is kept in the save
    assert host.waiting_since == 100.0
    assert host.can_claim(100.0 + DAY, DAY)


def test_repeated_damaged_replies_in_the_game_and_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [1_000_000.0]
    monkeypatch.setattr(time, "time", lambda: clock[0])
    host, guest = start(37, rounds=1)
    host.receive(next_code(guest))
    host.compose(now=clock[0])
    guest.receive(host.transcript[-1], now=clock[0])
    bad = damaged_reply(next_code(guest))
    game, term = tmp_path / "game", tmp_path / "cli"
    link = RemoteLink(copy(host), Storage(game))
    link.save()
    save_session(term, copy(host))
    for _ in range(3):
        clock[0] += 23 * 3600
        assert not link.accept([Arrival("the clipboard", bad)]) and link.remedy == "show"
        link.show_again()
        link.mark_shown()  # COPY too
        status, doc = cli(capsys, term, "read", to_text(bad))
        assert status == 1 and doc["remedy"] == "show"
        cli(capsys, term, "show")
    clock[0] = 1_000_000.0 + DAY
    for home in (game, term):
        session = load_session(home)
        assert session is not None and session.damaged_reply
        assert session.can_claim(clock[0], DAY), home
    status, doc = cli(capsys, term, "claim")
    assert status == 0 and doc["claimed"]


# -- item 4: no re-seal after a roll-back -------------------------------------------------


def _resealed(code: bytes, session: RemoteSession, cells: bytes) -> bytes:
    """The sealer's code again with the seal of another placement (its own nonce, so it
    would open): what a cheat sends after seeing the other's placement in the clear."""
    msg = decode(code)
    items = []
    for item in msg.items:
        if isinstance(item, Seal):
            nonce = session._nonce((item.round, item.half))
            digest = placement_digest(
                msg.match_id, session.seat, item.round, item.half, cells, nonce
            )
            item = Seal(item.round, item.half, digest)
        items.append(item)
    return encode(Message(msg.match_id, msg.seq, msg.prev, tuple(items)))


def _sealed_then_answered() -> tuple[RemoteSession, RemoteSession, bytes, bytes]:
    """The guest seals its first half (move 4), the host answers in the clear (move 5)
    and the guest reads it. Returns both sessions, move 4 and a re-seal of it."""
    host, guest = start(39, rounds=1)
    host.receive(next_code(guest))
    guest.receive(next_code(host))
    guest.place(dict(zip(guest.view().hand, [0, 1, 2, 3], strict=True)))
    code4 = guest.compose(now=0.0)
    host.receive(code4, now=0.0)
    guest.receive(next_code(host))  # the guest now sees the host's first half
    return host, guest, code4, _resealed(code4, guest, bytes([5, 6, 7, 8]))


def test_a_reseal_is_refused_before_and_after_a_roll_back() -> None:
    host, _guest, code4, resealed = _sealed_then_answered()
    assert resealed != code4
    before = host.to_json()
    with pytest.raises(BadCode, match="never replaced") as exc:
        host.receive(resealed)
    assert not isinstance(exc.value, Broken) and host.to_json() == before  # no remedy
    assert host.rollback() == 4
    for device in (host, copy(host)):  # the roll-back keeps the seal seen, in the save too
        with pytest.raises(BadCode, match="never replaced"):
            device.receive(resealed)
        device.receive(code4)  # the move it read: the match goes on as before
        assert device.transcript[3] == code4


def test_a_changed_placement_in_the_clear_is_refused_after_a_roll_back() -> None:
    """The same for the other kind of placement: the placer in the clear sees the sealer's
    opening, then shows its clear placement changed."""
    host, guest, _code4, _ = _sealed_then_answered()
    code5 = host.transcript[4]
    msg = decode(code5)
    items = tuple(
        PlaceClear(i.round, i.half, bytes(reversed(i.cells))) if isinstance(i, PlaceClear) else i
        for i in msg.items
    )
    replaced = encode(replace(msg, items=items))
    guest.place(dict(zip(guest.view().hand, [5, 6, 7, 8], strict=True)))
    host.receive(guest.compose(now=0.0))  # the guest opens its first half: the host sees it
    guest.rollback()
    with pytest.raises(BadCode, match="never replaced"):
        guest.receive(replaced)
    guest.receive(code5)


def test_a_reseal_through_the_cli_offers_no_remedy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    host, _guest, code4, resealed = _sealed_then_answered()
    home = tmp_path / "host"
    save_session(home, host)
    status, doc = cli(capsys, home, "read", to_text(resealed))
    assert status == 1 and "never replaced" in doc["error"] and "remedy" not in doc
    assert cli(capsys, home, "rollback")[0] == 0
    status, doc = cli(capsys, home, "read", to_text(resealed))
    assert status == 1 and "never replaced" in doc["error"]
    assert cli(capsys, home, "read", to_text(code4))[0] == 0


# -- item 5: verify refuses every note this program would not write ------------------------


def _claimed_by_host() -> tuple[RemoteSession, RemoteSession]:
    host, guest = start(41, rounds=1)
    host.receive(next_code(guest))
    guest.receive(next_code(host), now=0.0)  # the guest owes move 4
    host.claim(now=DAY, after_s=DAY)
    return host, guest


def _verify(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, text: str
) -> tuple[int, dict[str, Any]]:
    path = tmp_path / f"{name}.txt"
    path.write_text(text, encoding="utf-8")
    return cli(capsys, tmp_path / "nobody", "verify", str(path))


def test_notes_the_program_writes_are_accepted_for_their_own_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    host, guest = _claimed_by_host()
    status, doc = _verify(capsys, tmp_path, "claim", transcript_text(host))
    assert status == 0 and doc["forfeit"]["role"] == "guest" and len(doc["notes"]) == 2
    walked = "abandoned by the guest while move 4 was due from it: the guest forfeits"
    status, doc = _verify(capsys, tmp_path, "abandon", transcript_text(guest, walked))
    assert status == 0 and doc["forfeit"]["claimed"] is False
    assert "noted its own walk-away" in doc["remarks"][0]
    counted = (
        "claimed by the host at move 4 (learnt here from its transcript): counted here as "
        "a forfeit loss of the guest"
    )
    status, doc = _verify(capsys, tmp_path, "counted", transcript_text(guest, counted))
    assert status == 0 and doc["forfeit"]["role"] == "guest"
    assert "own device counted the claim" in doc["remarks"][0]


def test_forged_notes_are_refused_and_never_printed_as_notes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    host, _guest = _claimed_by_host()
    text = transcript_text(host)
    header, claim = text.splitlines()[:2]
    label = host.label
    plain = transcript_text(replace_claimed(host, False))
    forged = {
        # a host writing the guest's own walk-away into its transcript
        "abandon by the other seat": plain.replace(
            header,
            header + "\n# abandoned by the guest while move 4 was due from it: the guest forfeits",
        ),
        "learnt here injected": text.replace(claim, claim + " learnt here"),
        "learnt here alone": plain.replace(header, header + "\n# learnt here: the guest forfeits"),
        "Cyrillic o": text.replace("forfeits", "f\u043erfeits"),
        "full-width digit": text.replace("move 4", "move \uff14"),
        "kept by the guest above a claim by the host": text.replace(
            "as kept by the host", "as kept by the guest"
        ),
        "counted by the claimer": plain.replace(
            header,
            header + "\n# claimed by the host at move 4 (learnt here from its transcript): "
            "counted here as a forfeit loss of the guest",
        ),
        "another match's header": text.replace(label, "00000000" if label != "00000000" else "1"),
        "no header": "\n".join(line for line in text.splitlines() if line != header) + "\n",
        "a comment": text.replace(header, header + "\n# the guest forfeits, trust me"),
        "a friendly comment": plain.replace(header, header + "\n# good game"),
        "two notes": text.replace(claim, claim + "\n" + claim),
    }
    for name, changed in forged.items():
        assert changed != text, name
        status, doc = _verify(capsys, tmp_path, name.replace(" ", "-"), changed)
        assert status == 1 and not doc["valid"] and doc["codes_valid"], name
        assert doc["forfeit"] is None and doc["refused_notes"] and doc["notes"] == [], name
        assert "\nnote: " not in doc["text"], name
    status, doc = _verify(capsys, tmp_path, "cyr", forged["Cyrillic o"])
    assert "\\u043e" in doc["refused_notes"][0]  # the look-alike is shown for what it is


def replace_claimed(session: RemoteSession, claimed: bool) -> RemoteSession:
    out = copy(session)
    out.claimed = claimed
    return out


def test_a_pasted_or_read_transcript_with_a_forged_note_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    host, guest = _claimed_by_host()
    text = transcript_text(host).replace("as kept by the host", "as kept by the guest")
    home = tmp_path / "guest"
    save_session(home, copy(guest))
    before = saved(home)
    path = tmp_path / "forged.txt"
    path.write_text(text)
    status, doc = cli(capsys, home, "read", str(path))
    assert status == 1 and "refused note" in doc["error"]
    link = RemoteLink(copy(guest), Storage(home))
    assert not link.accept([read_pasted("the clipboard", text)])
    assert link.pending_claim is None and "refused note" in (link.error or "")
    assert saved(home) == before and not remote_stats(home)
