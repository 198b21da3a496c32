"""The match screen: deals, placing (vs CPU or two players on one machine), reveal and scoring.

Top screen: the opponent's grid (its centre is the common card), its face-up
cards of this half, the round number, both totals and a small table of the
rounds so far. Bottom (touch) screen: the grid of the seat playing here, its
hand, the UNDO and OK buttons and the MENU button.

Everything on screen is drawn from one :func:`royalnine.core.view` of the seat
at the bottom plus this scene's interaction state, so the screen never shows
what that seat may not see, and a resumed match looks exactly as it was left.
The CPU reads its own view only. The match is saved after every deal, every
confirm and every new round.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from royalnine import art
from royalnine.app import (
    App,
    CpuOpponent,
    DealSource,
    InputFrame,
    Opponent,
    Scene,
    make_cpu,
)
from royalnine.core import (
    CENTRE,
    Action,
    Confirm,
    Deal,
    Dealer,
    Match,
    NextRound,
    Phase,
    Place,
    PlayerView,
    Unplace,
    view,
)
from royalnine.core.errors import IllegalMove
from royalnine.core.record import MetaValue
from royalnine.screens import draw
from royalnine.screens.draw import SpriteBoard, card_look
from royalnine.screens.layout import (
    BOTTOM,
    BUTTON_RECTS,
    CELL_RECTS,
    DECK_XY,
    HAND_RECTS,
    MESSAGE_ROWS,
    PANEL_COL,
    TOP,
    Rect,
    Target,
    Zone,
    target_rect,
)
from royalnine.screens.menu import Menu, row
from royalnine.screens.placement import Feedback, Outcome, PlacementController
from royalnine.screens.remote import RemoteLink, draw_code, take_inbox
from royalnine.screens.reveal import RevealStep, reveal_steps
from royalnine.storage import DIFFICULTIES, SaveGame

DEAL_FRAMES = 30
FLIP_FRAMES = 16
STEP_FRAMES = 55
MESSAGE_FRAMES = 90
FLASH_FRAMES = 24
CENTRE_SID = 31  # highest card id: dealt cards fly over it (lower ids draw in front)
STAR_SPOTS = ((0, 8), (96, 12), (110, 64), (0, 96), (52, 120), (100, 116), (40, 4), (60, 80))
NEXT_RECT = Rect(144, 160, 104, 24)
CODE_PX = 98  # a remote code in the top screen's corner: 2 px a module up to QR version 6


def card_sid(index: int) -> int:
    """Sprite id of a card (by Card.index), so a card keeps its sprite as it moves."""
    return 10 + index


@dataclass
class Message:
    """A transient line in the side panel."""

    key: str
    colour: int
    frames: int
    args: dict[str, object] = field(default_factory=dict)


class MatchScene:
    """A match in progress."""

    def __init__(self, match: Match, mode: str, meta: dict[str, MetaValue] | None = None) -> None:
        self.match = match
        self.mode = mode
        self.meta: dict[str, MetaValue] = dict(meta or {})
        level = self.meta.get("level", "normal")
        self.level: str = str(level) if level in DIFFICULTIES else "normal"
        bottom = self.meta.get("bottom", 0)
        self.bottom_seat: int = 1 if bottom == 1 else 0
        self.ctrl = (PlacementController(0), PlacementController(1))
        self.state = "start"
        self.timer = 0
        self.steps: list[RevealStep] = []
        self.step_i = 0
        self.message: Message | None = None
        self.flash: tuple[Target, int] | None = None
        self.dirty = True
        self._input_seen = True  # this frame brought stylus, pad or file input
        self._sprites_steady = False  # the sprites were drawn with nothing pending since
        self.boards: tuple[SpriteBoard, SpriteBoard] | None = None
        self.opponent: Opponent | None = None
        """The seat not played on this machine (vs CPU); None when both seats are here."""
        self.remote: RemoteLink | None = None
        """The remote match behind this screen (mode "remote"): deals and the other seat."""
        self._code_drawn: bytes | None = None  # the remote code now on the top GRP page
        self.opponent_pending: list[Action] | None = None
        """The opponent's decided placement, held off the match (and so off the save file)
        until this machine's seat has confirmed: placements are simultaneous."""
        self.dealer: DealSource | None = None
        self.next_menu: Menu | None = None
        self.deal_from: set[int] = set()
        self.handover_to: int | None = None  # seat the machine is being passed to
        self._menu_down = False  # the stylus went down on MENU (it acts on release there)

    # --- names and helpers ---

    @property
    def opponent_seat(self) -> int:
        """The seat not played at the bottom of this machine (the CPU's, or the remote one)."""
        return 1 - self.bottom_seat

    def names(self, app: App) -> tuple[str, str]:
        """Display names of seat 0 and seat 1."""
        if self.mode == "cpu":
            return (app.t("you"), app.t("cpu"))
        if self.mode == "remote":
            mine, theirs = app.t("you"), app.t("rival")
            return (mine, theirs) if self.bottom_seat == 0 else (theirs, mine)
        return (app.t("player1"), app.t("player2"))

    def view(self) -> PlayerView:
        """What the seat at the bottom may see."""
        return view(self.match, self.bottom_seat)

    def save(self, app: App) -> None:
        """Save the match (atomically, by Storage)."""
        if self.remote is not None:  # a remote match lives in its session, saved with each code
            app.store("the remote match", self.remote.save)
            return
        meta: dict[str, MetaValue] = {**self.meta, "level": self.level, "bottom": self.bottom_seat}
        try:
            app.storage.save_game(SaveGame(self.shareable_match(), self.mode, meta))
        except OSError as exc:  # a full disk or read-only folder must not end the match
            app.notices.append(f"could not save the match: {exc}")
            self.say("save_failed", art.TEXT_RED)

    def shareable_match(self) -> Match:
        """The match as it may be written to disk, where either player could read it.

        With two players on one machine, a seat that has confirmed this half
        while the other is still placing keeps its placement off the save: the
        file must not show it before the other has fixed theirs (on resume that
        seat places its four cards again). Against the CPU nothing is held back
        here, since the CPU's own placement is kept off the match until then.
        """
        match = self.match
        rnd = match.round
        if self.mode != "local" or not rnd.phase.is_place or rnd.confirmed[0] == rnd.confirmed[1]:
            return match
        hidden = 0 if rnd.confirmed[0] else 1
        last_deal = max(i for i, a in enumerate(match.history) if isinstance(a, Deal))
        kept = [
            a
            for i, a in enumerate(match.history)
            if i <= last_deal or not isinstance(a, Place | Unplace | Confirm) or a.seat != hidden
        ]
        return Match.new(match.config).apply_all(kept)

    def apply(self, app: App, actions: list[Action]) -> bool:
        """Apply actions to the match; False (and an error message) if the rules refuse."""
        try:
            self.match = self.match.apply_all(actions)
        except IllegalMove:
            self.say("bad_off", art.TEXT_RED)
            app.beep("invalid")
            return False
        self.dirty = True
        return True

    def say(self, key: str, colour: int = art.TEXT_WHITE, **args: object) -> None:
        """Show a transient message in the panel."""
        self.message = Message(key, colour, MESSAGE_FRAMES, args)
        self.dirty = True

    # --- scene protocol ---

    def enter(self, app: App) -> None:
        """(Re)draw everything from the current state."""
        m = app.m
        draw.reset_screens(m)
        self._code_drawn = None
        self.boards = (SpriteBoard(m, TOP), SpriteBoard(m, BOTTOM))
        if self.remote is not None:
            self.dealer = self.remote
            self.opponent = self.remote
        if self.dealer is None:
            # The dealer's seed is never saved: a save file must not predict the next cards.
            self.dealer = Dealer(random.Random(app.rng.randrange(1 << 32)))
        if self.mode == "cpu" and self.opponent is None:
            rng = random.Random(app.rng.randrange(1 << 32))
            seat = self.opponent_seat
            self.opponent = CpuOpponent(make_cpu(self.level, seat, rng), seat)
        if self.state == "start":
            self.state = "idle"
            if self.mode == "local" and self.match.phase.is_place:
                self.handover_to = self.bottom_seat
                self.state = "handover"
        if self.state == "round_over":
            self._make_next_menu(app)
        self.dirty = True
        self.render(app, force=True)

    def frame(self, app: App, inp: InputFrame) -> Scene | None:
        """One frame of the match."""
        if "select" in inp.keys or (
            inp.touch_up is not None
            and self.state in ("place", "idle", "wait", "remote_wait", "reveal", "round_over")
            and BUTTON_RECTS[Zone.MENU].contains(*inp.touch_up)
            and self._menu_down
        ):
            return self.pause(app)
        if inp.touch_down is not None:
            self._menu_down = BUTTON_RECTS[Zone.MENU].contains(*inp.touch_down)
        self._input_seen = bool(inp.keys or inp.touching or inp.touch_up or inp.dropped)
        if self.remote is not None:
            dropped = inp.dropped + take_inbox(app.storage, app.frames)
            if dropped:
                self.remote.read(dropped)
                app.beep("invalid" if self.remote.error else "confirm")
                self.dirty = True
        if self.state == "idle":
            nxt = self.advance(app)
            if nxt is not None:
                return nxt
        elif self.state == "deal":
            self.timer -= 1
            if self.timer % 4 == 0 and self.timer >= DEAL_FRAMES - 16:
                app.beep("deal")
            if self.timer <= 0:
                self.state = "idle"
                self.dirty = True
        elif self.state == "place":
            self.place_input(app, inp)
        elif self.state == "wait":
            if self.poll_opponent(app, inp) or not self.match.awaiting(self.opponent_seat):
                self.state = "idle"
        elif self.state == "remote_wait":
            assert self.dealer is not None
            if self.dealer.deal(self.match) is not None:
                self.state = "idle"
        elif self.state == "handover":
            if inp.touch_up is not None or any(k in ("a", "start") for k in inp.keys):
                assert self.handover_to is not None
                self.bottom_seat = self.handover_to
                self.handover_to = None
                self.state = "idle"
                self.enter(app)
                return None
        elif self.state == "reveal":
            self.reveal_frame(app, inp)
        elif self.state == "round_over":
            assert self.next_menu is not None
            if self.next_menu.handle(app, inp) == "next":
                return self.next_round(app)
        if self.message is not None:
            self.message.frames -= 1
            if self.message.frames <= 0:
                self.message = None
                self.dirty = True
        if self.flash is not None:
            target, frames = self.flash
            self.flash = (target, frames - 1) if frames > 1 else None
            if self.flash is None:
                self.dirty = True
        self.render(app)
        return None

    def pause(self, app: App) -> Scene:
        """Open the pause menu (the match is saved first)."""
        from royalnine.screens.pause import PauseScene

        self._menu_down = False
        if self.state in ("place", "idle", "wait", "round_over"):
            self.save(app)
        return PauseScene(self)

    # --- the flow ---

    def advance(self, app: App) -> Scene | None:
        """Move the match along until someone has to act (or an animation plays)."""
        match = self.match
        phase = match.phase
        if phase is Phase.MATCH_OVER:
            from royalnine.screens.result import MatchResultScene

            if self.remote is not None:
                app.store("the remote match", self.remote.finish)
                return MatchResultScene(
                    self.match, self.mode, self.level, self.names(app), remote=self.remote
                )
            app.store("the match", app.storage.clear_game)
            return MatchResultScene(self.match, self.mode, self.level, self.names(app))
        if phase in (Phase.FIRST_DEAL, Phase.SECOND_DEAL):
            assert self.dealer is not None
            deal = self.dealer.deal(match)
            if deal is None:  # a remote deal: waiting for the other player's code
                self.state = "remote_wait"
                self.dirty = True
                return None
            self.apply(app, [deal])
            for c in self.ctrl:
                c.new_half()
            self.poll_opponent(app, None)
            self.save(app)
            self.state = "deal"
            self.timer = DEAL_FRAMES
            self.deal_from = {card_sid(c.index) for c in self.match.round.dealt[0][-4:]}
            self.deal_from |= {card_sid(c.index) for c in self.match.round.dealt[1][-4:]}
            return None
        if phase.is_place:
            if not match.round.confirmed[self.bottom_seat]:
                self.poll_opponent(app, None)  # decides now (e.g. on resume), held back
                self.state = "place"
                self.dirty = True
                return None
            other = 1 - self.bottom_seat
            if self.opponent is not None:
                self.state = "wait"
                self.dirty = True
                return None
            self.handover_to = other
            self.state = "handover"
            self.save(app)
            self.enter(app)
            return None
        if phase is Phase.REVEAL:
            assert self.dealer is not None
            deal = self.dealer.deal(match)
            if deal is None:
                self.state = "remote_wait"
                self.dirty = True
                return None
            self.apply(app, [deal])
            self.save(app)
            self.begin_reveal(app)
            return None
        if phase is Phase.ROUND_OVER:
            if not self.steps:  # resumed after the reveal: play the scoring show again
                self.begin_reveal(app)
                return None
            self.state = "round_over"
            self._make_next_menu(app)
            self.dirty = True
        return None

    def poll_opponent(self, app: App, inp: InputFrame | None) -> bool:
        """Ask the opponent seat (CPU today, a remote player later) for its move; True once made.

        The opponent reads only its own view. Its placement is held off the
        match until this machine's seat has confirmed, so neither the screen nor
        the save file can show it early; then it is applied and saved.
        """
        seat = self.opponent_seat
        if self.opponent is None or not self.match.awaiting(seat):
            return False
        if self.opponent_pending is None:
            decided = self.opponent.poll(view(self.match, seat), inp)
            if not decided:
                return False
            self.opponent_pending = decided
            self.dirty = True
        if self.match.awaiting(self.bottom_seat):
            return False
        actions, self.opponent_pending = self.opponent_pending, None
        if self.apply(app, actions):
            self.save(app)
            return True
        return False

    def opponent_decided(self, v: PlayerView) -> bool:
        """The other seat has fixed its placement (applied, or decided and held back)."""
        return v.opponent_confirmed or self.opponent_pending is not None

    def place_input(self, app: App, inp: InputFrame) -> None:
        """Stylus and pad while the bottom seat places."""
        if not (inp.keys or inp.touch_down or inp.touch_move or inp.touch_up):
            return  # (no need to build the view on the many frames of waiting)
        ctrl = self.ctrl[self.bottom_seat]
        v = self.view()
        outcomes: list[Outcome] = []
        if inp.touch_down is not None:
            outcomes.append(ctrl.touch_down(v, *inp.touch_down))
        if inp.touch_move is not None:
            outcomes.append(ctrl.touch_move(v, *inp.touch_move))
            self.dirty = True
        if inp.touch_up is not None:
            outcomes.append(ctrl.touch_up(v, *inp.touch_up))
        for key in inp.keys:
            if key in ("up", "down", "left", "right", "a", "b", "x", "start"):
                outcomes.append(ctrl.pad(v, key))
        for out in outcomes:
            if out.hint:
                self.give_hint(app, v)
            if out.actions:
                confirmed = any(isinstance(a, Confirm) for a in out.actions)
                if self.apply(app, out.actions) and confirmed:
                    if self.remote is not None:
                        self.remote.local_confirmed(self.match)
                    self.save(app)
                    self.state = "idle"
            for fb in out.feedback:
                self.feedback(app, fb)
            self.dirty = True

    def give_hint(self, app: App, v: PlayerView) -> None:
        """Put this half's cards where the exact-expectation AI would (they can still move)."""
        from royalnine.ai import NotMyTurn, hint

        try:
            best = hint(v, top=1)[0]
        except NotMyTurn:
            self.say("waiting", art.TEXT_RED)
            app.beep("invalid")
            return
        seat = self.bottom_seat
        movable = [c for i in v.movable_cells if (c := v.grid[i]) is not None]
        actions: list[Action] = [Unplace(seat, c) for c in movable]
        actions += [Place(seat, card, cell) for card, cell in best.cells.items()]
        if self.apply(app, actions):
            self.ctrl[seat].hinted(list(best.cells))
            self.say("hint_done", art.TEXT_YELLOW, pts=f"{best.ev:.1f}")
            app.beep("place")

    def feedback(self, app: App, fb: Feedback) -> None:
        """Sound and panel message for one piece of controller feedback."""
        if fb.kind == "invalid":
            app.beep("invalid")
            self.say(fb.message or "bad_off", art.TEXT_RED)
            if fb.target is not None:
                self.flash = (fb.target, FLASH_FRAMES)
        elif fb.kind in ("place", "unplace"):
            app.beep("place")
        elif fb.kind in ("select", "lift", "deselect", "move"):
            app.beep("select")
        elif fb.kind == "confirm":
            app.beep("confirm")
        elif fb.kind == "hint" and fb.message:
            self.say(fb.message, art.TEXT_YELLOW)

    def begin_reveal(self, app: App) -> None:
        """Flip the common card, then play the scoring steps."""
        result = self.match.results[-1]
        order = (self.bottom_seat, 1 - self.bottom_seat)
        self.steps = reveal_steps(result, order, self.names(app), app.lang)
        self.step_i = -1
        self.state = "reveal"
        self.timer = FLIP_FRAMES
        app.beep("reveal")
        m = app.m
        for s in (TOP, BOTTOM):
            m.sppage(s)
            if m.spexists(CENTRE_SID):
                m.spscale(CENTRE_SID, 0, FLIP_FRAMES // 2)
        self.dirty = True

    def reveal_frame(self, app: App, inp: InputFrame) -> None:
        """Advance the scoring show (a tap or A skips to the next step)."""
        self.timer -= 1
        if self.step_i < 0 and self.timer == FLIP_FRAMES // 2:
            self.dirty = True
            self.render(app)
            for s in (TOP, BOTTOM):
                app.m.sppage(s)
                if app.m.spexists(CENTRE_SID):
                    app.m.spscale(CENTRE_SID, 100, FLIP_FRAMES // 2)
        skip = inp.touch_up is not None or any(k in ("a", "start") for k in inp.keys)
        if self.timer > 0 and not (skip and self.step_i >= 0):
            return
        self.step_i += 1
        self.dirty = True
        if self.step_i >= len(self.steps):
            self.state = "idle"
            winner = self._round_winner()
            app.beep("win" if winner in (None, self.bottom_seat) else "total")
            return
        step = self.steps[self.step_i]
        app.beep(step.sound)
        self.timer = STEP_FRAMES + (40 if step.kind in ("royal", "bust") else 0)

    def _round_winner(self) -> int | None:
        a, b = self.match.results[-1].points
        return None if a == b else (0 if a > b else 1)

    def _make_next_menu(self, app: App) -> None:
        last = self.match.round.number >= self.match.config.rounds
        label = app.t("see_result" if last else "next_round")
        self.next_menu = Menu(row([("next", label)], y=NEXT_RECT.y, width=NEXT_RECT.w))
        self.next_menu.items[0].rect = NEXT_RECT

    def next_round(self, app: App) -> Scene | None:
        """Leave the round result."""
        self.apply(app, [NextRound()])
        self.next_menu = None
        self.steps = []
        if not self.match.is_over:
            self.save(app)
        self.state = "idle"
        self.enter(app)
        return None

    # --- drawing ---

    def render(self, app: App, *, force: bool = False) -> None:
        """Draw both screens from the state (BG/console only when something changed)."""
        if self.boards is None:
            return
        if self.state == "handover":
            if force or self.dirty:
                self.draw_handover(app)
                self.dirty = False
            return
        # Waiting for the player with nothing happening: the cards would be described
        # exactly as last frame, so skip even describing them (an idle frame is free).
        steady = self.state == "place" and self.flash is None
        steady = steady and not (force or self.dirty or self._input_seen)
        if steady and self._sprites_steady:
            return
        v = self.view()
        self.draw_sprites(app, v)
        self._sprites_steady = steady
        if force or self.dirty:
            self.draw_top(app, v)
            self.draw_bottom(app, v)
            self.dirty = False

    def _step_cells(self, seat: int) -> tuple[int, ...]:
        if self.state != "reveal" or not 0 <= self.step_i < len(self.steps):
            return ()
        step = self.steps[self.step_i]
        return step.cells if step.seat == seat else ()

    def _lit_palette(self, cell: int) -> int:
        """Palette of a highlighted cell: green for a role; for a bust the 8 own cards red
        and the common card (the culprit) yellow."""
        step = self.steps[self.step_i]
        if step.kind == "bust":
            return art.SP_SELECTED if cell == CENTRE else art.SP_ILLEGAL
        return art.SP_SCORED

    def _last_step(self, seat: int) -> RevealStep | None:
        if self.state not in ("reveal", "round_over", "idle") or not self.steps:
            return None
        shown = self.steps[: self.step_i + 1] if self.state == "reveal" else self.steps
        mine = [s for s in shown if s.seat == seat]
        return mine[-1] if mine else None

    def draw_sprites(self, app: App, v: PlayerView) -> None:
        """Cards as sprites on both screens."""
        assert self.boards is not None
        top, bottom = self.boards
        ctrl = self.ctrl[self.bottom_seat]
        flip_back = self.state == "reveal" and self.step_i < 0 and self.timer > FLIP_FRAMES // 2
        centre = None if flip_back else v.centre
        dealing = self.state == "deal"
        held = ctrl.held()
        hover = ctrl.hover()
        flash_target = self.flash[0] if self.flash else None
        for board, seat in ((bottom, self.bottom_seat), (top, 1 - self.bottom_seat)):
            board.begin()
            lit = self._step_cells(seat)
            show_centre = v.phase is not Phase.MATCH_OVER
            if show_centre:
                r = CELL_RECTS[CENTRE]
                pal = self._lit_palette(CENTRE) if CENTRE in lit else art.SP_NORMAL
                if seat == self.bottom_seat and (
                    flash_target == Target(Zone.CELL, CENTRE)
                    or (hover == Target(Zone.CELL, CENTRE) and ctrl.drag is not None)
                ):
                    pal = art.SP_ILLEGAL
                board.show(CENTRE_SID, card_look(centre, r.x, r.y, pal))
            grid = v.grid if seat == self.bottom_seat else v.opponent_grid
            for i, card in enumerate(grid):
                if card is None or i == CENTRE:
                    continue
                r = CELL_RECTS[i]
                pal = art.SP_NORMAL
                if i in lit:
                    pal = self._lit_palette(i)
                elif seat == self.bottom_seat and v.phase.is_place:
                    if card == held:
                        pal = art.SP_SELECTED
                    elif ctrl.cursor_visible and ctrl.cursor == Target(Zone.CELL, i):
                        pal = art.SP_SCORED
                    elif i in v.locked:
                        pal = art.SP_LOCKED
                    if flash_target == Target(Zone.CELL, i) or (
                        hover == Target(Zone.CELL, i) and card != held and ctrl.drag is not None
                    ):
                        pal = art.SP_ILLEGAL
                elif seat != self.bottom_seat and v.phase.is_place:
                    pal = art.SP_LOCKED
                board.show(card_sid(card.index), card_look(card, r.x, r.y, pal))
            if seat == self.bottom_seat:
                hand = v.hand
            else:
                known = {c for c in v.opponent_grid if c is not None}
                hand = tuple(c for c in v.opponent_dealt if c not in known)
            for i, card in enumerate(hand):
                r = HAND_RECTS[i]
                pal = art.SP_SELECTED if card == held else art.SP_NORMAL
                on_cursor = ctrl.cursor_visible and ctrl.cursor == Target(Zone.HAND, i)
                if seat == self.bottom_seat and on_cursor and card != held:
                    pal = art.SP_SCORED
                if seat != self.bottom_seat and self.opponent_decided(v):
                    pal = art.SP_LOCKED
                if flash_target == Target(Zone.HAND, i) and seat == self.bottom_seat:
                    pal = art.SP_ILLEGAL
                sid = card_sid(card.index)
                start = DECK_XY if dealing and sid in self.deal_from else None
                board.show(sid, card_look(card, r.x, r.y, pal), t=10 + 4 * i, start=start)
            if seat == self.bottom_seat and ctrl.drag is not None and ctrl.drag.active:
                card = ctrl.drag.card
                x, y = ctrl.drag.card_xy
                board.show(
                    card_sid(card.index),
                    card_look(card, x, y, art.SP_SELECTED, draw.HELD_PRIO),
                    t=0,
                )
            self._stars(board, seat)
            board.end()
        self.deal_from = set() if not dealing else self.deal_from

    def _stars(self, board: SpriteBoard, seat: int) -> None:
        if self.state != "reveal" or not 0 <= self.step_i < len(self.steps):
            return
        step = self.steps[self.step_i]
        if step.seat != seat or step.kind != "royal":
            return
        twinkle = (self.timer // 6) % 2
        for k, (x, y) in enumerate(STAR_SPOTS):
            if k % 2 == twinkle:
                continue
            drift = (self.timer // 2) % 8
            board.show(
                40 + k, draw.SpriteLook(art.STAR_CHR, art.SP_STAR, 0, x, y - drift, 16, 16), t=0
            )

    def draw_top(self, app: App, v: PlayerView) -> None:
        """Opponent's grid slots, names, totals and the rounds table."""
        m = app.m
        m.cpage(TOP)
        m.cls()
        opp = 1 - self.bottom_seat
        names = self.names(app)
        for rect in CELL_RECTS:
            draw.slot(m, TOP, rect)
        for rect in HAND_RECTS:
            draw.felt_at(m, TOP, rect)
        title = names[opp]
        if self.mode == "cpu":
            title += " (" + app.t("level_" + self.level) + ")"
        draw.text(m, TOP, 1, 0, title, art.TEXT_YELLOW)
        draw.text(
            m,
            TOP,
            PANEL_COL,
            1,
            app.t("round_of", n=v.round_number, rounds=v.config.rounds),
            art.TEXT_WHITE,
        )
        if v.phase.half:
            draw.text(
                m,
                TOP,
                PANEL_COL,
                2,
                app.t("half_1" if v.phase.half == 1 else "half_2"),
                art.TEXT_GREY,
            )
        me = self.bottom_seat
        totals, results = v.totals, v.results
        if self.state == "reveal" and results:
            # Keep the suspense: this round counts once its scoring show is over.
            last = results[-1].points
            totals = (totals[0] - last[0], totals[1] - last[1])
            results = results[:-1]
        draw.text(m, TOP, PANEL_COL, 4, f"{names[me]:<8}{totals[me]:>4}", art.TEXT_CYAN)
        draw.text(m, TOP, PANEL_COL, 5, f"{names[opp]:<8}{totals[opp]:>4}", art.TEXT_PINK)
        # rounds so far: RND1  5  3
        for k, res in enumerate(results[-4:]):
            pts = res.points
            line = f"{app.t('rnd_short')}{res.number:<2}{pts[me]:>5}{pts[opp]:>5}"
            draw.text(m, TOP, PANEL_COL, 7 + k, line, art.TEXT_GREY)
        if v.phase.is_place:
            decided = self.opponent_decided(v)
            status = "OK!" if decided else app.t("waiting")
            draw.text(m, TOP, 1, 22, status, art.TEXT_YELLOW if decided else art.TEXT_GREY)
        self._reveal_text(app, TOP, opp)
        self.draw_remote_code(app)

    def draw_remote_code(self, app: App) -> None:
        """While this device waits for a reply, its last code on the top screen's GRP page."""
        if self.remote is None:
            return
        m = app.m
        shown = self.remote.showing()
        if self.state not in ("wait", "remote_wait"):
            shown = None
        wanted = None if shown is None else shown[1]
        if wanted != self._code_drawn:  # the GRP page changes only when the code does
            if wanted is None:
                m.gpage(TOP)
                m.gcls()
            else:
                draw_code(app, TOP, wanted, 256 - CODE_PX, 192 - CODE_PX, max_size=CODE_PX)
            self._code_drawn = wanted
        if shown is not None:
            draw.text(m, TOP, PANEL_COL, 11, app.t("remote_send", n=shown[0]), art.TEXT_YELLOW)

    def _reveal_text(self, app: App, screen: int, seat: int) -> None:
        step = self._last_step(seat)
        if step is None:
            return
        colour = {"royal": art.TEXT_YELLOW, "bust": art.TEXT_RED, "total": art.TEXT_GREEN}.get(
            step.kind, art.TEXT_WHITE
        )
        for k, line in enumerate(step.lines):
            draw.text(app.m, screen, 1, 18 + k, line, colour)
        if step.kind != "total":
            who = self.names(app)[seat]
            running = app.t("score_line", who=who, pts=step.running)
            draw.text(app.m, screen, PANEL_COL, 12, running, art.TEXT_YELLOW)

    def draw_bottom(self, app: App, v: PlayerView) -> None:
        """The own grid slots (with target/illegal colours), buttons and help text."""
        m = app.m
        m.cpage(BOTTOM)
        m.cls()
        m.bgpage(BOTTOM)
        m.bgclr(0)
        ctrl = self.ctrl[self.bottom_seat]
        held = ctrl.held()
        hover = ctrl.hover()
        flash_target = self.flash[0] if self.flash else None
        for i, rect in enumerate(CELL_RECTS):
            pal = art.BG_FELT
            target = Target(Zone.CELL, i)
            if v.phase.is_place and held is not None and i in v.empty_cells:
                pal = art.BG_SLOT_TARGET
            if ctrl.cursor_visible and ctrl.cursor == target and v.phase.is_place:
                pal = art.BG_SLOT_TARGET
            if (
                hover == target and ctrl.refusal(v, target, held) is not None
            ) or flash_target == target:
                pal = art.BG_SLOT_ILLEGAL
            draw.slot(m, BOTTOM, rect, pal)
        for rect in HAND_RECTS:
            draw.felt_at(m, BOTTOM, rect)
        names = self.names(app)
        draw.text(m, BOTTOM, 1, 0, names[self.bottom_seat], art.TEXT_CYAN)
        draw.button(m, BOTTOM, BUTTON_RECTS[Zone.MENU], app.t("btn_menu"))
        if v.phase.is_place and not v.confirmed:
            undo_pal = (
                art.BG_BUTTON
                if ctrl.order or any(c is not None for c in v.grid)
                else art.BG_BUTTON_OFF
            )
            ok_pal = art.BG_BUTTON if not v.hand else art.BG_BUTTON_OFF
            if flash_target == Target(Zone.CONFIRM):
                ok_pal = art.BG_SLOT_ILLEGAL
            if ctrl.cursor_visible and ctrl.cursor == Target(Zone.UNDO):
                undo_pal = art.BG_BUTTON_DOWN
            if ctrl.cursor_visible and ctrl.cursor == Target(Zone.CONFIRM):
                ok_pal = art.BG_BUTTON_DOWN
            hint_pal = art.BG_BUTTON
            if ctrl.cursor_visible and ctrl.cursor == Target(Zone.HINT):
                hint_pal = art.BG_BUTTON_DOWN
            draw.button(m, BOTTOM, BUTTON_RECTS[Zone.HINT], app.t("btn_hint"), pal=hint_pal)
            draw.button(m, BOTTOM, BUTTON_RECTS[Zone.UNDO], app.t("btn_undo"), pal=undo_pal)
            draw.button(m, BOTTOM, BUTTON_RECTS[Zone.CONFIRM], app.t("btn_confirm"), pal=ok_pal)
            draw.text(
                m,
                BOTTOM,
                PANEL_COL,
                3,
                app.t("half_1" if v.phase.half == 1 else "half_2"),
                art.TEXT_WHITE,
            )
            if self.message is not None:
                lines = [(app.t(self.message.key, **self.message.args), self.message.colour)]
                if self.message.key == "hint_done":
                    lines.append((app.t("hint_move"), art.TEXT_WHITE))
            elif held is not None:
                lines = [(app.t("help_selected"), art.TEXT_YELLOW)]
            elif not v.hand:
                lines = [
                    (app.t("help_confirm"), art.TEXT_YELLOW),
                    (app.t("help_confirm2"), art.TEXT_YELLOW),
                    (app.t("help_confirm3"), art.TEXT_GREY),
                ]
            else:
                lines = [
                    (app.t(k), art.TEXT_WHITE) for k in ("help_place", "help_place2", "help_place3")
                ]
            for k, (line, colour) in enumerate(lines):
                draw.text(m, BOTTOM, PANEL_COL, MESSAGE_ROWS[k], line, colour)
            if ctrl.cursor_visible:
                r = target_rect(ctrl.cursor)
                draw.text(
                    m, BOTTOM, max(0, r.x // 8 - 1), r.y // 8 + r.h // 16, "▶", art.TEXT_YELLOW
                )
        elif self.state == "deal":
            draw.text(
                m,
                BOTTOM,
                PANEL_COL,
                3,
                app.t("half_1" if v.phase.half == 1 else "half_2"),
                art.TEXT_WHITE,
            )
        elif v.phase.is_place and self.remote is None:
            draw.text(m, BOTTOM, PANEL_COL, MESSAGE_ROWS[0], app.t("waiting"), art.TEXT_GREY)
        if self.remote is not None and self.state in ("wait", "remote_wait"):
            shown = self.remote.showing()
            if shown is not None:
                file = self.remote.code_path(shown[0]).name
                draw.text(
                    m, BOTTOM, PANEL_COL, 3, app.t("remote_send", n=shown[0]), art.TEXT_YELLOW
                )
                draw.text(m, BOTTOM, PANEL_COL, 4, file, art.TEXT_GREY)
            draw.text(m, BOTTOM, PANEL_COL, 6, app.t("remote_reply"), art.TEXT_WHITE)
            draw.text(m, BOTTOM, PANEL_COL, 7, app.t("remote_reply2"), art.TEXT_WHITE)
            draw.text(m, BOTTOM, PANEL_COL, 8, app.t("remote_reply3"), art.TEXT_WHITE)
        if self.remote is not None and self.remote.error:
            for k, line in enumerate(draw.fold(self.remote.error, 15, 4)):
                draw.text(m, BOTTOM, PANEL_COL, 14 + k, line, art.TEXT_RED)
        if self.state == "reveal" and self.step_i < 0:
            draw.centred(m, BOTTOM, 18, app.t("reveal"), art.TEXT_YELLOW)
        self._reveal_text(app, BOTTOM, self.bottom_seat)
        if self.state == "round_over" and self.next_menu is not None:
            res = self.match.results[-1]
            me, opp = self.bottom_seat, 1 - self.bottom_seat
            draw.text(
                m, BOTTOM, PANEL_COL, 3, app.t("round_result", n=res.number)[:15], art.TEXT_YELLOW
            )
            draw.text(m, BOTTOM, PANEL_COL, 5, f"{names[me]:<8}{res.points[me]:>4}", art.TEXT_CYAN)
            draw.text(
                m, BOTTOM, PANEL_COL, 6, f"{names[opp]:<8}{res.points[opp]:>4}", art.TEXT_PINK
            )
            draw.text(m, BOTTOM, PANEL_COL, 8, app.t("total"), art.TEXT_GREY)
            draw.text(m, BOTTOM, PANEL_COL, 9, f"{names[me]:<8}{v.totals[me]:>4}", art.TEXT_CYAN)
            draw.text(m, BOTTOM, PANEL_COL, 10, f"{names[opp]:<8}{v.totals[opp]:>4}", art.TEXT_PINK)
            self.next_menu.draw(app)
        elif self.state == "reveal" and self.step_i >= 0:
            draw.text(m, BOTTOM, 1, 22, app.t("tap_next"), art.TEXT_GREY)

    def draw_handover(self, app: App) -> None:
        """Both screens blank but for the pass-the-machine message."""
        m = app.m
        assert self.boards is not None
        for board in self.boards:
            board.clear()
        for s in (TOP, BOTTOM):
            draw.reset_screen(m, s)
        who = self.names(app)[self.handover_to if self.handover_to is not None else 0]
        draw.centred(m, TOP, 10, app.t("handover", who=who), art.TEXT_YELLOW)
        draw.centred(m, TOP, 12, app.t("handover2"), art.TEXT_WHITE)
        draw.box(m, BOTTOM, Rect(40, 72, 176, 48), art.BG_BUTTON)
        draw.centred(m, BOTTOM, 10, app.t("handover", who=who), art.TEXT_BLACK, left=5, width=22)
        draw.centred(m, BOTTOM, 12, app.t("handover3"), art.TEXT_BLACK, left=5, width=22)
