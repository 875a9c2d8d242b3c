"""Humanity and Beast properties: random seats try random moves with random arguments on random rolls and
conflicts. A move within the seat's listed legal actions is accepted and any other refused; Humanity plus
Beast stays 10 (BE-1); Willpower stays within 0 and the maximum (BE-1, BE-6, BE-8); the successes
recomputed from the recorded dice equal the stored ones (BE-3, BE-5); every unit verifies (C-4)."""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid5

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.errors import RuleViolation, StakesError
from domain.kernel.common import Rewind
from domain.seats import Seat
from domain.systems.beast import commands as cmd
from domain.systems.beast import rules
from domain.systems.beast.commands import Overturn
from tests.unit.beast_table import HOUSE, BeastTable

SEATS = (Seat("ilse"), Seat("tomas"), HOUSE)
ACTIONS = ("seed", "pass", "prepare", "roll", "reroll", "keep", "check", "reveal", "abandon")


def _payload(data: Any, action: str) -> dict[str, Any]:
    if action == "abandon":  # C-10: the House's, with a reason (never rare: one in a few moves)
        return {"action": action, "reason": data.draw(st.sampled_from(["the scene moved on", " "]), label="reason")}
    side = data.draw(st.sampled_from([None, None, None, "challenger", "opponent"]), label="side")
    out: dict[str, Any] = {"action": action, **({"side": side} if side else {})}
    if action == "seed":
        out["seed"] = data.draw(st.sampled_from(["lucky", ""]), label="seed")
    elif action in ("roll", "prepare"):  # C-9: the House declares an antagonist's split as it will roll it
        out["humanity"] = data.draw(st.one_of(st.integers(0, 4), st.integers(-1, 11)), label="humanity")
        out["beast"] = data.draw(st.one_of(st.integers(0, 3), st.integers(-1, 11)), label="beast")
        willpower = data.draw(st.sampled_from([None, "before"]), label="willpower")
        if willpower:
            out["willpower"] = willpower
    elif action == "reroll":
        out["die"] = data.draw(st.one_of(st.integers(1, 4), st.integers(0, 11)), label="die")
    elif action == "check":
        outcome = data.draw(st.sampled_from([None, "held", "slipped"]), label="outcome")
        if outcome:
            out["outcome"] = outcome
    return out


def _listed(legal: list[dict[str, Any]], payload: dict[str, Any], unit: Any, seat: Seat) -> bool:
    """Whether the legal actions of ``seat`` allow exactly this move."""
    sides = unit.sides_of(seat.name)
    side = payload.get("side") or (sides[0] if len(sides) == 1 else None)
    for entry in legal:
        if entry["action"] == payload["action"] == "abandon":  # the unit's, not a side's (C-10)
            return bool(payload["reason"].strip())
        if entry["action"] != payload["action"] or entry["member"] != side:
            continue
        action = payload["action"]
        if action == "seed":
            return bool(payload["seed"])
        if action in ("roll", "prepare"):
            limits = entry["choices"][0]
            h, b = payload["humanity"], payload["beast"]
            return (limits["humanity"][0] <= h <= limits["humanity"][1] and limits["beast"][0] <= b <=
                    limits["beast"][1] and entry["min"] <= h + b <= entry["max"]
                    and payload.get("willpower") in limits["willpower"])
        if action == "reroll":
            return payload["die"] in entry["choices"]
        if action == "check":
            return payload.get("outcome") in (entry.get("choices") or [None])
        return True
    return False


def _sheets(t: BeastTable, unit: Any) -> dict[str, dict[str, int]]:
    return {side: t.app.repository.get(UUID(d["character"])).values()
            for side, d in unit.sides.items()}


def _invariants(t: BeastTable, unit: Any) -> None:
    for values in (t.sheet("ilse"), t.sheet("tomas"), t.cole()):
        assert values["humanity"] + values["beast"] == rules.DICE
        assert 0 <= values["willpower"] <= values["willpower_max"]
    for data in unit.sides.values():
        roll = data["roll"]
        if roll is not None:
            assert roll["score"] == rules.tally(roll["dice"], int(roll["willpower_before"]))
            for die in roll["dice"]:
                assert all(v == 10 for v in die["chain"][:-1]) and len(die["chain"]) <= rules.MAX_CHAIN


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_listed_moves_are_accepted_and_unlisted_ones_refused_and_the_sheets_stay_in_bounds(data):
    t = BeastTable(ilse_humanity=data.draw(st.integers(1, 10), label="ilse humanity"),
                   cole_humanity=data.draw(st.integers(1, 10), label="cole humanity"),
                   cole_willpower=data.draw(st.integers(1, 10), label="cole willpower"),
                   check_mode=data.draw(st.sampled_from(["auto", "manual"]), label="mode"))
    for _ in range(data.draw(st.integers(0, 8), label="spent before")):
        try:
            t.action(difficulty=2, humanity=1, beast=0, willpower="before")
        except StakesError:
            break
    against = data.draw(st.sampled_from(["Sheriff Cole", "tomas", None]), label="against")
    if against is None:
        try:
            unit = t.action(difficulty=data.draw(st.integers(2, 10)), humanity=1, beast=0).id
        except StakesError:
            return  # lost to the Beast: no roll (BE-9)
    else:
        unit = t.conflict(against=against)
    for _ in range(data.draw(st.integers(4, 16), label="moves")):
        current = t.unit(unit)
        seat = data.draw(st.sampled_from(SEATS), label="seat")
        legal = current.legal_actions(seat.name, _sheets(t, current))
        names = [a["action"] for a in legal] if legal and data.draw(st.booleans(), label="near") else ACTIONS
        if data.draw(st.integers(0, 7), label="abandon now"):  # C-10: now and then, so the rest is played too
            names = [n for n in names if n != "abandon"] or names
        payload = _payload(data, data.draw(st.sampled_from(names), label="action"))
        listed = _listed(legal, payload, current, seat)
        try:
            t.act(seat, unit, **payload)
            accepted = True
        except StakesError:
            accepted = False
        assert accepted == listed, (seat, payload, current.legal_actions(seat.name, _sheets(t, current)))
        if data.draw(st.integers(0, 5), label="rewind") == 0 and not t.unit(unit).settled and t.unit(unit).version > 1:
            try:
                t.run(HOUSE, Rewind(unit=unit, to_step=data.draw(st.integers(1, t.unit(unit).version - 1)),
                                    reason="a ruling"))
            except RuleViolation as refused:  # C-6: not into the middle of one move (a result and what it made)
                assert "inside one move" in str(refused)
        _invariants(t, t.unit(unit))
    if t.unit(unit).settled:
        assert t.unit(unit).verify()["mismatches"] == []
    if t.unit(unit).settled and data.draw(st.booleans(), label="overturn"):
        t.run(HOUSE, Overturn(unit=unit, void=True, reason="void"))
        _invariants(t, t.unit(unit))


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 10), st.integers(1, 10), st.lists(st.integers(1, 6), max_size=6))
def test_restores_and_spending_keep_willpower_within_zero_and_the_maximum(humanity, maximum, restores):
    t = BeastTable(ilse_humanity=humanity)
    t.run(HOUSE, t.app.parse(t.cid, "add-player", {"seat": "mara", "character": "Mara", "willpower": maximum}))
    for amount in restores:
        try:
            t.action(seat=Seat("mara"), difficulty=2, humanity=1, beast=0, willpower="before")
        except StakesError:
            pass
        try:
            t.run(HOUSE, cmd.RestoreWillpower(amount=amount, character="mara"))
        except StakesError:
            pass
        values = t.app.repository.get(uuid5(t.cid, "character/mara")).values()
        assert 0 <= values["willpower"] <= values["willpower_max"] == maximum
