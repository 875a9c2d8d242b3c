"""Each rule system's CLI module, ``cli/systems/<package>.py`` (ADR 0030): how the CLI reads like that game.

The shared CLI (``cli/tables.py``, ``cli/catalogue.py``, ``cli/commands.py``) names no system's concepts. What
a system's table looks like comes from its module's ``CLI``, a :class:`SystemCli`:

- ``parsers``: how its inputs are read from text (``3,5,1``, ``ilse+tomas``, ``Brave=1``);
- ``options``: the option an input is typed with when it is not the field's name (a repeatable
  ``--characteristic`` for ``characteristics``);
- ``lookups``: ids of its own given by their first characters (a command's ``lookups`` names the kind),
  ``(target, text) -> UUID``;
- ``renderers``: how its answers are drawn, by schema name (``"Sheet"``, ``"list[Sheet]"``), by read name
  (``"house-characters"``), or by unit kind for a unit answered as the shared view (``"unit:PulpCombat"``);
- ``unit_kinds`` and ``unit_columns``: which units of resolution are its own and the columns of their rows in
  ``stakes challenge list`` after the shared id, kind and step (Penny Ante's ante and pot are its own);
- ``boards``: a unit as it stood after one step of ``stakes replay``, by unit kind, ``(unit id, state) ->
  renderable``: the board ``challenge show`` draws, without moves (issue 31);
- ``phrases``: one event in words, for ``stakes log`` and each step of ``stakes replay``, by the kind of its
  stream (``"BeastCharacter"``, ``"PoolRoll"``), ``(event, detail, said) -> text``, or None to leave it
  to the shared words (``Kind event``, its detail as ``key: value``). ``said`` (:class:`Said`) gives the
  names the table knows its seats by and the stream's own memo, so a phrase says "Ilse Varn declares", not
  "The opponent declares" or "ilse" (names, not roles).
- ``unit_labels``: what the table calls each of its unit kinds (``"PulpCombat": "combat"``), shown wherever a
  unit's kind is (issue 31: never a class name); a kind without one reads as its words (:func:`label`).

A system without a module (or with an empty ``CLI``) is drawn by the generic renderers: readable, never a repr.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

#: Parser name -> (what the command line takes, how it becomes the input).
Parser = tuple[Any, Callable[[Any], Any]]
#: Draws one answer (a view of the API's schemas) as something rich prints.
Renderer = Callable[[Any], Any]
#: Draws a unit as it stood after one replay step: (its id, its state as the seat may see it) -> renderable.
Board = Callable[[Any, dict[str, Any]], Any]


@dataclass
class Said:
    """What a phrase knows beyond its one event: the names of the table, and what the stream's earlier events
    said in this reading (a log, a replay). One per stream; its ``memo`` is the phrase's own to fill (a unit
    notes who plays each side as it opens, so its later events say who moved). An event whose stream opened
    before the page read says the side, as the log says it (``the challenger``)."""

    #: The name of whose stream it is (a character's), when an event of the log named it.
    who: str | None = None
    #: Seat -> the name the table knows it by: its character's, or "the House".
    names: Mapping[str, str] = field(default_factory=dict)
    memo: dict[str, Any] = field(default_factory=dict)

    def name(self, seat: Any) -> str:
        """A seat as the table knows it (its character's name); anything else (a name typed at the table, an
        antagonist's) as it is."""
        return self.names.get(str(seat), str(seat))

    def all(self, seats: Any, joined: str = ", ") -> str:
        """Several seats (or names) by their names; ``-`` for none."""
        return joined.join(self.name(s) for s in seats or []) or "-"

    def sides(self, named: Mapping[str, str]) -> None:
        """Note who plays each side of the unit (side -> names), for its later events."""
        self.memo["sides"] = dict(named)

    def side(self, side: Any, capital: bool = True) -> str:
        """Who plays ``side``, as noted when the unit opened; else the side itself (``The challenger``)."""
        found = self.memo.get("sides", {}).get(side) if side else None
        if found:
            return str(found)
        said = f"the {side}" if side else "a side"
        return said[0].upper() + said[1:] if capital else said


#: One logged event in words: (event name, its detail as the seat may see it, what the phrase knows beyond it) ->
#: a phrase (lines after the first are its detail), or None for the shared words.
Phrase = Callable[[str, dict[str, Any], Said], str | None]


@dataclass(frozen=True)
class Column:
    """A column of the unit list: its header and the cell of one unit summary (``schemas.ChallengeSummary``)."""

    header: str
    cell: Callable[[Any], str]


@dataclass(frozen=True)
class SystemCli:
    """What one system adds to the CLI (see the module's docstring)."""

    parsers: Mapping[str, Parser] = field(default_factory=dict)
    options: Mapping[str, str] = field(default_factory=dict)
    lookups: Mapping[str, Callable[[Any, str], Any]] = field(default_factory=dict)
    renderers: Mapping[str, Renderer] = field(default_factory=dict)
    unit_kinds: tuple[str, ...] = ()
    unit_columns: tuple[Column, ...] = ()
    boards: Mapping[str, Board] = field(default_factory=dict)
    phrases: Mapping[str, Phrase] = field(default_factory=dict)
    unit_labels: Mapping[str, str] = field(default_factory=dict)


NONE = SystemCli()


@cache
def of(module: str) -> SystemCli:
    """The CLI of the system whose CLI module is ``module`` (its dotted name, as the catalogue keeps it:
    ``registry.edge_module_name(system, "cli")``), or :data:`NONE` when it has none. The registry is not
    imported here (a command against a server loads no domain), so its ``import_edge`` rule is repeated."""
    try:
        found = getattr(importlib.import_module(module), "CLI", NONE)
    except ModuleNotFoundError as missing:
        if missing.name != module:
            raise  # a module that is there but imports something missing is a bug, not an absent module
        return NONE
    if not isinstance(found, SystemCli):
        raise TypeError(f"{module}.CLI must be a SystemCli")
    return found


def board(view: Any, draw: Renderer, kind: str) -> Board:
    """A :data:`Board` from a system's drawing of its unit view (``challenge show``): the view built from one
    replay step's state, with no moves (``waiting_for=None``: ``cli/tables.py:_legal`` draws nothing)."""
    def drawn(unit: Any, state: dict[str, Any]) -> Any:
        shown = label(kind).capitalize()  # the table's word for the kind ("Combat"): no class names
        return draw(view.model_construct(id=str(unit)[:8], kind=shown, phase=state.get("phase") or "-", state=state,
                                         legal_actions=[], waiting_for=None))

    return drawn


def humanised(kind: str) -> str:
    """A kind's name as words: ``SomeUnitKind`` -> ``some unit kind``."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", kind).replace("_", " ").lower()


def label(kind: str) -> str:
    """What the table calls a unit kind: its system's word (``CLI.unit_labels``), else its name as words."""
    from cli import catalogue

    for module in catalogue.load()["cli_modules"]:
        found = of(module).unit_labels.get(kind)
        if found:
            return found
    return humanised(kind)
