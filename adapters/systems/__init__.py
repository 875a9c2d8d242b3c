"""Each rule system's thin adapter module: ``adapters/systems/<package>.py``, found through the registry.

A module declares what the shared adapters ask of a system:

- ``PROJECTION``: its read-model tables (DDL) and projection handlers (:class:`adapters.plugin.Projection`);
- ``players(views, campaign_id)``, ``sheet(stakes, campaign_id, seat)`` and ``SHEET`` (the sheet's schema);
- ``unit_view(stakes, campaign_id, unit, viewer)`` and ``UNITS`` (the schemas of its units' views); optionally
  ``legal_actions(stakes, campaign_id, unit, viewer)``, the viewer's moves alone (who the table waits for
  asks it of the other seats instead of their whole views, ADR 0034);
- ``ANSWERS``: reads that answer its commands, by name (:class:`adapters.plugin.Answer`);
- ``READS``: reads of its own, offered as GET routes and CLI commands (:class:`adapters.plugin.Read`).
"""

from __future__ import annotations

from functools import cache
from types import ModuleType


@cache
def edge(system_id: str) -> ModuleType:
    """The adapter module of a playable system: ``adapters/systems/<package>``, or where the system says
    (``RuleSystem.modules["adapters"]``, a system kept outside the tree), through ``registry.edge_module``."""
    from domain.kernel.registry import edge_module, edge_module_name, rule_system  # late: the CLI imports a
    # system's schemas without the domain

    system = rule_system(system_id)
    found = edge_module(system, "adapters")
    if found is None:  # every system declares its projection and its reads: there is no generic adapter
        raise LookupError(f"the rule system {system_id!r} has no adapter module {edge_module_name(system, 'adapters')}")
    return found


def edges() -> list[ModuleType]:
    from domain.kernel.registry import supported

    return [edge(s.id) for s in supported()]
