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


def rewind(app: StakesApplication, ctx: Context, campaign: Campaign, conflict: Conflict, to_step: int,
           reason: str) -> list[Any]:
    """C-6: back to an earlier step of an open conflict; holds spent since come back to their characters."""
    if isinstance(to_step, bool) or not isinstance(to_step, int) or not 1 <= to_step < conflict.version:
        raise RuleViolation(f"rewind to a step from 1 to {conflict.version - 1}, not {to_step}", ruling="C-6")
    past: Any = app.repository.get(conflict.id, version=to_step)
    conflict.verify_rewind(to_step, past, reason)  # a settled conflict, a step inside one move (C-6, C-7)
    # C-6, TO-8: the sheet follows the conflict. The holds spent at ``to_step`` (in whichever timeline that step
    # belongs to) against those spent now: fewer come back, more are spent again.
    deltas = {seat: conflict.holds_spent.get(seat, 0) - past.holds_spent.get(seat, 0)
              for seat in sorted({*conflict.holds_spent, *past.holds_spent})}
    sheets = {seat: character(app, campaign, seat) for seat, delta in deltas.items() if delta}
    for seat, delta in deltas.items():
        if delta < 0:
            sheets[seat].check_retake(-delta)
    conflict.rewind(to_step, past, reason, ctx.actor.name)
    touched: list[Any] = [conflict]
    for seat, one in sheets.items():
        if deltas[seat] > 0:
            one.return_holds(conflict.id.hex, deltas[seat], "rewound", ctx.actor.name)
        else:
            one.retake_holds(conflict.id.hex, -deltas[seat], "rewound", ctx.actor.name)
        touched.append(one)
    return touched


handles(cmd.Abandon)(common.abandon)  # C-10: the kernel's abandon (registered last: an unknown action names the first's ruling)
