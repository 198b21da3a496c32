"""No import circles inside petitcom_shim (issue 15 item 6).

Every ``import``/``from … import`` anywhere in a module counts: at the top, inside
a function (a "lazy" import only hides a circle) and under ``TYPE_CHECKING``
(a type-only circle still means two modules each need the other). Each file may
import only what sits below it, so the graph of the package's own modules must
have no cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "petitcom_shim"


def _module_name(package_dir: Path, path: Path) -> str:
    parts = list(path.relative_to(package_dir.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph(package_dir: Path) -> dict[str, set[str]]:
    """Each module of the package (dotted name) -> the package modules it imports."""
    package = package_dir.name
    paths = {_module_name(package_dir, p): p for p in sorted(package_dir.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        is_package = path.name == "__init__.py"
        here = name.split(".") if is_package else name.split(".")[:-1]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base_parts = here[: len(here) - (node.level - 1)]
                    base = ".".join([*base_parts, *([node.module] if node.module else [])])
                else:
                    base = node.module or ""
                # "from pkg import sub" imports the submodule pkg.sub when there is one.
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    targets.add(sub if sub in paths else base)
        inside = {_nearest_module(t, paths) for t in targets if t.split(".")[0] == package}
        graph[name] = inside - {name, ""}
    return graph


def _nearest_module(target: str, modules: dict[str, Path]) -> str:
    """``pkg.mod.Name`` -> ``pkg.mod``: the longest prefix that is a module of the package."""
    parts = target.split(".")
    while parts and ".".join(parts) not in modules:
        parts.pop()
    return ".".join(parts)


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of two or more modules, each as one circle's path."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group: list[str] = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def test_petitcom_shim_has_no_import_cycles() -> None:
    graph = import_graph(ROOT / PACKAGE)
    assert f"{PACKAGE}.machine" in graph and f"{PACKAGE}.video.chr" in graph
    assert f"{PACKAGE}.ptcfile" in graph[f"{PACKAGE}.ptcres"]
    cycles = find_cycles(graph)
    assert cycles == [], "import circles: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_the_file_formats_sit_below_machine_and_the_command_line_above_qr() -> None:
    graph = import_graph(ROOT / PACKAGE)
    assert f"{PACKAGE}.ptcres" in graph[f"{PACKAGE}.machine"]
    assert f"{PACKAGE}.machine" not in graph[f"{PACKAGE}.ptcres"]
    assert {f"{PACKAGE}.qr", f"{PACKAGE}.ptcqr"} <= graph[f"{PACKAGE}.qrcli"]
    assert f"{PACKAGE}.qrcli" not in graph[f"{PACKAGE}.qr"] | graph[f"{PACKAGE}.ptcqr"]


@pytest.mark.parametrize(
    ("a_source", "b_source"),
    [
        ("from pkg import b\n", "from pkg.a import X\n"),
        ("import pkg.b\n", "def f():\n    from pkg import a\n"),
        ("from . import b\n", "import typing\nif typing.TYPE_CHECKING:\n    from .a import X\n"),
        ("from pkg.sub.c import Y\n", "def f():\n    import pkg.a\n"),
    ],
)
def test_the_checker_finds_circles_at_every_kind_of_import(
    tmp_path: Path, a_source: str, b_source: str
) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text(a_source)
    (pkg / "b.py").write_text(b_source)
    (pkg / "sub" / "c.py").write_text("from pkg import b\n")
    cycles = find_cycles(import_graph(pkg))
    assert len(cycles) == 1 and {"pkg.a", "pkg.b"} <= set(cycles[0])


def test_the_checker_passes_a_package_that_points_one_way(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from pkg.a import X\n")
    (pkg / "a.py").write_text("from pkg import b\nX = b.Y\n")
    (pkg / "b.py").write_text("import os\nY = 1\n")
    assert find_cycles(import_graph(pkg)) == []
