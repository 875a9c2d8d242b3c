"""Use cases of Pulp in the Cards (PU-2 … PU-9, C-3 … C-6): handlers of its commands and unit actions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from uuid import UUID

from domain.errors import NotPermitted, RuleViolation
from domain.kernel import common
from domain.kernel.commands import Context, Handlers
from domain.kernel.resolution import HOUSE
from domain.seats import player_handle
from domain.systems.pulp_cards import commands as cmd
from domain.systems.pulp_cards.character import PulpCharacter
from domain.systems.pulp_cards.combat import PulpCombat
from domain.systems.pulp_cards.deal import PulpDeal
from domain.text import clean_text

if TYPE_CHECKING:
    from domain.application import StakesApplication
    from domain.campaign import Campaign

handles = Handlers()
handles.declare(cmd.AddPlayer)


def character(app: StakesApplication, campaign: Campaign, seat: str) -> PulpCharacter:
    return app.get(PulpCharacter, campaign.character_id(player_handle(seat)), "character")


def _table(campaign: Campaign) -> bool:
    return bool(campaign.settings.get("table_cards"))


@handles(cmd.Deal)
def deal(app: StakesApplication, ctx: Context, command: cmd.Deal) -> UUID:
    """A player deals for his character; the House deals for a character of its own (C-5)."""
    campaign = app.campaign(ctx.campaign_id)
    seat = ctx.actor.name
    if ctx.actor.is_house:
        if not command.character:
            raise RuleViolation("the House deals for a character of its own: name it", ruling="C-5")
        name = clean_text(command.character, "a character's name", max_length=200, ruling="C-5", name=True)
    else:
        if command.character:
            raise NotPermitted("a player deals for his own character", ruling="C-5")
        name = character(app, campaign, seat).name
    made = PulpDeal.deal(campaign_id=campaign.id, adventure=campaign.adventure, seat=seat, character=name,
                         kind="resistance" if command.kind == "resist" else "standard",
                         difficulty=command.difficulty, cut=command.cut, seed=command.seed,
                         secret_seed=ctx.secret or "", table=_table(campaign), entered=command.cards,
                         actor=seat)
    app.save(made)
    return made.id


@handles(cmd.AddNote)
def add_note(app: StakesApplication, ctx: Context, command: cmd.AddNote) -> None:
    campaign = app.campaign(ctx.campaign_id)
    if command.to is None and ctx.actor.is_house:
        raise RuleViolation("the House has no sheet: name the player's sheet with 'to'", ruling="PU-6")
    one = character(app, campaign, command.to or ctx.actor.name)
    one.add_note(command.kind, command.note, ctx.actor.name)
    app.save(one)


@handles(cmd.OpenCombat)
def open_combat(app: StakesApplication, ctx: Context, command: cmd.OpenCombat) -> UUID:
    """Players are named by their seats; any other name is a character of the House's (PU-5)."""
    campaign = app.campaign(ctx.campaign_id)
    combatants = []
    for raw in command.combatants:
        name = clean_text(raw, "a combatant's name", max_length=200, ruling="PU-5", name=True)
        seat = name.lower()
        if seat in campaign.players:
            combatants.append({"name": character(app, campaign, seat).name, "seat": seat})
        else:
            combatants.append({"name": name, "seat": HOUSE})
    combat = PulpCombat.open(campaign_id=campaign.id, adventure=campaign.adventure, combatants=combatants,
                             secret_seed=ctx.secret or "", table=_table(campaign), actor=ctx.actor.name)
    app.save(combat)
    return combat.id


@handles(cmd.Show)
def show(app: StakesApplication, ctx: Context, campaign: Campaign, unit: Any, command: cmd.Show) -> list[Any]:
    if isinstance(unit, PulpDeal):
        if command.number is not None:
            raise RuleViolation("a deal has no attacks to number", ruling="C-5")
        unit.show_deal(ctx.actor.name, ctx.actor.name)
    else:
        unit.show_attack(ctx.actor.name, command.number, ctx.actor.name)
    return [unit]


# -- combat actions: one handler per action, registered in the order the actions are listed ----------------------
@handles(cmd.CombatSeed)
def combat_seed(app: StakesApplication, ctx: Context, campaign: Campaign, unit: PulpCombat,
                command: cmd.CombatSeed) -> list[Any]:
    unit.add_seed(ctx.actor.name, command.seed, ctx.actor.name)
    return [unit]


@handles(cmd.CombatPass)
def combat_pass(app: StakesApplication, ctx: Context, campaign: Campaign, unit: PulpCombat,
                command: cmd.CombatPass) -> list[Any]:
    unit.add_seed(ctx.actor.name, None, ctx.actor.name)
    return [unit]


@handles(cmd.Surprise)
def surprise(app: StakesApplication, ctx: Context, campaign: Campaign, unit: PulpCombat,
             command: cmd.Surprise) -> list[Any]:
    seat = ctx.actor.name
    unit.deal_surprise(seat, command.by, command.difficulty, command.cut, command.cards, seat)
    return [unit]


@handles(cmd.Initiative)
def initiative(app: StakesApplication, ctx: Context, campaign: Campaign, unit: PulpCombat,
               command: cmd.Initiative) -> list[Any]:
    seat = ctx.actor.name
    unit.deal_initiative(seat, command.advantage, command.cards, seat)
    return [unit]


@handles(cmd.Keep)
def keep(app: StakesApplication, ctx: Context, campaign: Campaign, unit: PulpCombat, command: cmd.Keep) -> list[Any]:
    unit.keep_order(ctx.actor.name, ctx.actor.name)
    return [unit]


@handles(cmd.Attack)
def attack(app: StakesApplication, ctx: Context, campaign: Campaign, unit: PulpCombat,
           command: cmd.Attack) -> list[Any]:
    seat = ctx.actor.name
    unit.attack(seat, command.target, command.difficulty, command.cut, command.cards, seat)
    return [unit]


@handles(cmd.Effect)
def effect(app: StakesApplication, ctx: Context, campaign: Campaign, unit: PulpCombat,
           command: cmd.Effect) -> list[Any]:
    seat = ctx.actor.name
    unit.record_effect(seat, command.number, command.effect, seat)
    return [unit]


@handles(cmd.End)
def end(app: StakesApplication, ctx: Context, campaign: Campaign, unit: PulpCombat, command: cmd.End) -> list[Any]:
    seat = ctx.actor.name
    unit.end(seat, command.reason, seat)
    return [unit]


def overturn(app: StakesApplication, ctx: Context, campaign: Campaign, unit: Any, reason: str) -> list[Any]:
    """C-6: a settled deal or combat is voided (it names no winner: the shared ``Overturn`` has none)."""
    unit.overturn(reason, ctx.actor.name)
    return [unit]


handles(cmd.Abandon)(common.abandon)  # C-10: the kernel's abandon (registered last: an unknown action names the first's ruling)
