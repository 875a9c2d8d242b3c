"""Penny Ante as a rule system: what it declares to the kernel (C-1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from domain.errors import RuleViolation
from domain.kernel.commands import Bool, Context, Int
from domain.kernel.registry import RuleSystem, can
from domain.systems.penny_ante import economy, play
from domain.systems.penny_ante.challenge import Challenge
from domain.systems.penny_ante.character import Character
from domain.systems.penny_ante.house import Antagonist, House
from domain.systems.penny_ante.loan import Debt, Loan
from domain.systems.penny_ante.moves import SIDES
from domain.systems.penny_ante.rules import characteristic_name, penny_ante_settings

if TYPE_CHECKING:
    from domain.application import StakesApplication
    from domain.campaign import Campaign
    from domain.kernel.common import Overturn


class PennyAnteSettings(BaseModel):
    """Penny Ante campaign settings."""

    model_config = ConfigDict(extra="forbid", title="PennyAnteSettings")

    starting_pile: Int | None = Field(None, description="PA-1: default 25, never below 25.")
    antagonist_cap: Int | None = Field(None, description="PA-4: most pennies one antagonist may hold.")
    table_dice: Bool | None = Field(None, description="C-3: every challenge uses dice rolled at the table.")


class PennyAnte(RuleSystem):
    id = "penny-ante"
    name = "Penny Ante"
    package = "penny_ante"
    settings_model = PennyAnteSettings
    aggregates = (Character, Loan, Debt, Antagonist, House, Challenge)
    resolutions = (Challenge,)
    handlers = economy.handles
    features = frozenset({"budget", "debts", "antagonists"})
    visibility = {
        # An antagonist's list of characteristics stays the House's (PA-4); players learn the ones it
        # uses when a challenge declares them (PA-17), from that challenge's own events.
        "Antagonist.Created": {"fields": {"characteristics": ["house"]}},
        "Antagonist.CharacteristicAdded": {"entry": ["house"]},
        # The secret seed is revealed at settlement (C-4); dice under a cup only to their side (PA-8).
        "Challenge.Announced": {"fields": {"secret_seed": []}, "until": "settled"},
        "Challenge.DiceRolled": {"fields": {"dice": "side"}},
        "Challenge.CupRerolled": {"fields": {"dice": "side"}},
        # A rewind records the whole earlier state, dice under cups included (C-6).
        "Challenge.Rewound": {"fields": {"state": []}},
    }

    def settings(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        return penny_ante_settings(raw)

    def campaign_created(self, campaign: Campaign, actor: str) -> list[Any]:
        return [House(campaign_id=campaign.id, actor=actor)]

    def new_character(self, app: StakesApplication, campaign: Campaign, seat: str, name: str, command: Any,
                      actor: str) -> Character:
        """At the agreed pile (PA-1) with a first characteristic, free (PA-2)."""
        first = characteristic_name(command.characteristic or "")
        return Character(campaign_id=campaign.id, seat=seat, name=name, first_characteristic=first,
                         pile=campaign.settings["starting_pile"], actor=actor)

    def adventure_started(self, app: StakesApplication, campaign: Campaign, number: int, command: Any,
                          actor: str) -> list[Any]:
        return economy.adventure_started(app, campaign, number, command, actor)

    def adventure_ended(self, app: StakesApplication, campaign: Campaign, number: int, actor: str) -> list[Any]:
        return economy.adventure_ended(app, campaign, number, actor)

    def verify_listed(self, app: StakesApplication, unit: Any, command: Any) -> None:
        """PA-14, issue 31: a challenge's action endpoint answers only the loans offered into that challenge."""
        offer = economy.loan(app, app.campaign(unit.campaign_id), command.loan)
        if offer.challenge_id != unit.id.hex:
            raise RuleViolation("this loan was not offered into this challenge: answer it from the campaign "
                                f"(POST …/loans/{command.loan}/…)", ruling="PA-14")

    rewinds = (Challenge,)

    def spent(self, unit: Any) -> Mapping[str, Any]:
        """C-6, PA-9, PA-14: the pennies each member has in the pot, and the loans offered into the challenge: one
        owner, the table, since the purses and the loans move together (``play.rewound``)."""
        return {"table": {"staked": unit.staked(), "loans": list(unit.loans)}}

    def verify_spend_again(self, app: StakesApplication, campaign: Campaign, unit: Any, owner: str, then: Any,
                           now: Any) -> None:
        play.verify_pot_restorable(app, campaign, unit, then, now)

    def give_back(self, app: StakesApplication, ctx: Context, campaign: Campaign, unit: Any, owner: str, then: Any,
                  now: Any, reason: str) -> list[Any]:
        return play.rewound(app, ctx, campaign, unit, now, reason)

    def overturn(self, app: StakesApplication, ctx: Context, campaign: Campaign, unit: Any,
                 command: Overturn) -> list[Any]:
        return play.overturn(app, ctx, campaign, unit, command.ruled_winner(), command.reason)

    def overturn_winners(self, unit: Any) -> tuple[str, ...] | None:
        """C-6: a settled challenge is voided, or given to either side as ruled (``verify_overturn``; an
        abandoned one only voided, C-10; none once a buyout stands, PA-24)."""
        if not can(unit.verify_overturn, None, "a reason"):
            return None
        return tuple(side for side in SIDES if can(unit.verify_overturn, side, "a reason"))
