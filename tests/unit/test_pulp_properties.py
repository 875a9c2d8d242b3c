"""Pulp invariants with Hypothesis: every deal is 7 distinct cards of the 14, the 14 cards are never in two
places and always all there, the stored outcome is the one recomputed from the recorded cards, and in a combat
a listed legal action is accepted while anything else is refused (PU-1 … PU-9, C-4, C-7)."""

from __future__ import annotations

from collections import Counter
from typing import Any
from uuid import uuid4

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.errors import NotPermitted, RuleViolation
from domain.fairness import derive_shuffle
from domain.systems.pulp_cards import rules
from domain.systems.pulp_cards.combat import PulpCombat
from domain.systems.pulp_cards.deal import PulpDeal

SECRETS = st.text("0123456789abcdef", min_size=8, max_size=64)
COMBATANTS = [{"name": "Ilse", "seat": "ilse"}, {"name": "Tomas", "seat": "tomas"},
              {"name": "Sheriff Cole", "seat": "house"}]
SEATS = ("house", "ilse", "tomas", "mara")  # mara sits outside the combat


def places(unit: Any) -> None:
    """Every recorded shuffle is the 14 cards once each; every hand is 7 of them, none twice (PU-1, C-3)."""
    for record in unit.shuffles:
        if not record["entered"]:
            assert Counter(record["value"]) == Counter(rules.DECK)
    for hand in unit.hands:
        assert len(hand["cards"]) == 7 == len(set(hand["cards"])) and set(hand["cards"]) <= set(rules.DECK)
        if hand["cut"] is not None:
            deck = derive_shuffle(unit.secret_seed, unit.side_seeds(), hand["slot"], rules.DECK)
            cut = rules.cut(deck, hand["cut"])
            held, rest = cut[:7], cut[7:]
            assert held == hand["cards"] and not set(held) & set(rest) and Counter(held + rest) == Counter(rules.DECK)


@settings(max_examples=60, deadline=None)
@given(secret=SECRETS, cut=st.one_of(st.none(), st.integers(1, 13)), difficulty=st.integers(-4, 4),
       kind=st.sampled_from(["standard", "resistance"]))
def test_every_deal_is_seven_distinct_cards_and_its_outcome_follows_from_them(secret, cut, difficulty, kind):
    deal = PulpDeal.deal(campaign_id=uuid4(), adventure=1, seat="ilse", character="Ilse", kind=kind,
                         difficulty=difficulty, cut=cut, seed=None, secret_seed=secret, table=False, entered=None,
                         actor="ilse")
    places(deal)
    result = deal.result
    assert 0 <= result["black"] <= 7 and 0 <= result["red"] <= 6
    assert result == rules.judge(deal.cards, difficulty)
    deal.show_deal("ilse", "ilse")
    assert deal.verify()["mismatches"] == []


@settings(max_examples=60, deadline=None)
@given(secret=SECRETS, count=st.integers(2, 7), advantages=st.lists(st.integers(0, 4), min_size=7, max_size=7))
def test_initiative_deals_each_card_at_most_once_and_orders_everyone(secret, count, advantages):
    names = [f"n{i}" for i in range(count)]
    deck = derive_shuffle(secret, [], ["initiative", 1], rules.DECK)
    dealt = rules.deal_initiative(names, dict(zip(names, advantages)), deck)
    cards = [card for _, card, _ in dealt["dealt"]]
    assert len(cards) == len(set(cards)) == dealt["used"] <= 14 and cards == deck[:dealt["used"]]
    assert sorted(dealt["order"]) == sorted(names)
    firsts = {n: sum(rules.points(c) for who, c, rnd in dealt["dealt"] if who == n and rnd < 2) for n in names}
    totals = [firsts[n] + dict(zip(names, advantages))[n] for n in dealt["order"]]
    assert totals == sorted(totals, reverse=True)


def _arguments(draw: Any, unit: PulpCombat, action: str) -> dict[str, Any]:
    names = [c["name"] for c in unit.combatants] + ["Nobody"]
    if action == "surprise":
        return {"ambusher": draw(st.sampled_from(names)), "difficulty": draw(st.integers(-6, 6))}
    if action == "initiative":
        return {"advantages": {draw(st.sampled_from(names)): draw(st.integers(-1, 5))}}
    if action == "attack":
        return {"target": draw(st.sampled_from([None, *names])), "difficulty": draw(st.integers(-6, 6)),
                "cut": draw(st.one_of(st.none(), st.integers(0, 14)))}
    if action in ("show", "effect"):
        return {"number": draw(st.integers(0, len(unit.attacks) + 1))}
    return {}


def _listed(unit: PulpCombat, seat: str, action: str, args: dict[str, Any]) -> bool:
    found = next((a for a in unit.legal_actions(seat) if a["action"] == action), None)
    if found is None:
        return False
    names = {c["name"] for c in unit.combatants}
    if action == "surprise":
        return args["ambusher"] in found["choices"] and -4 <= args["difficulty"] <= 4
    if action == "initiative":
        (name, value), = args["advantages"].items()
        return name in names and 0 <= value <= 4
    if action == "attack":
        target_ok = args["target"] is None or (args["target"] in names and args["target"] != found["member"])
        cut_ok = args["cut"] is None or (seat != "house" and 1 <= args["cut"] <= 13)  # C-9: the House's is drawn
        return target_ok and cut_ok and found["min"] <= args["difficulty"] <= found["max"]
    if action in ("show", "effect"):
        return args["number"] in found["choices"]
    return True


def _play(unit: PulpCombat, seat: str, action: str, args: dict[str, Any]) -> None:
    if action == "seed":
        unit.add_seed(seat, "lucky", seat)
    elif action == "pass":
        unit.add_seed(seat, None, seat)
    elif action == "abandon":
        unit.abandon("the posse rode off", seat)
    elif action == "surprise":
        unit.deal_surprise(seat, args["ambusher"], args["difficulty"], None, None, seat)
    elif action == "initiative":
        unit.deal_initiative(seat, args["advantages"], None, seat)
    elif action == "keep":
        unit.keep_order(seat, seat)
    elif action == "attack":
        unit.attack(seat, args["target"], args["difficulty"], args["cut"], None, seat)
    elif action == "show":
        unit.show_attack(seat, args["number"], seat)
    elif action == "effect":
        unit.record_effect(seat, args["number"], "a bruise", seat)
    else:
        unit.end(seat, "over", seat)


ACTIONS = ("seed", "pass", "abandon", "surprise", "initiative", "keep", "attack", "show", "effect", "end")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), secret=SECRETS)
def test_a_listed_combat_move_is_accepted_and_any_other_refused(data, secret):
    unit = PulpCombat.open(campaign_id=uuid4(), adventure=1, combatants=COMBATANTS, secret_seed=secret,
                           table=False, actor="house")
    for _ in range(40):
        seat = data.draw(st.sampled_from(SEATS))
        legal = unit.legal_actions(seat)
        action = data.draw(st.sampled_from([*(a["action"] for a in legal), *ACTIONS]))
        args = _arguments(data.draw, unit, action)
        listed = _listed(unit, seat, action, args)
        version = unit.version
        try:
            _play(unit, seat, action, args)
        except (RuleViolation, NotPermitted):  # C-10: only the House abandons
            assert not listed, (seat, action, args, legal)
            assert unit.version == version  # a refusal changes nothing
        else:
            assert listed, (seat, action, args, legal)
        places(unit)
        if unit.settled:
            assert unit.verify()["mismatches"] == []
            break
