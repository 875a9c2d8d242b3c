"""Campaigns, seats, sheets and the log: the commands every system shares."""

from __future__ import annotations

import inspect
from typing import Annotated, Optional
from uuid import UUID

import typer

from cli import config, output
from cli.commands import _cli_type
from domain.kernel.registry import default_system, supported, systems
from cli.options import As, CampaignOpt, Fmt
from cli.output import Format, emit
from cli.session import Target, UsageError, reported, run

campaign_app = typer.Typer(help="Create, show and choose campaigns.", no_args_is_help=True)
player_app = typer.Typer(help="Seat players (House only) and list them.", no_args_is_help=True)


def campaign_create(name: str, system: str, fmt: Format = Format.table, **settings: object) -> None:
    """Create a campaign; you hold its House seat, and it becomes the current campaign."""
    chosen = {k: v for k, v in settings.items() if v is not None and v is not False}

    def act(t: Target) -> None:
        created = t.backend.create_campaign(name, system, chosen)
        remote = {"token": created.house_token, "server": t.backend.server} if t.remote else {}
        config.update(campaign=str(created.campaign.id), **remote)
        emit(created, fmt, output.created)

    run(None, None, act)


def _settings_options() -> list[inspect.Parameter]:
    """One option per setting of every system (the campaign's system checks them)."""
    seen: dict[str, inspect.Parameter] = {}
    for system in supported():
        for field, info in (system.settings_model.model_fields if system.settings_model else {}).items():
            kind = _cli_type(info.annotation)
            flag = typer.Option(f"--{field.replace('_', '-')}", help=f"{system.name}: {info.description or ''}")
            annotation = Annotated[kind if kind is bool else Optional[kind], flag]  # noqa: UP007
            seen.setdefault(field, inspect.Parameter(field, inspect.Parameter.KEYWORD_ONLY,
                                                     default=False if kind is bool else None, annotation=annotation))
    return list(seen.values())


def _create_command() -> object:
    ids = ", ".join(s.id for s in systems() if s.supported)
    params = [
        inspect.Parameter("name", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=str),
        inspect.Parameter("system", inspect.Parameter.KEYWORD_ONLY, default=default_system(),
                          annotation=Annotated[str, typer.Option(help=f"The rule system: {ids}.")]),
        *_settings_options(),
        inspect.Parameter("fmt", inspect.Parameter.KEYWORD_ONLY, default=Format.table, annotation=Fmt),
    ]

    def create(**given: object) -> None:
        campaign_create(**given)  # type: ignore[arg-type]

    create.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    create.__annotations__ = {p.name: p.annotation for p in params}
    create.__doc__ = campaign_create.__doc__
    return create


campaign_app.command("create")(_create_command())


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


@player_app.command("token")
def player_token(seat: str, as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table) -> None:
    """Issue a player a new token (House only); the old one stops working."""
    run(as_, campaign, lambda t: emit(t.backend.reissue_token(t.campaign_id(), t.seat, seat), fmt, output.player_added))


@player_app.command("list")
def player_list(as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table) -> None:
    """Every character with pile and characteristics."""
    run(as_, campaign, lambda t: emit(t.backend.sheets(t.campaign_id(), t.seat), fmt, output.sheets))


def sheet(
    seat: Annotated[Optional[str], typer.Argument(help="Whose sheet; your own by default.")] = None,
    as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table,
) -> None:
    """A character sheet: pile, pennies in play, characteristics, debts."""
    run(as_, campaign, lambda t: emit(t.backend.sheet(t.campaign_id(), t.seat, seat), fmt, output.sheet))


def log(
    after: Annotated[int, typer.Option(help="Only entries after this position.")] = 0,
    limit: Annotated[int, typer.Option(help="At most this many entries.")] = 100,
    as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table,
) -> None:
    """The campaign's event log: who did what, and when (censored for your seat)."""
    run(as_, campaign, lambda t: emit(t.backend.log(t.campaign_id(), t.seat, after, limit), fmt, output.log))




TOP_LEVEL = (("sheet", sheet), ("log", log))
