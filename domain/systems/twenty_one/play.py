"""Use cases of Twenty-one (TO-1 … TO-15): handlers of its commands and conflict actions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from uuid import UUID

from domain.errors import RuleViolation
from domain.kernel import common
from domain.kernel.commands import Context, Handlers
from domain.seats import player_handle
from domain.systems.twenty_one import commands as cmd
from domain.systems.twenty_one.character import TwentyOneCharacter
from domain.systems.twenty_one.conflict import Conflict

if TYPE_CHECKING:
    from domain.application import StakesApplication
    from domain.campaign import Campaign

handles = Handlers()
handles.declare(cmd.AddPlayer)


def character(app: StakesApplication, campaign: Campaign, seat: str) -> TwentyOneCharacter:
    return app.get(TwentyOneCharacter, campaign.character_id(player_handle(seat)), "character")


@handles(cmd.GrantHolds)
def grant_holds(app: StakesApplication, ctx: Context, command: cmd.GrantHolds) -> None:
    one = character(app, app.campaign(ctx.campaign_id), command.seat)
    one.grant(command.count, command.skill, ctx.actor.name)
    app.save(one)


@handles(cmd.OpenConflict)
def open_conflict(app: StakesApplication, ctx: Context, command: cmd.OpenConflict) -> UUID:
    campaign = app.campaign(ctx.campaign_id)
    seats = [character(app, campaign, s).seat for s in command.characters]
    conflict = Conflict.open(campaign_id=campaign.id, adventure=campaign.adventure, seats=seats,
                             secret_seed=ctx.secret or "", table=bool(campaign.settings.get("table_cards")),
                             actor=ctx.actor.name)
    app.save(conflict)
    return conflict.id


# -- conflict actions: one handler per action, registered in the order the actions are listed -------------------
# Each plays its move as the acting seat and returns what it touched: the conflict (and a spent hold's sheet).
@handles(cmd.Seed)
def seed(app: StakesApplication, ctx: Context, campaign: Campaign, conflict: Conflict, command: cmd.Seed) -> list[Any]:
    conflict.add_seed(ctx.actor.name, command.seed, ctx.actor.name)
    return [conflict]


@handles(cmd.Pass)
def pass_seed(app: StakesApplication, ctx: Context, campaign: Campaign, conflict: Conflict,
              command: cmd.Pass) -> list[Any]:
    conflict.pass_seed(ctx.actor.name, ctx.actor.name)
    return [conflict]


@handles(cmd.Deal)
def deal(app: StakesApplication, ctx: Context, campaign: Campaign, conflict: Conflict, command: cmd.Deal) -> list[Any]:
    conflict.deal(command.deck, ctx.actor.name)
    return [conflict]


@handles(cmd.CallOrder)
def call_order(app: StakesApplication, ctx: Context, campaign: Campaign, conflict: Conflict,
               command: cmd.CallOrder) -> list[Any]:
    conflict.call_order([player_handle(a) for a in command.actors] if command.actors else None, ctx.actor.name)
    return [conflict]


@handles(cmd.OrderCard)
def order_card(app: StakesApplication, ctx: Context, campaign: Campaign, conflict: Conflict,
               command: cmd.OrderCard) -> list[Any]:
    seat = ctx.actor.name
    conflict.lay_for_order(seat, command.card, command.reshuffle, seat)
    return [conflict]


@handles(cmd.Lay)
def lay(app: StakesApplication, ctx: Context, campaign: Campaign, conflict: Conflict, command: cmd.Lay) -> list[Any]:
    seat = ctx.actor.name
    conflict.lay(seat, command.cards, command.reshuffle, seat)
    return [conflict]


@handles(cmd.Draw)
def draw(app: StakesApplication, ctx: Context, campaign: Campaign, conflict: Conflict, command: cmd.Draw) -> list[Any]:
    seat = ctx.actor.name
    conflict.draw(seat, command.reshuffle, seat)
    return [conflict]


@handles(cmd.Stand)
def stand(app: StakesApplication, ctx: Context, campaign: Campaign, conflict: Conflict,
          command: cmd.Stand) -> list[Any]:
    seat = ctx.actor.name
    conflict.stand(seat, command.reshuffle, seat)
    return [conflict]


@handles(cmd.Assist)
def assist(app: StakesApplication, ctx: Context, campaign: Campaign, conflict: Conflict,
           command: cmd.Assist) -> list[Any]:
    seat = ctx.actor.name
    conflict.replace(seat, command.action, command.replace_with, command.reshuffle, seat)
    return [conflict]


@handles(cmd.Hinder)
def hinder(app: StakesApplication, ctx: Context, campaign: Campaign, conflict: Conflict,
           command: cmd.Hinder) -> list[Any]:
    seat = ctx.actor.name
    conflict.replace(seat, command.action, command.replace_with, command.reshuffle, seat)
    return [conflict]


@handles(cmd.Hold)
def hold(app: StakesApplication, ctx: Context, campaign: Campaign, conflict: Conflict, command: cmd.Hold) -> list[Any]:
    """TO-8: the hold is spent on the conflict and on the sheet, saved together."""
    seat = ctx.actor.name
    if command.set_aside == command.draw:
        raise RuleViolation("a hold takes the set-aside card (set_aside) or draws one (draw): choose one",
                            ruling="TO-8")
    one = character(app, campaign, seat)
    conflict.use_hold(seat, "set-aside" if command.set_aside else "draw", one.holds, command.reshuffle, seat)
    one.spend_hold(conflict.id.hex, seat)
    return [conflict, one]


@handles(cmd.Keep)
def keep(app: StakesApplication, ctx: Context, campaign: Campaign, conflict: Conflict, command: cmd.Keep) -> list[Any]:
    seat = ctx.actor.name
    conflict.keep(seat, command.keep, command.reshuffle, seat)
    return [conflict]


@handles(cmd.Reshuffle)
def reshuffle(app: StakesApplication, ctx: Context, campaign: Campaign, conflict: Conflict,
              command: cmd.Reshuffle) -> list[Any]:
    conflict.reshuffle(command.reshuffle, ctx.actor.name)
    return [conflict]


@handles(cmd.AddModifier)
def add_modifier(app: StakesApplication, ctx: Context, campaign: Campaign, conflict: Conflict,
                 command: cmd.AddModifier) -> list[Any]:
    conflict.add_modifier(command.value, command.source, ctx.actor.name)
    return [conflict]


@handles(cmd.EndConflict)
def end_conflict(app: StakesApplication, ctx: Context, campaign: Campaign, conflict: Conflict,
                 command: cmd.EndConflict) -> list[Any]:
    conflict.end(ctx.actor.name)
    return [conflict]


handles(cmd.Abandon)(common.abandon)  # C-10: the kernel's abandon (registered last: an unknown action names the first's ruling)
