"""Operating a store or a server: rebuild the read models, audit, export and import, serve, log in."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from cli import config
from cli.options import As, CampaignOpt, Fmt, Format, group
from cli.session import Target, UsageError, reported, run

projections_app = group(help="Maintain the read models.")
audit_app = group(help="Prove the log untampered (C-2).")


@projections_app.command("rebuild")
def projections_rebuild(fmt: Fmt = Format.table) -> None:
    """Rebuild every read model from the event log (on the machine that holds the store)."""
    from cli import output

    def act(t: Target) -> None:
        if t.remote:
            raise UsageError("rebuild runs where the store is, not against a server")
        with output.progress_bar("rebuilding", fmt) as progress:
            report = t.backend.rebuild(progress)
        output.emit(report, fmt, output.rebuilt)

    run(None, None, act, fmt)


TAMPERED = 10


@audit_app.command("verify")
def audit_verify(as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table) -> None:
    """Recompute the campaign's hash chain; exits 10 and names the first broken link if tampered with."""
    from cli import output

    def act(t: Target) -> None:
        with output.progress_bar("verifying", fmt) as progress:
            report = t.backend.audit(t.campaign_id(), t.seat, progress)
        output.emit(report, fmt, output.audit_report)
        if not report.intact:
            raise typer.Exit(TAMPERED)

    run(as_, campaign, act, fmt)


FORKED = 11


@audit_app.command("checkpoint")
def audit_checkpoint(
    as_: As = None, campaign: CampaignOpt = None,
    fetch: Annotated[bool, typer.Option("--fetch", help=(
        "Fetch the server's current head, check it extends the held one (exit 10 and an evidence file if it "
        "does not), keep it and show it. Without it nothing is asked of the server's log and nothing is "
        "replaced."))] = False,
    note: Annotated[bool, typer.Option("--note", help=(
        "Print only the signed note, byte for byte: the text to hand another player for "
        "'stakes audit compare'."))] = False,
    fmt: Fmt = Format.table,
) -> None:
    """Show the signed head this CLI holds for the campaign (C-2): the last one it checked against the server,
    as kept, never replaced by this command (--fetch fetches, checks and keeps the current one). Embedded, the
    local store's own head: nothing is held for a store you hold. Hand it to another player (--note, or
    --format json) to compare with 'stakes audit compare'."""
    from cli import output, witness

    def act(t: Target) -> None:
        head = witness.held_head(t, fetch=fetch)
        if note:
            sys.stdout.write(head.note)
        else:
            output.emit(head, fmt, witness.render_head)

    run(as_, campaign, act, fmt, check_head=False)


@audit_app.command("compare")
def audit_compare(
    other: Annotated[str, typer.Argument(help=(
        "Another player's held head: a file holding its signed note ('stakes audit checkpoint --note') or the "
        "JSON of 'stakes audit checkpoint --format json', the note text itself, or - for stdin."))],
    mine: Annotated[str | None, typer.Option("--mine", help=(
        "Compare this head (same forms) instead of the one this CLI holds; embedded, instead of the store's "
        "own head."))] = None,
    evidence: Annotated[Path | None, typer.Option("--evidence", help=(
        "Where to write both signed notes on a fork (default: fork-<campaign>.txt beside the config "
        "file)."))] = None,
    as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table,
) -> None:
    """Compare your held head with another player's, of any sizes (C-2): both must be signed by the server's
    pinned key for this campaign; an RFC 9162 consistency proof between their sizes is asked of the server (or
    the store, embedded). Says EQUAL, which is a PREFIX of which (exit 0), or that the histories FORK: two
    roots at one size, or no proof joins them (exit 11, both signed notes written to an evidence file). A head
    that is not such a note exits 2. Neither head is replaced."""
    from cli import output, witness
    from cli.errors import Forked

    def act(t: Target) -> None:
        theirs = witness.read_note(other)
        ours = witness.read_note(mine) if mine is not None else witness.held_head(t).note
        result = witness.compare(t, ours, theirs, evidence)
        output.emit(result, fmt, witness.render_comparison)
        if result.verdict == "fork":
            raise Forked(f"the histories fork: {result.detail}. The server showed two players different logs of "
                         f"this campaign; both signed heads are in {result.evidence}")

    run(as_, campaign, act, fmt, check_head=False)


def export(
    campaign_id: Annotated[str | None, typer.Argument(envvar="STAKES_CAMPAIGN",
                                                         help="The campaign; the current one by default.")] = None,
    output_file: Annotated[Path | None, typer.Option("--output", "-o", help="Write here, not to stdout.")] = None,
    as_: As = None,
) -> None:
    """Write the whole campaign log as JSON Lines, with its hash chain (House only; never tokens)."""
    from cli import output

    def act(t: Target) -> None:
        with output.progress_bar("exporting", Format.table) as progress:
            lines = t.backend.export_campaign(t.campaign_id(), t.seat, progress)
            if output_file is None:
                for line in lines:
                    print(line)
            else:  # written beside the target and moved in whole: a refused export leaves no file (issue 31)
                partial = output_file.with_name(f".{output_file.name}.partial")
                try:
                    with partial.open("w") as handle:
                        for line in lines:
                            handle.write(line + "\n")
                    partial.replace(output_file)
                finally:
                    partial.unlink(missing_ok=True)

    run(as_, campaign_id, act)


def import_(
    file: Annotated[Path, typer.Argument(help="A file written by 'stakes export' ('-' for stdin).")],
    operator_token: Annotated[str | None, typer.Option(
        envvar="STAKES_OPERATOR_TOKEN", help="The server's operator token (needed against a server).")] = None,
    fmt: Fmt = Format.table,
) -> None:
    """Load an exported campaign as a new campaign (new ids), verifying its chain and values; prints the
    House's new token and one-time invite codes for the players."""
    from cli import output

    def act(t: Target) -> None:
        if str(file) == "-":
            lines = sys.stdin.read().splitlines()
        else:
            try:
                lines = file.read_text().splitlines()
            except (OSError, UnicodeDecodeError) as exc:
                raise UsageError(f"cannot read {file}: {exc}") from None
        with output.progress_bar("importing", fmt) as progress:
            report = t.backend.import_campaign(lines, progress, operator_token=operator_token)
        # as ``campaign create``: the new campaign is the current one, and against a server its House token is
        # the one this CLI holds from now on (the old token is another campaign's seat)
        config.update(campaign=str(report.campaign_id),
                      **({"token": report.house_token, "server": t.backend.server} if t.remote else {}))
        output.emit(report, fmt, output.imported)

    run(None, None, act, fmt)


def serve(
    host: Annotated[str | None, typer.Option(help="Address to listen on (STAKES_HOST).")] = None,
    port: Annotated[int | None, typer.Option(help="Port (STAKES_PORT).")] = None,
    workers: Annotated[int | None, typer.Option(min=1, help="Worker processes sharing the store "
                                                               "(STAKES_WORKERS); several are for PostgreSQL.")] = None,
) -> None:
    """Run the HTTP API with uvicorn on the configured store, in one or several worker processes."""
    import copy

    import uvicorn
    from uvicorn.config import LOGGING_CONFIG

    from adapters.settings import Settings
    from cli import output

    settings = Settings()
    host, port, workers = host or settings.host, port or settings.port, workers or settings.workers
    output.err.print(f"Stakes API on http://{host}:{port} (docs at /docs), store {settings.describe()}"
                     + (f", {workers} workers" if workers > 1 else ""))
    logs = copy.deepcopy(LOGGING_CONFIG)  # warnings only, and one access line per request unless turned off
    logs["loggers"]["uvicorn.error"]["level"] = "WARNING"
    logs["loggers"]["uvicorn.access"]["level"] = "INFO" if settings.access_log else "WARNING"
    # Each worker builds its app from the same STAKES_* environment (api.app.from_environment).
    # uvicorn's own 400 (headers too large, a malformed request) carries our security headers (api/server.py)
    noted = _note_served(settings, host, port)  # the embedded CLI's invite links name this address meanwhile
    try:
        uvicorn.run("api.app:from_environment", factory=True, host=host, port=port, workers=workers,
                    log_config=logs, access_log=settings.access_log, http="api.server:GuardedHttpToolsProtocol",
                    timeout_graceful_shutdown=settings.shutdown_grace)
    finally:
        if noted:
            settings.served_path.unlink(missing_ok=True)


def _note_served(settings: Any, host: str, port: int) -> bool:
    """Note where this process serves the store (``Settings.served_path``); False if it cannot be written."""
    import json
    import os

    path = settings.served_path
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"host": host, "port": port, "pid": os.getpid()}))
        tmp.replace(path)
    except OSError:
        return False
    return True


def login(
    server: Annotated[str, typer.Option(help="The server's URL.")],
    token: Annotated[str, typer.Option(help="Your seat token.", prompt=True, hide_input=True)],
    fmt: Fmt = Format.table,
) -> None:
    """Remember a server and your seat token; later commands act as that seat."""
    from cli import output
    from cli.remote import RemoteStakes

    with reported(fmt):
        remote = RemoteStakes(server, token)
        try:
            session = remote.session()
        finally:
            remote.close()
        config.update(server=server, token=token, campaign=str(session.campaign_id))
        if session.system:  # issue 30: later commands need not ask for it
            config.remember_system(session.campaign_id.hex, session.system)
        output.emit(session, fmt, output.session)


def claim(
    code: Annotated[str, typer.Argument(help="The one-time invite code the House handed you.")],
    server: Annotated[str | None, typer.Option(help="The server's URL (default: the one configured).")] = None,
    fmt: Fmt = Format.table,
) -> None:
    """Claim your seat with an invite code; against a server you are then logged in with your new token."""
    from cli import output
    from cli.session import GLOBAL

    with reported(fmt):
        url = server or GLOBAL.server or config.load().server
        if url:
            from cli.remote import RemoteStakes

            backend: Any = RemoteStakes(url, None)
        else:
            from adapters.service import Stakes

            backend = Stakes()
        try:
            claimed = backend.claim(code)
        finally:
            backend.close()
        if url:
            config.update(server=url, token=claimed.token, campaign=str(claimed.campaign_id))
        else:
            config.update(campaign=str(claimed.campaign_id))
        if claimed.system:  # issue 30: the first command after the claim need not ask for it
            config.remember_system(claimed.campaign_id.hex, claimed.system)
        output.emit(claimed, fmt, output.claimed)


def logout() -> None:
    """Forget the server and token; commands act on the local store again."""
    from cli import output

    config.update(server=None, token=None)
    output.out.print("Logged out; commands use the local store.")




TOP_LEVEL = (("export", export), ("import", import_), ("serve", serve), ("login", login), ("claim", claim),
             ("logout", logout))
