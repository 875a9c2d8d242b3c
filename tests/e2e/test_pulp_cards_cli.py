"""Pulp in the Cards from the CLI: a standard deal, a resistance deal and a two-cycle combat, embedded on both
stores and against a running ``stakes serve`` (PU-1 … PU-9, C-3 … C-8)."""

from __future__ import annotations

import re

import pytest

from tests.e2e.test_cli_every_unit import Table, readable
from tests.e2e.test_cli_live_server import server  # noqa: F401 (the live server fixture)

SUITS = "♠♥♦▢"


def play_an_evening(table: Table) -> None:
    table.create("Pulp night", "--system", "pulp-cards")
    table.seat("ilse", "--character", "Ilse Varn")
    table.seat("tomas", "--character", "Tomas")
    table("house", "adventure", "start")  # C-1: units of resolution happen during an adventure

    # A standard deal, seen by its dealer until shown (C-5), then proved from the revealed seeds (C-4).
    dealt = table.json("ilse", "deal", "--difficulty", "2", "--cut", "5")
    deal = dealt["id"]
    assert len(dealt["state"]["cards"]) == 7 and dealt["state"]["cut"] == 5
    assert any(s in readable(table("ilse", "challenge", "show", deal)) for s in SUITS)
    assert table.json("tomas", "challenge", "show", deal)["state"]["cards"] is None
    assert table.json("ilse", "show", "-C", deal)["phase"] == "settled"
    assert table.json("tomas", "challenge", "show", deal)["state"]["cards"] == dealt["state"]["cards"]
    proof = table.json("tomas", "challenge", "verify", deal)
    assert proof["verifiable"] and proof["mismatches"] == [] and proof["checked"] == 2
    readable(table("tomas", "challenge", "verify", deal))

    # A resistance deal, stated from the character's side (PU-4, PU-8).
    resisted = table.json("tomas", "deal", "resist", "--difficulty", "-1")
    assert resisted["state"]["kind"] == "resistance" and "resist" in resisted["state"]["result"]["reads"]
    table("tomas", "show", "-C", resisted["id"])

    # A combat of two cycles: the order kept once, then dealt again (PU-5, PU-9). The House's characters are not
    # created beforehand: the refusal says they are names typed where they act (issue 31).
    refused = table("house", "antagonist", "create", "Sheriff Cole", expect=3).stderr
    assert "C-1" in refused and "not created beforehand" in refused and "combatants" in refused
    opened = table.json("house", "combat", "open", "ilse,Sheriff Cole")
    combat = ("-C", opened["id"])
    table.json("house", "combat", "initiative", "--advantage", "Sheriff Cole=2", *combat)  # called (C-10)
    view = table.json("ilse", "combat", "pass", *combat)  # dealt with the players' pass
    assert sorted(view["state"]["order"]) == ["Ilse Varn", "Sheriff Cole"]
    for cycle in (1, 2, 3):
        for _ in range(2):
            up = table.json("house", "challenge", "show", opened["id"])["state"]["up"]
            seat = "ilse" if up == "Ilse Varn" else "house"
            attacked = table.json(seat, "combat", "attack", "--difficulty", "1", *combat)
            if seat == "house":  # its choice, dealt with the players' fresh seed (C-9): drawn by the CLI when left out
                assert attacked["state"]["fresh_owed"] == ["players"]
                assert table.json("ilse", "combat", "seed", *combat)["state"]["attacks"][-1]["cards"] is None  # C-5
                attacked = table.json("house", "challenge", "show", opened["id"])
            assert attacked["state"]["attacks"][-1]["cards"]
            hidden = table.json("tomas", "challenge", "show", opened["id"])["state"]["attacks"][-1]
            assert hidden["cards"] is None and hidden["result"] is None  # until its dealer shows it (C-5)
            readable(table(seat, "combat", "show", *combat))
            readable(table("house", "combat", "effect", f"cycle {cycle}: a graze", *combat))
        if cycle == 1:
            assert table.json("house", "combat", "keep", *combat)["state"]["chosen"]["kind"] == "keep"
            assert "C-9" in table("ilse", "combat", "pass", *combat, expect=3).stderr  # a fresh seed is given
            assert table.json("ilse", "combat", "seed", "my fresh words", *combat)["state"]["cycle"] == 2
        elif cycle == 2:
            assert table.json("house", "combat", "initiative", *combat)["state"]["cycle"] == 2
            seeded = table.json("ilse", "combat", "seed", *combat)["state"]  # no text: 128 bits drawn by the CLI
            assert seeded["cycle"] == 3 and re.fullmatch(r"[0-9a-f]{32}", seeded["fresh_seeds"]["cycle-3"]["players"])
    refused = table("house", "undo", opened["id"], "--to-step", "2", "--reason", "Cole was not there", expect=3)
    assert "C-9" in refused.output  # the called first deal is not chosen again, the players' pass known
    rewound = table.json("house", "undo", opened["id"], "--to-step", "4", "--reason", "Cole was not there")
    assert rewound["state"]["attacks"] == [] and len(rewound["state"]["seen_before_the_rewind"]) >= 6
    readable(table("house", "challenge", "show", opened["id"]))
    assert table.json("house", "combat", "end", "--reason", "Cole ran", *combat)["phase"] == "settled"
    proof = table.json("tomas", "challenge", "verify", opened["id"])
    assert proof["verifiable"] and proof["mismatches"] == []
    text = readable(table("tomas", "replay", opened["id"]))
    assert "Initiative dealt" in text and "Rewound" in text

    # The sheet: notes, conditions and promotions (PU-6).
    readable(table("house", "note", "add", "lost an arm", "--to", "tomas", "--kind", "condition"))
    readable(table("tomas", "note", "add", "owes Cole a favour"))
    sheet = table.json("tomas", "sheet")
    assert sheet["conditions"] == ["lost an arm"] and [n["text"] for n in sheet["notes"]][-1] == "owes Cole a favour"
    text = readable(table("ilse", "sheet"))
    assert "Ilse Varn" in text and any(s in text for s in SUITS)
    readable(table("tomas", "log", "--limit", "1000"))
    refused = table("ilse", "deal", "--difficulty", "9", expect=3)
    assert "PU-2" in refused.stderr


def test_an_evening_of_pulp_is_played_from_the_embedded_cli(cli):
    play_an_evening(Table(cli))


@pytest.mark.parametrize("settings", ["sqlite"], indirect=True)
def test_an_evening_of_pulp_is_played_from_the_cli_against_a_running_server(cli, server, tmp_path):  # noqa: F811
    play_an_evening(Table(cli, server, tmp_path, tag="pulp"))
