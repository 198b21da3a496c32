"""What a match screen holds: the match, whose seat is at the bottom, and the interaction state.

It sits below the screen's flow (:mod:`.match`), its drawing (:mod:`.match_draw`)
and its remote panel (:mod:`.match_remote`), so those read one state without
importing each other in a circle.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from royalnine import art
from royalnine.app import App, DealSource, Opponent
from royalnine.core import Action, Match, PlayerView, view
from royalnine.core.record import MetaValue
from royalnine.screens.draw import SpriteBoard
from royalnine.screens.layout import Target
from royalnine.screens.menu import Menu
from royalnine.screens.placement import PlacementController
from royalnine.screens.remote import RemoteLink
from royalnine.screens.remote_actions import RemoteActions
from royalnine.screens.reveal import RevealStep
from royalnine.storage import DIFFICULTIES, current_name

MESSAGE_FRAMES = 90


@dataclass
class Message:
    """A transient line in the side panel."""

    key: str
    colour: int
    frames: int
    """How many more frames it shows; a ``lasting`` message ignores this."""
    args: dict[str, object] = field(default_factory=dict)
    lasting: bool = False
    """Shown until the player moves a card (the hint's value), not for a while."""


class MatchState:
    """The state of a match screen (everything drawn is drawn from this)."""

    def __init__(self, match: Match, mode: str, meta: dict[str, MetaValue] | None = None) -> None:
        self.match = match
        self.mode = mode
        self.meta: dict[str, MetaValue] = dict(meta or {})
        level = current_name(self.meta.get("level", "normal"))  # "match" in older saves
        self.level: str = str(level) if level in DIFFICULTIES else "normal"
        bottom = self.meta.get("bottom", 0)
        self.bottom_seat: int = 1 if bottom == 1 else 0
        self.ctrl = (PlacementController(0), PlacementController(1))
        self.state = "start"
        self.timer = 0
        self.steps: list[RevealStep] = []
        self.step_i = 0
        self.message: Message | None = None
        self.flash: tuple[Target, int] | None = None
        self.dirty = True
        self.dirty_bottom = False
        """Only the bottom screen's layout needs drawing again (the seat there moved a card)."""
        self._input_seen = True  # this frame brought stylus, pad or file input
        self._sprites_steady = False  # the sprites were drawn with nothing pending since
        self.boards: tuple[SpriteBoard, SpriteBoard] | None = None
        self.opponent: Opponent | None = None
        """The seat not played on this machine (vs CPU); None when both seats are here."""
        self.remote: RemoteLink | None = None
        """The remote match behind this screen (mode "remote"): deals and the other seat."""
        self._code_drawn: bytes | None = None  # the remote code now on the top GRP page
        self.remote_actions: RemoteActions | None = None  # CLAIM, SHOW CODE AGAIN, ROLL BACK
        self.opponent_pending: list[Action] | None = None
        """The opponent's decided placement, held off the match (and so off the save file)
        until this machine's seat has confirmed: placements are simultaneous."""
        self.dealer: DealSource | None = None
        self.next_menu: Menu | None = None
        self.deal_from: set[int] = set()
        self.handover_to: int | None = None  # seat the machine is being passed to
        self._menu_down = False  # the stylus went down on MENU (it acts on release there)

    # --- names and helpers ---

    @property
    def opponent_seat(self) -> int:
        """The seat not played at the bottom of this machine (the CPU's, or the remote one)."""
        return 1 - self.bottom_seat

    def names(self, app: App) -> tuple[str, str]:
        """Display names of seat 0 and seat 1."""
        if self.mode == "cpu" and app.demo:  # the CPU plays the bottom seat too
            return (app.t("cpu_n", n=1), app.t("cpu_n", n=2))
        if self.mode == "cpu":
            return (app.t("you"), app.t("cpu"))
        if self.mode == "remote":
            mine, theirs = app.t("you"), app.t("rival")
            return (mine, theirs) if self.bottom_seat == 0 else (theirs, mine)
        return (app.t("player1"), app.t("player2"))

    def view(self) -> PlayerView:
        """What the seat at the bottom may see."""
        return view(self.match, self.bottom_seat)

    def say(
        self, key: str, colour: int = art.TEXT_WHITE, *, lasting: bool = False, **args: object
    ) -> None:
        """Show a message in the panel: for a while, or (``lasting``) until a card moves."""
        self.message = Message(key, colour, MESSAGE_FRAMES, args, lasting)
        self.dirty = True

    def opponent_decided(self, v: PlayerView) -> bool:
        """The other seat has fixed its placement (applied, or decided and held back)."""
        return v.opponent_confirmed or self.opponent_pending is not None
