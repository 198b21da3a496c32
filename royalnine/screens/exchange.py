"""The code exchange screen: everything needed to send a code and to get the reply.

Top screen: how to send it (one line), then the code to send as a QR code, with the
same code as text under it (or the camera's live picture while scanning). Bottom
screen: the data folder on its own lines (a very long one with its middle cut), then
where in it the codes
are saved and where the opponent's codes can be put (the inbox), what is
happening ("reading...", a refusal, a notice: never pushed away by a long path),
and the buttons COPY (the code as text), PASTE (a text code), SCAN (the camera),
OPEN FOLDER / OPEN INBOX (the desktop's file manager, which shows the whole path)
and BACK. Text keeps to columns 1-30.

It is the lobby of a new match (host: code 1 is shown; guest: waiting for the
host's code 1), and the match screen's CODES button opens it during a match.
"""

from __future__ import annotations

import os
from pathlib import Path

from petitcom_shim.camera import preview_indices
from petitcom_shim.qr import screen_layout
from royalnine import art
from royalnine.app import App, InputFrame, Scene
from royalnine.remote.codec import BadCode
from royalnine.remote.files import INBOX_DIR, REMOTE_DIR, join_session
from royalnine.remote.textcode import text_lines, to_text
from royalnine.screens import draw, registry
from royalnine.screens.layout import BOTTOM, TOP, Rect
from royalnine.screens.menu import Menu, MenuItem
from royalnine.screens.remote import RemoteLink, draw_code, folder_lines, remote_match_scene
from royalnine.screens.remote_actions import ClaimScene
from royalnine.screens.remote_io import (
    Arrival,
    FolderOpener,
    copy_code,
    intake_of,
)

PREVIEW_FIRST, PREVIEW_LEVELS = 200, 16  # GRP colours 200-215: the camera's greys
PREVIEW_RECT = Rect(0, 0, 256, 184)  # the camera picture: above the "show the code" line
BUTTON_H = 24
LEFT, RIGHT = 1, 31  # text columns 1-30: one cell of margin on both sides
STATUS_ROWS = (10, 11, 12, 13, 14)
"""The status lines (reading..., a refusal, a notice, or else how else a code comes in):
three lines of text, a row apart where a Japanese voicing mark would run into the line
above."""
STATUS_LINES = 3
HOW_SEND_PX = 16  # the top screen's row 1 says how to send the code shown under it
TITLE_ROW = 1  # not row 0: the font's ink starts at a cell's top row and would touch the edge
_OPENER = FolderOpener()


def exchange_buttons(app: App, *, can_copy: bool, scanning: bool) -> list[MenuItem]:
    """COPY PASTE SCAN, then OPEN FOLDER OPEN INBOX, then BACK (rows 15-23, on the tile grid)."""
    places = [
        ("copy", "remote_copy", Rect(8, 120, 72, BUTTON_H)),
        ("paste", "remote_paste", Rect(88, 120, 80, BUTTON_H)),
        ("scan", "remote_stop" if scanning else "remote_scan", Rect(176, 120, 72, BUTTON_H)),
        ("open_codes", "remote_open_codes", Rect(8, 144, 112, BUTTON_H)),
        ("open_inbox", "remote_open_inbox", Rect(136, 144, 112, BUTTON_H)),
        ("back", "menu_back", Rect(88, 168, 80, BUTTON_H)),
    ]
    items = [MenuItem(value, app.t(key), rect) for value, key, rect in places]
    items[0].enabled = can_copy
    return items


def home_lines(path: Path, width: int = 30, rows: int = 2) -> list[str]:
    """The data folder in at most ``rows`` lines: folded after separators, and when it is
    longer still, its start and its end with ``…`` where the middle was cut (OPEN
    FOLDER shows the rest; ``..`` read as the parent folder). The end starts at a
    separator, so no folder name is cut in two (unless one name alone is longer than a
    line)."""
    lines = folder_lines(path, width, rows=99)
    if len(lines) <= rows:
        return lines
    text = str(path)
    tail = text[-(width - 1) :]
    starts = [k for k, ch in enumerate(tail) if ch in (os.sep, "/")]
    if starts:
        tail = tail[starts[0] :]
    return [*lines[: rows - 1], "…" + tail]


def no_opener(app: App, folder: Path) -> str:
    """A folder could not be shown (no file manager): say where it is, as the lines
    above show the data folder, instead of the system's error."""
    try:
        where = folder.relative_to(app.storage.home).as_posix() + "/"
    except ValueError:
        where = str(folder)
    return app.t("remote_no_opener", where=where)


@registry.provides("exchange")
class ExchangeScene:
    """Send this device's code and take the opponent's.

    Args:
        link: the match (None for a guest who has not read the host's code 1 yet).
        back: the scene BACK returns to, and the one a code accepted mid-match
            returns to; None = this is the lobby of a new match (BACK goes to the
            remote menu, and the match screen opens once both first codes are done).
    """

    def __init__(self, link: RemoteLink | None, back: Scene | None = None) -> None:
        self.link = link
        self.back = back
        self.menu: Menu | None = None
        self.notice: str | None = None
        self.notice_colour = art.TEXT_GREEN
        self._busy = False
        self._picture: object | None = None

    # -- drawing --

    def shown_code(self) -> tuple[int, bytes] | None:
        """The code this device is showing, if any."""
        return None if self.link is None else self.link.showing()

    def enter(self, app: App) -> None:
        """Draw both screens."""
        draw.reset_screens(app.m)
        self._picture = None
        if self.link is not None and self.shown_code() is not None:
            app.store("remote", self.link.mark_shown)  # shown to send: the claim wait restarts
        self.redraw(app)

    def redraw(self, app: App) -> None:
        """Draw everything again (after a code, a button or a notice)."""
        m = app.m
        for s in (TOP, BOTTOM):
            draw.reset_screen(m, s)
        intake = intake_of(app)
        self.draw_top(app)
        shown = self.shown_code()
        if shown is not None:
            title = app.t("remote_send", n=shown[0])
        elif self.link is None:
            title = app.t("remote_join_wait")
        else:
            title = app.t("remote_wait_code", n=len(self.link.session.transcript) + 1)
        draw.text(m, BOTTOM, LEFT, TITLE_ROW, title, art.TEXT_YELLOW)
        if self.link is not None:
            label = self.link.session.label
            draw.text(m, BOTTOM, RIGHT - len(label), TITLE_ROW, label, art.TEXT_GREY)
        home = app.storage.home
        folder = self.link.folder if self.link is not None else home / REMOTE_DIR
        # the data folder on its own lines, then each folder within it: a long home path
        # never pushes the status lines off the screen
        # (a row below the title: a Japanese voicing mark would run into it)
        draw.text(m, BOTTOM, LEFT, 3, app.t("remote_data_folder"), art.TEXT_GREY)
        for k, line in enumerate(home_lines(home)):
            draw.text(m, BOTTOM, LEFT, 4 + k, line, art.TEXT_WHITE)
        # a blank row between the groups (the data folder; the two folders in it; the
        # status): lines packed at an 8-pixel pitch read as one block
        for row, key, path in (
            (7, "remote_saved_in", folder),
            (8, "remote_inbox_in", home / INBOX_DIR),
        ):
            draw.text(m, BOTTOM, LEFT, row, app.t(key), art.TEXT_GREY)
            inside = path.relative_to(home).as_posix() + "/"
            inside = inside if len(inside) <= 16 else ".." + inside[-14:]
            draw.text(m, BOTTOM, RIGHT - len(inside), row, inside, art.TEXT_WHITE)
        if app.layout == "single":  # the code and how to send it are on the other screen
            hint = app.t("swap_short")
            draw.text(m, BOTTOM, RIGHT - len(hint), 2, hint, art.TEXT_GREY)
        self.draw_status(app)
        self.menu = Menu(
            exchange_buttons(app, can_copy=shown is not None, scanning=intake.scanning)
        )
        self.menu.draw(app)

    def draw_top(self, app: App) -> None:
        """The code and its text, or the camera picture while scanning."""
        m = app.m
        intake = intake_of(app)
        draw.clear_grp(m, TOP)
        self._picture = None  # the camera picture is drawn again
        if intake.scanner is not None:
            draw.centred(m, TOP, 23, app.t("remote_scanning"), art.TEXT_YELLOW)
            draw.picture(TOP, PREVIEW_RECT)
            self.draw_preview(app)
            return
        shown = self.shown_code()
        if shown is None:
            draw.centred(m, TOP, 8, app.t("remote_join_wait" if self.link is None else "waiting"))
            return
        # how to send it, for someone who has never done it: one line above the code
        draw.centred(m, TOP, HOW_SEND_PX // 8 - 1, app.t("remote_how_send"), art.TEXT_CYAN)
        lines = text_lines(to_text(shown[1]), RIGHT - LEFT)
        space = 192 - 8 * len(lines) - 4 - HOW_SEND_PX
        size = screen_layout(shown[1], space, space)[1]
        top = HOW_SEND_PX + (space - size) // 2
        draw_code(app, TOP, shown[1], None, top, max_size=space)
        for k, line in enumerate(lines):
            draw.text(m, TOP, (32 - len(lines[0])) // 2, 24 - len(lines) + k, line, art.TEXT_WHITE)

    def draw_preview(self, app: App) -> None:
        """The newest camera picture on the top screen's GRP page, in greys."""
        scanner = intake_of(app).scanner
        picture = None if scanner is None else scanner.camera.picture
        if picture is None or picture is self._picture:
            return
        self._picture = picture
        m = app.m
        for k in range(PREVIEW_LEVELS):
            level = k * 255 // (PREVIEW_LEVELS - 1)
            m.colset("GRP", PREVIEW_FIRST + k, f"{level:02X}{level:02X}{level:02X}")
        m.gpage(TOP)
        m.gprio(1)
        size = (PREVIEW_RECT.w, PREVIEW_RECT.h)
        m.gload(0, 0, preview_indices(picture, size, PREVIEW_FIRST, PREVIEW_LEVELS))

    def draw_status(self, app: App) -> None:
        """Reading..., the last refusal, or a notice; three lines above the buttons."""
        m = app.m
        for row in STATUS_ROWS:
            draw.erase(m, BOTTOM, LEFT, row, RIGHT - LEFT)
        error = self.link.error if self.link is not None else None
        lines: list[str] = []
        colour = self.notice_colour
        if intake_of(app).busy:
            lines, colour = [app.t("remote_reading")], art.TEXT_YELLOW
        elif error:
            lines, colour = draw.fold(error, RIGHT - LEFT, STATUS_LINES), art.TEXT_RED
        elif self.notice:
            lines = draw.fold(self.notice, RIGHT - LEFT, STATUS_LINES)
        else:  # nothing to say: how else a code comes in (it had a row of its own, which
            # the title's move off the screen's top row took)
            lines, colour = [app.t("remote_or_drop")], art.TEXT_GREY
        first, last = STATUS_ROWS[0], STATUS_ROWS[-1]
        draw.paragraph(m, BOTTOM, LEFT, first, lines, colour, last_row=last)

    def say(self, app: App, text: str, colour: int = art.TEXT_GREEN) -> None:
        """Show a one-line notice (folded) in the status lines."""
        self.notice, self.notice_colour = text, colour
        if self.link is not None:
            self.link.error = None
        self.draw_status(app)

    # -- input --

    def frame(self, app: App, inp: InputFrame) -> Scene | None:
        """Buttons, shortcuts, and whatever arrives; leaves once the code exchange moved on."""
        assert self.menu is not None
        intake = intake_of(app)
        choice = self.menu.handle(app, inp)
        if "copy" in inp.edit:
            choice = "copy"
        if choice is None and ("b" in inp.keys or "select" in inp.keys):  # B or Esc: back
            choice = "back"
        if choice is not None:
            nxt = self.choose(app, choice)
            if nxt is not None:
                return nxt
        for failed in _OPENER.poll():
            self.say(app, no_opener(app, failed), art.TEXT_RED)
        arrivals = intake.poll(app, inp, None if self.link is None else self.link.session.match_id)
        if arrivals:
            nxt = self.take(app, arrivals)
            if nxt is not None:
                return nxt
        if intake.busy != self._busy:
            self._busy = intake.busy
            self.draw_status(app)
        if intake.scanner is not None:
            self.draw_preview(app)
        return None

    def choose(self, app: App, choice: str) -> Scene | None:
        """Act on a button."""
        intake = intake_of(app)
        shown = self.shown_code()
        if choice == "back":
            intake.stop_scan()
            if self.back is not None:
                return self.back
            return registry.make("remote_list")
        if choice == "copy":
            if shown is None:
                app.beep("invalid")
            else:
                self.say(app, copy_code(app, shown[1]))
                if self.link is not None:
                    app.store("remote", self.link.mark_shown)
        elif choice == "paste":
            intake.paste(app)
            pasted = intake.paster.results()  # read at once; a long paste comes from poll
            if pasted:
                return self.take(app, pasted)
        elif choice == "scan":
            if intake.scanning:
                intake.stop_scan()
                self.notice = None
            else:
                failure = intake.start_scan()
                if failure is not None:
                    self.notice = app.t("remote_no_camera", msg=failure)
                    self.notice_colour = art.TEXT_RED
            self._picture = None
            self.redraw(app)
        elif choice in ("open_codes", "open_inbox"):
            if choice == "open_inbox":
                folder = app.storage.home / INBOX_DIR
            else:
                folder = self.link.folder if self.link else app.storage.home / REMOTE_DIR
            if _OPENER.open(folder):
                self.say(app, app.t("remote_opened"))
            else:
                self.say(app, no_opener(app, folder), art.TEXT_RED)
        return None

    def take(self, app: App, arrivals: list[Arrival]) -> Scene | None:
        """Codes that arrived: join, or pass them to the match; move on when accepted."""
        accepted = False
        if self.link is None:
            self.link = self.join(app, arrivals)
            accepted = self.link is not None
        else:
            accepted = self.link.accept(arrivals, app.settings.claim_after_s)
            if self.link.pending_claim is not None:  # the other player's claim holds: ask
                intake_of(app).stop_scan()
                back = self.back if self.back is not None else remote_match_scene(self.link)
                return ClaimScene(self.link, back=back)
        app.beep("confirm" if accepted else "invalid")
        if accepted and self.link is not None:
            self.notice = None
            if self.back is not None:
                intake_of(app).stop_scan()
                return self.back
            if len(self.link.session.transcript) >= 2:
                intake_of(app).stop_scan()
                return remote_match_scene(self.link)
        self.redraw(app)
        return None

    def join(self, app: App, arrivals: list[Arrival]) -> RemoteLink | None:
        """Join with the host's first code (the first readable one that arrived)."""
        for arrival in arrivals:
            if arrival.transcript is not None:
                why = "a transcript, not a code 1: open its match to read it"
                self.say(app, f"{arrival.source}: {why}", art.TEXT_RED)
                continue
            if arrival.code is None:
                self.say(app, arrival.error or "", art.TEXT_RED)
                continue
            try:
                session = join_session(app.storage.home, arrival.code)
            except BadCode as exc:
                self.say(app, f"{arrival.source}: {exc}", art.TEXT_RED)
                continue
            link = RemoteLink(session, app.storage)
            link.pump()
            return link
        return None
