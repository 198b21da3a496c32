"""Drawing a match on both screens, from the scene's state (the flow is in :mod:`.match`).

Top screen: the opponent's grid (its centre is the common card), its face-up
cards of this half, the round number, both totals and a small table of the
rounds so far. Bottom (touch) screen: the grid of the seat playing here, its
hand, the UNDO and OK buttons and the MENU button.

Everything is drawn from one :func:`royalnine.core.view` of the seat at the
bottom plus the scene's interaction state, so the screen never shows what that
seat may not see. Functions take the :class:`~royalnine.screens.match_state.MatchState`
and only read it (but for its ``dirty`` flag and the remote code drawn).
"""

from __future__ import annotations

from royalnine import art
from royalnine.app import App
from royalnine.core import CENTRE, Card, Phase, PlayerView
from royalnine.i18n import TEXTS
from royalnine.screens import draw
from royalnine.screens.draw import SpriteBoard, card_look
from royalnine.screens.layout import (
    BOTTOM,
    BUTTON_RECTS,
    CELL_RECTS,
    DECK_XY,
    HAND_RECTS,
    MESSAGE_ROWS,
    NAME_ROW,
    PANEL_COL,
    REVEAL_ROWS,
    TOP,
    Rect,
    Target,
    Zone,
)
from royalnine.screens.match_remote import draw_remote_code, draw_remote_panel
from royalnine.screens.match_state import MatchState, Message
from royalnine.screens.placement import hand_slots
from royalnine.screens.reveal import RevealStep

FLIP_FRAMES = 16
CENTRE_SID = 9  # below every card id (10-29): dealt cards fly over it (higher ids draw in front)
STAR_SPOTS = ((0, 8), (96, 12), (110, 64), (0, 96), (52, 120), (100, 116), (40, 4), (60, 80))
TOP_ROWS = {"round": 1, "totals": 3, "table": 6, "running": 12}
"""Console rows of the top screen's side panel (a blank row between groups)."""
TABLE_ROWS = 5  # the rounds table shows the latest five rounds (all of a 5-round match)


HANDOVER_BOX = Rect(32, 64, 192, 56)
"""The pass-the-machine box: text rows 10 and 12 sit 14 pixels inside its edges."""


def card_sid(index: int) -> int:
    """Sprite id of a card (by Card.index), so a card keeps its sprite as it moves."""
    return 10 + index


def render(scene: MatchState, app: App, *, force: bool = False) -> None:
    """Draw both screens from the state (BG/console only when something changed)."""
    if scene.boards is None:
        return
    if scene.state == "handover":
        if force or scene.dirty:
            draw_handover(scene, app)
            scene.dirty = False
        return
    # Nothing happened since the cards were last described: they would be described
    # exactly as then, so skip even describing them (an idle frame is free). Waiting
    # for the player, once described; dealing and the reveal (where the timer runs)
    # also, but the glides still running are checked as describing them would.
    changed = force or scene.dirty or scene.dirty_bottom or scene._input_seen
    steady = scene.flash is None and not changed
    if scene.state == "place":
        if steady and scene._sprites_steady:
            return
    elif scene.state in ("deal", "reveal") and not _stars_shown(scene):
        if steady and scene._sprites_steady:
            for board in scene.boards:
                board.keep()  # the cards still gliding in are checked, not described
            return
    else:
        steady = False
    v = scene.view()
    draw_sprites(scene, app, v)
    scene._sprites_steady = steady
    if force or scene.dirty:
        draw_top(scene, app, v)
        draw_bottom(scene, app, v)
        scene.dirty = scene.dirty_bottom = False
    elif scene.dirty_bottom:
        draw_bottom(scene, app, v)
        scene.dirty_bottom = False


def message_lines(app: App, message: Message, *, keys: bool) -> list[tuple[str, int]]:
    """A panel message and its continuation lines (``KEY2``, ``KEY3``), as the player's
    input asks: a ``help_`` prompt becomes its ``keys_`` form once the pad cursor shows."""
    key = message.key
    if keys and key.startswith("help_") and "keys_" + key[5:] in TEXTS:
        key = "keys_" + key[5:]
    lines = [(app.t(key, **message.args), message.colour)]
    lines += [(app.t(more), message.colour) for more in (key + "2", key + "3") if more in TEXTS]
    if key == "hint_done":
        lines.append((app.t("hint_move"), art.TEXT_WHITE))
    return lines


def _step_cells(scene: MatchState, seat: int) -> tuple[int, ...]:
    if scene.state != "reveal" or not 0 <= scene.step_i < len(scene.steps):
        return ()
    step = scene.steps[scene.step_i]
    return step.cells if step.seat == seat else ()


def _lit_palette(scene: MatchState, cell: int) -> int:
    """Palette of a highlighted cell: green for a role; for a bust the 8 own cards red
    and the common card (the culprit) yellow."""
    step = scene.steps[scene.step_i]
    if step.kind == "bust":
        return art.SP_SELECTED if cell == CENTRE else art.SP_ILLEGAL
    return art.SP_SCORED


def _last_step(scene: MatchState, seat: int) -> RevealStep | None:
    if scene.state not in ("reveal", "round_over", "idle") or not scene.steps:
        return None
    shown = scene.steps[: scene.step_i + 1] if scene.state == "reveal" else scene.steps
    mine = [s for s in shown if s.seat == seat]
    return mine[-1] if mine else None


def draw_sprites(scene: MatchState, app: App, v: PlayerView) -> None:
    """Cards as sprites on both screens."""
    assert scene.boards is not None
    top, bottom = scene.boards
    ctrl = scene.ctrl[scene.bottom_seat]
    flip_back = scene.state == "reveal" and scene.step_i < 0 and scene.timer > FLIP_FRAMES // 2
    centre = None if flip_back else v.centre
    dealing = scene.state == "deal"
    held = ctrl.held()
    hover = ctrl.hover()
    flash_target = scene.flash[0] if scene.flash else None
    for board, seat in ((bottom, scene.bottom_seat), (top, 1 - scene.bottom_seat)):
        board.begin()
        lit = _step_cells(scene, seat)
        show_centre = v.phase is not Phase.MATCH_OVER
        if show_centre:
            r = CELL_RECTS[CENTRE]
            pal = _lit_palette(scene, CENTRE) if CENTRE in lit else art.SP_NORMAL
            if seat == scene.bottom_seat and (
                flash_target == Target(Zone.CELL, CENTRE)
                or (hover == Target(Zone.CELL, CENTRE) and ctrl.drag is not None)
            ):
                pal = art.SP_ILLEGAL
            board.show(CENTRE_SID, card_look(centre, r.x, r.y, pal))
        grid = v.grid if seat == scene.bottom_seat else v.opponent_grid
        for i, card in enumerate(grid):
            if card is None or i == CENTRE:
                continue
            r = CELL_RECTS[i]
            pal = art.SP_NORMAL
            if i in lit:
                pal = _lit_palette(scene, i)
            elif seat == scene.bottom_seat and v.phase.is_place:
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
            elif seat != scene.bottom_seat and v.phase.is_place:
                pal = art.SP_LOCKED
            board.show(card_sid(card.index), card_look(card, r.x, r.y, pal))
        hand: tuple[Card | None, ...]
        if seat == scene.bottom_seat:
            hand = hand_slots(v)
        else:
            known = {c for c in v.opponent_grid if c is not None}
            hand = tuple(None if c in known else c for c in v.opponent_dealt)
        for i, card in enumerate(hand):
            if card is None:  # placed: the other cards keep their slots
                continue
            r = HAND_RECTS[i]
            pal = art.SP_SELECTED if card == held else art.SP_NORMAL
            on_cursor = ctrl.cursor_visible and ctrl.cursor == Target(Zone.HAND, i)
            if seat == scene.bottom_seat and on_cursor and card != held:
                pal = art.SP_SCORED
            if seat != scene.bottom_seat and scene.opponent_decided(v):
                pal = art.SP_LOCKED
            if flash_target == Target(Zone.HAND, i) and seat == scene.bottom_seat:
                pal = art.SP_ILLEGAL
            sid = card_sid(card.index)
            start = DECK_XY if dealing and sid in scene.deal_from else None
            board.show(sid, card_look(card, r.x, r.y, pal), t=10 + 4 * i, start=start)
        if seat == scene.bottom_seat and ctrl.drag is not None and ctrl.drag.active:
            card = ctrl.drag.card
            x, y = ctrl.drag.card_xy
            board.show(
                card_sid(card.index),
                card_look(card, x, y, art.SP_SELECTED, draw.HELD_PRIO),
                t=0,
            )
        _stars(scene, board, seat)
        board.end()
    scene.deal_from = set() if not dealing else scene.deal_from


def _stars_shown(scene: MatchState, seat: int | None = None) -> bool:
    """A royal's stars twinkle (for ``seat``, or for either seat): the sprites move each frame."""
    if scene.state != "reveal" or not 0 <= scene.step_i < len(scene.steps):
        return False
    step = scene.steps[scene.step_i]
    return step.kind == "royal" and seat in (None, step.seat)


def _stars(scene: MatchState, board: SpriteBoard, seat: int) -> None:
    if not _stars_shown(scene, seat):
        return
    twinkle = (scene.timer // 6) % 2
    for k, (x, y) in enumerate(STAR_SPOTS):
        if k % 2 == twinkle:
            continue
        drift = (scene.timer // 2) % 8
        board.show(40 + k, draw.SpriteLook(art.STAR_CHR, art.SP_STAR, 0, x, y - drift, 16, 16), t=0)


def draw_top(scene: MatchState, app: App, v: PlayerView) -> None:
    """Opponent's grid slots, names, totals and the rounds table."""
    m = app.m
    draw.clear_text(m, TOP)
    opp = 1 - scene.bottom_seat
    names = scene.names(app)
    for rect in CELL_RECTS:
        draw.slot(m, TOP, rect)
    for rect in HAND_RECTS:
        draw.felt_at(m, TOP, rect)
    title = names[opp]
    if scene.mode == "cpu":
        title += " (" + app.t("level_" + scene.level) + ")"
    draw.text(m, TOP, 1, NAME_ROW, title, art.TEXT_YELLOW)
    round_of = app.t("round_of", n=v.round_number, rounds=v.config.rounds)
    draw.text(m, TOP, PANEL_COL, TOP_ROWS["round"], round_of, art.TEXT_WHITE)
    me = scene.bottom_seat
    totals, results = v.totals, v.results
    if scene.state == "reveal" and results:
        # Keep the suspense: this round counts once its scoring show is over.
        last = results[-1].points
        totals = (totals[0] - last[0], totals[1] - last[1])
        results = results[:-1]
    row = TOP_ROWS["totals"]
    draw.text(m, TOP, PANEL_COL, row, f"{names[me]:<8}{totals[me]:>4}", art.TEXT_CYAN)
    draw.text(m, TOP, PANEL_COL, row + 1, f"{names[opp]:<8}{totals[opp]:>4}", art.TEXT_PINK)
    # rounds so far, the latest TABLE_ROWS (all of a 5-round match): RND1  5  3
    for k, res in enumerate(results[-TABLE_ROWS:]):
        pts = res.points
        line = f"{app.t('rnd_short')}{res.number:<2}{pts[me]:>4}{pts[opp]:>4}"
        draw.text(m, TOP, PANEL_COL, TOP_ROWS["table"] + k, line, art.TEXT_GREY)
    if v.phase.is_place:
        decided = scene.opponent_decided(v)
        status = "OK!" if decided else app.t("waiting")
        draw.text(m, TOP, 1, 22, status, art.TEXT_YELLOW if decided else art.TEXT_GREY)
    if app.layout == "single":
        draw.text(m, TOP, 1, 23, app.t("swap_short"), art.TEXT_GREY)
    _reveal_text(scene, app, TOP, opp)
    draw_remote_code(scene, app)


def _reveal_text(scene: MatchState, app: App, screen: int, seat: int) -> None:
    step = _last_step(scene, seat)
    if step is None:
        return
    colour = {"royal": art.TEXT_YELLOW, "bust": art.TEXT_RED, "total": art.TEXT_GREEN}.get(
        step.kind, art.TEXT_WHITE
    )
    for k, line in enumerate(step.lines):
        draw.text(app.m, screen, 1, REVEAL_ROWS[k], line, colour)
    if step.kind != "total":
        who = scene.names(app)[seat]
        running = app.t("score_line", who=who, pts=step.running)
        draw.text(app.m, screen, PANEL_COL, TOP_ROWS["running"], running, art.TEXT_YELLOW)


def draw_bottom(scene: MatchState, app: App, v: PlayerView) -> None:
    """The own grid slots (with target/illegal colours), buttons and help text."""
    m = app.m
    draw.clear_text(m, BOTTOM)
    draw.clear_bg(m, BOTTOM, 0)
    ctrl = scene.ctrl[scene.bottom_seat]
    held = ctrl.held()
    hover = ctrl.hover()
    flash_target = scene.flash[0] if scene.flash else None
    for i, rect in enumerate(CELL_RECTS):
        pal = art.BG_FELT
        target = Target(Zone.CELL, i)
        if v.phase.is_place and held is not None and i in v.empty_cells:
            pal = art.BG_SLOT_TARGET
        if ctrl.cursor_visible and ctrl.cursor == target and v.phase.is_place:
            pal = art.BG_SLOT_CURSOR
        if (
            hover == target and ctrl.refusal(v, target, held) is not None
        ) or flash_target == target:
            pal = art.BG_SLOT_ILLEGAL
        draw.slot(m, BOTTOM, rect, pal)
    for rect in HAND_RECTS:
        draw.felt_at(m, BOTTOM, rect)
    names = scene.names(app)
    draw.text(m, BOTTOM, 1, NAME_ROW, names[scene.bottom_seat], art.TEXT_CYAN)
    if app.layout == "single":
        # under the hand: clear of the stars of a Royal Nine, the scoring show's prompt
        # (row 23) and a remote match's panel and buttons
        draw.text(m, BOTTOM, 1, 22, app.t("swap_short"), art.TEXT_GREY)
    if app.show_controls:
        draw.button(m, BOTTOM, BUTTON_RECTS[Zone.MENU], app.t("btn_menu"))
    placing = v.phase.is_place and not v.confirmed
    if placing or scene.state == "deal":
        half = app.t("half_1" if v.phase.half == 1 else "half_2")
        draw.text(m, BOTTOM, PANEL_COL, 3, half, art.TEXT_WHITE)
    if placing and app.show_controls:
        undo_pal = (
            art.BG_BUTTON if ctrl.order or any(c is not None for c in v.grid) else art.BG_BUTTON_OFF
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
        # The prompts follow what the player uses: the keys once the pad cursor is shown.
        keys = ctrl.cursor_visible
        if scene.message is not None:
            lines = message_lines(app, scene.message, keys=keys)
        else:
            if held is not None:
                lines = [(app.t("keys_selected" if keys else "help_selected"), art.TEXT_YELLOW)]
            elif not v.hand:
                lines = [
                    (app.t("help_confirm"), art.TEXT_YELLOW),
                    (app.t("keys_confirm2" if keys else "help_confirm2"), art.TEXT_YELLOW),
                    (app.t("help_confirm3"), art.TEXT_GREY),
                ]
            else:
                prefix = "keys_place" if keys else "help_place"
                lines = [(app.t(prefix + k), art.TEXT_WHITE) for k in ("", "2", "3")]
        for k, (line, colour) in enumerate(lines):
            draw.text(m, BOTTOM, PANEL_COL, MESSAGE_ROWS[k], line, colour)
    elif scene.state != "deal" and v.phase.is_place and scene.remote is None:
        draw.text(m, BOTTOM, PANEL_COL, MESSAGE_ROWS[0], app.t("waiting"), art.TEXT_GREY)
    draw_remote_panel(scene, app)
    if scene.state == "reveal" and scene.step_i < 0:
        draw.centred(m, BOTTOM, REVEAL_ROWS[0], app.t("reveal"), art.TEXT_YELLOW)
    _reveal_text(scene, app, BOTTOM, scene.bottom_seat)
    if scene.state == "round_over" and scene.next_menu is not None:
        res = scene.match.results[-1]
        me, opp = scene.bottom_seat, 1 - scene.bottom_seat
        draw.text(m, BOTTOM, PANEL_COL, 3, app.t("round_result", n=res.number), art.TEXT_YELLOW)
        draw.text(m, BOTTOM, PANEL_COL, 5, f"{names[me]:<8}{res.points[me]:>4}", art.TEXT_CYAN)
        draw.text(m, BOTTOM, PANEL_COL, 6, f"{names[opp]:<8}{res.points[opp]:>4}", art.TEXT_PINK)
        draw.text(m, BOTTOM, PANEL_COL, 8, app.t("total"), art.TEXT_GREY)
        draw.text(m, BOTTOM, PANEL_COL, 9, f"{names[me]:<8}{v.totals[me]:>4}", art.TEXT_CYAN)
        draw.text(m, BOTTOM, PANEL_COL, 10, f"{names[opp]:<8}{v.totals[opp]:>4}", art.TEXT_PINK)
        scene.next_menu.draw(app)
    elif scene.state == "reveal" and scene.step_i >= 0 and app.show_controls:
        draw.text(m, BOTTOM, 1, 23, app.t("tap_next"), art.TEXT_GREY)


def draw_handover(scene: MatchState, app: App) -> None:
    """Both screens blank but for the pass-the-machine message."""
    m = app.m
    assert scene.boards is not None
    for board in scene.boards:
        board.clear()
    for s in (TOP, BOTTOM):
        draw.reset_screen(m, s)
    who = scene.names(app)[scene.handover_to if scene.handover_to is not None else 0]
    draw.centred(m, TOP, 10, app.t("handover", who=who), art.TEXT_YELLOW)
    draw.centred(m, TOP, 12, app.t("handover2"), art.TEXT_WHITE)
    panel = HANDOVER_BOX  # two lines and the gap between, centred in the box
    inner = Rect(panel.x + 8, panel.y + 8, panel.w - 16, panel.h - 16)
    draw.box(m, BOTTOM, panel, art.BG_BUTTON)
    for row, text in ((10, app.t("handover", who=who)), (12, app.t("handover3"))):
        draw.centred(m, BOTTOM, row, text, art.TEXT_BLACK, left=5, width=22, box=inner)
