"""The move-by-move review: exact judgements from what the placer could see, loss and luck."""

from __future__ import annotations

import random
import subprocess
import sys
from fractions import Fraction

import pytest

from royalnine.ai import hint, make_player
from royalnine.ai.selfplay import play_match
from royalnine.core import Deal, Match, MatchConfig, NextRound, placement_actions, view
from royalnine.core.record import MatchRecord
from royalnine.review import Analysis, analyse, decision_points, decode, summarise

WAIT = 120.0  # seconds: a hang guard for the worker, never a timing assertion


def play(levels: tuple[str, str], seed: int, *, tens: bool = False, rounds: int = 5) -> Match:
    """A whole match between two CPU levels, seeded."""
    players = (
        make_player(levels[0], 0, random.Random(seed * 7)),
        make_player(levels[1], 1, random.Random(seed * 7 + 1)),
    )
    return play_match(players, seed, MatchConfig(rounds=rounds, tens=tens))


@pytest.mark.parametrize(("seed", "tens"), [(1, False), (2, True)])
def test_easy_against_hard_hard_never_loses_and_easy_does(seed: int, tens: bool) -> None:
    match = play(("easy", "hard"), seed, tens=tens)
    analysis = Analysis(match)
    analysis.run_here()
    decisions = analysis.decisions
    assert len(decisions) == 4 * match.config.rounds  # 2 halves x 2 seats per round
    hard = [d for d in decisions if d.seat == 1]
    assert all(d.loss == 0 and d.best == d.played for d in hard)
    easy, best = summarise(match, decisions)
    assert easy.loss > 0 and easy.biggest is not None and easy.biggest.seat == 0
    assert best.loss == 0 and best.biggest is None
    assert all(d.loss >= 0 for d in decisions)


def test_decisions_are_in_play_order_with_the_cards_played() -> None:
    match = play(("easy", "normal"), 3, rounds=2)
    points = decision_points(match)
    assert [(p.round, p.half, p.seat) for p in points] == [
        (r, h, s) for r in (1, 2) for h in (1, 2) for s in (0, 1)
    ]
    for p in points:
        final = match.results[p.round - 1].grids[p.seat]  # the grid as scored (centre included)
        assert all(final[cell] == card for card, cell in p.played.items())
        assert tuple(p.played) == p.view.hand  # deal order


def _other_future(match: Match) -> Match:
    """A one-round match with the same first deal and first-half placements as ``match``,
    then its second deal given to the seats the other way round, and a different centre."""
    state = Match.new(match.config)
    for action in match.history:
        if isinstance(action, Deal) and state.phase.half == 2:
            state = state.apply(Deal(action.cards[4:] + action.cards[:4]))
            break
        state = state.apply(action)
    for seat in (0, 1):
        v = view(state, seat)
        cells = dict(zip(v.hand, v.empty_cells, strict=False))
        state = state.apply_all(placement_actions(seat, cells))
    other_centre = next(c for c in state.undealt() if c != match.round.centre)
    return state.apply(Deal((other_centre,))).apply(NextRound())


def test_a_placement_is_judged_only_from_what_its_seat_could_see() -> None:
    match = play(("easy", "easy"), 4, rounds=1)
    other = _other_future(match)
    assert other.round.dealt != match.round.dealt and other.round.centre != match.round.centre
    first = [p for p in decision_points(match) if p.half == 1]
    first_other = [p for p in decision_points(other) if p.half == 1]
    for p, q in zip(first, first_other, strict=True):
        later = set(match.round.dealt[p.seat][4:]) | {match.round.centre}
        assert not (p.view.seen & later)  # nothing dealt later is in what is judged
        assert p.view == q.view and p.played == q.played
        a, b = analyse(p), analyse(q)
        assert (a.played_ev, a.best_ev, a.best) == (b.played_ev, b.best_ev, b.best)
    # what the second half of the one match is judged from differs, as its cards do
    assert decision_points(match)[2].view != decision_points(other)[2].view


def test_played_and_best_values_agree_with_the_hint_ranking() -> None:
    match = play(("easy", "easy"), 5, rounds=1)
    for p in decision_points(match):
        d = analyse(p)
        ranked = hint(p.view)
        assert ranked[0].exact == d.best_ev
        if p.half == 2:  # every order is listed: the played one is among them
            played = next(r for r in ranked if r.cells == p.played)
            assert played.exact == d.played_ev
        else:  # one entry per class of 8 symmetric placements: the played class is listed
            assert d.played_ev in {r.exact for r in ranked}
            assert d.played_ev <= d.best_ev


def test_points_are_expected_points_plus_luck() -> None:
    match = play(("normal", "easy"), 6, rounds=3)
    analysis = Analysis(match)
    analysis.run_here()
    for s in summarise(match, analysis.decisions):
        assert s.points == s.expected + s.luck == sum(r.points[s.seat] for r in match.results)
        mine = [d for d in analysis.decisions if d.seat == s.seat]
        expected = sum(
            (
                a.played_ev - b.loss
                for a, b in zip(mine[0::2], mine[1::2], strict=True)
                if (a.half, b.half) == (1, 2)
            ),
            Fraction(0),
        )
        assert s.expected == expected
        assert s.loss == sum((d.loss for d in mine), Fraction(0))


def test_the_background_analysis_finishes_and_fills_in_order() -> None:
    match = play(("easy", "hard"), 7, rounds=2)
    analysis = Analysis(match)
    assert not analysis.done and analysis.decisions == []
    analysis.start()
    assert analysis.wait(WAIT)
    assert not analysis.failed
    assert [d.point for d in analysis.decisions] == analysis.points


def test_the_worker_process_answers_each_placement_exactly() -> None:
    match = play(("easy", "hard"), 13, rounds=1)
    record = MatchRecord.of(match).to_json().encode()
    done = subprocess.run(
        [sys.executable, "-m", "royalnine.review"],
        input=record,
        capture_output=True,
        check=True,
        timeout=WAIT,
    )
    lines = done.stdout.splitlines()
    points = decision_points(match)
    answers = [decode(line, p) for line, p in zip(lines, points, strict=True)]
    assert answers == [analyse(p) for p in points]
    with pytest.raises(ValueError, match="another placement"):
        decode(lines[0], points[1])


@pytest.mark.parametrize(
    "line",
    [
        "[1, 1, 0]",
        "null",
        '{"key": [1, 1, 0]}',
        '{"key": [1, 1, 0], "played_ev": "1", "best_ev": "1", "best": null}',
        '{"key": [1, 1, 0], "played_ev": null, "best_ev": "1", "best": [0, 1, 2, 3]}',
    ],
)
def test_a_damaged_worker_answer_is_a_value_error(line: str) -> None:
    """The reading thread falls back on a ValueError; anything else would end it and leave
    the review saying "analysing" for ever."""
    point = decision_points(play(("easy", "hard"), 13, rounds=1))[0]
    with pytest.raises(ValueError):
        decode(line, point)


def test_leaving_the_review_stops_the_worker() -> None:
    match = play(("easy", "hard"), 14, tens=True)
    analysis = Analysis(match)
    analysis.start()
    analysis.stop()
    analysis.wait(WAIT)
    assert not analysis.done  # nothing more is worked out once stopped
    assert analysis._process is None or analysis._process.poll() is not None
