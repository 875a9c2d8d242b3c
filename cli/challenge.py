"""``stakes challenge …``: play a Penny Ante challenge at the table (PA-5 … PA-18)."""

from __future__ import annotations

from typing import Annotated, Any, Optional
from uuid import UUID

import typer

from cli import config, output
from cli.options import As, CampaignOpt, ChallengeArg, ChallengeOpt, Fmt
from cli.output import Format, emit
from cli.session import Target, UsageError, run

app = typer.Typer(help="Play a challenge: announce, roll, keep, bet, and settle (PA-5 … PA-18).",
                  no_args_is_help=True)

def side(text: str) -> dict[str, Any]:
    """``ilse`` (a character), ``ilse+tomas`` (an alliance, declarer first) or ``house:Lady Sen`` (an antagonist)."""
    if text.lower().startswith("house:"):
        return {"antagonist": text.split(":", 1)[1].strip()}
    return {"players": [p.strip() for p in text.split("+") if p.strip()]}


def challenge_id(t: Target, text: str | None) -> UUID:
    wanted = (text or config.load().challenge or "").lower().replace("-", "")
    listed = t.backend.challenges(t.campaign_id(), t.seat)
    if not wanted:
        open_ones = [c.id for c in listed if c.phase != "settled"]
        if len(open_ones) == 1:
            return open_ones[0]
        raise UsageError("name the challenge with --challenge ID (several or no challenges are open)")
    matches = [c.id for c in listed if c.id.hex.startswith(wanted)]
    if len(matches) != 1:
        raise UsageError(f"{text!r} names {'no' if not matches else 'more than one'} challenge of this campaign")
    return matches[0]


def numbers(text: str | None) -> list[int] | None:
    if text is None:
        return None
    try:
        return [int(x) for x in text.replace(" ", "").split(",") if x]
    except ValueError:
        raise UsageError(f"{text!r} is not a comma-separated list of numbers") from None


def move(action: str, as_: str | None, campaign: str | None, challenge: str | None, fmt: Format,
         **args: Any) -> None:
    """Play one move; ``dice`` and ``cup`` come as text ("3,5,1") and are read inside the error handling."""

    def act(t: Target) -> None:
        values = {k: numbers(v) if k in ("dice", "cup") and isinstance(v, str) else v for k, v in args.items()}
        emit(t.backend.challenge_action(t.campaign_id(), t.seat, challenge_id(t, challenge), action,
                                        {k: v for k, v in values.items() if v is not None}), fmt, output.resolution)

    run(as_, campaign, act)


@app.command("announce")
def announce(
    challenger: Annotated[str, typer.Option(help="ilse, ilse+tomas (alliance) or 'house:Lady Sen'.")],
    opponent: Annotated[str, typer.Option(help="The other side, written the same way.")],
    ante: Annotated[int, typer.Option(help="PA-6: at least 1; raises are multiples of it.")],
    circumstance: Annotated[Optional[str], typer.Option(help="PA-7: the challenger's first circumstance.")] = None,
    stake: Annotated[Optional[int], typer.Option(help="PA-17: the House's devoted stake (indirect).")] = None,
    table: Annotated[bool, typer.Option("--table", help="C-3: dice rolled at the table, entered by hand.")] = False,
    as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table,
) -> None:
    """Announce a challenge; it becomes the current one."""

    def act(t: Target) -> None:
        view = t.backend.announce_challenge(t.campaign_id(), t.seat, side(challenger), side(opponent), ante, stake,
                                            table, circumstance)
        config.update(challenge=str(view.id))
        emit(view, fmt, output.challenge)

    run(as_, campaign, act)


@app.command("show")
def show(challenge: ChallengeArg = None,
         as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table) -> None:
    """Draw the table as your seat sees it: dice, cup, pot, wagers, turn and legal actions."""
    run(as_, campaign, lambda t: emit(
        t.backend.challenge(t.campaign_id(), t.seat, challenge_id(t, challenge)), fmt, output.resolution))


@app.command("list")
def list_(as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table) -> None:
    """The campaign's challenges."""
    run(as_, campaign, lambda t: emit(t.backend.challenges(t.campaign_id(), t.seat), fmt, output.challenges))


@app.command("verify")
def verify(challenge: ChallengeArg = None,
           as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table) -> None:
    """Recompute every server-rolled die from the revealed seeds (C-4); exits 3 on a mismatch."""

    def act(t: Target) -> None:
        report = t.backend.verify_challenge(t.campaign_id(), t.seat, challenge_id(t, challenge))
        emit(report, fmt, output.verification)
        if report.mismatches or report.commitment_matches is False:
            raise typer.Exit(3)

    run(as_, campaign, act)


@app.command("seed")
def seed(text: str, as_: As = None, campaign: CampaignOpt = None, challenge: ChallengeOpt = None,
         fmt: Fmt = Format.table) -> None:
    """Add your side's seed text before the first roll (C-4)."""
    move("seed", as_, campaign, challenge, fmt, seed=text)


@app.command("circumstance")
def circumstance_(text: str, as_: As = None, campaign: CampaignOpt = None, challenge: ChallengeOpt = None,
                  fmt: Fmt = Format.table) -> None:
    """Declare your side's circumstance for this step (PA-7)."""
    move("circumstance", as_, campaign, challenge, fmt, text=text)


@app.command("double-down")
def double_down(text: str, as_: As = None, campaign: CampaignOpt = None, challenge: ChallengeOpt = None,
                fmt: Fmt = Format.table) -> None:
    """Declare your second circumstance and bar the other side from it by doubling your wager (PA-13)."""
    move("double-down", as_, campaign, challenge, fmt, text=text)


@app.command("declare")
def declare(characteristics: Annotated[Optional[list[str]], typer.Argument(help="0 to 5 names (PA-8).")] = None,
            as_: As = None, campaign: CampaignOpt = None, challenge: ChallengeOpt = None,
            fmt: Fmt = Format.table) -> None:
    """Name the characteristics your side uses, challenger first (PA-8)."""
    move("declare", as_, campaign, challenge, fmt, characteristics=characteristics or [])


@app.command("roll")
def roll(dice: Annotated[Optional[str], typer.Option(help="Table mode: the dice shown, e.g. 3,5,1 (C-3).")] = None,
         as_: As = None, campaign: CampaignOpt = None, challenge: ChallengeOpt = None,
         fmt: Fmt = Format.table) -> None:
    """Roll your dice (paying the ante), or reroll your cup in step 4."""
    move("roll", as_, campaign, challenge, fmt, dice=dice)


@app.command("keep")
def keep(cup: Annotated[Optional[str], typer.Option(help="Die numbers (from 0) to put back in the cup.")] = None,
         as_: As = None, campaign: CampaignOpt = None, challenge: ChallengeOpt = None,
         fmt: Fmt = Format.table) -> None:
    """Reveal the dice you keep and put the others back in the cup (PA-8)."""
    move("keep", as_, campaign, challenge, fmt, cup=cup or "")


def _bet(action: str, doc: str) -> None:
    def command(as_: As = None, campaign: CampaignOpt = None, challenge: ChallengeOpt = None,
                fmt: Fmt = Format.table) -> None:
        move(action, as_, campaign, challenge, fmt)

    command.__doc__ = doc
    app.command(action)(command)


_bet("check", "Stand at equal wagers (PA-9).")
_bet("call", "Match the other side's wager (PA-9).")
_bet("fold", "Give up; the other side takes the pot (PA-10).")
_bet("all-in", "Put in your whole pile when you cannot cover the call (PA-12).")


@app.command("raise")
def raise_(amount: Annotated[int, typer.Argument(help="Pennies above the call, a multiple of the ante.")],
           as_: As = None, campaign: CampaignOpt = None, challenge: ChallengeOpt = None,
           fmt: Fmt = Format.table) -> None:
    """Call and raise by AMOUNT, a whole multiple of the ante (PA-9)."""
    move("raise", as_, campaign, challenge, fmt, amount=amount)


@app.command("lend")
def lend(borrower: str, amount: int, as_: As = None, campaign: CampaignOpt = None, challenge: ChallengeOpt = None,
         fmt: Fmt = Format.table) -> None:
    """From outside the challenge, offer one loan this round to a member of a side (PA-14)."""
    move("lend", as_, campaign, challenge, fmt, borrower=borrower, amount=amount)


@app.command("bid")
def bid(member: str, amount: int, as_: As = None, campaign: CampaignOpt = None, challenge: ChallengeOpt = None,
        fmt: Fmt = Format.table) -> None:
    """Bid once to buy out a bankrupt player (PA-15)."""
    move("bid", as_, campaign, challenge, fmt, member=member, amount=amount)


@app.command("debt")
def debt(as_: As = None, campaign: CampaignOpt = None, challenge: ChallengeOpt = None,
         fmt: Fmt = Format.table) -> None:
    """Bankrupt: take back what you lost as a debt to the winner, who narrates (PA-15, PA-16)."""
    move("debt", as_, campaign, challenge, fmt)


@app.command("buyout")
def buyout(give_up: Annotated[str, typer.Argument(help="The characteristic you give up for good.")],
           as_: As = None, campaign: CampaignOpt = None, challenge: ChallengeOpt = None,
           fmt: Fmt = Format.table) -> None:
    """Bankrupt: accept the highest bid (earliest on a tie) and give up a characteristic (PA-15)."""
    move("buyout", as_, campaign, challenge, fmt, give_up=give_up)


# -- replay and undo (C-2, C-6, C-7): top-level commands, registered in cli.main ------------------
def replay(
    challenge: ChallengeArg = None,
    step: Annotated[Optional[int], typer.Option(help="Show only this step.")] = None,
    interactive: Annotated[bool, typer.Option("--interactive", "-i",
                                              help="Walk the steps: n(ext), p(revious), a step number, q(uit).")] = False,
    as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table,
) -> None:
    """Replay a challenge step by step as your seat may see it (everything once it is settled)."""

    def act(t: Target) -> None:
        ch = challenge_id(t, challenge)
        if not interactive:
            emit(t.backend.replay(t.campaign_id(), t.seat, ch, step), fmt, output.replay)
            return
        full = t.backend.replay(t.campaign_id(), t.seat, ch)
        at = min(max(step or 1, 1), full.total) - 1
        while True:
            output.out.print(output.replay_step(full.steps[at], full.total))
            answer = typer.prompt("n / p / step number / q", default="n").strip().lower()
            if answer in ("q", "quit"):
                return
            if answer.isdigit():
                at = min(max(int(answer), 1), full.total) - 1
            elif answer in ("p", "previous"):
                at = max(at - 1, 0)
            elif at + 1 >= full.total:
                return
            else:
                at += 1

    run(as_, campaign, act)


def undo(
    challenge: ChallengeArg = None,
    to_step: Annotated[int, typer.Option("--to-step", help="The step to go back to (1 is the first event).")] = 1,
    reason: Annotated[str, typer.Option(help="Why the ruling is undone (kept in the history).")] = "",
    as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table,
) -> None:
    """House only: rewind an open challenge or Pool contest to an earlier step (C-6); the same dice come up
    again (C-7)."""
    run(as_, campaign, lambda t: emit(
        t.backend.rewind_challenge(t.campaign_id(), t.seat, challenge_id(t, challenge), to_step, reason),
        fmt, output.resolution))


def overturn(
    challenge: ChallengeArg = None,
    reason: Annotated[str, typer.Option(help="Why the result is overturned (kept in the history).")] = "",
    winner: Annotated[Optional[str], typer.Option(help="challenger or opponent.")] = None,
    void: Annotated[bool, typer.Option("--void", help="Nobody wins: each side takes back its wager.")] = False,
    as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table,
) -> None:
    """House only: overturn a settled challenge with a new winner, or void it; a settled Pool roll is voided,
    its dice given back (C-6)."""
    run(as_, campaign, lambda t: emit(
        t.backend.overturn_challenge(t.campaign_id(), t.seat, challenge_id(t, challenge), winner, void, reason),
        fmt, output.resolution))
