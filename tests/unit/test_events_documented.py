"""docs/events.md lists every event class an aggregate of ``domain/`` can store, in its aggregate's row."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

from eventsourcing.domain import Aggregate, CanInitAggregate

import domain

DOC = Path(__file__).resolve().parents[2] / "docs" / "events.md"


def _aggregates() -> list[type[Aggregate]]:
    for module in pkgutil.walk_packages(domain.__path__, "domain."):
        importlib.import_module(module.name)
    found, todo = [], list(Aggregate.__subclasses__())
    while todo:
        cls = todo.pop()
        todo += cls.__subclasses__()
        if cls.__module__.startswith("domain."):
            found.append(cls)
    return found


def _stored_events(cls: type[Aggregate]) -> set[str]:
    """The event classes defined on the aggregate, less eventsourcing's own base and unused ``Created``."""
    names = set()
    for name, value in vars(cls).items():
        if not (inspect.isclass(value) and issubclass(value, Aggregate.Event)) or name == "Event":
            continue
        if any(name in vars(base) for base in cls.__mro__[1:] if base.__module__.startswith("domain.")):
            continue  # inherited from another aggregate of domain/ (a Debt is a Loan): listed in that row
        if issubclass(value, CanInitAggregate) and name == "Created" and any(
                issubclass(other, CanInitAggregate) and other is not value and other_name != "Created"
                for other_name, other in vars(cls).items() if inspect.isclass(other)):
            continue  # the aggregate is created by an event of its own name (Opened, Announced …)
        names.add(name)
    return names


def test_every_event_an_aggregate_can_store_is_in_the_event_catalogue():
    rows = {}
    for line in DOC.read_text().splitlines():
        found = re.match(r"\| `(\w+)`[^|]*\| `[^`]+` \| (.+) \|$", line)
        if found and found.group(1) not in rows:  # the catalogue's table comes first
            rows[found.group(1)] = {e.strip().split(" ")[0] for e in found.group(2).split(",")}
    listed = {cls.__name__: _stored_events(cls) for cls in _aggregates()}
    assert {k: sorted(v - rows.get(k, set())) for k, v in listed.items() if v - rows.get(k, set())} == {}
    assert {k: sorted(v - listed.get(k, set())) for k, v in rows.items() if v - listed.get(k, set())} == {}


def test_every_stored_event_has_its_own_entry_in_the_event_catalogue():
    text = DOC.read_text()
    described = {pair for line in re.findall(r"^### (.+)$", text, re.MULTILINE) for pair in re.findall(r"`(\w+)\.(\w+)`", line)}
    missing = sorted(f"{cls.__name__}.{name}" for cls in _aggregates() for name in _stored_events(cls)
                     if (cls.__name__, name) not in described)
    assert missing == []


def test_every_emitter_the_catalogue_names_exists_in_the_code():
    """An event's "Emitted by" names a method of the application or a registered command (issue 30: the docs
    named 26 methods that had become commands)."""
    from domain.application import StakesApplication
    from domain.kernel.registry import systems

    commands = {(getattr(c, "verb", None), c.__name__) for s in systems() for c in s.handlers.commands()}
    commands |= {("rewind", "Rewind"), ("overturn", "Overturn"), ("end-adventure", "EndAdventure")}
    text = DOC.read_text()
    methods = set(re.findall(r"`StakesApplication\.(\w+)`", text))
    assert methods, "the catalogue names no application method at all: the pattern is stale"
    assert sorted(m for m in methods if not hasattr(StakesApplication, m)) == []
    named = set(re.findall(r"the `([\w-]+)` command \(`(\w+)`\)", text))
    assert named and sorted(named - commands) == []
