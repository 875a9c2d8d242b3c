"""The registry of rule systems: one line per system (C-1; see docs/adding-a-rule-system.md)."""

from domain.kernel.registry import RuleSystem
from domain.systems.beast.system import Beast
from domain.systems.penny_ante.system import PennyAnte
from domain.systems.pool.system import Pool
from domain.systems.pulp_cards.system import PulpCards
from domain.systems.twenty_one.system import TwentyOne

SYSTEMS: tuple[RuleSystem, ...] = (
    PennyAnte(),
    Pool(),
    TwentyOne(),
    Beast(),
    PulpCards(),
)
