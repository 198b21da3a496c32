"""The pause menu of a match: resume, rules, quit to title (the match stays saved)."""

from __future__ import annotations

from royalnine import art
from royalnine.app import App, InputFrame, Scene
from royalnine.core import MatchConfig
from royalnine.screens import draw, registry
from royalnine.screens.layout import TOP
from royalnine.screens.menu import Menu, column
from royalnine.screens.rules import RulesScene


class PauseScene:
    """Covers both screens (no peeking at cards) and offers resume / rules / quit."""

    def __init__(self, match_scene: Scene, config: MatchConfig | None = None) -> None:
        self.match_scene = match_scene
        self.config = config
        """The match's options (the rules pages describe them)."""
        self.menu: Menu | None = None

    def enter(self, app: App) -> None:
        """Draw the menu."""
        m = app.m
        draw.reset_screens(m)
        draw.centred(m, TOP, 10, app.t("paused"), art.TEXT_YELLOW)
        draw.centred(m, TOP, 12, app.t("saved_note"), art.TEXT_GREY)
        items = [
            ("resume", app.t("resume")),
            ("rules", app.t("menu_rules")),
            ("quit", app.t("quit_title")),
        ]
        self.menu = Menu(column(items, top=48, height=24, gap=8))
        self.menu.draw(app)

    def frame(self, app: App, inp: InputFrame) -> Scene | None:
        """Menu input (B or SELECT also resumes)."""
        assert self.menu is not None
        choice = self.menu.handle(app, inp)
        if choice == "resume" or any(k in ("b", "select") for k in inp.keys):  # B, Esc
            return self.match_scene
        if choice == "rules":
            return RulesScene(back=self, config=self.config)
        if choice == "quit":
            return registry.make("title")
        return None
