"""The conformance suite (issue 30): every registered system, the toy Coin Flip included, keeps the promises of
the kernel, checked through the service in-process on both stores, from what the service lists alone.

* every move a seat lists is accepted when sent as listed;
* C-6: random legal play with random House rewinds: a rewind to a step at a command's end gives back what that
  step showed (each seat's view and legal actions, every sheet), whichever timeline it is in, but for what the
  rules keep (C-7, C-8, C-9); a step inside one command is refused, naming a ruling, storing nothing (ADR 0032);
* every refusal names a ruling and stores nothing (moves nobody listed for that seat, wrong seats, bad undos);
* C-1: a unit opens only while an adventure runs, and the adventure does not end under an open unit;
* C-6: a settled unit is voided with a reason, once;
* C-4: every draw recomputes, from docs/fairness.md alone, from a secret whose hash was published before any
  player's seed reached it;
* C-9: a fresh seed owed after the House's choices is listed for each player of an owing side, never passed,
  and every result of a fresh slot carries the fresh seeds given (ADR 0041);
* C-10: abandoning a unit after an input and before its draw shows the would-be draw to every seat;
* a rebuild of the read models equals what the projection built one command at a time;
* C-5: varying one seat's seed changes nothing a seat that takes no part reads while the unit's draws are
  hidden (the profile names the moves that keep them hidden);
* the CLI's log and replay name who acted and who plays each side, never a seat's handle or a side's role.

How a table of each system is set up and how its units open is in ``conformance.py`` (``PROFILES``); the rest
is generic. A case a real system fails is marked ``xfail(strict=True)`` with the ruling it breaks
(``FINDINGS``): a finding for the lead, never a weaker check.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import json
import random
import re
import sys
from collections.abc import Iterator
from dataclasses import replace
from typing import Any
from uuid import UUID

import pytest
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as examples
from hypothesis import strategies as st

from adapters import randomness
from adapters.service import Stakes
from adapters.settings import Settings
from domain.errors import StakesError
from domain.kernel.registry import supported
from domain.kernel.resolution import Resolution
from domain.seats import Seat
from tests.integration.conformance import (
    HOUSE,
    PROFILES,
    SEATS,
    Recipe,
    Table,
    body_for,
    commitment,
    dump,
    play,
    play_to_settlement,
)
from tests.toy_system import SYSTEM as TOY
from tests.toy_system import plug_in

#: Every system the registry lists, and the toy the suite plugs in beside them.
SYSTEMS = [*(s.id for s in supported()), TOY.id]

#: Where a real system breaks a property: (property, system) -> the ruling and what happens.
FINDINGS: dict[tuple[str, str], str] = {
}

#: A game is one seeded sequence of random choices: a small input for hypothesis to shrink.
GAMES = st.integers(min_value=0, max_value=2**32 - 1).map(random.Random)
#: Few examples, always the same ones, never shrunk: a failing case is reported as found, in seconds.
FEW = examples(max_examples=2, deadline=None, derandomize=True, phases=[Phase.explicit, Phase.generate],
               suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def cases(prop: str) -> list[Any]:
    """The systems, each marked xfail(strict) where it breaks ``prop`` (``FINDINGS``)."""
    return [pytest.param(s, marks=pytest.mark.xfail(strict=True, reason=FINDINGS[(prop, s)]))
            if (prop, s) in FINDINGS else s for s in SYSTEMS]


@pytest.fixture
def service(settings: Settings, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> Iterator[Stakes]:
    """The service on a fresh store, with Coin Flip plugged into the registry (no shared file names it). The
    secrets it draws follow from the test and the system (not the store): a game goes the same way each run."""
    plug_in(monkeypatch)
    case = f"{request.node.originalname}/{getattr(request.node, 'callspec', None) and request.node.callspec.params.get('system')}"
    drawn = (hashlib.sha256(f"{case}/{n}".encode()).hexdigest() for n in itertools.count())
    monkeypatch.setattr(randomness, "new_secret_seed", lambda: next(drawn))
    stakes = Stakes(settings)
    yield stakes
    stakes.close()


def refused(table: Table, send: Any, *ruling: str) -> StakesError:
    """``send()`` is refused naming a ruling (one of ``ruling`` if given) and stores nothing."""
    before = table.events()
    with pytest.raises(StakesError) as caught:
        send()
    assert caught.value.ruling, f"a refusal names no ruling: {caught.value}"
    assert not ruling or caught.value.ruling in ruling, caught.value
    assert table.events() == before, f"the refusal {caught.value} stored something"
    return caught.value


def test_every_registered_system_has_a_profile() -> None:
    """A system added to the registry is held to the suite from its first day: it needs a profile."""
    assert set(SYSTEMS) <= set(PROFILES), sorted(set(SYSTEMS) - set(PROFILES))


# -- every listed move is accepted ----------------------------------------------------------------------------
@pytest.mark.parametrize("system", cases("listed"))
def test_every_move_a_seat_lists_is_accepted_as_listed(service: Stakes, system: str) -> None:
    @FEW
    @given(GAMES)
    def game(rng: random.Random) -> None:
        played = play(Table(service, PROFILES[system]), rng, 24, rewind=0.1, abandon=0.03)
        assert not played.refused, f"{system}: listed moves refused: {played.refused}"
        assert played.units

    game()


# -- C-6: a rewind gives exactly the state of the step it goes back to ---------------------------------------------
def snapshot(table: Table, unit: Any) -> dict[str, Any]:
    """What a rewind to the unit's current step must give back (C-6): each seat's view of the unit with its legal
    actions, and every sheet as the House reads it (holds, Willpower, pools, purses), read on one connection."""
    table.stakes.catch_up()
    with table.stakes.views.reading():
        out: dict[str, Any] = {seat: table.view(seat, unit).model_dump(mode="json") for seat in SEATS}
        out["sheets"] = [s.model_dump(mode="json") for s in table.stakes.sheets(table.cid, Seat.house())]
    return normal_state(out)


def normal_state(value: Any) -> Any:
    """A snapshot without what a rewind changes by the rules (``NOT_REWOUND``), and without the entries of a list
    that are there only as seen before a rewind (C-8: they stay public)."""
    if isinstance(value, dict):
        return {k: normal_state(v) for k, v in value.items() if k not in NOT_REWOUND}
    if isinstance(value, list):
        return [normal_state(v) for v in value if not (isinstance(v, dict) and SEEN_BEFORE & {
            k for k, x in v.items() if x is True})]
    return value


SEEN_BEFORE = frozenset({"seen_before_rewind", "seen_before_the_rewind"})
#: Keys a rewind need not give back as they were: the unit's count of its own log entries (the rewind is one, C-6),
#: a sheet's history of changes and the times the read models saw things happen (the rewind is itself a change,
#: logged, C-2), the marks of values seen before a rewind (C-8), and what a slot filled before a rewind must take
#: again (C-7).
NOT_REWOUND = frozenset({"version", "steps", "history", "at", *SEEN_BEFORE, "required", "fixed", "fixed_chains"})


def differences(want: Any, got: Any, path: str = "") -> list[str]:
    if isinstance(want, dict) and isinstance(got, dict):
        return [d for k in sorted({*want, *got}, key=str) for d in differences(want.get(k), got.get(k), f"{path}.{k}")]
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        return [d for i, (w, g) in enumerate(zip(want, got)) for d in differences(w, g, f"{path}[{i}]")]
    if isinstance(want, list) and isinstance(got, list):
        lost = [w for w in want if w not in got]
        more = [g for g in got if g not in want]
        return [f"{path}: at the step, not rewound: {json.dumps(lost)[:400]}; rewound, not at the step: "
                f"{json.dumps(more)[:400]}"]
    return [] if want == got else [f"{path}: {json.dumps(want)[:300]} at the step, {json.dumps(got)[:300]} rewound"]


#: Games each rewind property plays on SQLite; PostgreSQL plays the first two of them (the same seeds), which
#: hold its replay and projections to the same checks at two thirds of the cost (the suite's time budget). The
#: toy system's games are short (a flip a unit): it plays all of them on both, to reach its rewinds. So does Pulp:
#: its combats are short too (the House's ``end`` is always listed) and each House choice after the first deal
#: takes a fresh seed's move before its draw (C-9), so two games may reach too few rewinds (a few seconds more).
REWIND_GAMES = 3
REWIND_GAMES_POSTGRES = 2
SHORT_GAMES = ("coin-flip", "pulp-cards")


def rewind_games(service: Stakes, system: str) -> range:
    short = service.settings.store == "postgres" and system not in SHORT_GAMES
    return range(REWIND_GAMES_POSTGRES if short else REWIND_GAMES)


class Rewinds:
    """The House's rewinds in random legal play, against what each step showed when it was reached: a rewind to a
    step at the end of a command gives exactly that step's snapshot; a rewind to a step inside one command (a
    move's events are stored together) is refused naming a ruling, and stores nothing."""

    MID_MOVE = "inside one move"

    def __init__(self, system: str) -> None:
        self.system = system
        self.seen: dict[Any, dict[int, dict[str, Any]]] = {}
        self.checked = self.inside = self.kept = 0
        self.probes = random.Random(f"{system}/inside")  # apart from the game's choices, which stay as they were

    @staticmethod
    def events(table: Table, unit: Any) -> list[str]:
        return [s.event for s in table.stakes.replay(table.cid, Seat.house(), unit).steps]

    def after(self, table: Table, unit: Any) -> None:
        found = table.unit(unit)
        self.seen.setdefault(unit, {})[found.version] = {"kept": found.kept_through_rewind(),
                                                          **snapshot(table, unit)}

    def rewind(self, table: Table, unit: Any, version: int, rng: random.Random) -> bool:
        steps = self.seen[unit]
        inside = [k for k in range(1, version) if k not in steps]
        for step in self.probes.sample(inside, min(2, len(inside))):  # inside one command: refused, nothing stored
            try:
                caught = refused(table, lambda step=step: table.rewind(unit, step, reveal=True))
            except BaseException as exc:
                raise AssertionError(f"{self.system}: step {step} of {version} (recorded: {sorted(steps)}) lies "
                                     f"inside one command and was not refused ({self.events(table, unit)}): {exc}") from exc
            self.inside += self.MID_MOVE in str(caught)
        step = rng.choice([k for k in steps if k < version] or [1]) if rng.random() < 0.75 else \
            rng.randint(1, version - 1)
        if step not in steps:
            caught = refused(table, lambda: table.rewind(unit, step, reveal=True))
            self.inside += self.MID_MOVE in str(caught)
            return False
        try:
            table.rewind(unit, step, reveal=True)
        except StakesError as exc:  # a step whose spending the sheets no longer hold, a fixed draw (C-6, C-9)
            assert exc.ruling and self.MID_MOVE not in str(exc), f"{self.system}: step {step} is a command's end: {exc}"
            return False
        want, got = steps[step], {"kept": steps[step]["kept"], **snapshot(table, unit)}
        if table.unit(unit).kept_through_rewind() != want["kept"]:  # seeds given, values seen since (C-7, C-8, C-9)
            want, got = want["sheets"], got["sheets"]  # the unit reads otherwise by the rules; the sheets do not
            self.kept += 1
        wrong = differences(want, got)
        assert not wrong, f"{self.system}: rewound to step {step} of {version}:\n" + "\n".join(wrong[:20])
        self.checked += 1
        return True


@pytest.mark.parametrize("system", cases("rewind"))
def test_random_legal_play_with_random_rewinds_equals_the_replay_of_the_kept_steps_c6(service: Stakes,
                                                                                      system: str) -> None:
    """C-6 (issue 30, item 3): wherever the House rewinds, the unit and every sheet it touched read as they did
    when that step was reached, whichever timeline the step belongs to; a step inside one move is refused."""
    rewinds = Rewinds(system)
    for game in rewind_games(service, system):  # seeded: the service's secrets follow the test, so each game replays alike
        table = Table(service, PROFILES[system])
        play(table, random.Random(f"{system}/rewinds/{game}"), 40, rewind=0.25, abandon=0.01,
             rewinder=rewinds.rewind, after=rewinds.after)
    assert rewinds.checked >= 4, f"{system}: only {rewinds.checked} rewinds checked"
    assert rewinds.checked > rewinds.kept, f"{system}: no rewind compared whole (seeds or shown values kept by each)"


#: The systems whose table mode the driver plays from the listing (``Profile.table_listed``), each with what a
#: rewind fixed (C-7): Twenty-one's deal lists the deck; a Penny Ante roll its count of d6; a Pool roll as many
#: d6 as the count it picks; a Beast roll d10s (``faces``), as many first as its split picks (``count_of``), one
#: more for each 10 (``explode_on``, BE-10), with the chains a rewind fixed (``fixed_chains``); a Pulp deal or
#: attack the 14-card deck and its 7 cards, initiative its round-robin (``dealt_to``) and the cards' ``points``
#: for the ties (PU-9), with the cards a rewind fixed (``required``). Every table-mode system is listed: a new
#: one with a ``table_setting`` and no ``table_listed`` fails ``test_every_table_mode_is_played_from_its_listing``.
TABLE_LISTED = [s for s in SYSTEMS if PROFILES[s].table_setting and PROFILES[s].table_listed]


def test_every_table_mode_is_played_from_its_listing() -> None:
    """C-3 (issue 30): a system whose table enters its own dice or cards says in its listing what to enter, so
    the driver plays its table mode (and its C-7 rewinds) from the listing alone."""
    unlisted = [s for s in SYSTEMS if PROFILES[s].table_setting and not PROFILES[s].table_listed]
    assert not unlisted, unlisted


@pytest.mark.parametrize("system", TABLE_LISTED)
def test_with_table_dice_or_cards_a_rewind_equals_the_replay_of_the_kept_steps_c6_c7(service: Stakes,
                                                                                     system: str) -> None:
    """C-6, C-7 (issue 30, item 3): the same with the dice or cards entered at the table from the listed moves; a
    slot dealt before a rewind takes exactly the entries it had (C-7), so the step reads as it did."""
    rewinds = Rewinds(system)
    for game in rewind_games(service, system):
        table = Table(service, PROFILES[system], table=True)
        played = play(table, random.Random(f"{system}/table rewinds/{game}"), 40, rewind=0.25, abandon=0.01,
                      rewinder=rewinds.rewind, after=rewinds.after)
        assert len(played.refused) < played.moves // 4, f"{system}: {played.refused[:3]}"
    assert rewinds.checked >= 4, f"{system}: only {rewinds.checked} rewinds checked"
    assert rewinds.checked > rewinds.kept, f"{system}: no rewind compared whole (seeds or shown values kept by each)"


# -- every refusal names a ruling and stores nothing -------------------------------------------------------------
def probe_unlisted(rng: random.Random) -> Any:
    """Before a move: a seat sends a move it does not list (another seat's, or one nobody lists now), and the House
    rewinds out of range: each is refused naming a ruling, and stores nothing."""

    def probe(table: Table, unit: Any) -> None:
        listed = table.legal(unit)
        names = {a.action_name() for a in _actions(table, unit)} - {None}
        for seat in rng.sample(SEATS, 2):
            own = {a["action"] for s, a in listed if s == seat}
            others = [a for s, a in listed if s != seat and a["action"] not in own]
            unlisted = sorted(n for n in names if n not in own and n != "abandon")
            if others and rng.random() < 0.7:  # a wrong seat: another seat's move, as it lists it
                legal = rng.choice(others)
            elif unlisted:  # a move nobody lists for this seat now
                legal = {"action": rng.choice(unlisted)}
            else:
                continue
            body = body_for(table.action_class(unit, legal["action"]), legal, rng)
            refused(table, lambda seat=seat, body=body: table.act(seat, unit, body))
        version = table.unit(unit).version
        refused(table, lambda: table.rewind(unit, rng.choice([0, version, version + 3])), "C-6")

    return probe


def _actions(table: Table, unit: Any) -> tuple[Any, ...]:
    from domain.kernel.registry import system_of_unit

    found = table.unit(unit)
    return system_of_unit(found).actions(found)


@pytest.mark.parametrize("system", cases("refusals"))
def test_every_refusal_names_a_ruling_and_stores_nothing(service: Stakes, system: str) -> None:
    @FEW
    @given(GAMES)
    def game(rng: random.Random) -> None:
        table = Table(service, PROFILES[system])
        play(table, rng, 10, rewind=0.1, probe=probe_unlisted(rng))
        refused(table, lambda: table.run("ilse", "start-adventure"), "C-1")  # the House's command, from a player

    game()


# -- C-1: units happen during an adventure -----------------------------------------------------------------------
@pytest.mark.parametrize("system", cases("C-1"))
def test_a_unit_opens_only_while_an_adventure_runs_and_holds_the_adventure_open_c1(service: Stakes,
                                                                                    system: str) -> None:
    profile = PROFILES[system]
    table = Table(service, profile, adventure=False)
    for step in (profile.openings[0], *profile.one_shots):  # openings[0] needs nothing the adventure brings
        refused(table, lambda step=step: table.send(step), "C-1")
    table.run(HOUSE, "start-adventure")
    for step in profile.during:
        table.send(step)
    unit = table.open(random.Random(system))
    refused(table, lambda: table.run(HOUSE, "end-adventure"), "C-1")
    table.abandon(unit)
    table.run(HOUSE, "end-adventure")
    refused(table, lambda: table.send(profile.openings[0]), "C-1")


# -- C-6: overturn and void ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("system", cases("void"))
def test_a_settled_unit_is_voided_with_a_reason_once_c6(service: Stakes, system: str) -> None:
    profile = PROFILES[system]
    table = Table(service, profile)
    rng = random.Random(f"{system}/void")
    units = [table.send(step).id for step in (*profile.openings[:1], *profile.one_shots)]
    for unit in units:
        refused(table, lambda unit=unit: table.void(unit), "C-6") if not table.unit(unit).settled else None
        play_to_settlement(table, rng, unit)
        before = table.view(HOUSE, unit).model_dump()
        assert not service.challenge_summary(table.cid, Seat("mara"), unit).summary.get("overturned")
        table.void(unit)
        assert table.view(HOUSE, unit).model_dump() != before, f"{system}: a void that changes nothing in the unit"
        assert table.unit(unit).settled and table.unit(unit).was_overturned
        # the lists say so, for every seat (the kernel's flag in the unit's summary), not "settled"
        assert service.challenge_summary(table.cid, Seat("mara"), unit).summary.get("overturned") is True
        entries = [e for e in service.log(table.cid, Seat("mara"), 0, 1000).entries if unit.hex in e.stream]
        assert entries[-1].detail.get("reason") == "the table voids it", entries[-1]  # C-2: the reason, for all
        sheets = dump(service.sheets(table.cid, Seat.house()))
        try:  # voided again: refused (C-6), or a void that moves nothing more
            table.void(unit)
        except StakesError as exc:
            assert exc.ruling == "C-6", exc
        assert dump(service.sheets(table.cid, Seat.house())) == sheets, f"{system}: a second void moved the sheets"


@pytest.mark.parametrize("system", cases("overturn offer"))
def test_the_house_is_offered_an_overturn_exactly_when_the_unit_takes_one_with_the_winners_it_takes_c6(
        service: Stakes, system: str) -> None:
    """What the House's rulings offer (``overturn_winners``: the web's overturn form) comes from the checks that
    refuse an overturn: nothing while a unit is open; once settled, a void, and a new winner only where the
    system names one (issue 30, item 4). A side not offered as the winner is refused naming a ruling and stores
    nothing; an offered one is accepted; a unit no longer offered is refused. A new winner is the system's own
    typed input: the campaign's ``overturn`` class takes every side it offers, and a system whose class has no
    ``winner`` offers none and refuses one by the request's shape, naming C-6."""
    profile = PROFILES[system]
    table = Table(service, profile)
    rng = random.Random(f"{system}/overturn offer")
    house = Seat.house()
    overturn = service.app.command_class(table.cid, "overturn")
    typed = "winner" in overturn.model_fields
    for unit in [table.send(step).id for step in (*profile.openings[:1], *profile.one_shots)]:
        if not table.unit(unit).settled:
            assert service.overturn_winners(table.cid, house, unit) is None
            refused(table, lambda unit=unit: table.void(unit), "C-6")
        play_to_settlement(table, rng, unit)
        assert service.overturn_winners(table.cid, Seat("ilse"), unit) is None  # the House's ruling alone
        for _ in range(3):
            winners = service.overturn_winners(table.cid, house, unit)
            if winners is None:
                refused(table, lambda unit=unit: table.void(unit), "C-6")
                break
            assert typed or winners == (), f"{system}: offers a winner its overturn has no field for"
            for side in winners:  # each offered side is a value of the system's own typed input
                overturn.parse({"unit": str(unit), "winner": side, "reason": "as ruled"})
            if not typed:
                refused(table, lambda unit=unit: table.run(
                    HOUSE, "overturn", {"unit": unit, "winner": "challenger", "reason": "as ruled"}), "C-6")
            for side in ("challenger", "opponent"):
                if side not in winners:
                    refused(table, lambda unit=unit, side=side: table.run(  # C-6, or the system's own ruling
                        HOUSE, "overturn", {"unit": unit, "winner": side, "reason": "as ruled"}))
            if winners and rng.random() < 0.7:
                table.run(HOUSE, "overturn", {"unit": unit, "winner": rng.choice(winners), "reason": "as ruled"})
            else:
                table.void(unit)


@pytest.mark.parametrize("system", cases("open void"))
def test_an_open_unit_is_rewound_and_never_voided_c6(service: Stakes, system: str) -> None:
    """An overturn undoes a settled result; an open unit is rewound instead (C-6)."""
    table = Table(service, PROFILES[system])
    play(table, random.Random(f"{system}/open void"), 30, probe=lambda table, unit: refused(
        table, lambda: table.void(unit), "C-6"))


@pytest.mark.parametrize("system", cases("undo list"))
def test_the_houses_replay_lists_exactly_the_steps_an_undo_goes_back_to_c6(service: Stakes, system: str) -> None:
    """The House's replay marks each step ``rewindable`` (the web's undo list shows those alone): a step not
    marked is refused naming a ruling and stores nothing; a marked one is accepted, unless a sheet can no longer
    bear what the step spent (that is found when the undo is sent, naming its ruling, never "inside one move")."""
    rng = random.Random(f"{system}/undo list")
    table, checked = Table(service, PROFILES[system]), 0

    def probe(table: Table, unit: Any) -> None:
        nonlocal checked
        if rng.random() > 0.5:
            return
        steps = table.stakes.replay(table.cid, Seat.house(), unit).steps
        assert steps[-1].rewindable is False and all(s.rewindable is not None for s in steps)
        for s in rng.sample(steps, min(3, len(steps))):
            if not s.rewindable:
                refused(table, lambda s=s: table.rewind(unit, s.step, reveal=True))
        listed = [s.step for s in steps if s.rewindable]
        if listed and rng.random() < 0.3:
            try:
                table.rewind(unit, rng.choice(listed), reveal=True)
            except StakesError as exc:
                assert exc.ruling and Rewinds.MID_MOVE not in str(exc), f"{system}: a listed step refused: {exc}"
        checked += 1

    play(table, rng, 24, probe=probe)
    assert checked >= 3, checked
    assert all(s.rewindable is None for u in table.units() for s in table.stakes.replay(
        table.cid, Seat.parse("ilse"), u).steps), "a player's replay says what the House may undo"


# -- C-4: every draw recomputes from the published commitment ----------------------------------------------------------
def assert_draws_recompute(table: Table, unit: Any) -> int:
    """The unit's draws, recomputed from docs/fairness.md alone; returns how many were checked."""
    stakes, mara = table.stakes, Seat("mara")
    verified = stakes.verify_challenge(table.cid, mara, unit)
    assert verified.verifiable and verified.commitment_matches and not verified.mismatches, verified
    recipe = Recipe(verified.secret_seed or "", verified.side_seeds or [])
    derived = [r for r in verified.results or [] if not r["entered"]]
    wrong = [m for r in derived for m in recipe.mismatches(r)]
    assert not wrong, f"{table.profile.system}: {wrong}"
    assert verified.checked >= len(derived)  # a system may check more (Pulp: each hand from its shuffle and cut)
    # C-4, C-10: the hash was public before any request that brought a player's seed into the unit
    log = stakes.log(table.cid, mara, 0, 1000).entries
    published = [e.position for e in log if e.detail.get("seed_hash") == commitment(verified.secret_seed or "")]
    assert published, f"{table.profile.system}: the unit's commitment was never published"
    for head in table.seeded.get(unit, []):
        assert min(published) <= head, (f"{table.profile.system}: a seed was sent at position {head}, the "
                                        f"commitment it meets was first published at {min(published)}")
    given_seeds = {e.detail.get("seed") for e in log if unit.hex in e.stream}
    assert {s for s in verified.side_seeds or [] if s} <= given_seeds, "a side seed nobody gave in the log"
    return len(derived)


@pytest.mark.parametrize("system", cases("draws"))
def test_every_draw_recomputes_from_the_commitment_published_before_the_seeds_c4(service: Stakes,
                                                                                   system: str) -> None:
    profile = PROFILES[system]

    @FEW
    @given(GAMES)
    def game(rng: random.Random) -> None:
        table = Table(service, profile)
        units = []
        for step in profile.one_shots:  # first: a game may leave a character unable to draw so (a pool of 2)
            unit = table.send(step).id
            play_to_settlement(table, rng, unit)
            units.append(unit)
        played = play(table, rng, 16, rewind=0.1, abandon=0.05)
        play_to_settlement(table, rng, played.units[-1])  # the last one too
        units += {*played.settled, played.units[-1]}
        checked = sum(assert_draws_recompute(table, unit) for unit in units)
        assert checked, f"{system}: no draw to check in {len(units)} settled units"

    game()


# -- C-9, C-10: fresh seeds after the House's choices (ADR 0041) -------------------------------------------------------
@pytest.mark.parametrize("system", cases("fresh"))
def test_a_fresh_seed_owed_after_the_houses_choices_is_each_players_own_and_never_passed_c9(service: Stakes,
                                                                                           system: str) -> None:
    """Where a unit's draw waits for fresh seeds after the House's choices (``fresh_stage``), every seat of an owing
    side lists a `seed` marked `fresh` and no pass, the House lists no seed, a pass is refused naming C-9 and
    stores nothing; and every result of a fresh slot carries the fresh seeds given for its stage, in side order
    (docs/fairness.md). A system with such stages reaches one in random play."""
    stages: list[str] = []

    def after(table: Table, unit: Any) -> None:
        found = table.unit(unit)
        owed = found.owed_fresh()
        if not owed:
            return
        stages.append(found.fresh_stage())
        legal = table.legal(unit)
        assert not [a for seat, a in legal if seat == HOUSE and a["action"] in ("seed", "pass")], legal
        for side in owed:
            for seat in found.seats_of(side):
                mine = [a for s, a in legal if s == seat]
                assert any(a["action"] == "seed" and a.get("fresh") for a in mine), (system, seat, mine)
                assert not [a for a in mine if a["action"] == "pass"], (system, seat, mine)
                refused(table, lambda seat=seat: table.act(seat, unit, {"action": "pass"}), "C-9")

    rng, staged = random.Random(f"{system}/fresh"), set()
    for _ in range(6):  # short games on fresh tables (a long one loses its characters to its own rules)
        table = Table(service, PROFILES[system])
        played = play(table, rng, 48, rewind=0.05, after=after)
        staged |= {type(table.unit(u)) for u in played.units}
        for unit in {*played.settled, *played.units}:
            found = table.unit(unit)
            given = [[found.fresh[stage][side] for side in found.seeders()] for stage in found.fresh
                     if found.fresh_in(stage)]
            for record in [*found.rolls, *found.shuffles]:
                slot = list(record["slot"])
                if "fresh" in slot:
                    at = slot.index("fresh") + 1
                    assert any(slot[at:at + len(seeds)] == seeds for seeds in given), (system, slot, given)
    if any(cls.fresh_stage is not Resolution.fresh_stage for cls in staged):
        assert stages, f"{system}: random play reached no fresh stage"


# -- C-10: an abandoned draw is shown to every seat --------------------------------------------------------------------
def to_an_input(table: Table, unit: Any, rng: random.Random) -> str:
    """Listed moves (a seed first wherever one is listed, never an abandon) until an input is in and the draw it
    fixes not made (C-10): "abandonable"; "drawn" when the draw came with the input itself, "ended" when the
    unit ended before any input."""
    for _ in range(12):
        found = table.unit(unit)
        if found.abandons_a_draw():
            return "abandonable"
        if found.rolls or found.shuffles:
            return "drawn"
        if found.settled:
            return "ended"
        moving = [(s, a) for s, a in table.legal(unit) if a["action"] != "abandon"]
        seat, legal = next(((s, a) for s, a in moving if a["action"] == "seed"), rng.choice(moving))
        table.act(seat, unit, body_for(table.action_class(unit, legal["action"]), legal, rng))
    return "ended"


@pytest.mark.parametrize("system", cases("abandon"))
def test_abandoning_a_unit_after_an_input_shows_its_would_be_draw_to_every_seat_c10(service: Stakes,
                                                                                     system: str) -> None:
    """Wherever a state exists with an input in and the draw not made, the House abandons there. A unit whose
    first input draws at once (a Pulp combat: the players' side gives one seed) has no draw to abandon."""
    profile = PROFILES[system]
    rng = random.Random(f"{system}/abandon")
    seen = []
    for opening in (*profile.openings, *profile.openings):
        table = Table(service, profile)
        unit = table.send(opening).id
        seen.append(to_an_input(table, unit, rng))
        if seen[-1] != "abandonable":
            continue
        table.abandon(unit)
        assert table.unit(unit).settled
        shown_to_all(table, system, unit)
        table.run(HOUSE, "end-adventure")  # C-1: the abandoned unit holds the adventure no longer
    assert set(seen) - {"ended"}, f"{system}: every unit ended before any input"


def shown_to_all(table: Table, system: str, unit: Any) -> list[dict[str, Any]]:
    """The draws the unit's one ``DrawAbandoned`` recorded, which every seat reads whole and which recompute from
    the revealed secret and the seeds (docs/fairness.md)."""
    verified = table.stakes.verify_challenge(table.cid, Seat.house(), unit)
    recipe = Recipe(verified.secret_seed or "", verified.side_seeds or [])
    draws: list[dict[str, Any]] = []
    for seat in SEATS:
        shown = [e for e in table.stakes.log(table.cid, Seat.parse(seat), 0, 1000).entries
                 if unit.hex in e.stream and e.event == "DrawAbandoned"]
        assert len(shown) == 1 and not shown[0].hidden, f"{system}: {seat} reads {shown}"
        draws = shown[0].detail["draws"]
        assert draws and not [m for d in draws for m in recipe.mismatches(d)], draws
    # the unit keeps them (its board shows them), and its verify derives them again with its results
    kept = table.unit(unit).would_have_drawn
    assert [d["slot"] for d in kept] == [d["slot"] for d in draws], f"{system}: the unit keeps {kept}"
    marked = [r for r in verified.results or [] if r.get("abandoned")]
    assert [r["slot"] for r in marked] == [d["slot"] for d in draws] and not verified.mismatches, verified
    assert verified.checked >= len(draws)
    return draws


#: The systems whose units draw in turn: a side's (or a player's attack's) draw may still be to come, fixed by the
#: seeds given, after another's was made. Twenty-one deals every hand from its one shuffle at once; Coin Flip
#: flips once.
DRAW_IN_TURN = ("penny-ante", "pool", "beast", "pulp-cards")


@pytest.mark.parametrize("system", DRAW_IN_TURN)
def test_abandoning_a_unit_after_one_draw_shows_the_draw_still_to_come_to_every_seat_c10(service: Stakes,
                                                                                        system: str) -> None:
    """C-10: once the seeds fix a draw still to come (the other side's roll, the player's attack up next), the
    House that ends the unit there, after seeing the first draw, records that draw for every seat: its would-be
    values recompute from the commitment, and none of them is one the unit had already drawn."""
    profile = PROFILES[system]
    rng = random.Random(f"{system}/abandon after a draw")
    found = 0
    for _ in range(12):
        table = Table(service, profile)
        unit = table.open(rng)
        for _ in range(40):
            state = table.unit(unit)
            if state.settled or ((state.rolls or state.shuffles) and state.abandons_a_draw()):
                break
            moving = [(s, a) for s, a in table.legal(unit) if a["action"] != "abandon"]
            seat, legal = next(((s, a) for s, a in moving if a["action"] == "seed"), rng.choice(moving))
            try:
                table.act(seat, unit, body_for(table.action_class(unit, legal["action"]), legal, rng))
            except StakesError:
                pass  # the first property reports listed moves refused
        state = table.unit(unit)
        if state.settled or not (state.rolls or state.shuffles) or not state.abandons_a_draw():
            continue
        drawn = {json.dumps(r["slot"]) for r in [*state.rolls, *state.shuffles]}
        table.abandon(unit)
        draws = shown_to_all(table, system, unit)
        assert not {json.dumps(d["slot"]) for d in draws} & drawn, f"{system}: a draw made is recorded as abandoned"
        found += 1
        table.run(HOUSE, "end-adventure")
    assert found, f"{system}: no unit reached a draw still to come after another"


# -- the read models: a rebuild equals the incremental projection --------------------------------------------------------
@pytest.mark.parametrize("system", cases("rebuild"))
def test_a_rebuild_of_the_read_models_equals_the_projection_made_command_by_command(service: Stakes,
                                                                                     system: str) -> None:
    profile = PROFILES[system]
    rng = random.Random(f"{system}/rebuild")
    table = Table(service, profile)
    for step in profile.one_shots:
        unit = table.send(step).id
        play_to_settlement(table, rng, unit)
        table.void(unit)
    played = play(table, rng, 24, rewind=0.15, abandon=0.05)
    for unit in played.settled[:2]:
        try:
            table.void(unit)
        except StakesError:
            pass  # an abandoned unit has nothing to void
    incremental = service.views.dump()
    service.rebuild()
    assert service.views.dump() == incremental


@pytest.mark.parametrize("system", cases("rebuild"))
def test_the_lean_decoding_of_the_log_projects_what_the_librarys_own_decoding_does(service: Stakes, system: str,
                                                                                     monkeypatch) -> None:
    """ADR 0037: the projection reads the log as plain rows and decodes events to their stored JSON (ids and
    times as text); a rebuild through the library's ``select_notifications`` and mapper writes the same rows."""
    from adapters.projection import Decoder

    rng = random.Random(f"{system}/lean")
    table = Table(service, PROFILES[system])
    played = play(table, rng, 16, rewind=0.15, abandon=0.05)
    for unit in played.settled[:1]:
        try:
            table.void(unit)
        except StakesError:
            pass  # an abandoned unit has nothing to void
    service.rebuild()
    lean = service.views.dump()
    monkeypatch.setattr(service.app.recorder, "log_page", None)  # the runner reads select_notifications
    monkeypatch.setattr(Decoder, "_class", lambda self, topic: None)  # every event through the mapper
    monkeypatch.setattr(service.projection, "_decode", Decoder(service.app.mapper))
    service.rebuild()
    assert service.views.dump() == lean


# -- C-5: one seat's secret input reaches no seat that takes no part ----------------------------------------------------
IDS = re.compile(r"(?<![0-9a-f])([0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?![0-9a-f])")
TIMES = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?([+-]\d\d:\d\d|Z)?")


def normalized(text: str, seed: str) -> str:
    """Ids and times (another campaign's), the summary's store-wide ``position``, and the varied seed's own
    text, which C-4 publishes to every seat, made alike; everything else is compared byte for byte."""
    text = text.replace(json.dumps(seed)[1:-1], "<the varied seed>")
    text = re.sub(r'"position": \d+, "announced_at"', '"position": 0, "announced_at"', text)
    return TIMES.sub("<time>", IDS.sub("<id>", text))


def hidden_story(service: Stakes, system: str, seed: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A unit played with the moves that keep its draws hidden (the profile's), in one fixed order, where the
    first seat to seed seeds ``seed``; the other seeds are fixed. Every secret the service draws is the same
    from one story to the next. Returns what every seat reads, keyed by seat and read."""
    drawn = iter(f"{n:064x}" for n in range(1, 10_000))
    monkeypatch.setattr(randomness, "new_secret_seed", lambda: next(drawn))
    profile = PROFILES[system]
    table = Table(service, profile)
    opening = profile.hidden_opening or profile.openings[0]
    varied: str | None = None
    if "seed" in opening.inputs:  # a one-shot draw: the varied seat's seed comes with it
        varied = opening.actor
        opening = replace(opening, inputs={**opening.inputs, "seed": seed})
    unit = table.send(opening).id
    for _ in range(20):
        moves = [(s, a) for s, a in table.legal(unit)
                 if a["action"] in profile.hidden_moves or f"{s}:{a['action']}" in profile.hidden_moves]
        if not moves or table.unit(unit).settled:
            break
        seat, legal = moves[0]
        body = body_for(table.action_class(unit, legal["action"]), legal, random.Random(0))
        if legal["action"] == "seed":
            varied = varied or seat
            body["seed"] = seed if seat == varied else "a steady hand"
        table.act(seat, unit, body)
    assert varied is not None, f"{system}: nobody seeded"
    inside = set(table.seats_in(unit))
    return {f"{seat} {name}": normalized(text, seed) for seat in SEATS
            for name, text in table.reads(seat, [unit]).items()} | {"varied": varied, "onlookers": json.dumps(
                sorted(s for s in SEATS if s not in inside))}


SEED_TEXT = st.text(alphabet="qxzjQXZJ79", min_size=4, max_size=12).map(lambda s: f"seed-{s}")


@pytest.mark.parametrize("system", cases("hidden"))
def test_one_seats_seed_changes_nothing_a_seat_outside_the_unit_reads_while_its_draws_are_hidden_c5(
        service: Stakes, system: str, monkeypatch: pytest.MonkeyPatch) -> None:
    @FEW
    @given(st.tuples(SEED_TEXT, SEED_TEXT).filter(lambda pair: pair[0] != pair[1]))
    def stories(pair: tuple[str, str]) -> None:
        first, second = (hidden_story(service, system, seed, monkeypatch) for seed in pair)
        assert first["varied"] == second["varied"]
        onlookers = json.loads(first["onlookers"])
        assert "mara" in onlookers
        for seat in onlookers:
            for key in (k for k in first if k.startswith(f"{seat} ")):
                assert first[key] == second[key], f"{system}: {key} differs with {first['varied']}'s seed"

    stories()


def test_a_coin_shown_to_a_seat_outside_the_flip_is_caught(service: Stakes, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hidden-information check is not vacuous: a Coin Flip whose view showed the tossed coin to every
    seat (against CF-2) fails it for the two seeds of the first pair whose coins differ."""
    from tests.toy_system.rules import CoinFlip

    shown = CoinFlip.view_for
    monkeypatch.setattr(CoinFlip, "view_for", lambda self, seat, reveal=False, settled=False:
                        {**shown(self, seat, reveal, settled), "coin": self.coin})
    stories = {}
    for n in range(8):
        story = hidden_story(service, TOY.id, f"seed-{n}", monkeypatch)
        coin = json.loads(story["mara unit 0"])["state"]["coin"]
        stories.setdefault(coin, story)
        if len(stories) == 2:
            break
    heads, tails = stories.values()
    assert heads["mara unit 0"] != tails["mara unit 0"]


# -- the CLI reads like the table: who acted by name, never a seat's handle or a side's role ----------------------
#: A seat's handle where a name belongs (each is seated as its title: ``ilse`` plays "Ilse"); a side by its role.
HANDLE = re.compile(r"\b(?:ilse|tomas|mara)\b")
ROLE = re.compile(r"\b(?:[Tt]he (?:challenger|opponent|side)|A side)\b")


@pytest.mark.parametrize("system", cases("named"))
def test_the_cli_log_and_replay_name_who_acted_and_who_plays_each_side(service: Stakes, system: str,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """``stakes log`` and ``stakes replay`` as each seat reads them: every phrase of the system's (``Phrase``)
    names its characters, antagonists and sides by name, and the log's who column names who acted."""
    from rich.console import Console

    from cli import tables  # first: history's renderers are imported through it (cli/tables.py)

    history = sys.modules[tables.log.__module__]

    phrased: list[str] = []
    original = history._phrase

    def recording(*args: Any) -> list[str] | None:
        lines = original(*args)
        phrased.extend(lines[:1] if lines else [])
        return lines

    monkeypatch.setattr(history, "_phrase", recording)

    @FEW
    @given(GAMES)
    def game(rng: random.Random) -> None:
        table = Table(service, PROFILES[system])
        played = play(table, rng, 24, abandon=0.03)
        players = service.campaign(table.cid, Seat.house()).players
        names = {"house": "the House", **{p.seat: p.character for p in players}}
        console = Console(width=200, file=io.StringIO())
        for seat in SEATS:
            viewer = Seat.parse(seat)
            drawn = history.log(service.log(table.cid, viewer, 0, 1000), names)
            console.print(drawn)
            who = {str(cell) for cell in drawn.columns[2]._cells}  # type: ignore[attr-defined]
            assert who and not who & set(SEATS), f"{system}: the log's who column shows a seat's handle: {who}"
            for unit in played.units:
                console.print(history.replay(service.replay(table.cid, viewer, unit), names))
            # a page that starts after a unit opened (``stakes log --after``): its sides and its characters are
            # still named, from the unit's opening step and the campaign's players
            view = service.campaign(table.cid, viewer)

            def opening(unit: str, viewer: Seat = viewer) -> list[Any]:
                return list(service.replay(table.cid, viewer, UUID(unit), step=1).steps)

            after = 0
            while after is not None:
                page = service.log(table.cid, viewer, after, 5)
                console.print(history.log(page, names, view.characters(), opening))
                after = page.next_after
        assert phrased or system == TOY.id, f"{system}: no phrase of its own in the log"
        bad = [p for p in phrased if HANDLE.search(p) or ROLE.search(p)]
        assert not bad, f"{system}: phrases by handle or role: {sorted(set(bad))[:8]}"

    game()
