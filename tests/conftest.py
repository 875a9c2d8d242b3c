"""Shared fixtures: stores on real SQLite files and real PostgreSQL schemas.

PostgreSQL: the server named by ``STAKES_POSTGRES_HOST``/``_PORT``/``_USER``/
``_PASSWORD`` and ``STAKES_TEST_POSTGRES_DBNAME`` (defaults: 127.0.0.1:5432,
user postgres, database ``test``). When none answers and ``pg_ctl`` is on PATH,
pytest-postgresql starts a throwaway server. Every test gets its own schema (in a
module marked ``shared_store``, every test its own campaign in the module's schema: ``SharedStores``), and
every run its own schema prefix, so runs never collide. With ``CI=true`` a
missing server fails the run instead of skipping.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import ssl
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import Any

import httpx._transports.default
import psycopg
import pytest
from psycopg import sql

from adapters.service import Stakes
from adapters.settings import Settings

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
RUN_ID = uuid.uuid4().hex[:8]


def _one_certificate_store() -> None:
    """Every httpx client a test makes (``httpx.get``, ``httpx.Client(base_url=…)``) loads certifi's whole CA
    bundle into a new TLS context, even for the plain-HTTP servers on 127.0.0.1 that are all the tests reach:
    0.2-0.3 s of CPU each, more than the request it makes (a live server's start-up poll made dozens). The test
    process builds the default context once and hands every client that same one; any other ``verify`` is
    built as asked. ``stakes`` itself (a subprocess) is untouched: its client uses no TLS for http:// anyway."""
    real = httpx._transports.default.create_ssl_context  # httpx builds each transport's context here
    shared: list[ssl.SSLContext] = []

    def create_ssl_context(verify=True, cert=None, trust_env=True):
        if verify is not True or cert is not None or not trust_env:
            return real(verify=verify, cert=cert, trust_env=trust_env)
        if not shared:
            shared.append(real())
        return shared[0]

    httpx._transports.default.create_ssl_context = create_ssl_context  # type: ignore[assignment]


_one_certificate_store()


@dataclass(frozen=True)
class PgServer:
    host: str
    port: int
    user: str
    password: str
    dbname: str

    def connect(self) -> psycopg.Connection:
        return psycopg.connect(host=self.host, port=self.port, user=self.user, password=self.password,
                               dbname=self.dbname, autocommit=True, connect_timeout=3)


def _configured_server() -> PgServer:
    return PgServer(
        host=os.environ.get("STAKES_POSTGRES_HOST", "127.0.0.1"),
        port=int(os.environ.get("STAKES_POSTGRES_PORT", "5432")),
        user=os.environ.get("STAKES_POSTGRES_USER", "postgres"),
        password=os.environ.get("STAKES_POSTGRES_PASSWORD", ""),
        dbname=os.environ.get("STAKES_TEST_POSTGRES_DBNAME", "test"),
    )


@pytest.fixture(scope="session")
def pg_server(request: pytest.FixtureRequest) -> PgServer:
    server = _configured_server()
    try:
        server.connect().close()
        return server
    except psycopg.OperationalError as exc:
        reason = f"no PostgreSQL at {server.host}:{server.port}/{server.dbname}: {exc}"
    if shutil.which("pg_ctl"):
        try:
            proc = request.getfixturevalue("throwaway_postgresql")
        except Exception as exc:  # initdb refuses to run as root, for one
            reason += f"; pg_ctl could not start a throwaway server either ({type(exc).__name__}: {exc})"
            if IN_CI:
                pytest.fail(f"CI=true needs PostgreSQL, and {reason}")
            pytest.skip(reason)
        server = PgServer(proc.host, int(proc.port), proc.user, proc.password or "", proc.dbname)
        with psycopg.connect(host=server.host, port=server.port, user=server.user, dbname="postgres",
                             autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(server.dbname)))
        return server
    if IN_CI:
        pytest.fail(f"CI=true needs PostgreSQL, and {reason}; pg_ctl is not on PATH either")
    pytest.skip(reason)


try:  # a throwaway server, only started when the configured one is missing
    from pytest_postgresql import factories

    throwaway_postgresql = factories.postgresql_proc(dbname="stakes_test")
except ImportError:  # pragma: no cover
    pass


#: Tests wait longer for the store than a server does (2 s): several pytest workers, servers and
#: PostgreSQL share two cores. The outage tests set their own, short timeout.
TEST_STORE_TIMEOUT = 10


def sqlite_settings(tmp_path) -> Settings:
    return Settings(store="sqlite", sqlite_path=tmp_path / "stakes.sqlite", config=tmp_path / "config.json",
                    store_timeout=TEST_STORE_TIMEOUT)


def postgres_settings(server: PgServer, schema: str, tmp_path) -> Settings:
    return Settings(store="postgres", postgres_host=server.host, postgres_port=server.port,
                    postgres_user=server.user, postgres_password=server.password, postgres_dbname=server.dbname,
                    postgres_schema=schema, config=tmp_path / "config.json",
                    signing_key=tmp_path / f"{schema}.signing-key.pem", store_timeout=TEST_STORE_TIMEOUT)


@contextmanager
def new_schema(server: PgServer) -> Iterator[str]:
    """A schema name of this run, dropped with everything in it at the end."""
    schema = f"stakes_{RUN_ID}_{uuid.uuid4().hex[:8]}"
    try:
        yield schema
    finally:
        with server.connect() as conn:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


@pytest.fixture
def pg_schema(pg_server: PgServer) -> Iterator[str]:
    with new_schema(pg_server) as schema:
        yield schema


STORES = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]

#: ``STAKES_EVERY_STORE=1`` (and ``make screenshots``) runs every test on both stores, the split ones too.
EVERY_STORE = os.environ.get("STAKES_SCREENSHOTS") == "1" or os.environ.get("STAKES_EVERY_STORE") == "1"
#: End-to-end modules whose tests still run on both stores: what they hold differs by store (the stream
#: notifier, the command threads, imports, the audit and checkpoints, paginated queries, outages, watch, the
#: red-team attacks and the HTTP edges with ``/health``'s store).
E2E_ON_BOTH_STORES = frozenset({
    "test_stream", "test_stream_delivery", "test_stream_hardening", "test_command_threads",
    "test_web_command_threads", "test_imports_http", "test_audit_read_models_http", "test_checkpoints_http",
    "test_lists_are_paginated", "test_redteam_http", "test_service_edges", "test_watch",
})


#: Integration modules and conformance properties that hold rules, not the store: split like the end-to-end tests.
SPLIT_INTEGRATION = frozenset({
    "test_luck_report", "test_campaign_chart", "test_luck_hooks", "test_penny_ante_legal_actions",
    "test_penny_ante_rewind_loans", "test_penny_ante_house_declares_again",
})
SPLIT_CONFORMANCE = frozenset({
    "test_every_draw_recomputes_from_the_commitment_published_before_the_seeds_c4",
    "test_every_move_a_seat_lists_is_accepted_as_listed",
    "test_an_open_unit_is_rewound_and_never_voided_c6",
    "test_one_seats_seed_changes_nothing_a_seat_outside_the_unit_reads_while_its_draws_are_hidden_c5",
    "test_abandoning_a_unit_after_an_input_shows_its_would_be_draw_to_every_seat_c10",
    "test_abandoning_a_unit_after_one_draw_shows_the_draw_still_to_come_to_every_seat_c10",
    "test_the_houses_replay_lists_exactly_the_steps_an_undo_goes_back_to_c6",
    "test_a_settled_unit_is_voided_with_a_reason_once_c6",
    "test_a_unit_opens_only_while_an_adventure_runs_and_holds_the_adventure_open_c1",
    "test_a_fresh_seed_owed_after_the_houses_choices_is_each_players_own_and_never_passed_c9",
})
#: A split test runs on PostgreSQL one time in this many (by the hash of its id), on SQLite otherwise: a
#: command costs PostgreSQL about three times the CPU here (its server shares the two cores), so each store
#: carries about the same time.
POSTGRES_ONE_IN = 3


def splits(item: pytest.Item, split: tuple[str, ...]) -> bool:
    """Whether a test runs on one store only (``pytest_collection_modifyitems``)."""
    if item.get_closest_marker("both_stores"):
        return False
    path = item.nodeid.split("::")[0]
    module = path.rsplit("/", 1)[-1].removesuffix(".py")
    if path.startswith(split):
        return module not in E2E_ON_BOTH_STORES
    if module == "test_conformance":
        return getattr(item, "originalname", "") in SPLIT_CONFORMANCE
    return path.startswith("tests/integration/") and module in SPLIT_INTEGRATION


def store_of(item: pytest.Item) -> str | None:
    """The store kind a test's ``settings`` fixture takes, where it is parametrized over ``STORES``."""
    callspec = getattr(item, "callspec", None)
    store = callspec.params.get("settings") if callspec is not None else None
    return store if store in ("sqlite", "postgres") else None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """An end-to-end test (the API, the CLI, the pages over the service; a benchmark's single run in ``make
    test``), and an integration test of rules rather than the store (``SPLIT_INTEGRATION``,
    ``SPLIT_CONFORMANCE``), runs on ONE of the two stores, picked by a hash of its id (``POSTGRES_ONE_IN``), so
    the faces and rules are held on both stores across the suite within its 20-minute budget. The store-level
    tests (unit, the rest of integration, ``E2E_ON_BOTH_STORES``) keep both, as does a test marked
    ``both_stores``. ``STAKES_EVERY_STORE=1`` runs every test on both."""
    if EVERY_STORE:
        return
    # ``make bench`` measures on both stores; in ``make test`` a benchmark runs once, as a smoke test, on one
    split = ("tests/e2e/",) if config.getoption("benchmark_enable", False) else ("tests/e2e/", "tests/benchmarks/")
    pairs: dict[str, dict[str, pytest.Item]] = {}
    for item in items:
        store = store_of(item)
        if store is None or not splits(item, split):
            continue
        pairs.setdefault(item.nodeid.replace("postgres", "sqlite"), {})[store] = item
    dropped = []
    for key, both in pairs.items():
        if len(both) == 2:
            kept = "postgres" if int(hashlib.sha256(key.encode()).hexdigest(), 16) % POSTGRES_ONE_IN == 0 else "sqlite"
            dropped += [item for store, item in both.items() if store != kept]
    if dropped:
        gone = {id(item) for item in dropped}
        items[:] = [item for item in items if id(item) not in gone]
        config.hook.pytest_deselected(items=dropped)


class SharedStores:
    """The stores the tests of a module marked ``shared_store`` share, one of each kind, each made when a test
    first asks for it, and what is built on one (a live server, say: ``keep``). Each test makes its own campaign
    in it, so nothing a test checks depends on the store being empty; all of it ends with the module."""

    def __init__(self, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
                 stack: ExitStack) -> None:
        self.request, self.tmp_path_factory, self.stack = request, tmp_path_factory, stack
        self.kept: dict[Any, Any] = {}

    def settings(self, kind: str) -> Settings:
        def make() -> Settings:
            folder = self.tmp_path_factory.mktemp(f"shared-{kind}")
            if kind == "sqlite":
                return sqlite_settings(folder)
            server = self.request.getfixturevalue("pg_server")
            return postgres_settings(server, self.stack.enter_context(new_schema(server)), folder)

        return self.keep(("settings", kind), make)

    def keep(self, key: Any, make: Callable[[], Any]) -> Any:
        """``make()`` the first time ``key`` is asked for; the same thing after."""
        if key not in self.kept:
            self.kept[key] = make()
        return self.kept[key]


@pytest.fixture(scope="module")
def shared_stores(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[SharedStores]:
    with ExitStack() as stack:
        yield SharedStores(request, tmp_path_factory, stack)


def shares_stores(request: pytest.FixtureRequest) -> bool:
    """Whether the test's module is marked ``shared_store``."""
    return request.node.get_closest_marker("shared_store") is not None


@pytest.fixture(params=STORES)
def settings(request: pytest.FixtureRequest, tmp_path) -> Settings:
    """Settings for a fresh, empty store, once per store kind; in a module marked ``shared_store``, the module's
    store of that kind (``SharedStores``)."""
    if shares_stores(request):  # a copy: a test that changes its settings changes no other test's
        return request.getfixturevalue("shared_stores").settings(request.param).model_copy()
    if request.param == "sqlite":
        return sqlite_settings(tmp_path)
    server = request.getfixturevalue("pg_server")
    return postgres_settings(server, request.getfixturevalue("pg_schema"), tmp_path)


@pytest.fixture
def stakes(settings: Settings) -> Iterator[Stakes]:
    service = Stakes(settings)
    yield service
    service.close()


@pytest.fixture
def env_for(monkeypatch: pytest.MonkeyPatch):
    """Point STAKES_* environment variables (read by the CLI and the server) at given settings."""

    def apply(settings: Settings) -> dict[str, str]:
        dumped = settings.model_dump()
        env = {f"STAKES_{k.upper()}": str(v) for k, v in dumped.items() if v is not None}
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        for key in (f"STAKES_{k.upper()}" for k, v in dumped.items() if v is None):  # unset: its default
            monkeypatch.delenv(key, raising=False)
        for key in ("STAKES_SERVER", "STAKES_TOKEN", "STAKES_AS", "STAKES_CAMPAIGN"):
            monkeypatch.delenv(key, raising=False)
        return env

    return apply
