"""PA-2: one free characteristic; each further one costs 5 pennies, between adventures, unique names."""

import pytest

from domain.errors import NotPermitted, RuleViolation
from tests.unit.conftest import HOUSE, ILSE, TOMAS


def test_a_characteristic_costs_five_pennies_which_leave_play(table):
    table.app.buy_characteristic(table.campaign_id, ILSE, "ilse", "Lucky Necklace")
    ilse = table.character("ilse")
    assert ilse.pile == 25 and ilse.characteristics == ["Whip Smart", "Lucky Necklace"]


def test_characteristics_can_be_bought_only_between_adventures(table):
    table.app.start_adventure(table.campaign_id, HOUSE)
    before = table.event_count()
    with pytest.raises(RuleViolation, match="PA-2: characteristics can be bought only between adventures"):
        table.app.buy_characteristic(table.campaign_id, ILSE, "ilse", "Lucky Necklace")
    assert table.event_count() == before


def test_a_characteristic_name_repeats_case_insensitively_is_refused(table):
    with pytest.raises(RuleViolation, match="PA-2.*already has"):
        table.app.buy_characteristic(table.campaign_id, ILSE, "ilse", "WHIP  smart")


def test_an_unaffordable_characteristic_is_refused(table):
    for i in range(6):
        table.app.buy_characteristic(table.campaign_id, ILSE, "ilse", f"Trick {i}")
    assert table.character("ilse").pile == 0
    with pytest.raises(RuleViolation, match="PA-2: a characteristic costs 5 pennies and Ilse Varn has 0"):
        table.app.buy_characteristic(table.campaign_id, ILSE, "ilse", "One Too Many")


def test_a_player_buys_only_for_his_own_character(table):
    with pytest.raises(NotPermitted, match="C-1"):
        table.app.buy_characteristic(table.campaign_id, TOMAS, "ilse", "Gift")
    with pytest.raises(NotPermitted, match="C-1"):
        table.app.buy_characteristic(table.campaign_id, HOUSE, "ilse", "Gift")


def test_an_empty_characteristic_name_is_refused(table):
    with pytest.raises(RuleViolation, match="PA-2"):
        table.app.buy_characteristic(table.campaign_id, ILSE, "ilse", "   ")
