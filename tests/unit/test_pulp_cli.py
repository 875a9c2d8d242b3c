"""How the Pulp CLI reads its inputs and draws a combat (review findings 5 and 6): a pass is shown as a pass, an
input still owed as owed, the House's called first deal with its inputs (C-10); a malformed advantage or trait
is a usage error, never a traceback."""

from __future__ import annotations

import io
import re
from uuid import uuid4

import pytest
from rich.console import Console

from adapters.schemas import ResolutionView
from cli.session import UsageError
from cli.systems import pool, pulp_cards
from domain.systems.pulp_cards.combat import PulpCombat


def drawn(unit: PulpCombat, seat: str) -> str:
    view = ResolutionView(id=unit.id, campaign_id=unit.campaign_id, kind="PulpCombat", phase=unit.phase,
                          state=unit.view_for(seat), legal_actions=[], waiting_for=[])
    console = Console(file=io.StringIO(), width=200, soft_wrap=False, markup=False, emoji=False)
    console.print(pulp_cards.CLI.renderers["unit:PulpCombat"](view))
    return re.sub(r"\s+", " ", console.file.getvalue())  # type: ignore[attr-defined]


def combat() -> PulpCombat:
    return PulpCombat.open(campaign_id=uuid4(), adventure=1, secret_seed="c3" * 32, table=False, actor="house",
                           combatants=[{"name": "Ilse", "seat": "ilse"}, {"name": "Sheriff Cole", "seat": "house"}])


def test_a_called_initiative_is_shown_with_its_advantages_and_the_players_input_as_owed_c10():
    unit = combat()
    assert "players owed" in drawn(unit, "ilse")  # the players owe their seed or pass from the start
    unit.deal_initiative("house", {"Sheriff Cole": 2}, None, "house")
    text = drawn(unit, "ilse")
    assert "House called: initiative (advantages Sheriff Cole +2)" in text
    assert "players owed" in text and "house none" in text


def test_a_called_surprise_is_shown_with_its_ambusher_and_difficulty_c10():
    unit = combat()
    unit.deal_surprise("house", "Sheriff Cole", -4, None, None, "house")
    assert "House called: surprise by Sheriff Cole at difficulty -4" in drawn(unit, "house")


def test_a_pass_is_shown_as_passed_and_a_seed_as_given_never_as_none_c10():
    passed, seeded = combat(), combat()
    for unit, seed in ((passed, None), (seeded, "ilse's words")):
        unit.deal_initiative("house", None, None, "house")
        unit.add_seed("ilse", seed, "ilse")
    assert "players passed" in drawn(passed, "ilse") and "House called" not in drawn(passed, "ilse")
    assert "players given" in drawn(seeded, "ilse")


@pytest.mark.parametrize("item", ["cole=²", "cole=٣x", "cole=", "=2", "cole=-1", "cole=2.5"])
def test_a_malformed_advantage_is_a_usage_error_pu9(item):
    with pytest.raises(UsageError, match="NAME=NUMBER"):
        pulp_cards.advantages([item])


def test_an_advantage_given_twice_on_the_command_line_is_a_usage_error_pu9():
    with pytest.raises(UsageError, match="PU-9"):
        pulp_cards.advantages(["cole=2", "cole=3"])
    assert pulp_cards.advantages(["Sheriff Cole=2", "ilse=0"]) == {"Sheriff Cole": 2, "ilse": 0}


@pytest.mark.parametrize("item", ["Brave=²", "Brave=--1", "Brave=-", "Brave=x"])
def test_a_malformed_trait_rating_is_a_usage_error(item):
    with pytest.raises(UsageError, match="NAME=NUMBER"):
        pool.traits([item])
    assert pool.traits(["Brave=-1", "Quick=2"]) == {"Brave": -1, "Quick": 2}


def test_a_house_choice_waiting_for_the_fresh_seed_is_shown_with_the_seed_owed_c9():
    unit = combat()
    unit.deal_initiative("house", None, None, "house")
    unit.add_seed("ilse", None, "ilse")
    if unit.up() == "Ilse":
        unit.attack("ilse", None, 0, None, None, "ilse")
    unit.attack("house", "Ilse", 2, None, None, "house")
    text = drawn(unit, "ilse")
    assert "House chose: Sheriff Cole's attack on Ilse at difficulty +2; dealt with the players' fresh seed" in text
    unit.add_seed("ilse", "fresh", "ilse")
    assert "House chose" not in drawn(unit, "ilse")
