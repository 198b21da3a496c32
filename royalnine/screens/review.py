"""Reviewing a finished match on the two screens, step by step, forwards and backwards.

The steps of each round: the first deal, each seat's first-half placement, the
second deal, each seat's second-half placement, the common card, then every
scoring line of both grids (the match's own scoring show, :mod:`.reveal`); after
the last round, the summary. Seat 1's grid is on the top screen and seat 0's on
the touch screen, as in the match; both hands are shown, since the match is over.

At a placement the top screen's panel shows the expected score of the placement
played, the best placement by exact expected score (as a small grid of card
names), its expected score and the loss (``LOSS -0.42``), judged from what that
seat could see then (:mod:`royalnine.review`). The summary shows each
player's points, expected points, total loss, luck and biggest mistake.

The analysis runs in a worker process (:class:`royalnine.review.Analysis`)
while the player browses, and the steps are built a round a frame
(:class:`StepBuilder`): a step whose placement is not judged yet says so and is
redrawn when it is. Controls: ``<``/``>`` buttons or left/right step; up/down jump a round;
BACK, B or Esc leave.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from royalnine import art
from royalnine.app import App, InputFrame, Scene
from royalnine.core import CENTRE, Card, Match, placement_actions
from royalnine.core.match import HAND_SIZE, SEATS, Deal, NextRound, Phase
from royalnine.core.record import MetaValue
from royalnine.i18n import cells, seat_names
from royalnine.review import Analysis, summarise
from royalnine.screens import draw, registry
from royalnine.screens.draw import SpriteBoard, card_look
from royalnine.screens.layout import (
    BOTTOM,
    CELL_RECTS,
    HAND_RECTS,
    NAME_ROW,
    PANEL_COL,
    REVEAL_ROWS,
    TOP,
    Rect,
)
from royalnine.screens.match_draw import CENTRE_SID, card_sid
from royalnine.screens.menu import Menu, MenuItem
from royalnine.screens.reveal import RevealStep, reveal_steps

PREV_RECT = Rect(144, 96, 48, 32)
NEXT_RECT = Rect(200, 96, 48, 32)
BACK_RECT = Rect(200, 0, 56, 24)
SCREEN = Rect(0, 0, 256, 192)


@dataclass(frozen=True)
class Step:
    """One step of the review: a position to show and what to say about it."""

    kind: str
    """``deal``, ``place``, ``reveal``, ``score`` or ``end``."""
    state: Match
    round: int = 0
    half: int = 0
    seat: int = 0
    decision: int = -1
    """Index of the placement in :attr:`Analysis.points` (``place`` steps): by round, half,
    seat, as :func:`royalnine.review.decision_points` orders them."""
    score: RevealStep | None = None
    new: tuple[Card, ...] = ()
    """The cards that moved at this step (highlighted)."""


class StepBuilder:
    """The review's steps, built a round at a time.

    Each round replays its actions; a 99-round match replayed at once would hold
    its first frame for a third of a second, so the scene builds one round per
    frame while the player looks at the first. :attr:`total` is known at once
    (it needs only the scoring, not the replay).
    """

    def __init__(self, match: Match, names: tuple[str, str], lang: str) -> None:
        self.match = match
        self.deals = [a for a in match.history if isinstance(a, Deal)]  # 3 a round
        self.beats = [reveal_steps(r, (0, 1), names, lang) for r in match.results]
        self.total = sum(2 * 3 + 1 + len(b) for b in self.beats) + 1
        self.steps: list[Step] = []
        self.state = Match.new(match.config)
        self.rounds = 0

    @property
    def finished(self) -> bool:
        """Every step is built."""
        return len(self.steps) == self.total

    def more(self) -> None:
        """Build the next round's steps (and the summary after the last)."""
        if self.finished:
            return
        number = self.rounds + 1
        grids = self.match.results[self.rounds].grids  # where each card ended up
        deals = self.deals[3 * self.rounds : 3 * self.rounds + 3]
        state = self.state
        if state.phase is Phase.ROUND_OVER:
            state = state.apply(NextRound())
        for half, deal in enumerate(deals[:2], 1):
            state = state.apply(deal)
            self.steps.append(Step("deal", state, number, half, new=deal.cards))
            for seat in SEATS:
                cards = state.round.dealt[seat][-HAND_SIZE:]
                played = {card: grids[seat].index(card) for card in cards}
                state = state.apply_all(placement_actions(seat, played))
                index = 4 * (number - 1) + 2 * (half - 1) + seat  # decision_points' order
                self.steps.append(Step("place", state, number, half, seat, index, new=cards))
        state = state.apply(deals[2])
        self.steps.append(Step("reveal", state, number, new=deals[2].cards))
        self.steps += [Step("score", state, number, score=b) for b in self.beats[self.rounds]]
        self.state = state
        self.rounds += 1
        if self.rounds == len(self.match.results):
            self.steps.append(Step("end", state))

    def all(self) -> list[Step]:
        """Every step (built now if not yet)."""
        while not self.finished:
            self.more()
        return self.steps


SUMMARY_ROWS = (5, 7, 9, 11)
"""The summary table's rows on the top screen (points, expected, lost, luck): a row apart."""
MISTAKE_ROWS = (17, 20)
"""Each player's biggest mistake on the summary (its half on the next row, a blank row
between the players; row 23 holds the single layout's hint)."""


def _judged(value: Fraction, *, zero_is_good: bool = False) -> tuple[str, int]:
    """``value`` as :func:`signed` writes it, in the colour of what it means for its player:
    green above zero (good luck), red below (points lost, bad luck), and at zero (as
    shown, two places) white, or green where nothing lost is good (LOST 0.00)."""
    text = signed(value)
    if text == "0.00":
        return text, art.TEXT_GREEN if zero_is_good else art.TEXT_WHITE
    return text, art.TEXT_GREEN if value > 0 else art.TEXT_RED


def signed(value: Fraction) -> str:
    """``+1.25`` / ``-0.42`` / ``0.00`` (two places)."""
    text = f"{float(value):+.2f}"
    return "0.00" if text in ("+0.00", "-0.00") else text


class ReviewScene:
    """Step through a finished match (see the module docstring)."""

    def __init__(
        self,
        match: Match,
        meta: dict[str, MetaValue] | None = None,
        *,
        back: Scene | None = None,
        analysis: Analysis | None = None,
    ) -> None:
        self.match = match
        self.meta = dict(meta or {})
        self.back = back
        self.analysis = analysis or Analysis(match)
        self.builder: StepBuilder | None = None
        self.index = 0
        self.boards: tuple[SpriteBoard, SpriteBoard] | None = None
        self.menu: Menu | None = None
        self._shown_known = -1  # decisions known when the step was drawn

    # --- names ---

    def names(self, app: App) -> tuple[str, str]:
        """Display names of the two seats, from the record's mode (:func:`seat_names`)."""
        return seat_names(self.meta, app.lang)

    # --- scene protocol ---

    def enter(self, app: App) -> None:
        """Build the first round's steps (once), start the analysis and draw."""
        if self.builder is None:
            self.builder = StepBuilder(self.match, self.names(app), app.lang)
            self.builder.more()
        self.analysis.start()
        m = app.m
        draw.reset_screens(m)
        self.boards = (SpriteBoard(m, TOP), SpriteBoard(m, BOTTOM))
        items = [
            MenuItem("prev", app.t("review_prev"), PREV_RECT),
            MenuItem("next", app.t("review_next"), NEXT_RECT),
            MenuItem("back", app.t("menu_back"), BACK_RECT),
        ]
        self.menu = Menu(items)
        self.redraw(app)

    def frame(self, app: App, inp: InputFrame) -> Scene | None:
        """Buttons and keys; redraw when the analysis of the shown step arrives."""
        assert self.menu is not None and self.builder is not None
        self.builder.more()  # one more round of steps a frame, until all are built
        keys = inp.keys
        touch = InputFrame(
            touch_down=inp.touch_down, touch_move=inp.touch_move, touch_up=inp.touch_up
        )
        choice = self.menu.handle(app, touch)  # the keys step and jump, never a cursor
        if choice == "back" or "b" in keys or "select" in keys:
            self.analysis.stop()  # the worker's answers would go unread
            return self.back if self.back is not None else registry.make("title")
        move = {"prev": -1, "next": 1}.get(choice or "", 0)
        for key in keys:
            if key in ("left", "right", "a"):
                move += -1 if key == "left" else 1
            elif key in ("up", "l"):
                self.jump_round(app, -1)
            elif key in ("down", "r"):
                self.jump_round(app, 1)
        if move:
            self.go(app, self.index + move)
        elif self._needs_analysis_redraw():
            self.redraw(app)
        return None

    @property
    def steps(self) -> list[Step]:
        """The steps built so far (all of them once :attr:`builder` is finished)."""
        return self.builder.steps if self.builder is not None else []

    @property
    def total(self) -> int:
        """How many steps the review has."""
        return self.builder.total if self.builder is not None else 0

    def _needs_analysis_redraw(self) -> bool:
        step = self.steps[self.index]
        known = len(self.analysis.decisions)
        if step.kind == "place":
            return step.decision < known and self._shown_known <= step.decision
        if step.kind == "end":
            return self._shown_known != known and (self.analysis.done or self._shown_known < 0)
        return False

    def go(self, app: App, index: int) -> None:
        """Show step ``index`` (clamped to the first and last)."""
        index = max(0, min(len(self.steps) - 1, index))
        if index != self.index:
            self.index = index
            app.beep("select")
            self.redraw(app)

    def jump_round(self, app: App, direction: int) -> None:
        """To the first step of the previous or next round (or the end)."""
        number = self.steps[self.index].round or self.match.config.rounds + 1
        target = number + direction
        for i, step in enumerate(self.steps):
            if step.round == target or (step.kind == "end" and target > step.round):
                self.go(app, i)
                return
        self.go(app, 0 if direction < 0 else len(self.steps) - 1)

    # --- drawing ---

    def redraw(self, app: App) -> None:
        """Both screens for the current step."""
        m = app.m
        step = self.steps[self.index]
        self._shown_known = len(self.analysis.decisions)
        for s in (TOP, BOTTOM):
            draw.clear_text(m, s)
            draw.clear_bg(m, s, 0)
        names = self.names(app)
        if step.kind == "end":
            self.draw_cards(step, show=False)
            for s in (TOP, BOTTOM):
                draw.felt_at(m, s, SCREEN)
            self.draw_summary(app, names)
        else:
            for s, seat in ((TOP, 1), (BOTTOM, 0)):
                for rect in CELL_RECTS:
                    draw.slot(m, s, rect)
                for rect in HAND_RECTS:
                    draw.felt_at(m, s, rect)
                draw.text(m, s, 1, NAME_ROW, names[seat], art.TEXT_PINK if seat else art.TEXT_CYAN)
            self.draw_cards(step, show=True)
            self.draw_panel(app, step, names)
        if app.layout == "single":  # one screen at a time: say how to see the other
            draw.text(m, TOP, 1, 23, app.t("swap_short"), art.TEXT_GREY)
            draw.text(m, BOTTOM, 1, 23, app.t("swap_short"), art.TEXT_GREY)
        self.draw_controls(app)

    def draw_cards(self, step: Step, *, show: bool) -> None:
        """Both grids and hands of the step's position as sprites."""
        assert self.boards is not None
        rnd = step.state.round
        revealed = rnd.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER)
        lit: tuple[int, ...] = ()
        if step.score is not None:
            lit = step.score.cells
        for board, seat in ((self.boards[1], 0), (self.boards[0], 1)):
            board.begin()
            if show:
                r = CELL_RECTS[CENTRE]
                pal = art.SP_NORMAL
                if step.score is not None and step.score.seat == seat and CENTRE in lit:
                    pal = art.SP_SCORED
                centre = rnd.centre if revealed else None
                board.show(CENTRE_SID, card_look(centre, r.x, r.y, pal))
                for i, card in enumerate(rnd.grids[seat]):
                    if card is None:
                        continue
                    r = CELL_RECTS[i]
                    pal = art.SP_NORMAL
                    if step.score is not None and step.score.seat == seat and i in lit:
                        pal = art.SP_SCORED
                    elif step.kind == "place" and step.seat == seat and card in step.new:
                        pal = art.SP_SELECTED
                    elif rnd.phase.is_place and i in rnd.locked[seat]:
                        pal = art.SP_LOCKED
                    board.show(card_sid(card.index), card_look(card, r.x, r.y, pal), t=8)
                for i, card in enumerate(rnd.hands[seat] if rnd.phase.is_place else ()):
                    r = HAND_RECTS[i]
                    board.show(card_sid(card.index), card_look(card, r.x, r.y), t=8)
            board.end()

    def draw_panel(self, app: App, step: Step, names: tuple[str, str]) -> None:
        """The top screen's panel (the round, the step, the judgement) and the scoring text."""
        m = app.m
        col = PANEL_COL
        rounds = self.match.config.rounds
        draw.text(m, TOP, col, 1, app.t("round_of", n=step.round, rounds=rounds), art.TEXT_WHITE)
        if step.half:
            draw.text(m, TOP, col, 3, app.t(f"half_{step.half}"), art.TEXT_GREY)
        if step.kind == "deal":
            draw.text(m, TOP, col, 5, app.t("review_deal"), art.TEXT_YELLOW)
        elif step.kind == "reveal":
            draw.text(m, TOP, col, 5, app.t("review_common"), art.TEXT_YELLOW)
        elif step.kind == "place":
            who = names[step.seat]
            colour = art.TEXT_PINK if step.seat else art.TEXT_CYAN
            draw.text(m, TOP, col, 5, app.t("review_placed", who=who), colour)
            self.draw_judgement(app, step)
        elif step.kind == "score" and step.score is not None:
            beat = step.score
            kinds = {"royal": art.TEXT_YELLOW, "bust": art.TEXT_RED, "total": art.TEXT_GREEN}
            screen = TOP if beat.seat == 1 else BOTTOM
            for k, line in enumerate(beat.lines):
                draw.text(m, screen, 1, REVEAL_ROWS[k], line, kinds.get(beat.kind, art.TEXT_WHITE))
            if beat.kind != "total":
                running = app.t("score_line", who=names[beat.seat], pts=beat.running)
                draw.text(m, TOP, col, 5, running, art.TEXT_YELLOW)

    def draw_judgement(self, app: App, step: Step) -> None:
        """At a placement: played EV, the best placement and its EV, the loss."""
        m = app.m
        col = PANEL_COL
        known = self.analysis.decisions
        if step.decision >= len(known):
            key = "review_failed" if self.analysis.failed else "review_analysing"
            draw.text(m, TOP, col, 7, app.t(key), art.TEXT_GREY)
            return
        d = known[step.decision]
        draw.text(m, TOP, col, 7, app.t("review_played", ev=f"{float(d.played_ev):.2f}"))
        draw.text(m, TOP, col, 9, app.t("review_best", ev=f"{float(d.best_ev):.2f}"))
        grid: list[str] = ["--"] * 9
        fixed = step.state.round.grids[step.seat]
        for i, card in enumerate(fixed):
            if card is not None and card not in d.best:
                grid[i] = str(card).lower()
        for card, cell in d.best.items():
            grid[cell] = str(card)
        grid[CENTRE] = "??"
        for r in range(3):  # the best placement as a small grid: new cards in capitals
            line = " ".join(f"{c:<3}" for c in grid[3 * r : 3 * r + 3]).rstrip()
            draw.text(m, TOP, col + 1, 11 + r, line, art.TEXT_GREEN)
        if d.loss == 0:
            draw.text(m, TOP, col, 15, app.t("review_no_loss"), art.TEXT_GREEN)
        else:
            loss = app.t("review_loss", loss=f"-{float(d.loss):.2f}")
            draw.text(m, TOP, col, 15, loss, art.TEXT_RED)

    def draw_summary(self, app: App, names: tuple[str, str]) -> None:
        """After the last round, all on the top screen: each player's points, expected
        points, loss and luck (a row apart), then each player's biggest mistake.

        A value's colour says whether it is good or bad for its player, the same way
        everywhere: green good, red bad, white neither (a loss of 0.00 is good, negative
        luck bad); the labels stay white.
        """
        m = app.m
        draw.centred(m, TOP, 1, app.t("review_summary"), art.TEXT_YELLOW)
        if not self.analysis.done:
            key = "review_failed" if self.analysis.failed else "review_analysing"
            draw.centred(m, TOP, 6, app.t(key), art.TEXT_GREY)
            return
        a, b = summarise(self.match, self.analysis.decisions)
        draw.text(m, TOP, 1, 3, f"{'':<10}{names[0]:>9}{names[1]:>9}", art.TEXT_GREY)
        rows = (
            ("review_points", (str(a.points), art.TEXT_WHITE), (str(b.points), art.TEXT_WHITE)),
            (
                "review_expected",
                (f"{float(a.expected):.2f}", art.TEXT_WHITE),
                (f"{float(b.expected):.2f}", art.TEXT_WHITE),
            ),
            (
                "review_lost",
                _judged(-a.loss, zero_is_good=True),
                _judged(-b.loss, zero_is_good=True),
            ),
            ("review_luck", _judged(a.luck), _judged(b.luck)),
        )
        for k, (key, *values) in enumerate(rows):
            row_ = SUMMARY_ROWS[k]
            draw.text(m, TOP, 1, row_, app.t(key), art.TEXT_WHITE)
            for col, (value, colour) in zip((11, 20), values, strict=True):
                draw.text(m, TOP, col, row_, f"{value:>9}", colour)
        draw.text(m, TOP, 1, 13, app.t("review_luck_note"), art.TEXT_GREY)
        draw.text(m, TOP, 1, 15, app.t("review_biggest"), art.TEXT_YELLOW)
        for k, summary in enumerate((a, b)):
            who = names[summary.seat]
            d = summary.biggest
            row_ = MISTAKE_ROWS[k]
            colour = art.TEXT_CYAN if k == 0 else art.TEXT_PINK
            if d is None:
                draw.text(m, TOP, 1, row_, app.t("review_all_best", who=who), colour)
                continue
            loss = f"-{float(d.loss):.2f}"
            draw.text(
                m, TOP, 1, row_, app.t("review_mistake", who=who, n=d.round, loss=loss), colour
            )
            # the half under the round; where a Japanese voicing mark would run into the
            # line above there, under the name's colon, so the mark is under the space
            half = app.t(f"half_{d.half}")
            col = 1 + cells(who) + 2
            if draw.marks_collide(m, TOP, col, row_ + 1, half):
                col = 1 + cells(who)
            draw.text(m, TOP, col, row_ + 1, half, art.TEXT_GREY)

    def draw_controls(self, app: App) -> None:
        """The step counter, the help and the buttons on the touch screen."""
        m = app.m
        assert self.menu is not None
        counter = app.t("review_step", i=self.index + 1, of=self.total)
        draw.text(m, BOTTOM, PANEL_COL, 4, counter, art.TEXT_WHITE)
        if self.steps[self.index].kind != "end":
            draw.text(m, BOTTOM, PANEL_COL, 6, app.t("review_keys"), art.TEXT_GREY)
            draw.text(m, BOTTOM, PANEL_COL, 8, app.t("review_keys2"), art.TEXT_GREY)
        self.menu.items[0].enabled = self.index > 0
        self.menu.items[1].enabled = self.index < self.total - 1
        self.menu.draw(app)
