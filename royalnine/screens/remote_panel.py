"""The remote part of the match screen: codes arriving every frame, and the side panel.

Kept out of the match screen's module so that screen only calls two functions:
:func:`remote_frame` once a frame (codes arrive from dropped images, the inbox,
Ctrl+V and the camera, read off the frame loop; Ctrl+C copies the code shown; the
CODES button opens the exchange screen) and :func:`draw_remote_panel` when the
bottom screen is drawn.
"""

from __future__ import annotations

import weakref
from typing import Protocol

from royalnine import art
from royalnine.app import App, InputFrame, Scene
from royalnine.screens import draw
from royalnine.screens.layout import BOTTOM, PANEL_COL, Rect
from royalnine.screens.remote import RemoteLink
from royalnine.screens.remote_io import copy_code, intake_of

CODES_RECT = Rect(144, 80, 104, 24)
"""The CODES button, under the panel text while this device waits for a reply."""
READING_ROW = 13
ERROR_ROW, ERROR_ROWS = 14, 4
WAIT_STATES = ("wait", "remote_wait")


class RemoteMatchScreen(Protocol):
    """What these functions need of the match screen (a scene to come back to)."""

    remote: RemoteLink | None
    state: str
    dirty: bool

    def enter(self, app: App) -> None:
        """Draw the scene from scratch."""

    def frame(self, app: App, inp: InputFrame) -> Scene | None:
        """Advance one frame."""


class _PanelState:
    """Per-screen memory: whether "reading..." is shown, where the stylus went down."""

    def __init__(self) -> None:
        self.busy = False
        self.codes_down = False
        self.notice: str | None = None


_STATES: weakref.WeakKeyDictionary[object, _PanelState] = weakref.WeakKeyDictionary()


def _state(scene: RemoteMatchScreen) -> _PanelState:
    memo = _STATES.get(scene)
    if memo is None:
        memo = _STATES[scene] = _PanelState()
    return memo


def remote_frame(app: App, scene: RemoteMatchScreen, inp: InputFrame) -> Scene | None:
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
            from royalnine.screens.exchange import ExchangeScene

            app.beep("select")
            return ExchangeScene(link, back=scene)
    if "copy" in inp.edit:
        shown = link.showing()
        if shown is not None:
            memo.notice = copy_code(app, shown[1])
            scene.dirty = True
    arrivals = intake.poll(app, inp)
    if arrivals:
        before = len(link.session.transcript)
        link.accept(arrivals)
        app.beep("confirm" if len(link.session.transcript) > before else "invalid")
        memo.notice = None
        scene.dirty = True
    if intake.busy != memo.busy:
        memo.busy = intake.busy
        scene.dirty = True
    return None


def draw_remote_panel(app: App, scene: RemoteMatchScreen) -> None:
    """The side panel of a remote match: the code to send, how to answer, the CODES
    button, "reading..." and the last refusal."""
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
        draw.text(m, BOTTOM, PANEL_COL, 6, app.t("remote_reply"), art.TEXT_WHITE)
        draw.text(m, BOTTOM, PANEL_COL, 7, app.t("remote_reply2"), art.TEXT_WHITE)
        draw.text(m, BOTTOM, PANEL_COL, 8, app.t("remote_reply3"), art.TEXT_WHITE)
        draw.button(m, BOTTOM, CODES_RECT, app.t("remote_codes"))
    if memo.busy:
        draw.text(m, BOTTOM, PANEL_COL, READING_ROW, app.t("remote_reading")[:15], art.TEXT_YELLOW)
    if link.error:
        for k, line in enumerate(draw.fold(link.error, 15, ERROR_ROWS)):
            draw.text(m, BOTTOM, PANEL_COL, ERROR_ROW + k, line, art.TEXT_RED)
    elif memo.notice:
        for k, line in enumerate(draw.fold(memo.notice, 15, ERROR_ROWS)):
            draw.text(m, BOTTOM, PANEL_COL, ERROR_ROW + k, line, art.TEXT_GREEN)
