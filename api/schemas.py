"""Request bodies. Responses use the read-model schemas of ``adapters.schemas``."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PennyAnteSettingsIn(Body):
    starting_pile: int | None = Field(None, description="PA-1: default 25, never below 25.")
    antagonist_cap: int | None = Field(None, description="PA-4: most pennies one antagonist may hold.")


class CampaignIn(Body):
    name: str = Field(max_length=120, examples=["Ninjas of the Jade Court"])
    system: str = Field("penny-ante", description="penny-ante, pool, twenty-one, beast or pulp-cards.")
    settings: PennyAnteSettingsIn = Field(default_factory=PennyAnteSettingsIn)


class PlayerIn(Body):
    seat: str = Field(max_length=64, description="The player's seat name, e.g. 'ilse'.", examples=["ilse"])
    character: str = Field(max_length=200, examples=["Ilse Varn"])
    characteristic: str = Field(max_length=200, description="The first characteristic, free (PA-2).")
    pile: int | None = Field(None, description="Starting pile; the campaign's by default (PA-1).")


class CharacteristicIn(Body):
    name: str = Field(max_length=200, examples=["Lucky Necklace"])


class AdventureIn(Body):
    amount: int | None = Field(None, description="An agreed House pile instead of the sum of the player piles (PA-3).")
    note: str | None = Field(None, max_length=500, description="The table's agreement; required with an amount.")


class AntagonistIn(Body):
    name: str = Field(max_length=200, examples=["Lady Sen"])
    kind: str = Field("antagonist", description="antagonist or obstacle (PA-4).")
    characteristics: list[str] = Field(default_factory=list, max_length=50)


class FundingIn(Body):
    amount: int = Field(description="Pennies from the House pile (PA-4).")


class LoanIn(Body):
    borrower: str = Field(max_length=64)
    amount: int


class RepaymentIn(Body):
    amount: int


class ConsequenceIn(Body):
    note: str = Field(max_length=1000)
