"""No import circles among the game's screens (issue 18 item 8).

The screens reach the scenes above them by name (``royalnine.screens.registry``)
or are handed the scene to return to, so each file imports only what sits below
it. The graph and the circle finder are the shim's checker's
(``tests/test_shim_import_cycles.py``): every kind of import counts, including
function-level and ``TYPE_CHECKING`` ones.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_shim_import_cycles import find_cycles, import_graph

ROOT = Path(__file__).resolve().parent.parent
SCREENS = "royalnine.screens"


def _screens_graph() -> dict[str, set[str]]:
    graph = import_graph(ROOT / "royalnine")
    return {
        name: {t for t in targets if t.startswith(SCREENS + ".")}
        for name, targets in graph.items()
        if name.startswith(SCREENS + ".")
    }


def test_the_screens_have_no_import_circles() -> None:
    graph = _screens_graph()
    assert {f"{SCREENS}.match", f"{SCREENS}.title", f"{SCREENS}.exchange"} <= set(graph)
    assert f"{SCREENS}.match_draw" in graph[f"{SCREENS}.match"]  # the graph sees imports
    cycles = find_cycles(graph)
    assert cycles == [], "import circles: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_scenes_below_reach_the_title_by_name() -> None:
    graph = _screens_graph()
    for low in ("options", "pause", "result", "remote_list", "remote_actions"):
        assert f"{SCREENS}.title" not in graph[f"{SCREENS}.{low}"], low
        assert f"{SCREENS}.registry" in graph[f"{SCREENS}.{low}"], low
    assert graph[f"{SCREENS}.registry"] == set()  # the registry sits at the bottom


def test_every_registered_name_makes_its_scene() -> None:
    from royalnine.screens import registry
    from royalnine.screens.exchange import ExchangeScene
    from royalnine.screens.remote_list import RemoteListScene
    from royalnine.screens.title import TitleScene

    assert {"title", "new_match", "match", "exchange", "remote_list"} <= set(registry.names())
    assert isinstance(registry.make("title"), TitleScene)
    assert isinstance(registry.make("remote_list"), RemoteListScene)
    assert isinstance(registry.make("exchange", None), ExchangeScene)
    with pytest.raises(LookupError, match="no scene named 'nowhere'"):
        registry.make("nowhere")
    with pytest.raises(ValueError, match="two screens"):
        registry.provides("title")(lambda: TitleScene())
