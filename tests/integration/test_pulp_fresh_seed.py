"""C-9, C-10 with C-7: in a Pulp combat, every House choice made after the players' input is followed by a fresh
seed of the players' before the draw it leads to (ADR 0029, addendum "Pulp: a fresh seed after each House choice").

Once the first deal is made, the House, which runs the service and can read the committed secret, can compute every
later shuffle from it and the players' seed. So each of its later choices (initiative again with its advantages,
or keep, at a cycle's start; a House attack's target and difficulty) is a *stage*: it is recorded first, the
players add a fresh seed, and only then is it drawn, every later draw's slot carrying that seed. Through the
service, on the test's store."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from typing import Any
from uuid import UUID

import pytest

from adapters import randomness
from domain.errors import RuleViolation
from domain.fairness import derive_shuffle
from domain.seats import Seat
from domain.systems.pulp_cards import rules
from tests.integration.conformance import HOUSE, SEATS, Recipe, Step, Table

OPEN = Step(HOUSE, "open-combat", {"combatants": ["ilse", "Sheriff Cole"]})
FRESH = {"action": "seed", "member": "players", "fresh": True, "required": ["seed"]}


@pytest.fixture
def table(conformance_table: Callable[[str], Table]) -> Table:
    return conformance_table("pulp-cards")


def listed(table: Table, unit: UUID, seat: str) -> list[dict[str, Any]]:
    return [a for s, a in table.legal(unit) if s == seat]


def inputs(table: Table, unit: UUID, seat: str) -> list[dict[str, Any]]:
    """The seat's listed seed and pass entries."""
    return [a for a in listed(table, unit, seat) if a["action"] in ("seed", "pass")]


def to_cycle_end(table: Table) -> UUID:
    """Ilse against Sheriff Cole: the first initiative called and dealt with Ilse's pass, then cycle 1's two
    attacks, the sheriff's with the fresh seed it waits for."""
    unit = table.send(OPEN).id
    table.act(HOUSE, unit, {"action": "initiative"})
    table.act("ilse", unit, {"action": "pass"})
    while table.unit(unit).phase == "attacking":
        if table.unit(unit).up() == "Ilse":
            table.act("ilse", unit, {"action": "attack", "target": "Sheriff Cole", "cut": 3})
        else:
            table.act(HOUSE, unit, {"action": "attack", "target": "Ilse", "difficulty": 1})
            assert table.unit(unit).owed_fresh() == ["players"]
            table.act("ilse", unit, {"action": "seed", "seed": "ilse's fresh words"})
    assert table.unit(unit).phase == "cycle-end"
    return unit


def test_the_house_cannot_know_a_later_cycles_cards_when_choosing_c9(table: Table) -> None:
    """The same House choice, then two different fresh seeds: two different decks for cycle 2's initiative."""
    unit = to_cycle_end(table)
    table.act(HOUSE, unit, {"action": "initiative", "advantage": {"Sheriff Cole": 2}})
    chosen = table.unit(unit)
    assert chosen.phase == "cycle-end" and chosen.cycle == 1  # nothing dealt: the choice waits for the seed
    decks = []
    for words in ("first words", "second words"):
        one = copy.deepcopy(chosen)
        one.add_seed("ilse", words, "ilse")
        assert one.cycle == 2 and one.phase == "attacking"
        decks.append(one.shuffles[-1])
    assert decks[0]["value"] != decks[1]["value"]
    assert decks[0]["slot"] == ["initiative", 2, "fresh", "first words"]
    # what the House could compute at its choice (the secret and the seeds it had) is neither
    known = derive_shuffle(chosen.secret_seed, chosen.side_seeds(), ["initiative", 2], rules.DECK)
    assert known not in (decks[0]["value"], decks[1]["value"])


@pytest.mark.parametrize("choice", [{"action": "keep"}, {"action": "initiative"},
                                    {"action": "initiative", "advantage": {"Ilse": 3}}])
def test_the_fresh_seed_is_listed_for_the_players_whatever_the_house_chose_c9_c5(table: Table,
                                                                                 choice: dict[str, Any]) -> None:
    unit = to_cycle_end(table)
    assert inputs(table, unit, "ilse") == []  # owed only once the House has chosen
    table.act(HOUSE, unit, choice)
    assert inputs(table, unit, "ilse") == [FRESH]  # the same entry whatever it chose, and no pass (C-9)
    assert not {"initiative", "keep", "attack"} & {a["action"] for a in listed(table, unit, HOUSE)}
    assert listed(table, unit, "tomas") == []  # not in the combat
    assert table.view("ilse", unit).state["fresh_owed"] == ["players"]
    table.act("ilse", unit, {"action": "seed", "seed": "words of mine"})
    found = table.unit(unit)
    assert found.phase == "attacking" and found.cycle == 2 and found.pending is None
    assert found.epoch == "cycle-2" and found.owed_fresh() == []


def test_a_house_attack_waits_for_the_fresh_seed_and_its_hand_stays_the_houses_c9_c5(table: Table) -> None:
    unit = table.send(OPEN).id
    table.act(HOUSE, unit, {"action": "initiative"})
    table.act("ilse", unit, {"action": "pass"})
    if table.unit(unit).up() == "Ilse":
        table.act("ilse", unit, {"action": "attack", "cut": 5})
    table.act(HOUSE, unit, {"action": "attack", "target": "Ilse", "difficulty": -2})
    assert all(a["attacker"] != "Sheriff Cole" for a in table.unit(unit).attacks)  # not dealt yet
    with pytest.raises(RuleViolation, match="C-10: the House chose Sheriff Cole's attack on Ilse"):
        table.act(HOUSE, unit, {"action": "attack", "target": "Ilse", "difficulty": 4})
    table.act("ilse", unit, {"action": "seed", "seed": "fresh"})
    attack = table.unit(unit).attacks[-1]
    assert (attack["attacker"], attack["target"], attack["difficulty"]) == ("Sheriff Cole", "Ilse", -2)
    assert attack["slot"][-2:] == ["fresh", "fresh"]
    seen = table.view("ilse", unit).state["attacks"][-1]
    assert seen["hidden"] and seen["cards"] is None  # the House's hand until shown (C-5)


def test_a_fresh_seed_is_given_never_passed_c9(table: Table) -> None:
    unit = to_cycle_end(table)
    table.act(HOUSE, unit, {"action": "keep"})
    before = table.events()
    with pytest.raises(RuleViolation, match="C-9: a fresh seed is given, not passed"):
        table.act("ilse", unit, {"action": "pass"})
    assert table.events() == before


def test_after_a_rewind_that_kept_the_fresh_seed_the_house_chooses_the_same_and_it_is_dealt_at_once_c9_c7(
        table: Table) -> None:
    unit = to_cycle_end(table)
    step = table.unit(unit).version
    table.act(HOUSE, unit, {"action": "initiative", "advantage": {"Sheriff Cole": 2}})
    chose = table.unit(unit).version
    table.act("ilse", unit, {"action": "seed", "seed": "cycle two"})
    dealt = table.unit(unit)
    before = table.events()
    with pytest.raises(RuleViolation, match="C-6: at step .* fresh seeds that were given since"):
        table.rewind(unit, chose)  # between the choice and the seed, which is kept: the deal would come at once
    assert table.events() == before
    table.rewind(unit, step)
    before = table.events()
    for other in ({"action": "keep"}, {"action": "initiative"},
                  {"action": "initiative", "advantage": {"Sheriff Cole": 3}}):
        with pytest.raises(RuleViolation, match="C-9: the House chose initiative for cycle 2 with advantages "
                                                "Sheriff Cole 2 before the players' fresh seeds"):
            table.act(HOUSE, unit, other)
    assert table.events() == before
    house = {a["action"]: a for a in listed(table, unit, HOUSE)}
    assert "keep" not in house and house["initiative"]["bound"] == {"advantage": {"Sheriff Cole": 2}}
    table.act(HOUSE, unit, {"action": "initiative", "advantage": house["initiative"]["bound"]["advantage"]})
    again = table.unit(unit)
    assert again.phase == "attacking" and again.cycle == 2 and again.owed_fresh() == []  # dealt at once
    assert again.initiative["dealt"] == dealt.initiative["dealt"] and again.order == dealt.order
    assert inputs(table, unit, "ilse") == []


def test_after_a_rewind_a_house_attack_is_made_again_as_it_was_c9_c7(table: Table) -> None:
    unit = to_cycle_end(table)
    found = table.unit(unit)
    number = next(a["number"] for a in found.attacks if a["attacker"] == "Sheriff Cole")
    before_attack = next(s.step for s in table.stakes.replay(table.cid, Seat.house(), unit).steps
                         if s.event == "HouseChose") - 1
    cards = found.attacks[number - 1]["cards"]
    table.rewind(unit, before_attack)
    with pytest.raises(RuleViolation, match="C-9: the House chose Sheriff Cole's attack on Ilse at difficulty 1"):
        table.act(HOUSE, unit, {"action": "attack", "target": "Ilse", "difficulty": 4})
    attack = next(a for a in listed(table, unit, HOUSE) if a["action"] == "attack")
    assert attack["bound"] == {"target": "Ilse", "difficulty": 1} and attack["min"] == attack["max"] == 1
    table.act(HOUSE, unit, {"action": "attack", **attack["bound"]})
    assert table.unit(unit).attacks[number - 1]["cards"] == cards  # dealt at once, the same cards (C-7)


def test_verify_recomputes_every_shuffle_fresh_slots_included_c4(table: Table) -> None:
    unit = to_cycle_end(table)
    table.act(HOUSE, unit, {"action": "keep"})
    table.act("ilse", unit, {"action": "seed", "seed": "keep words"})
    while table.unit(unit).phase == "attacking":
        if table.unit(unit).up() == "Ilse":
            table.act("ilse", unit, {"action": "attack"})
        else:
            table.act(HOUSE, unit, {"action": "attack"})
            table.act("ilse", unit, {"action": "seed", "seed": "last words"})
    table.act(HOUSE, unit, {"action": "end", "reason": "the sheriff ran"})
    report = table.unit(unit).verify()
    assert report["verifiable"] and report["commitment_matches"] and report["mismatches"] == []
    fresh = [r for r in report["results"] if "fresh" in r["slot"]]
    assert len(fresh) >= 4  # cycle 1's House attack and its cut; cycle 2's two attacks and cuts
    assert any(r["slot"][:2] == ["attack", "Ilse"] for r in fresh)  # a player's attack after a House choice too


IDS = re.compile(r"(?<![0-9a-f])([0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?![0-9a-f])")
TIMES = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?([+-]\d\d:\d\d|Z)?")


def house_attack_story(conformance_table: Callable[[str], Table], fresh: str,
                       monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The same combat with the same secrets up to the sheriff's attack, dealt with Ilse's fresh seed ``fresh``;
    what every seat reads then (ids, times and the public seed text made alike)."""
    drawn = iter(f"{n:064x}" for n in range(1, 10_000))
    monkeypatch.setattr(randomness, "new_secret_seed", lambda: next(drawn))
    table = conformance_table("pulp-cards")
    unit = table.send(OPEN).id
    table.act(HOUSE, unit, {"action": "initiative"})
    table.act("ilse", unit, {"action": "seed", "seed": "the same first seed"})
    if table.unit(unit).up() == "Ilse":
        table.act("ilse", unit, {"action": "attack", "target": "Sheriff Cole", "cut": 3})
    table.act(HOUSE, unit, {"action": "attack", "target": "Ilse", "difficulty": 0})
    table.act("ilse", unit, {"action": "seed", "seed": fresh})
    out = {}
    for seat in SEATS:
        for name, text in table.reads(seat, [unit]).items():
            text = text.replace(json.dumps(fresh)[1:-1], "<the fresh seed>")
            text = re.sub(r'"position": \d+, "announced_at"', '"position": 0, "announced_at"', text)
            out[f"{seat} {name}"] = TIMES.sub("<time>", IDS.sub("<id>", text))
    return out


def test_the_houses_hand_dealt_with_a_fresh_seed_stays_hidden_from_every_player_c5(
        conformance_table: Callable[[str], Table], monkeypatch: pytest.MonkeyPatch) -> None:
    """Two fresh seeds give the House's attack two hands (its secret until shown): every player reads the same
    bytes either way, the seed text itself (public, C-4) aside; only the House reads the difference."""
    first, second = (house_attack_story(conformance_table, fresh, monkeypatch)
                     for fresh in ("fresh-one-qx7", "fresh-two-zj9"))
    for key in first:
        if not key.startswith(f"{HOUSE} "):
            assert first[key] == second[key], f"{key} differs with the House's hand"
    assert any(first[k] != second[k] for k in first if k.startswith(f"{HOUSE} "))  # not vacuous


def test_ending_a_combat_while_a_players_attack_is_up_records_the_deal_it_skips_c10(table: Table) -> None:
    """Once dealt, the House can compute a player's next attack from the seeds given; ending the combat there
    records that deal (its shuffle, the drawn cut, the 7 cards) for every seat, just before ``Ended``."""
    unit = table.send(OPEN).id
    table.act(HOUSE, unit, {"action": "initiative"})
    table.act("ilse", unit, {"action": "pass"})
    if table.unit(unit).up() != "Ilse":
        table.act(HOUSE, unit, {"action": "attack", "target": "Ilse", "difficulty": 1})
        table.act("ilse", unit, {"action": "seed", "seed": "ilse's fresh words"})
    assert table.unit(unit).up() == "Ilse"
    would = copy.deepcopy(table.unit(unit))
    would.attack("ilse", "Sheriff Cole", 0, None, None, "ilse")  # what her attack, cut left out, deals
    table.act(HOUSE, unit, {"action": "end", "reason": "the sheriff rides off"})
    verified = table.stakes.verify_challenge(table.cid, Seat.house(), unit)
    recipe = Recipe(verified.secret_seed or "", verified.side_seeds or [])
    for seat in SEATS:
        shown = [e for e in table.stakes.log(table.cid, Seat.parse(seat), 0, 1000).entries
                 if unit.hex in e.stream and e.event == "DrawAbandoned"]
        assert len(shown) == 1 and not shown[0].hidden, seat
        [draw] = shown[0].detail["draws"]
        assert draw["slot"] == would.attacks[-1]["slot"] and draw["cards"] == would.attacks[-1]["cards"]
        assert recipe.mismatches(draw) == []


def test_ending_a_combat_while_the_houses_choice_waits_for_the_fresh_seed_records_nothing_c10(table: Table) -> None:
    """The House's own attack is a stage: its cards depend on a seed not given yet, so nothing is known."""
    unit = to_cycle_end(table)
    table.act(HOUSE, unit, {"action": "initiative"})
    table.act(HOUSE, unit, {"action": "end", "reason": "dawn"})
    entries = table.stakes.log(table.cid, Seat.house(), 0, 1000).entries
    assert not [e for e in entries if unit.hex in e.stream and e.event == "DrawAbandoned"]
