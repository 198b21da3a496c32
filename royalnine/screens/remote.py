"""Remote matches by QR code on the screens: the link between a match screen and a
:class:`royalnine.remote.RemoteSession`, the lobby screens, and drawing a code.

Each code this device must send is shown on the top screen's GRP page (as the
2013 program showed its QR codes) and written as a PNG under
``HOME/remote/<MATCH>/move-NN.png`` to send through any messenger. The
opponent's codes arrive as image files dropped on the window (a PNG, or a phone
photo of their screen), or put in the folder ``HOME/remote/inbox`` (for a
kiosk or a touch screen, where nothing can be dropped): each image found there
is read once and moved to ``inbox/read``. The session is saved atomically after every code, in
``HOME/remote/current.json``; it holds this device's secret and the codes seen,
never anything the rules hide from this player.
"""

from __future__ import annotations

import sys
from pathlib import Path

from royalnine import art
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
from royalnine.remote.codec import BadCode
from royalnine.remote.files import abandon_current, load_session
from royalnine.remote.session import Broken, RemoteSession
from royalnine.screens import draw
from royalnine.screens.layout import BOTTOM, TOP, Rect
from royalnine.screens.menu import Menu, column
from royalnine.storage import CorruptSaveSetAside, Storage

REMOTE_DIR = "remote"
CURRENT_FILE = "remote/current.json"
INBOX_DIR = "remote/inbox"
INBOX_EVERY = 30  # frames between looks in the inbox folder
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp")
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

    # -- files --

    @property
    def folder(self) -> Path:
        """Where this match's codes are written."""
        return self.storage.home / REMOTE_DIR / self.session.label

    def code_path(self, number: int) -> Path:
        """The PNG of this device's code number ``number``."""
        return self.folder / f"move-{number:02d}.png"

    def save(self) -> None:
        """Save the session atomically (after every code sent or read)."""
        write_atomic(self.storage.home / CURRENT_FILE, self.session.to_json())

    @classmethod
    def load(cls, storage: Storage) -> RemoteLink | None:
        """The remote match in progress, or None.

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
        write_atomic(self.folder / "transcript.txt", codes + "\n")
        (self.storage.home / CURRENT_FILE).unlink(missing_ok=True)

    # -- codes --

    def pump(self) -> None:
        """Make every code that is due now (writing each as a PNG) and save."""
        from petitcom_shim.qr import encode_png

        session = self.session
        made = False
        while session.my_turn and not session.needs_placement:
            code = session.compose()
            number = len(session.transcript)
            self.folder.mkdir(parents=True, exist_ok=True)
            encode_png(code, self.code_path(number))
            print(f"royalnine: code {number} saved as {self.code_path(number)}", file=sys.stderr)
            made = True
        if made:
            self.save()

    def show_again(self) -> None:
        """Write this device's last code again (after the other device got it damaged)."""
        from petitcom_shim.qr import encode_png

        number, code = self.session.last_code_number(), self.session.last_code()
        if number is not None and code is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
            encode_png(code, self.code_path(number))
            print(
                f"royalnine: code {number} saved again as {self.code_path(number)}", file=sys.stderr
            )
        self.error = self.remedy = None

    def showing(self) -> tuple[int, bytes] | None:
        """This device's last code while the opponent has not answered it."""
        session = self.session
        number = session.last_code_number()
        if number is None or number != len(session.transcript):
            return None
        code = session.last_code()
        return None if code is None else (number, code)

    def read(self, paths: list[Path]) -> bool:
        """Read dropped image files; True if a code was accepted."""
        from petitcom_shim.qr import QRError, decode_image

        accepted = False
        for path in paths:
            try:
                code = decode_image(path)
                self.session.receive(code)
            except (QRError, BadCode) as exc:
                self.error = str(exc) if isinstance(exc, QRError) else f"{path.name}: {exc}"
                self.remedy = exc.remedy if isinstance(exc, Broken) else self.remedy
                continue
            self.error = self.remedy = None
            accepted = True
        if accepted:
            self.save()
            self.pump()
        return accepted

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


def take_inbox(storage: Storage, frame: int) -> list[Path]:
    """The images in ``HOME/remote/inbox``, moved to ``inbox/read`` (every few frames)."""
    if frame % INBOX_EVERY:
        return []
    folder = storage.home / INBOX_DIR
    try:
        found = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    except OSError:
        return []
    done = folder / "read"
    taken: list[Path] = []
    for path in found:
        try:
            done.mkdir(exist_ok=True)
            target = done / path.name
            path.replace(target)
        except OSError:
            continue
        taken.append(target)
    return taken


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


class RemoteLobbyScene:
    """Before a remote match: the host shows its first code and waits for the reply;
    a guest waits for the host's first code."""

    def __init__(self, link: RemoteLink | None) -> None:
        self.link = link
        self.error: str | None = None
        self.menu: Menu | None = None

    def enter(self, app: App) -> None:
        """Draw the code (host) or the invitation to drop one (guest)."""
        m = app.m
        draw.reset_screens(m)
        self.menu = Menu(column([("back", app.t("menu_back"))], top=160, height=24))
        self.redraw(app)

    def redraw(self, app: App) -> None:
        m = app.m
        for s in (TOP, BOTTOM):
            draw.clear_text(m, s)
        if self.link is not None:
            shown = self.link.showing()
            if shown is not None:
                draw_code(app, TOP, shown[1], None, None)
            draw.centred(m, BOTTOM, 0, app.t("remote_send", n=1), art.TEXT_YELLOW)
            draw.centred(m, BOTTOM, 1, f"{self.link.session.label}/move-01.png", art.TEXT_GREY)
            draw.centred(m, BOTTOM, 3, app.t("remote_host_wait"), art.TEXT_WHITE)
        else:
            draw.centred(m, TOP, 8, app.t("remote_join_wait"), art.TEXT_YELLOW)
            draw.centred(m, BOTTOM, 3, app.t("remote_join_wait"), art.TEXT_WHITE)
        draw.centred(m, BOTTOM, 5, app.t("remote_drop"), art.TEXT_WHITE)
        draw.centred(m, BOTTOM, 7, app.t("remote_drop2"), art.TEXT_WHITE)
        error = self.error or (self.link.error if self.link else None)
        for k, line in enumerate(draw.fold(error or "", 30, 4)):
            draw.text(m, BOTTOM, 1, 10 + k, line, art.TEXT_RED)
        assert self.menu is not None
        self.menu.draw(app)

    def frame(self, app: App, inp: InputFrame) -> Scene | None:
        """Read dropped codes; start the match once the first exchange is done."""
        assert self.menu is not None
        if self.menu.handle(app, inp) == "back" or "select" in inp.keys:  # BACK or Esc
            from royalnine.screens.title import TitleScene

            return TitleScene()
        dropped = inp.dropped + take_inbox(app.storage, app.frames)
        if not dropped:
            return None
        if self.link is None:
            self.link = self.join(app, dropped)
        elif self.link.read(dropped):
            app.beep("confirm")
        if self.link is not None and len(self.link.session.transcript) >= 2:
            return remote_match_scene(self.link)
        app.beep("invalid")
        self.redraw(app)
        return None

    def join(self, app: App, paths: list[Path]) -> RemoteLink | None:
        """Join with the host's first code (the first readable one among ``paths``)."""
        from petitcom_shim.qr import QRError, decode_image

        for path in paths:
            try:
                session = RemoteSession.join(decode_image(path))
            except QRError as exc:
                self.error = str(exc)
                continue
            except BadCode as exc:
                self.error = f"{path.name}: {exc}"
                continue
            app.store("statistics", lambda: abandon_current(app.storage))  # a walk-away loses
            link = RemoteLink(session, app.storage)
            link.pump()
            app.beep("confirm")
            return link
        return None


def host_link(app: App) -> RemoteLink:
    """Start a match as host with the current options; its first code is made at once."""
    config = MatchConfig(rounds=app.settings.rounds, tens=app.settings.tens)
    app.store("statistics", lambda: abandon_current(app.storage))  # a walk-away loses
    link = RemoteLink(RemoteSession.host(config), app.storage)
    link.pump()
    return link


def remote_match_scene(link: RemoteLink) -> Scene:
    """The match screen for a remote match (a new one, or one continued from its save)."""
    from royalnine.screens.match import MatchScene

    scene = MatchScene(link.session.match, "remote", {"bottom": link.session.seat})
    scene.remote = link
    return scene
