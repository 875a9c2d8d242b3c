"""Commands: small typed objects, each defined once, with the handler that runs it (cosmicpython style).

A command class declares its inputs as (strict) pydantic fields and, as class
variables, everything the edges need to offer it: its name, who may issue it,
the ruling it enforces, its HTTP route, the read that answers it and its CLI
words. The API, the CLI and the remote client are generated from these
declarations (``api/commands.py``, ``cli/commands.py``, ``cli/remote.py``); no
edge writes a command by hand.

Two kinds:

- a **campaign command** (``route`` under ``/campaigns/{campaign_id}``), run by
  ``StakesApplication.execute``; a system may give its own class for a shared
  name (``add-player``, ``start-adventure``) and the campaign's system decides
  which one validates the input;
- a **unit action** (``action`` set): a move in a unit of resolution, sent to
  ``/campaigns/{campaign_id}/challenges/{unit}/actions`` with ``{"action": …}``
  and run by the unit's system (``StakesApplication.act``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Literal, TypeVar
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field, Strict, ValidationError

from domain.errors import NotPermitted, RuleViolation
from domain.seats import Seat

#: Strict scalar types: ``true`` is not a number and ``"12"`` is not an integer.
Int = Annotated[int, Strict()]
Bool = Annotated[bool, Strict()]
Who = Literal["house", "player", "anyone"]

C = TypeVar("C", bound="Command")


@dataclass(frozen=True)
class Context:
    """Who issues a command, in which campaign, the secret seed drawn for it (C-4) if it needs one, and its
    key (exactly once, ``domain/kernel/record.py``)."""

    campaign_id: UUID
    actor: Seat
    secret: str | None = None
    #: The command's key (a client's ``Idempotency-Key``): the same key is never applied twice.
    key: str | None = None
    #: The commitment this request's first attempt met (C-10), kept across every attempt of the request: a
    #: retry after a lost race, or a command decided again alone after its group's write failed (ADR 0042).
    met: dict[str, int] = field(default_factory=dict, compare=False, hash=False)


class Command(BaseModel):
    """Base class of every command and unit action."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    #: Unique within its system (or the kernel); shared verbs let systems give their own inputs.
    #: A unit action has a field ``action: Literal[...]`` instead, the value the request body carries.
    verb: ClassVar[str] = ""
    #: Who may issue it: the House, a player (for himself), or anyone seated.
    who: ClassVar[Who] = "anyone"
    #: The ruling a seat that may not issue it is refused with (C-1, unless the system's rules say who).
    who_ruling: ClassVar[str] = "C-1"
    ruling: ClassVar[str] = "C-1"
    #: ``"POST /loans/{loan}/accept"``, relative to ``/campaigns/{campaign_id}``; path parameters are fields.
    route: ClassVar[str] = ""
    status: ClassVar[int] = 200
    #: The read that answers the command (see ``adapters.answers``).
    answer: ClassVar[str] = "campaign"
    #: CLI words, e.g. ``"loan accept"``, and the fields given as positional arguments.
    cli: ClassVar[str] = ""
    cli_arguments: ClassVar[tuple[str, ...]] = ()
    #: More CLI words for the same command with some inputs fixed: ``(("trait buy", {"new": True}), …)``.
    cli_variants: ClassVar[tuple[tuple[str, dict[str, Any]], ...]] = ()
    #: Fields the CLI reads from text with a named parser (``"numbers"``: ``3,5,1``; a system's own …).
    cli_parsers: ClassVar[dict[str, str]] = {}
    #: A field's CLI option when it is not the field's name (``{"reveal": "--yes"}``).
    cli_options: ClassVar[dict[str, str]] = {}
    #: ``(bool field, ruling)``: refused under that ruling without the field, the CLI shows why and asks whether
    #: to go ahead, then sends the field true (issue 31: an undo that would show cards, C-8).
    cli_confirm: ClassVar[tuple[str, str] | None] = None
    #: C-4: text fields the CLI fills, when not given, with 128 random bits drawn on the client
    #: (``secrets.token_hex(16)``), never by the server: a seed the seat need not make up.
    cli_random: ClassVar[tuple[str, ...]] = ()
    #: Fields that default to the acting seat's name when not given (``seat`` of a sheet command).
    actor_fields: ClassVar[tuple[str, ...]] = ()
    #: Id fields the CLI accepts as a prefix, and the kind of id (``"loan"``, ``"unit"``).
    lookups: ClassVar[dict[str, str]] = {}
    #: For a unit action: the unit classes (aggregates) it is played in.
    units: ClassVar[tuple[type, ...]] = ()
    #: For a unit action: whether the table waits for a seat that may play it (False: an optional move, which
    #: the unit goes on without; a seat whose only moves are such is not told "your move").
    awaited: ClassVar[bool] = True
    #: For a campaign command: the unit classes whose legal actions list it as a move (an answer to something
    #: offered into the unit). Sent to the unit's one action endpoint as ``{"action": verb, …its fields}``, it
    #: runs as this command, with the same authorization and key as on its own route (issue 31). The system
    #: checks that it concerns that unit (``RuleSystem.verify_listed``).
    listed_in: ClassVar[tuple[type, ...]] = ()
    #: What this class's own inputs stand for, for the refusal another system's campaign gets when it
    #: sends them (Penny Ante's ``start-adventure`` amount: "a pool campaign has no House budget").
    elsewhere: ClassVar[str] = ""
    #: C-4: the adapters draw a secret seed before the command runs and pass it in the context.
    draws_secret: ClassVar[bool] = False
    #: C-10: a one-shot draw (the player's input and the draw in one request). It draws with the secret its
    #: seat committed before the request (``domain/kernel/commitments.py``); the secret the adapters draw
    #: for it becomes the seat's next commitment, in the same write. Its handler returns the unit's id.
    one_shot: ClassVar[bool] = False

    @classmethod
    def summary(cls) -> str:
        """The docstring's first paragraph, on one line (a sentence cut at the line's end reads as broken)."""
        return " ".join((cls.__doc__ or cls.verb).strip().split("\n\n")[0].split())

    @classmethod
    def action_name(cls) -> str | None:
        """For a unit action, the value of its ``action`` field; None for a campaign command."""
        field = cls.model_fields.get("action")
        return field.default if field is not None else None

    @classmethod
    def choice_field(cls, choices: Sequence[Any], carried: frozenset[str] = frozenset()) -> str | None:
        """The body field a legal action's ``choices`` are values of: the one field (a required one before
        an optional one) whose type takes them, one of them or, for a list field, several. None when they
        are not the values of one field (objects giving several fields' ranges, or names of flags). Never
        the acting member's field (``side``, ``member``, ``seat``: the legal action's ``member``), nor one
        ``carried`` (a field the legal action gives a limit of its own for)."""
        kinds = {_choice_kind(c) for c in choices}
        if not choices:  # nothing to choose from (an empty hand): still the field to send, empty
            return _field_taking(cls, None, carried)
        if len(kinds) != 1 or None in kinds:
            return None
        return _field_taking(cls, kinds.pop(), carried)

    @classmethod
    def parse(cls: type[C], payload: Any) -> C:
        """Validate raw input; a refusal names the ruling and says which field is wrong (never a 500)."""
        if isinstance(payload, cls):
            return payload
        try:
            return cls.model_validate(payload)
        except ValidationError as exc:
            parts = []
            for error in exc.errors():
                where = ".".join(str(p) for p in error.get("loc", ()))
                if error.get("type") == "missing" and where:  # in words: "the opponent is missing"
                    parts.append(f"the {where.replace('.', ' ').replace('_', ' ')} is missing")
                    continue
                parts.append(f"{where}: {error.get('msg')}" if where else str(error.get("msg")))
            raise RuleViolation("; ".join(parts), ruling=cls.ruling) from None

    @classmethod
    def authorize(cls, actor: Seat) -> None:
        doing = re.split(r"[:;(,]", cls.summary())[0].strip().rstrip(".")
        doing = doing[:1].lower() + doing[1:]
        if cls.who == "house" and not actor.is_house:
            raise NotPermitted(f"only the House may {doing}", ruling=cls.ruling if cls.ruling.startswith("C-") else "C-1")
        if cls.who == "player" and actor.is_house:
            raise NotPermitted(f"the House has no character: only a player may {doing}", ruling=cls.who_ruling)


def _choice_kind(value: Any) -> str | None:
    if isinstance(value, bool):
        return "boolean"
    return {int: "integer", str: "string"}.get(type(value))


@functools.cache
def _field_taking(cls: type[Command], kind: str | None, carried: frozenset[str]) -> str | None:
    """The field that takes choices of ``kind`` (None: any list field, for choices that are empty)."""
    schema = cls.model_json_schema()
    required = set(schema.get("required", []))
    found = []
    for name, prop in schema.get("properties", {}).items():
        if name in ("action", "side", "member", "seat") or name in carried:
            continue
        if kind is None:  # no choice to read a type from: only a list the move requires
            if name in required and any(option.get("type") == "array" for option in prop.get("anyOf", [prop])):
                found.append(name)
            continue
        for option in prop.get("anyOf", [prop]):
            if option.get("type") == kind or (option.get("type") == "array" and
                                              option.get("items", {}).get("type") == kind):
                found.append(name)
                break
    best = [n for n in found if n in required] or found
    return best[0] if len(best) == 1 else None


def text(max_length: int, description: str = "", **extra: Any) -> Any:
    """A text field of the request (cleaned and checked again by the rules)."""
    return Field(max_length=max_length, description=description, **extra)


#: ``(app, ctx, command)`` for a campaign command, ``(app, ctx, campaign, unit, action)`` for a unit's move.
Handler = Callable[..., Any]


class Handlers:
    """Handlers looked up by command type: one handler per command type, typed with its class (ADR 0036), so no
    handler branches again on the type of what it was given. The order of registration is the order a
    system's actions are listed in."""

    def __init__(self) -> None:
        self.by_type: dict[type[Command], Handler] = {}
        self._verbs: dict[str, type[Command]] | None = None
        #: Asked several times per request (``RuleSystem.commands``, ``actions``): worked out once per registration.
        self._split: tuple[tuple[type[Command], ...], tuple[type[Command], ...]] | None = None
        self._by_unit: dict[type, tuple[type[Command], ...]] = {}

    def __call__(self, command: type[Command]) -> Callable[[Handler], Handler]:
        def register(handler: Handler) -> Handler:
            if any(known is handler for known in self.by_type.values()):
                raise TypeError(f"{getattr(handler, '__name__', handler)} already handles another command type: "
                                "one handler per command type (ADR 0036)")
            self.by_type[command] = handler
            self._changed()
            return handler

        return register

    def declare(self, *commands: type[Command]) -> None:
        """A system's own inputs for a shared command, run by the shared handler."""
        for command in commands:
            self.by_type[command] = None  # type: ignore[assignment]
        self._changed()

    def _changed(self) -> None:
        self._verbs, self._split, self._by_unit = None, None, {}

    def commands(self) -> tuple[type[Command], ...]:
        return tuple(self.by_type)

    def split(self) -> tuple[tuple[type[Command], ...], tuple[type[Command], ...]]:
        """The campaign commands and the unit actions, each in the order of registration."""
        if self._split is None:
            self._split = (tuple(c for c in self.by_type if c.action_name() is None),
                           tuple(c for c in self.by_type if c.action_name() is not None))
        return self._split

    def actions_of(self, unit_type: type) -> tuple[type[Command], ...]:
        """The unit actions played in a unit of ``unit_type`` (``Command.units``)."""
        found = self._by_unit.get(unit_type)
        if found is None:
            found = self._by_unit[unit_type] = tuple(c for c in self.split()[1] if issubclass(unit_type, c.units))
        return found

    def campaign_command(self, verb: str) -> type[Command] | None:
        """The first campaign command (not a unit action) registered for ``verb``: asked on every request,
        so looked up in a table made once (issue 15)."""
        if self._verbs is None:
            verbs: dict[str, type[Command]] = {}
            for command in self.by_type:
                if command.action_name() is None:
                    verbs.setdefault(command.verb, command)
            self._verbs = verbs
        return self._verbs.get(verb)
