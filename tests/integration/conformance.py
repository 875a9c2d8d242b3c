"""What the conformance suite (``test_conformance.py``) knows of each registered system, and the generic
driver that plays any of them from its legal actions alone.

A profile says only how a table of that system is set up and how its units are opened: the inputs a player
is seated with, the commands that prepare the table (an antagonist, an adventure), the commands that open a
unit, and which moves keep a unit's draws hidden from a seat that takes no part in it (C-5, the rules'
statement of what is hidden). Everything else is played from what the service lists: each seat's
``legal_actions`` in the unit's view, and the schema of the action's command class. A move is built from the
listed entry alone (its ``choices`` for its ``field``, its ``min``/``max``/``step``, its ``member``, what it
``required`` after a rewind); a text the entry cannot list (a seed, a reason) is a plain sentence.

The move builder is ``tests/legal_play.py``, shared with the HTTP driver. The draws are recomputed from
``docs/fairness.md`` alone (``Recipe``): HMAC-SHA256 words, rejection sampling, Fisher-Yates by slot, the Pulp
cut; no function of the service's.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from adapters.service import Stakes
from domain.errors import StakesError
from domain.kernel.commands import Command
from domain.kernel.registry import system_of_unit
from domain.seats import Seat
from tests import legal_play

HOUSE = "house"
PLAYERS = ("ilse", "tomas", "mara")  # mara is seated and never takes part: she looks on
SEATS = (HOUSE, *PLAYERS)
TEXT = legal_play.TEXT


@dataclass(frozen=True)
class Step:
    """One command: who sends it, its verb and its inputs."""

    actor: str
    verb: str
    inputs: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Profile:
    system: str
    #: What ``add-player`` takes besides the seat and the character's name.
    player: dict[str, Any]
    #: Commands that prepare the table once the players are seated, with no adventure started.
    prepare: tuple[Step, ...]
    #: Commands that open a multi-step unit (one is picked at random).
    openings: tuple[Step, ...]
    #: One-shot draws (the player's input and the draw in one request, C-10), if the system has any.
    one_shots: tuple[Step, ...] = ()
    #: C-5: the unit whose hidden draws the suite varies (by one seat's seed), and the moves that, by the system's
    #: rules, show nothing it drew to a seat that takes no part in it: an action's name, or ``seat:name``.
    #: Without ``hidden_opening``, the first opening; a one-shot opening takes the varied seed itself.
    hidden_moves: frozenset[str] = frozenset({"seed", "pass"})
    hidden_opening: Step | None = None
    #: Commands during the running adventure before a unit opens (funding an antagonist).
    during: tuple[Step, ...] = ()
    #: C-3: the campaign setting that has the table enter its own dice or cards, if the system has one.
    table_setting: str | None = None
    #: Whether the listed moves say what the table enters (a count and the values it may take, or a count of dice
    #: and their ``faces``), so that the driver plays table mode from the listing alone.
    table_listed: bool = False


PROFILES: dict[str, Profile] = {p.system: p for p in (
    Profile("penny-ante", {"characteristic": "Sly"},
            prepare=(Step(HOUSE, "create-antagonist", {"name": "Lady Sen", "characteristics": ["Poison"]}),),
            during=(Step(HOUSE, "fund-antagonist", {"antagonist": "Lady Sen", "amount": 20}),),
            openings=(Step("ilse", "announce-challenge", {"challenger": {"players": ["ilse"]},
                                                           "opponent": {"players": ["tomas"]}, "ante": 1}),
                      Step(HOUSE, "announce-challenge", {"challenger": {"antagonist": "Lady Sen"},
                                                         "opponent": {"players": ["ilse", "tomas"]}, "ante": 1})),
            hidden_moves=frozenset({"seed", "pass", "declare", "roll"}),  # a cup is its side's (PA-8)
            table_setting="table_dice", table_listed=True),  # a roll lists its count of d6
    Profile("pool", {"description": "A brave and stubborn old monk", "traits": {"Brave": 1}},
            prepare=(),
            openings=(Step("ilse", "open-contest", {"opponent": "tomas"}),),
            one_shots=(Step("ilse", "roll", {"count": 2, "seed": "my lucky words"}),),
            hidden_moves=frozenset({"seed"}),  # the Pool hides no die: its dice are public once rolled
            table_setting="table_dice", table_listed=True),  # as many d6 as the count picked
    Profile("twenty-one", {"skills": ["Knife fighting"]},
            prepare=tuple(Step(HOUSE, "grant-holds", {"seat": s, "count": 1, "skill": "knife fighting"})
                          for s in ("ilse", "tomas")),
            openings=(Step(HOUSE, "open-conflict", {"characters": ["ilse", "tomas"]}),), table_setting="table_cards",
            table_listed=True),  # the deal lists the deck, each draw the cards it may take
    Profile("beast", {"humanity": 5},
            prepare=(Step(HOUSE, "create-antagonist", {"name": "Sheriff Cole", "humanity": 4, "willpower": 3}),),
            openings=(Step("ilse", "open-conflict", {"against": "Sheriff Cole"}),
                      Step("tomas", "open-conflict", {"against": "ilse"})),
            one_shots=(Step("ilse", "act", {"difficulty": 3, "humanity": 3, "beast": 2, "seed": "my lucky words"}),),
            hidden_moves=frozenset({"seed", "pass", "prepare", "house:roll"}),  # an antagonist's roll is the House's
            # a roll lists d10s (faces), how many come first (its split) and that each 10 adds one (explode_on)
            table_setting="table_dice", table_listed=True),
    Profile("pulp-cards", {},
            prepare=(),
            openings=(Step(HOUSE, "open-combat", {"combatants": ["ilse", "tomas", "Sheriff Cole"]}),),
            one_shots=(Step("ilse", "deal", {"kind": "standard", "seed": "my lucky words"}),),
            # a combat's initiative is dealt in the open from the players' seed; a deal is its dealer's until shown
            hidden_opening=Step("ilse", "deal", {"kind": "standard", "seed": "my lucky words"}),
            # a deal lists the deck and its 7 cards; initiative its round-robin, the cards' points for the ties
            hidden_moves=frozenset(), table_setting="table_cards", table_listed=True),
    Profile("coin-flip", {},
            prepare=(),
            openings=(Step(HOUSE, "open-flip", {"players": ["ilse", "tomas"]}),),
            hidden_moves=frozenset({"seed", "pass", "call"})),
)}


class Refused(AssertionError):
    """A move the suite expected to be accepted was refused."""


class Table:
    """A campaign of one system through the service in-process: the House and three players seated, the
    table prepared, an adventure running."""

    def __init__(self, stakes: Stakes, profile: Profile, *, adventure: bool = True, table: bool = False) -> None:
        """``table``: the table enters its own dice or cards (C-3, the profile's ``table_setting``)."""
        self.stakes, self.profile = stakes, profile
        #: Per unit, the campaign's log head just before each request that brought a player's seed into it.
        self.seeded: dict[UUID, list[int]] = {}
        settings = {profile.table_setting: True} if table and profile.table_setting else None
        self.cid: UUID = stakes.create_campaign(f"Conformance of {profile.system}", profile.system,
                                                settings).campaign.id
        for seat in PLAYERS:
            self.run(HOUSE, "add-player", {"seat": seat, "character": seat.title(), **profile.player})
        for step in profile.prepare:
            self.send(step)
        if adventure:
            self.run(HOUSE, "start-adventure")
            for step in profile.during:
                self.send(step)

    # -- commands ------------------------------------------------------------------------------------------
    def run(self, actor: str, verb: str, inputs: dict[str, Any] | None = None) -> Any:
        return self.stakes.run(self.cid, Seat.parse(actor), verb, inputs or {})

    def send(self, step: Step) -> Any:
        head = self.head()
        answer = self.run(step.actor, step.verb, step.inputs)
        if step.inputs.get("seed"):  # a one-shot draw: the seed and the draw in this one request (C-10)
            self.seeded.setdefault(answer.id, []).append(head)
        return answer

    def act(self, seat: str, unit: UUID, body: dict[str, Any]) -> Any:
        head = self.head()
        answer = self.stakes.act(self.cid, Seat.parse(seat), unit, body)
        if body.get("seed"):
            self.seeded.setdefault(unit, []).append(head)
        return answer

    def open(self, rng: random.Random) -> UUID:
        return self.send(rng.choice(self.profile.openings)).id

    def rewind(self, unit: UUID, to_step: int, reveal: bool = False) -> Any:
        return self.run(HOUSE, "rewind", {"unit": unit, "to_step": to_step, "reason": "the table disagreed",
                                          "reveal": reveal})

    def void(self, unit: UUID) -> Any:
        return self.run(HOUSE, "overturn", {"unit": unit, "void": True, "reason": "the table voids it"})

    def abandon(self, unit: UUID) -> Any:
        return self.act(HOUSE, unit, {"action": "abandon", "reason": "the table moves on"})

    # -- reads -----------------------------------------------------------------------------------------------
    def head(self) -> int:
        """The position of the campaign's last log entry."""
        self.stakes.catch_up()
        row = self.stakes.views.query_one("SELECT MAX(seq) AS head FROM {p}event_log WHERE campaign_id = ?",
                                          (self.cid.hex,))
        return int(row["head"]) if row and row["head"] is not None else 0

    def events(self) -> int:
        """How many events the store holds (every campaign's): a refusal adds none."""
        return self.stakes.app.recorder.max_notification_id() or 0

    def unit(self, unit: UUID) -> Any:
        """The unit's aggregate as the read models keep it."""
        self.stakes.catch_up()
        return self.stakes.load_unit(self.cid, unit)

    def view(self, seat: str, unit: UUID) -> Any:
        return self.stakes.challenge(self.cid, Seat.parse(seat), unit)

    def seats_in(self, unit: UUID) -> list[str]:
        found = self.unit(unit)
        return sorted({s for side in found.sides for s in found.seats_of(side)})

    def legal(self, unit: UUID) -> list[tuple[str, dict[str, Any]]]:
        """Every seat's listed moves in the unit (not the campaign commands its legal actions list, answers to
        something offered into it: ``Command.listed_in``), read on one connection."""
        self.stakes.catch_up()
        with self.stakes.views.reading():
            found = self.unit(unit)
            rules = system_of_unit(found)
            return [(seat, a.model_dump(exclude_none=True)) for seat in SEATS
                    for a in self.view(seat, unit).legal_actions if rules.listed_command(found, a.action) is None]

    def action_class(self, unit: UUID | Any, name: str) -> type[Command]:
        """The command class of the unit's action ``name`` (``unit``: its id, or the aggregate read already)."""
        found = self.unit(unit) if isinstance(unit, UUID) else unit
        return system_of_unit(found).action(found, name)

    def units(self) -> list[UUID]:
        return [s.id for s in self.stakes.challenges(self.cid, Seat.house(), limit=1000)]

    def reads(self, seat: str, units: Sequence[UUID] = ()) -> dict[str, str]:
        """What ``seat`` reads: the units' views and replays, the whole log, every sheet, as JSON text."""
        viewer = Seat.parse(seat)
        out = {"log": dump(self.stakes.log(self.cid, viewer, 0, 1000)),
               "sheets": dump(self.stakes.sheets(self.cid, viewer)),
               "units": dump(self.stakes.challenges(self.cid, viewer, limit=1000))}
        for i, unit in enumerate(units):
            out[f"unit {i}"] = dump(self.view(seat, unit))
            out[f"replay {i}"] = dump(self.stakes.replay(self.cid, viewer, unit))
        return out


def dump(model: Any) -> str:
    if isinstance(model, list):
        return json.dumps([m.model_dump(mode="json") for m in model], sort_keys=True)
    return json.dumps(model.model_dump(mode="json"), sort_keys=True)


# -- moves built from a listed legal action (``tests/legal_play.py``, shared with the HTTP driver) ---------------
def body_for(cls: type[Command], legal: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The request body for the listed move ``legal``, from the entry and the command's schema alone."""
    return legal_play.body_for(legal, cls.model_json_schema(), rng)


@dataclass
class Played:
    """What a random game did."""

    units: list[UUID] = field(default_factory=list)
    settled: list[UUID] = field(default_factory=list)
    moves: int = 0
    refused: list[tuple[str, dict[str, Any], str]] = field(default_factory=list)  # listed moves refused
    rewinds: int = 0


def random_rewind(table: Table, unit: UUID, version: int, rng: random.Random) -> bool:
    """The default rewind of ``play``: to any earlier step, revealed or not; a refusal (a step inside one move, a
    value every seat saw, C-6, C-8) is the rules' business. Returns whether it was accepted."""
    try:
        table.rewind(unit, rng.randint(1, version - 1), reveal=rng.random() < 0.5)
    except StakesError:
        return False
    return True


def play(table: Table, rng: random.Random, moves: int, *, rewind: float = 0.0, abandon: float = 0.0,
         probe: Any = None, rewinder: Any = random_rewind, after: Any = None) -> Played:
    """Random legal play: each move is one a seat lists, built from the listing alone. Now and then (``rewind``)
    the House rewinds, by ``rewinder(table, unit, version, rng)`` (to any earlier step by default), or abandons.
    ``probe(table, unit)`` runs before each move, ``after(table, unit)`` after the opening and after each
    accepted move or rewind. A settled unit is followed by a new one."""
    out = Played()

    def opened() -> UUID:
        unit = table.open(rng)
        out.units.append(unit)
        if after is not None:
            after(table, unit)
        return unit

    unit = opened()
    while out.moves < moves:
        found = table.unit(unit)
        if found.settled:
            out.settled.append(unit)
            unit = opened()
            continue
        options = table.legal(unit)
        moving = [(seat, a) for seat, a in options if a["action"] != "abandon"]
        assert moving, f"{table.profile.system}: a unit nobody can move on ({found.phase})"
        if probe is not None:
            probe(table, unit)
        if rng.random() < rewind and found.version > 1:
            if rewinder(table, unit, found.version, rng):
                out.rewinds += 1
                if after is not None:
                    after(table, unit)
            continue
        seat, legal = rng.choice(options if rng.random() < abandon else moving)
        body = body_for(table.action_class(found, legal["action"]), legal, rng)
        try:
            table.act(seat, unit, body)
        except StakesError as exc:
            out.refused.append((seat, body, str(exc)))
        else:
            if after is not None:
                after(table, unit)
        out.moves += 1
    if table.unit(unit).settled and unit not in out.settled:
        out.settled.append(unit)
    return out


def play_to_settlement(table: Table, rng: random.Random, unit: UUID, limit: int = 200) -> None:
    """Listed moves (never an abandon) until the unit is settled."""
    for _ in range(limit):
        if table.unit(unit).settled:
            return
        moving = [(s, a) for s, a in table.legal(unit) if a["action"] != "abandon"]
        seat, legal = rng.choice(moving)
        try:
            table.act(seat, unit, body_for(table.action_class(unit, legal["action"]), legal, rng))
        except StakesError:
            pass  # the first property reports listed moves refused; here the unit only has to end
    raise AssertionError(f"{table.profile.system}: no settlement in {limit} listed moves")


# -- docs/fairness.md, "The recipe", and nothing else -----------------------------------------------------------
class Recipe:
    """Every draw recomputed as docs/fairness.md says, from a secret, the side seeds and a slot."""

    def __init__(self, secret: str, side_seeds: Sequence[str]) -> None:
        self.secret, self.seeds = secret, list(side_seeds)

    def words(self, slot: Sequence[Any]) -> Iterator[int]:
        base = json.dumps([self.seeds, [str(part) for part in slot]], separators=(",", ":"))
        counter = 0
        while True:
            digest = hmac.new(self.secret.encode(), f"{base}#{counter}".encode(), hashlib.sha256).digest()
            yield from (int.from_bytes(digest[i:i + 4], "big") for i in range(0, 32, 4))
            counter += 1

    def integer(self, slot: Sequence[Any], n: int) -> int:
        limit = 2**32 - (2**32 % n)
        return next(w for w in self.words(slot) if w < limit) % n

    def die(self, slot: Sequence[Any], faces: int = 6) -> int:
        return self.integer(slot, faces) + 1

    def shuffle(self, slot: Sequence[Any], deck: Sequence[str]) -> list[str]:
        cards = list(deck)
        for i in range(len(cards) - 1, 0, -1):
            j = self.integer([*slot, "swap", i], i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return cards

    def mismatches(self, record: dict[str, Any]) -> list[str]:
        """What a recorded draw (a ``results`` record of verify, or a ``DrawAbandoned`` draw) gets wrong."""
        wrong = []
        if "deck" in record:
            order = self.shuffle(record["slot"], record["deck"])
            shown = record.get("order", record.get("value"))
            if shown != order:
                wrong.append(f"shuffle {record['slot']}: {shown} recorded, {order} by the recipe")
            if "cut" in record and record.get("cut_by", "drawn") == "drawn":
                cut = self.die([*record["slot"], "cut"], 13)
                if record["cut"] != cut:
                    wrong.append(f"cut {record['slot']}: {record['cut']} recorded, {cut} by the recipe")
            if "cut" in record and "cards" in record:
                k = record["cut"]
                if record["cards"] != (order[k:] + order[:k])[:7]:
                    wrong.append(f"cards {record['slot']}: not the top 7 after the cut")
        else:
            value = self.die(record["slot"], record.get("faces", 6))
            if record["value"] != value:
                wrong.append(f"die {record['slot']}: {record['value']} recorded, {value} by the recipe")
        return wrong


def commitment(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()
