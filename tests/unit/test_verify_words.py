"""The replay's verify panel says where each draw went in the table's words, in every system (a phone walk found
"slot round · 1 · Mara Quill · 0", "slot Brother Tomas · die · 0 · 0" and 52 card codes run together); the slot
itself, as fairness.md derives from it, stays the item's title (``replay.js``)."""

from __future__ import annotations

import pytest

from api.web.systems import WebBoard, of
from domain.kernel.registry import supported

SIDES = {"challenger": "Ilse Varn", "opponent": "Sheriff Cole", "ilse": "Ilse Varn"}


@pytest.mark.parametrize(("system", "slot", "words"), [
    ("penny-ante", ["roll", "opponent", 0], "Sheriff Cole's die 1, the first roll"),
    ("pool", ["roll", "ilse", 0], "Ilse Varn's die 1"),
    ("pool", ["round", 2, "challenger", 3], "Ilse Varn's die 4, round 2"),
    ("beast", ["challenger", "die", 0, 0], "Ilse Varn's die 1"),
    ("beast", ["opponent", "die", 2, 1], "Sheriff Cole's die 3, its 10 rolled again (first time, BE-10)"),
    ("beast", ["challenger", "reroll", 0], "Ilse Varn's die rolled again with Willpower"),
    ("beast", ["opponent", "check", "fresh", "words", 2], "Sheriff Cole's Humanity check, die 3 (with the fresh seed)"),
    ("twenty-one", ["shuffle", 0], "the deck shuffled for the deal"),
    ("twenty-one", ["shuffle", 2], "the discards reshuffled into the deck (second reshuffle, TO-14)"),
    ("pulp-cards", ["surprise", "cut"], "the surprise deal, its cut"),
    ("pulp-cards", ["initiative", 2, "fresh", "words"], "the initiative deal of cycle 2 (with the fresh seed)"),
    ("pulp-cards", ["attack", "Tomas", 2], "Tomas's 2nd attack"),
    ("pulp-cards", ["deal"], "the deal's shuffle"),
])
def test_a_draw_is_placed_in_the_tables_words_on_the_verify_panel(system: str, slot: list, words: str):
    assert of(system).slot_words(slot, SIDES) == words


def test_every_system_places_its_draws_in_words():
    for system in supported():
        assert type(of(system.id)).slot_words is not WebBoard.slot_words, system.id


def test_an_unknown_slot_shape_falls_back_to_its_parts():
    assert of("pulp-cards").slot_words(["initiative", "2", "fresh", "w", "swap", "13"], SIDES) is None
    assert of("beast").slot_words(["nothing"], SIDES) is None


def test_a_twenty_one_shuffle_reads_as_the_cards_print_spaced():
    assert of("twenty-one").draw_words(["AS", "10H", "KD"]) == "A♠ 10♥ K♦"
    assert of("twenty-one").draw_words([3, 4]) is None
