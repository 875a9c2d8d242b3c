"""Every kind of unit of resolution (a Penny Ante challenge, a Pool roll and contest, a Twenty-one conflict,
a Humanity and Beast conflict, a Pulp deal) reads from the CLI as a
table and as JSON: replay (whole and one step), challenge show, list and verify, sheet, player list and log, and
the answers of the commands that play it. Embedded on both stores, and against a live ``stakes serve``."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.conftest import STORES
from tests.e2e.conftest import Cli
from tests.e2e.test_cli_live_server import seat_cli, server  # noqa: F401 (the live server fixture)

#: What a table must never show: a Python repr, or a JSON dump where a table belongs.
REPRS = ("{'", "['", "None", "True", "False")


def readable(result: Any) -> str:
    """The output of a table-format command: people's text, not a traceback, a repr or JSON."""
    out = result.stdout
    assert "Traceback" not in result.output, result.output
    assert out.strip() and out.lstrip()[0] not in "{[", out
    for token in REPRS:
        assert token not in out, f"{token!r} in\n{out}"
    return out


class Table:
    """The seats at one table: embedded (one store, ``--as SEAT``) or each on his own laptop against a server."""

    def __init__(self, cli: Cli, url: str | None = None, tmp_path: Any = None, tag: str = "") -> None:
        self.cli, self.server, self.tmp_path, self.tag = cli, url, tmp_path, tag
        self.clis = {"house": seat_cli(cli, tmp_path, f"{tag}house") if url else cli}

    def __call__(self, seat: str, *args: str, expect: int = 0) -> Any:
        if self.server:
            result = self.clis[seat](*args, expect=expect)
        else:
            result = self.cli(*args, *(("--as", seat) if seat != "house" else ()), expect=expect)
        assert "Traceback" not in result.output, result.output
        return result

    def json(self, seat: str, *args: str) -> Any:
        return json.loads(self(seat, *args, "--format", "json").stdout)

    def create(self, *args: str) -> dict[str, Any]:
        remote = ("--server", self.server) if self.server else ()
        return json.loads(self.clis["house"](*remote, "campaign", "create", *args, "--format", "json").stdout)

    def seat(self, seat: str, *args: str) -> None:
        added = self.json("house", "player", "add", seat, *args)
        if self.server:
            self.clis[seat] = seat_cli(self.cli, self.tmp_path, f"{self.tag}{seat}")
            self.clis[seat]("claim", added["invite"], "--server", self.server)


@dataclass
class Unit:
    """A unit played to the end, and what its tables must show: its dice, and the reader's sheet."""

    id: str
    kind: str
    dice: list[str] = field(default_factory=list)
    sheet: list[str] = field(default_factory=list)
    reader: str = "ilse"
    replayed: list[str] | None = None  # what the replay shows of the dice or cards, when not as the table shows them
    title: str = ""  # how ``challenge show`` names the unit, when not by its kind in words

    def __post_init__(self) -> None:
        self.replayed = self.dice if self.replayed is None else self.replayed
        self.label = LABELS[self.kind]  # the kind as the tables say it, never a class name (issue 31)
        self.title = self.title or self.label.capitalize()


LABELS = {"Challenge": "challenge", "PoolRoll": "roll", "PoolContest": "contest", "Conflict": "conflict",
          "BeastRoll": "roll", "PulpDeal": "deal"}


def _listed_last(table: Table, seat: str) -> str:
    return table.json(seat, "challenge", "list")[-1]["id"]


# -- the three kinds of unit, played to the end ------------------------------------------------------------
def play_a_penny_ante_challenge(table: Table) -> Unit:
    """Ilse challenges Tomas with dice entered at the table: 6 6 against 2, checked through to the showdown."""
    table.create("Jade Court", "--starting-pile", "30")
    table.seat("ilse", "--character", "Ilse Varn", "--characteristic", "Whip Smart")
    table.seat("tomas", "--character", "Brother Tomas", "--characteristic", "Love")
    table("house", "adventure", "start")
    view = table.json("ilse", "challenge", "announce", "--challenger", "ilse", "--opponent", "tomas", "--ante", "1",
                      "--table")
    c = ("-C", view["id"])
    assert "Whip Smart" in table("ilse", "challenge", "declare", "Whip Smart", *c).stdout
    table("tomas", "challenge", "declare", *c)
    assert "1:6 2:6" in table("ilse", "challenge", "roll", "--dice", "6,6", *c).stdout
    table("tomas", "challenge", "roll", "--dice", "2", *c)
    # Before anything is kept the dice are hidden from the other side (C-5): a "?" in the table, null in JSON.
    hidden = table.json("tomas", "replay", view["id"])
    assert hidden["steps"][-1]["state"]["sides"]["challenger"]["dice"][0]["value"] is None
    assert "?" in readable(table("tomas", "replay", view["id"]))
    for seat, move in (("ilse", "keep"), ("tomas", "keep"), ("ilse", "check"), ("tomas", "check"),
                       ("ilse", "roll"), ("tomas", "roll"), ("ilse", "check")):
        readable(table(seat, "challenge", move, *c))
    done = table.json("tomas", "challenge", "check", *c)
    assert done["phase"] == "settled" and done["result"]["winner"] == "challenger"
    return Unit(view["id"], "Challenge", dice=["1:6 2:6"], sheet=["Ilse Varn", "Whip Smart"])


def play_a_pool_roll(table: Table) -> Unit:
    """Ilse rolls 4 5 2 with Brave +1: 10, a full success, and chooses to narrate (PL-2, PL-4)."""
    table.create("Pool night", "--system", "pool", "--table-dice")
    table.seat("ilse", "--character", "Ilse", "--description", "A brave thief with quick hands", "--trait", "Brave=1")
    table.seat("tomas", "--character", "Tomas", "--description", "A stubborn old monk")
    table("house", "adventure", "start")  # C-1: units of resolution happen during an adventure
    rolled = readable(table("ilse", "roll", "3", "--trait", "Brave", "--dice", "4,5,2"))
    assert "Roll " in rolled and "PoolRoll" not in rolled and "4 5 2" in rolled and "choice" in rolled and "choose" in rolled
    unit = _listed_last(table, "ilse")
    chosen = readable(table("ilse", "choose", "narrate", "-C", unit))
    assert "settled" in chosen and "Narrates: ilse" in chosen  # the roll in a few lines (issue 31)
    return Unit(unit, "PoolRoll", dice=["4 5 2"], sheet=["Ilse", "Brave", "4 5 2"])


def play_a_pool_contest(table: Table) -> Unit:
    """Ilse opposes Tomas: 6 4 against 5 5 is a stalemate (PL-8), and Ilse folds."""
    table.create("Pool night", "--system", "pool", "--table-dice")
    table.seat("ilse", "--character", "Ilse", "--description", "A brave thief with quick hands", "--trait", "Brave=1")
    table.seat("tomas", "--character", "Tomas", "--description", "A stubborn old monk")
    table("house", "adventure", "start")  # C-1: units of resolution happen during an adventure
    assert "Contest " in readable(table("ilse", "oppose", "tomas"))
    unit = _listed_last(table, "ilse")
    assert "6 4" in readable(table("ilse", "contest", "roll", "2", "--dice", "6,4", "-C", unit))
    stalemate = table.json("tomas", "contest", "roll", "2", "--dice", "5,5", "-C", unit)
    assert stalemate["phase"] == "stalemate"
    assert {"fold", "push"} <= {a["action"] for a in stalemate["legal_actions"]}
    folded = readable(table("ilse", "contest", "fold", "-C", unit))
    assert "settled" in folded and "folded" in folded
    return Unit(unit, "PoolContest", dice=["6 4", "5 5"], sheet=["Ilse", "Brave", "6 4"])


TWENTY_ONE_TOP = ("KS", "9S", "5S", "QH", "8H", "7C")


def play_a_twenty_one_conflict(table: Table) -> Unit:
    """Ilse and Tomas with a deck entered at the table: order cards, Ilse lays 9 5 and stands, the House ends it."""
    from domain.systems.twenty_one.cards import DECK

    table.create("Cards", "--system", "twenty-one", "--table-cards")
    table.seat("ilse", "--character", "Ilse Varn", "--skills", "Knife fighting")
    table.seat("tomas", "--character", "Brother Tomas")
    table("house", "adventure", "start")  # C-1: units of resolution happen during an adventure
    unit = table.json("house", "conflict", "open", "ilse,tomas")["id"]
    table("house", "conflict", "deal", "--deck", ",".join([*TWENTY_ONE_TOP, *(x for x in DECK
                                                                                if x not in TWENTY_ONE_TOP)]))
    table("house", "conflict", "order")
    table("ilse", "play", "order-card", "KS")
    table("tomas", "play", "order-card", "QH")
    table("ilse", "play", "lay", "9S", "5S")
    readable(table("ilse", "play", "stand"))
    assert table.json("house", "conflict", "end")["phase"] == "settled"
    return Unit(unit, "Conflict", dice=["9♠ 5♠"], sheet=["Ilse Varn", "Knife fighting", "9♠ 5♠"])


def play_a_beast_conflict(table: Table) -> Unit:
    """Ilse against Sheriff Cole with table dice, through both sides' Humanity checks (BE-1 … BE-12)."""
    table.create("Night", "--system", "beast", "--table-dice")
    table.seat("ilse", "--character", "Ilse", "--humanity", "6")
    table.seat("tomas", "--character", "Tomas")
    table("house", "antagonist", "create", "Sheriff Cole", "--humanity", "4", "--willpower", "3")
    table("house", "adventure", "start")  # C-1: units of resolution happen during an adventure
    unit = table.json("ilse", "conflict", "open", "--against", "Sheriff Cole")["id"]
    table("ilse", "conflict", "roll", "--humanity", "2", "--beast", "3", "--dice", "7,3,6,6,10,2")
    table("ilse", "willpower", "keep")
    table("house", "conflict", "roll", "--humanity", "2", "--beast", "2", "--dice", "1,2,6,1")
    table("house", "willpower", "keep")
    table("ilse", "humanity", "check", "--dice", "1,2,3,4,5,6")
    settled = table.json("house", "humanity", "check", "--side", "opponent", "--dice", "7,1,1,1")
    assert settled["phase"] == "settled"
    return Unit(unit, "BeastRoll", title="Conflict", dice=["H 7 ✓", "B 10→2 ✓"], sheet=["Ilse", "humanity", "slipped", "H 7 ✓"])


def play_a_pulp_deal(table: Table) -> Unit:
    """Ilse deals a standard draw from the server's shuffle and shows it (PU-1, PU-2, C-5)."""
    table.create("Pulp night", "--system", "pulp-cards")
    table.seat("ilse", "--character", "Ilse Varn")
    table.seat("tomas", "--character", "Tomas")
    table("house", "adventure", "start")  # C-1: units of resolution happen during an adventure
    unit = table.json("ilse", "deal", "--difficulty", "2", "--cut", "5")["id"]
    assert table.json("ilse", "show", "-C", unit)["phase"] == "settled"
    return Unit(unit, "PulpDeal", sheet=["Ilse Varn", "standard"])


# -- every read of a unit, as a table and as JSON ----------------------------------------------------------------
def assert_every_read_renders(table: Table, unit: Unit) -> None:
    seat = unit.reader

    replay = table.json(seat, "replay", unit.id)
    assert replay["challenge_id"] == unit.id and replay["revealed"] and replay["total"] == len(replay["steps"]) >= 2
    assert all({"step", "event", "actor", "detail", "changes", "state"} <= set(s) for s in replay["steps"])
    from cli.history import words

    text = readable(table(seat, "replay", unit.id))
    for step in replay["steps"]:
        assert f"Step {step['step']}/{replay['total']} {words(step['event'])}" in text  # in words (issue 31)
    for dice in unit.replayed:
        assert dice in text
    assert f"State after step {replay['total']}" in text and "settled" in text

    first = table.json(seat, "replay", unit.id, "--step", "1")
    assert [s["step"] for s in first["steps"]] == [1] and first["total"] == replay["total"]
    assert first["steps"][0]["state"] == replay["steps"][0]["state"]
    text = readable(table(seat, "replay", unit.id, "--step", "1"))
    assert f"Step 1/{replay['total']} {words(first['steps'][0]['event'])}" in text and "state after this step" in text
    assert "Step 2/" not in text

    show = table.json(seat, "challenge", "show", unit.id)
    assert show["id"] == unit.id and show["phase"] == "settled"
    assert ("sides" in show) if unit.kind == "Challenge" else (show["kind"] == unit.kind and "state" in show)
    text = readable(table(seat, "challenge", "show", unit.id))
    assert unit.title in text and "settled" in text and all(dice in text for dice in unit.dice)

    listed = table.json(seat, "challenge", "list")
    assert [(c["kind"], c["phase"]) for c in listed if c["id"] == unit.id] == [(unit.kind, "settled")]
    text = readable(table(seat, "challenge", "list"))
    # its kind in words: the unit's own (a Beast conflict, as its title says) where its summary has one
    assert unit.id[:8] in text and (unit.title.lower() if unit.kind == "BeastRoll" else unit.label) in text

    verified = table.json(seat, "challenge", "verify", unit.id)
    assert verified["verifiable"] and verified["mismatches"] == [] and verified["entered"] + verified["checked"] >= 1
    assert "matches" in readable(table(seat, "challenge", "verify", unit.id))

    sheet = table.json(seat, "sheet")
    assert sheet["seat"] == seat
    text = readable(table(seat, "sheet"))
    assert all(part in text for part in unit.sheet)

    players = table.json(seat, "player", "list")
    assert sorted(p["seat"] for p in players) == ["ilse", "tomas"]
    text = readable(table(seat, "player", "list"))
    assert all(p["name"] in text for p in players)

    log = table.json(seat, "log", "--limit", "1000")
    assert {"campaign_id", "entries", "next_after"} <= set(log)
    events = [f"{e['stream'].split(':')[0]}.{e['event']}" for e in log["entries"]]
    assert sum(e.startswith(f"{unit.kind}.") for e in events) == replay["total"]
    text = readable(table(seat, "log", "--limit", "1000"))
    assert not any(event in text for event in events)  # in words, not class names (issue 31)
    assert len(log["entries"]) == len(re.findall(r"^\s+\d+\s", text, re.M))  # a row for each


PLAYS = {"a penny ante challenge": play_a_penny_ante_challenge, "a pool roll": play_a_pool_roll,
         "a pool contest": play_a_pool_contest, "a twenty-one conflict": play_a_twenty_one_conflict,
         "a beast conflict": play_a_beast_conflict, "a pulp deal": play_a_pulp_deal}


@pytest.mark.parametrize("settings", [STORES[1]], indirect=True)  # what the CLI draws; SQLite: the server test below
@pytest.mark.parametrize("kind", list(PLAYS))
def test_every_read_renders_every_kind_of_unit_as_a_table_and_as_json(cli, kind):
    table = Table(cli)
    assert_every_read_renders(table, PLAYS[kind](table))


def test_undo_and_overturn_answer_with_a_table_for_every_kind_of_unit(cli):
    table = Table(cli)
    unit = play_a_penny_ante_challenge(table)
    overturned = readable(table("house", "overturn", unit.id, "--void", "--reason", "a misdealt die"))
    assert "Challenge" in overturned and "void: no winner, voided by the House (C-6)" in overturned
    assert table.json("house", "challenge", "show", unit.id)["result"]["winner"] is None

    table.create("Pool night", "--system", "pool", "--table-dice")
    table.seat("ilse", "--character", "Ilse", "--description", "A brave thief", "--trait", "Brave=1")
    table.seat("tomas", "--character", "Tomas", "--description", "A stubborn old monk")
    table("house", "adventure", "start")  # C-1: units of resolution happen during an adventure
    table("ilse", "oppose", "tomas")
    contest = _listed_last(table, "ilse")
    table("ilse", "contest", "roll", "2", "--dice", "6,4", "-C", contest)
    table("tomas", "contest", "roll", "2", "--dice", "5,5", "-C", contest)
    rewound = readable(table("house", "undo", contest, "--to-step", "2", "--reason", "Tomas rolled out of turn"))
    assert "Contest " in rewound and "rolling" in rewound and "6 4" in rewound
    # Tomas's 5 5 is no longer his roll of the round: it is said as seen before the undo (C-8), nowhere else
    assert rewound.count("5 5") == 1 and "Seen by every seat before the undo: tomas's round 1, 5 5" in rewound
    rewound_json = table.json("house", "challenge", "show", contest)
    assert rewound_json["phase"] == "rolling" and rewound_json["state"]["sides"]["opponent"]["last"] is None
    refused = table("tomas", "contest", "roll", "2", "--dice", "1,2", "-C", contest, expect=3)
    assert "C-7" in refused.stderr  # after a rewind the same slots show the same dice
    table("tomas", "contest", "roll", "2", "--dice", "5,5", "-C", contest)
    replay = table.json("house", "replay", contest)
    text = readable(table("house", "replay", contest))
    assert all(s["event"] in text for s in replay["steps"]) and "Tomas rolled out of turn" in text

    table("ilse", "roll", "2", "--dice", "1,2")
    roll = _listed_last(table, "ilse")
    voided = readable(table("house", "overturn", roll, "--reason", "the wrong dice were entered"))
    assert "Roll " in voided and "overturned" in voided and "the wrong dice were entered" in voided
    assert table.json("house", "challenge", "show", roll)["state"]["overturned"]["reason"] == \
        "the wrong dice were entered"
    assert "the wrong dice were entered" in readable(table("house", "replay", roll))


@pytest.mark.parametrize("settings", ["sqlite"], indirect=True)
def test_every_read_renders_every_kind_of_unit_against_a_running_server(cli, server, tmp_path):  # noqa: F811
    for tag, play in PLAYS.items():
        table = Table(cli, server, tmp_path, tag=tag.replace(" ", "-"))
        assert_every_read_renders(table, play(table))


@pytest.mark.parametrize("kind", list(PLAYS))
def test_a_rebuild_equals_the_read_models_built_as_every_kind_of_unit_was_played(cli, settings, kind):
    """Rebuilt in batches (a unit's events taken in memory, its row written once per batch), the read models
    equal those built one command at a time; a House overturn (C-6) included."""
    from adapters.service import Stakes

    table = Table(cli)
    unit = PLAYS[kind](table)
    if kind != "a pool contest":  # a settled contest is not overturned (C-6)
        table("house", "overturn", unit.id, "--void", "--reason", "a misread rule")
    stakes = Stakes(settings)
    try:
        incremental = stakes.views.dump()
        stakes.rebuild()
        assert stakes.views.dump() == incremental
    finally:
        stakes.close()
