"""Layering: the pure Royal Nine modules never import pygame; the shim never imports the game."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def _py_files(folder: str) -> list[Path]:
    files = sorted((ROOT / folder).rglob("*.py"))
    assert files, f"no Python files under {folder}"
    return files


def test_pure_layers_never_import_pygame() -> None:
    for folder in ("royalnine/core", "royalnine/ai", "royalnine/remote"):
        for path in _py_files(folder):
            assert "pygame" not in _imports(path), f"{path} imports pygame"


def test_core_imports_only_stdlib_and_itself() -> None:
    allowed_third_party: set[str] = set()
    for path in _py_files("royalnine/core"):
        for name in _imports(path) - {"royalnine", "__future__"}:
            assert name not in {"numpy", "pygame", "PIL", "petitcom_shim"} | allowed_third_party, (
                f"{path} imports {name}"
            )


def test_shim_never_imports_the_game() -> None:
    for path in _py_files("petitcom_shim"):
        assert "royalnine" not in _imports(path), f"{path} imports royalnine"


def test_shim_never_imports_the_basic_interpreter() -> None:
    """``basic`` → ``Machine``, never back: only the basic package imports it."""
    for path in _py_files("petitcom_shim"):
        if "basic" in path.relative_to(ROOT / "petitcom_shim").parts[:1]:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith("petitcom_shim.basic"), f"{path} imports basic"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    assert not alias.name.startswith("petitcom_shim.basic"), path


def test_basic_uses_only_the_machines_public_api() -> None:
    """No ``machine._private`` (nor ``rt.machine._private``) inside petitcom_shim/basic."""
    for path in _py_files("petitcom_shim/basic"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute) or not node.attr.startswith("_"):
                continue
            owner = node.value
            name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
            assert "machine" not in name.lower() or node.attr.startswith("__"), (
                f"{path}:{node.lineno} uses Machine's private {node.attr}"
            )
