"""Scenes reach the scenes above them by name, not by import.

The screens form layers: each module imports only modules below it (checked by
``tests/test_screens_import_cycles.py``), so a newcomer can read them from the
bottom up. Going "up" (back to the title, on to the exchange screen, a new
match from the result screen) would need an import of a module that imports
this one; instead the scene above registers a maker under a name, and the scene
below asks for that name::

    # in title.py (high up)
    @registry.provides("title")
    def _title_scene() -> Scene:
        return TitleScene()

    # in options.py (below title)
    return registry.make("title")

Names in use: ``"title"`` (), ``"new_match"`` (app, mode, level), ``"match"``
(match, mode, meta), ``"exchange"`` (link, back=scene), ``"remote_list"`` ().

A new screen module: import what sits below you, register what others must
reach by name, and add your module to the list in ``royalnine/screens/__init__.py``
(which imports every screen, so every name is registered as soon as any screen
is imported). When a scene only needs to go back to where it came from, pass
that scene in instead (``RulesScene(back=...)``, ``PauseScene(match_scene)``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from royalnine.app import Scene

Maker = Callable[..., Scene]
M = TypeVar("M", bound=Maker)

_MAKERS: dict[str, Maker] = {}


def provides(name: str) -> Callable[[M], M]:
    """Register the decorated function (or class) as the maker of scene ``name``."""

    def register(maker: M) -> M:
        if name in _MAKERS and _MAKERS[name] is not maker:
            raise ValueError(f"two screens register the scene name {name!r}")
        _MAKERS[name] = maker
        return maker

    return register


def make(name: str, *args: object, **kwargs: object) -> Scene:
    """A new scene made by the maker registered under ``name``."""
    try:
        maker = _MAKERS[name]
    except KeyError:
        raise LookupError(
            f"no scene named {name!r}: is its module listed in royalnine/screens/__init__.py?"
        ) from None
    return maker(*args, **kwargs)


def names() -> list[str]:
    """Every registered scene name (for tests and debugging)."""
    return sorted(_MAKERS)
