"""Humanity and Beast as a rule system: what it declares to the kernel (C-1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field

from domain.errors import RuleViolation
from domain.kernel.commands import Bool, Context
from domain.kernel.registry import RuleSystem, can
from domain.systems.beast import play
from domain.systems.beast.character import BeastAntagonist, BeastCharacter
from domain.systems.beast.moves import CHALLENGER, OPPONENT
from domain.systems.beast.roll import BeastRoll
from domain.systems.beast.rules import beast_settings

if TYPE_CHECKING:
    from domain.application import StakesApplication
    from domain.campaign import Campaign
    from domain.kernel.common import Overturn

HIDDEN_SHEET = {"fields": {k: ["house"] for k in ("humanity", "willpower_max")}}


class BeastSettings(BaseModel):
    """Humanity and Beast campaign settings."""

    model_config = ConfigDict(extra="forbid", title="BeastSettings")

    check_mode: Literal["auto", "manual"] | None = Field(None, description="BE-7: Humanity checks rolled (auto, "
                                                          "the default) or recorded by the House (manual).")
    table_dice: Bool | None = Field(None, description="C-3: rolls use d10s entered by hand.")


class Beast(RuleSystem):
    id = "beast"
    name = "Humanity and Beast"
    package = "beast"
    settings_model = BeastSettings
    aggregates = (BeastCharacter, BeastAntagonist, BeastRoll)
    resolutions = (BeastRoll,)
    handlers = play.handles
    visibility = {
        "BeastRoll.Opened": {"fields": {"secret_seed": []}, "until": "settled"},  # C-4
        # C-5: an antagonist's roll and Willpower choice until revealed or resolved; its check until settled
        "BeastRoll.PreparedInSecret": {"fields": {"prepared": ["house"]}, "until": "settled"},  # C-9
        "BeastRoll.RolledInSecret": {"fields": {"roll": ["house"]}},
        "BeastRoll.DecidedInSecret": {"fields": {"reroll": ["house"]}},
        "BeastRoll.RerollDrawnInSecret": {"fields": {"reroll": ["house"]}},  # C-9: drawn with the fresh seeds
        "BeastRoll.CheckedInSecret": {"fields": {"check": ["house"]}, "until": "settled"},
        # an antagonist's damage is capped at its Willpower, its check's triggers tell of it (BE-6, BE-7)
        "BeastRoll.Resolved": {"fields": {"outcome": ["house"]}, "until": "settled"},
        "BeastRoll.Rewound": {"fields": {"state": ["house"]}, "until": "settled"},
        # C-5: an antagonist's sheet is the House's
        "BeastAntagonist.Created": HIDDEN_SHEET,
        # the entry itself would tell when an antagonist's check slipped: the House alone sees these
        "BeastAntagonist.Adjusted": {"entry": ["house"]},
        "BeastAntagonist.WillpowerRestored": {"entry": ["house"]},
    }

    def settings(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        return beast_settings(raw)

    def new_character(self, app: StakesApplication, campaign: Campaign, seat: str, name: str, command: Any,
                      actor: str) -> BeastCharacter:
        return BeastCharacter.create(campaign.id, seat, name, getattr(command, "humanity", None),
                                     getattr(command, "willpower", None), actor)

    rewinds = (BeastRoll,)

    def spent(self, unit: Any) -> Mapping[str, Any]:
        """C-6, BE-1: each side's Willpower and Humanity as the unit changed them on the sheets (an antagonist's
        only once settled, C-5)."""
        return {side: effects for side, effects in unit.shown_effects().items()}

    def verify_spend_again(self, app: StakesApplication, campaign: Campaign, unit: Any, owner: str, then: Any,
                           now: Any) -> None:
        """C-6, BE-1: a step whose roll took more Willpower or Humanity from the sheet than it now holds (it was
        given back by an earlier rewind and spent again since) is refused: the same point is never spent twice."""
        zero = {"willpower": 0, "humanity": 0}
        one: Any = app.repository.get(UUID(unit.sides[owner]["character"]))
        for what in ("willpower", "humanity"):
            again = (now or zero)[what] - (then or zero)[what]  # how much more the step took than now
            if again > getattr(one, what):
                raise RuleViolation(f"that step took {again} more of {one.name}'s {what.title()} than now, and "
                                    f"{one.name} holds {getattr(one, what)}: a rewind gives exactly the state of "
                                    "that step", ruling="C-6")

    def give_back(self, app: StakesApplication, ctx: Context, campaign: Campaign, unit: Any, owner: str, then: Any,
                  now: Any, reason: str) -> list[Any]:
        """The sheet moves from what the unit did to it now to what it had done at the step, within 0 and the
        maximum (BE-1)."""
        zero = {"willpower": 0, "humanity": 0}
        sheets: dict[str, Any] = {owner: app.repository.get(UUID(unit.sides[owner]["character"]))}
        return play.mirror(unit, sheets, {owner: now or zero}, "rewound", ctx.actor.name, {owner: then or zero})[1:]

    def overturn(self, app: StakesApplication, ctx: Context, campaign: Campaign, unit: Any,
                 command: Overturn) -> list[Any]:
        return play.overturn(app, ctx, campaign, unit, command.ruled_winner(), command.void, command.reason)

    def overturn_winners(self, unit: Any) -> tuple[str, ...] | None:
        """C-6: a settled roll or conflict is voided; a conflict with a result may go to its other side instead
        (``verify_overturn``, BE-6)."""
        if not can(unit.verify_overturn, None, True):
            return None
        return tuple(side for side in (CHALLENGER, OPPONENT) if can(unit.verify_overturn, side, False))
