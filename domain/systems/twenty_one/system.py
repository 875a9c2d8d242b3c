"""Twenty-one as a rule system: what it declares to the kernel (C-1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from domain.errors import RuleViolation
from domain.kernel.commands import Bool, Context
from domain.kernel.registry import RuleSystem
from domain.systems.twenty_one import play
from domain.systems.twenty_one.character import TwentyOneCharacter
from domain.systems.twenty_one.conflict import Conflict

if TYPE_CHECKING:
    from domain.application import StakesApplication
    from domain.campaign import Campaign
    from domain.kernel.common import Overturn

UNTIL_ENDED = "settled"


class TwentyOneSettings(BaseModel):
    """Twenty-one's campaign settings."""

    model_config = ConfigDict(extra="forbid", title="TwentyOneSettings")

    table_cards: Bool | None = Field(None, description="C-3: decks are shuffled at the table and entered by hand.")


class TwentyOne(RuleSystem):
    id = "twenty-one"
    name = "Twenty-one"
    package = "twenty_one"
    settings_model = TwentyOneSettings
    aggregates = (TwentyOneCharacter, Conflict)
    resolutions = (Conflict,)
    handlers = play.handles
    # C-5: a hand is its owner's, the deck order and the seed nobody's, until the conflict ends.
    visibility = {
        "Conflict.Opened": {"fields": {"secret_seed": []}, "until": UNTIL_ENDED},
        "Conflict.Shuffled": {"fields": {"order": []}, "until": UNTIL_ENDED},
        "Conflict.HandDealt": {"fields": {"cards": "seat", "reshuffles": []}, "until": UNTIL_ENDED},
        "Conflict.OrderCardLaid": {"fields": {"card": "seat"}, "until": UNTIL_ENDED},
        "Conflict.OrderSettled": {"fields": {"reshuffles": []}, "until": UNTIL_ENDED},
        "Conflict.CardsLaid": {"fields": {"set_aside": "seat", "reshuffles": []}, "until": UNTIL_ENDED},
        "Conflict.CardDrawn": {"fields": {"reshuffles": []}, "until": UNTIL_ENDED},
        "Conflict.HoldSpent": {"fields": {"reshuffles": []}, "until": UNTIL_ENDED},
        "Conflict.Rewound": {"fields": {"state": []}, "until": UNTIL_ENDED},
    }

    def settings(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        unknown = set(raw) - {"table_cards"}
        if unknown:
            raise RuleViolation(f"unknown Twenty-one settings: {', '.join(sorted(unknown))}", ruling="C-1")
        table = raw.get("table_cards", False)
        if not isinstance(table, bool):
            raise RuleViolation("table_cards is true or false", ruling="C-3")
        return {"table_cards": table}

    def new_character(self, app: StakesApplication, campaign: Campaign, seat: str, name: str, command: Any,
                      actor: str) -> TwentyOneCharacter:
        return TwentyOneCharacter.create(campaign.id, seat, name, command.skills, actor)

    rewinds = (Conflict,)

    def spent(self, unit: Any) -> Mapping[str, Any]:
        """C-6, TO-8: the holds each seat spent in the conflict (at the step, in whichever timeline it is)."""
        return {seat: count for seat, count in unit.holds_spent.items() if count}

    def verify_spend_again(self, app: StakesApplication, campaign: Campaign, unit: Any, owner: str, then: Any,
                           now: Any) -> None:
        if (then or 0) > (now or 0):
            play.character(app, campaign, owner).verify_retake_holds((then or 0) - (now or 0))

    def give_back(self, app: StakesApplication, ctx: Context, campaign: Campaign, unit: Any, owner: str, then: Any,
                  now: Any, reason: str) -> list[Any]:
        """Holds spent since come back; holds the step had spent, returned since by another rewind, are spent
        again: the sheet says what replaying the kept steps says (C-6, TO-8)."""
        sheet = play.character(app, campaign, owner)
        back = (now or 0) - (then or 0)
        if back > 0:
            sheet.return_holds(unit.id.hex, back, "rewound", ctx.actor.name)
        else:
            sheet.retake_holds(unit.id.hex, -back, "rewound", ctx.actor.name)
        return [sheet]

    def overturn(self, app: StakesApplication, ctx: Context, campaign: Campaign, unit: Any,
                 command: Overturn) -> list[Any]:
        """C-6 (issue 30, item 4): an ended conflict is voided with a reason (it names no winner: the shared
        ``Overturn`` has none); the holds spent in it come back."""
        reason = command.reason
        unit.overturn(reason, ctx.actor.name)
        touched: list[Any] = [unit]
        for seat, count in sorted(unit.holds_spent.items()):
            if count:
                sheet = play.character(app, campaign, seat)
                sheet.return_holds(unit.id.hex, count, "voided", ctx.actor.name)
                touched.append(sheet)
        return touched
