"""The remote-linking part of the match screen: codes read in, the code to send shown.

A remote match (mode ``"remote"``) has a :class:`~royalnine.screens.remote.RemoteLink`
as both its dealer and its opponent; this module feeds it the codes dropped on
the window or found in the inbox, and draws the code this device must send
(top screen's GRP page) and the reply instructions (bottom screen).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from royalnine import art
from royalnine.app import App, InputFrame
from royalnine.i18n import cells
from royalnine.screens import draw
from royalnine.screens.layout import BOTTOM, PANEL_COL, PANEL_WIDTH, TOP
from royalnine.screens.remote import draw_code, take_inbox

if TYPE_CHECKING:
    from royalnine.screens.match import MatchScene

CODE_PX = 98  # a remote code in the top screen's corner: 2 px a module up to QR version 6


def read_codes(scene: MatchScene, app: App, inp: InputFrame) -> None:
    """Give the remote link the codes dropped on the window or waiting in the inbox."""
    if scene.remote is None:
        return
    dropped = inp.dropped + take_inbox(app.storage, app.frames)
    if dropped:
        scene.remote.read(dropped)
        app.beep("invalid" if scene.remote.error else "confirm")
        scene.dirty = True


def draw_remote_code(scene: MatchScene, app: App) -> None:
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


def draw_remote_panel(scene: MatchScene, app: App) -> None:
    """The bottom screen's remote lines: which code to send, how to reply, a bad code's error."""
    m = app.m
    if scene.remote is not None and scene.state in ("wait", "remote_wait"):
        shown = scene.remote.showing()
        if shown is not None:
            file = scene.remote.code_path(shown[0]).name
            draw.text(m, BOTTOM, PANEL_COL, 3, app.t("remote_send", n=shown[0]), art.TEXT_YELLOW)
            draw.text(m, BOTTOM, PANEL_COL, 5, app.t("remote_file"), art.TEXT_GREY)
            draw.text(m, BOTTOM, PANEL_COL, 6, file, art.TEXT_GREY)
        for row, key in ((8, "remote_reply"), (10, "remote_reply2"), (12, "remote_reply3")):
            draw.text(m, BOTTOM, PANEL_COL, row, app.t(key), art.TEXT_WHITE)
    if scene.remote is not None and scene.remote.error:
        for k, line in enumerate(draw.fold(scene.remote.error, PANEL_WIDTH, 4)):
            draw.text(m, BOTTOM, PANEL_COL, 14 + k, line, art.TEXT_RED)
    if scene.remote_actions is not None:
        scene.remote_actions.draw(app)
