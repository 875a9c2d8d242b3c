"""``stakes``: the root only assembles groups. Every read takes ``--format json``.

The commands that change a campaign are generated from the rule systems' command classes
(``cli/commands.py``); the ones here read and operate, the same for every system.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from cli import campaigns, challenge, commands, operations, watch
from cli.options import Format, group
from cli.session import GLOBAL, USAGE, fail

HELP = "The campaign ledger for tabletop role-playing."
app = group(HELP, name="stakes", pretty_exceptions_enable=False)
GROUPS: dict[str, typer.Typer] = {
    "campaign": campaigns.campaign_app, "player": campaigns.player_app, "challenge": challenge.app,
    "projections": operations.projections_app, "audit": operations.audit_app,
}
for name, members in GROUPS.items():
    app.add_typer(members, name=name)
for name, command in (*campaigns.TOP_LEVEL, *operations.TOP_LEVEL, ("replay", challenge.replay)):
    app.command(name)(command)
commands.install(app, GROUPS)
app.command("watch")(watch.watch)


@app.callback()
def root(
    server: Annotated[str | None, typer.Option(envvar="STAKES_SERVER", help="Use a running server at this URL.")] = None,
    token: Annotated[str | None, typer.Option(envvar="STAKES_TOKEN", help="Seat token for --server.")] = None,
) -> None:
    GLOBAL.server, GLOBAL.token = server, token



def _wants_json(args: list[str]) -> bool:
    pairs = zip(args, [*args[1:], ""])
    return any(a in ("--format=json", "-fjson") or (a in ("--format", "-f") and b == "json") for a, b in pairs)


_ROOT_OPTIONS = ("--server", "--token")


def _first_word(args: list[str]) -> str | None:
    """The command or group a command line names, past the root's own options; None for anything else."""
    rest = iter(args)
    for arg in rest:
        if arg in _ROOT_OPTIONS:
            next(rest, None)
        elif not arg.startswith(_ROOT_OPTIONS):
            return None if arg.startswith("-") else arg
    return None


def for_command_line(args: list[str]) -> typer.Typer:
    """The root as this command line needs it: only the group or command it names, so click builds one
    branch of the tree instead of every command (a CLI that starts fast, issue 14); the whole tree for
    ``--help``, a misspelt command, or anything else."""
    word = _first_word(args)
    groups = [g for g in app.registered_groups if g.name == word]
    commands = [c for c in app.registered_commands if c.name == word]
    if not word or not (groups or commands):
        return app
    pruned = group(HELP, name="stakes", pretty_exceptions_enable=False)
    pruned.callback()(root)
    pruned.registered_groups, pruned.registered_commands = groups, commands
    return pruned


def bad_settings(error: BaseException) -> str | None:
    """What is wrong with the ``STAKES_*`` environment, when ``error`` is the settings' refusal of it."""
    core = sys.modules.get("pydantic_core")  # loaded only once the settings were read
    if core is None or not isinstance(error, core.ValidationError) or error.title != "Settings":
        return None
    return "; ".join(f"STAKES_{'_'.join(str(p) for p in e['loc']).upper()}={e['input']!r} is refused: {e['msg']}"
                     for e in error.errors())


def main(args: list[str] | None = None) -> None:
    """The ``stakes`` program. Click's own refusals of a command line (a missing option, an unknown command)
    are answered like every other error: on stderr, as JSON under ``--format json``, with exit code 2."""
    argv = sys.argv[1:] if args is None else list(args)
    try:
        code = for_command_line(argv)(args=argv, prog_name="stakes", standalone_mode=False)
    except typer.TyperException as error:  # click's refusals: usage errors exit 2, shown with the usage line
        code = getattr(error, "exit_code", USAGE)
        if code == USAGE and _wants_json(argv):
            raise SystemExit(fail(error.format_message(), USAGE, Format.json, kind="UsageError").exit_code) from None
        show = getattr(error, "show", None)
        if show is not None:
            show()
        else:
            print(f"Error: {error.format_message()}", file=sys.stderr)
        raise SystemExit(code) from None
    except typer.Abort:
        print("Aborted!", file=sys.stderr)
        raise SystemExit(1) from None
    except Exception as error:  # a STAKES_* setting the store or server cannot take: named, never a traceback
        bad = bad_settings(error)
        if bad is None:
            raise
        fmt = Format.json if _wants_json(argv) else Format.table
        raise SystemExit(fail(bad, USAGE, fmt, kind="SettingsError").exit_code) from None
    raise SystemExit(code if isinstance(code, int) else 0)
