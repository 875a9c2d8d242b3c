"""C-6 (issue 30, item 3) on Humanity and Beast's sheets: after any House rewind, the roll, reroll, outcome and
check lines the sheets hold for the unit are exactly those they held when that step was reached, whichever
timeline the step belongs to: lines an earlier rewind took off come back, with their places. Random legal play
from the listings, with random rewinds, through the service, on the test's store."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any
from uuid import UUID

from domain.errors import StakesError
from tests.integration.conformance import Table, play


def unit_lines(table: Table, unit: UUID) -> list[tuple[Any, ...]]:
    """The unit's lines on every sheet (a player's or an antagonist's), in their places; not the sheets' own
    changes (Willpower given back or spent again by a rewind: lines with no step, which stay, C-2)."""
    table.stakes.catch_up()
    return [(r["position"], r["character_id"], r["what"], json.loads(r["detail"])) for r in table.stakes.views.query(
        "SELECT position, character_id, what, detail FROM {p}beast_history WHERE unit_id = ? AND step > 0"
        " ORDER BY position, character_id", (unit.hex,))]


class Steps:
    def __init__(self) -> None:
        self.seen: dict[UUID, dict[int, list[tuple[Any, ...]]]] = {}
        self.checked = self.into_another_timeline = 0
        self.rewound: dict[UUID, int] = {}  # the version of the unit's last rewind

    def after(self, table: Table, unit: UUID) -> None:
        self.seen.setdefault(unit, {})[table.unit(unit).version] = unit_lines(table, unit)

    def rewind(self, table: Table, unit: UUID, version: int, rng: random.Random) -> bool:
        steps = [k for k in self.seen.get(unit, {}) if k < version]
        if not steps:
            return False
        step = rng.choice(steps)
        try:
            table.rewind(unit, step)
        except StakesError:
            return False  # the rules' business (a spending the sheet no longer bears, a bound choice …)
        assert unit_lines(table, unit) == self.seen[unit][step], f"rewound to step {step} of {version}"
        self.checked += 1
        self.into_another_timeline += step < self.rewound.get(unit, 0) and step > min(steps)
        self.rewound[unit] = version
        return True


def test_a_rewind_gives_the_sheets_the_unit_lines_its_step_had_whichever_timeline_it_is_in_c6(
        conformance_table: Callable[[str], Table]) -> None:
    steps = Steps()
    for game in range(3):
        play(conformance_table("beast"), random.Random(f"beast/sheet rewinds/{game}"), 40, rewind=0.3, rewinder=steps.rewind,
             after=steps.after)
    assert steps.checked >= 10, steps.checked
    assert steps.into_another_timeline >= 1, "no rewind went back into a step an earlier rewind had left"
