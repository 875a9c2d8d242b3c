"""Two players and the House play a whole Twenty-one conflict from the CLI, embedded on both stores and
against a live ``stakes serve`` (TO-1 … TO-15, C-3 … C-8)."""

from __future__ import annotations

import pytest

from domain.systems.twenty_one.cards import DECK
from tests.e2e.test_cli_every_unit import Table, readable
from tests.e2e.test_cli_live_server import seat_cli, server  # noqa: F401 (the live server fixture)

TOP = ("KS", "9S", "5S", "QH", "8H", "7C", "2D", "AC", "4D", "JD", "3C", "6H")


class Seats(Table):
    def seat(self, seat: str, *args: str) -> None:
        added = self.json("house", "player", "add", seat, *args)
        if self.server:
            self.clis[seat] = seat_cli(self.cli, self.tmp_path, f"{self.tag}{seat}")
            self.clis[seat]("claim", added["invite"], "--server", self.server)


def play(t: Seats) -> None:
    t.create("Cards", "--system", "twenty-one", "--table-cards")
    t.seat("ilse", "--character", "Ilse Varn", "--skills", "Knife fighting")
    t.seat("tomas", "--character", "Brother Tomas")
    t("house", "hold", "grant", "ilse", "1", "--skill", "knife fighting")
    t("house", "adventure", "start")  # C-1: units of resolution happen during an adventure
    opened = t.json("house", "conflict", "open", "ilse,tomas")
    assert opened["kind"] == "Conflict" and opened["phase"] == "seeding"
    t("ilse", "conflict", "seed", "four leaf clover")
    deck = ",".join([*TOP, *(x for x in DECK if x not in TOP)])
    assert "C-3" in t("house", "conflict", "deal", "--deck", "AS,AS", expect=3).stderr
    t("house", "conflict", "deal", "--deck", deck)
    refused = t("house", "conflict", "reshuffle", "AS,2S", expect=3).stderr  # only when a refill waits (C-3, TO-9)
    assert "TO-4" in refused and "reshuffle" in refused
    assert "K♠ 9♠ 5♠" in readable(t("ilse", "hand"))
    shown = readable(t("tomas", "challenge", "show"))
    assert "Q♥ 8♥ 7♣" in shown and "K♠" not in shown  # his own hand only (C-5)

    t("house", "conflict", "order")  # TO-3: ilse lays K, tomas Q
    t("ilse", "play", "order-card", "K♠")
    state = t.json("tomas", "play", "order-card", "qh")["state"]
    assert state["turn_order"] == ["ilse", "tomas"] and state["turn"] == "ilse"
    t("ilse", "play", "lay", "9s", "5s")  # 14
    t("house", "modifier", "easier", "--source", "high ground")  # TO-6: targets 14/16
    assert "C-1" in t("tomas", "modifier", "harder", "--source", "spite", expect=4).stderr
    t("tomas", "play", "assist", "--replace-with", "8H")  # 9 + 8 = 17 (TO-7)
    done = t.json("ilse", "play", "stand")["state"]
    assert done["results"][-1]["outcome"] == "full" and done["results"][-1]["targets"] == {"mixed": 14, "full": 16}
    t("tomas", "play", "lay", "7C")  # one card left: the deck makes up the second (TO-4)
    view = t.json("tomas", "play", "draw")["state"]
    assert view["round"] == 2 or view["action"] is not None
    if view["action"] is not None:
        view = t.json("tomas", "play", "stand")["state"]
    assert view["round"] == 2 and len(view["hands"]["tomas"]) == 3  # dealt back up to three (TO-9)
    sheet = t.json("ilse", "sheet")
    assert sheet["skills"] == ["Knife fighting"] and sheet["actions"][0]["outcome"] == "full"
    readable(t("ilse", "sheet"))
    readable(t("tomas", "replay"))
    readable(t("house", "log"))
    steps = t.json("house", "challenge", "show")
    assert "C-8" in t("house", "undo", "--to-step", "9", "--reason", "the high ground was not there",
                      expect=3).stderr  # 9♠ 5♠ were laid face up: the House is warned first (issue 31)
    t("house", "undo", "--to-step", "9", "--reason", "the high ground was not there", "--yes")
    after = t.json("tomas", "challenge", "show")["state"]
    assert after["round"] == 1 and after["results"] == [] and steps["state"]["round"] == 2
    assert any(c.get("seen_before_rewind") for c in after["hands"]["ilse"])  # C-8: 9♠ 5♠ were laid face up
    assert "*" in readable(t("tomas", "challenge", "show"))
    t("house", "conflict", "end")
    verified = t.json("tomas", "challenge", "verify", opened["id"][:8])
    assert verified["verifiable"] and verified["entered"] == 1 and verified["mismatches"] == []


@pytest.mark.parametrize("settings", ["sqlite", "postgres"], indirect=True)
def test_a_conflict_is_played_from_the_embedded_cli(cli, settings):
    play(Seats(cli))


def test_a_conflict_is_played_from_the_cli_against_a_running_server(cli, server, tmp_path):  # noqa: F811
    play(Seats(cli, server, tmp_path))
