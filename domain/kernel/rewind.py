"""C-6 (issue 30, item 3): the House's rewind, written once for every system.

A rewind to step k gives exactly the state that replaying steps 1..k of the unit's log gives (whichever
timeline the step belongs to: an earlier rewind's abandoned steps are steps of the log like any other), but for
what the rules keep (``Resolution.kept_through_rewind``: seeds given, C-7 and C-9; values every seat saw, C-8).
The order of things is the kernel's:

1. the step is one of the unit's (1 .. version - 1), else a refusal (C-6);
2. the unit's own refusals, before anything changes (``Resolution.verify_rewind``: a settled unit, a step inside
   one move, the unit's own reasons);
3. what the unit spent from aggregates outside it (a character's resources: ``RuleSystem.spent``) at step k
   against now; a spending the step had and the sheet can no longer bear is refused (``verify_spend_again``)
   before anything is recorded;
4. the unit's ``Rewound`` event (``Resolution.rewind``);
5. the compensations, by events on those aggregates (``give_back``), then whatever else the system does after a
   rewind (``rewound``).

A system says only what its unit spent and how it is given back or spent again; it never loads the step's
state, checks the step or records the rewind itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.errors import RuleViolation
from domain.kernel.commands import Context

if TYPE_CHECKING:
    from domain.application import StakesApplication
    from domain.campaign import Campaign
    from domain.kernel.registry import RuleSystem


def _verify_step(unit: Any, to_step: object) -> int:
    """The step, when it is one of the unit's before its last (C-6); a refusal naming C-6 otherwise. A settled
    unit is refused as such first, whatever the step (its own words: it is overturned, not rewound)."""
    if unit.settled:
        raise RuleViolation(unit.SETTLED_REWIND, ruling="C-6")
    if isinstance(to_step, bool) or not isinstance(to_step, int) or not 1 <= to_step < unit.version:
        raise RuleViolation(f"rewind to a step from 1 to {unit.version - 1}, not {to_step}", ruling="C-6")
    return to_step


def rewind(system: RuleSystem, app: StakesApplication, ctx: Context, campaign: Campaign, unit: Any, to_step: int,
           reason: str) -> list[Any]:
    """The House's rewind of ``unit`` to ``to_step`` (see the module docstring); returns every aggregate to save."""
    step = _verify_step(unit, to_step)
    past: Any = app.repository.get(unit.id, version=step)
    text, _ = unit.verify_rewind(step, past, reason)
    now, then = system.spent(unit), system.spent(past)
    owed = sorted(owner for owner in {*now, *then} if now.get(owner) != then.get(owner))
    for owner in owed:
        system.verify_spend_again(app, campaign, unit, owner, then.get(owner), now.get(owner))
    unit.rewind(step, past, text, ctx.actor.name)
    touched: list[Any] = [unit]
    for owner in owed:
        touched += system.give_back(app, ctx, campaign, unit, owner, then.get(owner), now.get(owner), text)
    touched += system.rewound(app, ctx, campaign, unit, past, text)
    return list({id(t): t for t in touched}.values())
