"""Use cases of Humanity and Beast (BE-1 … BE-12): handlers of its commands and unit actions.

After every move of a roll or conflict the change in what the unit does to the characters
(``BeastRoll.effects``) is mirrored onto their sheets in the same save; a rewind or an overturn is a
change like any other, so the sheets follow it (C-6). Willpower stays within 0 and the maximum (BE-1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

from domain.errors import NotFound, NotPermitted, RuleViolation
from domain.kernel.commands import Context, Handlers
from domain.seats import HOUSE, player_handle
from domain.systems.beast import commands as cmd
from domain.systems.beast import rules
from domain.systems.beast.character import BeastAntagonist, BeastCharacter
from domain.systems.beast.roll import CHALLENGER, OPPONENT, BeastRoll

if TYPE_CHECKING:
    from domain.application import StakesApplication
    from domain.campaign import Campaign

Sheet = BeastCharacter | BeastAntagonist
handles = Handlers()
handles.declare(cmd.AddPlayer, cmd.Overturn)


def character(app: StakesApplication, campaign: Campaign, seat: str) -> BeastCharacter:
    return app.get(BeastCharacter, campaign.character_id(player_handle(seat)), "character")


def antagonist(app: StakesApplication, campaign: Campaign, name: str) -> BeastAntagonist | None:
    try:
        found: BeastAntagonist = app.repository.get(BeastAntagonist.create_id(campaign.id, " ".join(str(name).split())))
    except AggregateNotFoundError:
        return None
    return found if isinstance(found, BeastAntagonist) else None


def anyone(app: StakesApplication, campaign: Campaign, name: str) -> Sheet:
    """An antagonist by name, else a player's character by seat (BE-8, BE-6)."""
    found = antagonist(app, campaign, name)
    if found is not None:
        return found
    try:
        return character(app, campaign, name)
    except (NotFound, RuleViolation):
        raise NotFound(f"no antagonist or player named {name!r} in this campaign") from None


def side_data(one: Sheet) -> dict[str, Any]:
    antag = isinstance(one, BeastAntagonist)
    return {"seats": [HOUSE if antag else one.seat], "name": one.name, "antagonist": antag,
            "character": one.id.hex}


# -- BE-1, BE-8: sheets ----------------------------------------------------------------------------------------
@handles(cmd.CreateAntagonist)
def create_antagonist(app: StakesApplication, ctx: Context, command: cmd.CreateAntagonist) -> str:
    campaign = app.campaign(ctx.campaign_id)
    made = BeastAntagonist.create(campaign.id, command.name, command.humanity, command.willpower, ctx.actor.name)
    if antagonist(app, campaign, made.name) is not None:
        raise RuleViolation(f"the House has an antagonist named {made.name!r} already", ruling="BE-1")
    app.save(made)
    return made.name


@handles(cmd.RestoreWillpower)
def restore_willpower(app: StakesApplication, ctx: Context, command: cmd.RestoreWillpower) -> str:
    """Returns the character's id: its sheet answers the command (issue 31)."""
    campaign = app.campaign(ctx.campaign_id)
    one = anyone(app, campaign, command.character)
    if isinstance(one, BeastAntagonist) and rules.pending(_engaged(app, one), one.id.hex)["willpower"]:
        # its sheet shows a point spent or damage taken in an open unit only once that settles (C-5); a
        # restore now would be undone by it
        raise RuleViolation(f"{one.name} spent or lost Willpower in a roll or conflict still open: restore it "
                            "once that settles", ruling="BE-8")
    one.restore(command.amount, ctx.actor.name)
    app.save(one)
    return one.id.hex


# -- BE-2 … BE-6: opening a roll or a conflict ---------------------------------------------------------------
def _open(app: StakesApplication, ctx: Context, campaign: Campaign, kind: str, sides: dict[str, Sheet],
          difficulty: Any, minimum: dict[str, Any]) -> BeastRoll:
    return BeastRoll.open(campaign_id=campaign.id, adventure=campaign.adventure, kind=kind, difficulty=difficulty,
                          minimum=minimum, check_mode=campaign.settings["check_mode"],
                          table=bool(campaign.settings.get("table_dice")), secret_seed=ctx.secret or "",
                          sides={s: side_data(one) for s, one in sides.items()}, actor=ctx.actor.name)


@handles(cmd.Act)
def act(app: StakesApplication, ctx: Context, command: cmd.Act) -> UUID:
    campaign = app.campaign(ctx.campaign_id)
    roller = character(app, campaign, ctx.actor.name)
    unit = _open(app, ctx, campaign, "action", {CHALLENGER: roller}, command.difficulty,
                 {"humanity": command.min_humanity, "beast": command.min_beast})
    unit.verify_can_ever_roll(CHALLENGER, roller.values(), roller.name)  # BE-9: a lost character acts no more
    if command.seed:
        unit.add_seed(CHALLENGER, command.seed, ctx.actor.name)
    touched = _move(unit, {CHALLENGER: roller}, ctx, lambda sheets: unit.roll(
        CHALLENGER, sheets[CHALLENGER], command.humanity, command.beast, command.willpower, command.dice,
        ctx.actor.name))
    app.save(*touched)
    return unit.id


@handles(cmd.OpenConflict)
def open_conflict(app: StakesApplication, ctx: Context, command: cmd.OpenConflict) -> UUID:
    campaign = app.campaign(ctx.campaign_id)
    if ctx.actor.is_house and not command.player:
        raise RuleViolation("the House names the player who faces the conflict (--player)", ruling="BE-6")
    if not ctx.actor.is_house and command.player and player_handle(command.player) != ctx.actor.name:
        raise NotPermitted("a player opens a conflict for his own character", ruling="C-1")
    challenger = character(app, campaign, command.player or ctx.actor.name)
    sides = {CHALLENGER: challenger, OPPONENT: anyone(app, campaign, command.against)}
    if isinstance(sides[OPPONENT], BeastAntagonist) and not ctx.actor.is_house and \
            (command.min_humanity or command.min_beast):
        # C-5: whether the antagonist could meet a minimum hangs on its hidden split; a refusal (or a conflict
        # left waiting for its roll) would tell it. Refused on the request alone: the House sets such minimums.
        raise RuleViolation("a player's conflict against the House's antagonist asks no minimum of dice: the "
                            "House opens one that does", ruling="BE-2")
    unit = _open(app, ctx, campaign, "conflict", sides, None,
                 {"humanity": command.min_humanity, "beast": command.min_beast})
    against = sides[OPPONENT]
    if isinstance(against, BeastAntagonist) and against.engaged:
        # one open conflict at a time: what one does to it reaches its sheet when it settles (C-5), and a second
        # would either count a change nobody may see yet or show it in its own result
        raise RuleViolation(f"{against.name} is in a conflict still open; open this one when it settles",
                            ruling="BE-6")
    for side, one in sides.items():  # BE-9, BE-2: no conflict a side could never roll in
        unit.verify_can_ever_roll(side, _values(unit, {side: one})[side], one.name)
    if isinstance(against, BeastAntagonist):
        against.engage(unit.id.hex, ctx.actor.name)
    app.save(unit, against)
    return unit.id


# -- moves -----------------------------------------------------------------------------------------------------
def sheets_of(app: StakesApplication, unit: BeastRoll) -> dict[str, Sheet]:
    return {side: app.repository.get(UUID(data["character"])) for side, data in unit.sides.items()}


def mirror(unit: BeastRoll, ones: dict[str, Sheet], before: dict[str, dict[str, int]], why: str,
           actor: str, after: dict[str, dict[str, int]] | None = None) -> list[Any]:
    """Apply the change in ``unit.shown_effects()`` (or ``after``, for the sides of ``ones``) since ``before`` to
    the characters, within 0 and the maximum (BE-1, C-6); returns the unit and the characters changed. An
    antagonist's change waits for the settlement (C-5)."""
    touched: list[Any] = [unit]
    for side, now in (unit.shown_effects() if after is None else after).items():
        one = ones[side]
        willpower = now["willpower"] - before[side]["willpower"]
        humanity = now["humanity"] - before[side]["humanity"]
        willpower = max(-one.willpower, min(willpower, one.willpower_max - one.willpower))
        humanity = max(-one.humanity, min(humanity, 10 - one.humanity))
        if willpower or humanity:
            settled_now = unit.sides[side]["antagonist"] and why not in ("rewound", "overturned")
            one.adjust(unit.id.hex, willpower, humanity, "settled" if settled_now else why, actor)
            touched.append(one)
    return touched


def _engaged(app: StakesApplication, one: BeastAntagonist) -> list[BeastRoll]:
    """The open conflicts ``one`` is a side of (one at most, since this rule; several in older stores)."""
    return [app.repository.get(UUID(unit)) for unit in one.engaged]


def _values(unit: BeastRoll, ones: dict[str, Sheet]) -> dict[str, dict[str, int]]:
    """Each side's values as the rules see them now (``BeastRoll.values_now``)."""
    return unit.values_now({side: one.values() for side, one in ones.items()})


def _move(unit: BeastRoll, ones: dict[str, Sheet], ctx: Context, move: Any, why: str = "roll") -> list[Any]:
    """One move, mirrored onto the sheets; a player who can no longer reroll keeps his dice at once; the
    unit resolves when every side has decided, and its damage is mirrored too (BE-4 … BE-7)."""
    actor = ctx.actor.name
    before = unit.shown_effects()
    move(_values(unit, ones))
    touched = mirror(unit, ones, before, why, actor)
    for side, data in unit.sides.items():
        if data["roll"] is not None and not data["antagonist"] and not data["decided"]:
            try:
                unit.verify_may_reroll(side, ones[side].values())
            except RuleViolation:
                unit.decide(side, ones[side].values(), None, None, actor)
    if unit.ready():
        before = unit.shown_effects()
        unit.resolve(_values(unit, ones), actor)
        touched += mirror(unit, ones, before, "conflict damage", actor)
    return list({id(t): t for t in touched}.values())


def _side(unit: BeastRoll, ctx: Context, wanted: str | None) -> str:
    mine = unit.sides_of(ctx.actor.name)
    if wanted is not None:
        if wanted not in unit.sides:
            raise RuleViolation(f"this {unit.kind} has no {wanted} side", ruling="BE-6")
        return wanted
    if len(mine) != 1:
        raise NotPermitted("only a character of this roll or conflict plays it", ruling="C-1")
    return mine[0]


def _acting(unit: BeastRoll, ctx: Context, wanted: str | None, house_may: bool = False) -> str:
    """The side a move is played for (C-1): the acting seat's own, or the one named; only its seat plays it
    (and, for ``house_may``, the House too: a Humanity check it records)."""
    side = _side(unit, ctx, wanted)
    if side not in unit.sides_of(ctx.actor.name) and not (ctx.actor.is_house and house_may):
        raise NotPermitted(f"only the {side}'s seat plays that side", ruling="C-1")
    return side


def _released(unit: BeastRoll, ones: dict[str, Sheet], touched: list[Any], actor: str) -> list[Any]:
    """After a roll, a decision or a check: a unit settled by it frees its antagonist, whose sheet shows what it
    did now (C-5); each aggregate once."""
    if unit.settled:
        for one in ones.values():
            if isinstance(one, BeastAntagonist) and unit.id.hex in one.engaged:
                one.release(unit.id.hex, actor)
                touched.append(one)
    return list({id(t): t for t in touched}.values())


# -- unit actions: one handler per action, registered in the order the actions are listed -----------------------
@handles(cmd.Seed)
def seed(app: StakesApplication, ctx: Context, campaign: Campaign, unit: BeastRoll, command: cmd.Seed) -> list[Any]:
    """A seed before the first roll; or the fresh seed after every side decided, with which the antagonist's
    reroll is drawn and the outcome made, in the same write (C-9, C-10)."""
    actor = ctx.actor.name
    side = _acting(unit, ctx, command.side)
    if side not in unit.owed_fresh():
        unit.add_seed(side, command.seed, actor)
        return [unit]
    ones = sheets_of(app, unit)
    touched = _move(unit, ones, ctx, lambda s: unit.add_seed(side, command.seed, actor))
    return _released(unit, ones, touched, actor)


@handles(cmd.Pass)
def pass_seed(app: StakesApplication, ctx: Context, campaign: Campaign, unit: BeastRoll,
              command: cmd.Pass) -> list[Any]:
    unit.pass_seed(_acting(unit, ctx, command.side), ctx.actor.name)
    return [unit]


@handles(cmd.Prepare)
def prepare(app: StakesApplication, ctx: Context, campaign: Campaign, unit: BeastRoll,
            command: cmd.Prepare) -> list[Any]:
    """C-9: the antagonist's split, before the players' input."""
    side = _acting(unit, ctx, command.side)
    ones = sheets_of(app, unit)
    unit.prepare(side, _values(unit, {side: ones[side]})[side], command.humanity, command.beast,
                 command.willpower, ctx.actor.name)
    return [unit]


@handles(cmd.Roll)
def roll(app: StakesApplication, ctx: Context, campaign: Campaign, unit: BeastRoll, command: cmd.Roll) -> list[Any]:
    actor = ctx.actor.name
    side = _acting(unit, ctx, command.side)
    ones = sheets_of(app, unit)
    touched = _move(unit, ones, ctx, lambda s: unit.roll(side, s[side], command.humanity, command.beast,
                                                         command.willpower, command.dice, actor))
    return _released(unit, ones, touched, actor)


@handles(cmd.Reroll)
def reroll(app: StakesApplication, ctx: Context, campaign: Campaign, unit: BeastRoll,
           command: cmd.Reroll) -> list[Any]:
    actor = ctx.actor.name
    side = _acting(unit, ctx, command.side)
    ones = sheets_of(app, unit)
    touched = _move(unit, ones, ctx, lambda s: unit.decide(side, s[side], command.die, command.dice, actor))
    return _released(unit, ones, touched, actor)


@handles(cmd.Keep)
def keep(app: StakesApplication, ctx: Context, campaign: Campaign, unit: BeastRoll, command: cmd.Keep) -> list[Any]:
    actor = ctx.actor.name
    side = _acting(unit, ctx, command.side)
    ones = sheets_of(app, unit)
    touched = _move(unit, ones, ctx, lambda s: unit.decide(side, s[side], None, None, actor))
    return _released(unit, ones, touched, actor)


@handles(cmd.Check)
def check(app: StakesApplication, ctx: Context, campaign: Campaign, unit: BeastRoll, command: cmd.Check) -> list[Any]:
    """BE-7: the House may record the check of any side (manual mode)."""
    actor = ctx.actor.name
    side = _acting(unit, ctx, command.side, house_may=True)
    ones = sheets_of(app, unit)
    touched = _move(unit, ones, ctx, lambda s: unit.check(side, s[side], command.outcome, ctx.actor.is_house,
                                                          command.dice, actor), "Humanity check")
    return _released(unit, ones, touched, actor)


@handles(cmd.Reveal)
def reveal(app: StakesApplication, ctx: Context, campaign: Campaign, unit: BeastRoll,
           command: cmd.Reveal) -> list[Any]:
    unit.reveal(_acting(unit, ctx, command.side), ctx.actor.name)
    return [unit]


# -- C-6: undo ---------------------------------------------------------------------------------------------------
def overturn(app: StakesApplication, ctx: Context, campaign: Campaign, unit: BeastRoll, winner: str | None,
             void: bool, reason: str) -> list[Any]:
    ones = sheets_of(app, unit)
    for one in ones.values():
        if isinstance(one, BeastAntagonist) and any(u != unit.id.hex for u in one.engaged):
            # its sheet must not move under a conflict still open: a choice there bound by a rewind (a reroll,
            # C-9) could become one it cannot make (no Willpower left), and nothing else may be made
            raise RuleViolation(f"{one.name} is in a conflict still open: overturn this once that settles",
                                ruling="C-6")
    before = unit.shown_effects()
    unit.overturn(winner, void, reason, ctx.actor.name)
    return mirror(unit, ones, before, "overturned", ctx.actor.name)


@handles(cmd.Abandon)  # registered last: an unknown action still names the unit's first ruling
def abandon(app: StakesApplication, ctx: Context, campaign: Campaign, unit: BeastRoll,
            command: cmd.Abandon) -> list[Any]:
    """C-10, C-1: the kernel's abandon. The sheets show what the unit did up to now (an antagonist's Willpower
    spent in secret appears now, C-5), and no damage; an antagonist is free for another conflict."""
    ones = sheets_of(app, unit)
    before = unit.shown_effects()
    unit.abandon(command.reason, ctx.actor.name)
    touched = mirror(unit, ones, before, "abandoned", ctx.actor.name)
    for one in ones.values():
        if isinstance(one, BeastAntagonist) and unit.id.hex in one.engaged:
            one.release(unit.id.hex, ctx.actor.name)
            touched.append(one)
    return list({id(t): t for t in touched}.values())
