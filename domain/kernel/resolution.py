"""What every unit of resolution shares (C-3 … C-9): seeds, slot-derived results, verification, undo, visibility.

A unit of resolution (C-1) is an eventsourcing ``Aggregate`` that mixes in :class:`Resolution`. The mixin
defines no events of its own, so every event keeps the class and topic of the unit that records it (stored
campaigns replay unchanged): a unit declares its own ``@event`` methods and calls the mixin's helpers
from them. Two kinds of helper:

* *verify* helpers (``verify_may_seed``, ``verify_seed``, ``draw_dice``, ``shuffle``, ``verify_rewind``) run
  before an event; they raise the refusal (a ``RuleViolation`` naming the ruling) or return what the
  event will record. They change nothing.
* *mutator* helpers (``put_seed``, ``record_result``, ``record_shuffle``, ``show``, ``restore``) run
  inside an ``@event`` method, on replay too.

State the mixin keeps on the aggregate: ``secret_seed``, ``seed_hash``, ``table`` (C-3, C-4); ``rolls``
(and ``shuffles``), records ``{"slot", "value", "entered"}`` (C-3, C-7); ``filled``, what each slot showed,
kept through rewinds (C-7); ``seeds_locked`` (C-4, C-7); ``shown``, the values every seat has seen, kept
through rewinds (C-8). States restored from snapshots taken before a field existed read the class defaults
below, which are immutable: the mixin only ever replaces them with the aggregate's own copy.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from domain.cards import verify_entered_cards
from domain.dice import verify_entered_dice
from domain.errors import NotPermitted, RuleViolation, passes
from domain.fairness import commitment, derive_die, derive_shuffle
from domain.text import clean_text

HOUSE = "house"
NOT_YET = {"verifiable": False, "reason": "the secret seed is revealed at settlement", "checked": 0, "entered": 0,
           "mismatches": []}


#: The key under which a shuffle record keeps the items it shuffled (stored in events since the first shuffle,
#: so it keeps its old word; docs/fairness.md names it). Read it through :func:`shuffle_of`.
SHUFFLED = "deck"


def shuffle_of(record: Mapping[str, Any]) -> tuple[list[Any], list[Any]] | None:
    """A draw record's shuffled items and the order they came in (``value`` when recorded, ``order`` when a
    unit was abandoned before it, C-10), or None for a die."""
    items, order = record.get(SHUFFLED), record.get("order") or record.get("value")
    return (list(items), list(order)) if items and isinstance(order, list) else None


def slot_key(slot: Sequence[Any]) -> str:
    """A slot as a mapping key (C-7): ``["roll", "challenger", 0]`` -> ``"['roll', 'challenger', 0]"``."""
    return repr(list(slot))


def key_slot(key: str) -> list[Any]:
    """The slot a ``slot_key`` was made of (its repr holds literals only): ``filled`` and ``shown`` keep a slot's
    value after a rewind took back the record that drew it (C-7, C-8)."""
    return list(ast.literal_eval(key))


def enter_or_derive(
    *, table: bool, secret: str, seeds: Sequence[str], slots: Sequence[Sequence[Any]], entered: Sequence[int] | None,
    faces: int = 6, filled: Mapping[str, Any] | None = None, what: str = "dice",
    table_message: str = "this challenge is played with table dice",
) -> list[int]:
    """The dice for ``slots``: entered at the table and validated (C-3), or derived from the seeds (C-4, C-7).

    A slot filled before a rewind must be entered the same again (C-7). With table dice and no slot to
    fill, nothing need be entered.
    """
    if table:
        if entered is None and not slots:
            return []
        if entered is None:
            raise RuleViolation(f"{table_message}: enter {len(slots)} {what}", ruling="C-3")
        dice = verify_entered_dice(entered, count=len(slots), faces=faces)
        for slot, value in zip(slots, dice, strict=True):
            before = (filled or {}).get(slot_key(slot))
            if before is not None and before != value:
                raise RuleViolation(f"slot {list(slot)} showed {before} before the rewind; the same die is entered",
                                    ruling="C-7")
        return dice
    if entered is not None:
        raise RuleViolation("dice are entered by hand only in table mode", ruling="C-3")
    return [derive_die(secret, seeds, slot, faces) for slot in slots]


def _reshuffled_other_cards(before: Sequence[str], dealt: Sequence[str], cards: Sequence[str]) -> bool:
    """Whether a slot that shuffles a whole pile (``dealt`` is all of ``cards``) was filled before a rewind
    from another pile: then it cannot be dealt the same again (C-7)."""
    return sorted(dealt) == sorted(cards) and sorted(before) != sorted(cards)


class Resolution:
    """Mixin for the ``Aggregate`` of a unit of resolution; see the module docstring."""

    #: What the table calls this kind of unit, in words ("deal", "combat", "roll"): refusals name a unit by
    #: it, never by its class (issue 31). Empty: a neutral "this table".
    UNIT_LABEL: ClassVar[str] = ""
    #: The sides whose seeds feed the generator, in this order (C-4).
    SEED_SIDES: ClassVar[tuple[str, ...]] = ("challenger", "opponent")
    #: The attributes a rewind restores from the past version (C-6); everything else is kept.
    REWOUND: ClassVar[tuple[str, ...]] = ()
    #: Refusals, worded per unit.
    TABLE_DICE: ClassVar[str] = "this challenge is played with table dice"
    SEEDS_CLOSED: ClassVar[str] = "a side adds its seed before the first roll"
    SEED_GIVEN: ClassVar[str] = "this side has already added its seed"
    SETTLED_REWIND: ClassVar[str] = "a settled challenge is not rewound"
    #: The faces of the dice the unit draws (a system of d10s says 10; ``faces_of`` tells other slots apart).
    DIE_FACES: ClassVar[int] = 6

    # Defaults for states restored from older snapshots (never mutated in place).
    #: C-10: the House's reason, once it abandoned the unit (its own closing event sets it; a unit whose end and
    #: abandon are one event, a Pulp combat's, leaves it None).
    abandoned: str | None = None
    #: C-10: the draws its ``DrawAbandoned`` recorded, kept by ``keep_would_have_drawn`` so that its board shows
    #: them and ``verify`` checks them (older states: none kept).
    would_have_drawn: Sequence[dict[str, Any]] = ()
    seeds_locked: bool = False
    filled: Mapping[str, Any] = MappingProxyType({})
    shown: Mapping[str, Any] = MappingProxyType({})
    shuffles: Sequence[dict[str, Any]] = ()
    #: C-9, C-10: fresh seeds by stage and side (``fresh_stage``), and the House's choices by stage and key
    #: (``bound_house_choice``); both kept through rewinds. Replaced, never changed in place.
    fresh: Mapping[str, Mapping[str, str]] = MappingProxyType({})
    house_choices: Mapping[str, Mapping[str, Any]] = MappingProxyType({})

    # The unit provides these.
    secret_seed: str
    seed_hash: str
    table: bool
    sides: dict[str, dict[str, Any]]
    rolls: list[dict[str, Any]]
    version: int

    @property
    def settled(self) -> bool:  # pragma: no cover - every unit defines it
        raise NotImplementedError

    @property
    def revealed(self) -> bool:
        """Whether every hidden value is public now (C-5); a unit with secrets overrides it."""
        return self.settled

    @property
    def was_overturned(self) -> bool:
        """C-6: whether the House overturned (or voided) this settled unit's result. By default a unit keeps
        its overturn in ``overturned``; a unit that keeps it elsewhere overrides this."""
        return bool(getattr(self, "overturned", None))

    def _own(self, name: str) -> Any:
        """The aggregate's own mutable copy of a kept field (a class default is never written to)."""
        value = self.__dict__.get(name)
        if value is None:
            value = dict(getattr(self, name))
            setattr(self, name, value)
        return value

    # -- C-4, C-9: seeds ---------------------------------------------------------------------------
    def seed_of(self, side: str) -> str | None:
        seed: str | None = self.sides[side]["seed"]
        return seed

    def put_seed(self, side: str, seed: str | None) -> None:
        """Mutator: record a side's seed."""
        self.sides[side]["seed"] = seed

    def side_seeds(self) -> list[str]:
        return [self.seed_of(s) or "" for s in self.SEED_SIDES]

    def seed_phase_open(self) -> bool:
        """Whether the unit's own steps still take seeds (a unit may close them earlier)."""
        return True

    def seeds_open(self) -> bool:
        """Seeds are added before the first result is drawn, and never again, even after a rewind (C-4, C-7),
        nor once the unit is settled (an abandoned unit's would-be draw was recorded from the seeds it had, C-10)."""
        return not self.settled and not self.rolls and not self.shuffles and not self.seeds_locked and self.seed_phase_open()

    def verify_may_seed(self, side: str) -> None:
        """May ``side`` add its seed now? (C-4, C-9).

        C-9 (docs/fairness.md, ADR 0011): the House runs the service and can read the committed secret, so
        any seed it chose would be chosen knowing the secret (and, after a player's seed, knowing every
        input): a side the House plays adds no seed at all, first or last. Its seed is always the empty
        text; the dice come from the secret, committed before any seed, and the players' seeds.
        """
        if side in self.owed_fresh():
            return  # C-9, C-10: a fresh seed after the House's choices
        if not self.seeds_open():
            raise RuleViolation(self.SEEDS_CLOSED, ruling="C-4")
        self.verify_house_declared()
        if HOUSE in self.seats_of(side):
            raise RuleViolation("the House can read the service's secret seed, so a side the House plays adds no "
                                "seed: the dice come from the committed secret and the players' seeds alone",
                                ruling="C-9")
        if self.seed_of(side) is not None:
            raise RuleViolation(self.SEED_GIVEN, ruling="C-4")

    # -- C-9: the House fixes what it puts into the draw before a player's input is known --------------
    def house_owes(self) -> list[str]:
        """What a side the House plays must still declare before the draw's players' inputs (C-9): the
        choices that go into its roll (how many dice, which dice). A unit with such choices overrides it;
        by default the House owes nothing."""
        return []

    def verify_house_declared(self) -> None:
        """C-9: a player's seed, pass or roll waits while the House still owes a declaration that goes into
        the draw: the House knows the secret, so choosing it after a player's input would choose its dice."""
        if self.table or self.player_input_known():
            # table dice are physical (C-3): nothing to fix; once a player's input is in (a unit stored before
            # this check), nothing can be fixed before it any more and the unit goes on as it was
            return
        owed = self.house_owes()
        if owed:
            raise RuleViolation(f"the House declares {' and '.join(owed)} before a player seeds, passes or rolls: it "
                                "knows the secret, so it fixes what goes into its roll first", ruling="C-9")

    def player_input_known(self) -> bool:
        """Whether a player's seed or pass is in, or the seeds are closed by a draw (C-9): from then on the
        House adds nothing to the draw."""
        return (bool(self.rolls) or bool(self.shuffles) or self.seeds_locked
                or any(self.seed_of(side) is not None for side in self.seeders()))

    def verify_house_input_open(self, side: str, doing: str) -> None:
        """C-9: a side the House plays makes no choice that goes into the draw once a player's input is
        known (the House can compute every die from the secret and that input)."""
        if side in self.sides and HOUSE in self.seats_of(side) and self.player_input_known():
            raise RuleViolation(f"{doing} comes before a player's seed or pass: the House knows the secret, so "
                                "after a player's input it would choose knowing its dice", ruling="C-9")

    def verify_seed(self, side: str, seed: object) -> str:
        """The cleaned seed text ``side`` may add now, or the refusal (C-4, C-9)."""
        text = clean_text(seed, "a seed", max_length=200, ruling="C-4")
        self.verify_may_seed(side)
        return text

    # -- C-10: every input, then the draw in the same write -------------------------------------------
    def seeders(self) -> list[str]:
        """The sides entitled to a seed (C-4, C-9): every seed side some player plays; a side the House plays
        adds none (``verify_may_seed``). A unit played with table cards or dice takes no seeds: its results are
        physical (C-3)."""
        if self.table:
            return []
        return [side for side in self.SEED_SIDES
                if side in self.sides and self.seats_of(side) and HOUSE not in self.seats_of(side)]

    def owed_inputs(self) -> list[str]:
        """The sides that still owe their input (a seed or a pass) before the unit's first draw (C-10); none
        once the seeds are closed (a draw was made, or the unit's seeding steps are over)."""
        if not self.seeds_open():
            return []
        return [side for side in self.seeders() if self.seed_of(side) is None]

    def inputs_in(self) -> bool:
        return not self.owed_inputs()

    def _verify_inputs_in(self, doing: str) -> None:
        """C-10: the first draw is made when the last input arrives, never before: the House knows its secret,
        so drawing while a player's seed is owed would let it choose the moment, knowing the others' seeds."""
        owed = self.owed_inputs()
        if owed:
            raise RuleViolation(f"{doing} waits for every player's input: {', '.join(owed)} still seeds or "
                                "passes first", ruling="C-10")

    def verify_first_roll_waits(self, side: str) -> None:
        """C-10, C-9, C-4: where each side draws by its own move (a roll), no side's first roll draws while
        another player's side still owes its seed or pass. A side the House plays: the House knows the
        secret, so a first draw of its choosing would fix every die before the players' input, at a moment it
        picked. A player's side: its roll would draw before the other player's input arrived and close the seed
        that player may add before the first roll (C-4); the roller's own roll stands for its own input (a
        pass, if it gave none)."""
        if side not in self.sides:
            return
        if HOUSE in self.seats_of(side):
            self._verify_inputs_in("the House's roll")
            return
        owed = [other for other in self.owed_inputs() if other != side]
        if owed:
            raise RuleViolation(f"the first roll waits for every player's input: {', '.join(owed)} still seeds or "
                                "passes first", ruling="C-10")

    def pass_seed(self, side: str, actor: str) -> None:
        """A side passes: no seed text (C-10)."""
        self.give_input(side, None, actor)

    def verify_pass_seed(self, side: str) -> None:
        """May ``side`` pass, giving no seed text (C-10)? Exactly when it may seed, but for a fresh seed: the
        House, choosing before it, knew what a pass would draw (C-9)."""
        if side in self.owed_fresh():
            raise RuleViolation("a fresh seed is given, not passed: the House chose knowing what the draw would show "
                                "without one; seed from your browser or with words of your own", ruling="C-9")
        self.verify_may_seed(side)

    def put_pass(self, side: str) -> None:
        """Mutator: a side passed; its seed is the empty text (the derivation is the same as for no seed)."""
        self.put_seed(side, "")

    def passed(self, side: str) -> bool:
        return self.seed_of(side) == ""

    def give_input(self, side: str, seed: object | None, actor: str) -> None:
        """C-10: ``side`` seeds (``seed`` text) or passes (None); when that was the last input owed, the
        unit's first draw (``draw_at_last_input``) is made at once, in the same write. The unit declares
        the events ``_seed_added(side, seed, actor)`` and ``_seed_passed(side, actor)``."""
        stage = self.fresh_stage()
        if stage is not None and side in self.owed_fresh():
            if seed is None:
                self.verify_pass_seed(side)
            self._fresh_seed_added(stage=stage, side=side, seed=self.verify_seed(side, seed), actor=actor)  # type: ignore[attr-defined]
            if not self.owed_fresh():
                self.draw_at_fresh_input(stage, actor)
            return
        if seed is None:
            self.verify_pass_seed(side)
            self._seed_passed(side=side, actor=actor)  # type: ignore[attr-defined]
        else:
            self._seed_added(side=side, seed=self.verify_seed(side, seed), actor=actor)  # type: ignore[attr-defined]
        if self.seeders() and self.inputs_in():
            self.draw_at_last_input(actor)

    def draw_at_last_input(self, actor: str) -> None:
        """The draw a unit makes when its last input arrives (C-10); a unit whose sides draw by their own
        moves (after ``_verify_inputs_in``) keeps this default, which draws nothing."""

    # -- C-9, C-10: a fresh seed after the House's informed choices ------------------------------------------
    def fresh_stage(self) -> str | None:
        """The stage whose draw waits for fresh seeds now, or None (C-9, C-10; issue 30).

        Once the players' seeds are in, the House can compute every later die from its secret; a choice it
        makes then (which die to roll again, which dice go back in a cup, whether a cycle deals again) is made
        knowing what the draw it leads to would show. So a unit names a *stage* after such choices: the draws
        of that stage wait until every player's side (``seeders``) adds a fresh seed, and each of their slots
        carries those seeds (``fresh_slot``), so nobody, the House included, knew them when choosing. A stage
        is owed whether or not the House's choice asked for a draw (its choices stay its secret, C-5). By
        default a unit has no such stage."""
        return None

    def owed_fresh(self) -> list[str]:
        """The player sides that still owe a fresh seed for the stage owed now (C-9, C-10); none with table
        dice or cards (physical, C-3) or when no player plays a side."""
        stage = None if self.settled else self.fresh_stage()
        if stage is None:
            return []
        given = self.fresh.get(stage, {})
        return [side for side in self.seeders() if side not in given]

    def fresh_in(self, stage: str) -> bool:
        """Whether every player's side gave its fresh seed for ``stage`` (perhaps before a rewind, C-7)."""
        given = self.fresh.get(stage, {})
        return bool(self.seeders()) and all(side in given for side in self.seeders())

    def fresh_slot(self, stage: str, slot: Sequence[Any]) -> list[Any]:
        """C-9, C-7: a slot of ``stage``'s draw carries the players' fresh seeds (in seed-side order) after the
        word ``fresh``, so its die or shuffle is derived from inputs given after the House's choices; its record
        names the slot whole, so anyone recomputes it as any other (docs/fairness.md)."""
        given = self.fresh.get(stage, {})
        return [*slot, "fresh", *[given[side] for side in self.seeders()]]

    def drawing_fresh(self) -> bool:
        """Whether the stage owed now has every fresh seed in and its draws are still to come: the move that gave
        the last seed (or, after a rewind that kept them, made the House's choice again) draws them, so no move
        starts from here and no rewind stops here (C-6, C-10). A unit's ``mid_move`` includes it."""
        stage = self.fresh_stage()
        return stage is not None and self.fresh_in(stage)

    def put_fresh(self, stage: str, side: str, seed: str) -> None:
        """Mutator: a side's fresh seed for ``stage``; kept through rewinds, like the first seeds (C-7)."""
        self.fresh = {**self.fresh, stage: {**self.fresh.get(stage, {}), side: seed}}

    def draw_at_fresh_input(self, stage: str, actor: str) -> None:
        """The draws ``stage`` waited for, made when its last fresh seed arrives (C-10), or at once when the
        seeds were given before a rewind and the House's choices are made again. A unit with stages says."""

    def put_house_choice(self, stage: str, key: str, choice: Any) -> None:
        """Mutator: the House's choice ``key`` of ``stage`` (kept through rewinds, C-9)."""
        self.house_choices = {**self.house_choices, stage: {**self.house_choices.get(stage, {}), key: choice}}

    def bound_house_choice(self, stage: str, key: str) -> tuple[bool, Any]:
        """C-9, C-7: after a rewind, a stage whose fresh seeds are in keeps them, so the House knows what its
        draw shows: its choices of that stage stand as made. ``(True, choice)`` when ``key`` is so bound."""
        made = self.house_choices.get(stage, {})
        return (True, made[key]) if self.fresh_in(stage) and key in made else (False, None)

    def verify_house_choice(self, stage: str, key: str, choice: Any, saying: str) -> None:
        """C-9: the House makes a bound choice (``bound_house_choice``) again as it made it, nothing else;
        ``saying`` is the choice in the table's words."""
        bound, made = self.bound_house_choice(stage, key)
        if bound and made != choice:
            raise RuleViolation(f"the House chose {saying} before the players' fresh seeds, which a rewind keeps: it "
                                "knows what they draw now, so the same choice is made again", ruling="C-9")

    # -- C-10: a unit ended before its draw, once an input is known ---------------------------------
    def abandons_a_draw(self) -> bool:
        """Whether ending the unit now abandons a draw some party's input already fixed (C-10): a seed (or a
        pass) is known, a draw is still to come (``draw_to_come``), and the service derives it (table cards and
        dice are physical)."""
        return (not self.table and self.draw_to_come()
                and any(self.seed_of(side) is not None for side in self.SEED_SIDES))

    def draw_to_come(self) -> bool:
        """C-10: a draw the unit's ``would_be_draws`` records is still to be made. By default: nothing was drawn
        yet (the unit's first draw); a unit whose sides draw in turn says so while a side's is still to come."""
        return not self.rolls and not self.shuffles

    def would_be_draws(self, **inputs: Any) -> dict[str, Any]:
        """C-10: what ``DrawAbandoned`` records for this unit (its ``draws`` and whatever else the unit
        shows, e.g. the hands a deal would have made); the unit says what its first draw is."""
        raise NotImplementedError

    def keep_would_have_drawn(self, draws: Sequence[Mapping[str, Any]]) -> None:
        """Mutator, from the unit's own ``DrawAbandoned``: the draws it records, kept for its board and
        ``verify`` (C-10)."""
        self.would_have_drawn = copy.deepcopy([dict(d) for d in draws])

    def close_abandoned(self, reason: str, actor: str) -> None:
        """Mutating: the unit's own event that closes it, abandoned (C-10)."""
        raise NotImplementedError

    def verify_abandonable(self) -> None:
        """A unit refuses an abandon here for reasons of its own (after the settled check), naming the ruling."""

    def verify_abandon(self) -> None:
        """May the House abandon this unit now (C-10)? An open unit, unless the unit says otherwise."""
        if self.settled:
            raise RuleViolation("this unit has ended already; there is nothing to abandon", ruling="C-10")
        self.verify_abandonable()

    def abandon_actions(self, seat: str) -> list[dict[str, Any]]:
        """The abandon entry of the House's legal actions while it may abandon (C-10), for ``legal_actions``."""
        if seat != HOUSE:
            return []
        try:
            self.verify_abandon()
        except RuleViolation:
            return []
        return [{"action": "abandon", "required": ["reason"]}]

    def abandon(self, reason: object, actor: str, **inputs: Any) -> None:
        """C-10, C-1: the House closes an open unit, with a reason, so the adventure may end. When an input
        is known and the draw not made, the draw it would have made is recorded first, for every seat to see
        (an abandoned draw is seen, and counted per House); before any input nothing is drawn. ``inputs``:
        what the unit's ``would_be_draws`` needs from outside it (a Pool side's pool)."""
        if actor != HOUSE:
            raise NotPermitted("only the House abandons a unit", ruling="C-10")
        text = clean_text(reason, "a reason", max_length=500, ruling="C-10")
        self.verify_abandon()
        if self.abandons_a_draw():
            self._draw_abandoned(**self.would_be_draws(**inputs), actor=actor)  # type: ignore[attr-defined]
        self.close_abandoned(text, actor)

    def abandoned_dice(self, slots: Sequence[Sequence[Any]], faces: int = 6) -> list[dict[str, Any]]:
        """C-10: the dice the unit would have derived for these slots, from the committed secret and the seeds
        given, recorded as ``rolls`` records are (``slot``, ``value``, ``faces``), so that anyone checks them
        with the revealed secret (docs/fairness.md). Verify only; nothing recorded."""
        seeds = self.side_seeds()
        return [{"slot": list(slot), "value": derive_die(self.secret_seed, seeds, slot, faces), "faces": faces}
                for slot in slots]

    def abandoned_draws(self, draws: Sequence[tuple[Sequence[Any], Sequence[str]]]) -> list[dict[str, Any]]:
        """C-10: the shuffles the unit would have made for these ``(slot, deck)`` pairs, from the committed
        secret and the seeds given, to be recorded for every seat to see when the unit ends before its draw
        (so abandoning a unit cannot be used to fish for another). Verify only; nothing recorded."""
        seeds = self.side_seeds()
        return [{"slot": list(slot), SHUFFLED: list(cards), "order": derive_shuffle(self.secret_seed, seeds, slot, cards)}
                for slot, cards in draws]

    # -- C-3, C-4, C-7: results by slot --------------------------------------------------------------
    def draw_dice(self, slots: Sequence[Sequence[Any]], entered: Sequence[int] | None, faces: int = 6,
                  what: str = "dice") -> list[int]:
        """The dice that fill ``slots``: entered (validated) or derived; verify only, nothing recorded."""
        return enter_or_derive(table=self.table, secret=self.secret_seed, seeds=self.side_seeds(), slots=slots,
                               entered=entered, faces=faces, filled=self.filled, what=what,
                               table_message=self.TABLE_DICE)

    def shuffle(self, slot: Sequence[Any], cards: Sequence[str], entered: Sequence[str] | None = None, *,
                out: Sequence[str] = ()) -> list[str]:
        """The deck ``cards`` shuffled for ``slot`` (a reshuffle is its own slot, C-7); in table mode the
        cards as dealt at the table, each from this deck and not already ``out`` (C-3). Verify only."""
        if self.table:
            if entered is None:
                raise RuleViolation("this unit is played with table cards: enter the cards as dealt", ruling="C-3")
            dealt = verify_entered_cards(entered, cards, out)
            self._verify_same_order(slot, cards, dealt)
            return dealt
        if entered is not None:
            raise RuleViolation("cards are entered by hand only in table mode", ruling="C-3")
        return derive_shuffle(self.secret_seed, self.side_seeds(), slot, cards)

    def _verify_same_order(self, slot: Sequence[Any], cards: Sequence[str], dealt: Sequence[str]) -> None:
        """C-7, table cards (issue 30): a slot dealt before a rewind takes exactly the order it had. Every order
        this slot was dealt from the same pile is kept in ``shuffles`` (a rewind keeps them all); the entry
        must run as each of them does, card for card, as far as both go: the same run, or a longer or shorter
        run of the same order where the new inputs need more or fewer cards (a corrected advantage that brings
        a tie). A whole new order of a pile already dealt here is refused, however it is entered (fishing). A
        slot that shuffles a whole pile (Twenty-one's discards) meets another pile after other play, which
        cannot come out the same: that pile takes its own first order, and keeps it (A, then B, then A again
        takes A's order). The refusal never spells the earlier order out: it is nobody's (C-5)."""
        earlier = self.orders_before(slot, cards, dealt)
        for order in earlier:
            n = min(len(order), len(dealt))
            if list(order[:n]) != list(dealt[:n]):
                raise RuleViolation(f"slot {list(slot)} was dealt otherwise before the rewind; the same cards are "
                                    "entered again, in the same order, as they lie at the table (as many as the "
                                    "deal now needs)", ruling="C-7")

    def orders_before(self, slot: Sequence[Any], cards: Sequence[str],
                      dealt: Sequence[str] | None = None) -> list[list[str]]:
        """C-7, entered shuffles: every order ``slot`` was shuffled in from the same ``cards`` before a rewind (the
        one a new entry must run as, ``_verify_same_order``; a listing names it to the seat that enters it, so the
        move is playable as listed). ``dealt``: the entry, to tell a slot filled before what it shuffled was
        recorded with it."""
        key, same = slot_key(slot), sorted(cards)
        earlier = [list(r["value"]) for r in self.shuffles
                   if slot_key(r["slot"]) == key and sorted(r.get(SHUFFLED) or cards) == same]
        before = self.filled.get(key)
        if not earlier and before is not None and not _reshuffled_other_cards(before, dealt or cards, cards):
            earlier = [list(before)]  # a slot filled before what it shuffled was recorded with it
        return earlier

    def inputs_awaited(self) -> list[str]:
        """C-10, C-4: the seats whose seed or pass the unit's first draw still waits for, among those who may
        give it now (a unit may take the players' inputs only after a step of the House's own): what a table
        tells a seat that has no draw to make yet."""
        return [seat for seats in self.inputs_awaited_by_side() for seat in seats]

    def inputs_awaited_by_side(self) -> list[list[str]]:
        """``inputs_awaited`` side by side: the seats of each owing side, any one of which gives its input
        (several players on one side: the first of them to seed or pass gives it for all)."""
        if self.settled:
            return []
        return [list(self.seats_of(side)) for side in self.owed_inputs() if passes(self.verify_may_seed, side)]

    def record_result(self, slot: Sequence[Any], value: Any, entered: bool, faces: int = 6) -> None:
        """Mutator: record one die in ``rolls`` and fill its slot (C-3, C-7)."""
        record: dict[str, Any] = {"slot": list(slot), "value": value, "entered": entered}
        if faces != 6:
            record["faces"] = faces
        self.rolls.append(record)
        self._own("filled").setdefault(slot_key(slot), value)
        self.seeds_locked = True

    def record_shuffle(self, slot: Sequence[Any], cards: Sequence[str], value: Sequence[str], entered: bool) -> None:
        """Mutator: record a shuffle (or the cards dealt at the table) in ``shuffles`` (C-3, C-7)."""
        self.shuffles = [*self.shuffles, {"slot": list(slot), "value": list(value), "entered": entered,
                                          SHUFFLED: list(cards)}]
        known = self.filled.get(slot_key(slot))
        if entered and known is not None and _reshuffled_other_cards(known, value, cards):
            self._own("filled")[slot_key(slot)] = list(value)  # another pile entered here after a rewind (C-7)
        else:
            self._own("filled").setdefault(slot_key(slot), list(value))
        self.seeds_locked = True

    def fixed_before(self, slots: Sequence[Sequence[Any]]) -> list[Any] | None:
        """C-7, table dice: what each of ``slots`` showed before a rewind (None where it showed nothing), to
        be entered the same again; None when none of them did."""
        fixed = [self.filled.get(slot_key(s)) for s in slots]
        return fixed if any(v is not None for v in fixed) else None

    def faces_of(self, slot: Sequence[Any]) -> int:
        """The faces of the die ``slot`` drew (``DIE_FACES``; a unit whose slots differ says which): verify
        asks it for a die a rewind took back, which keeps its value and no record."""
        return self.DIE_FACES

    def taken_back_dice(self) -> list[dict[str, Any]]:
        """C-7, C-8: each die a rewind took back, as a drawn result is recorded (``slot``, ``value``, ``faces``
        but 6, ``entered``: dice are entered exactly in table mode, C-3), marked ``taken_back``: it was drawn
        from the same seeds, and a seat may have seen it, so verify derives it again with the rest. A shuffle a
        rewind took back keeps its record in ``shuffles``."""
        out: list[dict[str, Any]] = []
        for slot, value in self.taken_back():
            if isinstance(value, int) and not isinstance(value, bool):
                faces = self.faces_of(slot)
                out.append({"slot": slot, "value": value, "entered": bool(self.table), "taken_back": True,
                            **({"faces": faces} if faces != 6 else {})})
        return out

    def verify(self) -> dict[str, Any]:
        """Recompute every result the service drew from the revealed seeds (C-4); report any mismatch."""
        if not self.settled:
            return copy.deepcopy(NOT_YET)
        seeds = self.side_seeds()
        mismatches: list[dict[str, Any]] = []
        checked = entered = 0
        given = [[str(self.fresh[stage][side]) for side in self.seeders()] for stage in self.fresh
                 if self.fresh_in(stage)]
        # C-10: a draw recorded when the unit ended before it is checked as a drawn result is (a shuffle's
        # recorded ``order`` is its value); it is marked ``abandoned`` in the results
        abandoned = [{**{k: v for k, v in r.items() if k != "order"}, "value": r["order"] if SHUFFLED in r
                      else r["value"], "entered": False, "abandoned": True} for r in self.would_have_drawn]
        abandoned += self.taken_back_dice()  # C-7, C-8: drawn all the same, marked ``taken_back``
        for record in [*self.rolls, *self.shuffles, *abandoned]:
            if record["entered"]:
                entered += 1
                continue
            checked += 1
            slot = [str(part) for part in record["slot"]]
            if "fresh" in slot:  # C-9: a fresh slot carries the fresh seeds the log shows given, none other
                at = slot.index("fresh") + 1
                if not any(slot[at:at + len(words)] == words for words in given):
                    mismatches.append({"slot": record["slot"], "recorded": record["value"],
                                       "derived": "the fresh seeds in this slot are not those given"})
            if SHUFFLED in record:
                expected: Any = derive_shuffle(self.secret_seed, seeds, record["slot"], record[SHUFFLED])
            else:
                expected = derive_die(self.secret_seed, seeds, record["slot"], record.get("faces", 6))
            if expected != record["value"]:
                mismatches.append({"slot": record["slot"], "recorded": record["value"], "derived": expected})
        return {"verifiable": True, "commitment_matches": commitment(self.secret_seed) == self.seed_hash,
                "checked": checked, "entered": entered, "mismatches": mismatches, "secret_seed": self.secret_seed,
                "side_seeds": seeds, "results": copy.deepcopy([*self.rolls, *self.shuffles, *abandoned])}

    # -- C-6, C-7: rewind ------------------------------------------------------------------------------
    def revealed_by_rewind(self, past: Callable[[], Any], to_step: object) -> list[str]:
        """C-8 (issue 31): the values every seat saw after ``to_step`` that a rewind to it puts back where some
        seat could not see them; they stay shown to all there, so the House is warned first (``past`` loads
        that step's state). None by default; a step out of range is left to the rewind's own refusal."""
        return []

    def verify_rewindable(self) -> None:
        """A unit refuses a rewind here for reasons of its own (after the settled check)."""

    def mid_move(self) -> bool:
        """Whether this state lies inside one move: a move's events are stored together, and this state owes
        a consequence the same move records at once (a result every input is in for, the end of a round).
        No move starts from such a state, so no rewind stops at it (C-6, C-7; issue 30). A unit whose moves
        are one event each keeps this default."""
        return False

    def verify_rewind(self, to_step: object, past: Any, reason: object) -> tuple[str, dict[str, Any]]:
        """The cleaned reason and the state to restore, or the refusal (C-6)."""
        text = clean_text(reason, "a reason", max_length=500, ruling="C-6")
        if self.settled:
            raise RuleViolation(self.SETTLED_REWIND, ruling="C-6")
        self.verify_rewindable()
        if isinstance(to_step, bool) or not isinstance(to_step, int) or not 1 <= to_step < self.version:
            raise RuleViolation(f"rewind to a step from 1 to {self.version - 1}, not {to_step}", ruling="C-6")
        if past.version != to_step:
            raise ValueError("the past state does not match the step")
        if past.mid_move():
            raise RuleViolation(f"step {to_step} is inside one move, where nobody could act (its events are stored "
                                "together): rewind to the step before it or after it; the same slots then deal "
                                "the same again (C-7)", ruling="C-6")
        stage = past.fresh_stage()
        if stage is not None and past.owed_fresh() and self.fresh_in(stage):
            raise RuleViolation(f"at step {to_step} the draw waited for fresh seeds that were given since: a rewind "
                                "keeps them (C-7), so that draw would be made at once; rewind to a step before the "
                                "House's choices it follows, or after it", ruling="C-6")
        return text, {key: getattr(past, key) for key in self.REWOUND}

    def kept_through_rewind(self) -> dict[str, Any]:
        """What a rewind keeps as it is rather than as the step had it (C-7, C-8, C-9): the seeds given (never
        given again), whether seeds are closed (after the first draw, for good), and the values every seat has
        seen (still public). A rewind to a step gives exactly the state replaying the kept steps gives, but for
        these; where they are the same at the step as now, the unit reads exactly as it did at that step (the
        conformance suite checks both). A unit that keeps more (an input declared before the draw, C-9; cards
        seen, C-8) adds it."""
        return {"seeds": {side: self.seed_of(side) for side in self.SEED_SIDES}, "locked": not self.seeds_open(),
                "shown": dict(self.shown), "fresh": {k: dict(v) for k, v in self.fresh.items()},
                "house_choices": {k: dict(v) for k, v in self.house_choices.items() if self.fresh_in(k)}}

    def rewind(self, to_step: int, past: Any, reason: object, actor: str) -> None:
        """C-6: back to ``past`` (the state after step ``to_step``), by the unit's own ``Rewound`` event (each
        unit declares it, ``state`` and all, and restores in it); the refusals come first (``verify_rewind``)."""
        text, state = self.verify_rewind(to_step, past, reason)
        self._rewound(to_step=to_step, reason=text, state=state, actor=actor)  # type: ignore[attr-defined]

    def restore(self, state: Mapping[str, Any]) -> None:
        """Mutator: go back to ``state``. Seeds given stay given and stay locked once results were drawn;
        ``filled`` and ``shown`` are kept, so the same slots come up the same and stay public (C-7, C-8)."""
        seeds = {side: self.seed_of(side) for side in self.SEED_SIDES}
        locked = self.seeds_locked or bool(self.rolls) or bool(self.shuffles)
        for key in self.REWOUND:
            if key in state:
                setattr(self, key, copy.deepcopy(state[key]))
        for side, seed in seeds.items():
            self.put_seed(side, seed)
        self.seeds_locked = locked

    # -- whom the table waits for -------------------------------------------------------------------------
    def waiting_for(self, may_act: Callable[[str], bool]) -> list[str]:
        """The seats of its sides that have a move to make now, in side order; nobody once it is settled.
        ``may_act(seat)`` asks the system (its ``legal_actions``, the same checks that refuse moves)."""
        if self.settled:
            return []
        seats: list[str] = []
        for side in self.sides:
            seats.extend(seat for seat in self.seats_of(side) if seat not in seats)
        waiting = [seat for seat in seats if may_act(seat)]
        if not waiting and HOUSE not in seats and may_act(HOUSE):
            waiting = [HOUSE]  # the House plays no side, yet the unit goes on only by its move (a manual check)
        return waiting

    # -- C-5, C-8: who sees what --------------------------------------------------------------------------
    def seats_of(self, side: str) -> list[str]:
        """The seats that play ``side``: its characters, or the House for an antagonist."""
        return list(self.sides[side]["seats"])

    def owner_sees(self, owner: str, seat: str) -> bool:
        """Whether ``seat`` sees what ``owner`` holds (C-5): a side owns its cup, a seat its hand, the House
        an antagonist's secrets; once revealed, everyone sees everything."""
        if self.revealed:
            return True
        if owner in self.sides:
            return seat in self.seats_of(owner)
        return seat == owner

    def show(self, slots: Sequence[Sequence[Any]] | None = None) -> None:
        """Mutator: these slots' values (default: every result so far) were shown to every seat (C-8)."""
        shown = self._own("shown")
        keys = [slot_key(r["slot"]) for r in [*self.rolls, *self.shuffles]] if slots is None else \
            [slot_key(s) for s in slots]
        for key in keys:
            if key in self.filled:
                shown[key] = self.filled[key]

    def was_shown(self, slot: Sequence[Any]) -> bool:
        """Whether every seat has seen this slot's value, before a rewind perhaps (C-8)."""
        return slot_key(slot) in self.shown

    def taken_back(self, kept: Iterable[str] = ()) -> list[tuple[list[Any], Any]]:
        """C-7, C-8: each slot a rewind took back, with what it drew (a slot no current record fills, in the
        order first drawn), for a system to say which of them every seat saw; ``kept``: slot keys the viewer is
        to read as taken back too (a roll of the current timeline that is hidden from it again, its faces seen
        before)."""
        current = {slot_key(r["slot"]) for r in [*self.rolls, *self.shuffles]} - set(kept)
        return [(key_slot(key), value) for key, value in self.filled.items() if key not in current]
