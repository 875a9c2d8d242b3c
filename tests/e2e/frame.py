"""What the web frame's browser tests share (issue 31): a campaign of any rule system made from the registry and
its commands' JSON schema examples only (no test names a system), and the pages a seat passes through.

- ``seat_inputs(system, seat)``: the system's ``add-player`` inputs for a seat, from its schema's examples;
- ``opener(system)``: the system's first campaign command that answers a unit and that the examples can fill
  (None when opening a unit needs knowledge of the system, such as who plays which side);
- ``house_adds_a_player(page, system, seat)``: the House's page sends ``add-player`` as its form does (htmx),
  whatever controls the system's board draws for it, so the invite shows as it does after a click.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.kernel.commands import Command
from domain.kernel.common import SHARED, AddPlayer
from domain.kernel.registry import RuleSystem, supported

#: Campaign commands that answer a unit but are rulings on one, not a way to open one.
RULINGS = ("rewind", "overturn")


def systems() -> list[RuleSystem]:
    return supported()


def examples(cls: type[Command]) -> dict[str, Any] | None:
    """The inputs of ``cls`` its schema gives examples of (the first of each); None when a required one has none."""
    schema = cls.model_json_schema()
    out = {name: prop["examples"][0] for name, prop in schema.get("properties", {}).items() if prop.get("examples")}
    return None if set(schema.get("required", [])) - set(out) else out


def add_player_class(system: RuleSystem) -> type[Command]:
    return system.command("add-player") or AddPlayer


def seat_inputs(system: RuleSystem, seat: str, character: str) -> dict[str, Any]:
    found = examples(add_player_class(system))
    assert found is not None, f"{system.id}: add-player has a required input without an example in its schema"
    return {**found, "seat": seat, "character": character}


@dataclass(frozen=True)
class Opener:
    verb: str
    route: str
    who: str
    inputs: dict[str, Any]


def opener(system: RuleSystem) -> Opener | None:
    """The first campaign command of the system (registry order) that answers a unit, has a route without a path
    parameter, whose required inputs all have examples, and whose answer the system's board opens as a table."""
    from api.web.systems import of

    for cls in system.commands():
        if cls.answer != "unit" or cls.verb in RULINGS or cls in SHARED or "{" in cls.route:
            continue
        if not of(system.id).opens_table(cls.verb):
            continue
        found = examples(cls)
        if found is not None:
            return Opener(cls.verb, cls.route.split(" ", 1)[1], cls.who, found)
    return None


def house_adds_a_player(page: Any, system: RuleSystem, seat: str, character: str) -> str:
    """The House's campaign page posts ``add-player`` exactly as its form does (htmx, into the panel, the invite
    out of band); answers the invite link the page shows."""
    values = {k: v for k, v in seat_inputs(system, seat, character).items() if isinstance(v, (str, int))}
    page.evaluate("(values) => htmx.ajax('POST', '/web/commands/add-player', "
                  "{target: '#panel', swap: 'innerHTML', values: values})", values)
    link = page.locator("[data-testid=invite-link]")
    page.wait_for_selector("[data-testid=invite-link], #panel .error", timeout=15_000)
    assert link.count(), f"{system.id}: add-player refused: {page.locator('#panel .error').inner_text()}"
    return str(link.get_attribute("href"))


def open_all_details(page: Any) -> None:
    """Every folded section unfolded, so the checks see every control."""
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
