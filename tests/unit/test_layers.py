"""The domain imports nothing from the outer layers or their frameworks."""

import ast
from pathlib import Path

import pytest

DOMAIN = Path(__file__).resolve().parents[2] / "domain"
FORBIDDEN = ("adapters", "api", "cli", "fastapi", "typer", "psycopg", "starlette", "uvicorn", "httpx", "rich", "click",
             "sqlite3")


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", sorted(DOMAIN.rglob("*.py")), ids=lambda p: str(p.relative_to(DOMAIN)))
def test_domain_module_imports_no_outer_layer_or_framework(path: Path) -> None:
    bad = {m for m in imported_modules(path) if m.split(".")[0] in FORBIDDEN}
    assert not bad, f"{path.name} imports {sorted(bad)}"


def test_the_cli_uses_only_typers_public_api_and_never_click() -> None:
    cli = DOMAIN.parent / "cli"
    for path in cli.rglob("*.py"):
        assert not any(m.split(".")[0] == "click" for m in imported_modules(path)), path.name
