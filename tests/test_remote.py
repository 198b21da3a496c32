"""Remote matches over codes: full matches, sizes, and adversarial tests of each guarantee."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from royalnine.core import CENTRE, IllegalMove, MatchConfig, Phase
from royalnine.remote.codec import BadCode, Message, Open, Reveal, Seal, decode, encode
from royalnine.remote.session import RemoteSession, verify_transcript


def entropy(seed: int) -> Callable[[int], bytes]:
    rng = random.Random(seed)
    return lambda n: bytes(rng.randrange(256) for _ in range(n))


def place_randomly(session: RemoteSession, rng: random.Random) -> None:
    v = session.view()
    cells = list(v.empty_cells)
    rng.shuffle(cells)
    session.place(dict(zip(v.hand, cells, strict=False)))


def start(seed: int, config: MatchConfig | None = None) -> tuple[RemoteSession, RemoteSession]:
    host = RemoteSession.host(config or MatchConfig(), entropy(seed))
    guest = RemoteSession.join(host.compose(), entropy(seed + 1))
    return host, guest


def move(
    sender: RemoteSession,
    receiver: RemoteSession | None,
    rng: random.Random,
) -> bytes:
    """One code: the sender places first if it must, composes, and the receiver reads it."""
    if sender.needs_placement:
        place_randomly(sender, rng)
    code = sender.compose()
    if receiver is not None:
        receiver.receive(code)
    return code


def play(
    host: RemoteSession,
    guest: RemoteSession,
    rng: random.Random,
    on_code: Callable[[int, bytes], None] | None = None,
) -> list[bytes]:
    """Play to the end; returns every code sent after the hello."""
    players = (host, guest)
    turn = 1
    codes: list[bytes] = []
    while True:
        me = players[turn]
        if me.needs_placement:
            place_randomly(me, rng)
        if not me.my_turn:
            break
        code = move(me, players[1 - turn], rng)
        codes.append(code)
        if on_code:
            on_code(turn, code)
        turn = 1 - turn
        assert len(codes) < 1000
    return codes


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.booleans(), st.integers(1, 5))
def test_full_matches_agree_on_both_devices_and_verify(seed: int, tens: bool, rounds: int) -> None:
    host, guest = start(seed, MatchConfig(rounds, tens))
    play(host, guest, random.Random(seed))
    assert host.finished and guest.finished
    assert host.match.results == guest.match.results
    assert len(host.match.results) == rounds
    assert host.transcript == guest.transcript
    rebuilt = verify_transcript(list(host.transcript))
    assert rebuilt.results == host.match.results
    for result in rebuilt.results:
        assert result.grids[0][CENTRE] == result.grids[1][CENTRE]


def test_sizes_and_message_counts() -> None:
    counts = []
    for seed in range(5):
        host, guest = start(seed)
        play(host, guest, random.Random(seed))
        codes = host.transcript
        assert max(len(c) for c in codes) <= 200
        counts.append(len(codes))
    # hello + join, then about five codes a round
    assert all(20 <= n <= 27 for n in counts), counts


def test_codes_fit_a_small_qr() -> None:
    qr = pytest.importorskip("petitcom_shim.qr")
    host, guest = start(3)
    play(host, guest, random.Random(3))
    biggest = max(host.transcript, key=len)
    matrix = qr.encode_matrix(biggest)
    assert matrix.shape[0] <= 57  # QR version 10 or smaller
    assert qr.decode_image(qr.encode_image(biggest)) == biggest


def state(session: RemoteSession) -> str:
    return session.to_json()


def test_replayed_skipped_and_foreign_codes_are_refused_and_change_nothing() -> None:
    host, guest = start(11)
    rng = random.Random(11)
    code2 = move(guest, host, rng)
    before = state(host)
    with pytest.raises(BadCode, match=r"move 2 of match .*already read; .*waiting for move 3"):
        host.receive(code2)
    assert state(host) == before
    code3 = move(host, guest, rng)
    move(guest, host, rng)
    move(host, guest, rng)
    other_host, _ = start(99)
    foreign = other_host.transcript[0]
    before = state(guest)
    with pytest.raises(BadCode, match="belongs to match"):
        guest.receive(foreign)
    with pytest.raises(BadCode, match="waiting for move"):
        guest.receive(code3)
    assert state(guest) == before


def test_skipped_code_names_the_move_expected() -> None:
    host, guest = start(5)
    rng = random.Random(5)
    for sender, receiver in ((guest, host), (host, guest), (guest, host)):
        move(sender, receiver, rng)
    code5 = move(host, None, rng)
    # a fresh device that only saw the hello cannot read move 5
    late = RemoteSession.join(host.transcript[0], entropy(77))
    with pytest.raises(BadCode, match=r"move 5 of match [0-9A-F]{8}; this device is waiting"):
        late.receive(code5)


def test_every_single_byte_change_is_refused_or_caught_one_move_later() -> None:
    """A changed code is refused by its reader, or by its sender when the history comes back."""
    host, guest = start(21)
    rng = random.Random(21)
    move(guest, host, rng)
    code3 = move(host, None, rng)
    for i in range(len(code3)):
        tampered = bytearray(code3)
        tampered[i] ^= 0x41
        reader = RemoteSession.from_json(guest.to_json())
        try:
            reader.receive(bytes(tampered))
        except BadCode:
            continue
        # accepted (e.g. a changed seal): the reader's reply no longer follows the sender's history
        reply = move(reader, None, rng)
        sender = RemoteSession.from_json(host.to_json())
        with pytest.raises(BadCode, match="does not follow"):
            sender.receive(reply)


def test_reveals_must_match_the_commitment() -> None:
    """Nobody chooses the cards: a chain value that does not hash to the commitment is refused."""
    host, guest = start(8)
    host.receive(guest.compose())
    code = decode(host.compose())  # the host's value for the first deal
    forged_items = tuple(
        Reveal(item.stage, bytes(16)) if isinstance(item, Reveal) else item for item in code.items
    )
    forged = encode(Message(code.match_id, code.seq, code.prev, forged_items))
    with pytest.raises(BadCode, match="does not match its commitment"):
        guest.receive(forged)


def test_an_opening_must_match_its_seal() -> None:
    host, guest = start(9)
    rng = random.Random(9)
    players, turn = (host, guest), 1
    while True:  # play until a code opens a seal, then change the opening
        sender, receiver = players[turn], players[1 - turn]
        if sender.needs_placement:
            place_randomly(sender, rng)
        data = sender.compose()
        code = decode(data)
        if any(isinstance(i, Open) for i in code.items):
            break
        receiver.receive(data)
        turn = 1 - turn
    changed = tuple(
        Open(i.round, i.half, bytes(reversed(i.cells)), i.nonce) if isinstance(i, Open) else i
        for i in code.items
    )
    with pytest.raises(BadCode, match="does not match its seal"):
        receiver.receive(encode(Message(code.match_id, code.seq, code.prev, changed)))


def test_placements_are_simultaneous_the_first_placer_sends_only_a_seal() -> None:
    host, guest = start(12)
    host.receive(guest.compose())
    guest.receive(host.compose())  # the host's value for the first deal: the guest places first
    place_randomly(guest, random.Random(0))
    code = decode(guest.compose())
    seals = [i for i in code.items if isinstance(i, Seal)]
    assert len(seals) == 1
    host.receive(encode(code))
    v = host.view()
    assert all(c is None for c in v.opponent_grid)
    assert host.opponent_sealed


def test_hidden_cards_stay_hidden_on_each_device() -> None:
    """At every code, each device knows only what the rules show its seat."""
    host, guest = start(31)
    rng = random.Random(31)

    def check(_turn: int, _code: bytes) -> None:
        for device in (host, guest):
            m = device.match
            rnd = m.round
            if rnd.phase is not Phase.ROUND_OVER:
                assert rnd.centre is None
            if rnd.phase in (Phase.FIRST_DEAL, Phase.FIRST_PLACE):
                # no second-half cards before both first halves are fixed
                assert len(rnd.dealt[0]) <= 4 and len(rnd.dealt[1]) <= 4
            v = device.view()
            assert v.seen <= {c for c in m.config.deck}

    play(host, guest, rng, on_code=check)


def test_save_file_holds_no_undealt_cards() -> None:
    """A device's own file cannot predict a deal: the opponent's next chain value is not in it."""
    host, guest = start(41)
    host.receive(guest.compose())
    saved = host.to_json()
    next_guest_value = guest._chain_value(2).hex()  # the guest's value for the second deal
    assert next_guest_value not in saved
    again = RemoteSession.from_json(saved)
    assert again.to_json() == saved and again.view() == host.view()


def test_waiting_device_can_show_its_last_code_again() -> None:
    host, _guest = start(51)
    first = host.transcript[0]
    assert host.last_code() == first
    assert "waiting for opponent" in host.waiting_message()
    with pytest.raises(IllegalMove):
        host.compose()


def test_foreign_and_damaged_bytes() -> None:
    with pytest.raises(BadCode, match="not a Royal Nine code"):
        decode(b"PT\x01\x01" + bytes(40))
    with pytest.raises(BadCode, match="too short"):
        decode(b"R9\x01abc")
    with pytest.raises(BadCode, match="version 9"):
        decode(b"R9\x09" + bytes(30))
    host, _ = start(1)
    with pytest.raises(BadCode, match="cut short"):
        decode(host.transcript[0][:-3])
    with pytest.raises(BadCode, match="damaged remote match file"):
        RemoteSession.from_json('{"format": "royalnine.remote", "version": 1}')


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("tens", "no"),
        ("tens", 0),
        ("tens", None),
        ("rounds", "5"),
        ("rounds", 5.0),
        ("rounds", True),
    ],
)
def test_a_save_with_a_wrongly_typed_option_is_damaged(field: str, value: object) -> None:
    """``"tens": "no"`` was read as true (issue 18 item 7): only JSON true/false will do."""
    import json

    host, _guest = start(43)
    doc = json.loads(host.to_json())
    doc[field] = value
    with pytest.raises(BadCode, match=f"damaged remote match file: '{field}' is not"):
        RemoteSession.from_json(json.dumps(doc))


@pytest.mark.parametrize("kind", [float, str])
def test_a_save_whose_version_only_looks_right_is_damaged(kind: type) -> None:
    """``2.0`` equals 2 in Python (and JSON ``true`` equals 1); neither is a version this
    program wrote."""
    import json

    host, _guest = start(43)
    doc = json.loads(host.to_json())
    assert type(doc["version"]) is int
    doc["version"] = kind(doc["version"])
    with pytest.raises(BadCode, match=r"version .* is not supported"):
        RemoteSession.from_json(json.dumps(doc))
