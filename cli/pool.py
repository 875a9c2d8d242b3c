"""The Pool's commands (PL-1 … PL-8): roll, choose, trait, move, help-roll, oppose, contest."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from cli import config, output
from cli.challenge import move, numbers
from cli.options import As, CampaignOpt, ChallengeOpt, Fmt
from cli.output import Format, emit
from cli.session import Target, run

trait_app = typer.Typer(help="Traits (PL-5): buy a new one at +1, raise one a step, or cash one in.",
                        no_args_is_help=True)
move_app = typer.Typer(help="Moves bought with dice (PL-6).", no_args_is_help=True)
contest_app = typer.Typer(help="An opposed roll's moves (PL-8).", no_args_is_help=True)


def roll(
    count: Annotated[int, typer.Argument(help="Dice from your pool, at least 2 (PL-2).")],
    trait: Annotated[Optional[str], typer.Option(help="The one trait added to the two highest dice.")] = None,
    helper: Annotated[Optional[str], typer.Option(help="A player who offered you dice (PL-7).")] = None,
    seed: Annotated[Optional[str], typer.Option(help="Your own seed text (C-4).")] = None,
    dice: Annotated[Optional[str], typer.Option(help="Table mode: the dice shown, e.g. 3,5,1 (C-3).")] = None,
    as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table,
) -> None:
    """Roll dice from your pool (PL-2): two highest plus a trait; 5s and 6s are lost (PL-3)."""

    def act(t: Target) -> None:
        view = t.backend.pool_roll(t.campaign_id(), t.seat, count, trait, helper, seed,
                                   numbers(dice) if dice is not None else None)
        config.update(challenge=str(view.id))
        emit(view, fmt, output.resolution)

    run(as_, campaign, act)


def choose(
    choice: Annotated[str, typer.Argument(help="narrate, or house (the House narrates and you gain a die).")],
    as_: As = None, campaign: CampaignOpt = None, challenge: ChallengeOpt = None, fmt: Fmt = Format.table,
) -> None:
    """After a hit, choose who narrates (PL-4)."""
    move("choose", as_, campaign, challenge, fmt, choice=choice)


def help_roll(
    roller: Annotated[str, typer.Argument(help="The player you help.")],
    dice: Annotated[int, typer.Argument(help="Dice you give him for his next roll, keeping two (PL-7).")],
    as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table,
) -> None:
    """Help another character: give him dice for his next roll (PL-7)."""
    run(as_, campaign, lambda t: emit(t.backend.offer_help(t.campaign_id(), t.seat, roller, dice), fmt,
                                      output.sheet))


def oppose(
    opponent: Annotated[str, typer.Argument(help="The player whose character you oppose.")],
    as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table,
) -> None:
    """Open an opposed roll against another character (PL-8); then 'stakes contest roll N'."""

    def act(t: Target) -> None:
        view = t.backend.open_contest(t.campaign_id(), t.seat, opponent)
        config.update(challenge=str(view.id))
        emit(view, fmt, output.resolution)

    run(as_, campaign, act)


def _sheet_command(method: str, doc: str, app: typer.Typer, name: str, **extra: object) -> None:
    def command(trait_name: Annotated[str, typer.Argument(metavar="NAME")], as_: As = None,
                campaign: CampaignOpt = None, fmt: Fmt = Format.table) -> None:
        run(as_, campaign, lambda t: emit(getattr(t.backend, method)(t.campaign_id(), t.seat, None, trait_name,
                                                                     **extra), fmt, output.sheet))

    command.__doc__ = doc
    app.command(name)(command)


_sheet_command("raise_trait", "Buy a new trait at +1 (PL-5).", trait_app, "buy", new=True)
_sheet_command("raise_trait", "Raise a trait one step at the escalating cost (PL-5).", trait_app, "raise", new=False)
_sheet_command("cash_in_trait", "Erase a trait and add its rating to your pool (PL-5).", trait_app, "cash-in")


@move_app.command("buy")
def buy_move(name: str, cost: Annotated[int, typer.Argument(help="2, 5 or 10 dice.")], as_: As = None,
             campaign: CampaignOpt = None, fmt: Fmt = Format.table) -> None:
    """Buy a move with dice, as the table agrees (PL-6)."""
    run(as_, campaign, lambda t: emit(t.backend.buy_move(t.campaign_id(), t.seat, None, name, cost), fmt, output.sheet))


@contest_app.command("roll")
def contest_roll(
    count: Annotated[int, typer.Argument(help="Dice from your pool, at least 2.")],
    trait: Annotated[Optional[str], typer.Option(help="The one trait added.")] = None,
    dice: Annotated[Optional[str], typer.Option(help="Table mode: the dice shown (C-3).")] = None,
    as_: As = None, campaign: CampaignOpt = None, challenge: ChallengeOpt = None, fmt: Fmt = Format.table,
) -> None:
    """Roll your side of the contest this round."""
    move("roll", as_, campaign, challenge, fmt, count=count, trait=trait, dice=dice)


def _contest_command(action: str, doc: str) -> None:
    def command(as_: As = None, campaign: CampaignOpt = None, challenge: ChallengeOpt = None,
                fmt: Fmt = Format.table) -> None:
        move(action, as_, campaign, challenge, fmt)

    command.__doc__ = doc
    contest_app.command(action)(command)


_contest_command("fold", "In a stalemate, give up (and gain 2 dice, as on a miss).")
_contest_command("push", "In a stalemate, push on: both roll again.")
_contest_command("reroll", "House: on an exact tie (highest mode), ask for a reroll.")
_contest_command("interrupt", "House: on an exact tie (highest mode), narrate an interruption.")


@contest_app.command("seed")
def contest_seed(text: str, as_: As = None, campaign: CampaignOpt = None, challenge: ChallengeOpt = None,
                 fmt: Fmt = Format.table) -> None:
    """Add your seed text before the first roll (C-4)."""
    move("seed", as_, campaign, challenge, fmt, seed=text)
