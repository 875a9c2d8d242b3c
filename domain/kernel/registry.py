"""The boundary between the shared ledger and a rule system (C-1).

A rule system declares itself once, as a :class:`RuleSystem`: its id and name,
its settings, its aggregates and units of resolution, its commands with their
handlers, and the hooks the shared use cases call (a new character, an
adventure starting or ending, a move, a rewind, an overturn). The registry of
systems is ``domain/systems/__init__.py``, one line per system. Shared code
(the application, the adapters, the API, the CLI) asks the registry and never
names a system; each edge layer finds a system's thin module by the system's
``package`` name (``adapters/systems/<package>.py`` …).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import BaseModel

from domain.errors import NotSupportedYet, RuleViolation
from domain.kernel import rewind
from domain.kernel.commands import Command, Context, Handlers

if TYPE_CHECKING:
    from domain.application import StakesApplication
    from domain.campaign import Campaign
    from domain.kernel.common import Overturn


def called(unit: Any, article: str = "this") -> str:
    """A unit in words, for a refusal: its kind as the table says it (``Resolution.UNIT_LABEL``: "this deal"),
    else "this table"; never its class's name (issue 31)."""
    label = getattr(type(unit), "UNIT_LABEL", "")
    return f"{article} {label}" if label else f"{article} table"


class RuleSystem:
    """One rule system. Subclass it in the system's package and list an instance in ``domain.systems``."""

    id: ClassVar[str] = ""
    name: ClassVar[str] = ""
    #: The Python package name, in ``domain/systems/`` and in each edge layer's ``systems/`` folder.
    package: ClassVar[str] = ""
    #: Where an edge layer finds the system's module when it is not in that layer's ``systems/`` folder: layer
    #: (``"adapters"``, ``"web"``, ``"cli"``: :data:`EDGE_LAYERS`) -> dotted module path. For a system kept
    #: outside the tree (the test suite's toy, ``tests/toy_system``); the systems in the tree leave it empty.
    #: Every layer asks :func:`edge_module`.
    modules: ClassVar[Mapping[str, str]] = {}
    supported: ClassVar[bool] = True
    #: Typed settings, offered by the API and the CLI; ``settings()`` validates and completes them.
    settings_model: ClassVar[type[BaseModel] | None] = None
    #: Aggregates kept with snapshots, and the aggregates that are units of resolution (C-1).
    aggregates: ClassVar[tuple[type, ...]] = ()
    resolutions: ClassVar[tuple[type, ...]] = ()
    #: Campaign commands (their own, or their own inputs for a shared name) and unit actions.
    handlers: ClassVar[Handlers] = Handlers()
    #: Who may read what in the log (C-5), per event (``"Challenge.DiceRolled"``), until the unit it belongs to
    #: is revealed (with ``"until": "settled"``, until it is settled): ``entry``, the seats that see the entry
    #: at all (absent: everyone); ``fields``, field -> the seats that may read it, where ``"side"`` stands
    #: for the seats of the side the event is about (a cup), ``"seat"`` for the seat the event names (a hand
    #: belongs to one seat), ``["house"]`` for the House (an antagonist's secrets), and ``[]`` for nobody.
    visibility: ClassVar[dict[str, dict[str, Any]]] = {}
    #: Reads this system offers besides the shared ones (for example "budget", "debts", "antagonists").
    features: ClassVar[frozenset[str]] = frozenset()
    #: Commands other systems have, and what this system does instead: said when one is refused here (C-1).
    instead: ClassVar[Mapping[str, str]] = {}

    # -- settings and creation ----------------------------------------------------------------
    def settings(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        raise NotSupportedYet(f"the rule system {self.id!r} ({self.name}) is not supported yet")

    def campaign_created(self, campaign: Campaign, actor: str) -> list[Any]:
        """Aggregates created with the campaign (for example a House budget)."""
        return []

    def new_character(self, app: StakesApplication, campaign: Campaign, seat: str, name: str, command: Any,
                      actor: str) -> Any:
        """The character a new player plays, made from the system's ``add-player`` inputs."""
        raise NotImplementedError

    # -- adventures (C-1) -----------------------------------------------------------------------
    def adventure_started(self, app: StakesApplication, campaign: Campaign, number: int, command: Any,
                          actor: str) -> list[Any]:
        return []

    def adventure_ended(self, app: StakesApplication, campaign: Campaign, number: int, actor: str) -> list[Any]:
        return []

    # -- units of resolution (C-1, C-6) -------------------------------------------------------------
    def play(self, app: StakesApplication, ctx: Context, campaign: Campaign, unit: Any, command: Command) -> list[Any]:
        """Run one unit action; returns every aggregate to save with it."""
        handler = self.handlers.by_type.get(type(command))
        if handler is None:
            raise RuleViolation(f"{called(unit).capitalize()} has no action {command.action_name()!r}", ruling="C-1")
        saved: list[Any] = handler(app, ctx, campaign, unit, command)
        return saved

    #: C-6: the units the House rewinds while open (the kernel's rewind, ``domain.kernel.rewind``); any other
    #: unit's rewind is refused, naming C-6.
    rewinds: ClassVar[tuple[type, ...]] = ()

    def rewind(self, app: StakesApplication, ctx: Context, campaign: Campaign, unit: Any, to_step: int,
               reason: str) -> list[Any]:
        """C-6 (issue 30): the kernel's rewind for the units in ``rewinds``; a system only says what its unit
        spent (``spent``, ``verify_spend_again``, ``give_back``) and what follows a rewind (``rewound``)."""
        if not isinstance(unit, self.rewinds):
            raise RuleViolation(f"{called(unit).capitalize()} is not rewound; overturn it instead", ruling="C-6")
        return rewind.rewind(self, app, ctx, campaign, unit, to_step, reason)

    def spent(self, unit: Any) -> Mapping[str, Any]:
        """C-6: what ``unit`` (as it is now, or at a past step) spent from aggregates outside it, by owner (a seat,
        a side): a rewind gives back, or spends again, the difference between the step and now. Nothing by
        default."""
        return {}

    def verify_spend_again(self, app: StakesApplication, campaign: Campaign, unit: Any, owner: str, then: Any,
                           now: Any) -> None:
        """C-6: refuse (naming the ruling) a rewind whose step spent more of ``owner``'s than the sheet now
        bears; ``then``/``now``: ``spent(...)[owner]`` at the step and now (None where absent). Verify only."""

    def give_back(self, app: StakesApplication, ctx: Context, campaign: Campaign, unit: Any, owner: str, then: Any,
                  now: Any, reason: str) -> list[Any]:
        """C-6: record, on ``owner``'s aggregate, the change from what the unit spent now to what it spent at the
        step (after the unit's ``Rewound``); returns the aggregates changed."""
        return []

    def rewound(self, app: StakesApplication, ctx: Context, campaign: Campaign, unit: Any, past: Any,
                reason: str) -> list[Any]:
        """C-6: whatever else follows a rewind to ``past``'s step (after the compensations); the aggregates
        changed."""
        return []

    def overturn(self, app: StakesApplication, ctx: Context, campaign: Campaign, unit: Any,
                 command: Overturn) -> list[Any]:
        """C-6: overturn the settled ``unit`` as ``command`` rules (the system's own ``Overturn``, whose typed
        ``winner`` it adds where its units take one; the kernel has checked it names a winner or voids);
        returns the aggregates changed."""
        raise RuleViolation(f"{called(unit, 'a settled').capitalize()} is not overturned", ruling="C-6")

    def overturn_winners(self, unit: Any) -> tuple[str, ...] | None:
        """C-6, what an overturn of ``unit`` may rule now, from the checks that refuse one (issue 30, item 4): None
        when it may not be overturned now; else the sides it may name as the new winner (none: it is only
        voided). By default a unit with a ``verify_overturn(reason)`` is voided only, when that check passes; a
        system whose units take a new winner says which."""
        check = getattr(unit, "verify_overturn", None)
        return () if check is not None and can(check, "a reason") else None

    # -- what the edges ask -------------------------------------------------------------------------
    def commands(self) -> tuple[type[Command], ...]:
        return self.handlers.split()[0]

    def actions(self, unit: Any = None) -> tuple[type[Command], ...]:
        """Every unit action of this system, or those played in ``unit``."""
        return self.handlers.split()[1] if unit is None else self.handlers.actions_of(type(unit))

    def action(self, unit: Any, name: object) -> type[Command]:
        """The action ``name`` of ``unit``, or a refusal listing the moves it takes (its own actions and the
        campaign commands its legal actions list)."""
        actions = self.actions(unit)
        found = next((a for a in actions if a.action_name() == name), None)
        if found is None:
            names = ", ".join([*(a.action_name() or "" for a in actions), *(c.verb for c in self.listed_commands(unit))])
            raise RuleViolation(f"{called(unit).capitalize()} takes one of {names}, not {name!r}",
                                ruling="C-1")  # the unit's own moves (C-1), not the ruling of its first one
        return found

    def listed_commands(self, unit: Any = None) -> tuple[type[Command], ...]:
        """The campaign commands the legal actions of ``unit`` (of any unit when None) may list as moves
        (``Command.listed_in``): answers to something offered into it, played from its action endpoint."""
        return tuple(c for c in self.commands() if c.listed_in and (unit is None or isinstance(unit, c.listed_in)))

    def listed_command(self, unit: Any, name: object) -> type[Command] | None:
        """The campaign command a listed move ``name`` of ``unit`` stands for; None for a move of the unit."""
        return next((c for c in self.listed_commands(unit) if c.verb == name), None)

    def move(self, unit: Any, name: object) -> type[Command]:
        """The class that validates a move ``name`` listed in ``unit``'s legal actions: one of its actions, or
        the campaign command it stands for; a refusal naming the moves it takes otherwise."""
        return self.listed_command(unit, name) or self.action(unit, name)

    def verify_listed(self, app: StakesApplication, unit: Any, command: Command) -> None:
        """A campaign command played from ``unit``'s action endpoint concerns that unit (an answer to what was
        offered into it, not into another one): a system that lists such moves refuses any other, naming the
        ruling. Verify only: nothing is changed. The default refuses (fails closed): a system that lists a
        campaign command as a move must say which units it concerns."""
        raise RuleViolation(f"{called(unit).capitalize()} lists no move {command.verb!r}", ruling="C-1")

    def command(self, verb: str) -> type[Command] | None:
        return self.handlers.campaign_command(verb)


class PlannedSystem(RuleSystem):
    """A system whose issue has not landed: known, refused with "not supported yet"."""

    supported = False

    def __init__(self, system_id: str, name: str) -> None:
        self._id, self._name = system_id, name

    @property  # type: ignore[override]
    def id(self) -> str:  # type: ignore[override]
        return self._id

    @property  # type: ignore[override]
    def name(self) -> str:  # type: ignore[override]
        return self._name


def systems() -> Iterator[RuleSystem]:
    """Every known system, in registry order."""
    from domain.systems import SYSTEMS  # the registry lines live there; imported late (they import the kernel)

    return iter(SYSTEMS)


def supported() -> list[RuleSystem]:
    return [s for s in systems() if s.supported]


def default_system() -> str:
    """The system a campaign uses when none is named: the first in the registry."""
    return supported()[0].id


def can(check: Callable[..., Any], *inputs: Any) -> bool:
    """Whether a ``verify_…`` check takes these inputs (pokerkit's ``can_…``: the same check that refuses a
    move says whether it may be made)."""
    try:
        check(*inputs)
    except RuleViolation:
        return False
    return True


def rule_system(system_id: str) -> RuleSystem:
    """The playable system named ``system_id``, or a refusal naming why (C-1)."""
    found = {s.id: s for s in systems()}
    system = found.get(system_id)
    if system is None:
        raise RuleViolation(f"unknown rule system {system_id!r}; known systems: {', '.join(found)}", ruling="C-1")
    if not system.supported:
        raise NotSupportedYet(f"the rule system {system_id!r} ({system.name}) is not supported yet")
    return system


def system_of_unit(unit: Any) -> RuleSystem:
    for system in supported():
        if isinstance(unit, system.resolutions):
            return system
    raise LookupError(f"no system plays {type(unit).__name__}")


#: Each edge layer's package of the systems' modules (``<package>.<RuleSystem.package>``).
EDGE_LAYERS: Mapping[str, str] = {"adapters": "adapters.systems", "web": "api.web.systems", "cli": "cli.systems"}
Layer = Literal["adapters", "web", "cli"]


def edge_module_name(system: RuleSystem, layer: Layer) -> str:
    """The dotted name of ``system``'s module in an edge ``layer``: where the system says
    (``RuleSystem.modules``), else ``<layer's systems package>.<package>``."""
    return system.modules.get(layer) or f"{EDGE_LAYERS[layer]}.{system.package}"


def edge_module(system: RuleSystem, layer: Layer) -> ModuleType | None:
    """``system``'s module in an edge ``layer``, imported by name (the kernel imports no edge layer itself), or
    None when it has none there (the layer's generic one serves it). A module that is there but imports
    something missing is a bug, not an absent module: that error is raised."""
    return import_edge(edge_module_name(system, layer))


def import_edge(name: str) -> ModuleType | None:
    """The module ``name``, or None when it does not exist (only it: not a module it imports)."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as missing:
        if missing.name != name:
            raise
        return None
