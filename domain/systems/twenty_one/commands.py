"""Twenty-one's commands and conflict actions, each defined once (TO-1 … TO-15, C-3, C-4)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from domain.kernel import common
from domain.kernel.commands import Bool, Command, Int, Who, text
from domain.systems.twenty_one.conflict import Conflict


class AddPlayer(common.AddPlayer):
    """Seat a player with a character and his skills, the sources the House accepts for modifiers (TO-6)."""

    ruling = "TO-6"
    elsewhere = "skills: its characters have none"

    skills: list[str] | None = Field(None, max_length=20, description="Short texts, e.g. 'Knife fighting' (TO-6).")


class GrantHolds(Command):
    """Grant a character holds from one of his skills; they are kept on the sheet (TO-8)."""

    verb: ClassVar[str] = "grant-holds"
    who = "house"
    ruling = "TO-8"
    route = "POST /characters/{seat}/holds"
    answer = "sheet"
    cli = "hold grant"
    cli_arguments = ("seat", "count")

    seat: str = text(64, "The character's seat.")
    count: Int = Field(description="Holds granted, 1 to 10.")
    skill: str = text(80, "The skill that grants them.")


class OpenConflict(Command):
    """Open a conflict engaging these characters: a deck is readied and seeds may be added (TO-1, TO-2, C-4)."""

    verb: ClassVar[str] = "open-conflict"
    who = "house"
    ruling = "TO-2"
    route = "POST /conflicts"
    status = 201
    answer = "unit"
    cli = "conflict open"
    cli_arguments = ("characters",)
    cli_parsers = {"characters": "names"}
    draws_secret = True

    characters: list[str] = Field(min_length=1, max_length=8, description="The engaged characters' seats.")


# -- conflict actions --------------------------------------------------------------------------------------
class _Move(Command):
    units = (Conflict,)
    ruling = "TO-4"
    who_ruling = "TO-2"
    answer = "unit"
    who: ClassVar[Who] = "player"
    cli_parsers = {"reshuffle": "cards"}


class _Draws(_Move):
    reshuffle: list[str] | None = Field(None, max_length=52, description="Table cards: when the deck runs out, the "
                                        "discards as reshuffled at the table, top first (C-3).")


class Seed(_Move):
    """Add your seed text before the deal; the last seed or pass deals at once (C-4, C-10)."""

    ruling = "C-4"
    cli = "conflict seed"
    cli_random = ("seed",)  # C-4: left out on the command line, 128 random bits drawn there
    cli_arguments = ("seed",)
    action: Literal["seed"] = "seed"
    seed: str = text(200, "Your seed text.")


class Pass(common.Pass):
    """Pass: add no seed; the deal is made when the last engaged player seeds or passes (C-10)."""

    units = (Conflict,)
    cli = "conflict pass"


class Abandon(common.Abandon):
    """Abandon the open conflict, with a reason: a deal its seeds already fixed is shown to every seat (C-10)."""

    units = (Conflict,)
    cli = "conflict abandon"


class Deal(_Move):
    """Table cards: enter the deck as shuffled at the table; three hidden cards to each engaged character
    (TO-1, TO-2, C-3). A service deal is made by the last seed or pass (C-10)."""

    who = "house"
    ruling = "TO-2"
    cli = "conflict deal"
    cli_parsers = {"deck": "cards"}
    action: Literal["deal"] = "deal"
    deck: list[str] | None = Field(None, max_length=52, description="Table cards: the 52 cards as shuffled, top "
                                   "first (C-3).")


class CallOrder(_Move):
    """Call for the order of play: the actors each lay one card face down (TO-3)."""

    who = "house"
    ruling = "TO-3"
    cli = "conflict order"
    cli_parsers = {"actors": "names"}
    action: Literal["order"] = "order"
    actors: list[str] | None = Field(None, max_length=8, description="Who wants to act at once (default: every "
                                     "character who has not acted this round).")


class OrderCard(_Draws):
    """Lay one card face down for the order of play (TO-3, TO-15)."""

    ruling = "TO-3"
    cli = "play order-card"
    cli_arguments = ("card",)
    action: Literal["order-card"] = "order-card"
    card: str = text(8, "A card of your hand, e.g. KH or 10♥.")


class Lay(_Draws):
    """Lay two cards from your hand face up to act; a third is set aside (TO-4, TO-5)."""

    cli = "play lay"
    cli_arguments = ("cards",)
    action: Literal["lay"] = "lay"
    cards: list[str] = Field(max_length=3, description="Two cards of your hand (all of them when you hold fewer).")


class Draw(_Draws):
    """Draw one card from the deck; over 21 fails at once (TO-4, TO-12)."""

    cli = "play draw"
    action: Literal["draw"] = "draw"


class Stand(_Draws):
    """Stand: your total is read against the targets (TO-4)."""

    cli = "play stand"
    action: Literal["stand"] = "stand"


class Assist(_Draws):
    """Replace the last card laid with a card of your hand, to help (TO-7, TO-13)."""

    ruling = "TO-7"
    awaited = False  # optional: the acting seat's stand resolves the action without it; nobody waits for it
    cli = "play assist"
    action: Literal["assist"] = "assist"
    replace_with: str = text(8, "A card of your hand, e.g. 7H.")


class Hinder(Assist):
    """Replace the last card laid with a card of your hand, to hinder (TO-7, TO-13)."""

    cli = "play hinder"
    action: Literal["hinder"] = "hinder"  # type: ignore[assignment]


class Hold(_Draws):
    """Spend a hold: take your set-aside card, or draw one card to keep or not (TO-8)."""

    ruling = "TO-8"
    cli = "play hold"
    action: Literal["hold"] = "hold"
    set_aside: Bool = Field(False, description="Replace the last card laid with your set-aside card.")
    draw: Bool = Field(False, description="Draw one card; then keep it or discard it.")


class Keep(_Draws):
    """Keep the card drawn for your hold in place of the last card laid, or discard it (TO-8, TO-13)."""

    ruling = "TO-8"
    cli_variants = (("play keep", {"keep": True}), ("play discard", {"keep": False}))
    action: Literal["keep"] = "keep"
    keep: Bool = Field(description="true: it replaces the last card laid; false: it is discarded.")


class Reshuffle(_Draws):
    """Table cards: enter the discards as reshuffled at the table, so the round's refill goes on (TO-9, C-3)."""

    who = "house"
    ruling = "C-3"
    cli = "conflict reshuffle"
    cli_arguments = ("reshuffle",)
    action: Literal["reshuffle"] = "reshuffle"
    reshuffle: list[str] | None = Field(None, max_length=52, description="The discards as reshuffled at the "
                                        "table, top first (C-3).")


class AddModifier(_Move):
    """Add a modifier the House accepts, with its source: -1 lowers both targets, +1 raises them (TO-6, TO-12)."""

    who = "house"
    ruling = "TO-6"
    cli = "modifier add"
    cli_variants = (("modifier easier", {"value": -1}), ("modifier harder", {"value": 1}))
    cli_parsers = {"value": "signed"}
    action: Literal["modifier"] = "modifier"
    value: Int = Field(description="+1 or -1.")
    source: str = text(120, "Where it comes from: a skill, the surroundings, another player.")


class EndConflict(_Move):
    """End the conflict: every hand, the deck order and the secret seed become public (C-5)."""

    who = "house"
    ruling = "C-5"
    cli = "conflict end"
    action: Literal["end"] = "end"
