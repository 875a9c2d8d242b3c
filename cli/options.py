"""Options every command shares."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer


def group(help: str, **options: object) -> typer.Typer:
    """A group of commands. Help is plain text: typer's rich help imports a markdown parser and costs more
    than the whole rest of ``stakes --help`` (issue 14: the CLI feels instant)."""
    return typer.Typer(help=help, no_args_is_help=True, rich_markup_mode=None, **options)  # type: ignore[arg-type]


class Format(str, Enum):
    table = "table"
    json = "json"


As = Annotated[str | None, typer.Option("--as", envvar="STAKES_AS",
                                           help="Embedded use: the seat to act as (house or a player).")]
CampaignOpt = Annotated[str | None, typer.Option("--campaign", "-c", envvar="STAKES_CAMPAIGN",
                                                    help="Campaign id; defaults to the current one.")]
ChallengeOpt = Annotated[str | None, typer.Option("--challenge", "-C", envvar="STAKES_CHALLENGE",
                                                     help="Challenge id or its first characters; defaults to the "
                                                          "last one announced here, or the only open one.")]
ChallengeArg = Annotated[str | None, typer.Argument(help="Challenge id (or its first characters).")]
Fmt = Annotated[Format, typer.Option("--format", "-f", help="table or json.")]
