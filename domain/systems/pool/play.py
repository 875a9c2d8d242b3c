"""Use cases of the Pool (PL-1 … PL-9): handlers of its commands and unit actions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from uuid import UUID

from domain.errors import NotPermitted, RuleViolation
from domain.kernel.commands import Context, Handlers
from domain.seats import player_handle
from domain.systems.pool import commands as cmd
from domain.systems.pool.character import PoolCharacter
from domain.systems.pool.rolls import PoolContest, PoolRoll

if TYPE_CHECKING:
    from domain.application import StakesApplication
    from domain.campaign import Campaign

handles = Handlers()
handles.declare(cmd.AddPlayer)


def character(app: StakesApplication, campaign: Campaign, seat: str) -> PoolCharacter:
    return app.get(PoolCharacter, campaign.character_id(player_handle(seat)), "character")


def _mine(app: StakesApplication, ctx: Context, seat: str | None, doing: str) -> tuple[Campaign, PoolCharacter]:
    campaign = app.campaign(ctx.campaign_id)
    seat = player_handle(seat or ctx.actor.name)
    if ctx.actor.name != seat:
        raise NotPermitted(f"only {seat} may {doing}")
    return campaign, character(app, campaign, seat)


# -- PL-5, PL-6, PL-7 -------------------------------------------------------------------------------------
@handles(cmd.RaiseTrait)
def raise_trait(app: StakesApplication, ctx: Context, command: cmd.RaiseTrait) -> None:
    _, one = _mine(app, ctx, command.seat, "change this character's traits")
    one.raise_trait(command.name, ctx.actor.name, command.new)
    app.save(one)


@handles(cmd.CashInTrait)
def cash_in_trait(app: StakesApplication, ctx: Context, command: cmd.CashInTrait) -> None:
    _, one = _mine(app, ctx, command.seat, "cash in this character's traits")
    one.cash_in(command.name, ctx.actor.name)
    app.save(one)


@handles(cmd.BuyMove)
def buy_move(app: StakesApplication, ctx: Context, command: cmd.BuyMove) -> None:
    _, one = _mine(app, ctx, command.seat, "buy moves for this character")
    one.buy_move(command.name, command.cost, ctx.actor.name)
    app.save(one)


@handles(cmd.OfferHelp)
def offer_help(app: StakesApplication, ctx: Context, command: cmd.OfferHelp) -> None:
    """PL-7: the helper puts dice at another character's disposal for his next roll."""
    campaign, helper = _mine(app, ctx, None, "give this character's dice")
    character(app, campaign, command.to)  # the roller exists
    helper.offer_help(player_handle(command.to), command.dice, ctx.actor.name)
    app.save(helper)


# -- PL-2, PL-3, PL-4, PL-7: a roll --------------------------------------------------------------------
@handles(cmd.RollDice)
def roll(app: StakesApplication, ctx: Context, command: cmd.RollDice) -> UUID:
    campaign, roller = _mine(app, ctx, None, "roll for this character")
    helper_character = None
    helper_dice = 0
    if command.helper:
        helper_character = character(app, campaign, command.helper)
        helper_dice = helper_character.offered_to(roller.seat)
        if not helper_dice:
            raise RuleViolation(f"{command.helper} has not offered you dice; he gives them himself first",
                                ruling="PL-7")
    made = PoolRoll.roll(campaign_id=campaign.id, adventure=campaign.adventure, roller=roller, count=command.count,
                         trait=command.trait, helper=helper_character, helper_dice=helper_dice,
                         secret_seed=ctx.secret or "", seed=command.seed,
                         table=bool(campaign.settings.get("table_dice")), entered=command.dice,
                         actor=ctx.actor.name)
    if made.lost:
        roller.lose(made.id.hex, made.lost, ctx.actor.name)
    if made.gained:
        roller.gain(made.id.hex, made.gained, "a miss: the House narrates", ctx.actor.name)
    touched: list[Any] = [made, roller]
    if helper_character is not None:
        helper_character.use_help(made.id.hex, made.helper_lost, ctx.actor.name)
        touched.append(helper_character)
    app.save(*touched)
    return made.id


@handles(cmd.Choose)
def choose(app: StakesApplication, ctx: Context, campaign: Campaign, unit: PoolRoll, command: cmd.Choose) -> list[Any]:
    if ctx.actor.name != unit.roller:
        raise NotPermitted(f"only {unit.roller} may choose how this roll is narrated")
    unit.choose(command.choice, ctx.actor.name)
    roller = character(app, campaign, unit.roller)
    if unit.gained:
        roller.gain(unit.id.hex, unit.gained, "a hit the House narrates", ctx.actor.name)
    return [unit, roller]


def overturn_roll(app: StakesApplication, ctx: Context, campaign: Campaign, unit: PoolRoll, reason: str) -> list[Any]:
    """C-6: a settled roll is voided and its effects on the pools reversed (never below two dice)."""
    roller = character(app, campaign, unit.roller)
    back = unit.lost - unit.gained
    back = max(back, min(0, 2 - roller.pool))  # the floor of two holds (PL-3)
    touched: list[Any] = [unit, roller]
    helper = character(app, campaign, unit.helper) if unit.helper else None
    unit.overturn(reason, back, unit.helper_lost, ctx.actor.name)
    if back > 0:
        roller.gain(unit.id.hex, back, "overturned", ctx.actor.name)
    elif back < 0:
        roller.lose(unit.id.hex, -back, ctx.actor.name)
    if helper is not None and unit.helper_lost:
        helper.gain(unit.id.hex, unit.helper_lost, "overturned", ctx.actor.name)
        touched.append(helper)
    return touched


def overturn_contest(app: StakesApplication, ctx: Context, campaign: Campaign, contest: PoolContest,
                     reason: str) -> list[Any]:
    """C-6: a settled contest is voided and its effects on both pools reversed (never below two dice, PL-3)."""
    sheets = {d["seat"]: character(app, campaign, d["seat"]) for d in contest.sides.values()}
    back = {seat: max(net, min(0, 2 - sheets[seat].pool)) for seat, net in contest.net_effects().items()}
    contest.overturn(reason, back, ctx.actor.name)
    touched: list[Any] = [contest]
    for seat, count in back.items():
        if count > 0:
            sheets[seat].gain(contest.id.hex, count, "overturned", ctx.actor.name)
        elif count < 0:
            sheets[seat].lose(contest.id.hex, -count, ctx.actor.name)
        if count:
            touched.append(sheets[seat])
    return touched


# -- PL-8, PL-9: opposed rolls ---------------------------------------------------------------------------
@handles(cmd.OpenContest)
def open_contest(app: StakesApplication, ctx: Context, command: cmd.OpenContest) -> UUID:
    campaign, challenger = _mine(app, ctx, None, "oppose for this character")
    other = character(app, campaign, command.opponent)
    contest = PoolContest.open(campaign_id=campaign.id, adventure=campaign.adventure, challenger=challenger.seat,
                               opponent=other.seat, mode=campaign.settings["opposed_mode"],
                               secret_seed=ctx.secret or "", table=bool(campaign.settings.get("table_dice")),
                               actor=ctx.actor.name)
    app.save(contest)
    return contest.id


# -- contest actions: one handler per action, registered in the order the actions are listed ---------------------
def _side(contest: PoolContest, ctx: Context) -> str:
    """The acting seat's side: only the two opposed characters play a contest's moves (PL-8)."""
    side = contest.side_of(ctx.actor.name)
    if side is None:
        raise NotPermitted("only the two opposed characters play a contest", ruling="PL-8")
    return side


def _settle_gains(app: StakesApplication, ctx: Context, campaign: Campaign, contest: PoolContest,
                  touched: list[Any]) -> list[Any]:
    """After any move: a contest settled by it gives its dice to the pools that won them (PL-8, PL-9)."""
    if contest.settled:
        for seat, count in (contest.result or {}).get("gains", {}).items():
            gainer: PoolCharacter | None = next((t for t in touched if isinstance(t, PoolCharacter) and t.seat == seat),
                                                None)
            if gainer is None:
                gainer = character(app, campaign, seat)
                touched.append(gainer)
            gainer.gain(contest.id.hex, count, "a contest lost or missed", ctx.actor.name)
    return touched


@handles(cmd.ContestSeed)
def contest_seed(app: StakesApplication, ctx: Context, campaign: Campaign, contest: PoolContest,
                 command: cmd.ContestSeed) -> list[Any]:
    contest.add_seed(_side(contest, ctx), command.seed, ctx.actor.name)
    return _settle_gains(app, ctx, campaign, contest, [contest])


@handles(cmd.ContestPass)
def contest_pass(app: StakesApplication, ctx: Context, campaign: Campaign, contest: PoolContest,
                 command: cmd.ContestPass) -> list[Any]:
    contest.pass_seed(_side(contest, ctx), ctx.actor.name)
    return [contest]


@handles(cmd.ContestRoll)
def contest_roll(app: StakesApplication, ctx: Context, campaign: Campaign, contest: PoolContest,
                 command: cmd.ContestRoll) -> list[Any]:
    actor = ctx.actor.name
    side = _side(contest, ctx)
    one = character(app, campaign, actor)
    contest.roll(side, one, command.count, command.trait, command.dice, actor)
    lost = contest.sides[side]["last"]["lost"]
    if lost:
        one.lose(contest.id.hex, lost, actor)
    return _settle_gains(app, ctx, campaign, contest, [contest, one])


@handles(cmd.Fold)
def fold(app: StakesApplication, ctx: Context, campaign: Campaign, contest: PoolContest,
         command: cmd.Fold) -> list[Any]:
    contest.answer(_side(contest, ctx), command.action, ctx.actor.name)
    return _settle_gains(app, ctx, campaign, contest, [contest])


@handles(cmd.Push)
def push(app: StakesApplication, ctx: Context, campaign: Campaign, contest: PoolContest,
         command: cmd.Push) -> list[Any]:
    contest.answer(_side(contest, ctx), command.action, ctx.actor.name)
    return _settle_gains(app, ctx, campaign, contest, [contest])


@handles(cmd.Reroll)
def reroll(app: StakesApplication, ctx: Context, campaign: Campaign, contest: PoolContest,
           command: cmd.Reroll) -> list[Any]:
    contest.break_tie(command.action, ctx.actor.name)
    return _settle_gains(app, ctx, campaign, contest, [contest])


@handles(cmd.Interrupt)
def interrupt(app: StakesApplication, ctx: Context, campaign: Campaign, contest: PoolContest,
              command: cmd.Interrupt) -> list[Any]:
    contest.break_tie(command.action, ctx.actor.name)
    return _settle_gains(app, ctx, campaign, contest, [contest])


@handles(cmd.Abandon)  # registered last: an unknown action still names the unit's first ruling
def abandon_contest(app: StakesApplication, ctx: Context, campaign: Campaign, contest: PoolContest,
                    command: cmd.Abandon) -> list[Any]:
    """C-10, C-1: the kernel's abandon; the would-be dice, if a seed fixed them, as many as each pool holds.
    No pool changes: what a roll lost stays lost, nothing is gained."""
    pools = {side: character(app, campaign, data["seat"]).pool for side, data in contest.sides.items()} \
        if contest.abandons_a_draw() else {}
    contest.abandon(command.reason, ctx.actor.name, pools=pools)
    return [contest]
