"""Operating a store or a server: rebuild the read models, audit, export and import, serve, log in."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from adapters.settings import Settings
from cli import config, output
from cli.options import As, CampaignOpt, Fmt
from cli.output import Format, emit
from cli.session import Target, UsageError, reported, run

projections_app = typer.Typer(help="Maintain the read models.", no_args_is_help=True)
audit_app = typer.Typer(help="Prove the log untampered (C-2).", no_args_is_help=True)


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


def logout() -> None:
    """Forget the server and token; commands act on the local store again."""
    config.update(server=None, token=None)
    output.out.print("Logged out; commands use the local store.")




TOP_LEVEL = (("export", export), ("import", import_), ("serve", serve), ("login", login), ("logout", logout))
