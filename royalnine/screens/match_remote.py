"""The remote-linking part of the match screen: codes read in, the code to send shown.

A remote match (mode ``"remote"``) has a :class:`~royalnine.screens.remote.RemoteLink`
as both its dealer and its opponent. Once a frame, :func:`remote_frame` feeds it
the codes that arrive (dropped images, the inbox, Ctrl+V and the camera, read
off the frame loop), copies the code shown on Ctrl+C, and opens the exchange
screen from the CODES button; the drawing functions show the code this device
must send (top screen's GRP page) and the side panel (bottom screen).
"""

from __future__ import annotations

import weakref
from typing import cast

from royalnine import art
from royalnine.app import App, InputFrame, Scene
from royalnine.i18n import cells
from royalnine.screens import draw, registry
from royalnine.screens.layout import BOTTOM, PANEL_COL, PANEL_WIDTH, TOP, Rect
from royalnine.screens.match_state import MatchState
from royalnine.screens.remote import draw_code
from royalnine.screens.remote_actions import ClaimScene
from royalnine.screens.remote_io import copy_code, intake_of

CODE_PX = 98  # a remote code in the top screen's corner: 2 px a module up to QR version 6


CODES_RECT = Rect(144, 96, 104, 24)
"""The CODES button, under the panel text while this device waits for a reply."""
READING_ROW = 11
ERROR_ROW = 15  # rows 15-17, or 16-17 under "CODE DAMAGED!" (row 15)
ERROR_LAST = 17  # the last row free above the claim/recovery buttons (rows 18-23)
WAIT_STATES = ("wait", "remote_wait")


class _PanelState:
    """Per-screen memory: whether "reading..." is shown, where the stylus went down."""

    def __init__(self) -> None:
        self.busy = False
        self.codes_down = False
        self.notice: str | None = None


_STATES: weakref.WeakKeyDictionary[object, _PanelState] = weakref.WeakKeyDictionary()


def _state(scene: MatchState) -> _PanelState:
    memo = _STATES.get(scene)
    if memo is None:
        memo = _STATES[scene] = _PanelState()
    return memo


def remote_frame(app: App, scene: MatchState, inp: InputFrame) -> Scene | None:
    """One frame of the remote side of a match screen; the exchange screen if CODES
    was tapped, else None."""
    link = scene.remote
    if link is None:
        return None
    memo = _state(scene)
    intake = intake_of(app)
    waiting = scene.state in WAIT_STATES
    if inp.touch_down is not None:
        memo.codes_down = waiting and CODES_RECT.contains(*inp.touch_down)
    if inp.touch_up is not None and memo.codes_down:
        memo.codes_down = False
        if waiting and CODES_RECT.contains(*inp.touch_up):
            app.beep("select")
            return registry.make("exchange", link, back=scene)
    if "copy" in inp.edit:
        shown = link.showing()
        if shown is not None:
            memo.notice = copy_code(app, shown[1])
            app.store("remote", link.mark_shown)  # copied to send: the claim wait restarts
            scene.dirty = True
    arrivals = intake.poll(app, inp, link.session.match_id)
    if arrivals:
        app.beep("confirm" if link.accept(arrivals, app.settings.claim_after_s) else "invalid")
        memo.notice = None
        scene.dirty = True
        if link.pending_claim is not None:  # the other player's claim holds: ask first
            return ClaimScene(link, back=cast(Scene, scene))  # scene is the MatchScene
    if intake.busy != memo.busy:
        memo.busy = intake.busy
        scene.dirty = True
    return None


def draw_remote_code(scene: MatchState, app: App) -> None:
    """While this device waits for a reply, its last code on the top screen's GRP page."""
    if scene.remote is None:
        return
    m = app.m
    shown = scene.remote.showing()
    if scene.state not in ("wait", "remote_wait"):
        shown = None
    wanted = None if shown is None else shown[1]
    if wanted != scene._code_drawn:  # the GRP page changes only when the code does
        if wanted is None:
            draw.clear_grp(m, TOP)
        else:
            draw_code(app, TOP, wanted, 256 - CODE_PX, 192 - CODE_PX, max_size=CODE_PX)
        scene._code_drawn = wanted
    if shown is not None:  # the caption under the code (the code's border is white)
        caption = app.t("remote_send", n=shown[0])
        draw.text(m, TOP, 31 - cells(caption), 23, caption, art.TEXT_YELLOW)


def draw_remote_panel(scene: MatchState, app: App) -> None:
    """The bottom screen's remote lines: which code to send and its file, how to reply,
    the CODES button, "reading...", the last refusal, and the claim/recovery buttons."""
    link = scene.remote
    if link is None:
        return
    m = app.m
    memo = _state(scene)
    if scene.state in WAIT_STATES:
        shown = link.showing()
        if shown is not None:
            draw.text(m, BOTTOM, PANEL_COL, 3, app.t("remote_send", n=shown[0]), art.TEXT_YELLOW)
            draw.text(m, BOTTOM, PANEL_COL, 4, link.code_path(shown[0]).name, art.TEXT_GREY)
        for row, key in ((6, "remote_reply"), (8, "remote_reply2"), (10, "remote_reply3")):
            draw.text(m, BOTTOM, PANEL_COL, row, app.t(key), art.TEXT_WHITE)
        draw.button(m, BOTTOM, CODES_RECT, app.t("remote_codes"))
    if memo.busy:
        draw.text(m, BOTTOM, PANEL_COL, READING_ROW, app.t("remote_reading"), art.TEXT_YELLOW)
    first = ERROR_ROW + (link.remedy is not None)  # under "CODE DAMAGED!" if shown
    message, colour = (link.error, art.TEXT_RED) if link.error else (memo.notice, art.TEXT_GREEN)
    if message:
        lines = draw.fold(message, PANEL_WIDTH, ERROR_LAST + 1 - first)
        draw.paragraph(m, BOTTOM, PANEL_COL, first, lines, colour, last_row=ERROR_LAST)
    if scene.remote_actions is not None:
        scene.remote_actions.draw(app)
