"""What people read from the CLI has no rough edges (issue 14), on both stores, embedded and against a server.

No Python reprs; readable replays; whole event names; dice by position from 1 and ``--cup`` counting from 1;
``undo`` needs ``--to-step``; errors as JSON under ``--format json``; campaign id prefixes; a borrower sees the
loan offered to him with accept and decline among his legal actions, and the lender its id; a waiting seat is
told whom the table waits for; the README says how a LAN reaches the server; the server keeps an access log.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.e2e.test_cli_embedded import seat_the_table
from tests.e2e.test_cli_live_server import seat_cli, server  # noqa: F401  (the live-server fixture)

REPR = re.compile(r"\{'|\['|': |=None\b|\bNone\b|\bTrue\b|\bFalse\b")


def to_betting(cli) -> str:
    """Lady Sen against Ilse with table dice, both cups kept: Sen's turn to bet (PA-8, PA-9)."""
    seat_the_table(cli)
    cli("antagonist", "create", "Lady Sen", "--characteristic", "Poison")
    cli("adventure", "start")
    cli("antagonist", "fund", "Lady Sen", "40")
    ch = cli.json("challenge", "announce", "--challenger", "house:Lady Sen", "--opponent", "ilse", "--ante", "2",
                  "--table", "--circumstance", "A dark alley")["id"]
    cli("challenge", "declare", "Poison")
    cli("challenge", "declare", "Whip Smart", "--as", "ilse")
    cli("challenge", "roll", "--dice", "6,4,5")
    cli("challenge", "roll", "--dice", "2,3", "--as", "ilse")
    assert "1:2 2:3" in cli("challenge", "show", "--as", "ilse").stdout  # positions from 1, as --cup takes them
    cli("challenge", "keep", "--cup", "2")
    cli("challenge", "keep", "--cup", "1,2", "--as", "ilse")
    return ch


def settle(cli) -> None:
    cli("challenge", "raise", "4")
    cli("challenge", "call", "--as", "ilse")
    cli("challenge", "double-down", "Rooftops")
    cli("challenge", "roll", "--dice", "6,1")
    cli("challenge", "roll", "--dice", "1,1", "--as", "ilse")
    cli("challenge", "check")
    cli("challenge", "check", "--as", "ilse")


def test_no_python_repr_reaches_what_people_read(cli):
    to_betting(cli)
    settle(cli)
    for args in (("challenge", "show"), ("challenge", "show", "--as", "tomas"), ("challenge", "list"),
                 ("replay",), ("replay", "--as", "ilse"), ("log", "--limit", "1000"), ("debts",), ("budget",)):
        text = cli(*args, env={"COLUMNS": "200"}).stdout
        assert not REPR.search(text), (args, REPR.search(text))
    shown = cli("challenge", "show").stdout
    assert "paid: Lady Sen " in shown and "stake -" not in shown


def test_replay_steps_read_as_sentences_not_dict_dumps(cli):
    to_betting(cli)
    text = cli("replay", env={"COLUMNS": "200"}).stdout
    assert "Step 1/" in text and "Lady Sen challenges Ilse Varn, ante 2: A dark alley" in text  # names, not handles
    assert "{" not in text and "=(" not in text and "(kind:" not in text
    one = cli("replay", "--step", "4", env={"COLUMNS": "200"}).stdout  # one step: still by name, not by role
    assert "Step 4/" in one and "Lady Sen rolls" in one and "The challenger" not in one


def test_event_names_are_never_cut_in_the_log_table(cli):
    to_betting(cli)
    text = cli("log", "--limit", "1000", env={"COLUMNS": "64"}).stdout
    assert "Lady Sen declares Poison" in text and "Antagonist entered challenge" in text  # words, by name
    assert "Challenge.CharacteristicsDeclared" not in text
    assert max(len(line.rstrip()) for line in text.splitlines()) <= 64


def test_dice_count_from_one_in_the_view_and_in_cup(cli):
    to_betting(cli)
    seen = cli.json("challenge", "show")
    assert [d["in_cup"] for d in seen["sides"]["challenger"]["dice"]] == [False, True]  # --cup 2: the second die
    mine = cli.json("challenge", "show", "--as", "ilse")["sides"]["opponent"]["dice"]
    assert [d["in_cup"] for d in mine] == [True, True]
    assert "1:6 2:(4)" in cli("challenge", "show").stdout


def test_cup_refuses_position_zero_and_a_position_past_the_dice(cli):
    cid = seat_the_table(cli)
    cli("antagonist", "create", "Lady Sen", "--characteristic", "Poison")
    cli("adventure", "start")
    cli("antagonist", "fund", "Lady Sen", "10")
    cli("challenge", "announce", "--challenger", "house:Lady Sen", "--opponent", "ilse", "--ante", "1", "--table")
    cli("challenge", "declare", "Poison")
    cli("challenge", "declare", "Whip Smart", "--as", "ilse")
    cli("challenge", "roll", "--dice", "6,4")
    cli("challenge", "roll", "--dice", "2,3", "--as", "ilse")
    before = cli.json("log", "--limit", "1000", "--campaign", cid)["entries"]
    assert "count from 1" in cli("challenge", "keep", "--cup", "0", expect=2).stderr
    assert "positions 1 to 2" in cli("challenge", "keep", "--cup", "3", expect=3).stderr  # PA-8
    assert cli.json("log", "--limit", "1000", "--campaign", cid)["entries"] == before  # nothing stored
    keep = next(a for a in cli.json("challenge", "show")["legal_actions"] if a["action"] == "keep")
    assert keep["choices"] == [0, 1]  # a request counts from 0 …
    assert re.search(r"keep\s+cup: 1, 2", cli("challenge", "show").stdout)  # … the table from 1


def test_undo_requires_to_step_and_stores_nothing_without_it(cli):
    to_betting(cli)
    before = cli.json("log", "--limit", "1000")["entries"]
    refused = cli("undo", "--reason", "a slip", expect=2)
    assert "--to-step" in refused.stderr
    assert cli.json("log", "--limit", "1000")["entries"] == before


def test_errors_are_json_on_stderr_under_format_json(cli):
    to_betting(cli)
    refused = cli("challenge", "raise", "3", "--format", "json", expect=3)
    assert refused.stdout == ""
    problem = json.loads(refused.stderr)
    assert problem["ruling"] == "PA-9" and problem["exit_code"] == 3 and problem["error"] == "RuleViolation"
    assert json.loads(cli("sheet", "nobody", "-f", "json", expect=5).stderr)["error"] == "NotFound"
    assert json.loads(cli("campaign", "use", "zz", "-f", "json", expect=2).stderr)["error"] == "UsageError"
    # A command line click refuses is answered the same way by the program itself.
    env = {**os.environ, **cli.env}
    done = subprocess.run([sys.executable, "-m", "cli", "undo", "--reason", "x", "--format", "json"], env=env,
                          capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert json.loads(done.stderr) == {"error": "UsageError", "message": "Missing option '--to-step'.",
                                       "exit_code": 2}
    plain = subprocess.run([sys.executable, "-m", "cli", "undo", "--reason", "x"], env=env, capture_output=True,
                           text=True)
    assert plain.returncode == 2 and "Missing option '--to-step'" in plain.stderr


def test_campaign_use_takes_an_id_prefix(cli):
    first = seat_the_table(cli)
    second = cli.json("campaign", "create", "Another table")["campaign"]["id"]
    assert cli.json("campaign", "show")["id"] == second
    assert f"Current campaign: {first}" in cli("campaign", "use", first[:8]).stdout
    assert cli.json("campaign", "show")["id"] == first
    assert cli.json("campaign", "use", second.replace("-", "")[:6].upper())["id"] == second
    assert "no campaign" in cli("campaign", "use", "ffffffff" if not first.startswith("f") else "00000000",
                                expect=2).stderr
    assert "at least its first 4" in cli("campaign", "use", "ab", expect=2).stderr
    assert cli.json("campaign", "show")["id"] == second


def test_a_borrower_sees_the_loan_offered_into_a_challenge_and_the_lender_its_id(cli):
    to_betting(cli)
    cli("challenge", "raise", "4")
    lent = cli.json("challenge", "lend", "ilse", "5", "--as", "tomas")
    (offer,) = lent["loan_offers"]
    assert offer["lender"] == "tomas" and offer["borrower"] == "ilse" and offer["amount"] == 5 and offer["open"]
    assert offer["loan_id"][:8] in cli("challenge", "show", "--as", "tomas").stdout  # the lender is told its id
    moves = {a["action"]: a for a in cli.json("challenge", "show", "--as", "ilse")["legal_actions"]}
    assert {"accept-loan", "decline-loan"} <= set(moves) and moves["accept-loan"]["loan"] == offer["loan_id"]
    assert {a["action"] for a in lent["legal_actions"]} == {"withdraw-loan"}
    house = {a["action"] for a in cli.json("challenge", "show")["legal_actions"]}
    assert not house & {"accept-loan", "decline-loan", "withdraw-loan"}
    # What is listed is accepted (the same checks): the borrower takes it with the id's first characters.
    assert "only ilse may accept" in cli("loan", "accept", offer["loan_id"][:8], expect=4).stderr
    cli("loan", "accept", offer["loan_id"][:8], "--as", "ilse")
    after = cli.json("challenge", "show", "--as", "ilse")
    assert after["loan_offers"] == [] and "accept-loan" not in {a["action"] for a in after["legal_actions"]}
    assert cli.json("sheet", "ilse")["owes"][0]["amount"] == 5


def test_a_waiting_seat_is_told_whom_the_table_waits_for(cli):
    to_betting(cli)
    waiting = cli.json("challenge", "show", "--as", "ilse")
    assert waiting["legal_actions"] == [] and waiting["waiting_for"] == ["house"]
    assert "Nothing to do for you now. The table waits for the House." in cli("challenge", "show", "--as", "ilse").stdout
    assert cli.json("challenge", "show", "--as", "tomas")["waiting_for"] == ["house"]
    cli("challenge", "raise", "4")
    assert cli.json("challenge", "show", "--as", "tomas")["waiting_for"] == ["ilse"]
    settle_from_raise(cli)
    assert cli.json("challenge", "show")["waiting_for"] == []


def settle_from_raise(cli) -> None:
    cli("challenge", "call", "--as", "ilse")
    cli("challenge", "double-down", "Rooftops")
    cli("challenge", "roll", "--dice", "6,1")
    cli("challenge", "roll", "--dice", "1,1", "--as", "ilse")
    cli("challenge", "check")
    cli("challenge", "check", "--as", "ilse")


def test_every_system_says_whom_a_pool_contest_waits_for(cli):
    cli("campaign", "create", "Pool night", "--system", "pool", "--table-dice")
    cli("player", "add", "ilse", "--character", "Ilse", "--description", "A brave thief", "--trait", "Brave=1")
    cli("player", "add", "tomas", "--character", "Tomas", "--description", "A stubborn monk")
    cli("adventure", "start")  # C-1: units of resolution happen during an adventure
    cli("oppose", "tomas", "--as", "ilse")
    cli("contest", "roll", "2", "--dice", "6,4", "--as", "ilse")
    seen = cli.json("challenge", "show", "--as", "ilse")
    assert seen["waiting_for"] == ["tomas"]
    assert "The table waits for Tomas." in cli("challenge", "show", "--as", "ilse").stdout


def test_the_readme_tells_a_lan_group_to_bind_every_interface():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert "STAKES_HOST=0.0.0.0" in readme and "STAKES_ACCESS_LOG" in readme


# -- against a running server -----------------------------------------------------------------------------
def test_against_a_server_prefixes_json_errors_and_loan_offers_work_the_same(cli, server, tmp_path):  # noqa: F811
    house = seat_cli(cli, tmp_path, "house")
    created = house.json("--server", server, "campaign", "create", "Jade Court", "--starting-pile", "30")
    cid = created["campaign"]["id"]
    ilse_invite = house.json("player", "add", "ilse", "--character", "Ilse", "--characteristic", "Whip")["invite"]
    tomas_invite = house.json("player", "add", "tomas", "--character", "Tomas", "--characteristic", "Love")["invite"]
    ilse, tomas = seat_cli(cli, tmp_path, "ilse"), seat_cli(cli, tmp_path, "tomas")
    ilse("claim", ilse_invite, "--server", server)
    tomas("claim", tomas_invite, "--server", server)
    assert ilse.json("campaign", "use", cid[:8])["id"] == cid
    assert "no campaign" in ilse("campaign", "use", "0000000" if not cid.startswith("0") else "1111111",
                                 expect=2).stderr
    house("antagonist", "create", "Lady Sen", "--characteristic", "Poison")
    house("adventure", "start")
    house("antagonist", "fund", "Lady Sen", "40")
    house("challenge", "announce", "--challenger", "house:Lady Sen", "--opponent", "ilse", "--ante", "2",
          "--table")
    house("challenge", "declare", "Poison")
    ilse("challenge", "declare", "Whip")
    house("challenge", "roll", "--dice", "6,4")
    ilse("challenge", "roll", "--dice", "2,3")
    house("challenge", "keep", "--cup", "2")
    ilse("challenge", "keep", "--cup", "1,2")
    assert ilse.json("challenge", "show")["waiting_for"] == ["house"]
    problem = json.loads(ilse("challenge", "raise", "2", "-f", "json", expect=3).stderr)
    assert problem == {"error": "RuleViolation", "message": "it is the challenger's turn to bet", "exit_code": 3,
                       "ruling": "PA-9"}
    house("challenge", "raise", "4")
    lent = tomas.json("challenge", "lend", "ilse", "5")
    loan = lent["loan_offers"][0]["loan_id"]
    assert {"accept-loan", "decline-loan"} <= {a["action"] for a in ilse.json("challenge", "show")["legal_actions"]}
    ilse("loan", "accept", loan[:8])
    assert ilse.json("sheet")["pile"] == 30 - 2 + 5


@pytest.mark.parametrize("access_log", ["true", "false"])
def test_the_server_keeps_an_access_log_unless_told_not_to(settings, env_for, tmp_path, access_log):
    from tests.e2e.test_cli_live_server import free_port

    port = free_port()
    env = {**os.environ, **env_for(settings), "STAKES_PORT": str(port), "STAKES_HOST": "127.0.0.1",
           "STAKES_ACCESS_LOG": access_log}
    log = tmp_path / "server.log"
    with log.open("w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "cli", "serve"], env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            for _ in range(150):
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/health", timeout=0.5).status_code == 200:
                        break
                except httpx.HTTPError:
                    import time

                    time.sleep(0.1)
            httpx.get(f"http://127.0.0.1:{port}/session", headers={"Authorization": "Bearer stk_secret"})
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    text = log.read_text()
    assert ('"GET /session HTTP/1.1" 401' in text) is (access_log == "true")
    assert "stk_secret" not in text


@pytest.mark.parametrize(("setting", "value", "args"), [
    ("STAKES_COMMAND_THREADS", "0", ["serve"]),
    ("STAKES_AGGREGATE_CACHE", "-1", ["campaign", "list"]),
    ("STAKES_COMMAND_THREADS", "true", ["campaign", "list", "--format", "json"]),
])
def test_a_setting_the_store_cannot_take_is_named_with_exit_2_and_no_traceback(tmp_path, setting, value,
                                                                             args) -> None:
    env = {**os.environ, "STAKES_SQLITE_PATH": str(tmp_path / "s.sqlite"), "STAKES_CONFIG": str(tmp_path / "c.json"),
           setting: value}
    done = subprocess.run([sys.executable, "-m", "cli", *args], env=env, capture_output=True, text=True, timeout=60, check=False,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and f"{setting}='{value}' is refused" in done.stderr
    if "json" in args:
        assert json.loads(done.stderr)["error"] == "SettingsError"


def test_player_add_prints_the_invite_link_a_phone_opens(cli):
    """Found on two phone walks: the README's players join by link, yet 'player add' printed only the code."""
    cli("campaign", "create", "Links", "--starting-pile", "30")
    out = cli("player", "add", "ilse", "--character", "Ilse Varn", "--characteristic", "Whip Smart").stdout
    code = re.search(r"inv_[A-Za-z0-9_-]+", out).group(0)
    assert re.search(rf"http://[0-9.]+:\d+/web/invite#{re.escape(code)}", re.sub(r"\s+", "", out))
    assert "instead of 127.0.0.1" in out  # this machine's own address: the House is told what a phone needs
