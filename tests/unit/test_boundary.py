"""The boundary between shared code and the rule systems (ADR 0009): shared modules ask the registry.

A shared module (anything outside a system's own package and its thin edge modules) neither imports a
system's package nor names a system id; the registry (``domain/systems/__init__.py``) is the one place
that lists the systems. Adding a system is then one package, its edge modules, and one registry line.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from domain.kernel.registry import systems

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("domain", "adapters", "api", "cli")
REGISTRY = ROOT / "domain" / "systems" / "__init__.py"
IDS = {s.id for s in systems()}
PACKAGES = {s.package for s in systems() if s.supported}
#: Words that name one system's concepts (issue 30, ADR 0033): Penny Ante's ante, pot, pennies, loans and bids,
#: its characteristics and antagonists; the Pool's traits; Beast's Humanity and Willpower; the card systems'
#: decks and reshuffles. Shared code names none of them, in its identifiers, its strings and its schemas.
CONCEPTS = frozenset({
    "ante", "pot", "pots", "penny", "pennies", "loan", "loans", "lender", "lenders", "borrower", "borrowers",
    "bid", "bids", "buyout", "bankrupt", "bankrupts", "characteristic", "characteristics", "antagonist",
    "antagonists", "trait", "traits", "humanity", "willpower", "deck", "decks", "reshuffle"})
#: What shared code still says, and why. The kernel's verify results name a shuffle's cards ``deck``
#: (``domain/kernel/resolution.py``, where the rewind work goes on; renaming the key changes the verify
#: answer, which docs/fairness.md documents), and the CLI's verify panel reads that key.
KNOWN = {"domain/kernel/resolution.py": {"deck"}, "cli/history.py": {"deck", "shuffled deck"},
         "adapters/luck.py": {"deck"},  # the luck report reads the kernel's shuffle records
         "api/static/fairness.js": {"deck"}}
#: The frame's templates, scripts and styles (each board's own are under ``systems/`` and ``boards/``).
WEB_FRAME = [*sorted((ROOT / "api" / "web" / "templates").glob("*.html")), *sorted((ROOT / "api" / "static").glob("*.js")),
             *sorted((ROOT / "api" / "static").glob("*.css"))]


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


def words(text: str) -> set[str]:
    """The lower-case words of an identifier (``best_bid``, ``LoanOffer``) or of a text."""
    return {w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", text)}


def identifiers(tree: ast.AST) -> set[str]:
    """Every name the module defines or uses: variables, attributes, functions, classes, arguments, keywords."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(node.name)
        elif isinstance(node, ast.arg) or (isinstance(node, ast.keyword) and node.arg):
            found.add(node.arg)
        elif isinstance(node, ast.alias):
            found.add(node.asname or node.name.rsplit(".", 1)[-1])
    return found


def naming_concepts(names: set[str], path: Path) -> set[str]:
    known = KNOWN.get(str(path.relative_to(ROOT)), set())
    return {n for n in names if words(n) & CONCEPTS and n not in known}


@pytest.mark.parametrize("path", shared_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_a_shared_modules_identifiers_name_no_systems_concept(path: Path) -> None:
    """Issue 30: beyond spelling a system's id, shared code names none of its concepts (a ``loan`` field, an
    ``ante`` column, a ``deck`` argument): a system's own words live in its own modules."""
    named = naming_concepts(identifiers(ast.parse(path.read_text())), path)
    assert not named, f"{path.relative_to(ROOT)} names {sorted(named)}: a system's concept, in shared code"


@pytest.mark.parametrize("path", shared_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_a_shared_modules_strings_name_no_systems_concept(path: Path) -> None:
    named = naming_concepts(strings(ast.parse(path.read_text())), path)
    assert not named, f"{path.relative_to(ROOT)} says {sorted(named)}: a system's concept, in shared code"


@pytest.mark.parametrize("path", WEB_FRAME, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_web_frame_names_no_systems_concept(path: Path) -> None:
    """The frame's templates, scripts and styles (ADR 0031) name no system's concept either; what a table looks
    like is its board's."""
    named = naming_concepts(set(re.findall(r"[A-Za-z_]+", path.read_text())), path)
    assert not named, f"{path.relative_to(ROOT)} names {sorted(named)}: a system's concept, in the shared frame"


def test_the_shared_schemas_and_the_units_table_name_no_systems_concept() -> None:
    """The shared ``LegalAction`` carries the limits every system shares, the unit summary the shared columns
    (a system's own figures are its ``summary``), and so does the units table: each system types its own."""
    from adapters import schemas
    from adapters.views import SHARED_DDL

    for model in (schemas.LegalAction, schemas.ChallengeSummary, schemas.ResolutionView):
        named = {f for f in model.model_fields if words(f) & CONCEPTS}
        assert not named, f"{model.__name__} has {sorted(named)}: declare them in the system's own schema"
    for statement in SHARED_DDL:
        named = {w for w in re.findall(r"[a-z_]+", statement.split("(", 1)[-1]) if words(w) & CONCEPTS}
        assert not named, f"a shared read model names {sorted(named)}: {statement[:60]}"


def test_every_systems_legal_action_is_the_shared_one_or_its_own_subclass() -> None:
    """Each system's unit views type their legal actions with the shared class or a subclass of it declared in the
    system's adapter module, so the OpenAPI describes each system's own limits (issue 30)."""
    from typing import get_args

    from adapters.schemas import LegalAction
    from adapters.systems import edge

    for system in systems():
        if not system.supported:
            continue
        for view in edge(system.id).UNITS:
            [legal] = get_args(view.model_fields["legal_actions"].annotation)
            assert issubclass(legal, LegalAction), (system.id, view.__name__)
            assert legal is LegalAction or legal.__module__.startswith(edge(system.id).__name__), legal


def test_the_concept_checks_see_a_concept_in_an_identifier_a_string_and_a_schema(tmp_path: Path) -> None:
    """The checks above are not vacuous."""
    tree = ast.parse("def pay(best_bid, LoanOffer): return best_bid.deck\nx = 'the pot'\n")
    path = ROOT / "adapters" / "example.py"
    assert naming_concepts(identifiers(tree), path) == {"best_bid", "LoanOffer", "deck"}
    assert naming_concepts(strings(tree), path) == {"the pot"}
    assert naming_concepts({"shuffled deck"}, ROOT / "cli" / "history.py") == set()


def test_the_registry_lists_every_system_once() -> None:
    ids = [s.id for s in systems()]
    assert len(ids) == len(set(ids)) and {"penny-ante", "pool", "twenty-one", "beast", "pulp-cards"} <= set(ids)


def test_the_checks_see_a_system_import_and_a_system_id(tmp_path: Path) -> None:
    """The two checks above are not vacuous."""
    tree = ast.parse("from domain.systems.pool.rolls import PoolRoll\nx = 'pool'\n")
    assert "domain.systems.pool.rolls" in imported(tree)
    assert "pool" in strings(tree)
