"""The game's main loop and scene manager: one Machine, one active scene, 60 frames a second.

Each frame the app reads the machine's input once into an :class:`InputFrame`
(buttons pressed, stylus went down/moved/up, files dropped), hands it to the
active scene, switches scene if the scene asks, and VSYNCs. Scenes never read
the machine's input themselves, so tests drive whole matches by injecting
stylus and button input into the headless machine and stepping frames.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from petitcom_shim import Button, Machine
from petitcom_shim.sound import Beep
from royalnine.art import load_art
from royalnine.core import HAND_SIZE, Action, Card, Deal, Match, PlayerView, placement_actions
from royalnine.i18n import tr
from royalnine.music import Music
from royalnine.storage import Notice, Settings, Storage

# The BEEP preset played for each game event.
EFFECTS_LEVEL = 0.45
"""BEEP volume of SOUND FX at 100%, as a share of the shim's full 127. A BEEP peaks at
0.7 of full scale and up to three overlap (a confirm under the deal's clicks, every
4 frames), over the music: at 0.45 the whole mix stays under full scale, where at
127 it clipped (tests/test_screens_look.py mixes a match to check)."""
SOUNDS: dict[str, int] = {
    "deal": Beep.SWISH,
    "place": Beep.TAP,
    "select": Beep.CURSOR,
    "invalid": Beep.ERROR,
    "confirm": Beep.CONFIRM,
    "reveal": Beep.FLIP,
    "role": Beep.COIN,
    "none": Beep.BLIP_LOW,
    "royal": Beep.FANFARE,
    "bust": Beep.POWER_DOWN,
    "total": Beep.CHIME,
    "win": Beep.VICTORY,
    "lose": Beep.LOSE,
    "menu": Beep.CURSOR,
}

PAD_KEYS: tuple[tuple[int, str], ...] = (
    (Button.UP, "up"),
    (Button.DOWN, "down"),
    (Button.LEFT, "left"),
    (Button.RIGHT, "right"),
    (Button.A, "a"),
    (Button.B, "b"),
    (Button.X, "x"),
    (Button.Y, "y"),
    (Button.START, "start"),
    (Button.SELECT, "select"),
    (Button.L, "l"),
    (Button.R, "r"),
)


KEY_LABELS: dict[str, str] = {
    "return": "ENTER",
    "enter": "ENTER",
    "backspace": "BKSP",
    "right shift": "SHIFT",
    "left shift": "SHIFT",
    "escape": "ESC",
    "space": "SPACE",
    "tab": "TAB",
}


PREFERRED_KEYS = ("escape", "return")
"""Named first when mapped, whatever the order of the mapping (what players try first)."""


def key_label(name: str) -> str:
    """A pygame key name as the screens print it: short, upper case, at most 5 cells."""
    return KEY_LABELS.get(name, name.upper())[:5]


STILL_FRAMES, STILL_DRAW_EVERY = 60, 3
"""A screen where nothing happened for a second shows one frame in three (App.tick)."""


@dataclass
class InputFrame:
    """This frame's input, already turned into events."""

    keys: list[str] = field(default_factory=list)
    """Pad keys pressed this frame (with auto-repeat), e.g. ``["down", "a"]``."""
    touch_down: tuple[int, int] | None = None
    touch_move: tuple[int, int] | None = None
    touch_up: tuple[int, int] | None = None
    touching: bool = False
    dropped: list[Path] = field(default_factory=list)
    edit: list[str] = field(default_factory=list)
    """Clipboard shortcuts typed this frame: "copy" (Ctrl+C), "paste" (Ctrl+V)."""


class Scene(Protocol):
    """A screen of the game."""

    def enter(self, app: App) -> None:
        """Draw the scene from scratch (called on switch-in and after a pause/rules visit)."""

    def frame(self, app: App, inp: InputFrame) -> Scene | None:
        """Advance one frame; return the next scene to switch to, or None to stay."""


class CpuPlayer(Protocol):
    """What the match needs from a CPU opponent (royalnine.ai players fit)."""

    def choose(self, view: PlayerView) -> dict[Card, int]:
        """Where to put the 4 cards of ``view.hand`` (cell per card)."""


class Opponent(Protocol):
    """The seat that is not played on this machine: the CPU today, a remote player later.

    The match screen polls it every frame while that seat has to place; it
    answers with the seat's placement actions (ending with Confirm) once it
    knows them, or None while it is still waiting (e.g. for a QR image to be
    dropped on the window, which arrives in ``inp.dropped``).
    """

    def poll(self, view: PlayerView, inp: InputFrame | None) -> list[Action] | None:
        """This seat's actions for the current half, or None while not yet known."""


class DealSource(Protocol):
    """Where deals come from: a seeded :class:`royalnine.core.Dealer` locally, shared
    randomness in a remote match."""

    def deal(self, match: Match) -> Deal | None:
        """The deal the match is waiting for, or None while it is not known yet (remote)."""


class CpuOpponent:
    """A CPU player as an :class:`Opponent`: answers at once from its own view."""

    def __init__(self, player: CpuPlayer, seat: int) -> None:
        self.player = player
        self.seat = seat

    def poll(self, view: PlayerView, inp: InputFrame | None) -> list[Action] | None:
        """Place the whole hand and confirm (only with all 4 cards of the half in hand)."""
        if view.seat != self.seat or not view.phase.is_place or len(view.hand) != HAND_SIZE:
            return None
        return placement_actions(self.seat, self.player.choose(view))


def make_cpu(level: str, seat: int, rng: random.Random) -> CpuPlayer:
    """The CPU opponent of a level ("easy", "normal", "hard", "master") from royalnine.ai."""
    from royalnine.ai import make_player

    ai_level = "match" if level == "master" else level  # the AI's own name for its best player
    player: CpuPlayer = make_player(ai_level, seat=seat, rng=rng)
    return player


class App:
    """The running game: machine, storage, settings and the active scene.

    Args:
        m: the machine to run on (a window, or headless for tests and the demo).
        storage: the data folder (settings, save, statistics).
        settings: the saved options (default: read from ``storage``).
        overrides: options for this run only (command-line flags): used now, never saved
            unless the player chooses that option again in the game.
        seed: seeds every deal and CPU choice, for reproducible matches.
        first: builds the first scene; :func:`royalnine.game.new_game` gives the title,
            so this module never imports a scene (every scene imports it).
    """

    def __init__(
        self,
        m: Machine,
        storage: Storage,
        settings: Settings | None = None,
        *,
        overrides: Mapping[str, object] | None = None,
        seed: int | None = None,
        first: Callable[[App], Scene],
    ) -> None:
        self.m = m
        self.storage = storage
        saved = settings or storage.load_settings()
        self.overrides: dict[str, object] = dict(overrides or {})
        self._saved = dataclasses.replace(saved)
        self.settings = dataclasses.replace(saved, **self.overrides)  # type: ignore[arg-type]
        """The options in use this run: the saved ones with this run's overrides."""
        self.rng = random.Random(seed)
        self.notices: list[Notice] = storage.notices
        """Messages about data files for the title to show (the storage's own list)."""
        self._touching = False
        self._last_touch = (0, 0)
        self.frames = 0
        self._drawn, self._still = -1, 0  # compositions seen, frames since anything happened
        self.demo = False
        #: False while nobody plays (the kiosk's attract loop): a match draws no buttons
        #: (MENU, HINT, UNDO, OK) and no prompts telling a player what to tap or press.
        self.show_controls = True
        """The demo: the CPU plays both seats (so neither is called YOU)."""
        self.on_frame: list[Callable[[App], None]] = []
        load_art(m)
        self.music = Music(m, self.settings)
        self.scene: Scene = first(self)
        self.scene.enter(self)
        self.music.follow(self.scene)

    # --- helpers for scenes ---

    @property
    def keep_history(self) -> bool:
        """Whether each finished match is kept in the history (a kiosk overrides this)."""
        return True

    @property
    def lang(self) -> str:
        """The chosen language."""
        return self.settings.lang

    @property
    def layout(self) -> str:
        """The window layout of this run, by the game's name (vertical, side, separate, single).

        A layout chosen in OPTIONS applies at the next start, so this is the
        machine's, not the settings'.
        """
        return "side" if self.m.layout == "horizontal" else self.m.layout

    def t(self, key: str, **args: object) -> str:
        """Translated text; ``{key_a}``, ``{key_start}``... name the player's keys."""
        return tr(key, self.lang, **{**self.key_labels, **args})

    @functools.cached_property
    def key_labels(self) -> dict[str, str]:
        """``key_a``, ``key_b``, ``key_start``, ``key_select``, ``key_x`` (hint), ``key_swap``,
        ``key_full`` (full screen): the keyboard keys of this run's mapping as printed on
        screen (``X``, ``ENTER``), for prompts and rules. Worked out once: the mapping is the
        machine's, fixed for the run."""
        cfg = self.m.input.config
        out = {}
        for name, button in (
            ("a", Button.A),
            ("b", Button.B),
            ("start", Button.START),
            ("select", Button.SELECT),
            ("x", Button.X),
        ):
            keys = cfg.keys_for(button) or [name]
            best = next((k for k in PREFERRED_KEYS if k in keys), keys[0])
            out[f"key_{name}"] = key_label(best)
        out["key_swap"] = key_label(cfg.swap_key)
        out["key_full"] = key_label(cfg.fullscreen_key)
        return out

    def choose(self, name: str, value: object) -> None:
        """The player chose an option (OPTIONS, a CPU level): use it now and keep it.

        Only the player's choices are written; an option given on the command
        line stays this run's alone until the player chooses it in the game.
        """
        setattr(self.settings, name, value)
        setattr(self._saved, name, value)
        self.overrides.pop(name, None)
        self.store("settings", lambda: self.storage.save_settings(self._saved))

    def beep(self, event: str) -> None:
        """Play the sound of a game event (if SOUND FX is on, at its volume)."""
        if self.settings.effects and event in SOUNDS:
            level = EFFECTS_LEVEL * self.settings.effects_volume / 100
            self.m.beep(SOUNDS[event], 0, round(127 * level))

    def store(self, what: str, write: Callable[[], object]) -> bool:
        """Run one storage write; a failure (full disk, read-only folder) becomes a notice.

        ``what`` is the file's role (``settings``, ``save``, ``stats``, ``remote``).
        Settings, statistics and saves are conveniences: losing one must never
        end the game, so every write goes through here.
        """
        try:
            write()
        except OSError as exc:
            reason = exc.strerror or str(exc)
            self.notices.append(Notice("notice_cannot_save", what, reason=reason))
            return False
        return True

    def quit(self) -> None:
        """End the game after this frame (the player agreed to quit)."""
        self.m.running = False

    def switch(self, scene: Scene) -> None:
        """Make ``scene`` active now."""
        self.scene = scene
        scene.enter(self)
        self.music.follow(scene)

    # --- the loop ---

    def read_input(self) -> InputFrame:
        """Turn the machine's input state into this frame's events."""
        m = self.m
        inp = InputFrame()
        pressed = m.button(1)
        if pressed:  # (testing 12 flags costs more than the rest of an idle frame)
            inp.keys = [name for bit, name in PAD_KEYS if pressed & bit]
        touching = bool(m.tchst)
        pos = (m.tchx, m.tchy)
        if touching and not self._touching:
            inp.touch_down = pos
        elif touching and pos != self._last_touch:
            inp.touch_move = pos
        elif not touching and self._touching:
            inp.touch_up = self._last_touch
        if touching:
            self._last_touch = pos
        self._touching = touching
        inp.touching = touching
        inp.dropped = m.dropped_files()
        inp.edit = m.edit_keys()
        return inp

    def tick(self) -> None:
        """One frame: input, scene, hooks, VSYNC."""
        inp = self.read_input()
        nxt = self.scene.frame(self, inp)
        if nxt is not None and nxt is not self.scene:
            self.switch(nxt)
        for hook in self.on_frame:
            hook(self)
        self.frames += 1
        self.m.vsync(show=self.frames % self.still_draw_every(inp) == 0)

    def still_draw_every(self, inp: InputFrame) -> int:
        """Show one frame in :data:`STILL_DRAW_EVERY` once nothing happened for
        :data:`STILL_FRAMES` frames (no input, no change on either screen), else every one.

        A still screen then wakes the process 20 times a second instead of 60 (its logic,
        timers and sounds still run every frame); any input or change brings back every
        frame at once, so a first tap after a pause is drawn at most 1/20 s later.
        """
        drawn = sum(self.m.compositions)
        busy = inp.touching or inp.touch_up or inp.keys or inp.dropped or inp.edit
        if busy or drawn != self._drawn:
            self._drawn, self._still = drawn, 0
            return 1
        self._still += 1
        return STILL_DRAW_EVERY if self._still >= STILL_FRAMES else 1

    def step(self, frames: int = 1) -> None:
        """Run ``frames`` frames (tests and the demo)."""
        for _ in range(frames):
            self.tick()

    def run(self) -> None:
        """Run until the window closes or a scene quits."""
        while self.m.running:
            self.tick()
