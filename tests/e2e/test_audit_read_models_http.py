"""Issue 29, through a running ``stakes serve`` and the CLI (against it and embedded), on both stores: an
edit of the read-model database (a sheet's pile, a rewritten log entry) is reported by ``GET …/audit`` and by
``stakes audit verify`` (exit 10), to the House with the rows, to a player with the tables only (C-5)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest

from adapters.settings import Settings
from tests.e2e.conftest import Cli, bearer
from tests.e2e.live import live_server
from tests.integration.test_audit_read_models import ReadModels

TAMPERED = 10
PILE, NAME, DETAIL = 987654, "PLANTED-SECRET", "FORGED-ENTRY-TEXT"


@pytest.fixture
def server(settings: Settings, env_for, tmp_path) -> Iterator[str]:
    with live_server(env_for(settings), tmp_path / "server.log") as url:
        yield url


def seat_cli(cli: Cli, tmp_path, name: str) -> Cli:
    """A CLI with its own config file, as on that seat's own laptop."""
    return Cli({**cli.env, "STAKES_CONFIG": str(tmp_path / f"{name}.json")})


def tables(report: dict) -> set[tuple[str, str]]:
    return {(d["table"], d["kind"]) for d in report["read_model_differences"]}


def test_an_edited_sheet_row_and_log_entry_are_reported_over_http_and_by_the_cli(cli, server, settings, tmp_path):
    house = seat_cli(cli, tmp_path, "house")
    created = house.json("--server", server, "campaign", "create", "Jade Court", "--starting-pile", "30")
    cid, house_token = created["campaign"]["id"], created["house_token"]
    invites = {seat: house.json("player", "add", seat, "--character", seat.title(), "--characteristic", "Whip")[
        "invite"] for seat in ("ilse", "tomas")}
    ilse, tomas = seat_cli(cli, tmp_path, "ilse"), seat_cli(cli, tmp_path, "tomas")
    ilse_token = ilse.json("claim", invites["ilse"], "--server", server)["token"]
    tomas("claim", invites["tomas"], "--server", server)
    ilse("characteristic", "buy", "Lucky Necklace")
    tomas("loan", "offer", "ilse", "10")

    with httpx.Client(base_url=server, timeout=60) as http:
        untouched = http.get(f"/campaigns/{cid}/audit", headers=bearer(house_token))
        assert untouched.status_code == 200 and untouched.json()["intact"]
        assert untouched.json()["read_models"] == "intact"
        assert "intact" in ilse("audit", "verify").stdout

        views = ReadModels(settings)
        try:
            views.run("UPDATE {p}characters SET pile = ?, name = ? WHERE campaign_id = ? AND seat = 'tomas'",
                      PILE, NAME, cid.replace("-", ""))
            entry = views.run("SELECT MAX(notification_id) FROM {p}event_log WHERE campaign_id = ?",
                              cid.replace("-", ""))[0][0]
            views.run("UPDATE {p}event_log SET detail = ? WHERE notification_id = ?", json.dumps({"x": DETAIL}),
                      entry)
        finally:
            views.close()
        forged = http.get(f"/campaigns/{cid}/characters/tomas", headers=bearer(house_token))
        assert forged.json()["pile"] == PILE  # the forgery shows in the reads …

        as_house = http.get(f"/campaigns/{cid}/audit", headers=bearer(house_token))  # … and the audit says so
        assert as_house.status_code == 200
        report = as_house.json()
        assert not report["intact"] and report["read_models"] == "altered" and report["read_model_rows"] == 2
        assert report["first_broken"]["kind"] == "read-model-altered"
        assert tables(report) == {("characters", "altered"), ("event_log", "altered")}
        sheet_row = next(d for d in report["read_model_differences"] if d["table"] == "characters")
        assert sheet_row["found"] == {"name": NAME, "pile": PILE} and sheet_row["expected"]["name"] == "Tomas"

        as_ilse = http.get(f"/campaigns/{cid}/audit", headers=bearer(ilse_token))
        assert as_ilse.status_code == 200 and not as_ilse.json()["intact"]
        assert tables(as_ilse.json()) == {("characters", "altered"), ("event_log", "altered")}
        for secret in (str(PILE), NAME, DETAIL, "Tomas", f"notification_id={entry}"):
            assert secret not in as_ilse.text
        assert all((d["key"], d["found"], d["expected"], d["columns"]) == (None, None, None, [])
                   for d in as_ilse.json()["read_model_differences"])

    # the CLI against the server: exit 10, the rows for the House, the tables only for a player
    told_house = house("audit", "verify", expect=TAMPERED).stdout
    assert "characters" in told_house and "event_log" in told_house and str(PILE) in told_house
    told_ilse = ilse("audit", "verify", expect=TAMPERED).stdout
    assert "characters" in told_ilse and "event_log" in told_ilse
    assert not any(s in told_ilse for s in (str(PILE), NAME, DETAIL))
    as_json = json.loads(ilse("audit", "verify", "--format", "json", expect=TAMPERED).stdout)
    assert as_json["read_models"] == "altered" and all(d["key"] is None for d in as_json["read_model_differences"])

    # the CLI on the store itself (embedded), as the House and as a player
    embedded = seat_cli(cli, tmp_path, "embedded")
    assert str(PILE) in embedded("audit", "verify", "--as", "house", "--campaign", cid, expect=TAMPERED).stdout
    told = embedded("audit", "verify", "--as", "ilse", "--campaign", cid, expect=TAMPERED).stdout
    assert "characters" in told and not any(s in told for s in (str(PILE), NAME, DETAIL))


def test_a_row_deleted_and_a_row_planted_in_the_read_models_are_reported_by_the_embedded_cli(cli, settings, tmp_path):
    house = seat_cli(cli, tmp_path, "house")
    cid = house.json("campaign", "create", "Jade Court")["campaign"]["id"]
    house("player", "add", "ilse", "--character", "Ilse", "--characteristic", "Whip")
    house("characteristic", "buy", "Lucky Necklace", "--as", "ilse")
    assert house.json("audit", "verify", "--as", "ilse")["intact"]
    views = ReadModels(settings)
    try:
        views.run("DELETE FROM {p}characteristics WHERE name = 'Lucky Necklace'")
        views.run("INSERT INTO {p}event_log SELECT notification_id + 100000, campaign_id, at, actor, stream, event,"
                  " detail, visibility, challenge_id, seq + 100000 FROM {p}event_log WHERE campaign_id = ?"
                  " ORDER BY notification_id LIMIT 1", cid.replace("-", ""))
    finally:
        views.close()
    report = json.loads(house("audit", "verify", "--as", "house", "--format", "json", expect=TAMPERED).stdout)
    assert tables(report) == {("characteristics", "missing"), ("event_log", "foreign")}
    assert report["read_model_rows"] == 2
