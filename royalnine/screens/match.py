"""The match screen's flow: deals, placing (vs CPU, two players on one machine, remote), reveal
and scoring.

Drawing both screens is in :mod:`.match_draw` and the remote linking (codes
read and shown) in :mod:`.match_remote`. Everything on screen is drawn from one
:func:`royalnine.core.view` of the seat at the bottom plus this scene's
interaction state, so the screen never shows what that seat may not see, and a
resumed match looks exactly as it was left. The CPU reads its own view only.
The match is saved after every deal, every confirm and every new round.
"""

from __future__ import annotations

import random

from royalnine import art
from royalnine.app import (
    App,
    CpuOpponent,
    InputFrame,
    Scene,
    make_cpu,
)
from royalnine.core import (
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
from royalnine.screens import draw, match_draw, registry
from royalnine.screens.draw import SpriteBoard
from royalnine.screens.layout import (
    BOTTOM,
    BUTTON_RECTS,
    TOP,
    Rect,
    Zone,
)
from royalnine.screens.match_draw import CENTRE_SID, FLIP_FRAMES, card_sid
from royalnine.screens.match_remote import remote_frame
from royalnine.screens.match_state import MatchState
from royalnine.screens.menu import Menu, row
from royalnine.screens.pause import PauseScene
from royalnine.screens.placement import Feedback, Outcome
from royalnine.screens.remote_actions import RemoteActions
from royalnine.screens.result import MatchResultScene
from royalnine.screens.reveal import reveal_steps
from royalnine.storage import SaveGame

DEAL_FRAMES = 30
STEP_FRAMES = 55
FLASH_FRAMES = 24
NEXT_RECT = Rect(144, 160, 104, 24)


@registry.provides("match")
class MatchScene(MatchState):
    """A match in progress: the flow on top of :class:`.match_state.MatchState`."""

    music = "match"  # the song royalnine.music plays while this scene is active

    def save(self, app: App) -> None:
        """Save the match (atomically, by Storage)."""
        if self.remote is not None:  # a remote match lives in its session, saved with each code
            app.store("remote", self.remote.save)
            return
        meta: dict[str, MetaValue] = {**self.meta, "level": self.level, "bottom": self.bottom_seat}
        # a full disk or read-only folder must not end the match
        save = SaveGame(self.shareable_match(), self.mode, meta)
        if not app.store("save", lambda: app.storage.save_game(save)):
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
            self.remote_actions = RemoteActions(self.remote)
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
        exchange = remote_frame(app, self, inp)
        if exchange is not None:
            return exchange
        if self.remote_actions is not None:
            nxt, changed = self.remote_actions.frame(app, inp)
            if nxt is not None:
                return nxt
            self.dirty = self.dirty or changed
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
        if self.message is not None and not self.message.lasting:
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
        self._menu_down = False
        if self.state in ("place", "idle", "wait", "round_over"):
            self.save(app)
        return PauseScene(self, self.match.config)

    # --- the flow ---

    def advance(self, app: App) -> Scene | None:
        """Move the match along until someone has to act (or an animation plays)."""
        match = self.match
        phase = match.phase
        if phase is Phase.MATCH_OVER:
            if self.remote is not None:
                app.store("remote", self.remote.finish)
                return MatchResultScene(
                    self.match, self.mode, self.level, self.names(app), remote=self.remote
                )
            app.store("save", app.storage.clear_game)
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

    def place_input(self, app: App, inp: InputFrame) -> None:
        """Stylus and pad while the bottom seat places."""
        if not (inp.keys or inp.touch_down or inp.touch_move or inp.touch_up):
            return  # (no need to build the view on the many frames of waiting)
        ctrl = self.ctrl[self.bottom_seat]
        v = self.view()
        top_dirty = self.dirty
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
                if self.message is not None and self.message.lasting:
                    self.message = None  # the hint's value no longer holds once a card moves
                confirmed = any(isinstance(a, Confirm) for a in out.actions)
                if self.apply(app, out.actions) and confirmed:
                    if self.remote is not None:
                        self.remote.local_confirmed(self.match)
                    self.save(app)
                    self.state = "idle"
            for fb in out.feedback:
                self.feedback(app, fb)
            self.dirty = True
        if self.state == "place":
            # Still placing: what changed (cards, hints, messages, buttons) is all on the
            # bottom screen, so the top one is not drawn again for each tap.
            self.dirty_bottom = self.dirty_bottom or self.dirty
            self.dirty = top_dirty

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
            self.say("hint_done", art.TEXT_YELLOW, lasting=True, pts=f"{best.ev:.1f}")
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
        self.next_menu.hidden = not app.show_controls  # nobody plays: the CPU taps it unseen

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

    # --- drawing (in match_draw) ---

    def render(self, app: App, *, force: bool = False) -> None:
        """Draw both screens from the state (BG/console only when something changed)."""
        match_draw.render(self, app, force=force)
