"""CLI commands generated from the command classes: nothing here is written per command or per system.

Each command class names its CLI words (``"loan accept"``), the inputs taken as arguments, and the
parsers for inputs typed as text (``3,5,1``). Classes of several systems with the same words become one
command offering the union of their inputs; the campaign's system decides which are valid. Moves in a
unit of resolution take ``--challenge/-C`` (an id prefix; by default the current one). Each system's
CLI module (``cli/systems/<package>.py``, optional) may add parsers for its own inputs (``PARSERS``).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Annotated, Any, Literal, Optional, get_args, get_origin
from uuid import UUID, uuid4

import typer
from pydantic.fields import FieldInfo

from cli import config, output
from cli.options import As, CampaignOpt, ChallengeOpt, Fmt
from cli.output import Format, emit
from cli.session import Target, UsageError, run
from domain.kernel.commands import Command
from domain.kernel.common import SHARED
from domain.kernel.registry import supported


# -- reading typed inputs from text ------------------------------------------------------------------------
def numbers(text: str | None) -> list[int] | None:
    if text is None:
        return None
    try:
        return [int(x) for x in text.replace(" ", "").split(",") if x]
    except ValueError:
        raise UsageError(f"{text!r} is not a comma-separated list of numbers") from None


def pairs(items: list[str] | None) -> dict[str, int] | None:
    """``NAME=NUMBER`` items, e.g. ``Brave=1``."""
    found: dict[str, int] = {}
    for item in items or []:
        name, _, value = item.rpartition("=")
        if not name or not value.strip().lstrip("-").isdigit():
            raise UsageError(f"{item!r}: write NAME=NUMBER, e.g. Brave=1")
        found[name.strip()] = int(value)
    return found or None


#: Parser name -> (what the command line takes, how it becomes the input).
PARSERS: dict[str, tuple[Any, Callable[[Any], Any]]] = {"numbers": (str, numbers), "traits": (list[str], pairs)}


def _system_cli(package: str) -> Any:
    try:
        return importlib.import_module(f"cli.systems.{package}")
    except ModuleNotFoundError:
        return None


def parsers() -> dict[str, tuple[Any, Callable[[Any], Any]]]:
    found = dict(PARSERS)
    for system in supported():
        module = _system_cli(system.package)
        found.update(getattr(module, "PARSERS", {}) if module else {})
    return found


# -- ids given by their first characters ----------------------------------------------------------------------
def unit_id(t: Target, text: str | None) -> UUID:
    """A unit of resolution: an id or its first characters, else the current one, else the only open one."""
    wanted = (text or config.load().challenge or "").lower().replace("-", "")
    listed = t.backend.challenges(t.campaign_id(), t.seat)
    if not wanted:
        open_ones = [c.id for c in listed if c.phase != "settled"]
        if len(open_ones) == 1:
            return open_ones[0]
        raise UsageError("several or no challenges are open: give the challenge's id (or its first characters)")
    matches = [c.id for c in listed if c.id.hex.startswith(wanted)]
    if len(matches) != 1:
        raise UsageError(f"{text!r} names {'no' if not matches else 'more than one'} challenge of this campaign")
    return matches[0]


def loan_id(t: Target, text: str) -> UUID:
    """A loan id, or a unique prefix of one as shown in tables."""
    try:
        return UUID(text)
    except ValueError:
        pass
    wanted = text.lower().replace("-", "")
    if len(wanted) < 4:
        raise UsageError(f"{text!r} is too short; give at least 4 characters of the loan id")
    register = t.backend.read(t.campaign_id(), t.seat, "debts")
    matches = [loan.loan_id for loan in register.loans if loan.loan_id.hex.startswith(wanted)]
    if len(matches) != 1:
        raise UsageError(f"{text!r} names {'no' if not matches else 'more than one'} loan; give more of its id")
    return matches[0]


LOOKUPS: dict[str, Callable[[Target, Any], UUID]] = {"unit": unit_id, "loan": loan_id}


# -- building a typer command from command classes ----------------------------------------------------------
def _cli_type(annotation: Any) -> Any:
    """The type typer reads for a field: lists stay lists of text; ids and choices are text."""
    args = [a for a in get_args(annotation) if a is not type(None)]
    if get_origin(annotation) not in (None, list, dict, Literal, Annotated) and len(args) == 1:
        annotation = args[0]  # Optional[X] -> X
    if get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    if get_origin(annotation) is list:
        return list[str]
    return annotation if annotation in (int, str, bool) else str


def _help(info: FieldInfo) -> str:
    return info.description or ""


def _parameters(classes: list[type[Command]], fixed: dict[str, Any],
                parse_with: dict[str, tuple[Any, Callable[[Any], Any]]]) -> tuple[list[inspect.Parameter], dict]:
    first = classes[0]
    hidden = set(fixed) | set(first.actor_fields) | {"action"}
    fields: dict[str, tuple[FieldInfo, type[Command]]] = {}
    for cls in classes:
        for name, info in cls.model_fields.items():
            if name not in hidden:
                fields.setdefault(name, (info, cls))
    params, kinds = [], {}
    positional = [n for n in first.cli_arguments if n in fields]
    for name in positional + [n for n in fields if n not in positional]:
        info, cls = fields[name]
        parser = cls.cli_parsers.get(name)
        if parser is not None:
            kind = parse_with[parser][0] if parser in parse_with else str
        else:
            kind = str if name in cls.lookups else _cli_type(info.annotation)
        kinds[name] = (parser, cls.lookups.get(name))
        required = name not in cls.lookups and all(
            name in c.model_fields and c.model_fields[name].is_required() for c in classes)
        option_name = "--" + name.replace("_", "-")
        if name == "characteristics" and name not in positional or name == "traits":
            option_name = "--" + name[:-1]  # repeatable, one value each
        if name in positional:
            marker = typer.Argument(help=_help(info), show_default=False)
        else:
            marker = typer.Option(option_name, help=_help(info), show_default=False)
        if kind is bool:
            annotation, default = Annotated[bool, marker], False
        else:
            annotation = Annotated[kind if required else Optional[kind], marker]  # noqa: UP007
            default = inspect.Parameter.empty if required else None
        params.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation))
    return params, kinds


def make(words: str, classes: list[type[Command]], fixed: dict[str, Any] | None = None) -> Callable[..., None]:
    """A typer command running ``classes`` (one command of several systems) with ``fixed`` inputs."""
    fixed = dict(fixed or {})
    first = classes[0]
    is_action = first.action_name() is not None
    parse_with = parsers()
    params, kinds = _parameters(classes, fixed, parse_with)
    own = [p.name for p in params]

    def command(**given: Any) -> None:
        as_, campaign, fmt = given.pop("as_"), given.pop("campaign"), given.pop("fmt")
        unit = given.pop("challenge", None)

        def act(t: Target) -> None:
            payload: dict[str, Any] = dict(fixed)
            for name in own:
                value = given.get(name)
                if value is None or value == [] and name not in first.cli_arguments:
                    continue
                parser, lookup = kinds[name]
                if parser is not None:
                    if parser not in parse_with:
                        raise UsageError(f"no parser {parser!r} for {name}")
                    value = parse_with[parser][1](value)
                if lookup is not None:
                    value = str(LOOKUPS[lookup](t, value))
                payload[name] = value
            for name, (_, lookup) in kinds.items():  # an id left out: the current one
                if lookup == "unit" and name not in payload:
                    payload[name] = str(unit_id(t, None))
            key = uuid4().hex  # one key per invocation: a retry after a lost answer is applied once
            if is_action:
                payload["action"] = first.action_name()
                result = t.backend.act(t.campaign_id(), t.seat, unit_id(t, unit), payload, key=key)
            else:
                result = t.backend.run(t.campaign_id(), t.seat, first.verb, payload, key=key)
            if first.answer == "unit" and first.draws_secret:
                config.update(challenge=str(result.id))  # a new unit becomes the current one
            emit(result, fmt, output.render)

        run(as_, campaign, act)

    common = [
        inspect.Parameter("as_", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=As),
        inspect.Parameter("campaign", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=CampaignOpt),
        inspect.Parameter("fmt", inspect.Parameter.KEYWORD_ONLY, default=Format.table, annotation=Fmt),
    ]
    if is_action:
        common.append(inspect.Parameter("challenge", inspect.Parameter.KEYWORD_ONLY, default=None,
                                        annotation=ChallengeOpt))
    signature = inspect.Signature(params + common)
    command.__signature__ = signature  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in signature.parameters.values()}
    shared = next((c for c in SHARED if all(issubclass(k, c) for k in classes)), None)
    command.__doc__ = (shared if shared is not None and len(classes) > 1 else first).__doc__
    command.__name__ = words.replace(" ", "_").replace("-", "_")
    return command


def catalogue() -> dict[str, tuple[list[type[Command]], dict[str, Any]]]:
    """CLI words -> the command classes they run (several systems may share words) and fixed inputs."""
    found: dict[str, tuple[list[type[Command]], dict[str, Any]]] = {}
    every = [c for s in supported() for c in (*s.commands(), *s.actions())] + list(SHARED)
    for cls in every:
        for words, fixed in ((cls.cli, {}), *cls.cli_variants) if cls.cli else cls.cli_variants:
            classes, _ = found.setdefault(words, ([], fixed))
            if cls not in classes and not any(issubclass(c, cls) for c in classes):
                classes.append(cls)
    return found


def make_read(read: Any) -> Callable[..., None]:
    """A typer command for a read a system offers (``stakes budget``, ``stakes debts`` …)."""

    def command(as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table) -> None:
        run(as_, campaign, lambda t: emit(t.backend.read(t.campaign_id(), t.seat, read.name), fmt,
                                          output.renderers().get(read.name) or output.render))

    command.__doc__ = read.doc
    command.__name__ = read.name
    return command


def install(root: typer.Typer, groups: dict[str, typer.Typer]) -> None:
    """Add every generated command to the root or to its group (created when missing)."""
    from adapters.systems import edges

    made = [(words, make(words, classes, fixed)) for words, (classes, fixed) in catalogue().items()]
    reads = {r.cli: r for e in edges() for r in e.READS}
    made += [(words, make_read(read)) for words, read in reads.items()]
    members: dict[str, list[str]] = {}
    for words, _ in made:
        if " " in words:
            members.setdefault(words.split()[0], []).append(words.split()[1])
    for words, command in made:
        *group, name = words.split()
        target = root
        if group:
            if group[0] not in groups:
                groups[group[0]] = typer.Typer(help=f"{group[0].title()}: {', '.join(members[group[0]])}.",
                                               no_args_is_help=True)
                root.add_typer(groups[group[0]], name=group[0])
            target = groups[group[0]]
        target.command(name)(command)
