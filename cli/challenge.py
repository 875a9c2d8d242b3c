"""``stakes challenge show|list|verify`` and ``stakes replay``: reading any unit of resolution (C-1) of any
system. Its moves are generated from its system's commands (``cli/commands.py``)."""

from __future__ import annotations

from typing import Annotated

import typer

from cli.commands import settled_unit, unit_id
from cli.options import As, CampaignOpt, ChallengeArg, ChallengeOpt, Fmt, Format, group
from cli.session import Target, run

app = group(help="Challenges, rolls and contests: announce, show, play, verify (every system).")


@app.command("show")
def show(challenge: ChallengeArg = None, as_: As = None, campaign: CampaignOpt = None,
         fmt: Fmt = Format.table, named: ChallengeOpt = None) -> None:
    """Draw the table as your seat sees it: what you may see, whose turn it is, the legal actions."""
    from cli import output

    challenge = challenge or named  # the id as an argument, or as -C like the moves take it

    run(as_, campaign, lambda t: output.emit(
        t.backend.challenge(t.campaign_id(), t.seat, unit_id(t, challenge, settled=True)), fmt, output.resolution), fmt)


@app.command("list")
def list_(as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table,
          after: Annotated[int, typer.Option(min=0, help="Start after this position (the last one shown).")] = 0,
          limit: Annotated[int, typer.Option(min=1, max=500, help="At most this many.")] = 100,
          open_only: Annotated[bool, typer.Option("--open", help="Only those not yet settled.")] = False) -> None:
    """The campaign's challenges, rolls and contests, a page at a time, oldest first."""
    from cli import output

    run(as_, campaign, lambda t: output.emit(t.backend.challenges(t.campaign_id(), t.seat, after, limit, open_only),
                                             fmt, lambda items: output.challenges(items, limit)), fmt)


@app.command("verify")
def verify(challenge: ChallengeArg = None, as_: As = None, campaign: CampaignOpt = None,
           fmt: Fmt = Format.table, named: ChallengeOpt = None) -> None:
    """Recompute every server-drawn result from the revealed seeds (C-4); exits 3 on a mismatch."""
    from cli import output

    challenge = challenge or named  # the id as an argument, or as -C like the moves take it

    def act(t: Target) -> None:
        report = t.backend.verify_challenge(t.campaign_id(), t.seat, settled_unit(t, challenge, "Verifying", fmt is Format.table))
        output.emit(report, fmt, output.verification)
        if report.mismatches or report.commitment_matches is False:
            raise typer.Exit(3)

    run(as_, campaign, act, fmt)


def replay(
    challenge: ChallengeArg = None,
    step: Annotated[int | None, typer.Option(min=1, help="Show only this step (from 1).")] = None,
    interactive: Annotated[bool, typer.Option("--interactive", "-i",
                                              help="Walk the steps: n(ext), p(revious), a step number, q(uit).")] = False,
    as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table, named: ChallengeOpt = None,
) -> None:
    """Replay a challenge, roll or contest step by step as your seat may see it (everything once settled)."""
    from cli import output

    challenge = challenge or named  # the id as an argument, or as -C like the moves take it

    def act(t: Target) -> None:
        ch = settled_unit(t, challenge, "Replaying", fmt is Format.table)
        if fmt is not Format.table:
            output.emit(t.backend.replay(t.campaign_id(), t.seat, ch, step), fmt)
            return
        from cli import tables
        from cli.inert import inert

        names = t.names()  # names, not handles
        # the whole replay, neutralised as every text the CLI shows: its phrases learn who plays each side from
        # the opening step, whichever step is shown (cli/inert.py)
        full = inert(t.backend.replay(t.campaign_id(), t.seat, ch))
        said = tables.said_of(names, full.steps, full.kind)
        if not interactive:
            output.emit(t.backend.replay(t.campaign_id(), t.seat, ch, step) if step else full, fmt,
                        lambda r: output.replay(r, names, said))
            return
        at = min(max(step or 1, 1), full.total) - 1
        while True:
            output.show(full.steps[at], lambda s: output.replay_step(s, full.total, full.kind, full.challenge_id,
                                                                     said))  # inert (cli/inert.py)
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

    run(as_, campaign, act, fmt)
