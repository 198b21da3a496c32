"""The round/match state machine: legal flow, illegal actions, random full matches, records."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from royalnine.core import (
    CENTRE,
    SEATS,
    Card,
    Confirm,
    CorruptRecord,
    Deal,
    Dealer,
    IllegalMove,
    Match,
    MatchConfig,
    MatchRecord,
    NextRound,
    Phase,
    Place,
    Unplace,
    load_record,
    placement_actions,
    save_record,
    score_grid,
    view,
)
from royalnine.core.record import match_from_json, match_to_json


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(p) for p in text.split(","))


def dealt_first_half() -> Match:
    return Match.new().apply(Deal(cards("R1,R2,R3,R4,B1,B2,B3,B4")))


def random_policy(match: Match, seat: int, rng: random.Random) -> list[Place | Confirm]:
    rnd = match.round
    empty = [i for i, c in enumerate(rnd.grids[seat]) if c is None and i != CENTRE]
    rng.shuffle(empty)
    return list(placement_actions(seat, dict(zip(rnd.hands[seat], empty, strict=False))))  # type: ignore[arg-type]


def play_random(seed: int, config: MatchConfig | None = None) -> Match:
    rng = random.Random(seed)
    dealer = Dealer(random.Random(seed + 1))
    match = Match.new(config)
    steps = 0
    while not match.is_over:
        steps += 1
        assert steps < 1000, "match did not end"
        if match.phase.is_deal:
            match = match.apply(dealer.deal(match))
        elif match.phase.is_place:
            seats = list(SEATS)
            rng.shuffle(seats)
            for seat in seats:
                match = match.apply_all(random_policy(match, seat, rng))
        else:
            match = match.apply(NextRound())
    return match


def test_a_round_flows_through_its_phases() -> None:
    m = Match.new()
    assert m.phase is Phase.FIRST_DEAL and m.deal_size() == 8
    m = dealt_first_half()
    assert m.phase is Phase.FIRST_PLACE
    assert m.round.hands == (cards("R1,R2,R3,R4"), cards("B1,B2,B3,B4"))
    m = m.apply_all(
        placement_actions(0, dict(zip(cards("R1,R2,R3,R4"), (0, 1, 2, 3), strict=True)))
    )
    assert m.phase is Phase.FIRST_PLACE and m.round.confirmed == (True, False)
    m = m.apply_all(
        placement_actions(1, dict(zip(cards("B1,B2,B3,B4"), (0, 1, 2, 3), strict=True)))
    )
    assert m.phase is Phase.SECOND_DEAL
    m = m.apply(Deal(cards("R5,R6,R7,R8,B5,B6,B7,B8")))
    assert m.phase is Phase.SECOND_PLACE
    m = m.apply_all(
        placement_actions(0, dict(zip(cards("R5,R6,R7,R8"), (5, 6, 7, 8), strict=True)))
    )
    m = m.apply_all(
        placement_actions(1, dict(zip(cards("B5,B6,B7,B8"), (5, 6, 7, 8), strict=True)))
    )
    assert m.phase is Phase.REVEAL and m.deal_size() == 1
    assert set(m.undealt()) == set(cards("R9,B9"))
    m = m.apply(Deal(cards("R9")))
    assert m.phase is Phase.ROUND_OVER
    result = m.results[-1]
    assert result.grids[0] == cards("R1,R2,R3,R4,R9,R5,R6,R7,R8")
    assert result.scores[0] == score_grid(result.grids[0])
    assert result.scores[0].royal_nine
    assert result.scores[1].bust and result.points[1] == 0
    assert m.totals() == (result.points[0], 0)
    m = m.apply(NextRound())
    assert m.phase is Phase.FIRST_DEAL and m.round.number == 2


def test_cards_can_move_until_confirmed_and_never_after() -> None:
    m = dealt_first_half()
    r1 = Card.parse("R1")
    m = m.apply(Place(0, r1, 0)).apply(Place(0, r1, 8))
    assert m.round.grids[0][0] is None and m.round.grids[0][8] == r1
    m = m.apply(Unplace(0, r1))
    assert r1 in m.round.hands[0] and m.round.hands[0] == cards("R1,R2,R3,R4")
    m = m.apply_all(
        placement_actions(0, dict(zip(cards("R1,R2,R3,R4"), (0, 1, 2, 3), strict=True)))
    )
    with pytest.raises(IllegalMove, match="already confirmed"):
        m.apply(Place(0, r1, 5))
    m = m.apply_all(
        placement_actions(1, dict(zip(cards("B1,B2,B3,B4"), (0, 1, 2, 3), strict=True)))
    )
    m = m.apply(Deal(cards("R5,R6,R7,R8,B5,B6,B7,B8")))
    with pytest.raises(IllegalMove, match="confirmed and cannot move"):
        m.apply(Place(0, r1, 5))
    with pytest.raises(IllegalMove, match="confirmed and cannot move"):
        m.apply(Unplace(0, r1))


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Place(0, Card.parse("R1"), CENTRE), "centre"),
        (Place(0, Card.parse("B1"), 0), "not in seat 0's hand"),
        (Place(0, Card.parse("R9"), 0), "not in seat 0's hand"),
        (Place(0, Card.parse("R1"), 9), "no cell"),
        (Place(2, Card.parse("R1"), 0), "no seat"),
        (Unplace(0, Card.parse("R1")), "not on seat 0's grid"),
        (Confirm(0), "must place all 4"),
        (NextRound(), "not over"),
        (Deal(cards("R5,R6,R7,R8,B5,B6,B7,B8")), "no deal is due"),
    ],
)
def test_illegal_actions_raise_and_change_nothing(action: object, message: str) -> None:
    m = dealt_first_half()
    before = m
    with pytest.raises(IllegalMove, match=message):
        m.apply(action)  # type: ignore[arg-type]
    assert m == before and m.history == before.history


def test_occupied_cell_and_acting_out_of_turn() -> None:
    m = dealt_first_half().apply(Place(0, Card.parse("R1"), 0))
    with pytest.raises(IllegalMove, match="occupied"):
        m.apply(Place(0, Card.parse("R2"), 0))
    fresh = Match.new()
    with pytest.raises(IllegalMove, match="cannot place cards in phase first_deal"):
        fresh.apply(Place(0, Card.parse("R1"), 0))


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        ("R1,R2,R3,R4,B1,B2,B3", "needs 8 cards"),
        ("R1,R1,R3,R4,B1,B2,B3,B4", "repeat"),
        ("R1,R2,R3,R4,B1,B2,B3,B10", "not in the deck"),
    ],
)
def test_bad_deals(deal: str, message: str) -> None:
    with pytest.raises(IllegalMove, match=message):
        Match.new().apply(Deal(cards(deal)))


def test_redealing_a_dealt_card_is_illegal() -> None:
    m = dealt_first_half()
    for seat in SEATS:
        m = m.apply_all(
            placement_actions(seat, dict(zip(m.round.hands[seat], (0, 1, 2, 3), strict=True)))
        )
    with pytest.raises(IllegalMove, match="already dealt"):
        m.apply(Deal(cards("R1,R6,R7,R8,B5,B6,B7,B8")))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.booleans(), st.integers(1, 6))
def test_random_matches_end_use_cards_once_and_round_trip(
    seed: int, tens: bool, rounds: int
) -> None:
    config = MatchConfig(rounds=rounds, tens=tens)
    match = play_random(seed, config)
    outcome = match.outcome()
    assert outcome is not None
    assert len(match.results) == rounds
    for result in match.results:
        used = set(result.grids[0]) | set(result.grids[1])
        assert len(used) == 17  # 8 + 8 own cards + the shared centre, each once
        assert result.grids[0][CENTRE] == result.grids[1][CENTRE]
        assert used <= set(config.deck)
        for seat in SEATS:
            assert result.scores[seat] == score_grid(result.grids[seat])
    totals = tuple(sum(r.points[s] for r in match.results) for s in SEATS)
    assert outcome.totals == totals
    assert outcome.winner == (None if totals[0] == totals[1] else int(totals[1] > totals[0]))
    again = match_from_json(match_to_json(match))
    assert again == match


def test_match_config_validation() -> None:
    with pytest.raises(ValueError, match="rounds"):
        MatchConfig(rounds=0)
    assert Match.new().config == MatchConfig(rounds=5, tens=False)


def test_transcript_from_a_fixed_seed_is_stable(update_golden: bool) -> None:
    """A golden playthrough: seed 7 must keep producing the same record, action by action."""
    match = play_random(7)
    path = Path(__file__).parent / "golden" / "transcript_seed7.json"
    text = json.dumps(json.loads(match_to_json(match)), indent=1) + "\n"
    if update_golden:
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text, "transcript changed; --update-golden"
    assert match_from_json(path.read_text(encoding="utf-8")).totals() == match.totals()


# --- records ------------------------------------------------------------------


def test_record_round_trip_through_a_file(tmp_path: Path) -> None:
    match = play_random(3, MatchConfig(rounds=2))
    record = MatchRecord.of(match, {"player0": "Ann", "seed": 3})
    path = tmp_path / "rec" / "match.json"
    save_record(path, record)
    loaded = load_record(path)
    assert loaded == record
    assert loaded.replay() == match
    assert not list(path.parent.glob("*.tmp"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "bad JSON"),
        ("[]", "foreign"),
        ('{"format": "chess.pgn"}', "foreign"),
        ('{"format": "royalnine.match", "version": 99}', "version 99"),
        ('{"format": "royalnine.match", "version": true}', "version True"),  # true == 1
        ('{"format": "royalnine.match", "version": 1.0}', "version 1.0"),
        ('{"format": "royalnine.match", "version": 1}', "damaged"),
        (
            '{"format": "royalnine.match", "version": 1, "config": {"rounds": 5, "tens": false},'
            ' "actions": [["deal", "R1,R2"]]}',
            "action 1 is illegal",
        ),
        (
            '{"format": "royalnine.match", "version": 1, "config": {"rounds": 5, "tens": false},'
            ' "actions": [["teleport", 0]]}',
            "bad action",
        ),
        (
            '{"format": "royalnine.match", "version": 1, "config": {"rounds": "5", "tens": false},'
            ' "actions": []}',
            "wrong type",
        ),
    ],
)
def test_corrupt_or_foreign_records_give_clear_errors(text: str, message: str) -> None:
    with pytest.raises(CorruptRecord, match=message):
        MatchRecord.from_json(text).replay()


def test_load_record_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(b"\x00\xff garbage")
    with pytest.raises(CorruptRecord, match=r"bad\.json"):
        load_record(path)
    with pytest.raises(CorruptRecord, match="cannot read"):
        load_record(tmp_path / "missing.json")


# --- views --------------------------------------------------------------------


def test_view_hides_the_centre_and_the_opponents_unconfirmed_placement() -> None:
    m = dealt_first_half()
    m = m.apply_all(
        placement_actions(1, dict(zip(cards("B1,B2,B3,B4"), (0, 1, 2, 3), strict=True)))
    )
    v0 = view(m, 0)
    assert v0.opponent_confirmed
    assert v0.opponent_dealt == cards("B1,B2,B3,B4")
    assert all(c is None for c in v0.opponent_grid)
    assert v0.centre is None and v0.grid[CENTRE] is None
    assert set(v0.unseen) == set(Match.new().config.deck) - set(cards("R1,R2,R3,R4,B1,B2,B3,B4"))
    m = m.apply_all(
        placement_actions(0, dict(zip(cards("R1,R2,R3,R4"), (5, 6, 7, 8), strict=True)))
    )
    v0 = view(m, 0)
    assert v0.opponent_grid[:4] == cards("B1,B2,B3,B4")
    m = m.apply(Deal(cards("R5,R6,R7,R8,B5,B6,B7,B8")))
    v1 = view(m, 1)
    assert v1.opponent_grid[5:] == cards("R1,R2,R3,R4")
    assert v1.hand == cards("B5,B6,B7,B8")
    assert v1.opponent_dealt == cards("R5,R6,R7,R8")
    assert set(v1.unseen) == set(cards("R9,B9"))
    for seat in SEATS:
        m = m.apply_all(
            placement_actions(
                seat, dict(zip(m.round.hands[seat], view(m, seat).empty_cells, strict=True))
            )
        )
    assert view(m, 0).centre is None
    m = m.apply(Deal(cards("B9")))
    assert view(m, 0).centre == Card.parse("B9") == view(m, 1).grid[CENTRE]


def test_view_fields_never_hold_undealt_cards() -> None:
    for seed in range(20):
        rng = random.Random(seed)
        dealer = Dealer(random.Random(seed))
        m = Match.new()
        while not m.is_over:
            for seat in SEATS:
                v = view(m, seat)
                visible = v.seen
                assert not visible & set(m.undealt())
                if m.phase is not Phase.ROUND_OVER:
                    assert v.centre is None
            if m.phase.is_deal:
                m = m.apply(dealer.deal(m))
            elif m.phase.is_place:
                for seat in SEATS:
                    m = m.apply_all(random_policy(m, seat, rng))
            else:
                m = m.apply(NextRound())
