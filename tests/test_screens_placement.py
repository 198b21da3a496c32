"""The placing controller without pixels: taps, drags, pad cursor, undo and illegal targets."""

from __future__ import annotations

import random

from royalnine.core import CENTRE, Confirm, Dealer, Match, Place, Unplace, view
from royalnine.screens.layout import (
    BUTTON_RECTS,
    CELL_RECTS,
    HAND_RECTS,
    Target,
    Zone,
    all_targets,
    hit,
    target_rect,
)
from royalnine.screens.placement import Outcome, PlacementController, hand_slots


def dealt_match(seed: int = 1) -> Match:
    match = Match.new()
    return match.apply(Dealer(random.Random(seed)).deal(match))


def tap(ctrl: PlacementController, match: Match, target: Target) -> Outcome:
    x, y = target_rect(target).centre
    v = view(match, ctrl.seat)
    ctrl.touch_down(v, x, y)
    return ctrl.touch_up(v, x, y)


def drag(ctrl: PlacementController, match: Match, src: Target, dst: Target) -> Outcome:
    (x0, y0), (x1, y1) = target_rect(src).centre, target_rect(dst).centre
    v = view(match, ctrl.seat)
    ctrl.touch_down(v, x0, y0)
    ctrl.touch_move(v, (x0 + x1) // 2, (y0 + y1) // 2)
    ctrl.touch_move(v, x1, y1)
    return ctrl.touch_up(v, x1, y1)


def test_every_target_is_hit_at_its_centre_and_inside_the_screen() -> None:
    for target in all_targets():
        rect = target_rect(target)
        assert rect.x >= 0 and rect.x + rect.w <= 256 and rect.y >= 0 and rect.y + rect.h <= 192
        assert hit(*rect.centre) == target
    rects = [target_rect(t) for t in all_targets()]
    for i, a in enumerate(rects):
        for b in rects[i + 1 :]:
            overlap = a.x < b.x + b.w and b.x < a.x + a.w and a.y < b.y + b.h and b.y < a.y + a.h
            assert not overlap, (a, b)


def test_tap_card_then_cell_places_it() -> None:
    match = dealt_match()
    ctrl = PlacementController(0)
    card = view(match, 0).hand[0]
    out = tap(ctrl, match, Target(Zone.HAND, 0))
    assert out.actions == [] and ctrl.selected == card
    out = tap(ctrl, match, Target(Zone.CELL, 0))
    assert out.actions == [Place(0, card, 0)]
    assert ctrl.selected is None


def test_drag_places_and_drag_back_to_hand_unplaces() -> None:
    match = dealt_match()
    ctrl = PlacementController(0)
    card = view(match, 0).hand[1]
    out = drag(ctrl, match, Target(Zone.HAND, 1), Target(Zone.CELL, 8))
    assert out.actions == [Place(0, card, 8)]
    match = match.apply_all(out.actions)
    out = drag(ctrl, match, Target(Zone.CELL, 8), Target(Zone.CELL, 2))
    assert out.actions == [Place(0, card, 2)]
    match = match.apply_all(out.actions)
    out = drag(ctrl, match, Target(Zone.CELL, 2), Target(Zone.HAND, 3))
    assert out.actions == [Unplace(0, card)]


def test_illegal_targets_are_refused_with_a_reason() -> None:
    match = dealt_match()
    ctrl = PlacementController(0)
    out = drag(ctrl, match, Target(Zone.HAND, 0), Target(Zone.CELL, CENTRE))
    assert out.actions == [] and out.feedback[0].kind == "invalid"
    assert out.feedback[0].message == "bad_centre"
    card0 = view(match, 0).hand[0]
    match = match.apply(Place(0, card0, 0))
    out = drag(ctrl, match, Target(Zone.HAND, 1), Target(Zone.CELL, 0))  # slot 0 is empty now
    assert out.actions == [] and out.feedback[0].message == "bad_full"
    # confirm with cards left in hand is refused too
    out = tap(ctrl, match, Target(Zone.CONFIRM))
    assert out.actions == [] and out.feedback[0].message == "bad_hand"


def test_confirmed_cards_never_move_again() -> None:
    match = dealt_match()
    ctrl = PlacementController(0)
    hand = view(match, 0).hand
    match = match.apply_all([Place(0, c, i) for i, c in enumerate(hand)] + [Confirm(0)])
    other = view(match, 1).hand
    match = match.apply_all([Place(1, c, i) for i, c in enumerate(other)] + [Confirm(1)])
    match = match.apply(Dealer(random.Random(2)).deal(match))
    ctrl.new_half()
    out = drag(ctrl, match, Target(Zone.CELL, 0), Target(Zone.CELL, 5))
    assert out.actions == []  # a locked card cannot even be picked up
    out = tap(ctrl, match, Target(Zone.CELL, 0))
    assert out.feedback[0].kind == "invalid" and out.feedback[0].message == "bad_locked"
    out = drag(ctrl, match, Target(Zone.HAND, 0), Target(Zone.CELL, 1))
    assert out.feedback[0].message == "bad_locked"


def test_undo_takes_back_the_newest_card_and_reports_when_empty() -> None:
    match = dealt_match()
    ctrl = PlacementController(0)
    out = tap(ctrl, match, Target(Zone.UNDO))
    assert out.feedback[0].message == "bad_undo"
    hand = view(match, 0).hand
    for cell, card in ((0, hand[0]), (1, hand[1])):
        tap(ctrl, match, Target(Zone.HAND, cell))  # each card keeps its slot
        out = tap(ctrl, match, Target(Zone.CELL, cell))
        match = match.apply_all(out.actions)
        assert out.actions == [Place(0, card, cell)]
    out = tap(ctrl, match, Target(Zone.UNDO))
    assert out.actions == [Unplace(0, hand[1])]


def test_pad_cursor_places_a_whole_hand_and_confirms() -> None:
    match = dealt_match()
    ctrl = PlacementController(0)

    def press(key: str) -> Outcome:
        nonlocal match
        out = ctrl.pad(view(match, 0), key)
        match = match.apply_all(out.actions)
        return out

    def goto(target: Target) -> None:
        for _ in range(20):
            if ctrl.cursor == target:
                return
            (cx, cy), (tx, ty) = target_rect(ctrl.cursor).centre, target_rect(target).centre
            if abs(tx - cx) > abs(ty - cy):
                press("right" if tx > cx else "left")
            else:
                press("down" if ty > cy else "up")
        raise AssertionError(f"cursor cannot reach {target}")

    press("right")  # the first press only shows the cursor
    assert ctrl.cursor_visible
    for cell in (0, 2, 6, 8):
        slots = hand_slots(view(match, 0))
        goto(Target(Zone.HAND, next(i for i, c in enumerate(slots) if c is not None)))
        press("a")
        assert ctrl.selected is not None
        goto(Target(Zone.CELL, cell))
        out = press("a")
        assert out.actions and isinstance(out.actions[0], Place)
    assert view(match, 0).hand == ()
    press("start")
    assert match.round.confirmed[0]


def test_pad_b_deselects_then_undoes() -> None:
    match = dealt_match()
    ctrl = PlacementController(0)
    card = view(match, 0).hand[0]
    tap(ctrl, match, Target(Zone.HAND, 0))
    match = match.apply_all(tap(ctrl, match, Target(Zone.CELL, 3)).actions)
    tap(ctrl, match, Target(Zone.HAND, 1))
    assert ctrl.pad(view(match, 0), "b").actions == [] and ctrl.selected is None
    assert ctrl.pad(view(match, 0), "b").actions == [Unplace(0, card)]


def test_nothing_is_accepted_after_confirming() -> None:
    match = dealt_match()
    ctrl = PlacementController(0)
    hand = view(match, 0).hand
    match = match.apply_all([Place(0, c, i) for i, c in enumerate(hand)] + [Confirm(0)])
    out = tap(ctrl, match, Target(Zone.CELL, 0))
    assert out.actions == [] and out.feedback[0].message == "waiting"


def test_layout_constants_are_tile_aligned() -> None:
    for rect in (*CELL_RECTS, *HAND_RECTS, *BUTTON_RECTS.values()):
        assert rect.x % 8 == 0 and rect.y % 8 == 0 and rect.w % 8 == 0 and rect.h % 8 == 0


def test_hint_button_and_x_ask_for_a_hint_only_when_placing() -> None:
    match = dealt_match()
    ctrl = PlacementController(0)
    assert tap(ctrl, match, Target(Zone.HINT)).hint
    assert ctrl.pad(view(match, 0), "x").hint
    hand = view(match, 0).hand
    match = match.apply_all([Place(0, c, i) for i, c in enumerate(hand)] + [Confirm(0)])
    out = tap(ctrl, match, Target(Zone.HINT))
    assert not out.hint and out.feedback[0].message == "waiting"
