"""Humanity and Beast commands and unit actions, each defined once (BE-1 … BE-12)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from domain.kernel import common
from domain.kernel.commands import Bool, Command, Int, text
from domain.systems.beast.roll import BeastRoll

Side = Literal["challenger", "opponent"]


class AddPlayer(common.AddPlayer):
    """Seat a player with a character: a split of 10 dice between Humanity and Beast, and Willpower (BE-1)."""

    ruling = "BE-1"
    elsewhere = "Humanity and Willpower: its characters have no split"

    humanity: Int | None = Field(None, description="Humanity dice, 1 to 10; Beast is the rest (default 7, BE-9).")
    willpower: Int | None = Field(None, description="The Willpower maximum, 1 to 10 (default 6, BE-9).")


class Overturn(common.Overturn):
    """Overturn a settled conflict (C-6, BE-6): give it to the side the House rules won (the loser takes the
    difference off his Willpower), or void it; a roll is only voided."""

    elsewhere = "winner to name in an overturn: overturning a result voids it (void=true)"

    winner: Side | None = Field(
        None, description="The side that wins the conflict, as ruled (C-6, BE-6): 'challenger' or 'opponent'. "
                          "Without it, void=true voids the roll or conflict; an abandoned conflict is only voided.")

    void: Bool = Field(False, description="Void it instead of naming a winner: the result no longer stands, and "
                                          "what it moved is put back (a JSON boolean: 1, \"yes\" or \"true\" are "
                                          "refused).")

    def ruled_winner(self) -> str | None:
        return self.winner


class CreateAntagonist(Command):
    """House: create an antagonist with a sheet of its own, hidden from the players (BE-1, C-5)."""

    verb: ClassVar[str] = "create-antagonist"
    who = "house"
    ruling = "BE-1"
    route = "POST /antagonists"
    status = 201
    answer = "house-characters"
    cli = "antagonist create"
    cli_arguments = ("name",)
    elsewhere = "antagonist split and Willpower"

    name: str = text(80, "The antagonist's name, e.g. 'Sheriff Cole'.")
    humanity: Int | None = Field(None, description="Humanity dice, 1 to 10 (default 7, BE-9).")
    willpower: Int | None = Field(None, description="The Willpower maximum, 1 to 10 (default 6, BE-9).")


class RestoreWillpower(Command):
    """House: restore a character's or antagonist's Willpower, up to its maximum (BE-8)."""

    verb: ClassVar[str] = "restore-willpower"
    who = "house"
    ruling = "BE-8"
    route = "POST /willpower"
    answer = "restored-sheet"  # the sheet restored (issue 31), not the campaign
    cli = "willpower restore"
    cli_arguments = ("amount",)

    amount: Int = Field(description="Willpower points restored (never above the maximum).")
    character: str = text(80, "A player's seat, or an antagonist's name.")


class Act(Command):
    """Roll an action: a difficulty, dice of each kind from your split, maybe a Willpower point (BE-2 … BE-5)."""

    verb: ClassVar[str] = "act"
    who = "player"
    ruling = "BE-2"
    route = "POST /actions"
    status = 201
    answer = "unit"
    cli = "act"
    cli_parsers = {"dice": "numbers"}
    draws_secret = True
    one_shot = True  # C-10: drawn with the seat's committed secret

    difficulty: Int = Field(description="Easy 2, Average 3, Challenging 4, Difficult 5, Hard 6, Extremely Hard 7, "
                                        "Almost Impossible 8, Epic 9, Legendary 10 (BE-2, BE-13).",
                          examples=[2])
    humanity: Int = Field(description="Humanity dice rolled (BE-2).", examples=[2])
    beast: Int = Field(description="Beast dice rolled (BE-2).", examples=[1])
    willpower: Literal["before"] | None = Field(None, description="'before': one automatic success (BE-4).")
    min_humanity: Int | None = Field(None, description="The action needs at least this many Humanity dice.")
    min_beast: Int | None = Field(None, description="The action needs at least this many Beast dice.")
    seed: str | None = text(200, "Your own seed text (C-4).", default=None)
    dice: list[Int] | None = Field(None, max_length=400, description="Table mode: the d10s as rolled, the first "
                                   "rolls then the re-rolls of 10s (C-3).")


class OpenConflict(Command):
    """Open a conflict: a player's character against an antagonist or another player's (BE-6)."""

    verb: ClassVar[str] = "open-conflict"
    ruling = "BE-6"
    route = "POST /conflicts"
    status = 201
    answer = "unit"
    cli = "conflict open"
    draws_secret = True

    against: str = text(80, "The antagonist's name, or the other player's seat.")
    player: str | None = text(64, "House only: the player's seat who faces it.", default=None)
    min_humanity: Int | None = Field(None, description="Each side rolls at least this many Humanity dice.")
    min_beast: Int | None = Field(None, description="Each side rolls at least this many Beast dice.")


# -- unit actions ------------------------------------------------------------------------------------------
class _Move(Command):
    units = (BeastRoll,)
    answer = "unit"
    side: Side | None = Field(None, description="The side you act for (by default your own).")


class Seed(_Move):
    """Add your seed text before the first roll (C-4)."""

    ruling = "C-4"
    cli = "conflict seed"
    cli_random = ("seed",)  # C-4: left out on the command line, 128 random bits drawn there
    cli_arguments = ("seed",)
    action: Literal["seed"] = "seed"
    seed: str = text(200, "Your seed text.")


class Pass(_Move):
    """Pass: add no seed text, so the other side's first roll need not wait for yours (C-10)."""

    ruling = "C-10"
    cli = "conflict pass"
    action: Literal["pass"] = "pass"


class Prepare(_Move):
    """House: declare an antagonist's split and Willpower before the players' seed or pass (C-9)."""

    who = "house"
    ruling = "C-9"
    cli = "conflict prepare"
    action: Literal["prepare"] = "prepare"
    humanity: Int = Field(description="Humanity dice the antagonist will roll.")
    beast: Int = Field(description="Beast dice the antagonist will roll.")
    willpower: Literal["before"] | None = Field(None, description="'before': one automatic success (BE-4).")


class Roll(_Move):
    """Roll your side: dice of each kind from your split, maybe a Willpower point before (BE-2 … BE-4)."""

    ruling = "BE-2"
    cli = "conflict roll"
    cli_parsers = {"dice": "numbers"}
    action: Literal["roll"] = "roll"
    humanity: Int = Field(description="Humanity dice rolled.")
    beast: Int = Field(description="Beast dice rolled.")
    willpower: Literal["before"] | None = Field(None, description="'before': one automatic success (BE-4).")
    dice: list[Int] | None = Field(None, max_length=400, description="Table mode: the d10s as rolled, one per "
                                   "Humanity and Beast die allocated (Humanity first), then one more for each 10 "
                                   "(BE-10), in the order they came (C-3).")


class Reroll(_Move):
    """Spend a Willpower point to reroll one die; it keeps its kind (BE-4, BE-10, BE-11)."""

    ruling = "BE-4"
    cli = "willpower reroll"
    cli_arguments = ("die",)
    cli_parsers = {"dice": "numbers"}
    action: Literal["reroll"] = "reroll"
    die: Int = Field(description="The die's number, as listed (1 is the first).")
    dice: list[Int] | None = Field(None, max_length=40, description="Table mode: the new chain: the die rolled again, then one "
                                   "more for each 10 (BE-10, C-3).")


class Keep(_Move):
    """Keep the dice as rolled, spending no Willpower on them (BE-4)."""

    ruling = "BE-4"
    cli = "willpower keep"
    action: Literal["keep"] = "keep"


class Check(_Move):
    """Make the Humanity check that is due (auto), or record its outcome (House, manual) (BE-7)."""

    ruling = "BE-7"
    cli = "humanity check"
    cli_parsers = {"dice": "numbers"}
    action: Literal["check"] = "check"
    outcome: Literal["held", "slipped"] | None = Field(None, description="Manual mode: what the House rules.")
    dice: list[Int] | None = Field(None, max_length=10, description="Table mode (auto checks): one d10 per point "
                                   "of the character's current Humanity (BE-12, C-3).")


class Reveal(_Move):
    """House: show an antagonist's roll to every seat (C-5); it stays public after a rewind (C-8)."""

    who = "house"
    ruling = "C-5"
    awaited = False  # showing the antagonist's roll is the House's choice: nobody waits for it
    cli = "conflict reveal"
    action: Literal["reveal"] = "reveal"


class Abandon(common.Abandon):
    """House: abandon the open roll or conflict, with a reason: no Willpower damage; dice a seed already fixed
    are shown to every seat (C-10)."""

    units = (BeastRoll,)
    cli = "conflict abandon"
