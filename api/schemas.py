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


class PoolSettingsIn(Body):
    starting_pool: int | None = Field(None, description="PL-1: dice at creation (default 12).")
    opposed_mode: Literal["tiers", "highest"] | None = Field(None, description="PL-8 (default tiers).")
    table_dice: bool | None = Field(None, description="C-3: rolls use dice entered by hand.")


class CampaignIn(Body):
    name: str = Field(max_length=120, examples=["Ninjas of the Jade Court"])
    system: str = Field("penny-ante", description="penny-ante or pool (twenty-one, beast and pulp-cards are "
                        "not supported yet).")
    settings: PennyAnteSettingsIn | PoolSettingsIn = Field(default_factory=PennyAnteSettingsIn)


class PlayerIn(Body):
    seat: str = Field(max_length=64, description="The player's seat name, e.g. 'ilse'.", examples=["ilse"])
    character: str = Field(max_length=200, examples=["Ilse Varn"])
    characteristic: str | None = Field(None, max_length=200, description="Penny Ante: the first characteristic, "
                                       "free (PA-2); the character starts with the agreed pile (PA-1).")
    description: str | None = Field(None, max_length=2000, description="The Pool: at most 50 words (PL-1).")
    traits: dict[str, int] | None = Field(None, max_length=20, description="The Pool: traits bought at creation, "
                                          "name -> rating 1, 2 or 3 (2, 5 or 10 dice), named from the description.")


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
                    "fold", "all-in", "lend", "bid", "debt", "buyout", "choose", "push", "reroll", "interrupt"]
    amount: int | None = None
    seed: str | None = Field(None, max_length=200)
    text: str | None = Field(None, max_length=200)
    characteristics: list[str] | None = Field(None, max_length=10)
    dice: list[int] | None = Field(None, max_length=1000)
    cup: list[int] | None = Field(None, max_length=12)
    borrower: str | None = Field(None, max_length=64)
    member: str | None = Field(None, max_length=64)
    give_up: str | None = Field(None, max_length=200)
    count: int | None = Field(None, description="The Pool: dice to roll in a contest (PL-2, PL-8).")
    trait: str | None = Field(None, max_length=200, description="The Pool: the one trait added to the roll.")
    choice: Literal["narrate", "house"] | None = Field(None, description="The Pool: after a hit (PL-4).")


class TraitIn(Body):
    name: str = Field(max_length=200, description="A new trait starts at +1; an existing one rises a step (PL-5).")
    new: bool | None = Field(None, description="true: only buy a new trait; false: only raise an existing one.")


class MoveIn(Body):
    name: str = Field(max_length=200)
    cost: int = Field(description="2, 5 or 10 dice, as the table agrees (PL-6).")


class HelpIn(Body):
    to: str = Field(max_length=64, description="The character you help.")
    dice: int = Field(description="Dice you give, keeping at least 2 (PL-7).")


class RollIn(Body):
    count: int = Field(description="Dice from your pool, at least 2 (PL-2).")
    trait: str | None = Field(None, max_length=200)
    helper: str | None = Field(None, max_length=64, description="A player who offered you dice (PL-7).")
    seed: str | None = Field(None, max_length=200, description="Your own seed text (C-4).")
    dice: list[int] | None = Field(None, max_length=2000, description="Table dice entered by hand (C-3).")


class ContestIn(Body):
    opponent: str = Field(max_length=64, description="The character you oppose (PL-8).")

class RewindIn(Body):
    to_step: int = Field(description="The step to go back to (1 is the announcement).")
    reason: str = Field(max_length=500)


class OverturnIn(Body):
    winner: Literal["challenger", "opponent"] | None = Field(None, description="The side that wins, as ruled.")
    void: bool = Field(False, description="Void the challenge: each side takes back its own wager.")
    reason: str = Field(max_length=500)


class ConsequenceIn(Body):
    note: str = Field(max_length=1000)
