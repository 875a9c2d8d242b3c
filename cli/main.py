"""``stakes``: one command group per noun; every read takes ``--format json``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional
from uuid import UUID

import typer

from adapters.service import Stakes
from adapters.settings import Settings
from cli import config, output
from cli.options import As, CampaignOpt, Fmt
from cli.output import Format, emit
from cli.session import GLOBAL, Target, UsageError, reported, run

app = typer.Typer(name="stakes", help="The campaign ledger for tabletop role-playing.", no_args_is_help=True,
                  pretty_exceptions_enable=False)
campaign_app = typer.Typer(help="Create, show and choose campaigns.", no_args_is_help=True)
player_app = typer.Typer(help="Seat players (House only) and list them.", no_args_is_help=True)
characteristic_app = typer.Typer(help="Buy characteristics (PA-2).", no_args_is_help=True)
adventure_app = typer.Typer(help="Start and end adventures (PA-3).", no_args_is_help=True)
antagonist_app = typer.Typer(help="The House's antagonists and obstacles (PA-4).", no_args_is_help=True)
loan_app = typer.Typer(help="Loans between players (PA-14).", no_args_is_help=True)
projections_app = typer.Typer(help="Maintain the read models.", no_args_is_help=True)
audit_app = typer.Typer(help="Prove the log untampered (C-2).", no_args_is_help=True)
from cli import challenge as challenge_cli  # noqa: E402
from cli import pool as pool_cli  # noqa: E402

app.add_typer(challenge_cli.app, name="challenge")
app.add_typer(pool_cli.trait_app, name="trait")
app.add_typer(pool_cli.move_app, name="move")
app.add_typer(pool_cli.contest_app, name="contest")
for command, name in ((pool_cli.roll, "roll"), (pool_cli.choose, "choose"), (pool_cli.help_roll, "help-roll"),
                      (pool_cli.oppose, "oppose")):
    app.command(name)(command)
for command in (challenge_cli.replay, challenge_cli.undo, challenge_cli.overturn):
    app.command(command.__name__)(command)
for sub, name in ((campaign_app, "campaign"), (player_app, "player"), (characteristic_app, "characteristic"),
                  (adventure_app, "adventure"), (antagonist_app, "antagonist"), (loan_app, "loan"),
                  (projections_app, "projections"), (audit_app, "audit")):
    app.add_typer(sub, name=name)

@app.callback()
def main(
    server: Annotated[Optional[str], typer.Option(envvar="STAKES_SERVER", help="Use a running server at this URL.")] = None,
    token: Annotated[Optional[str], typer.Option(envvar="STAKES_TOKEN", help="Seat token for --server.")] = None,
) -> None:
    GLOBAL.server, GLOBAL.token = server, token


def _loan_id(target: Target, text: str) -> UUID:
    """A loan id, or a unique prefix of one as shown in tables."""
    try:
        return UUID(text)
    except ValueError:
        pass
    wanted = text.lower().replace("-", "")
    register = target.backend.debts(target.campaign_id(), target.seat)
    matches = [loan.loan_id for loan in register.loans if loan.loan_id.hex.startswith(wanted)]
    if len(wanted) < 4:
        raise UsageError(f"{text!r} is too short; give at least 4 characters of the loan id")
    if len(matches) != 1:
        raise UsageError(f"{text!r} names {'no' if not matches else 'more than one'} loan; give more of its id")
    return matches[0]


# -- campaigns -------------------------------------------------------------------
@campaign_app.command("create")
def campaign_create(
    name: str,
    system: Annotated[str, typer.Option(help="penny-ante or pool (the others are not supported yet).")] = "penny-ante",
    starting_pile: Annotated[Optional[int], typer.Option(help="PA-1: at least 25 (default 25).")] = None,
    antagonist_cap: Annotated[Optional[int], typer.Option(help="PA-4: most pennies one antagonist may hold.")] = None,
    starting_pool: Annotated[Optional[int], typer.Option(help="PL-1: dice at creation (default 12).")] = None,
    opposed_mode: Annotated[Optional[str], typer.Option(help="PL-8: tiers (default) or highest.")] = None,
    table_dice: Annotated[bool, typer.Option("--table-dice", help="C-3: every roll uses dice entered by hand.")] = False,
    fmt: Fmt = Format.table,
) -> None:
    """Create a campaign; you hold its House seat, and it becomes the current campaign."""
    settings = {k: v for k, v in {"starting_pile": starting_pile, "antagonist_cap": antagonist_cap,
                                  "starting_pool": starting_pool, "opposed_mode": opposed_mode,
                                  "table_dice": table_dice or None}.items() if v is not None}

    def act(t: Target) -> None:
        created = t.backend.create_campaign(name, system, settings)
        remote = {"token": created.house_token, "server": t.backend.server} if t.remote else {}
        config.update(campaign=str(created.campaign.id), **remote)
        emit(created, fmt, output.created)

    run(None, None, act)


@campaign_app.command("show")
def campaign_show(as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table) -> None:
    """The campaign: system, settings, players, adventure."""
    run(as_, campaign, lambda t: emit(t.backend.campaign(t.campaign_id(), t.seat), fmt, output.campaign))


@campaign_app.command("list")
def campaign_list(fmt: Fmt = Format.table) -> None:
    """Every campaign in the local store (embedded only)."""

    def act(t: Target) -> None:
        if t.remote:
            raise UsageError("a server lists no campaigns; your token names yours ('stakes campaign show')")
        emit(t.backend.campaigns(), fmt, output.campaigns)

    run(None, None, act)


@campaign_app.command("use")
def campaign_use(campaign_id: str) -> None:
    """Make CAMPAIGN_ID the current campaign."""
    with reported():
        try:
            UUID(campaign_id)
        except ValueError:
            raise UsageError(f"{campaign_id!r} is not a campaign id") from None
        config.update(campaign=campaign_id)
        output.out.print(f"Current campaign: {campaign_id}")


# -- players and sheets ---------------------------------------------------------------
@player_app.command("add")
def player_add(
    seat: Annotated[str, typer.Argument(help="The player's seat name, e.g. ilse.")],
    character: Annotated[str, typer.Option(help="The character's name.")],
    characteristic: Annotated[Optional[str], typer.Option(help="Penny Ante: the first characteristic, free (PA-2).")] = None,
    description: Annotated[Optional[str], typer.Option(help="The Pool: at most 50 words (PL-1).")] = None,
    trait: Annotated[Optional[list[str]], typer.Option(help="The Pool: NAME=RATING (1-3), repeatable (PL-1).")] = None,
    as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table,
) -> None:
    """Seat a player with one character. Prints the player's token once."""
    traits = {}
    for item in trait or []:
        name, _, rating = item.rpartition("=")
        if not name or not rating.strip().isdigit():
            raise typer.BadParameter(f"{item!r}: write a trait as NAME=RATING, e.g. Brave=1", param_hint="--trait")
        traits[name.strip()] = int(rating)
    run(as_, campaign, lambda t: emit(
        t.backend.add_player(t.campaign_id(), t.seat, seat, character, characteristic, description, traits or None),
        fmt, output.player_added))


@player_app.command("token")
def player_token(seat: str, as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table) -> None:
    """Issue a player a new token (House only); the old one stops working."""
    run(as_, campaign, lambda t: emit(t.backend.reissue_token(t.campaign_id(), t.seat, seat), fmt, output.player_added))


@player_app.command("list")
def player_list(as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table) -> None:
    """Every character with pile and characteristics."""
    run(as_, campaign, lambda t: emit(t.backend.sheets(t.campaign_id(), t.seat), fmt, output.sheets))


@app.command("sheet")
def sheet(
    seat: Annotated[Optional[str], typer.Argument(help="Whose sheet; your own by default.")] = None,
    as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table,
) -> None:
    """A character sheet: pile, pennies in play, characteristics, debts."""
    run(as_, campaign, lambda t: emit(t.backend.sheet(t.campaign_id(), t.seat, seat), fmt, output.sheet))


@characteristic_app.command("buy")
def characteristic_buy(name: str, as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table) -> None:
    """Buy a characteristic for your character: 5 pennies, between adventures (PA-2)."""
    run(as_, campaign, lambda t: emit(
        t.backend.buy_characteristic(t.campaign_id(), t.seat, None, name), fmt, output.sheet))


# -- adventures and the House -------------------------------------------------------
@adventure_app.command("start")
def adventure_start(
    amount: Annotated[Optional[int], typer.Option(help="An agreed House pile instead of the sum of piles.")] = None,
    note: Annotated[Optional[str], typer.Option(help="The table's agreement; required with --amount.")] = None,
    as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table,
) -> None:
    """Start an adventure (PA-3); unpaid loans become defaulted (PA-14)."""
    run(as_, campaign, lambda t: emit(t.backend.start_adventure(t.campaign_id(), t.seat, amount, note), fmt, output.adventure))


@adventure_app.command("end")
def adventure_end(as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table) -> None:
    """End the adventure; the House side's pennies leave play (PA-3)."""
    run(as_, campaign, lambda t: emit(t.backend.end_adventure(t.campaign_id(), t.seat), fmt, output.adventure))


@app.command("budget")
def budget(as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table) -> None:
    """The House budget: pile, antagonists, allocations, per adventure."""
    run(as_, campaign, lambda t: emit(t.backend.budget(t.campaign_id(), t.seat), fmt, output.budget))


@antagonist_app.command("create")
def antagonist_create(
    name: str,
    kind: Annotated[str, typer.Option(help="antagonist or obstacle.")] = "antagonist",
    characteristic: Annotated[Optional[list[str]], typer.Option(help="Repeat for each; hidden from players.")] = None,
    as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table,
) -> None:
    """Create an antagonist or obstacle (House only, PA-4)."""
    run(as_, campaign, lambda t: emit(
        t.backend.create_antagonist(t.campaign_id(), t.seat, name, kind, characteristic or []), fmt, output.antagonist))


@antagonist_app.command("characteristic")
def antagonist_characteristic(
    name: str, characteristic: str, as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table,
) -> None:
    """Give an antagonist another characteristic (House only)."""
    run(as_, campaign, lambda t: emit(
        t.backend.add_antagonist_characteristic(t.campaign_id(), t.seat, name, characteristic), fmt, output.antagonist))


@antagonist_app.command("fund")
def antagonist_fund(
    name: str, amount: int, as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table,
) -> None:
    """Move pennies from the House pile to an antagonist, within the cap (PA-4)."""
    run(as_, campaign, lambda t: emit(
        t.backend.fund_antagonist(t.campaign_id(), t.seat, name, amount), fmt, output.antagonist))


@antagonist_app.command("list")
def antagonist_list(as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table) -> None:
    """Antagonists and obstacles; players do not see their characteristics (C-5)."""
    run(as_, campaign, lambda t: emit(t.backend.antagonists(t.campaign_id(), t.seat), fmt, output.antagonists))


# -- loans ---------------------------------------------------------------------------
@loan_app.command("offer")
def loan_offer(borrower: str, amount: int, as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table) -> None:
    """Offer BORROWER a loan of AMOUNT pennies from your pile."""
    run(as_, campaign, lambda t: emit(t.backend.offer_loan(t.campaign_id(), t.seat, borrower, amount), fmt, output.loan))


def _loan_command(method: str, doc: str) -> None:
    def command(loan: Annotated[str, typer.Argument(help="Loan id, or the first characters of it.")],
                as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table) -> None:
        run(as_, campaign, lambda t: emit(
            getattr(t.backend, method)(t.campaign_id(), t.seat, _loan_id(t, loan)), fmt, output.loan))

    command.__doc__ = doc
    loan_app.command(method.split("_")[0])(command)


_loan_command("accept_loan", "Accept a loan offered to you; the pennies move at once.")
_loan_command("decline_loan", "Decline a loan offered to you.")
_loan_command("withdraw_loan", "Withdraw your offer before it is answered.")
_loan_command("forgive_loan", "Forgive what the borrower still owes you.")


@loan_app.command("repay")
def loan_repay(loan: str, amount: int, as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table) -> None:
    """Repay some or all of a loan."""
    run(as_, campaign, lambda t: emit(
        t.backend.repay_loan(t.campaign_id(), t.seat, _loan_id(t, loan), amount), fmt, output.loan))


@loan_app.command("consequence")
def loan_consequence(loan: str, note: str, as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table) -> None:
    """Record what befalls the borrower of a defaulted loan (House only)."""
    run(as_, campaign, lambda t: emit(
        t.backend.record_consequence(t.campaign_id(), t.seat, _loan_id(t, loan), note), fmt, output.loan))


@app.command("debts")
def debts(as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table) -> None:
    """The debt register: every loan and debt, with status and history."""
    run(as_, campaign, lambda t: emit(t.backend.debts(t.campaign_id(), t.seat), fmt, output.debts))


@app.command("log")
def log(
    after: Annotated[int, typer.Option(help="Only entries after this position.")] = 0,
    limit: Annotated[int, typer.Option(help="At most this many entries.")] = 100,
    as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table,
) -> None:
    """The campaign's event log: who did what, and when (censored for your seat)."""
    run(as_, campaign, lambda t: emit(t.backend.log(t.campaign_id(), t.seat, after, limit), fmt, output.log))


# -- operating ---------------------------------------------------------------------
@projections_app.command("rebuild")
def projections_rebuild(fmt: Fmt = Format.table) -> None:
    """Rebuild every read model from the event log (on the machine that holds the store)."""

    def act(t: Target) -> None:
        if t.remote:
            raise UsageError("rebuild runs where the store is, not against a server")
        with output.progress_bar("rebuilding", fmt) as progress:
            report = t.backend.rebuild(progress)
        emit(report, fmt, output.rebuilt)

    run(None, None, act)


TAMPERED = 10


@audit_app.command("verify")
def audit_verify(as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table) -> None:
    """Recompute the campaign's hash chain; exits 10 and names the first broken link if tampered with."""

    def act(t: Target) -> None:
        with output.progress_bar("verifying", fmt) as progress:
            report = t.backend.audit(t.campaign_id(), t.seat, progress)
        emit(report, fmt, output.audit_report)
        if not report.intact:
            raise typer.Exit(TAMPERED)

    run(as_, campaign, act)


@app.command("export")
def export(
    campaign_id: Annotated[Optional[str], typer.Argument(envvar="STAKES_CAMPAIGN",
                                                         help="The campaign; the current one by default.")] = None,
    output_file: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write here, not to stdout.")] = None,
    as_: As = None,
) -> None:
    """Write the whole campaign log as JSON Lines, with its hash chain (House only; never tokens)."""

    def act(t: Target) -> None:
        with output.progress_bar("exporting", Format.table) as progress:
            lines = t.backend.export_campaign(t.campaign_id(), t.seat, progress)
            if output_file is None:
                for line in lines:
                    print(line)
            else:
                with output_file.open("w") as handle:
                    for line in lines:
                        handle.write(line + "\n")

    run(as_, campaign_id, act)


@app.command("import")
def import_(
    file: Annotated[Path, typer.Argument(help="A file written by 'stakes export' ('-' for stdin).")],
    fmt: Fmt = Format.table,
) -> None:
    """Load an exported campaign into this store (or server), verifying its chain; prints new seat tokens."""

    def act(t: Target) -> None:
        if str(file) == "-":
            lines = sys.stdin.read().splitlines()
        else:
            try:
                lines = file.read_text().splitlines()
            except (OSError, UnicodeDecodeError) as exc:
                raise UsageError(f"cannot read {file}: {exc}") from None
        with output.progress_bar("importing", fmt) as progress:
            report = t.backend.import_campaign(lines, progress)
        config.update(campaign=str(report.campaign_id))
        emit(report, fmt, output.imported)

    run(None, None, act)


@app.command("serve")
def serve(
    host: Annotated[Optional[str], typer.Option(help="Address to listen on (STAKES_HOST).")] = None,
    port: Annotated[Optional[int], typer.Option(help="Port (STAKES_PORT).")] = None,
) -> None:
    """Run the HTTP API with uvicorn on the configured store."""
    import uvicorn

    from api.app import create_app

    settings = Settings()
    host, port = host or settings.host, port or settings.port
    output.err.print(f"Stakes API on http://{host}:{port} (docs at /docs), store {settings.describe()}")
    uvicorn.run(create_app(settings), host=host, port=port, log_level="warning")


@app.command("login")
def login(
    server: Annotated[str, typer.Option(help="The server's URL.")],
    token: Annotated[str, typer.Option(help="Your seat token.", prompt=True, hide_input=True)],
    fmt: Fmt = Format.table,
) -> None:
    """Remember a server and your seat token; later commands act as that seat."""
    from cli.remote import RemoteStakes

    with reported():
        remote = RemoteStakes(server, token)
        try:
            session = remote.session()
        finally:
            remote.close()
        config.update(server=server, token=token, campaign=str(session.campaign_id))
        emit(session, fmt, output.session)


@app.command("logout")
def logout() -> None:
    """Forget the server and token; commands act on the local store again."""
    config.update(server=None, token=None)
    output.out.print("Logged out; commands use the local store.")


__all__ = ["app", "Stakes"]
