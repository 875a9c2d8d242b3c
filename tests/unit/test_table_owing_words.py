"""C-10: a table tells a seat whose seed or pass its first draw still waits for. A side any of whose seats gives
it (a Pulp combat's players) is said as such: a phone walk read "waits until Tomas has added seed words or passed,
and you too" while Ilse's seed alone dealt at once."""

from __future__ import annotations

from uuid import uuid4

from api.web.systems import TableView

NAMES = {"ilse": "Ilse Varn", "tomas": "Tomas", "mara": "Mara Quill"}


def table(seat: str, sides: list[list[str]]) -> TableView:
    return TableView(unit_id=uuid4(), campaign_id=uuid4(), kind="x", phase="seeding", state={}, moves=[], waiting={},
                     seat=seat, is_house=seat == "house", names=NAMES,
                     owing=[s for g in sides for s in g], owing_sides=sides)


def test_each_side_of_one_seat_is_waited_for_by_name_and_the_reader_is_told_his_own_too():
    assert table("ilse", [["ilse"], ["tomas"]]).owing_words == \
        "The first draw waits until Tomas has added seed words or passed, and you too."
    assert table("house", [["ilse"], ["tomas"]]).owing_words == \
        "The first draw waits until Ilse Varn and Tomas have added seed words or passed."
    assert table("ilse", [["ilse"]]).owing_words is None  # his own move says it


def test_a_side_any_of_whose_seats_gives_it_is_said_as_one_of_them():
    assert table("ilse", [["ilse", "tomas"]]).owing_words == \
        "The first draw waits until one of you or Tomas has added seed words or passed."
    assert table("house", [["ilse", "tomas"]]).owing_words == \
        "The first draw waits until one of Ilse Varn or Tomas has added seed words or passed."
    assert table("mara", [["mara"], ["ilse", "tomas"]]).owing_words == \
        "The first draw waits until one of Ilse Varn or Tomas has added seed words or passed, and you too."


def test_a_pulp_combats_players_are_one_side_in_the_kernels_awaited_inputs():
    from tests.unit.test_pulp_combat import combat

    unit = combat(table=False)
    unit.deal_initiative("house", None, None, "house")
    assert unit.inputs_awaited_by_side() == [[seat for seat in unit.seats_of("players")]]
    assert unit.inputs_awaited() == unit.seats_of("players")
