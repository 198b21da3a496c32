"""Remote matches by QR code on the screens: the link between a match screen and a
:class:`royalnine.remote.RemoteSession`, where each match is saved, and drawing a code.

Each code this device must send is shown on the top screen's GRP page (as the
2013 program showed its QR codes), written as a PNG under
``HOME/remote/<MATCH>/move-NN.png`` to send through any messenger, and can be
copied as text. The opponent's codes arrive through
:mod:`royalnine.screens.remote_io` (dropped images, the inbox folder, pasted text,
the camera). Every match in progress is saved atomically after every code, in
``HOME/remote/<MATCH>/session.json``, so several can run at once
(:func:`list_matches`); a file holds this device's secret and the codes seen,
never anything the rules hide from this player.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from royalnine.app import App, InputFrame, Scene
from royalnine.core import (
    HAND_SIZE,
    Action,
    Deal,
    Match,
    MatchConfig,
    PlayerView,
    placement_actions,
)
from royalnine.core.errors import IllegalMove
from royalnine.core.files import write_atomic
from royalnine.remote.codec import BadCode, decode
from royalnine.remote.files import (
    CURRENT_FILE,
    REMOTE_DIR,
    SESSION_FILE,
    TRANSCRIPT_FILE,
    ClaimHere,
    claim_here,
    code_path,
    count_claim,
    host_session,
    judge_forfeit,
    load_session,
    match_folder,
    migrate_current,
    read_session,
    save_session,
    session_path,
)
from royalnine.remote.session import Broken, RemoteSession
from royalnine.screens import draw, registry
from royalnine.screens.layout import Rect
from royalnine.screens.remote_io import Arrival, TranscriptReading
from royalnine.storage import CorruptSaveSetAside, Notice, Storage

QR_DARK, QR_LIGHT = 250, 251  # GRP colours used for codes


class RemoteLink:
    """One device's remote match as the match screen needs it: deals, the other seat's
    placements, and the codes to send. Acts as both a ``DealSource`` and an ``Opponent``."""

    def __init__(self, session: RemoteSession, storage: Storage) -> None:
        self.session = session
        self.storage = storage
        self.error: str | None = None
        """The last refusal (a file that is no code, a code out of order...), one line."""
        self.remedy: str | None = None
        """After a code that shows a damaged one: "show" (show the last code again) or
        "rollback" (forget the damaged code read), offered as buttons."""
        self.claimed_against: str | None = None
        """The other player's transcript claimed this match and it was counted here as a
        forfeit loss: what to tell the player (the screens then show the result)."""
        self.pending_claim: ClaimHere | None = None
        """The other player's claim holds here (this device left its code unanswered for
        the wait, by its own clock): it is counted only once the player, told what it
        means, accepts it (:meth:`concede`)."""

    # -- files --

    @property
    def folder(self) -> Path:
        """Where this match's codes are written."""
        return match_folder(self.storage.home, self.session.label)

    def code_path(self, number: int) -> Path:
        """The PNG of this device's code number ``number``."""
        return code_path(self.storage.home, self.session.label, number)

    @property
    def session_path(self) -> Path:
        """Where this match is saved while in progress."""
        return session_path(self.storage.home, self.session.label)

    def save(self) -> None:
        """Save the session atomically (after every code sent or read)."""
        save_session(self.storage.home, self.session)

    @classmethod
    def load(cls, storage: Storage) -> RemoteLink | None:
        """The remote match saved by earlier versions in ``remote/current.json``, or None.

        Raises:
            CorruptSaveSetAside: the file was damaged; it was renamed aside (the message
                says where), as :meth:`Storage.load_game` does for a saved match.
        """
        path = storage.home / CURRENT_FILE
        try:
            session = load_session(storage.home)
        except BadCode as exc:
            notice = storage.damaged(path, "remote", str(exc), keep=False)
            raise CorruptSaveSetAside(notice) from None
        return None if session is None else cls(session, storage)

    def finish(self) -> None:
        """The match is over here: keep its whole transcript beside its codes."""
        codes = "\n".join(code.hex() for code in self.session.transcript)
        write_atomic(self.folder / TRANSCRIPT_FILE, codes + "\n")
        self.session_path.unlink(missing_ok=True)

    # -- codes --

    def write_code(self, number: int, code: bytes, how: str = "saved") -> None:
        """Write code ``number`` as a PNG in the match folder and say where on stderr."""
        from petitcom_shim.qr import encode_png

        path = self.code_path(number)
        path.parent.mkdir(parents=True, exist_ok=True)
        encode_png(code, path)
        print(f"royalnine: code {number} {how} as {path}", file=sys.stderr)

    def pump(self) -> None:
        """Make every code that is due now (writing each as a PNG) and save."""
        session = self.session
        made = False
        while session.my_turn and not session.needs_placement:
            code = session.compose()
            self.write_code(len(session.transcript), code)
            made = True
        if made:
            self.save()

    def show_again(self) -> None:
        """Write this device's last code again (after the other device got it damaged)."""
        number, code = self.session.last_code_number(), self.session.last_code()
        if number is not None and code is not None:
            self.write_code(number, code, "saved again")
        self.error = self.remedy = None
        # no mark_shown: a damaged reply must not restart the wait (else a peer who keeps
        # sending one just before the wait ends would put the claim off for ever)

    def mark_shown(self) -> None:
        """The code is being shown anew (COPY, the code screen): the opponent may see it
        only now, so the claim wait starts again (and is saved), unless a damaged reply to
        it was read (:meth:`RemoteSession.mark_shown`)."""
        if self.session.waiting_for_opponent():
            self.session.mark_shown()
            self.save()

    def showing(self) -> tuple[int, bytes] | None:
        """This device's last code while the opponent has not answered it."""
        session = self.session
        number = session.last_code_number()
        if number is None or number != len(session.transcript):
            return None
        code = session.last_code()
        return None if code is None else (number, code)

    def accept(self, arrivals: list[Arrival], claim_after_s: float | None = None) -> bool:
        """Take the codes that arrived (images read, text pasted, the camera); True if one
        was accepted. A refusal is kept in :attr:`error` and changes nothing.
        ``claim_after_s`` is the claim wait set in the options (default: as saved)."""
        accepted = False
        for arrival in arrivals:
            code, told = arrival.code, None
            if arrival.transcript is not None:
                if arrival.transcript_read is None:  # it did not read: arrival.error says why
                    self.error = arrival.error
                    continue
                code = self.learn_claim(arrival.source, arrival.transcript_read, claim_after_s)
                told = self.error
                if code is None:
                    continue
            if code is None:
                self.error = arrival.error
                continue
            try:
                self.session.receive(code)
            except BadCode as exc:
                self.error = f"{arrival.source}: {exc}"
                self.remedy = exc.remedy if isinstance(exc, Broken) else self.remedy
                if self.remedy == "show" and not self.session.damaged_reply:
                    self.session.note_damaged_reply()  # showing again won't restart the wait
                    self.save()
                continue
            self.error, self.remedy = told, None
            accepted = True
        if accepted:
            self.save()
            self.pump()
        return accepted

    def learn_claim(
        self, source: str, reading: TranscriptReading, claim_after_s: float | None = None
    ) -> bytes | None:
        """The other player's transcript, pasted and read off the frame loop (the paste
        reader parsed it and checked its codes): what its claim means here
        (:func:`~royalnine.remote.files.claim_here`). It counts only by this device's own
        codes and clock, and then only once the player accepts it (:attr:`pending_claim`,
        :meth:`concede`). Returns the code this device never had if the transcript holds
        it (read like any code: the match goes on); anything else is a line in
        :attr:`error` and changes nothing."""
        codes = reading.codes
        verdict = judge_forfeit(reading.check, reading.notes)
        if verdict.refused:
            self.error = f"{source}: a refused note: {verdict.refused[0]}"
            return None
        here = ClaimHere("none", "a transcript that claims nothing against this match")
        if decode(codes[0]).match_id == self.session.match_id:  # never another match's
            now = time.time()
            after_s = claim_after_s
            if after_s is None:
                after_s = self.storage.load_settings().claim_after_s
            here = claim_here(self.storage.home, codes, verdict, now, after_s, self.session)
            if here.kind == "wait" and self.session.received_at is None:
                self.session.received_at = now  # saved by an earlier version: wait from now
                self.save()
        self.error = here.text if here.kind != "none" else f"{source}: {here.text}"
        if here.kind == "count":
            self.pending_claim = here
        return here.code if here.kind == "read" else None

    def concede(self) -> None:
        """The player accepted the other player's claim (:attr:`pending_claim`): the match
        ends here as a forfeit loss (:attr:`claimed_against`)."""
        here, self.pending_claim = self.pending_claim, None
        if here is None or here.session is None:
            return
        self.claimed_against = count_claim(self.storage, here)
        self.session = here.session
        self.error = None

    # -- DealSource and Opponent --

    def deal(self, match: Match) -> Deal | None:
        """The next deal of ``match`` once both players' values for it are known here."""
        done = sum(isinstance(a, Deal) for a in match.history)
        deals = [a for a in self.session.match.history if isinstance(a, Deal)]
        return deals[done] if done < len(deals) else None

    def poll(self, view: PlayerView, inp: InputFrame | None) -> list[Action] | None:
        """The other seat's placement for this half, once its code has shown it.

        ``view`` is that seat's own view (as a CPU would get): its hand holds the
        half's four cards in the order they were dealt, the order the code uses.
        """
        seat = view.seat
        if seat == self.session.seat or not view.phase.is_place or len(view.hand) != HAND_SIZE:
            return None
        cells = self.session.known_cells(seat, view.round_number, view.phase.half)
        if cells is None:
            return None
        return placement_actions(seat, dict(zip(view.hand, cells, strict=True)))

    def local_confirmed(self, match: Match) -> None:
        """This device's seat confirmed its half on screen: fix it in the session and send."""
        seat = self.session.seat
        rnd = match.round
        grid = rnd.grids[seat]
        hand = rnd.dealt[seat][-HAND_SIZE:]
        try:
            self.session.place({card: grid.index(card) for card in hand})
        except IllegalMove as exc:  # the screen and the session disagree: say so, never crash
            self.error = str(exc)
            return
        self.save()
        self.pump()


def draw_code(
    app: App, screen: int, code: bytes, x: int | None, y: int | None, max_size: int | None = None
) -> None:
    """Draw a code on a screen's GRP page (cleared first), in front of the table."""
    from petitcom_shim.qr import draw_qr

    m = app.m
    draw.clear_grp(m, screen)
    m.gpage(screen)
    m.gdrawmd(False)
    m.gprio(1)
    m.colset("GRP", QR_DARK, "000000")
    m.colset("GRP", QR_LIGHT, "FFFFFF")
    left, top, size = draw_qr(
        m, code, screen, x, y, dark=QR_DARK, light=QR_LIGHT, max_size=max_size
    )
    draw.picture(screen, Rect(left, top, size, size))


def host_link(app: App) -> RemoteLink:
    """Start a match as host with the current options; its first code is made at once."""
    config = MatchConfig(rounds=app.settings.rounds, tens=app.settings.tens)
    link = RemoteLink(host_session(app.storage.home, config), app.storage)
    link.pump()
    return link


def remote_match_scene(link: RemoteLink) -> Scene:
    """The match screen for a remote match (a new one, or one continued from its save)."""
    scene = registry.make("match", link.session.match, "remote", {"bottom": link.session.seat})
    scene.remote = link  # type: ignore[attr-defined]  # a MatchScene, made by name
    return scene


def folder_lines(path: Path, width: int = 32, rows: int = 3) -> list[str]:
    """A full folder path folded to ``width`` cells, breaking after a separator where it
    can; the end of the path (the part that differs) is kept if it must be cut."""
    text = str(path)
    lines: list[str] = []
    while text:
        if len(text) <= width:
            lines.append(text)
            break
        cut = max(text.rfind(os.sep, 0, width) + 1, text.rfind("/", 0, width) + 1)
        cut = cut if cut > width // 2 else width
        lines.append(text[:cut])
        text = text[cut:]
    if len(lines) > rows:  # keep the last rows: the match id and "inbox" matter most
        lines = lines[-rows:]
        lines[0] = "…" + lines[0][1:] if len(lines[0]) == width else "…" + lines[0]
    return lines


# --------------------------------------------------------------- several matches


@dataclass(frozen=True)
class MatchEntry:
    """One remote match in progress on this device, as the list shows it."""

    link: RemoteLink
    last_activity: float
    """When its save was last written (seconds since the epoch)."""

    @property
    def label(self) -> str:
        """The match id."""
        return self.link.session.label

    @property
    def opponent_role(self) -> str:
        """ "host" or "guest": the codes carry no names, so the rival is named by role."""
        return "guest" if self.link.session.seat == 0 else "host"

    @property
    def round_text(self) -> str:
        """Round now and rounds in all, e.g. "2/5"."""
        session = self.link.session
        return f"{session.match.round.number}/{session.config.rounds}"

    @property
    def my_move(self) -> bool:
        """True when this device's player has to act (place, or send a code)."""
        session = self.link.session
        return session.needs_placement or self.link.showing() is None


def _migrate_current(storage: Storage, notices: list[Notice]) -> None:
    """Move the one match of earlier versions (``remote/current.json``) to its folder."""
    path = storage.home / CURRENT_FILE
    try:
        migrate_current(storage.home)
    except BadCode as exc:
        notices.append(storage.damaged(path, "remote", str(exc), keep=False))
    except OSError as exc:
        reason = exc.strerror or str(exc)
        notices.append(Notice("notice_cannot_save", "remote", CURRENT_FILE, reason))


def _load_entry(storage: Storage, path: Path) -> MatchEntry:
    """One saved match; raises CorruptSaveSetAside (after setting it aside) if damaged."""
    try:
        stamp = path.stat().st_mtime
        session = read_session(path)
        if session is None:
            raise BadCode("the file is gone")
        if session.label != path.parent.name:
            raise BadCode(f"it holds match {session.label}, not {path.parent.name}")
    except (OSError, BadCode) as exc:  # any damage must not stop the list
        raise CorruptSaveSetAside(storage.damaged(path, "remote", str(exc), keep=False)) from None
    return MatchEntry(RemoteLink(session, storage), stamp)


def list_matches(storage: Storage) -> tuple[list[MatchEntry], list[Notice]]:
    """Every remote match in progress on this device, the latest activity first.

    A damaged save is renamed aside (never deleted) and reported in the notices;
    it never stops the others from being listed.

    Returns:
        The matches, and one line per file that could not be used.
    """
    notices: list[Notice] = []
    _migrate_current(storage, notices)
    entries: list[MatchEntry] = []
    try:
        folders = sorted((storage.home / REMOTE_DIR).iterdir())
    except OSError:
        return [], notices
    for folder in folders:
        path = folder / SESSION_FILE
        if not path.is_file():
            continue
        try:
            entries.append(_load_entry(storage, path))
        except CorruptSaveSetAside as exc:
            notices.append(exc.notice)
    entries.sort(key=lambda e: -e.last_activity)
    return entries, notices


def ago(seconds: float) -> str:
    """A short "how long ago" for the list: 5m, 3h, 2d (4 cells at most)."""
    minutes = max(0, int(seconds // 60))
    if minutes < 60:
        return f"{minutes}m"
    if minutes < 60 * 48:
        return f"{minutes // 60}h"
    return f"{min(999, minutes // (60 * 24))}d"


def now() -> float:
    """The wall clock, for "last activity" (a function so tests can fix it)."""
    return time.time()
