"""The boundary between shared code and the rule systems (ADR 0009): shared modules ask the registry.

A shared module (anything outside a system's own package and its thin edge modules) neither imports a
system's package nor names a system id; the registry (``domain/systems/__init__.py``) is the one place
that lists the systems. Adding a system is then one package, its edge modules, and one registry line.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from domain.kernel.registry import systems

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("domain", "adapters", "api", "cli")
REGISTRY = ROOT / "domain" / "systems" / "__init__.py"
IDS = {s.id for s in systems()}
PACKAGES = {s.package for s in systems() if s.supported}


def system_owned(path: Path) -> bool:
    """A system's own package, or its module in an edge layer's ``systems/`` folder (``api/web/systems/`` too,
    where each system's web board lives)."""
    parts = path.relative_to(ROOT).parts
    return any(parts[i] == "systems" and parts[i + 1] != "__init__.py" for i in range(1, len(parts) - 1))


def shared_modules() -> list[Path]:
    found = [p for layer in LAYERS for p in sorted((ROOT / layer).rglob("*.py"))]
    return [p for p in found if p != REGISTRY and not system_owned(p)]


def imported(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def strings(tree: ast.AST) -> set[str]:
    """Every string constant that is not a docstring."""
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    return {node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings}


@pytest.mark.parametrize("path", shared_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_a_shared_module_imports_no_rule_system(path: Path) -> None:
    tree = ast.parse(path.read_text())
    bad = {m for m in imported(tree) for layer in LAYERS for package in PACKAGES
           if m == f"{layer}.systems.{package}" or m.startswith(f"{layer}.systems.{package}.")}
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}; ask the registry instead"


@pytest.mark.parametrize("path", shared_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_a_shared_module_names_no_system_id(path: Path) -> None:
    named = {text for text in strings(ast.parse(path.read_text())) for system_id in IDS
             if text == system_id or f"'{system_id}'" in text or f'"{system_id}"' in text}
    assert not named, f"{path.relative_to(ROOT)} names {sorted(named)}; the registry knows the systems"


def test_the_registry_lists_every_system_once() -> None:
    ids = [s.id for s in systems()]
    assert len(ids) == len(set(ids)) and {"penny-ante", "pool", "twenty-one", "beast", "pulp-cards"} <= set(ids)


def test_the_checks_see_a_system_import_and_a_system_id(tmp_path: Path) -> None:
    """The two checks above are not vacuous."""
    tree = ast.parse("from domain.systems.pool.rolls import PoolRoll\nx = 'pool'\n")
    assert "domain.systems.pool.rolls" in imported(tree)
    assert "pool" in strings(tree)
