"""Pulp in the Cards as a rule system: what it declares to the kernel (C-1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from domain.errors import RuleViolation
from domain.kernel.commands import Bool, Context
from domain.kernel.registry import RuleSystem
from domain.systems.pulp_cards import play
from domain.systems.pulp_cards.character import PulpCharacter
from domain.systems.pulp_cards.combat import PulpCombat
from domain.systems.pulp_cards.deal import PulpDeal

if TYPE_CHECKING:
    from domain.application import StakesApplication
    from domain.campaign import Campaign
    from domain.kernel.common import Overturn


class PulpSettings(BaseModel):
    """Pulp in the Cards' campaign settings."""

    model_config = ConfigDict(extra="forbid", title="PulpSettings")

    table_cards: Bool | None = Field(None, description="C-3: deals are entered by hand from the table's deck.")


def pulp_settings(raw: Mapping[str, Any]) -> dict[str, Any]:
    unknown = set(raw) - {"table_cards"}
    if unknown:
        raise RuleViolation(f"unknown Pulp settings: {', '.join(sorted(unknown))}", ruling="C-1")
    table = raw.get("table_cards", False)
    if not isinstance(table, bool):
        raise RuleViolation("table_cards is true or false", ruling="C-3")
    return {"table_cards": table}


HIDDEN_HAND = {"fields": {"secret_seed": [], "hand": "seat", "result": "seat"}, "until": "settled"}


class PulpCards(RuleSystem):
    id = "pulp-cards"
    name = "Pulp in the Cards"
    package = "pulp_cards"
    settings_model = PulpSettings
    aggregates = (PulpCharacter, PulpDeal, PulpCombat)
    resolutions = (PulpDeal, PulpCombat)
    handlers = play.handles
    instead = {
        "create-antagonist": "the House's characters (antagonists) are not created beforehand here: the House "
                             "names one where it acts, as a deal's character or among a combat's combatants (PU-5)",
    }
    visibility = {
        # A deal is seen by its dealer until it is shown (C-5); the secret seed until it ends (C-4).
        "PulpDeal.Dealt": HIDDEN_HAND,
        "PulpCombat.Opened": {"fields": {"secret_seed": []}, "until": "settled"},
        "PulpCombat.Attacked": HIDDEN_HAND,
        # A rewind records the whole earlier state, unshown attacks included (C-6).
        "PulpCombat.Rewound": {"fields": {"state": []}},
    }

    def settings(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        return pulp_settings(raw)

    def new_character(self, app: StakesApplication, campaign: Campaign, seat: str, name: str, command: Any,
                      actor: str) -> PulpCharacter:
        return PulpCharacter(campaign_id=campaign.id, seat=seat, name=name, actor=actor)

    rewinds = (PulpCombat,)  # C-6: a deal is not rewound; the House overturns it once it is shown

    def overturn(self, app: StakesApplication, ctx: Context, campaign: Campaign, unit: Any,
                 command: Overturn) -> list[Any]:
        return play.overturn(app, ctx, campaign, unit, command.reason)
