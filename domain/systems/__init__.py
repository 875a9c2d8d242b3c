"""The registry of rule systems: one line per system (C-1; see docs/adding-a-rule-system.md)."""

from domain.kernel.registry import PlannedSystem, RuleSystem
from domain.systems.penny_ante.system import PennyAnte
from domain.systems.pool.system import Pool

SYSTEMS: tuple[RuleSystem, ...] = (
    PennyAnte(),
    Pool(),
    PlannedSystem("twenty-one", "Twenty-one"),
    PlannedSystem("beast", "Humanity and Beast"),
    PlannedSystem("pulp-cards", "Pulp in the Cards"),
)
