"""Pulp's commands and unit actions, each defined once (PU-2 … PU-9, C-3 … C-6)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from domain.kernel import common
from domain.kernel.commands import Command, Int, text
from domain.systems.pulp_cards.combat import PulpCombat
from domain.systems.pulp_cards.deal import PulpDeal

Cards = Field(None, max_length=14, description="Table mode: the cards as dealt, e.g. BA,R21,P3 (C-3).")


class AddPlayer(common.AddPlayer):
    """Seat a player with one character; a Pulp sheet starts empty (PU-6)."""

    ruling = "PU-6"


class Deal(Command):
    """Shuffle, cut and deal seven: a standard deal, or a resistance deal (PU-2 … PU-4, PU-7)."""

    verb: ClassVar[str] = "deal"
    who = "anyone"
    ruling = "PU-2"
    route = "POST /deals"
    status = 201
    answer = "unit"
    cli = "deal"
    cli_arguments = ("kind",)
    cli_parsers = {"cards": "cards"}
    draws_secret = True
    one_shot = True  # C-10: drawn with the seat's committed secret

    kind: Literal["standard", "resist"] = Field("standard", description="standard, or resist (PU-4).")
    difficulty: Int | None = Field(None, description="Set by the House: -4 nearly foolproof … +4 nearly "
                                   "impossible (PU-2).")
    cut: Int | None = Field(None, description="Your cut, 1 to 13: the top k cards go under (PU-7).")
    character: str | None = text(200, "House only: the non-player character the deal is for (C-5).",
                                 default=None)
    seed: str | None = text(200, "Your own seed text (C-4).", default=None)
    cards: list[str] | None = Cards


class AddNote(Command):
    """Append a note to a sheet; the House also appends conditions and promotions (PU-6)."""

    verb: ClassVar[str] = "add-note"
    who = "anyone"
    ruling = "PU-6"
    route = "POST /notes"
    status = 201
    answer = "noted-sheet"
    cli = "note add"
    cli_arguments = ("note",)

    note: str = text(500, "The note, condition or promotion.")
    to: str | None = text(64, "Whose sheet (a player's seat): by default your own.", default=None)
    kind: Literal["note", "condition", "promotion"] = Field("note", description="note, condition or promotion.")


class OpenCombat(Command):
    """Open a combat between players' characters and the House's (PU-5)."""

    verb: ClassVar[str] = "open-combat"
    who = "house"
    ruling = "PU-5"
    route = "POST /combats"
    status = 201
    answer = "unit"
    cli = "combat open"
    cli_arguments = ("combatants",)
    cli_parsers = {"combatants": "names"}
    draws_secret = True

    combatants: list[str] = Field(min_length=2, max_length=7, description="The combatants: players' seats, and "
                                  "names of the House's characters (PU-5).")


# -- unit actions --------------------------------------------------------------------------------------------
class Show(Command):
    """Show your deal to every seat (C-5)."""

    units = (PulpDeal, PulpCombat)
    ruling = "C-5"
    awaited = False  # showing one's own cards is a choice: nobody waits for it
    answer = "unit"
    cli = "show"
    cli_variants = (("combat show", {}),)
    action: Literal["show"] = "show"
    number: Int | None = Field(None, description="In a combat: the attack to show (default: your latest).")


class _CombatMove(Command):
    units = (PulpCombat,)
    ruling = "PU-5"
    answer = "unit"


class CombatSeed(_CombatMove):
    """Add your side's seed text once the House called the first deal, which it then deals (C-4, C-10); or,
    after each House choice later in the combat, the fresh seed the deal it leads to waits for (C-9). Left out
    on the command line, 128 random bits drawn on your machine."""

    ruling = "C-4"
    cli = "combat seed"
    cli_arguments = ("seed",)
    cli_random = ("seed",)
    action: Literal["seed"] = "seed"
    seed: str = text(200, "Your seed text (on the command line: random when left out).")


class CombatPass(common.Pass):
    """Pass for your side: add no seed; the first deal the House called is dealt at once (C-10)."""

    units = (PulpCombat,)
    cli = "combat pass"


class Abandon(common.Abandon):
    """Abandon the open combat, with a reason: a deal the seeds already fixed is shown to every seat (C-10)."""

    units = (PulpCombat,)
    cli = "combat abandon"


class Surprise(_CombatMove):
    """House: the ambusher's surprise deal; on a success, a free attack (PU-5); called first, it is dealt
    with the players' seed or pass (C-10)."""

    who = "house"
    cli = "combat surprise"
    cli_arguments = ("by",)
    cli_parsers = {"cards": "cards"}
    action: Literal["surprise"] = "surprise"
    by: str = text(200, "The combatant trying to surprise.")
    difficulty: Int | None = Field(None, description="-4 … +4 (PU-2).")
    cut: Int | None = Field(None, description="1 to 13 (PU-7).")
    cards: list[str] | None = Cards


class Initiative(_CombatMove):
    """House: deal initiative for a new cycle (PU-5, PU-9); called first, it is dealt with the players' seed
    or pass (C-10)."""

    who = "house"
    ruling = "PU-9"
    cli = "combat initiative"
    cli_parsers = {"advantage": "advantages", "cards": "cards"}
    action: Literal["initiative"] = "initiative"
    advantage: dict[str, Int] | None = Field(None, max_length=7, description="name -> 1 to 4 (PU-9).")
    cards: list[str] | None = Cards


class Keep(_CombatMove):
    """House: keep the initiative order for the next cycle (PU-5)."""

    who = "house"
    cli = "combat keep"
    action: Literal["keep"] = "keep"


class Attack(_CombatMove):
    """Your combatant's attack: a standard deal (PU-5)."""

    cli = "combat attack"
    cli_parsers = {"cards": "cards"}
    action: Literal["attack"] = "attack"
    target: str | None = text(200, "Whom you attack.", default=None)
    difficulty: Int | None = Field(None, description="Set by the House: -4 … +4 (PU-2).")
    cut: Int | None = Field(None, description="Your cut, 1 to 13 (PU-7).")
    cards: list[str] | None = Cards


class Effect(_CombatMove):
    """House: record an attack's effect (PU-5)."""

    who = "house"
    awaited = False  # the combat goes on without it: the House may record an effect when it likes
    cli = "combat effect"
    cli_arguments = ("effect",)
    action: Literal["effect"] = "effect"
    effect: str = text(500, "What the attack did.")
    number: Int | None = Field(None, description="The attack (default: the latest shown attack without an effect).")


class End(_CombatMove):
    """House: end the combat; every card and the secret seed are revealed (C-4)."""

    who = "house"
    awaited = False  # the House may end the combat at any time; nobody waits for it to (the kernel's fallback
    #                  waits for it when nothing else moves the combat on)
    cli = "combat end"
    action: Literal["end"] = "end"
    reason: str | None = text(500, "How it ended.", default=None)
