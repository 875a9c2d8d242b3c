"""C-10 in Penny Ante: a challenge the House abandons after the first rolls, before the reroll its seeds already
fix (no House side: no fresh seed is owed), records the reroll it skips, for every seat; through the service."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

from domain.seats import Seat
from tests.integration.conformance import SEATS, Recipe, Step, Table

PLAYERS = Step("ilse", "announce-challenge", {"challenger": {"players": ["ilse"]},
                                              "opponent": {"players": ["tomas"]}, "ante": 1})


def abandoned(table: Table, unit: UUID) -> list[dict[str, Any]]:
    """The one ``DrawAbandoned`` every seat reads whole: its draws, each recomputed from docs/fairness.md."""
    verified = table.stakes.verify_challenge(table.cid, Seat.house(), unit)
    recipe = Recipe(verified.secret_seed or "", verified.side_seeds or [])
    reads = []
    for seat in SEATS:
        shown = [e for e in table.stakes.log(table.cid, Seat.parse(seat), 0, 1000).entries
                 if unit.hex in e.stream and e.event == "DrawAbandoned"]
        assert len(shown) == 1 and not shown[0].hidden, seat
        reads.append(shown[0].detail["draws"])
    assert all(r == reads[0] for r in reads)
    assert [m for d in reads[0] for m in recipe.mismatches(d)] == []
    return reads[0]


def to_the_cups(table: Table) -> UUID:
    unit = table.send(PLAYERS).id
    for seat, body in [("ilse", {"action": "declare", "characteristics": []}),
                       ("tomas", {"action": "declare", "characteristics": []}),
                       ("ilse", {"action": "seed", "seed": "ilse's words"}), ("tomas", {"action": "pass"}),
                       ("ilse", {"action": "roll"}), ("tomas", {"action": "roll"})]:
        table.act(seat, unit, body)
    return unit


def test_abandoned_before_the_cups_the_reroll_of_every_die_is_recorded_c10(
        conformance_table: Callable[[str], Table]) -> None:
    table = conformance_table("penny-ante")
    unit = to_the_cups(table)
    dice = {side: len(table.unit(unit).sides[side]["dice"]) for side in ("challenger", "opponent")}
    table.abandon(unit)
    slots = [d["slot"] for d in abandoned(table, unit)]
    assert slots == [*(["reroll", "challenger", i] for i in range(dice["challenger"])), ["circumstance", 2, "challenger"],
                     *(["reroll", "opponent", i] for i in range(dice["opponent"])), ["circumstance", 2, "opponent"]]


def test_abandoned_once_the_cups_are_kept_the_reroll_of_the_cupped_dice_is_recorded_c10(
        conformance_table: Callable[[str], Table]) -> None:
    table = conformance_table("penny-ante")
    unit = to_the_cups(table)
    table.act("ilse", unit, {"action": "keep", "cup": [0]})
    table.act("tomas", unit, {"action": "keep", "cup": []})
    table.act("ilse", unit, {"action": "check"})
    table.act("tomas", unit, {"action": "check"})
    assert table.unit(unit).phase == "new-circumstances"
    table.abandon(unit)
    assert [d["slot"] for d in abandoned(table, unit)] == [["reroll", "challenger", 0], ["circumstance", 2, "challenger"],
                                                           ["circumstance", 2, "opponent"]]
