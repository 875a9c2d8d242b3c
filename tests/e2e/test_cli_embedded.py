"""The ``stakes`` CLI on the embedded store (SQLite and PostgreSQL), seats picked with --as."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.conftest import normalized, player_headers


def seat_the_table(cli) -> str:
    created = cli.json("campaign", "create", "Ninjas of the Jade Court", "--starting-pile", "30")
    cli("player", "add", "ilse", "--character", "Ilse Varn", "--characteristic", "Whip Smart")
    cli("player", "add", "tomas", "--character", "Brother Tomas", "--characteristic", "Love Conquers All")
    return created["campaign"]["id"]


def lady_sen_challenges_ilse(cli, fund: str = "20", ante: str = "1") -> dict:
    """The table seated, Lady Sen (the House's, Poison) funded, the adventure running and her challenge to Ilse
    announced: the challenge's answer."""
    seat_the_table(cli)
    cli("antagonist", "create", "Lady Sen", "--characteristic", "Poison")
    cli("adventure", "start")
    cli("antagonist", "fund", "Lady Sen", fund)
    return cli.json("challenge", "announce", "--challenger", "house:Lady Sen", "--opponent", "ilse", "--ante", ante)


def play_the_economy(cli) -> None:
    """Steps 2 to 6 of the foundation issue, as a table would type them."""
    cli("characteristic", "buy", "Lucky Necklace", "--as", "ilse")
    loan = cli.json("loan", "offer", "ilse", "10", "--as", "tomas")["loan_id"]
    cli("loan", "accept", loan[:8], "--as", "ilse")
    cli("loan", "repay", loan, "4", "--as", "ilse")
    cli("antagonist", "create", "Lady Sen", "--characteristic", "Commands a Bunch of Ninjas",
        "--characteristic", "Poison")
    cli("adventure", "start")
    cli("antagonist", "fund", "Lady Sen", "40")
    cli("loan", "consequence", loan, "The Tongs call")
    cli("adventure", "end")


def test_a_campaign_goes_through_the_whole_economy_from_the_cli(cli):
    seat_the_table(cli)
    play_the_economy(cli)
    sheet = cli.json("sheet", "--as", "ilse")
    assert sheet["pile"] == 31 and [o["outstanding"] for o in sheet["owes"]] == [6]
    assert cli.json("sheet", "tomas")["pile"] == 24
    debts = cli.json("debts", "--as", "tomas")
    assert debts["loans"][0]["status"] == "defaulted"
    budget = cli.json("budget")
    assert budget["adventures"][0]["retired"] == 55
    assert budget["antagonists"][0]["characteristics"] == ["Commands a Bunch of Ninjas", "Poison"]
    assert cli.json("budget", "--as", "ilse")["antagonists"][0]["characteristics"] is None
    assert "Poison" not in cli("log", "--as", "ilse", "--limit", "1000").stdout
    assert "Poison" in cli("log", "--limit", "1000").stdout


def test_every_read_renders_a_table_by_default(cli):
    seat_the_table(cli)
    play_the_economy(cli)
    for args in (("sheet", "--as", "ilse"), ("player", "list"), ("debts",), ("budget",), ("log",),
                 ("campaign", "show"), ("antagonist", "list"), ("campaign", "list")):
        out = cli(*args).stdout
        assert out.strip() and not out.lstrip().startswith("{"), args


def test_a_seated_player_gets_an_invite_code_he_claims_once_for_his_token(cli):
    seat_the_table(cli)
    added = cli.json("player", "add", "mara", "--character", "Mara", "--characteristic", "Sly")
    assert added["invite"].startswith("inv_") and "token" not in added  # the House never holds it
    assert "token" not in cli.json("sheet", "mara")
    claimed = cli.json("claim", added["invite"])
    assert claimed["seat"] == "mara" and claimed["token"].startswith("stk_")
    assert "already claimed" in cli("claim", added["invite"], expect=4).stderr
    again = cli.json("player", "token", "mara")
    assert "token" not in again and again["invite"] != added["invite"]
    assert cli.json("claim", again["invite"])["token"] != claimed["token"]


def test_a_refusal_names_the_ruling_exits_non_zero_and_stores_nothing(cli):
    seat_the_table(cli)
    cli("characteristic", "buy", "Lucky Necklace", "--as", "ilse")
    before = len(cli.json("log", "--limit", "1000")["entries"])
    result = cli("characteristic", "buy", "LUCKY necklace", "--as", "ilse", expect=3)
    assert "PA-2" in result.stderr and "Traceback" not in result.output
    result = cli("adventure", "start", "--as", "ilse", expect=4)
    assert "C-1: only the House may start an adventure" in result.stderr
    cli("loan", "offer", "ilse", "500", "--as", "tomas", expect=3)
    cli("antagonist", "fund", "Nobody", "3", expect=5)
    cli("antagonist", "create", "Lady Sen")
    before += 2  # AntagonistEnlisted and Antagonist.Created
    assert "PA-4" in cli("antagonist", "fund", "Lady Sen", "3", expect=3).stderr  # no adventure is running
    cli("sheet", "nobody", expect=5)
    assert len(cli.json("log", "--limit", "1000")["entries"]) == before


def test_a_command_without_a_campaign_explains_how_to_choose_one(cli):
    result = cli("sheet", "--as", "ilse", expect=2)
    assert "no campaign chosen" in result.stderr


def test_a_seat_that_is_not_in_the_campaign_is_refused(cli):
    seat_the_table(cli)
    assert "no seat in this campaign" in cli("sheet", "--as", "stranger", expect=4).stderr


def test_projections_rebuild_from_the_cli_gives_the_same_views(cli):
    seat_the_table(cli)
    play_the_economy(cli)
    before = {cmd: cli.json(cmd) for cmd in ("budget", "debts", "log")}
    report = cli.json("projections", "rebuild")
    # every log entry is one event (positions count the campaign's entries, issue 29; the rebuild counts events)
    assert report["events"] >= before["log"]["entries"][-1]["position"] == len(before["log"]["entries"])
    assert {cmd: cli.json(cmd) for cmd in ("budget", "debts", "log")} == before


def test_the_cli_and_http_give_identical_projections_for_the_same_story(cli, client):
    from tests.e2e.test_http import test_a_campaign_goes_through_the_whole_economy_over_http as over_http

    seat_the_table(cli)
    play_the_economy(cli)
    cli_views = {"sheets": cli.json("player", "list"), "debts": cli.json("debts"), "budget": cli.json("budget")}

    created = client.post("/campaigns", json={"name": "Ninjas of the Jade Court", "settings": {"starting_pile": 30}})
    cid, house = created.json()["campaign"]["id"], {"Authorization": f"Bearer {created.json()['house_token']}"}
    tokens = {"house": house}
    for seat, name, trait in (("ilse", "Ilse Varn", "Whip Smart"), ("tomas", "Brother Tomas", "Love Conquers All")):
        added = client.post(f"/campaigns/{cid}/players", headers=house,
                            json={"seat": seat, "character": name, "characteristic": trait}).json()
        tokens[seat] = player_headers(client, added)
    over_http(client, (cid, tokens))
    http_views = {
        "sheets": client.get(f"/campaigns/{cid}/characters", headers=house).json(),
        "debts": client.get(f"/campaigns/{cid}/debts", headers=house).json(),
        "budget": client.get(f"/campaigns/{cid}/budget", headers=house).json(),
    }
    assert json.dumps(normalized(cli_views), sort_keys=True) == json.dumps(normalized(http_views), sort_keys=True)


def test_a_challenge_is_played_from_the_cli_with_as_picking_the_seat(cli):
    seat_the_table(cli)
    cli("antagonist", "create", "Lady Sen", "--characteristic", "Poison", "--characteristic", "Cunning")
    cli("adventure", "start")
    cli("antagonist", "fund", "Lady Sen", "40")
    view = cli.json("challenge", "announce", "--challenger", "house:Lady Sen", "--opponent", "ilse", "--ante", "2",
                    "--table", "--circumstance", "A dark alley")
    assert view["seed_hash"] and view["secret_seed"] is None
    cli("challenge", "declare", "Poison")
    cli("challenge", "declare", "Whip Smart", "--as", "ilse")
    cli("challenge", "roll", "--dice", "6,6,5")  # Sen's two dice, then the alley
    cli("challenge", "roll", "--dice", "2,3", "--as", "ilse")
    seen_by_tomas = cli.json("challenge", "show", "--as", "tomas")
    assert all(d["value"] is None for s in seen_by_tomas["sides"].values() for d in s["dice"])  # nothing kept yet
    assert "?" in cli("challenge", "show", "--as", "tomas").stdout
    cli("challenge", "keep", "--cup", "2")
    cli("challenge", "keep", "--cup", "1,2", "--as", "ilse")
    assert "PA-9" in cli("challenge", "raise", "3", expect=3).stderr
    cli("challenge", "raise", "4")
    cli("challenge", "lend", "ilse", "5", "--as", "tomas")
    cli("challenge", "call", "--as", "ilse")
    cli("challenge", "double-down", "Rooftops")
    cli("challenge", "roll", "--dice", "6,1")  # the cup die, then the rooftops die
    cli("challenge", "roll", "--dice", "1,1", "--as", "ilse")
    cli("challenge", "check")
    done = cli.json("challenge", "check", "--as", "ilse")
    assert done["phase"] == "settled" and done["result"]["winner"] == "challenger"
    assert done["result"]["scores"]["challenger"]["hand"] == [1, 5, 6, 6]  # the rooftops die is barred for Ilse
    assert done["result"]["scores"]["opponent"]["hand"] == [1, 1, 5]
    report = cli.json("challenge", "verify")
    assert report["verifiable"] and report["entered"] == 9 and report["checked"] == 0
    assert cli.json("sheet", "ilse")["pile"] == 30 - 6 and cli.json("budget")["antagonists"][0]["winnings"] == 6
    assert "settled" in cli("challenge", "list").stdout
    assert "C-1" in cli("challenge", "check", "--as", "ilse", expect=3).stderr


def test_replay_undo_overturn_audit_export_and_import_from_the_cli(cli, tmp_path):
    lady_sen_challenges_ilse(cli)
    cli("challenge", "declare", "Poison")
    cli("challenge", "declare", "--as", "ilse")
    cli("challenge", "pass", "--as", "ilse")  # C-10: the House's roll waits for the player's seed or pass
    cli("challenge", "roll")
    first = cli.json("challenge", "roll", "--as", "ilse")
    assert "PA" not in cli("replay", "--as", "ilse").stderr
    steps = cli.json("replay", "--step", "5")["steps"]
    assert [s["event"] for s in steps] == ["DiceRolled"]
    assert "C-6" in cli("undo", "--to-step", "4", "--reason", "mine", "--as", "ilse", expect=4).stderr
    cli("undo", "--to-step", "4", "--reason", "Poison does not apply here")
    cli("challenge", "roll")
    again = cli.json("challenge", "roll", "--as", "ilse")
    assert again["sides"]["opponent"]["dice"] == first["sides"]["opponent"]["dice"]  # C-7: the same dice
    walk = cli("replay", "--interactive", "--as", "tomas", input="n\np\n7\nq\n").stdout
    assert [line.split()[1] for line in walk.splitlines() if line.startswith("Step ")] == ["1/9", "2/9", "1/9", "7/9"]
    assert "Step 7/9 Rewound, sent by the House" in walk
    cli("challenge", "keep")
    cli("challenge", "keep", "--as", "ilse")
    cli("challenge", "fold")
    done = cli.json("overturn", "--void", "--reason", "the fold was a misunderstanding")
    assert done["result"]["winner"] is None and done["result"]["reason"] == "void"
    assert cli.json("sheet", "ilse")["pile"] == 30
    assert "intact" in cli("audit", "verify").stdout
    exported = cli("export").stdout
    (tmp_path / "campaign.jsonl").write_text(exported)
    assert "stk_" not in exported
    twin = cli.json("import", str(tmp_path / "campaign.jsonl"))  # the same store: a new campaign, new ids (C-2)
    assert twin["campaign_id"] != twin["imported_from"]
    other = {"STAKES_STORE": "sqlite", "STAKES_SQLITE_PATH": str(tmp_path / "other" / "stakes.sqlite"),
             "STAKES_CONFIG": str(tmp_path / "o.json")}
    imported = cli.json("import", str(tmp_path / "campaign.jsonl"), env=other)
    assert set(imported["invites"]) == {"ilse", "tomas"} and imported["house_token"].startswith("stk_")
    mine = {k: v for k, v in cli.json("sheet", "ilse", env=other).items() if k not in ("id", "campaign_id")}
    assert mine == {k: v for k, v in cli.json("sheet", "ilse", "--campaign", twin["imported_from"]).items()
                    if k not in ("id", "campaign_id")}
    assert cli.json("audit", "verify", env=other)["intact"]
    assert cli.json("projections", "rebuild", env=other)["events"] == imported["events"]


def test_an_export_refused_for_an_open_unit_names_it_and_leaves_no_file_and_imports_name_the_version(cli, tmp_path):
    """Issue 31: the refusal names the open unit (C-5), a refused export writes nothing, and an import of another
    version of the format says which version this release reads (C-2)."""
    opened = lady_sen_challenges_ilse(cli)
    target = tmp_path / "campaign.jsonl"
    refused = cli("export", "--output", str(target), expect=3)
    assert f"Challenge {opened['id'][:8]} is still open" in refused.stderr and "C-5" in refused.stderr
    assert not target.exists() and list(tmp_path.glob("*.partial")) == list(tmp_path.glob(".*.partial")) == []
    old = tmp_path / "old.jsonl"
    old.write_text(json.dumps({"format": "stakes-export", "version": 1, "campaign_id": "0" * 32, "events": 0,
                               "head": "0" * 64}) + "\n")
    said = cli("import", str(old), expect=3).stderr
    assert "version 1" in said and "reads version 2" in said


def test_help_lists_commands_by_rule_system_with_the_current_campaigns_system_first(cli):
    """Issue 31: `stakes --help` is grouped (what every system shares, then one section per system), and the
    current campaign's system comes first; its system is remembered, so no command asks for it again."""
    sections = [line for line in cli("--help").stdout.splitlines() if line and not line.startswith(" ")
                and line.endswith(":")]
    assert sections[sections.index("Every system:") + 1].startswith("Penny Ante (penny-ante)")
    created = cli.json("campaign", "create", "Wet Ink", "--system", "pool")
    shown = cli("--help").stdout
    assert "The Pool, Powered by the Apocalypse (pool, the current campaign):" in shown
    order = [line for line in shown.splitlines() if line.endswith(":") and not line.startswith(" ")]
    after = order[order.index("Every system:") + 1:]
    assert after[0].startswith("The Pool") and after[1].startswith("Penny Ante")
    pool = shown[shown.index("The Pool"):shown.index("Penny Ante")]
    assert "  roll " in pool and "  trait " in pool and "  loan " not in pool
    cfg = json.loads(Path(cli.env["STAKES_CONFIG"]).read_text())
    assert cfg["systems"] == {created["campaign"]["id"].replace("-", ""): "pool"}


def test_each_seat_keeps_its_own_current_unit_and_reads_default_to_its_last_settled_one(cli):
    """Issue 31: in one embedded store, a seat's move with no id is made in that seat's own unit (not the last
    one anybody opened), and `replay` / `challenge verify` with no id take the seat's last settled unit."""
    cli("campaign", "create", "Pool night", "--system", "pool", "--table-dice")
    cli("player", "add", "ana", "--character", "Ana", "--description", "A quick courier")
    cli("player", "add", "tom", "--character", "Tom", "--description", "A slow monk")
    cli("adventure", "start")
    anas = cli.json("roll", "2", "--dice", "4,6", "--as", "ana")  # 10: a hit, Ana chooses (PL-4)
    toms = cli.json("roll", "2", "--dice", "4,5", "--as", "tom")  # 9: a hit too, opened after Ana's
    assert anas["phase"] == toms["phase"] == "choice"
    chosen = cli.json("choose", "narrate", "--as", "tom")
    assert chosen["id"] == toms["id"] and chosen["phase"] == "settled"
    assert cli.json("challenge", "show", "--as", "ana")["phase"] == "choice"  # hers is still waiting
    assert cli.json("replay", "--as", "tom")["challenge_id"] == toms["id"]
    assert cli.json("challenge", "verify", "--as", "tom")["challenge_id"] == toms["id"]
    cli("choose", "house", "--as", "ana")
    assert cli.json("replay", "--as", "ana")["challenge_id"] == anas["id"]


def test_the_fresh_seed_of_the_reroll_is_drawn_by_the_cli_when_none_is_given_c9(cli):
    """C-9: against the House, ``challenge roll`` in new-circumstances calls the reroll; ``challenge seed`` alone
    then sends 128 random bits drawn on the client, which roll both cups at once (C-10)."""
    lady_sen_challenges_ilse(cli, fund="40", ante="2")
    cli("challenge", "declare", "Poison")
    cli("challenge", "declare", "Whip Smart", "--as", "ilse")
    cli("challenge", "seed", "first words", "--as", "ilse")
    cli("challenge", "roll")
    cli("challenge", "roll", "--as", "ilse")
    cli("challenge", "keep", "--cup", "1")
    cli("challenge", "keep", "--cup", "1", "--as", "ilse")
    cli("challenge", "check")
    cli("challenge", "check", "--as", "ilse")
    cli("challenge", "roll")
    cli("challenge", "roll", "--as", "ilse")
    assert "C-9" in cli("challenge", "pass", "--as", "ilse", expect=3).stderr
    view = cli.json("challenge", "seed", "--as", "ilse")
    assert view["phase"] == "betting-2"
    cli("challenge", "check")
    cli("challenge", "check", "--as", "ilse")
    report = cli.json("challenge", "verify")
    fresh = [r["slot"] for r in report["results"] if "fresh" in r["slot"]]
    assert len(fresh) == 2 and all(len(s[-1]) == 32 and int(s[-1], 16) >= 0 for s in fresh)  # token_hex(16)
    assert report["mismatches"] == []
