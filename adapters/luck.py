"""The luck report's arithmetic (issue 31, ADR 0035): a goodness-of-fit of counted draws against their fair
distribution, with Pearson's chi-square and its exact survival function for whole degrees of freedom (no
statistics library: the closed forms below are all the report needs)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from pydantic import BaseModel, Field


def chi_square_sf(x: float, dof: int) -> float:
    """P(X >= x) for X chi-square with ``dof`` (>= 1) degrees of freedom, exactly: for even ``dof`` the
    Poisson sum e^(-x/2) sum_{i < dof/2} (x/2)^i / i!; for odd ``dof`` erfc(sqrt(x/2)) plus
    e^(-x/2) sum_{i=1}^{(dof-1)/2} (x/2)^(i-1/2) / Gamma(i+1/2). Terms are summed in logs (no overflow)."""
    if dof < 1:
        raise ValueError("a chi-square has at least one degree of freedom")
    if x <= 0:
        return 1.0
    half = x / 2
    if dof % 2 == 0:
        total = sum(math.exp(-half + i * math.log(half) - math.lgamma(i + 1)) for i in range(dof // 2))
    else:
        total = math.erfc(math.sqrt(half)) + sum(
            math.exp(-half + (i - 0.5) * math.log(half) - math.lgamma(i + 0.5)) for i in range(1, (dof - 1) // 2 + 1))
    return min(1.0, max(0.0, total))


@dataclass(frozen=True)
class Fit:
    draws: int
    chi_square: float
    dof: int
    p_value: float | None  # None: too few draws to test (an expected count under 5)
    counts: dict[str, int]
    expected: dict[str, float]


def goodness_of_fit(counts: Mapping[str, int], fair: Mapping[str, float]) -> Fit:
    """Pearson's chi-square of ``counts`` against the ``fair`` probabilities (every outcome of ``fair``, zeros
    included); the p-value only when every expected count is at least 5 (the usual validity rule)."""
    n = sum(counts.get(k, 0) for k in fair)
    expected = {k: n * p for k, p in fair.items()}
    chi = sum((counts.get(k, 0) - e) ** 2 / e for k, e in expected.items() if e > 0)
    dof = max(1, len([p for p in fair.values() if p > 0]) - 1)
    valid = n > 0 and all(e >= 5 for e in expected.values() if e > 0)
    return Fit(draws=n, chi_square=round(chi, 6), dof=dof, p_value=chi_square_sf(chi, dof) if valid else None,
               counts={k: counts.get(k, 0) for k in fair}, expected=expected)


def uniform(faces: int) -> dict[str, float]:
    """A fair die of ``faces`` faces, numbered from 1."""
    return {str(v): 1 / faces for v in range(1, faces + 1)}


# -- the kernel's records as draws -------------------------------------------------------------------------------
def side_of(unit: object, slot: list[object]) -> str | None:
    """The side a slot belongs to: the first element of the slot that names one of the unit's sides, else the
    unit's only side; None when neither says."""
    sides = getattr(unit, "sides", {}) or {}
    found = next((part for part in slot if isinstance(part, str) and part in sides), None)
    if found is None and len(sides) == 1:
        found = next(iter(sides))
    return found


def owner(unit: object, slot: list[object]) -> str:
    """Whose a draw is: the seats of its side, joined by ``+`` (the House for a side it plays)."""
    side = side_of(unit, slot)
    if side is None:
        return "table"
    seats = unit.seats_of(side)  # type: ignore[attr-defined]
    return "+".join(seats) or "table"


def dice(unit: object, records: object) -> list[tuple[str, str, str]]:
    """(whose, kind ``d<faces>``, value) of every die among ``records`` (``rolls`` records, or the draws a
    ``DrawAbandoned`` recorded): the records whose value is one whole number; the others are the system's."""
    return [(owner(unit, r["slot"]), f"d{r.get('faces', 6)}", str(r["value"]))
            for r in records if isinstance(r.get("value"), int)]  # type: ignore[attr-defined]


def dice_luck(faces: int) -> Any:
    """The luck hook of a system whose every die is a fair one of ``faces`` faces: a settled unit's ``rolls``
    records and the draws its abandon recorded (C-10), each die owned by its slot's side."""
    from adapters.plugin import Draw, Luck

    kind = f"d{faces}"
    return Luck(fair=lambda k: uniform(faces) if k == kind else None,
                draws=lambda unit: [Draw(*d) for d in dice(unit, unit.rolls)],
                abandoned=lambda event, unit: [Draw(*d) for d in dice(unit, event.draws)])


def first_of_each_shuffle(items: Any, noun: str) -> Any:
    """The luck hook of a system that shuffles: the first of each shuffle (a ``shuffles`` record's ``value``,
    an abandoned one's ``order``: the kernel's ``shuffle_of``), any of ``items()`` alike, the kind named by the
    system's own ``noun`` ("top of 52 cards"); the later ones of a shuffle are not drawn apart. ``items`` is
    called late, so a module the CLI reads needs no domain import."""
    from adapters.plugin import Draw, Luck

    def firsts(unit: Any, records: Any) -> list[Any]:
        from domain.kernel.resolution import shuffle_of  # late: the CLI imports this module without the domain

        found = []
        for r in records:
            shuffle = shuffle_of(r)
            if shuffle is not None and shuffle[1]:
                shuffled, order = shuffle
                found.append(Draw(owner(unit, r["slot"]), f"top of {len(shuffled)} {noun}", str(order[0])))
        return found

    def fair(kind: str) -> dict[str, float] | None:
        every = items()
        return {c: 1 / len(every) for c in every} if kind == f"top of {len(every)} {noun}" else None

    return Luck(fair=fair, draws=lambda unit: firsts(unit, unit.shuffles),
                abandoned=lambda event, unit: firsts(unit, event.draws))


# -- the read models -----------------------------------------------------------------------------------------------
TABLES = ("luck_counts", "luck_units")
DDL = (
    "CREATE TABLE IF NOT EXISTS {p}luck_counts (campaign_id TEXT NOT NULL, seat TEXT NOT NULL, kind TEXT NOT NULL,"
    " value TEXT NOT NULL, abandoned BIGINT NOT NULL, count BIGINT NOT NULL,"
    " PRIMARY KEY (campaign_id, seat, kind, value, abandoned))",
    # the units whose draws are counted (once, when settled and shown to every seat, C-5)
    "CREATE TABLE IF NOT EXISTS {p}luck_units (unit_id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL)",
)
COUNT_ADD = ("INSERT INTO {p}luck_counts AS k VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (campaign_id, seat, kind, value,"
             " abandoned) DO UPDATE SET count = k.count + excluded.count")


def _hooks() -> dict[str, object]:
    """Each unit kind's system hook (``LUCK``), by the unit's class name."""
    from adapters.systems import edges
    from domain.kernel.registry import supported

    found: dict[str, object] = {}
    for system, module in zip(supported(), edges(), strict=True):
        hook = getattr(module, "LUCK", None)
        if hook is not None:
            found.update({cls.__name__: hook for cls in system.resolutions})
    return found


def hooks() -> dict[str, object]:
    from adapters.views import _per_registry  # late: views imports this module

    found: dict[str, object] = _per_registry("luck", _hooks)
    return found


def project(views: object, c: object, e: object, name: str, oid: str, campaign: str, unit: object) -> None:
    """Count a unit's draws once it is settled and shown to every seat (C-5), and the draws a ``DrawAbandoned``
    recorded (C-10) apart, as its system's hook says."""
    hook = hooks().get(type(unit).__name__)
    if hook is None:
        return
    counts: dict[tuple[str, str, str], int] = {}
    abandoned = name.endswith(".DrawAbandoned")
    if abandoned:
        draws = hook.abandoned(e, unit)  # type: ignore[attr-defined]
    elif getattr(unit, "settled", False) and getattr(unit, "revealed", False):
        # a unit counted is remembered for the rest of the batch: its later events ask the table no more (a
        # read in PostgreSQL's pipeline waits for every write sent before it; ADR 0039)
        found = views.__dict__.get("_batch_luck")  # type: ignore[attr-defined]
        counted: set[str] = found[1] if found is not None and found[0] is c else set()
        if oid in counted:
            return
        counted.add(oid)
        if views._one(c, "SELECT unit_id FROM {p}luck_units WHERE unit_id = ?", (oid,)) is not None:  # type: ignore[attr-defined]
            return
        views._x(c, "INSERT INTO {p}luck_units VALUES (?, ?)", (oid, campaign))  # type: ignore[attr-defined]
        draws = hook.draws(unit)  # type: ignore[attr-defined]
    else:
        return
    for d in draws:
        key = (d.seat, d.kind, d.value)
        counts[key] = counts.get(key, 0) + 1
    for (seat, kind, value), n in sorted(counts.items()):
        views._x(c, COUNT_ADD, (campaign, seat, kind, value, int(abandoned), n))  # type: ignore[attr-defined]


# -- the read ------------------------------------------------------------------------------------------------
class LuckLine(BaseModel):
    seat: str = Field(description="Whose draws: a seat, several joined by '+' (a side), 'house', or 'table'.")
    kind: str = Field(description="The kind of draw, as the system names it.")
    draws: int
    counts: dict[str, int] = Field(description="Each outcome, counted (zeros included).")
    expected: dict[str, float] = Field(description="What a fair draw gives on average for as many draws.")
    chi_square: float = Field(description="Pearson's statistic against the fair distribution.")
    dof: int
    p_value: float | None = Field(description="The chance of a fit at least this bad from fair draws; None when an "
                                              "expected count is under 5 (too few draws to test).")


class LuckReport(BaseModel):
    campaign_id: UUID
    system: str
    settled: list[LuckLine] = Field(description="Draws of the units that ended and were shown to every seat (C-5).")
    abandoned: list[LuckLine] = Field(description="Draws the House abandoned with a unit (C-10), counted apart.")


def report(stakes: Any, campaign_id: UUID, viewer: Any) -> LuckReport:
    """Every draw counted per seat and kind, against its fair distribution. Bounded: a row per seat, kind and
    outcome, whatever the campaign's length; every seat reads the same report (only public draws are counted)."""
    from adapters.systems import edge
    from domain.errors import RuleViolation

    campaign = stakes.viewer(campaign_id, viewer)
    hook = getattr(edge(campaign.system), "LUCK", None)
    if hook is None:
        raise RuleViolation(f"a {campaign.system} campaign declares no draws to count", ruling="C-1")
    rows = stakes.views.query("SELECT seat, kind, value, abandoned, count FROM {p}luck_counts WHERE campaign_id = ?"
                              " ORDER BY abandoned, seat, kind, value", (campaign_id.hex,))
    grouped: dict[tuple[int, str, str], dict[str, int]] = {}
    for r in rows:
        grouped.setdefault((r["abandoned"], r["seat"], r["kind"]), {})[r["value"]] = r["count"]
    out: dict[int, list[LuckLine]] = {0: [], 1: []}
    for (abandoned, seat, kind), counts in grouped.items():
        fair = hook.fair(kind)
        if fair is None:
            continue
        fit = goodness_of_fit(counts, fair)
        out[abandoned].append(LuckLine(seat=seat, kind=kind, draws=fit.draws, counts=fit.counts,
                                       expected={k: round(v, 3) for k, v in fit.expected.items()},
                                       chi_square=fit.chi_square, dof=fit.dof,
                                       p_value=None if fit.p_value is None else round(fit.p_value, 6)))
    return LuckReport(campaign_id=campaign_id, system=campaign.system, settled=out[0], abandoned=out[1])
