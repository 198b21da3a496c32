"""What a remote match adds to the match screen when things go wrong, kept apart from the
match flow: CLAIM once the opponent has left a code unanswered for the set wait
(``Settings.claim_after_s``), SHOW AGAIN after a damaged reply, the question asked before
the other player's claim is counted here, and the result screen of a match ended by a
claim.

The match screen calls :meth:`RemoteActions.frame` every frame and
:meth:`RemoteActions.draw` when it draws its bottom screen; all protocol
decisions are :class:`royalnine.remote.session.RemoteSession`'s.
"""

from __future__ import annotations

import time

from petitcom_shim.clipboard import ClipboardError
from royalnine import art
from royalnine.app import App, InputFrame, Scene
from royalnine.core.errors import IllegalMove
from royalnine.remote.files import record_claim, transcript_text
from royalnine.screens import draw, registry
from royalnine.screens.layout import BOTTOM, TOP, Rect
from royalnine.screens.menu import Menu, MenuItem, row
from royalnine.screens.remote import RemoteLink

CHECK_EVERY = 30  # frames between looks at the clock (a claim becomes possible at most once)
BUTTON_X, BUTTON_W, BUTTON_H = 136, 112, 24  # whole tiles: rows 18-20 and 21-23
BUTTON_YS = (144, 168)
DAMAGED_ROW = 15  # the headline under the CODES button (rows 12-14); the refusal follows
LABELS = {"claim": "remote_claim", "show": "remote_show_again"}


class RemoteActions:
    """The buttons a remote match may need besides placing cards, on the bottom-right panel."""

    def __init__(self, link: RemoteLink) -> None:
        self.link = link
        self.values: tuple[str, ...] = ()
        self.menu: Menu | None = None
        self._checked_at = -CHECK_EVERY
        self.claimable = False

    def wanted(self, app: App, *, clock: bool) -> tuple[str, ...]:
        """The buttons that apply now: a damaged code's remedy, and CLAIM after the wait
        (the clock is read only when ``clock``, else the last answer stands)."""
        out: list[str] = []
        if self.link.remedy is not None:
            out.append(self.link.remedy)
        if clock:
            self.claimable = self.link.session.can_claim(time.time(), app.settings.claim_after_s)
        if self.claimable:
            out.append("claim")
        return tuple(out)

    def update(self, app: App, *, now: bool = False) -> bool:
        """Recompute the buttons (the clock every few frames, or ``now``); True if changed."""
        clock = now or app.frames - self._checked_at >= CHECK_EVERY
        if clock:
            self._checked_at = app.frames
        values = self.wanted(app, clock=clock)
        if values == self.values:
            return False
        self.values = values
        items = [
            MenuItem(v, app.t(LABELS[v]), Rect(BUTTON_X, y, BUTTON_W, BUTTON_H))
            for v, y in zip(values, BUTTON_YS, strict=False)
        ]
        self.menu = Menu(items) if items else None
        return True

    def frame(self, app: App, inp: InputFrame) -> tuple[Scene | None, bool]:
        """Handle a press; returns (the next scene or None, whether to redraw)."""
        changed = self.update(app)
        if self.menu is None:
            return None, changed
        choice = self.menu.handle(app, inp)
        if choice is None:
            return None, changed or self.menu.pressed is not None
        return self.act(app, choice), True

    def act(self, app: App, choice: str) -> Scene | None:
        """Do what a button says."""
        link = self.link
        if choice == "show":
            link.show_again()
            app.beep("confirm")
        elif choice == "claim":
            try:
                link.session.claim(time.time(), app.settings.claim_after_s)
            except IllegalMove as exc:  # the reply came in meanwhile
                link.error = str(exc)
                app.beep("invalid")
                self.update(app, now=True)
                return None
            return claim_result(app, link)
        self.update(app, now=True)
        return None

    def draw(self, app: App) -> None:
        """Draw the buttons (the match screen calls this with its bottom screen), under a
        headline when a code was damaged."""
        if self.link.remedy is not None:
            row = DAMAGED_ROW
            draw.text(app.m, BOTTOM, BUTTON_X // 8, row, app.t("remote_damaged"), art.TEXT_YELLOW)
        if self.menu is not None:
            self.menu.draw(app)


def claim_result(app: App, link: RemoteLink) -> Scene:
    """Record a claimed match (statistics, transcript) and show its result."""
    app.store("remote", lambda: record_claim(app.storage, link.session))
    app.beep("win")
    return ForfeitScene(link, won=True)


class ForfeitScene:
    """The end of a match that was claimed: won (or lost) by forfeit, the score so far."""

    def __init__(self, link: RemoteLink, *, won: bool) -> None:
        self.link = link
        self.won = won
        self.menu: Menu | None = None

    def enter(self, app: App) -> None:
        """Draw the result once."""
        m = app.m
        draw.reset_screens(m)
        session = self.link.session
        me = session.seat
        totals = session.view().totals
        headline = app.t("forfeit_won" if self.won else "forfeit_lost")
        draw.centred(m, TOP, 1, app.t("match_result"), art.TEXT_YELLOW)
        draw.centred(m, TOP, 5, headline, art.TEXT_WHITE)
        why = "forfeit_why" if self.won else "forfeit_why_lost"
        draw.centred(m, TOP, 7, app.t(why), art.TEXT_GREY)
        draw.centred(m, TOP, 10, f"{app.t('you'):<8}{totals[me]:>4}", art.TEXT_CYAN)
        draw.centred(m, TOP, 11, f"{app.t('rival'):<8}{totals[1 - me]:>4}", art.TEXT_PINK)
        draw.centred(m, BOTTOM, 3, app.t("forfeit_file"), art.TEXT_GREY)
        draw.centred(m, BOTTOM, 4, f"{session.label}/transcript.txt", art.TEXT_WHITE)
        buttons = [("title", app.t("to_title"))]
        if self.won:  # the other device learns of the claim from this transcript
            draw.centred(m, BOTTOM, 6, app.t("forfeit_send"), art.TEXT_CYAN)
            buttons.insert(0, ("copy", app.t("remote_copy")))
        self.menu = Menu(row(buttons, y=160, width=112))
        self.menu.draw(app)

    def copy(self, app: App) -> None:
        """Put the transcript (with its claim note) on the clipboard, to send to the other
        player: pasted in their game, or given to ``royalnine remote read``, it tells their
        device that it lost by forfeit."""
        try:
            app.m.clipboard.put_text(transcript_text(self.link.session))
        except ClipboardError as exc:
            said, colour = str(exc), art.TEXT_RED
        else:
            said, colour = app.t("remote_copied"), art.TEXT_GREEN
        for k, line in enumerate(draw.fold(said, 30, 2)):  # a row apart: voicing marks
            draw.erase(app.m, BOTTOM, 1, 8 + 2 * k, 30)
            draw.centred(app.m, BOTTOM, 8 + 2 * k, line, colour)

    def frame(self, app: App, inp: InputFrame) -> Scene | None:
        """Back to the title; COPY (or Ctrl+C) copies the transcript of a claimed match."""
        assert self.menu is not None
        choice = self.menu.handle(app, inp)
        if choice == "title":
            return registry.make("title")
        if choice == "copy" or (self.won and "copy" in inp.edit):
            self.copy(app)
        self.menu.draw(app)
        return None


def held_text(seconds: float) -> str:
    """How long a code was held, short: "40 min", "5 h 10 min", "3 d 4 h" (11 cells at most)."""
    minutes = int(seconds // 60)
    hours, days = minutes // 60, min(9999, minutes // (60 * 24))
    if hours >= 48:
        return f"{days} d {hours % 24} h"
    if hours:
        return f"{hours} h {minutes % 60} min"
    return f"{minutes} min"


class ClaimScene:
    """The other player's claim holds here: say what it means, and count it only if the
    player accepts (a forfeit loss, then the result). NOT NOW goes back and changes
    nothing: the code can still be answered, though the claimer's device has ended the
    match."""

    def __init__(self, link: RemoteLink, back: Scene) -> None:
        self.link = link
        self.back = back
        self.menu: Menu | None = None

    def enter(self, app: App) -> None:
        """Draw the question once."""
        m = app.m
        draw.reset_screens(m)
        here = self.link.pending_claim
        session = self.link.session
        held = None if here is None else session.unanswered_for(time.time())
        draw.centred(m, TOP, 1, app.t("claim_q_title"), art.TEXT_YELLOW)
        draw.centred(m, TOP, 5, app.t("claim_q_move", n=len(session.transcript)), art.TEXT_WHITE)
        draw.centred(m, TOP, 7, held_text(held or 0.0), art.TEXT_CYAN)
        draw.centred(m, TOP, 9, app.t("claim_q_clock"), art.TEXT_GREY)
        draw.centred(m, TOP, 13, app.t("claim_q_accept"), art.TEXT_WHITE)
        draw.centred(m, TOP, 15, app.t("claim_q_later"), art.TEXT_WHITE)
        draw.centred(m, BOTTOM, 3, app.t("claim_q_sure"), art.TEXT_YELLOW)
        buttons = [("concede", app.t("claim_accept")), ("later", app.t("claim_later"))]
        self.menu = Menu(row(buttons, y=160, width=112))
        self.menu.draw(app)

    def frame(self, app: App, inp: InputFrame) -> Scene | None:
        """ACCEPT LOSS counts the claim (then the result); NOT NOW (or B) goes back."""
        assert self.menu is not None
        choice = self.menu.handle(app, inp)
        if choice is None and ("b" in inp.keys or "select" in inp.keys):
            choice = "later"
        if choice == "concede":
            app.store("remote", self.link.concede)
            app.beep("confirm")
            if self.link.claimed_against is not None:
                return ForfeitScene(self.link, won=False)
            return self.back
        if choice == "later":
            self.link.pending_claim = None
            self.link.error = None
            app.beep("select")
            return self.back
        self.menu.draw(app)
        return None
