"""Humanity and Beast read-model schemas: the sheet, its history, and the House's characters."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal
from uuid import UUID

from pydantic import BaseModel, Field

from adapters.schemas import LegalAction, ResolutionView


class BeastLine(BaseModel):
    at: datetime
    unit: UUID | None = Field(description="The roll or conflict, if any.")
    what: str = Field(description="roll, reroll, outcome, check, adjusted, restored, abandoned "
                      "(C-10) or overturned (C-6)")
    detail: dict[str, Any]


class BeastSheet(BaseModel):
    system: Literal["beast"] = "beast"
    seat: str
    name: str
    humanity: int = Field(description="Humanity dice (BE-1).")
    beast: int = Field(description="Beast dice; Humanity plus Beast is always 10 (BE-1).")
    willpower: int = Field(description="Current Willpower, 0 to the maximum (BE-1).")
    willpower_max: int
    lost: bool = Field(description="Lost to the Beast at Humanity 0: no more rolls (BE-7, BE-9).")
    status: str
    history: list[BeastLine] = Field(description="Rolls, outcomes and changes to the sheet, newest first.")
    checks: list[BeastLine] = Field(description="Humanity checks, newest first (BE-7).")


class HouseCharacter(BaseModel):
    """An antagonist: players see its name only (C-5)."""

    name: str
    humanity: int | None = None
    beast: int | None = None
    willpower: int | None = None
    willpower_max: int | None = None
    lost: bool | None = None
    history: list[BeastLine] | None = None


class BeastAction(LegalAction):
    """A move in a Beast roll or conflict, with its own limits besides the shared ones (issue 30, ADR 0033)."""

    member: str | None = Field(None, description="The side whose move it is (`challenger`, `opponent`).")
    dice: int | None = Field(None, description="How many dice to enter first in table mode (C-3): a check's d10s "
                                               "(BE-12); a roll's when its split is fixed (declared, C-9; none for "
                                               "a character lost to the Beast, BE-9); a reroll's one die (BE-4). "
                                               "A roll or reroll then takes one more for each `explode_on`.")
    count_of: list[str] | None = Field(None, description="Table mode, a roll: the body fields whose sum is how "
                                                         "many d10s to enter first, one per Humanity and Beast "
                                                         "die picked (BE-2, C-3).")
    faces: int | None = Field(None, description="Table mode: the faces of each die to enter (d10, BE-3).")
    explode_on: int | None = Field(None, description="Table mode: each result of this face adds one more die to "
                                                     "enter, the re-roll of that die (BE-3, BE-10); the dice go "
                                                     "in wave by wave: the first rolls, then the re-rolls of the "
                                                     "10s in die order, and so on (C-3). Absent: none is rolled "
                                                     "again (a check).")
    chain_max: int | None = Field(None, description="Table mode: a die's chain holds at most this many results; "
                                                    "a 10 that reaches it is not rolled again (BE-10).")
    fixed_chains: list[list[int]] | None = Field(None, description="Table mode after a rewind (C-7): per die, "
                                                                   "in die order, the results it showed before "
                                                                   "(its first roll, then each re-roll), entered "
                                                                   "the same again; [] for a die that showed "
                                                                   "none (`fixed` lists the same slot by slot).")
    choices: list[Any] | None = Field(None, description="The values this move may take: of the body field named "
                                                      "by `field`; without it (`roll`, `prepare`), each field's "
                                                      "range as an object (BE-2, BE-4).")
    fixed: list[Any] | None = Field(None, description="Table dice a rewind fixed (C-7): `{slot, value}` for each "
                                                    "slot `[side, 'die', number, roll]` (a reroll's `[side, "
                                                    "'reroll', roll]`) filled before; a check's: one value or "
                                                    "null per die to enter.")


class BeastView(ResolutionView):
    """A Beast roll or conflict as the viewing seat sees it (C-5, C-8), with what that seat may do now."""

    system: Literal["beast"] = "beast"
    legal_actions: Sequence[BeastAction]
