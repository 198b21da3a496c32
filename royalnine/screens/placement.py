"""The placing controller: stylus and pad input on the bottom screen -> core actions.

Pure logic, no drawing and no machine: it reads a :class:`PlayerView` (what the
seat may see), keeps the interaction state (selected card, drag in progress,
pad cursor, undo order) and answers each input with the actions to apply and
feedback to show. Every refused input produces an ``invalid`` feedback naming
why (centre, fixed card, taken cell...), so nothing is ever silently ignored.

Three ways to place, all equivalent:
* drag a card from the hand (or an unconfirmed card on the grid) to a cell;
* tap a card, then tap a cell;
* d-pad cursor, A to pick/place, B to drop the selection or undo, START to confirm.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from royalnine.core import CENTRE, Action, Card, Confirm, Place, PlayerView, Unplace
from royalnine.screens.layout import (
    CELL_RECTS,
    Target,
    Zone,
    all_targets,
    drop_target,
    hit,
    neighbour,
    target_rect,
)

DRAG_THRESHOLD = 3  # pixels the stylus must travel before a press becomes a drag


@dataclass(frozen=True)
class Feedback:
    """Something to show or play: ``kind`` is select/place/unplace/confirm/invalid/move."""

    kind: str
    message: str | None = None
    target: Target | None = None


@dataclass
class Outcome:
    """What one input produced."""

    actions: list[Action] = field(default_factory=list)
    feedback: list[Feedback] = field(default_factory=list)
    menu: bool = False
    hint: bool = False
    """The player asked for a hint (the scene asks the AI and places the cards)."""


@dataclass
class Drag:
    """A card held by the stylus: where it came from and where it is drawn."""

    card: Card
    origin: Target
    grab_dx: int
    grab_dy: int
    start: tuple[int, int]
    pos: tuple[int, int]
    active: bool = False

    @property
    def card_xy(self) -> tuple[int, int]:
        """Top-left where the held card is drawn."""
        return (self.pos[0] - self.grab_dx, self.pos[1] - self.grab_dy)


class PlacementController:
    """Turns input on the bottom screen into Place/Unplace/Confirm for one seat."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.selected: Card | None = None
        self.drag: Drag | None = None
        self.cursor: Target = Target(Zone.HAND, 0)
        self.cursor_visible = False
        self.order: list[Card] = []
        """Cards placed this half, oldest first (UNDO takes back the newest)."""

    # --- queries for drawing ---

    def card_at(self, view: PlayerView, target: Target) -> Card | None:
        """The card shown at a target (hand slot or own cell), if any."""
        if target.zone is Zone.HAND:
            slots = hand_slots(view)
            return slots[target.index] if target.index < len(slots) else None
        if target.zone is Zone.CELL:
            return view.grid[target.index]
        return None

    def card_target(self, view: PlayerView, card: Card) -> Target | None:
        """Where a card of this seat sits now (hand slot or cell)."""
        if card in view.hand:
            return Target(Zone.HAND, hand_slots(view).index(card))
        if card in view.grid:
            return Target(Zone.CELL, view.grid.index(card))
        return None

    def held(self) -> Card | None:
        """The card being dragged or selected (what a cell tap/drop would place)."""
        if self.drag is not None and self.drag.active:
            return self.drag.card
        return self.selected

    def hover(self) -> Target | None:
        """The cell or hand a dragged card would drop on now."""
        if self.drag is None or not self.drag.active:
            return None
        return drop_target(*self._drag_centre())

    def refusal(self, view: PlayerView, target: Target, card: Card | None) -> str | None:
        """Why ``card`` may not go to ``target`` (an i18n key), or None if it may."""
        if not self.can_act(view):
            return "waiting"
        if target.zone is Zone.HAND:
            return None
        if target.zone is not Zone.CELL:
            return "bad_off"
        if target.index == CENTRE:
            return "bad_centre"
        occupant = view.grid[target.index]
        if occupant is not None and occupant != card:
            return "bad_locked" if target.index in view.locked else "bad_full"
        return None

    def can_act(self, view: PlayerView) -> bool:
        """True while this seat may place or confirm."""
        return view.seat == self.seat and view.phase.is_place and not view.confirmed

    def movable(self, view: PlayerView, card: Card) -> bool:
        """True if the card may be picked up now."""
        if not self.can_act(view):
            return False
        if card in view.hand:
            return True
        return card in view.grid and view.grid.index(card) in view.movable_cells

    # --- resets ---

    def new_half(self) -> None:
        """Forget this half's interaction state (after a confirm or a deal)."""
        self.selected = None
        self.drag = None
        self.order = []
        self.cursor = Target(Zone.HAND, 0)

    def sync(self, view: PlayerView) -> None:
        """Drop stale state after the match changed under us (undo order, selection)."""
        on_grid = {c for c in view.grid if c is not None}
        self.order = [c for c in self.order if c in on_grid and self.movable(view, c)]
        if self.selected is not None and not self.movable(view, self.selected):
            self.selected = None

    # --- stylus ---

    def touch_down(self, view: PlayerView, x: int, y: int) -> Outcome:
        """The stylus touched (x, y)."""
        self.cursor_visible = False
        target = hit(x, y)
        out = Outcome()
        if target is None:
            return out
        if target.zone is Zone.MENU:
            out.menu = True
            return out
        card = self.card_at(view, target)
        if card is not None and self.movable(view, card):
            rect = target_rect(target)
            self.drag = Drag(card, target, x - rect.x, y - rect.y, (x, y), (x, y))
        return out

    def touch_move(self, view: PlayerView, x: int, y: int) -> Outcome:
        """The stylus moved while touching."""
        drag = self.drag
        if drag is None:
            return Outcome()
        drag.pos = (x, y)
        if not drag.active and max(abs(x - drag.start[0]), abs(y - drag.start[1])) > DRAG_THRESHOLD:
            drag.active = True
            self.selected = None
            return Outcome(feedback=[Feedback("lift", target=drag.origin)])
        return Outcome()

    def touch_up(self, view: PlayerView, x: int, y: int) -> Outcome:
        """The stylus left the screen at (x, y)."""
        drag, self.drag = self.drag, None
        if drag is not None and drag.active:
            drag.pos = (x, y)
            return self._drop(view, drag)
        return self.tap(view, x, y)

    def _drag_centre(self) -> tuple[int, int]:
        assert self.drag is not None
        cx, cy = self.drag.card_xy
        return (cx + CELL_RECTS[0].w // 2, cy + CELL_RECTS[0].h // 2)

    def _drop(self, view: PlayerView, drag: Drag) -> Outcome:
        cx, cy = drag.card_xy
        target = drop_target(cx + CELL_RECTS[0].w // 2, cy + CELL_RECTS[0].h // 2)
        if target is None or target == drag.origin:
            return Outcome(feedback=[Feedback("return", target=drag.origin)])
        if target.zone is Zone.HAND:
            if drag.origin.zone is Zone.HAND:
                return Outcome(feedback=[Feedback("return", target=drag.origin)])
            return self._unplace(view, drag.card)
        return self._place(view, drag.card, target)

    def tap(self, view: PlayerView, x: int, y: int) -> Outcome:
        """A touch that did not move: select, place the selection, or press a button."""
        target = hit(x, y)
        if target is None:
            return Outcome()
        return self.activate(view, target)

    def activate(self, view: PlayerView, target: Target) -> Outcome:
        """Tap (or pad A) on a target."""
        if target.zone is Zone.MENU:
            return Outcome(menu=True)
        if target.zone is Zone.CONFIRM:
            return self.confirm(view)
        if target.zone is Zone.UNDO:
            return self.undo(view)
        if target.zone is Zone.HINT:
            if not self.can_act(view):
                return _invalid("waiting", target)
            self.selected = None
            return Outcome(hint=True)
        if not self.can_act(view):
            return _invalid("waiting", target)
        card = self.card_at(view, target)
        if target.zone is Zone.HAND:
            if card is None:
                if self.selected is not None and self.selected not in view.hand:
                    return self._unplace(view, self.selected)
                return Outcome()
            return self._toggle(card, target)
        # a cell
        if (
            card is not None
            and self.movable(view, card)
            and card != self.selected
            and (self.selected is None or view.grid[target.index] is not None)
        ):
            return self._toggle(card, target)
        if card is not None and card == self.selected:
            return self._toggle(card, target)
        if self.selected is None:
            if target.index == CENTRE:
                return _invalid("bad_centre", target)
            if card is not None and target.index in view.locked:
                return _invalid("bad_locked", target)
            return Outcome(feedback=[Feedback("hint", "help_place", target)])
        return self._place(view, self.selected, target)

    def _toggle(self, card: Card, target: Target) -> Outcome:
        if self.selected == card:
            self.selected = None
            return Outcome(feedback=[Feedback("deselect", target=target)])
        self.selected = card
        return Outcome(feedback=[Feedback("select", "help_selected", target)])

    def _place(self, view: PlayerView, card: Card, target: Target) -> Outcome:
        why = self.refusal(view, target, card)
        if why is not None:
            return _invalid(why, target)
        self.selected = None
        if card in self.order:
            self.order.remove(card)
        self.order.append(card)
        action = Place(self.seat, card, target.index)
        return Outcome([action], [Feedback("place", target=target)])

    def _unplace(self, view: PlayerView, card: Card) -> Outcome:
        if not self.movable(view, card) or card in view.hand:
            return _invalid("bad_locked", None)
        self.selected = None
        if card in self.order:
            self.order.remove(card)
        return Outcome([Unplace(self.seat, card)], [Feedback("unplace")])

    def hinted(self, cards: list[Card]) -> None:
        """The scene placed ``cards`` from a hint: UNDO takes them back newest first."""
        self.selected = None
        self.order = list(cards)

    def undo(self, view: PlayerView) -> Outcome:
        """Take back the most recently placed card of this half."""
        if not self.can_act(view):
            return _invalid("waiting", Target(Zone.UNDO))
        self.sync(view)
        if not self.order:
            return _invalid("bad_undo", Target(Zone.UNDO))
        return self._unplace(view, self.order[-1])

    def confirm(self, view: PlayerView) -> Outcome:
        """Fix this half's cards (all four must be down)."""
        if not self.can_act(view):
            return _invalid("waiting", Target(Zone.CONFIRM))
        if view.hand:
            return _invalid("bad_hand", Target(Zone.CONFIRM))
        self.new_half()
        return Outcome([Confirm(self.seat)], [Feedback("confirm")])

    # --- pad ---

    def pad(self, view: PlayerView, key: str) -> Outcome:
        """A pad press: ``up``/``down``/``left``/``right``/``a``/``b``/``x`` (hint)/``start``."""
        if key == "start":
            return self.confirm(view)
        if key in ("up", "down", "left", "right"):
            if not self.cursor_visible:
                self.cursor_visible = True
                return Outcome(feedback=[Feedback("move", target=self.cursor)])
            dx = {"left": -1, "right": 1}.get(key, 0)
            dy = {"up": -1, "down": 1}.get(key, 0)
            candidates = [t for t in all_targets() if t.zone is not Zone.MENU]
            slots = hand_slots(view)
            candidates = [
                t
                for t in candidates
                if t.zone is not Zone.HAND or (t.index < len(slots) and slots[t.index] is not None)
            ] or candidates
            self.cursor = neighbour(self.cursor, dx, dy, candidates)
            return Outcome(feedback=[Feedback("move", target=self.cursor)])
        if key == "a":
            self.cursor_visible = True
            return self.activate(view, self.cursor)
        if key == "x":
            return self.activate(view, Target(Zone.HINT))
        if key == "b":
            if self.selected is not None:
                self.selected = None
                return Outcome(feedback=[Feedback("deselect")])
            return self.undo(view)
        return Outcome()


def hand_slots(view: PlayerView) -> tuple[Card | None, ...]:
    """The hand as shown: each card keeps the slot it was dealt to (None where it was placed).

    So a card placed, or a card taken back, never makes the others shift:
    the slot a player aims at still holds the card they saw there.
    """
    order = view.dealt if set(view.hand) <= set(view.dealt) else view.hand
    return tuple(c if c in view.hand else None for c in order)


def _invalid(message: str, target: Target | None) -> Outcome:
    return Outcome(feedback=[Feedback("invalid", message, target)])
