"""A new game on a machine: the app with the title screen as its first scene.

The app module knows no scene (every scene imports it); this is the one place
that puts them together, for the commands, the tools and the tests.
"""

from __future__ import annotations

from collections.abc import Mapping

from petitcom_shim import Machine
from royalnine.app import App
from royalnine.screens.title import TitleScene
from royalnine.storage import Settings, Storage


def new_game(
    m: Machine,
    storage: Storage,
    settings: Settings | None = None,
    *,
    overrides: Mapping[str, object] | None = None,
    seed: int | None = None,
) -> App:
    """The game on ``m``, starting at the title (settings default to the saved ones;
    ``overrides`` are this run's command-line options, never saved)."""
    return App(
        m, storage, settings, overrides=overrides, seed=seed, first=lambda _app: TitleScene()
    )
