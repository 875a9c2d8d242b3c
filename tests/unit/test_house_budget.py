"""PA-3 and PA-4: the House pile per adventure, antagonists and their funding."""

import pytest

from domain.errors import NotFound, NotPermitted, RuleViolation
from domain.systems.penny_ante import economy
from tests.unit.conftest import HOUSE, ILSE


def test_starting_an_adventure_sets_the_house_pile_to_the_sum_of_player_piles(table):
    table.app.buy_characteristic(table.campaign_id, ILSE, "ilse", "Lucky Necklace")
    table.app.start_adventure(table.campaign_id, HOUSE)
    assert table.house().pile == 25 + 30


def test_an_agreed_house_pile_needs_a_note_of_the_tables_agreement(table):
    with pytest.raises(RuleViolation, match="PA-3.*unless a note"):
        table.app.start_adventure(table.campaign_id, HOUSE, amount=100)
    table.app.start_adventure(table.campaign_id, HOUSE, amount=100, note="a big bad this time")
    assert table.house().pile == 100


def test_a_note_without_an_amount_is_refused(table):
    with pytest.raises(RuleViolation, match="PA-3"):
        table.app.start_adventure(table.campaign_id, HOUSE, note="just a note")


def test_only_the_house_starts_and_ends_adventures(table):
    with pytest.raises(NotPermitted):
        table.app.start_adventure(table.campaign_id, ILSE)
    table.app.start_adventure(table.campaign_id, HOUSE)
    with pytest.raises(NotPermitted):
        table.app.end_adventure(table.campaign_id, ILSE)


def test_the_house_funds_antagonists_from_its_pile(table):
    table.app.create_antagonist(table.campaign_id, HOUSE, "Lady Sen", characteristics=["Commands Ninjas"])
    table.app.start_adventure(table.campaign_id, HOUSE)
    table.app.fund_antagonist(table.campaign_id, HOUSE, "lady sen", 40)
    assert table.house().pile == 20
    with pytest.raises(RuleViolation, match="PA-4: the House pile holds 20 pennies, not 21"):
        table.app.fund_antagonist(table.campaign_id, HOUSE, "Lady Sen", 21)


def test_antagonists_are_funded_only_during_an_adventure(table):
    table.app.create_antagonist(table.campaign_id, HOUSE, "Lady Sen")
    with pytest.raises(RuleViolation, match="PA-4.*during an adventure"):
        table.app.fund_antagonist(table.campaign_id, HOUSE, "Lady Sen", 1)


def test_the_campaign_cap_limits_what_one_antagonist_holds(app):
    campaign_id = app.create_campaign("Capped", "penny-ante", {"antagonist_cap": 30})
    app.add_player(campaign_id, HOUSE, "ilse", "Ilse", "Whip")
    app.add_player(campaign_id, HOUSE, "tomas", "Tomas", "Love")
    app.create_antagonist(campaign_id, HOUSE, "Lady Sen")
    app.start_adventure(campaign_id, HOUSE)
    app.fund_antagonist(campaign_id, HOUSE, "Lady Sen", 20)
    with pytest.raises(RuleViolation, match="PA-4: Lady Sen may hold at most 30"):
        app.fund_antagonist(campaign_id, HOUSE, "Lady Sen", 11)


def test_only_the_house_creates_and_funds_antagonists(table):
    with pytest.raises(NotPermitted):
        table.app.create_antagonist(table.campaign_id, ILSE, "Fake")
    table.app.create_antagonist(table.campaign_id, HOUSE, "Lady Sen")
    table.app.start_adventure(table.campaign_id, HOUSE)
    with pytest.raises(NotPermitted):
        table.app.fund_antagonist(table.campaign_id, ILSE, "Lady Sen", 1)
    with pytest.raises(NotPermitted):
        table.app.add_antagonist_characteristic(table.campaign_id, ILSE, "Lady Sen", "Peek")


def test_antagonist_names_are_unique_and_characteristics_too(table):
    table.app.create_antagonist(table.campaign_id, HOUSE, "Lady Sen", characteristics=["Ninjas"])
    with pytest.raises(RuleViolation, match="PA-4"):
        table.app.create_antagonist(table.campaign_id, HOUSE, "LADY SEN")
    with pytest.raises(RuleViolation, match="PA-4"):
        table.app.add_antagonist_characteristic(table.campaign_id, HOUSE, "Lady Sen", "ninjas")
    with pytest.raises(RuleViolation, match="PA-4"):
        table.app.create_antagonist(table.campaign_id, HOUSE, "Twins", characteristics=["A", "a"])
    with pytest.raises(RuleViolation, match="PA-4"):
        table.app.create_antagonist(table.campaign_id, HOUSE, "Wall", kind="weather")


def test_an_unknown_antagonist_is_not_found(table):
    table.app.start_adventure(table.campaign_id, HOUSE)
    with pytest.raises(NotFound):
        table.app.fund_antagonist(table.campaign_id, HOUSE, "Nobody", 1)


def test_ending_an_adventure_retires_every_penny_of_the_house_side(table):
    table.app.create_antagonist(table.campaign_id, HOUSE, "Lady Sen")
    table.app.create_antagonist(table.campaign_id, HOUSE, "Rockslide", kind="obstacle")
    table.app.start_adventure(table.campaign_id, HOUSE)
    table.app.fund_antagonist(table.campaign_id, HOUSE, "Lady Sen", 25)
    table.app.fund_antagonist(table.campaign_id, HOUSE, "Rockslide", 5)
    table.app.end_adventure(table.campaign_id, HOUSE)
    campaign = table.app.campaign(table.campaign_id)
    house = table.house()
    pennies = [economy.antagonist(table.app.application, campaign, house, n).pennies for n in house.antagonists]
    assert house.pile == 0 and pennies == [0, 0]
