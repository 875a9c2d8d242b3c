"""The Pool as a rule system: what it declares to the kernel (C-1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.errors import RuleViolation
from domain.kernel.commands import Bool, Context, Int
from domain.kernel.registry import RuleSystem
from domain.systems.pool import play, rules
from domain.systems.pool.character import PoolCharacter
from domain.systems.pool.rolls import PoolContest, PoolRoll
from domain.systems.pool.rules import pool_settings

if TYPE_CHECKING:
    from domain.application import StakesApplication
    from domain.campaign import Campaign
    from domain.kernel.common import Overturn


class PoolSettings(BaseModel):
    """The Pool's campaign settings."""

    model_config = ConfigDict(extra="forbid", title="PoolSettings")

    starting_pool: Int | None = Field(None, description="PL-1: dice at creation (default 12).")
    opposed_mode: Literal["tiers", "highest"] | None = Field(None, description="PL-8 (default tiers).")
    table_dice: Bool | None = Field(None, description="C-3: rolls use dice entered by hand.")


class Pool(RuleSystem):
    id = "pool"
    name = "The Pool, Powered by the Apocalypse"
    package = "pool"
    settings_model = PoolSettings
    aggregates = (PoolCharacter, PoolRoll, PoolContest)
    resolutions = (PoolRoll, PoolContest)
    handlers = play.handles
    visibility = {  # the secret seed is revealed at settlement (C-4)
        "PoolRoll.Rolled": {"fields": {"secret_seed": []}, "until": "settled"},
        "PoolContest.Opened": {"fields": {"secret_seed": []}, "until": "settled"},
    }

    def settings(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        return pool_settings(raw)

    def new_character(self, app: StakesApplication, campaign: Campaign, seat: str, name: str, command: Any,
                      actor: str) -> PoolCharacter:
        return PoolCharacter.create(campaign.id, seat, name, command.description or "",
                                    campaign.settings["starting_pool"], dict(command.traits or {}), actor)

    rewinds = (PoolContest,)  # C-6: a roll has a single step; it is overturned instead

    def spent(self, unit: Any) -> Mapping[str, Any]:
        """C-6, PL-3: the dice each side's pool lost in the contest (at the step, or now)."""
        return {data["seat"]: data["lost"] for data in unit.sides.values() if data["lost"]}

    def verify_spend_again(self, app: StakesApplication, campaign: Campaign, unit: Any, owner: str, then: Any,
                           now: Any) -> None:
        again, pool = (then or 0) - (now or 0), play.character(app, campaign, owner).pool
        if again > 0 and pool - again < rules.FLOOR:  # PL-3: never below two dice
            raise RuleViolation(f"that step has {again} more of {owner}'s dice lost than now, and the pool holds "
                                f"{pool} (at least {rules.FLOOR} always stay, PL-3): a rewind gives exactly the "
                                "state of that step", ruling="C-6")

    def give_back(self, app: StakesApplication, ctx: Context, campaign: Campaign, unit: Any, owner: str, then: Any,
                  now: Any, reason: str) -> list[Any]:
        """Dice lost since come back; dice the step had lost, given back since by another rewind, are lost again."""
        one = play.character(app, campaign, owner)
        back = (now or 0) - (then or 0)
        if back > 0:
            one.gain(unit.id.hex, back, "rewound", ctx.actor.name)
        else:
            one.lose(unit.id.hex, -back, ctx.actor.name)
        return [one]

    def overturn(self, app: StakesApplication, ctx: Context, campaign: Campaign, unit: Any,
                 command: Overturn) -> list[Any]:
        """C-6: a settled roll or contest is voided (it names no winner: the shared ``Overturn`` has none)."""
        if isinstance(unit, PoolContest):
            return play.overturn_contest(app, ctx, campaign, unit, command.reason)
        return play.overturn_roll(app, ctx, campaign, unit, command.reason)
