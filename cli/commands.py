"""CLI commands generated from the command classes: nothing here is written per command or per system.

Each command class names its CLI words (``"loan accept"``), the inputs taken as arguments, and the
parsers for inputs typed as text (``3,5,1``). Classes of several systems with the same words become one
command offering the union of their inputs; the campaign's system decides which are valid. Moves in a
unit of resolution take ``--challenge/-C`` (an id prefix; by default the current one). Each system's
CLI module (``cli/systems/<package>.py``, optional) may add parsers for its own inputs (``CLI.parsers``).
"""

from __future__ import annotations

import inspect
import re
import secrets
import sys
from collections.abc import Callable, Iterator
from typing import Annotated, Any
from uuid import UUID, uuid4

import typer

from cli import catalogue, config
from cli.options import As, CampaignOpt, ChallengeOpt, Fmt, Format, group
from cli.session import Target, UsageError, run
from domain.errors import RuleViolation


# -- reading typed inputs from text ------------------------------------------------------------------------
def numbers(text: str | None) -> list[int] | None:
    if text is None:
        return None
    try:
        return [int(x) for x in text.replace(" ", "").split(",") if x]
    except ValueError:
        raise UsageError(f"{text!r} is not a comma-separated list of numbers") from None


def positions(text: str | None) -> list[int] | None:
    """Dice by their positions as the table shows them, counting from 1 (``1,3``): indices from 0 for the rules."""
    found = numbers(text)
    if found is None:
        return None
    if any(n < 1 for n in found):
        raise UsageError(f"{text!r}: dice positions count from 1, as the table shows them")
    return [n - 1 for n in found]


#: Parser name -> (what the command line takes, how it becomes the input).
PARSERS: dict[str, tuple[Any, Callable[[Any], Any]]] = {"numbers": (str, numbers), "positions": (str, positions)}


def parsers() -> dict[str, tuple[Any, Callable[[Any], Any]]]:
    """The shared parsers and every system's own (``cli/systems/<package>.py``, ``CLI.parsers``, ADR 0030)."""
    from cli import systems

    found = dict(PARSERS)
    for module in catalogue.load()["cli_modules"]:
        found.update(systems.of(module).parsers)
    return found


# -- ids given by their first characters ----------------------------------------------------------------------
def _seat_key(t: Target) -> str:
    return f"{t.campaign_id().hex} {t.seat.name}"


def current_unit(t: Target, unit: UUID) -> None:
    """``unit`` becomes this seat's current one (in this campaign): its later moves need no id."""
    known = config.load()
    if known.units.get(_seat_key(t)) != unit.hex:
        config.update(units={**known.units, _seat_key(t): unit.hex})


def unit_id(t: Target, text: str | None, settled: bool = False) -> UUID:
    """A unit of resolution: an id or its first characters, else this seat's current one (while it is open, or
    while no other is open for this seat: else the one open unit this seat is in, or the only open one), else the
    only open one; with ``settled`` (``challenge show``; verify and replay read :func:`settled_unit`), else the last
    settled unit the seat took part in, else the campaign's last settled one (issue 31). A whole id is taken
    as it is: no list is read to find it (issue 30)."""
    known = config.load()
    wanted = (text or known.units.get(_seat_key(t)) or known.challenge or "").lower().replace("-", "")
    if len(wanted) == 32 and not text:
        # the seat's current unit, unless it is over while one open unit is this seat's (or the only open one):
        # a unit another seat opened since would otherwise go unseen ("Nothing to do for you now")
        open_ones = t.backend.challenges(t.campaign_id(), t.seat, limit=100, open_only=True)
        if all(c.id.hex != wanted for c in open_ones):
            mine = [c for c in open_ones if t.seat.name in (*c.challenger, *c.opponent)]
            for found in (mine, open_ones):
                if len(found) == 1:
                    return found[0].id
    if len(wanted) == 32:
        try:
            return UUID(wanted)
        except ValueError:
            pass
    if not wanted:
        open_ones = t.backend.challenges(t.campaign_id(), t.seat, limit=100, open_only=True)
        mine = [c for c in open_ones if t.seat.name in (*c.challenger, *c.opponent)]
        for found in (open_ones, mine):  # the only open one, else the only open one this seat is in
            if len(found) == 1:
                return found[0].id
        if settled:  # a read: the last settled unit this seat took part in, else the campaign's last
            done = [c for c in every_unit(t) if c.phase in ("settled", "void")]
            mine = [c for c in done if t.seat.name in (*c.challenger, *c.opponent)]
            if mine or done:
                return (mine or done)[-1].id
        raise UsageError("several or no challenges are open: give the challenge's id (or its first characters)")
    matches = [c.id for c in every_unit(t) if c.id.hex.startswith(wanted)]
    if len(matches) != 1:
        raise UsageError(f"{text!r} names {'no' if not matches else 'more than one'} challenge of this campaign")
    return matches[0]


def settled_unit(t: Target, text: str | None, doing: str, say: bool = True) -> UUID:
    """What ``verify`` and ``replay`` read when no id is given (issue 31): the last settled unit the seat took
    part in (for the House, or a seat in none, the campaign's last), even while another is open; said on stderr,
    so the reader knows which one it is (``say``; not under ``--format json``, whose answer names it); while none
    is settled, the seat's current or only open one. With an id (or its first characters): that unit."""
    if text:
        return unit_id(t, text)
    from domain.seats import HOUSE

    done = [c for c in every_unit(t) if c.phase in ("settled", "void")]
    mine = [] if t.seat.name == HOUSE else [c for c in done if _takes_part(t, c)]
    if not done:  # none settled yet: the seat's current or only open one, as a move finds it
        try:
            return unit_id(t, None)
        except UsageError:
            raise UsageError("no settled unit in this campaign yet: give the id of the one to read "
                             "(stakes challenge list)") from None
    if say:
        from cli.inert import neutralise

        whose = " one you took part in" if mine else ""
        print(neutralise(f"{doing} {_named((mine or done)[-1])}, the last settled{whose} (give an id for another)."),
              file=sys.stderr)
    return (mine or done)[-1].id


def listed_in(t: Target, spec: dict[str, Any], payload: dict[str, Any], text: str | None) -> UUID | None:
    """Issue 31: the unit whose legal actions list this campaign command with these inputs (an answer to what
    was offered into it): the one named with ``--challenge``, else the seat's current one, else an open one of
    a kind that may list it (the seat's first). Played there, the command takes the unit's one action path, as
    a page or any other client does; None when no such unit lists it, and it runs on its own route."""
    verb = spec["verb"]
    if text:
        try:
            candidates = [unit_id(t, text)]
        except UsageError:
            return None
    else:
        current = _current(t)
        taking = _taking(t, spec)
        candidates = ([current] if current is not None else []) + [c.id for c in taking if c.id != current]
    for found in candidates:
        view = t.backend.challenge(t.campaign_id(), t.seat, found)
        for listed in getattr(view, "legal_actions", []):
            if listed.action == verb and all(str(getattr(listed, k)) == str(v) for k, v in payload.items()
                                             if getattr(listed, k, None) is not None):
                return found
    return None


def _current(t: Target) -> UUID | None:
    """The seat's current unit (the one it last opened or moved in), if it has one."""
    known = config.load()
    wanted = (known.units.get(_seat_key(t)) or known.challenge or "").replace("-", "")
    try:
        return UUID(wanted) if len(wanted) == 32 else None
    except ValueError:
        return None


def _takes_part(t: Target, c: Any) -> bool:
    return t.seat.name in (*c.challenger, *c.opponent)


def _taking(t: Target, spec: dict[str, Any]) -> list[Any]:
    """The open units of a kind that takes the command (``units`` in the catalogue), those the seat takes part
    in first."""
    kinds = spec.get("units")
    open_ones = t.backend.challenges(t.campaign_id(), t.seat, limit=100, open_only=True)
    found = [c for c in open_ones if kinds is None or c.kind in kinds]
    return sorted(found, key=lambda c: not _takes_part(t, c))


def _named(c: Any) -> str:
    """A unit in words, for a choice to make: ``combat 5a89f0d5 (ilse vs house)``."""
    from cli.systems import label

    who = " vs ".join(", ".join(side) for side in (c.challenger, c.opponent) if side)
    return f"{label(c.kind)} {c.id.hex[:8]}" + (f" ({who})" if who else "")


def move_target(t: Target, spec: dict[str, Any], text: str | None) -> UUID:
    """The unit a move goes to (issue 31): the one named; else the seat's current unit if it takes this move
    (its kind); else the one open unit that does, the seat's first, then the campaign's. Several: a refusal
    listing them, to choose with ``-C``."""
    if text or spec.get("units") is None:
        return unit_id(t, text)
    taking = _taking(t, spec)
    current = _current(t)
    if current is not None and any(c.id == current for c in taking):
        return current
    mine = [c for c in taking if _takes_part(t, c)]
    for found in (mine, taking):
        if len(found) == 1:
            return found[0].id
        if len(found) > 1:
            raise UsageError(f"'stakes {spec['words']}' could go to several open units: "
                             f"{'; '.join(map(_named, found))}. Give one with -C <id>.")
    return current if current is not None else unit_id(t, None)


def every_unit(t: Target) -> Iterator[Any]:
    """The campaign's units, page by page."""
    after = 0
    while page := t.backend.challenges(t.campaign_id(), t.seat, after=after, limit=500):
        yield from page
        after = page[-1].position


LOOKUPS: dict[str, Callable[[Target, Any], UUID]] = {
    "unit": unit_id, "settled-unit": lambda t, text: settled_unit(t, text, "Ruling on", say=False)}


def lookups() -> dict[str, Callable[[Target, Any], UUID]]:
    """The shared id lookups and every system's own (``CLI.lookups``: Penny Ante's loans, ADR 0030)."""
    from cli import systems

    found = dict(LOOKUPS)
    for module in catalogue.load()["cli_modules"]:
        found.update(systems.of(module).lookups)
    return found


# -- building a typer command from the catalogue ------------------------------------------------------------
_NOTES = re.compile(r"\s*\((?:issue \d+[^()]*|a JSON boolean[^()]*)\)|\s*A JSON boolean: [^.]*\.|\s*\(issue \d+\)")


def for_people(text: str) -> str:
    """A command's or option's help as a player reads it: its first paragraph (the rest is for developers), and
    no notes on the wire format or the issue that brought it ("a JSON boolean: …", "(issue 31)")."""
    first = (text or "").strip().split("\n\n", 1)[0]
    return _NOTES.sub("", first).strip()


KINDS: dict[str, Any] = {"str": str, "int": int, "bool": bool, "list": list[str]}


def _parameter(p: dict[str, Any]) -> inspect.Parameter:
    kind, required = KINDS[p["kind"]], p["required"]
    if p["positional"]:
        marker = typer.Argument(help=for_people(p["help"]), show_default=False)
    else:
        marker = typer.Option(p["option"], help=for_people(p["help"]), show_default=False)
    annotation: Any
    default: Any
    if kind is bool:
        annotation, default = Annotated[bool, marker], False
    else:
        annotation = Annotated[kind if required else kind | None, marker]
        default = inspect.Parameter.empty if required else None
    return inspect.Parameter(p["name"], inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)


def _confirmed(confirm: list[str] | None, refused: RuleViolation, payload: dict[str, Any], fmt: Format) -> bool:
    """A command refused only until the House says yes (``Command.cli_confirm``: an undo that shows cards
    every seat saw, C-8): on a terminal, show why and ask; elsewhere the refusal stands (``--yes`` goes
    ahead without asking)."""
    if not confirm or refused.ruling != confirm[1] or payload.get(confirm[0]) or fmt is Format.json \
            or not sys.stdin.isatty():
        return False
    from cli import output

    output.err.print(f"{refused.ruling}: {refused}")
    return typer.confirm("Go ahead?", default=False)


def make(spec: dict[str, Any]) -> Callable[..., None]:
    """A typer command for one entry of the catalogue: one command (of one or several systems)."""
    fixed = dict(spec["fixed"])
    params = [_parameter(p) for p in spec["params"]]
    kinds = {p["name"]: (p["parser"], p["lookup"]) for p in spec["params"]}
    drawn = [p["name"] for p in spec["params"] if p.get("random")]

    def command(**given: Any) -> None:
        as_, campaign, fmt = given.pop("as_"), given.pop("campaign"), given.pop("fmt")
        unit = given.pop("challenge", None)

        def act(t: Target) -> None:
            from cli import output

            parse_with = parsers() if any(parser for parser, _ in kinds.values()) else PARSERS
            payload: dict[str, Any] = dict(fixed)
            for name in drawn:  # C-4: a seed left out is 128 random bits drawn here, on the client
                if given.get(name) is None:
                    given[name] = secrets.token_hex(16)
            for name, (parser, lookup) in kinds.items():
                value = given.get(name)
                if value is None or value is False or (value == [] and name not in spec["arguments"]):
                    continue  # a flag not given is left out: the command's own default stands
                if parser is not None:
                    if parser not in parse_with:
                        raise UsageError(f"no parser {parser!r} for {name}")
                    value = parse_with[parser][1](value)
                if lookup is not None:
                    value = str((LOOKUPS if lookup in LOOKUPS else lookups())[lookup](t, value))
                payload[name] = value
            for name in spec.get("random") or []:  # C-4, C-9: a seed drawn here, on the client, when none is given
                payload.setdefault(name, secrets.token_hex(16))
            for name, (_, lookup) in kinds.items():  # an id left out: the current one (the last settled one)
                if lookup == "unit" and name not in payload:
                    payload[name] = str(unit_id(t, None))
                elif lookup == "settled-unit" and name not in payload:
                    payload[name] = str(settled_unit(t, None, "Ruling on", fmt is Format.table))
            key = uuid4().hex  # one key per invocation: a retry after a lost answer is applied once
            if spec["action"]:
                payload["action"] = spec["action"]
                moved = move_target(t, spec, unit)
                result = t.backend.act(t.campaign_id(), t.seat, moved, payload, key=key)
                current_unit(t, moved)  # the unit this seat moved in is its current one
            elif spec.get("listed") and (listing := listed_in(t, spec, payload, unit)) is not None:
                result = t.backend.act(t.campaign_id(), t.seat, listing, {"action": spec["verb"], **payload}, key=key)
            else:
                try:
                    result = t.backend.run(t.campaign_id(), t.seat, spec["verb"], payload, key=key)
                except RuleViolation as refused:
                    if not _confirmed(spec.get("confirm"), refused, payload, fmt):
                        raise
                    payload[spec["confirm"][0]] = True
                    result = t.backend.run(t.campaign_id(), t.seat, spec["verb"], payload, key=uuid4().hex)
                if spec["new_unit"]:
                    current_unit(t, result.id)  # a new unit becomes the current one of the seat that opened it
            output.emit(result, fmt, output.render)

        run(as_, campaign, act, fmt)

    common = [
        inspect.Parameter("as_", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=As),
        inspect.Parameter("campaign", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=CampaignOpt),
        inspect.Parameter("fmt", inspect.Parameter.KEYWORD_ONLY, default=Format.table, annotation=Fmt),
    ]
    if spec["action"] or spec.get("listed"):
        common.append(inspect.Parameter("challenge", inspect.Parameter.KEYWORD_ONLY, default=None,
                                        annotation=ChallengeOpt))
    signature = inspect.Signature(params + common)
    command.__signature__ = signature  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in signature.parameters.values()}
    command.__doc__ = for_people(spec["doc"])
    command.__name__ = spec["words"].replace(" ", "_").replace("-", "_")
    return command


def make_read(read: dict[str, Any]) -> Callable[..., None]:
    """A typer command for a read a system offers (``stakes budget``, ``stakes debts`` …)."""

    def command(as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table) -> None:
        from cli import output

        run(as_, campaign, lambda t: output.emit(t.backend.read(t.campaign_id(), t.seat, read["name"]), fmt,
                                                 output.named(read["name"])), fmt)

    def paged(as_: As = None, campaign: CampaignOpt = None, fmt: Fmt = Format.table,
              after: Annotated[str | None, typer.Option(help="Start after this id (the previous page's"
                                                                  " next_after).")] = None,
              limit: Annotated[int, typer.Option(min=1, max=500, help="At most this many.")] = 100) -> None:
        from adapters.plugin import Page
        from cli import output

        run(as_, campaign, lambda t: output.emit(
            t.backend.read(t.campaign_id(), t.seat, read["name"], Page(after, limit)), fmt,
            output.named(read["name"])), fmt)

    if read.get("paged"):
        command = paged
    command.__doc__ = for_people(read["doc"])
    command.__name__ = read["name"]
    return command


def install(root: typer.Typer, groups: dict[str, typer.Typer]) -> None:
    """Add every generated command to the root or to its group (created when missing)."""
    found = catalogue.load()
    made = [(spec["words"], make(spec)) for spec in found["commands"]]
    reads = {r["cli"]: r for r in found["reads"]}
    made += [(words, make_read(read)) for words, read in reads.items()]
    # a group holding several systems' commands (or one written for all, ``challenge``) says whose each one is
    titles = {s["id"]: s["name"] for s in found["systems"] if s["supported"]}
    serving = [(spec["words"], set(spec["systems"])) for spec in found["commands"]] + \
        [(r["cli"], {r["system"]}) for r in reads.values()]
    in_group: dict[str, set[str]] = {}
    for words, systems_of in serving:
        if " " in words:
            in_group.setdefault(words.split()[0], set()).update(
                set(titles) if words.split()[0] in groups else systems_of)
    for (words, command), (_, systems_of) in zip(made, serving, strict=True):
        whose = [titles[s] for s in titles if s in systems_of]
        if " " in words and len(whose) < len(in_group.get(words.split()[0], ())) and command.__doc__ and \
                not command.__doc__.startswith(tuple(titles.values())):
            command.__doc__ = f"{' and '.join(whose)}: {command.__doc__}"
    members: dict[str, list[str]] = {}
    for words, _ in made:
        if " " in words:
            members.setdefault(words.split()[0], []).append(words.split()[1])
    for words, command in made:
        *parent, name = words.split()
        target = root
        if parent:
            if parent[0] not in groups:
                groups[parent[0]] = group(help=f"{parent[0].title()}: {', '.join(members[parent[0]])}.")
                root.add_typer(groups[parent[0]], name=parent[0])
            target = groups[parent[0]]
        target.command(name)(command)
