"""``stakes``: the root only assembles groups. Every read takes ``--format json``.

The commands that change a campaign are generated from the rule systems' command classes
(``cli/commands.py``); the ones here read and operate, the same for every system.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from cli import campaigns, challenge, commands, operations, watch
from cli.options import Format, group
from cli.session import GLOBAL, USAGE, fail

HELP = "The campaign ledger for tabletop role-playing."
#: Commands and groups written here for every system: listed first in ``stakes --help``.
SHARED_NAMES = frozenset({"campaign", "player", "challenge", "projections", "audit", "replay", "watch",
                          *(n for n, _ in (*campaigns.TOP_LEVEL, *operations.TOP_LEVEL))})


def help_sections(names: list[str]) -> list[tuple[str, list[str]]]:
    """``stakes --help`` by rule system (issue 31): what every system shares, then each system's own commands,
    the current campaign's system first. A command several systems share is listed under each of them."""
    from cli import catalogue, config

    found = catalogue.load()
    titles = {s["id"]: s["name"] for s in found["systems"] if s["supported"]}
    owners: dict[str, set[str]] = {}
    for entry in found["commands"]:
        owners.setdefault(entry["words"].split()[0], set()).update(entry["systems"])
    for read in found["reads"]:
        owners.setdefault(read["cli"].split()[0], set()).add(read["system"])
    chosen = config.load()
    current = chosen.systems.get((chosen.campaign or "").replace("-", ""))
    order = sorted(titles, key=lambda s: (s != current, list(titles).index(s)))
    shared = [n for n in names if n in SHARED_NAMES or owners.get(n, set(titles)) >= set(titles)]
    sections = [("Every system", shared)]
    for system in order:
        own = [n for n in names if n not in shared and system in owners.get(n, set())]
        label = f"{titles[system]} ({system}{', the current campaign' if system == current else ''})"
        sections.append((label, own))
    return [(title, members) for title, members in sections if members]


class ByRuleSystem(TyperGroup):
    """The root group: its help lists commands by rule system, not as one flat list of forty."""

    def format_commands(self, ctx: Any, formatter: Any) -> None:  # typer's own click Context and HelpFormatter
        listed = {n: c for n in self.list_commands(ctx) if (c := self.get_command(ctx, n)) and not c.hidden}
        if not listed:
            return
        width = formatter.width - 6 - max(len(n) for n in listed)
        for title, names in help_sections(list(listed)):
            with formatter.section(title):
                formatter.write_dl([(n, listed[n].get_short_help_str(width)) for n in names])


app = group(HELP, name="stakes", pretty_exceptions_enable=False, cls=ByRuleSystem)
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
