"""compose.yaml uses the setting names the code reads (no Docker engine runs here, so it is parsed)."""

from pathlib import Path

import yaml

from adapters.settings import Settings

COMPOSE = yaml.safe_load((Path(__file__).resolve().parents[2] / "compose.yaml").read_text())
API = COMPOSE["services"]["api"]["environment"]
DB = COMPOSE["services"]["db"]["environment"]
FIELDS = {f"STAKES_{name.upper()}" for name in Settings.model_fields}


def test_every_stakes_setting_in_compose_is_one_the_code_reads():
    assert set(API) <= FIELDS, set(API) - FIELDS


def test_compose_runs_the_api_on_postgres_with_every_connection_setting():
    needed = {f"STAKES_POSTGRES_{k}" for k in ("HOST", "PORT", "USER", "PASSWORD", "DBNAME", "SCHEMA")}
    assert needed <= set(API) and API["STAKES_STORE"] == "postgres"


def test_compose_settings_parse_and_match_the_database_service():
    settings = Settings(**{k.removeprefix("STAKES_").lower(): v for k, v in API.items()})
    assert settings.store == "postgres"
    assert (settings.postgres_user, settings.postgres_password, settings.postgres_dbname) == (
        DB["POSTGRES_USER"], DB["POSTGRES_PASSWORD"], DB["POSTGRES_DB"])
    assert settings.postgres_host in COMPOSE["services"]


def test_compose_publishes_the_port_the_api_listens_on():
    assert f"{API['STAKES_PORT']}:{API['STAKES_PORT']}" in COMPOSE["services"]["api"]["ports"]
    assert "stakes serve" in " ".join(COMPOSE["services"]["api"]["command"])
