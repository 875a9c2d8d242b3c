"""C-2 from the player's laptop: the CLI keeps the last signed head of its campaign and, on every call to a
live server, checks the log still extends it. Cutting or rewriting the log stops it with exit code 10."""

from __future__ import annotations

import json

import pytest

from adapters import codec
from tests.e2e.test_cli_live_server import seat_cli, server  # noqa: F401  (fixture)
from tests.integration.test_audit import Rows
from tests.integration.test_tamper import rechain


@pytest.fixture
def rows(settings):
    r = Rows(settings)
    yield r
    r.close()


def seated(cli, tmp_path, server):  # noqa: F811
    house = seat_cli(cli, tmp_path, "house")
    house.json("--server", server, "campaign", "create", "Jade Court", "--starting-pile", "30")
    invite = house.json("player", "add", "ilse", "--character", "Ilse Varn", "--characteristic", "Whip")["invite"]
    house.json("player", "add", "tomas", "--character", "Brother Tomas", "--characteristic", "Love")
    ilse = seat_cli(cli, tmp_path, "ilse")
    ilse("claim", invite, "--server", server)
    ilse.json("characteristic", "buy", "Lucky Necklace")
    return house, ilse


def held(tmp_path) -> dict:
    return json.loads((tmp_path / "ilse.json").read_text())["heads"]


def test_the_cli_keeps_the_last_signed_head_and_checks_it_on_every_call(cli, server, tmp_path):  # noqa: F811
    _house, ilse = seated(cli, tmp_path, server)
    first = held(tmp_path)
    assert len(first) == 1 and "\n\u2014 stakes " in next(iter(first.values()))
    ilse.json("characteristic", "buy", "Quick")
    assert held(tmp_path) != first and ilse.json("sheet")["pile"] == 20
    assert [ilse("audit", "checkpoint", "--note").stdout] == list(held(tmp_path).values())  # the held head (issue 29)


@pytest.mark.parametrize("attack", ["truncate", "rewrite"])
def test_a_cut_or_rewritten_log_stops_the_cli_with_the_tamper_exit_code(cli, server, tmp_path, rows, attack):  # noqa: F811
    _house, ilse = seated(cli, tmp_path, server)
    ilse.json("characteristic", "buy", "Quick")
    links = rows.run(f"SELECT notification_id, salt FROM {rows.chain} ORDER BY notification_id")
    if attack == "truncate":
        for nid, _ in links[-2:]:
            rows.delete(nid)
            rows.run(f"DELETE FROM {rows.chain} WHERE notification_id = ?", nid)
        rechain(rows, links[:-2])  # the campaign's head row set back to match
    else:  # Ilse's first purchase cost 5; make it 6, and recompute every digest and link after it
        target = next(nid for nid, _ in links if b'"cost":5' in codec.plain(
            rows.run(f"SELECT state FROM {rows.table} WHERE {rows.id_col} = ?", nid)[0][0]))
        rows.alter(target)
        rechain(rows, links)
    result = ilse("sheet", expect=10)
    assert "C-2" in result.stderr and "truncated, forked or rewritten" in result.stderr
    evidence = next(tmp_path.glob("evidence-*.txt")).read_text()
    assert evidence.count("\u2014 stakes ") == (2 if attack == "rewrite" else 1)
