"""The CLI starts fast (issue 14, issue 15): importing it loads neither the store nor the domain's systems,
nor the web framework; a command against a server never loads the store."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

HEAVY = ("eventsourcing", "fastapi", "starlette", "psycopg", "sqlite3", "adapters.service", "adapters.store",
         "adapters.views", "domain.systems", "domain.kernel", "domain.application", "api", "rich", "httpx",
         "pydantic_settings")


@pytest.fixture(scope="module")
def env(tmp_path_factory) -> dict[str, str]:
    """A catalogue cache of its own, written once (as the first command on a machine does)."""
    cache = tmp_path_factory.mktemp("cache")
    env = {**os.environ, "STAKES_CACHE_DIR": str(cache)}
    subprocess.run([sys.executable, "-c", "import cli.catalogue as c; c.load()"], env=env, check=True)
    assert list(cache.glob("cli-catalogue-*.json"))
    return env


def loaded_after(env: dict[str, str], code: str) -> set[str]:
    probe = f"import sys\n{code}\nimport json\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, env=env)
    return set(json.loads(done.stdout.splitlines()[-1]))


def heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


def test_importing_the_cli_loads_no_store_no_domain_systems_and_no_web_framework(env):
    assert heavy(loaded_after(env, "import cli.main")) == []


def test_building_the_help_loads_no_store_and_no_domain_systems(env):
    code = ("import contextlib, io, cli.main\n"
            "with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.suppress(SystemExit):\n"
            "    cli.main.main(['--help'])\n"
            "assert 'Every system:' in out.getvalue()")
    assert heavy(loaded_after(env, code)) == []


def test_a_command_against_a_server_needs_no_store_and_no_domain_systems(env):
    """What a remote command loads to run and parse an answer: the client, the answer's schema, the renderers."""
    code = ("import cli.main, cli.remote, cli.output, cli.catalogue\n"
            "cli.remote._answer('penny-ante', 'unit'); cli.remote._answer('pool', 'sheet')\n"
            "cli.remote._answer('penny-ante', 'player-added'); cli.output.renderers()\n"
            "[cli.catalogue.model(r['model']) for r in cli.catalogue.load()['reads']]")
    loaded = loaded_after(env, code)
    store = ("eventsourcing", "fastapi", "psycopg", "adapters.service", "adapters.store", "adapters.views",
             "domain.systems", "domain.application", "api", "pydantic_settings")
    assert [m for m in sorted(loaded) if any(m == s or m.startswith(s + ".") for s in store)] == []


def test_the_catalogue_is_rebuilt_when_its_sources_change(tmp_path, monkeypatch):
    """A cached catalogue is only used for the sources it was read from (its name holds their fingerprint)."""
    from cli import catalogue

    monkeypatch.setenv("STAKES_CACHE_DIR", str(tmp_path))
    catalogue.load.cache_clear()
    first = catalogue.load()
    (written,) = tmp_path.glob("cli-catalogue-*.json")
    assert catalogue.fingerprint() in written.name
    monkeypatch.setattr(catalogue, "fingerprint", lambda: "changed")
    catalogue.load.cache_clear()
    assert catalogue.load() == first == catalogue.build()
    assert [p.name for p in tmp_path.glob("cli-catalogue-*.json")] == ["cli-catalogue-changed.json"]
    catalogue.load.cache_clear()


def test_an_answer_printed_as_json_loads_no_table_library(env):
    """Under ``--format json`` the sink prints the schema's JSON: rich (and httpx's own CLI, which would pull it
    in) are not loaded; the first table drawn loads them."""
    code = ("import contextlib, io, cli.main, cli.remote, cli.output\n"
            "from adapters.schemas import SeatRef\n"
            "from cli.options import Format\n"
            "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
            "    cli.output.emit(SeatRef(seat='ilse', character='Ilse'), Format.json, cli.output.sheet)\n"
            "assert '\"ilse\"' in out.getvalue()")
    loaded = loaded_after(env, code)
    assert sorted(m for m in loaded if m == "rich" or m.startswith(("rich.", "pygments"))) == []
    drawn = loaded_after(env, code.replace("Format.json", "Format.table").replace("'\"ilse\"'", "'ilse'"))
    assert "rich" in drawn
