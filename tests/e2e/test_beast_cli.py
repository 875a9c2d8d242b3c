"""Humanity and Beast from the CLI, embedded and against a running server, on both stores (BE-1 … BE-12)."""

from __future__ import annotations

import re

from tests.e2e.conftest import Cli, normalized
from tests.e2e.test_cli_live_server import seat_cli, server  # noqa: F401 (the live server fixture)


def play_the_conflict(house: Cli, ilse: Cli, tomas: Cli) -> None:
    """A player against Sheriff Cole with table dice: a Willpower reroll, then both sides' Humanity checks."""
    assert "Conflict" in ilse("conflict", "open", "--against", "Sheriff Cole").stdout
    view = ilse.json("conflict", "roll", "--humanity", "2", "--beast", "3", "--dice", "7,3,6,6,10,2")
    assert [d["text"] for d in view["state"]["sides"]["challenger"]["roll"]["dice"]][-1] == "B 10→2 ✓"
    assert "H 8 ✓ (was 3 ✗)" in ilse("willpower", "reroll", "2", "--dice", "8").stdout
    house("conflict", "roll", "--humanity", "2", "--beast", "2", "--dice", "1,2,6,1")
    assert "hidden" in tomas("challenge", "show").stdout
    assert tomas.json("challenge", "show")["state"]["sides"]["opponent"]["roll"] == {"hidden": True}
    assert "BE-4" in house("willpower", "reroll", "9", "--dice", "5", expect=3).stderr
    done = house.json("willpower", "keep")
    assert done["state"]["outcome"]["damage"] == {"opponent": 3} and done["phase"] == "check"
    ilse("humanity", "check", "--dice", "1,2,3,4,5,6")
    settled = house.json("humanity", "check", "--side", "opponent", "--dice", "7,1,1,1")
    assert settled["phase"] == "settled"
    sheet = tomas.json("sheet", "ilse")
    assert (sheet["humanity"], sheet["beast"], sheet["willpower"]) == (5, 5, 5) and not sheet["lost"]
    assert "slipped" in ilse("sheet").stdout
    assert tomas.json("challenge", "verify", settled["id"][:8])["entered"] == 21
    # as the moves take it too: -C (a phone walk typed it from the guide)
    assert tomas.json("challenge", "verify", "-C", settled["id"][:8])["entered"] == 21
    assert "hidden" in tomas("antagonist", "sheets").stdout
    assert house.json("antagonist", "sheets")[0]["willpower"] == 0
    restored = house.json("willpower", "restore", "2", "--character", "Sheriff Cole")  # its sheet (issue 31)
    assert (restored["name"], restored["willpower"]) == ("Sheriff Cole", 2)
    assert house.json("antagonist", "sheets")[0]["willpower"] == 2


def test_a_conflict_with_a_reroll_and_humanity_checks_is_played_from_the_cli(cli, tmp_path):
    cli("campaign", "create", "Night", "--system", "beast", "--table-dice")
    cli("player", "add", "ilse", "--character", "Ilse", "--humanity", "6")
    cli("player", "add", "tomas", "--character", "Tomas")
    cli("antagonist", "create", "Sheriff Cole", "--humanity", "4", "--willpower", "3")
    cli("adventure", "start")  # C-1: units of resolution happen during an adventure
    seat = {s: Cli({**cli.env, "STAKES_AS": s}) for s in ("house", "ilse", "tomas")}
    play_the_conflict(seat["house"], seat["ilse"], seat["tomas"])
    assert "C-6" in cli("undo", "--to-step", "2", "--reason", "settled", expect=3).stderr
    cli("overturn", "--void", "--reason", "a bad dream")
    assert cli.json("sheet", "ilse")["willpower"] == 6
    assert re.search(r"\bconflict\s+overturned\s", cli("challenge", "list").stdout)  # its kind and step (C-6)
    assert [s["event"] for s in cli.json("replay", "--as", "tomas")["steps"]][-1] == "Overturned"
    assert cli.json("audit", "verify")["intact"]
    before = (cli.json("sheet", "ilse"), cli.json("antagonist", "sheets"), cli.json("challenge", "show"))
    assert cli.json("projections", "rebuild")["events"] > 0
    assert (cli.json("sheet", "ilse"), cli.json("antagonist", "sheets"), cli.json("challenge", "show")) == before
    (tmp_path / "night.jsonl").write_text(cli("export").stdout)
    other = {"STAKES_STORE": "sqlite", "STAKES_SQLITE_PATH": str(tmp_path / "other" / "stakes.sqlite"),
             "STAKES_CONFIG": str(tmp_path / "o.json")}
    cli.json("import", str(tmp_path / "night.jsonl"), env=other)
    assert normalized(cli.json("sheet", "ilse", env=other)) == normalized(before[0])  # new ids (C-2), same sheet


def test_an_action_is_rolled_from_the_cli_with_server_dice_and_verified(cli):
    cli("campaign", "create", "Night", "--system", "beast")
    cli("player", "add", "ilse", "--character", "Ilse")
    cli("adventure", "start")  # C-1: units of resolution happen during an adventure
    view = cli.json("act", "--difficulty", "4", "--humanity", "3", "--beast", "2", "--willpower", "before",
                    "--as", "ilse")
    assert view["state"]["difficulty_name"] == "Challenging" and view["state"]["outcome"] is not None
    while view["phase"] == "check":
        view = cli.json("humanity", "check", "--as", "ilse")
    verified = cli.json("challenge", "verify", "--as", "ilse")
    assert verified["checked"] >= 5 and verified["mismatches"] == [] and verified["commitment_matches"]
    assert "BE-2" in cli("act", "--difficulty", "4", "--humanity", "8", "--beast", "0", "--as", "ilse",
                         expect=3).stderr
    assert "Action, difficulty 4 (Challenging)" in cli("challenge", "show", view["id"][:8], "--as", "ilse").stdout


def test_a_conflict_is_played_from_the_cli_against_a_running_server(cli, server, tmp_path):  # noqa: F811
    house = seat_cli(cli, tmp_path, "house")
    house.json("--server", server, "campaign", "create", "Night", "--system", "beast", "--table-dice")
    ilse_invite = house.json("player", "add", "ilse", "--character", "Ilse", "--humanity", "6")["invite"]
    tomas_invite = house.json("player", "add", "tomas", "--character", "Tomas")["invite"]
    house("antagonist", "create", "Sheriff Cole", "--humanity", "4", "--willpower", "3")
    house("adventure", "start")  # C-1: units of resolution happen during an adventure
    ilse, tomas = seat_cli(cli, tmp_path, "ilse"), seat_cli(cli, tmp_path, "tomas")
    ilse("claim", ilse_invite, "--server", server)  # the player claims his seat; the House never holds his token
    tomas("claim", tomas_invite, "--server", server)
    play_the_conflict(house, ilse, tomas)
    assert "C-1" in tomas("willpower", "restore", "1", "--character", "ilse", expect=4).stderr
    assert house.json("audit", "verify")["intact"]


def test_every_beast_table_reads_as_text_and_not_as_python(cli):
    from tests.e2e.test_cli_every_unit import readable

    cli("campaign", "create", "Night", "--system", "beast", "--table-dice")
    cli("player", "add", "ilse", "--character", "Ilse", "--humanity", "6")
    cli("antagonist", "create", "Sheriff Cole", "--humanity", "4", "--willpower", "3")
    cli("adventure", "start")  # C-1: units of resolution happen during an adventure
    readable(cli("conflict", "open", "--against", "Sheriff Cole", "--as", "ilse"))
    readable(cli("conflict", "roll", "--humanity", "1", "--beast", "0", "--dice", "9", "--as", "ilse"))
    readable(cli("conflict", "roll", "--humanity", "1", "--beast", "1", "--dice", "4,6"))
    assert "Sheriff Cole" in readable(cli("conflict", "reveal"))
    readable(cli("undo", "--to-step", "2", "--reason", "misread"))
    shown = readable(cli("challenge", "show", "--as", "ilse"))
    assert "Seen by every seat before the rewind (C-8): 4 6" in shown
    readable(cli("conflict", "roll", "--humanity", "1", "--beast", "1", "--dice", "4,6"))
    readable(cli("challenge", "show", "--as", "ilse"))
    state = cli.json("challenge", "show", "--as", "ilse")["state"]
    assert state["sides"]["opponent"]["roll"] == {"hidden": True}  # its new split is the House's (C-5) …
    assert [s["value"] for s in state["seen_before_rewind"]] == [4, 6]  # … the faces seen stay public (C-8)
    readable(cli("willpower", "keep", "--as", "ilse"))
    done = readable(cli("willpower", "keep"))
    assert "Winner: none (a tie does no harm)" in done and "Humanity check due" in done
    readable(cli("humanity", "check", "--side", "opponent", "--dice", "1,1,1,1"))
    readable(cli("overturn", "--void", "--reason", "a dream"))
    for read in (("sheet", "ilse"), ("sheet",), ("antagonist", "sheets"), ("challenge", "list"), ("replay",),
                 ("log",)):
        readable(cli(*read, "--as", "ilse"))
    readable(cli("antagonist", "sheets"))


def test_a_fresh_seed_left_out_is_drawn_on_the_players_machine_and_the_outcome_follows(cli):  # C-4, C-9, C-10
    from tests.e2e.test_cli_every_unit import readable

    cli("campaign", "create", "Night", "--system", "beast")
    cli("player", "add", "ilse", "--character", "Ilse", "--humanity", "6")
    cli("antagonist", "create", "Sheriff Cole", "--humanity", "4", "--willpower", "3")
    cli("adventure", "start")
    cli("conflict", "open", "--against", "Sheriff Cole", "--as", "ilse")
    cli("conflict", "prepare", "--humanity", "2", "--beast", "2")
    cli("conflict", "seed", "--as", "ilse")  # no words: 128 random bits from the CLI, not the server
    first = cli.json("challenge", "show", "--as", "ilse")["state"]["side_seeds"]["challenger"]
    assert len(first) == 32 and int(first, 16) >= 0
    cli("conflict", "roll", "--humanity", "2", "--beast", "2")
    cli("conflict", "roll", "--humanity", "3", "--beast", "2", "--as", "ilse")
    cli("willpower", "reroll", "1")  # the House, for Cole: drawn later, with Ilse's fresh seed (C-9)
    waiting = readable(cli("willpower", "keep", "--as", "ilse"))
    assert "a fresh seed from each player comes before the last dice" in waiting
    house_reads = readable(cli("challenge", "show"))
    assert "roll die 1 again: drawn with the players' fresh seed" in " ".join(house_reads.split())
    assert "fresh seed from each player" not in house_reads  # not the House's move
    assert "C-9" in cli("conflict", "pass", "--as", "ilse", expect=3).stderr
    done = cli.json("conflict", "seed", "--as", "ilse")
    fresh = done["state"]["fresh_seeds"]["reroll"]["challenger"]
    assert len(fresh) == 32 and fresh != first and done["state"]["outcome"] is not None
    assert "adds a fresh seed (C-9)" in readable(cli("log", "--as", "ilse"))
