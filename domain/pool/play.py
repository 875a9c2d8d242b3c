"""Use cases of the Pool (PL-1 … PL-8): a mixin of the application."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from uuid import UUID

from domain.errors import NotPermitted, RuleViolation
from domain.pool.character import PoolCharacter
from domain.pool.rolls import PoolContest, PoolRoll
from domain.retry import retried
from domain.seats import Seat, player_handle

if TYPE_CHECKING:
    from domain.application import StakesApplication
    from domain.campaign import Campaign

CONTEST_ACTIONS = ("seed", "roll", "fold", "push", "reroll", "interrupt")


def _own(actor: Seat, seat: str, doing: str) -> None:
    if actor.name != seat:
        raise NotPermitted(f"only {seat} may {doing}")


class PoolCommands:
    """Mixed into ``StakesApplication``."""

    def _pool(self: StakesApplication, campaign_id: UUID) -> Campaign:
        return self._system(campaign_id, "pool", "the Pool")

    def _pool_character(self: StakesApplication, campaign: Campaign, seat: str) -> PoolCharacter:
        return self._get(PoolCharacter, campaign.character_id(player_handle(seat)), "character")

    def _mine(self: StakesApplication, campaign_id: UUID, actor: Seat, seat: str | None, doing: str):
        campaign = self._pool(campaign_id)
        if actor.is_house:
            raise NotPermitted(f"the House has no character; only a player may {doing}")
        seat = player_handle(seat or actor.name) if not actor.is_house or seat else actor.name
        _own(actor, seat, doing)
        return campaign, self._pool_character(campaign, seat)

    # -- PL-5, PL-6 ----------------------------------------------------------------------------------
    @retried
    def raise_trait(self: StakesApplication, campaign_id: UUID, actor: Seat, seat: str | None, name: str,
                    new: bool | None = None) -> None:
        _, character = self._mine(campaign_id, actor, seat, "change this character's traits")
        character.raise_trait(name, actor.name, new)
        self.save(character)

    @retried
    def cash_in_trait(self: StakesApplication, campaign_id: UUID, actor: Seat, seat: str | None, name: str) -> None:
        _, character = self._mine(campaign_id, actor, seat, "cash in this character's traits")
        character.cash_in(name, actor.name)
        self.save(character)

    @retried
    def buy_move(self: StakesApplication, campaign_id: UUID, actor: Seat, seat: str | None, name: str,
                 cost: int) -> None:
        _, character = self._mine(campaign_id, actor, seat, "buy moves for this character")
        character.buy_move(name, cost, actor.name)
        self.save(character)

    @retried
    def offer_help(self: StakesApplication, campaign_id: UUID, actor: Seat, to: str, dice: int) -> None:
        """PL-7: the helper puts dice at another character's disposal for his next roll."""
        campaign, helper = self._mine(campaign_id, actor, None, "give this character's dice")
        self._pool_character(campaign, to)  # the roller exists
        helper.offer_help(player_handle(to), dice, actor.name)
        self.save(helper)

    # -- PL-2, PL-3, PL-4, PL-7: a roll -------------------------------------------------------------------
    @retried
    def pool_roll(self: StakesApplication, campaign_id: UUID, actor: Seat, count: int, secret_seed: str,
                  trait: str | None = None, helper: str | None = None, seed: str | None = None,
                  dice: list[int] | None = None) -> UUID:
        campaign, roller = self._mine(campaign_id, actor, None, "roll for this character")
        helper_character = None
        helper_dice = 0
        if helper:
            helper_character = self._pool_character(campaign, helper)
            helper_dice = helper_character.offered_to(roller.seat)
            if not helper_dice:
                raise RuleViolation(f"{helper} has not offered you dice; he gives them himself first", ruling="PL-7")
        roll = PoolRoll.roll(campaign_id=campaign.id, adventure=campaign.adventure, roller=roller, count=count,
                             trait=trait, helper=helper_character, helper_dice=helper_dice, secret_seed=secret_seed,
                             seed=seed, table=bool(campaign.settings.get("table_dice")), entered=dice,
                             actor=actor.name)
        if roll.lost:
            roller.lose(roll.id.hex, roll.lost, actor.name)
        if roll.gained:
            roller.gain(roll.id.hex, roll.gained, "a miss: the House narrates", actor.name)
        touched: list[Any] = [roll, roller]
        if helper_character is not None:
            helper_character.use_help(roll.id.hex, roll.helper_lost, actor.name)
            touched.append(helper_character)
        self.save(*touched)
        return roll.id

    def _roll_action(self: StakesApplication, campaign: Campaign, actor: Seat, roll: PoolRoll, action: str,
                     args: dict[str, Any]) -> list[Any]:
        if action != "choose":
            raise RuleViolation(f"a roll takes 'choose' (narrate or house), not {action!r}", ruling="PL-4")
        _own(actor, roll.roller, "choose how this roll is narrated")
        roll.choose(str(args.get("choice", "")), actor.name)
        roller = self._pool_character(campaign, roll.roller)
        if roll.gained:
            roller.gain(roll.id.hex, roll.gained, "a hit the House narrates", actor.name)
        return [roll, roller]

    def _overturn_roll(self: StakesApplication, campaign: Campaign, roll: PoolRoll, reason: str,
                       actor: Seat) -> list[Any]:
        """C-6: a settled roll is voided and its effects on the pools reversed (never below two dice)."""
        roller = self._pool_character(campaign, roll.roller)
        back = roll.lost - roll.gained
        back = max(back, min(0, 2 - roller.pool))  # the floor of two holds (PL-3)
        touched: list[Any] = [roll, roller]
        helper = self._pool_character(campaign, roll.helper) if roll.helper else None
        roll.overturn(reason, back, roll.helper_lost, actor.name)
        if back > 0:
            roller.gain(roll.id.hex, back, "overturned", actor.name)
        elif back < 0:
            roller.lose(roll.id.hex, -back, actor.name)
        if helper is not None and roll.helper_lost:
            helper.gain(roll.id.hex, roll.helper_lost, "overturned", actor.name)
            touched.append(helper)
        return touched

    # -- PL-8: opposed rolls -------------------------------------------------------------------------
    @retried
    def open_contest(self: StakesApplication, campaign_id: UUID, actor: Seat, opponent: str,
                     secret_seed: str) -> UUID:
        campaign, challenger = self._mine(campaign_id, actor, None, "oppose for this character")
        other = self._pool_character(campaign, opponent)
        contest = PoolContest.open(campaign_id=campaign.id, adventure=campaign.adventure, challenger=challenger.seat,
                                   opponent=other.seat, mode=campaign.settings["opposed_mode"],
                                   secret_seed=secret_seed, table=bool(campaign.settings.get("table_dice")),
                                   actor=actor.name)
        self.save(contest)
        return contest.id

    def _contest_action(self: StakesApplication, campaign: Campaign, actor: Seat, contest: PoolContest,
                        action: str, args: dict[str, Any]) -> list[Any]:
        if action not in CONTEST_ACTIONS:
            raise RuleViolation(f"a contest takes one of {', '.join(CONTEST_ACTIONS)}, not {action!r}",
                                ruling="PL-8")
        touched: list[Any] = [contest]
        if action in ("reroll", "interrupt"):
            if not actor.is_house:
                raise NotPermitted("only the House breaks a tie", ruling="PL-8")
            contest.break_tie(action, actor.name)
        else:
            side = contest.side_of(actor.name)
            if side is None:
                raise NotPermitted("only the two opposed characters play a contest", ruling="PL-8")
            if action == "seed":
                contest.add_seed(side, str(args.get("seed", "")), actor.name)
            elif action == "roll":
                character = self._pool_character(campaign, actor.name)
                contest.roll(side, character, args.get("count"), args.get("trait"), args.get("dice"), actor.name)
                lost = contest.sides[side]["last"]["lost"]
                if lost:
                    character.lose(contest.id.hex, lost, actor.name)
                touched.append(character)
            else:
                contest.answer(side, action, actor.name)
        if contest.settled:
            for seat, count in (contest.result or {}).get("gains", {}).items():
                character = next((t for t in touched if isinstance(t, PoolCharacter) and t.seat == seat), None)
                if character is None:
                    character = self._pool_character(campaign, seat)
                    touched.append(character)
                character.gain(contest.id.hex, count, "a contest lost or missed", actor.name)
        return touched

    def _rewind_contest(self: StakesApplication, campaign: Campaign, contest: PoolContest, to_step: int,
                        reason: str, actor: Seat) -> list[Any]:
        """C-6: back to an earlier step of an open contest; dice lost since come back."""
        if not isinstance(to_step, int) or isinstance(to_step, bool) or not 1 <= to_step < contest.version:
            raise RuleViolation(f"rewind to a step from 1 to {contest.version - 1}, not {to_step}", ruling="C-6")
        before = {s: d["lost"] for s, d in contest.sides.items()}
        contest.rewind(to_step, self.repository.get(contest.id, version=to_step), reason, actor.name)
        touched: list[Any] = [contest]
        for side, data in contest.sides.items():
            back = before[side] - data["lost"]
            if back:
                character = self._pool_character(campaign, data["seat"])
                character.gain(contest.id.hex, back, "rewound", actor.name)
                touched.append(character)
        return touched

