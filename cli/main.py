"""``stakes``: the root only assembles groups. Every read takes ``--format json``.

The commands that change a campaign are generated from the rule systems' command classes
(``cli/commands.py``); the ones here read and operate, the same for every system.
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from adapters.service import Stakes
from cli import campaigns, challenge, commands, operations
from cli.session import GLOBAL

app = typer.Typer(name="stakes", help="The campaign ledger for tabletop role-playing.", no_args_is_help=True,
                  pretty_exceptions_enable=False)
GROUPS: dict[str, typer.Typer] = {
    "campaign": campaigns.campaign_app, "player": campaigns.player_app, "challenge": challenge.app,
    "projections": operations.projections_app, "audit": operations.audit_app,
}
for name, group in GROUPS.items():
    app.add_typer(group, name=name)
for name, command in (*campaigns.TOP_LEVEL, *operations.TOP_LEVEL, ("replay", challenge.replay)):
    app.command(name)(command)
commands.install(app, GROUPS)


@app.callback()
def main(
    server: Annotated[Optional[str], typer.Option(envvar="STAKES_SERVER", help="Use a running server at this URL.")] = None,
    token: Annotated[Optional[str], typer.Option(envvar="STAKES_TOKEN", help="Seat token for --server.")] = None,
) -> None:
    GLOBAL.server, GLOBAL.token = server, token


__all__ = ["app", "Stakes"]
