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


@handles(cmd.Seed, cmd.Pass, cmd.Deal, cmd.CallOrder, cmd.OrderCard, cmd.Lay, cmd.Draw, cmd.Stand, cmd.Assist, cmd.Hinder,
         cmd.Hold, cmd.Keep, cmd.Reshuffle, cmd.AddModifier, cmd.EndConflict)
def move(app: StakesApplication, ctx: Context, campaign: Campaign, conflict: Conflict, command: Any) -> list[Any]:
    seat = ctx.actor.name
    touched: list[Any] = [conflict]
    entered = getattr(command, "reshuffle", None)
    if isinstance(command, cmd.Seed):
        conflict.add_seed(seat, command.seed, seat)
    elif isinstance(command, cmd.Pass):
        conflict.pass_seed(seat, seat)
    elif isinstance(command, cmd.Deal):
        conflict.deal(command.deck, seat)
    elif isinstance(command, cmd.CallOrder):
        conflict.call_order([player_handle(a) for a in command.actors] if command.actors else None, seat)
    elif isinstance(command, cmd.OrderCard):
        conflict.lay_for_order(seat, command.card, entered, seat)
    elif isinstance(command, cmd.Lay):
        conflict.lay(seat, command.cards, entered, seat)
    elif isinstance(command, cmd.Draw):
        conflict.draw(seat, entered, seat)
    elif isinstance(command, cmd.Stand):
        conflict.stand(seat, entered, seat)
    elif isinstance(command, cmd.Assist):  # and Hinder
        conflict.replace(seat, command.action, command.replace_with, entered, seat)
    elif isinstance(command, cmd.Hold):
        if command.set_aside == command.draw:
            raise RuleViolation("a hold takes the set-aside card (set_aside) or draws one (draw): choose one",
                                ruling="TO-8")
        one = character(app, campaign, seat)
        conflict.use_hold(seat, "set-aside" if command.set_aside else "draw", one.holds, entered, seat)
        one.spend_hold(conflict.id.hex, seat)
        touched.append(one)
    elif isinstance(command, cmd.Keep):
        conflict.keep(seat, command.keep, entered, seat)
    elif isinstance(command, cmd.Reshuffle):
        conflict.reshuffle(entered, seat)
    elif isinstance(command, cmd.AddModifier):
        conflict.add_modifier(command.value, command.source, seat)
    else:
        conflict.end(seat)
    return touched


handles(cmd.Abandon)(common.abandon)  # C-10: the kernel's abandon (registered last: an unknown action names the first's ruling)
