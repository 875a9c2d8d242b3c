"""Campaigns, seats, sheets and the log: the commands every system shares."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Annotated, Any
from uuid import UUID

import typer

from cli import catalogue, config
from cli.commands import KINDS
from cli.options import As, CampaignOpt, Fmt, Format, group
from cli.session import Target, UsageError, run
from domain.errors import ConcurrencyConflict, StakesError

campaign_app = group(help="Create, show and choose campaigns.")
player_app = group(help="Seat players (House only) and list them.")


def campaign_create(name: str, system: str, fmt: Format = Format.table, **settings: object) -> None:
    """Create a campaign; you hold its House seat, and it becomes the current campaign."""
    from cli import output

    chosen = {k: v for k, v in settings.items() if v is not None and v is not False}

    def act(t: Target) -> None:
        created = t.backend.create_campaign(name, system, chosen)
        if t.remote and created.house_token is None:
            # issue 29 (ADR 0028): the server answers the House token once; a retry of this CLI's own request
            # (its first answer lost on the way) gets the campaign without it
            raise ConcurrencyConflict(f"the server created campaign {created.campaign.id}, but the answer holding "
                                      f"its House token was lost on the way. {created.note or ''}".strip(),
                                      ruling="C-1")
        remote = {"token": created.house_token, "server": t.backend.server} if t.remote else {}
        config.update(campaign=str(created.campaign.id), **remote)
        config.remember_system(created.campaign.id.hex, created.campaign.system)
        output.emit(created, fmt, output.created)

    run(None, None, act, fmt)


def _settings_options() -> list[inspect.Parameter]:
    """One option per setting of every system (the campaign's system checks them)."""
    found = []
    for setting in catalogue.load()["settings"]:
        field, kind = setting["name"], KINDS[setting["kind"]]
        flag = typer.Option(f"--{field.replace('_', '-')}", help=setting["help"])
        annotation: Any = Annotated[kind if kind is bool else kind | None, flag]
        found.append(inspect.Parameter(field, inspect.Parameter.KEYWORD_ONLY,
                                       default=False if kind is bool else None, annotation=annotation))
    return found


def _create_command() -> Callable[..., None]:
    ids = ", ".join(s["id"] for s in catalogue.load()["systems"] if s["supported"])
    params = [
        inspect.Parameter("name", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=str),
        inspect.Parameter("system", inspect.Parameter.KEYWORD_ONLY, default=catalogue.load()["default"],
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
    from cli import output

    run(as_, campaign, lambda t: output.emit(t.backend.campaign(t.campaign_id(), t.seat), fmt,
                                             output.campaign), fmt)


@campaign_app.command("list")
def campaign_list(fmt: Fmt = Format.table) -> None:
    """Every campaign in the local store (embedded only)."""
    from cli import output

    def act(t: Target) -> None:
        if t.remote:
            raise UsageError("a server lists no campaigns; your token names yours ('stakes campaign show')")
        output.emit(t.backend.campaigns(), fmt, output.campaigns)

    run(None, None, act, fmt)


@campaign_app.command("use")
def campaign_use(campaign_id: str, fmt: Fmt = Format.table) -> None:
    """Make CAMPAIGN_ID (or its first characters, as tables show them) the current campaign."""

    def act(t: Target) -> None:
        from cli import output

        chosen = campaign_by_prefix(t, campaign_id)
        config.update(campaign=str(chosen))
        if fmt is Format.json:
            output.emit(t.backend.campaign(chosen, t.seat), fmt)
        else:
            output.out.print(f"Current campaign: {chosen}")

    run(None, None, act, fmt)


def campaign_by_prefix(t: Target, text: str) -> UUID:
    """A campaign id, or a unique prefix of one: of this store's campaigns, or the token's against a server."""
    try:
        return UUID(text)
    except ValueError:
        pass
    wanted = text.lower().replace("-", "")
    if len(wanted) < 4 or not all(ch in "0123456789abcdef" for ch in wanted):
        raise UsageError(f"{text!r} is not a campaign id; give the id or at least its first 4 characters")
    if t.remote:
        known = [t.campaign] if t.campaign is not None else []
    else:
        known = [c.id for c in t.backend.campaigns()]
    matches = [c for c in known if c.hex.startswith(wanted)]
    if len(matches) != 1:
        raise UsageError(f"{text!r} names {'no' if not matches else 'more than one'} campaign"
                         f"{' of this store' if not t.remote else ' your token holds a seat in'}")
    return matches[0]


@player_app.command("token")
def player_token(seat: str, as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table) -> None:
    """Issue a player a new token (House only); the old one stops working."""
    from cli import output

    run(as_, campaign, lambda t: output.emit(t.backend.reissue_token(t.campaign_id(), t.seat, seat), fmt,
                                             output.player_added), fmt)


@player_app.command("list")
def player_list(as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table) -> None:
    """Every character of the campaign with its sheet's summary (as its rule system keeps it)."""
    from cli import output

    run(as_, campaign, lambda t: output.emit(t.backend.sheets(t.campaign_id(), t.seat), fmt,
                                             output.sheets), fmt)


def sheet(
    seat: Annotated[str | None, typer.Argument(help="Whose sheet; your own by default.")] = None,
    as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table,
) -> None:
    """A character sheet, as the campaign's rule system keeps it (another seat's shows what the rules let you see)."""
    from cli import output

    run(as_, campaign, lambda t: output.emit(t.backend.sheet(t.campaign_id(), t.seat, seat), fmt,
                                             output.sheet), fmt)


def log(
    after: Annotated[int, typer.Option(min=0, help="Only entries after this position.")] = 0,
    limit: Annotated[int, typer.Option(min=1, max=1000, help="At most this many entries (1 to 1000).")] = 100,
    as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table,
) -> None:
    """The campaign's event log: who did what, and when (censored for your seat)."""
    from cli import output

    def act(t: Target) -> None:
        cid = t.campaign_id()
        entries = t.backend.log(cid, t.seat, after, limit)
        if fmt is not Format.table:  # JSON keeps the seats and streams as stored
            output.emit(entries, fmt)
            return
        from cli.inert import inert

        view = inert(t.backend.campaign(cid, t.seat))  # names, not handles; as typed (cli/inert.py)

        def opening(unit: str) -> list[Any]:  # a unit that opened before this page: its first step, as the seat sees it
            try:
                return list(inert(t.backend.replay(cid, t.seat, UUID(unit), step=1)).steps)
            except StakesError:  # not to be read: its sides are said by their roles, the log is still shown
                return []

        output.emit(entries, fmt, lambda found: output.log(found, view.names(), view.characters(), opening))

    run(as_, campaign, act, fmt)




def chart(
    points: Annotated[int, typer.Option(min=2, max=1000, help="Points per line at most (a longer line is sampled).")]
    = 200,
    as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table,
) -> None:
    """What each sheet tracks, over the campaign: a row and a sparkline per character (hidden sheets left out)."""
    from cli import output

    run(as_, campaign, lambda t: output.emit(t.backend.chart(t.campaign_id(), t.seat, points), fmt,
                                             output.chart), fmt)


def luck(as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table) -> None:
    """Every public draw per seat and kind against the fair distribution (chi-square), abandoned draws apart."""
    from cli import output

    run(as_, campaign, lambda t: output.emit(t.backend.luck(t.campaign_id(), t.seat), fmt, output.luck), fmt)


TOP_LEVEL = (("sheet", sheet), ("log", log), ("chart", chart), ("luck", luck))
