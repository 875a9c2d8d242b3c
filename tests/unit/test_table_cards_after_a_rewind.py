"""C-7 with table cards (issue 30): after a rewind a slot takes exactly the cards it had, in the same order; a
longer or shorter run of that same order is accepted where the new inputs need it; any other order is refused,
a whole new deck included. A slot that reshuffles a whole pile takes one order per pile: A, B, then A again
takes A's order, never a third."""

from __future__ import annotations

import copy
from uuid import uuid4

import pytest

from domain.errors import RuleViolation
from domain.fairness import commitment
from domain.systems.pulp_cards import rules
from domain.systems.pulp_cards.combat import PulpCombat
from tests.unit.test_resolution_kernel import SECRET, Tiny

COLE_FIRST = ["P1", "P2", "P3", "B4"]  # round-robin: Ilse P1 P3 (0), Cole P2 B4 (4)


def _combat() -> PulpCombat:
    return PulpCombat.open(campaign_id=uuid4(), adventure=1, secret_seed=SECRET, table=True, actor="house",
                           combatants=[{"name": "Ilse", "seat": "ilse"}, {"name": "Sheriff Cole", "seat": "house"}])


def _rewound_to_the_start(unit: PulpCombat) -> PulpCombat:
    """The combat rewound to its first step (opened, nothing dealt), as the kernel's rewind does."""
    past = PulpCombat.__new__(PulpCombat)
    past.__dict__.update(copy.deepcopy(unit.__dict__))
    past.phase, past.cycle, past.order, past.turn, past.initiative, past.attacks = "opened", 0, [], 0, None, []
    past.slots = []
    past._version = 1
    unit.rewind(1, past, "the advantage was misread", "house")
    return unit


def test_a_pulp_initiative_slot_refuses_a_whole_new_deck_order_after_a_rewind():  # C-7
    unit = _combat()
    unit.deal_initiative("house", None, COLE_FIRST, "house")
    _rewound_to_the_start(unit)
    other = ["B4", "P2", "P3", "P1", *(x for x in rules.DECK if x not in ("B4", "P1", "P2", "P3"))]
    assert sorted(other) == sorted(rules.DECK)  # a whole 14-card deck, in another order
    with pytest.raises(RuleViolation) as refused:
        unit.shuffle(["initiative", 1], rules.DECK, other)
    assert refused.value.ruling == "C-7" and "B4" not in str(refused.value)  # the earlier order is nobody's
    with pytest.raises(RuleViolation, match="C-7"):
        unit.deal_initiative("house", None, ["B4", "P2", "P3", "P1"], "house")
    unit.deal_initiative("house", None, COLE_FIRST, "house")
    assert unit.order == ["Sheriff Cole", "Ilse"]


def test_a_pulp_initiative_takes_a_longer_run_of_the_same_order_when_a_corrected_advantage_brings_a_tie():  # C-7
    unit = _combat()
    unit.deal_initiative("house", None, COLE_FIRST, "house")
    _rewound_to_the_start(unit)
    # Ilse's advantage of 4, missed the first time: 4 against 4, a tie; one more card each (PU-9)
    unit.deal_initiative("house", {"Ilse": 4}, [*COLE_FIRST, "BA", "P5"], "house")
    assert unit.order == ["Ilse", "Sheriff Cole"] and unit.initiative is not None


def test_a_pulp_initiative_takes_a_shorter_run_of_the_same_order_when_the_tie_is_gone():  # C-7
    unit = _combat()
    unit.deal_initiative("house", {"Ilse": 4}, [*COLE_FIRST, "BA", "P5"], "house")
    _rewound_to_the_start(unit)
    unit.deal_initiative("house", None, COLE_FIRST, "house")  # no advantage after all: no tie, 4 cards
    assert unit.order == ["Sheriff Cole", "Ilse"]
    with pytest.raises(RuleViolation, match="C-7"):  # and the run it had is still the one it takes
        _rewound_to_the_start(unit).deal_initiative("house", {"Ilse": 4}, [*COLE_FIRST, "P5", "BA"], "house")


def test_a_slot_reshuffled_from_pile_a_then_b_then_a_again_takes_as_order_not_a_third():  # C-7
    unit = Tiny(secret_seed=SECRET, seed_hash=commitment(SECRET), table=True)
    slot = ["reshuffle", 1]
    pile_a, pile_b = ["2S", "3S", "4S"], ["5H", "6H", "7H"]
    unit.record_shuffle(slot, pile_a, ["4S", "2S", "3S"], True)  # first timeline: pile A, order A
    assert unit.shuffle(slot, pile_b, ["7H", "5H", "6H"]) == ["7H", "5H", "6H"]  # another pile: its own order
    unit.record_shuffle(slot, pile_b, ["7H", "5H", "6H"], True)
    with pytest.raises(RuleViolation) as third:  # pile A again, in a third order: fishing
        unit.shuffle(slot, pile_a, ["2S", "3S", "4S"])
    assert third.value.ruling == "C-7"
    with pytest.raises(RuleViolation, match="C-7"):  # and pile B keeps its order too
        unit.shuffle(slot, pile_b, ["5H", "6H", "7H"])
    assert unit.shuffle(slot, pile_a, ["4S", "2S", "3S"]) == ["4S", "2S", "3S"]


def test_a_pulp_table_listing_says_which_cards_to_enter_and_how_many():  # C-3, PU-1, PU-5, PU-9 (issue 30)
    unit = _combat()
    initiative = next(a for a in unit.legal_actions("house") if a["action"] == "initiative")
    assert initiative["deck"] == list(rules.DECK) and len(initiative["deck"]) == 14
    assert initiative["dice"] == 4 and initiative["dealt_to"] == ["Ilse", "Sheriff Cole"]  # two each, round-robin
    assert initiative["points"] == rules.POINTS  # the ties go by the new card's points (PU-9)
    unit.deal_initiative("house", None, COLE_FIRST, "house")
    attack = next(a for a in unit.legal_actions("house") if a["action"] == "attack")
    assert attack["deck"] == list(rules.DECK) and attack["dice"] == rules.HAND and "dealt_to" not in attack
    _rewound_to_the_start(unit)
    again = next(a for a in unit.legal_actions("house") if a["action"] == "initiative")
    assert again["required"] == COLE_FIRST  # C-7: the run the slot had, entered the same again


def test_a_service_dealt_pulp_combat_lists_no_table_cards():  # C-3
    unit = PulpCombat.open(campaign_id=uuid4(), adventure=1, secret_seed=SECRET, table=False, actor="house",
                           combatants=[{"name": "Ilse", "seat": "ilse"}, {"name": "Sheriff Cole", "seat": "house"}])
    assert all("deck" not in a and "dice" not in a for a in unit.legal_actions("house"))
