"""C-1: one system, one House, players with one character each; PA-1 starting piles."""

import pytest

from domain.errors import NotPermitted, NotSupportedYet, RuleViolation
from domain.kernel.registry import PlannedSystem, systems
from domain.seats import Seat
from tests.unit.conftest import HOUSE, ILSE


def test_a_campaign_for_a_system_whose_issue_has_not_landed_is_not_supported_yet(app, monkeypatch):
    import domain.systems

    planned = PlannedSystem("coin-toss", "Coin Toss")  # a system registered before its package lands
    monkeypatch.setattr(domain.systems, "SYSTEMS", (*domain.systems.SYSTEMS, planned))
    assert planned in list(systems())
    with pytest.raises(NotSupportedYet, match="not supported yet"):
        app.create_campaign("Later", "coin-toss")


def test_an_unknown_system_is_refused_naming_the_known_ones(app):
    with pytest.raises(RuleViolation, match="C-1.*penny-ante"):
        app.create_campaign("Odd", "chess")


def test_the_starting_pile_defaults_to_25(app):
    campaign_id = app.create_campaign("Default", "penny-ante")
    assert app.campaign(campaign_id).settings == {"starting_pile": 25, "antagonist_cap": None, "table_dice": False}


def test_the_starting_pile_is_never_below_25(app):
    with pytest.raises(RuleViolation, match="PA-1"):
        app.create_campaign("Poor", "penny-ante", {"starting_pile": 24})


def test_the_starting_pile_is_whole_pennies(app):
    with pytest.raises(RuleViolation, match="PA-1"):
        app.create_campaign("Odd", "penny-ante", {"starting_pile": 25.5})


def test_the_antagonist_cap_is_at_least_one_penny(app):
    with pytest.raises(RuleViolation, match="PA-4"):
        app.create_campaign("Capped", "penny-ante", {"antagonist_cap": 0})


def test_unknown_settings_are_refused(app):
    with pytest.raises(RuleViolation, match="unknown Penny Ante settings"):
        app.create_campaign("Typo", "penny-ante", {"startingpile": 30})


def test_a_player_starts_with_the_campaigns_pile_and_one_free_characteristic(table):
    ilse = table.character("ilse")
    assert (ilse.pile, ilse.characteristics) == (30, ["Whip Smart"])


def test_every_character_starts_with_the_campaigns_agreed_pile(table):
    table.app.add_player(table.campaign_id, HOUSE, "mara", "Mara", "Rich Aunt")
    assert table.character("mara").pile == 30


def test_only_the_house_seats_players(table):
    with pytest.raises(NotPermitted, match="C-1: only the House"):
        table.app.add_player(table.campaign_id, ILSE, "mara", "Mara", "Sly")


def test_each_player_has_one_seat_and_one_character(table):
    with pytest.raises(RuleViolation, match="C-1.*already has a seat"):
        table.app.add_player(table.campaign_id, HOUSE, "ILSE", "Another Ilse", "Copy")


@pytest.mark.parametrize("name", ["house", "", "9lives", "a b", "x" * 33])
def test_a_seat_name_is_a_short_handle_and_not_the_house(name):
    with pytest.raises(RuleViolation, match="C-1"):
        Seat.parse(name) if name != "house" else __import__("domain.seats").seats.player_handle(name)


def test_adventures_run_one_at_a_time(table):
    table.app.start_adventure(table.campaign_id, HOUSE)
    with pytest.raises(RuleViolation, match="C-1.*one at a time"):
        table.app.start_adventure(table.campaign_id, HOUSE)
    table.app.end_adventure(table.campaign_id, HOUSE)
    with pytest.raises(RuleViolation, match="C-1: no adventure is running"):
        table.app.end_adventure(table.campaign_id, HOUSE)


@pytest.mark.parametrize("name", ["Jade\x00Court", "Jade\x1b[31mCourt", "x" * 121])
def test_a_campaign_name_is_printable_and_bounded(app, name):
    with pytest.raises(RuleViolation, match="C-1"):
        app.create_campaign(name, "penny-ante")


def test_pennies_are_bounded_so_no_store_overflows(app):
    with pytest.raises(RuleViolation, match="PA-1: the starting pile must be at most 1,000,000,000"):
        app.create_campaign("Rich", "penny-ante", {"starting_pile": 10**30})
