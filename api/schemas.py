"""Request bodies. Responses use the read-model schemas of ``adapters.schemas``."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PennyAnteSettingsIn(Body):
    starting_pile: int | None = Field(None, description="PA-1: default 25, never below 25.")
    antagonist_cap: int | None = Field(None, description="PA-4: most pennies one antagonist may hold.")
    table_dice: bool | None = Field(None, description="C-3: every challenge uses dice rolled at the table.")


class CampaignIn(Body):
    name: str = Field(max_length=120, examples=["Ninjas of the Jade Court"])
    system: str = Field("penny-ante", description="penny-ante, pool, twenty-one, beast or pulp-cards.")
    settings: PennyAnteSettingsIn = Field(default_factory=PennyAnteSettingsIn)


class PlayerIn(Body):
    seat: str = Field(max_length=64, description="The player's seat name, e.g. 'ilse'.", examples=["ilse"])
    character: str = Field(max_length=200, examples=["Ilse Varn"])
    characteristic: str = Field(max_length=200, description="The first characteristic, free (PA-2). "
                                "The character starts with the campaign's agreed pile (PA-1).")


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


class SideIn(Body):
    """A side (PA-5): one player, an alliance of players (the first declared it), or an antagonist."""

    players: list[str] | None = Field(None, max_length=10, examples=[["ilse"]])
    antagonist: str | None = Field(None, max_length=200, examples=["Lady Sen"])


class ChallengeIn(Body):
    challenger: SideIn
    opponent: SideIn
    ante: int = Field(description="PA-6: a whole number of at least 1; raises are multiples of it.")
    stake: int | None = Field(None, description="PA-17: the House's devoted stake for an indirect challenge.")
    table: bool = Field(False, description="C-3: dice are rolled at the table and entered by hand.")
    circumstance: str | None = Field(None, max_length=200, description="PA-7: the challenger's first circumstance.")


class ActionIn(Body):
    """One move. Which fields a move uses: raise (amount), seed (seed), circumstance and double-down (text),
    declare (characteristics), roll (dice, table mode only), keep (cup: die numbers to put back), lend
    (borrower, amount), bid (member, amount), debt (member), buyout (member, give_up)."""

    action: Literal["seed", "circumstance", "double-down", "declare", "roll", "keep", "check", "call", "raise",
                    "fold", "all-in", "lend", "bid", "debt", "buyout"]
    amount: int | None = None
    seed: str | None = Field(None, max_length=200)
    text: str | None = Field(None, max_length=200)
    characteristics: list[str] | None = Field(None, max_length=10)
    dice: list[int] | None = Field(None, max_length=12)
    cup: list[int] | None = Field(None, max_length=12)
    borrower: str | None = Field(None, max_length=64)
    member: str | None = Field(None, max_length=64)
    give_up: str | None = Field(None, max_length=200)


class RewindIn(Body):
    to_step: int = Field(description="The step to go back to (1 is the announcement).")
    reason: str = Field(max_length=500)


class OverturnIn(Body):
    winner: Literal["challenger", "opponent"] | None = Field(None, description="The side that wins, as ruled.")
    void: bool = Field(False, description="Void the challenge: each side takes back its own wager.")
    reason: str = Field(max_length=500)


class ConsequenceIn(Body):
    note: str = Field(max_length=1000)
