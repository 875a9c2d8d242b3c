"""Options every command shares."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from cli.output import Format

As = Annotated[Optional[str], typer.Option("--as", envvar="STAKES_AS",
                                           help="Embedded use: the seat to act as (house or a player).")]
CampaignOpt = Annotated[Optional[str], typer.Option("--campaign", "-c", envvar="STAKES_CAMPAIGN",
                                                    help="Campaign id; defaults to the current one.")]
ChallengeOpt = Annotated[Optional[str], typer.Option("--challenge", "-C", envvar="STAKES_CHALLENGE",
                                                     help="Challenge id or its first characters; defaults to the "
                                                          "last one announced here, or the only open one.")]
ChallengeArg = Annotated[Optional[str], typer.Argument(help="Challenge id (or its first characters).")]
Fmt = Annotated[Format, typer.Option("--format", "-f", help="table or json.")]
