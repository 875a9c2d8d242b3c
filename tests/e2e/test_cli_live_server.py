"""Two seats play the economy from the CLI against a live ``stakes serve`` (uvicorn) on each store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from adapters.settings import Settings
from tests.e2e.conftest import Cli
from tests.e2e.live import free_port, live_server_for

OPERATOR = "operator-secret-for-tests"

#: Each test plays its own campaign: the module shares one store of each kind and its live server.
pytestmark = pytest.mark.shared_store


@pytest.fixture
def server(request: pytest.FixtureRequest, settings: Settings, env_for, tmp_path) -> Iterator[str]:
    """A live ``stakes serve`` on the test's store (the module's, in a module marked ``shared_store``)."""
    env = {**env_for(settings), "STAKES_OPERATOR_TOKEN": OPERATOR}
    with live_server_for(request, settings, env, tmp_path / "server.log") as (url, _, _):
        yield url


def seat_cli(cli: Cli, tmp_path, name: str) -> Cli:
    """A CLI with its own config file, as on that player's own laptop."""
    return Cli({**cli.env, "STAKES_CONFIG": str(tmp_path / f"{name}.json")})


def test_two_seats_play_the_economy_from_the_cli_against_a_running_server(cli, server, tmp_path):
    house = seat_cli(cli, tmp_path, "house")
    created = house.json("--server", server, "campaign", "create", "Jade Court", "--starting-pile", "30")
    assert created["house_token"].startswith("stk_")
    # Created against a server, the CLI remembers the server and the House token.
    # The House hands each player a one-time invite code; the player claims it and alone gets his token.
    ilse_invite = house.json("player", "add", "ilse", "--character", "Ilse Varn", "--characteristic", "Whip")["invite"]
    tomas_invite = house.json("player", "add", "tomas", "--character", "Brother Tomas", "--characteristic", "Love")[
        "invite"]

    ilse, tomas = seat_cli(cli, tmp_path, "ilse"), seat_cli(cli, tmp_path, "tomas")
    assert ilse.json("claim", ilse_invite, "--server", server)["seat"] == "ilse"
    tomas("claim", tomas_invite, "--server", server)
    assert "already claimed" in seat_cli(cli, tmp_path, "thief")("claim", ilse_invite, "--server", server,
                                                                   expect=4).stderr

    assert ilse.json("characteristic", "buy", "Lucky Necklace")["pile"] == 25
    loan = tomas.json("loan", "offer", "ilse", "10")["loan_id"]
    ilse("loan", "accept", loan[:8])
    assert ilse.json("sheet")["pile"] == 35 and tomas.json("sheet")["pile"] == 20

    house("antagonist", "create", "Lady Sen", "--characteristic", "Poison")
    assert house.json("adventure", "start")["pile"] == 55
    house("antagonist", "fund", "Lady Sen", "40")
    assert ilse.json("budget")["antagonists"] == [
        {"name": "Lady Sen", "kind": "antagonist", "pennies": 40, "in_play": 0, "winnings": 0, "characteristics": None}]
    assert "Poison" not in ilse("log", "--limit", "1000").stdout
    assert ilse.json("debts")["loans"][0]["status"] == "defaulted"

    # A player acts only for himself; the House only for the House side.
    assert "C-1" in tomas("antagonist", "create", "Fake", expect=4).stderr
    assert "C-1" in ilse("adventure", "end", expect=4).stderr
    assert "PA-2" in ilse("characteristic", "buy", "Too Late", expect=3).stderr
    assert "--as is for embedded use" in ilse("sheet", "--as", "tomas", expect=2).stderr
    house("adventure", "end")

    # The embedded CLI on the same store sees the same state (read-your-writes across processes).
    assert cli.json("sheet", "ilse", "--campaign", created["campaign"]["id"])["pile"] == 35


def test_a_bad_token_against_a_server_exits_with_the_unauthenticated_code(cli, server, tmp_path):
    stranger = seat_cli(cli, tmp_path, "stranger")
    result = stranger("--server", server, "--token", "stk_forged", "sheet", expect=7)
    assert "Unknown token" in result.stderr and "Traceback" not in result.output


def test_an_unreachable_server_is_reported_without_a_traceback(cli, tmp_path):
    result = seat_cli(cli, tmp_path, "lost")("--server", f"http://127.0.0.1:{free_port()}", "--token", "x", "sheet",
                                             expect=8)
    assert "cannot reach" in result.stderr


def test_two_seats_play_a_full_challenge_from_the_cli_against_a_running_server(cli, server, tmp_path):
    house = seat_cli(cli, tmp_path, "house")
    created = house.json("--server", server, "campaign", "create", "Jade Court", "--starting-pile", "30")
    ilse_invite = house.json("player", "add", "ilse", "--character", "Ilse Varn", "--characteristic", "Whip")["invite"]
    house("antagonist", "create", "Lady Sen", "--characteristic", "Poison", "--characteristic", "Cunning")
    house("adventure", "start")
    house("antagonist", "fund", "Lady Sen", "20")
    ilse = seat_cli(cli, tmp_path, "ilse")
    ilse("claim", ilse_invite, "--server", server)

    view = house.json("challenge", "announce", "--challenger", "house:Lady Sen", "--opponent", "ilse", "--ante", "1")
    challenge = view["id"]
    house("challenge", "declare", "Poison")  # C-9: the House's characteristics before the player's seed
    ilse("challenge", "seed", "four leaf clover")
    ilse("challenge", "declare", "Whip")
    house("challenge", "roll")
    ilse("challenge", "roll")
    house("challenge", "keep", "--cup", "1")
    seen = ilse.json("challenge", "show")
    assert seen["sides"]["challenger"]["dice"][0]["value"] is None  # Sen's cup die stays hidden (C-5)
    assert "Cunning" not in ilse("challenge", "show").stdout
    ilse("challenge", "keep")
    house("challenge", "raise", "2")
    ilse("challenge", "call")
    house("challenge", "roll")
    ilse("challenge", "roll")
    ilse("challenge", "seed")  # C-9: a fresh seed, 128 random bits drawn by the CLI, rolls both cups
    house("challenge", "check")
    done = ilse.json("challenge", "check")
    assert done["phase"] == "settled" and done["secret_seed"]
    assert "every server-rolled die matches" in ilse("challenge", "verify", challenge[:8]).stdout
    assert house.json("challenge", "verify")["mismatches"] == []
    sheet = ilse.json("sheet")
    assert sheet["in_play"] == 0 and sheet["pile"] in (30 - 3, 30 + 3, 30)
    assert created["campaign"]["id"] == ilse.json("campaign", "show")["id"]


def test_replay_undo_overturn_audit_export_and_import_against_a_running_server(cli, server, tmp_path):
    house = seat_cli(cli, tmp_path, "house")
    house.json("--server", server, "campaign", "create", "Jade Court")
    ilse_invite = house.json("player", "add", "ilse", "--character", "Ilse Varn", "--characteristic", "Whip")["invite"]
    house("antagonist", "create", "Lady Sen", "--characteristic", "Poison")
    house("adventure", "start")
    house("antagonist", "fund", "Lady Sen", "10")
    ilse = seat_cli(cli, tmp_path, "ilse")
    ilse("claim", ilse_invite, "--server", server)
    house("challenge", "announce", "--challenger", "house:Lady Sen", "--opponent", "ilse", "--ante", "1")
    house("challenge", "declare", "Poison")
    ilse("challenge", "declare")
    ilse("challenge", "pass")  # C-10: the House's roll waits for the player's seed or pass
    house("challenge", "roll")
    first = ilse.json("challenge", "roll")["sides"]["opponent"]["dice"]
    assert "C-6" in ilse("undo", "--to-step", "4", "--reason", "please", expect=4).stderr
    house("undo", "--to-step", "4", "--reason", "wrong characteristic")
    house("challenge", "roll")
    assert ilse.json("challenge", "roll")["sides"]["opponent"]["dice"] == first  # C-7
    assert [s["event"] for s in ilse.json("replay")["steps"]][-3:] == ["Rewound", "DiceRolled", "DiceRolled"]
    house("challenge", "keep")
    ilse("challenge", "keep")
    house("challenge", "fold")
    assert house.json("overturn", "--winner", "challenger", "--reason", "the fold was a joke")["result"][
        "winner"] == "challenger"
    assert ilse.json("audit", "verify")["intact"]
    assert "C-2" in ilse("export", expect=4).stderr
    exported = house("export").stdout
    (tmp_path / "c.jsonl").write_text(exported)
    local = {"STAKES_STORE": "sqlite", "STAKES_SQLITE_PATH": str(tmp_path / "copy" / "s.sqlite")}
    copy = seat_cli(cli, tmp_path, "copy")
    imported = copy.json("import", str(tmp_path / "c.jsonl"), env=local)
    assert copy.json("sheet", "ilse", env=local) == house.json("sheet", "ilse")
    assert imported["head"] == house.json("audit", "verify")["head"]
    # Importing into the running server takes the operator's token (C-2); it makes a new campaign.
    assert house("import", str(tmp_path / "c.jsonl"), expect=7).exit_code == 7
    # an operator token that is not the server's is unknown: 401, the CLI's unauthenticated exit (issue 29)
    assert "operator" in house("import", str(tmp_path / "c.jsonl"), "--operator-token", "guess", expect=7).stderr
    again = house.json("import", str(tmp_path / "c.jsonl"), "--operator-token", OPERATOR)
    assert again["campaign_id"] != again["imported_from"] and set(again["invites"]) == {"ilse"}
    # the importer now holds the new campaign's House seat: the next command acts there, with its new token
    assert house.json("campaign", "show")["id"] == again["campaign_id"]
    assert house.json("sheet", "ilse") == copy.json("sheet", "ilse", env=local)


def test_a_pool_campaign_is_played_from_the_cli_against_a_running_server(cli, server, tmp_path):
    house = seat_cli(cli, tmp_path, "house")
    house.json("--server", server, "campaign", "create", "Pool night", "--system", "pool")
    invite = house.json("player", "add", "ilse", "--character", "Ilse", "--description", "A brave thief",
                        "--trait", "brave=1")["invite"]
    house("player", "add", "tomas", "--character", "Tomas", "--description", "A stubborn monk")
    house("adventure", "start")  # C-1: units of resolution happen during an adventure
    ilse = seat_cli(cli, tmp_path, "ilse")
    ilse("claim", invite, "--server", server)
    roll = ilse.json("roll", "4", "--trait", "brave")
    if roll["phase"] == "choice":
        ilse("choose", "house")
    sheet = ilse.json("sheet")
    assert sheet["system"] == "pool" and sheet["rolls"] and sheet["pool"] >= 2
    assert ilse.json("challenge", "verify", roll["id"][:8])["mismatches"] == []
    assert "PL-2" in ilse("roll", "1", expect=3).stderr


def test_a_player_whose_seat_token_the_house_replaced_is_told_so_plainly_and_what_to_do(cli, server, tmp_path):
    """Issue 31: after the House reissues a seat, the old holder's CLI says what happened and what to do."""
    house = seat_cli(cli, tmp_path, "house")
    house.json("--server", server, "campaign", "create", "Jade Court")
    invite = house.json("player", "add", "ilse", "--character", "Ilse Varn", "--characteristic", "Whip")["invite"]
    ilse = seat_cli(cli, tmp_path, "ilse")
    ilse("claim", invite, "--server", server)
    assert ilse.json("sheet")["name"] == "Ilse Varn"
    house("player", "token", "ilse")
    told = ilse("sheet", expect=7)
    assert "this seat's token was replaced or revoked by the House" in told.stderr
    assert "Ask the House for the new invite code" in told.stderr and "stakes claim" in told.stderr
    assert "Traceback" not in told.output
