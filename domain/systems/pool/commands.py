"""The Pool's commands and unit actions, each defined once (PL-1 … PL-9)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from domain.kernel import common
from domain.kernel.commands import Bool, Command, Int, text
from domain.systems.pool.rolls import PoolContest, PoolRoll


class AddPlayer(common.AddPlayer):
    """Seat a player with a character made from a description, a pool and traits bought at creation (PL-1)."""

    ruling = "PL-1"
    elsewhere = "description and traits: its characters have characteristics"
    cli_parsers = {"traits": "traits"}

    description: str = text(2000, "At most 50 words (PL-1).", default="", examples=["A stubborn harbour pilot"])
    traits: dict[str, Int] | None = Field(None, max_length=20, description="Traits bought at creation, name -> "
                                          "rating 1, 2 or 3 (2, 5 or 10 dice), named from the description.")


class _Sheet(Command):
    who = "player"
    answer = "sheet"
    actor_fields = ("seat",)
    cli_arguments: ClassVar[tuple[str, ...]] = ("name",)

    seat: str = text(64, "Whose character: your own.")


class RaiseTrait(_Sheet):
    """Buy a new trait at +1 or raise one a step, at the escalating cost (PL-5)."""

    verb: ClassVar[str] = "raise-trait"
    ruling = "PL-5"
    route = "POST /characters/{seat}/traits"
    cli_variants = (("trait buy", {"new": True}), ("trait raise", {"new": False}))

    name: str = text(200, "A new trait starts at +1; an existing one rises a step.")
    new: Bool | None = Field(None, description="true: only buy a new trait; false: only raise an existing one.")


class CashInTrait(_Sheet):
    """Erase a trait and add its rating to the pool (PL-5)."""

    verb: ClassVar[str] = "cash-in-trait"
    ruling = "PL-5"
    route = "POST /characters/{seat}/traits/{name}/cash-in"
    cli = "trait cash-in"

    name: str = text(200, "The trait.")


class BuyMove(_Sheet):
    """Buy a move with dice, as the table agrees (PL-6)."""

    verb: ClassVar[str] = "buy-move"
    ruling = "PL-6"
    route = "POST /characters/{seat}/moves"
    status = 201
    cli = "move buy"
    cli_arguments = ("name", "cost")

    name: str = text(200, "The move.")
    cost: Int = Field(description="2, 5 or 10 dice, as the table agrees (PL-6).")


class OfferHelp(Command):
    """Help another character: give him dice for his next roll, keeping two (PL-7)."""

    verb: ClassVar[str] = "offer-help"
    who = "player"
    ruling = "PL-7"
    route = "POST /help"
    answer = "own-sheet"
    cli = "help-roll"
    cli_arguments = ("to", "dice")

    to: str = text(64, "The character you help.")
    dice: Int = Field(description="Dice you give, keeping at least 2 (PL-7).")


class RollDice(Command):
    """Roll dice from your pool with at most one trait (PL-2 … PL-4, PL-7); 5s and 6s are lost (PL-3)."""

    verb: ClassVar[str] = "roll"
    who = "player"
    ruling = "PL-2"
    route = "POST /rolls"
    status = 201
    answer = "unit"
    cli = "roll"
    cli_arguments = ("count",)
    cli_parsers = {"dice": "numbers"}
    draws_secret = True
    one_shot = True  # C-10: drawn with the seat's committed secret

    count: Int = Field(description="Dice from your pool, at least 2 (PL-2).", examples=[2])
    trait: str | None = text(200, "The one trait added to the two highest dice.", default=None)
    helper: str | None = text(64, "A player who offered you dice (PL-7).", default=None)
    seed: str | None = text(200, "Your own seed text (C-4).", default=None)
    dice: list[Int] | None = Field(None, max_length=2000, description="Table dice entered by hand (C-3).")


class OpenContest(Command):
    """Oppose another character (PL-8); both then roll with 'contest roll'."""

    verb: ClassVar[str] = "open-contest"
    who = "player"
    ruling = "PL-8"
    route = "POST /contests"
    status = 201
    answer = "unit"
    cli = "oppose"
    cli_arguments = ("opponent",)
    draws_secret = True

    opponent: str = text(64, "The character you oppose (PL-8).")


# -- unit actions --------------------------------------------------------------------------------------------
class Choose(Command):
    """After a hit, choose who narrates: narrate yourself, or let the House narrate and gain a die (PL-4)."""

    units = (PoolRoll,)
    ruling = "PL-4"
    answer = "unit"
    cli = "choose"
    cli_arguments = ("choice",)
    action: Literal["choose"] = "choose"
    choice: Literal["narrate", "house"] = Field(description="narrate, or house (the House narrates, +1 die).")


class _ContestMove(Command):
    units = (PoolContest,)
    ruling = "PL-8"
    answer = "unit"


class ContestSeed(_ContestMove):
    """Add your seed text before the first roll (C-4)."""

    ruling = "C-4"
    cli = "contest seed"
    cli_random = ("seed",)  # C-4: left out on the command line, 128 random bits drawn there
    cli_arguments = ("seed",)
    action: Literal["seed"] = "seed"
    seed: str = text(200, "Your seed text.")


class ContestPass(_ContestMove):
    """Pass: add no seed text, so the other side's first roll need not wait for yours (C-10)."""

    ruling = "C-10"
    cli = "contest pass"
    action: Literal["pass"] = "pass"


class ContestRoll(_ContestMove):
    """Roll your side of the contest this round (PL-8)."""

    cli = "contest roll"
    cli_arguments = ("count",)
    cli_parsers = {"dice": "numbers"}
    action: Literal["roll"] = "roll"
    count: Int = Field(description="Dice from your pool, at least 2.")
    trait: str | None = text(200, "The one trait added.", default=None)
    dice: list[Int] | None = Field(None, max_length=2000, description="Table mode: the d6s shown, one per die "
                                   "rolled: `count`, and any a helper gave (PL-7, C-3).")


class Fold(_ContestMove):
    """In a stalemate, give up (and gain 2 dice, as on a miss)."""

    cli = "contest fold"
    action: Literal["fold"] = "fold"


class Push(_ContestMove):
    """In a stalemate, push on: both roll again."""

    cli = "contest push"
    action: Literal["push"] = "push"


class Reroll(_ContestMove):
    """House: on an exact tie (highest mode), ask for a reroll."""

    who = "house"
    cli = "contest reroll"
    action: Literal["reroll"] = "reroll"


class Interrupt(_ContestMove):
    """House: on an exact tie (highest mode), narrate an interruption."""

    who = "house"
    cli = "contest interrupt"
    action: Literal["interrupt"] = "interrupt"


class Abandon(common.Abandon):
    """House: abandon the open contest, with a reason: no winner, nothing gained; dice already lost stay lost;
    dice a seed already fixed are shown to every seat (C-10)."""

    units = (PoolContest,)
    cli = "contest abandon"
