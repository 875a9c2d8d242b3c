"""The Pool as a rule system: what it declares to the kernel (C-1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.errors import RuleViolation
from domain.kernel.commands import Bool, Context, Int
from domain.kernel.registry import RuleSystem
from domain.systems.pool import play
from domain.systems.pool.character import PoolCharacter
from domain.systems.pool.rolls import PoolContest, PoolRoll
from domain.systems.pool.rules import pool_settings

if TYPE_CHECKING:
    from domain.application import StakesApplication
    from domain.campaign import Campaign


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

    def rewind(self, app: StakesApplication, ctx: Context, campaign: Campaign, unit: Any, to_step: int,
               reason: str) -> list[Any]:
        if isinstance(unit, PoolRoll):
            raise RuleViolation("a roll has a single step; overturn it instead", ruling="C-6")
        return play.rewind_contest(app, ctx, campaign, unit, to_step, reason)

    def overturn(self, app: StakesApplication, ctx: Context, campaign: Campaign, unit: Any, winner: str | None,
                 void: bool, reason: str) -> list[Any]:
        if winner is not None:
            raise RuleViolation(f"a {'contest' if isinstance(unit, PoolContest) else 'roll'} has no winner to name "
                                "here; overturning it voids it", ruling="C-6")
        if isinstance(unit, PoolContest):
            return play.overturn_contest(app, ctx, campaign, unit, reason)
        return play.overturn_roll(app, ctx, campaign, unit, reason)
