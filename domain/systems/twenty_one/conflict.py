"""A Twenty-one conflict: the unit of resolution (C-1) with one deck, hidden hands and many actions
(TO-1 … TO-15; C-3 … C-9).

Seeds, the slot-derived shuffles (or decks entered at the table), verification and rewinds come from the
resolution kernel. Each public method runs its checks (``checks.py``), works out every card it will draw on
copies of the deck (``draws.py``), then records events; each event's mutator only applies what it records,
so a replay never shuffles again. Cards drawn from the deck carry the shuffle they came from (``epochs``: the
deal, or a reshuffle's number and the order it made); a card shown to every seat is remembered as
``card@epoch`` in ``seen``, which a rewind keeps, so it stays public, marked as seen before the rewind (C-8),
while the same reshuffle made from another pile after a rewind is another epoch (C-5).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate, event

from domain.errors import RuleViolation
from domain.fairness import commitment
from domain.kernel.resolution import Resolution
from domain.systems.twenty_one import cards as c
from domain.systems.twenty_one import view
from domain.systems.twenty_one.checks import HAND, ConflictChecks
from domain.systems.twenty_one.deck import ConflictDeck, ReshuffleFirst
from domain.text import clean_text

MAX_ENGAGED = 8  # TO-1: three cards each, and one deck must still serve every action


class Conflict(ConflictDeck, ConflictChecks, Resolution, Aggregate):
    UNIT_LABEL = "conflict"
    REWOUND = ("deck", "discard", "hands", "epochs", "phase", "round", "acted", "assisted", "action", "ordering",
               "turn_order", "results", "shuffled", "holds_spent", "last_order")
    TABLE_DICE = "this conflict is played with table cards"
    SEEDS_CLOSED = "a player adds his seed before the deal"
    SEED_GIVEN = "you have added your seed already"
    SETTLED_REWIND = "an ended conflict is not rewound; overturn an action instead"
    abandoned: str | None = None  # C-10: the reason, once the House abandoned it (older states: never)

    @event("Opened")
    def __init__(self, campaign_id: UUID, adventure: int, seats: list[str], seed_hash: str, secret_seed: str,
                 table: bool, actor: str) -> None:
        self.campaign_id, self.adventure, self.table = campaign_id, adventure, table
        self.seed_hash, self.secret_seed = seed_hash, secret_seed
        self.seats = list(seats)
        self.SEED_SIDES = tuple(seats)  # type: ignore[misc]  # every engaged player may add a seed (C-4); the House adds none (C-9)
        self.sides = {s: {"seats": [s], "seed": None} for s in seats}
        self.rolls: list[dict[str, Any]] = []
        self.deck: list[str] = []
        self.discard: list[str] = []
        self.hands: dict[str, list[str]] = {s: [] for s in seats}
        self.epochs: dict[str, int | str] = {}
        self.phase, self.round, self.shuffled = "seeding", 1, 0
        self.acted: list[str] = []
        self.assisted: list[str] = []
        self.turn_order: list[str] = []
        self.action: dict[str, Any] | None = None
        self.ordering: dict[str, Any] | None = None
        self.results: list[dict[str, Any]] = []
        self.holds_spent: dict[str, int] = {}
        self.seen: list[str] = []
        self.last_order: dict[str, Any] | None = None

    @classmethod
    def open(cls, *, campaign_id: UUID, adventure: int, seats: Sequence[str], secret_seed: str, table: bool,
             actor: str) -> Conflict:
        if len(set(seats)) != len(seats):
            raise RuleViolation("a character is engaged once", ruling="TO-2")
        if not 1 <= len(seats) <= MAX_ENGAGED:
            raise RuleViolation(f"a conflict engages 1 to {MAX_ENGAGED} player characters", ruling="TO-2")
        return cls(campaign_id=campaign_id, adventure=adventure, seats=list(seats), seed_hash=commitment(secret_seed),
                   secret_seed=secret_seed, table=table, actor=actor)

    @property
    def settled(self) -> bool:
        return self.phase == "settled"

    def seed_phase_open(self) -> bool:
        return self.phase == "seeding"

    def kept_through_rewind(self) -> dict[str, Any]:
        """C-8: the cards every seat has seen, besides the kernel's seeds and shown values."""
        return {**super().kept_through_rewind(), "seen": sorted(self.seen)}

    def revealed_by_rewind(self, past: Any, to_step: object) -> list[str]:
        """C-8 (issue 31): cards every seat saw since ``to_step`` that the rewind puts back into a hand, the
        deck, a set-aside or a face-down order card; each stays shown to all there. Only the cards are named (as the
        table writes them: ``K♦``), never where they go (C-5)."""
        if self.settled or isinstance(to_step, bool) or not isinstance(to_step, int) or \
                not 1 <= to_step < self.version:
            return []
        then = past()
        hidden = [x for hand in then.hands.values() for x in hand] + list(then.deck)
        if then.action is not None and then.action["set_aside"] is not None:
            hidden.append(then.action["set_aside"])
        if then.ordering is not None and then.phase != "reshuffle":
            hidden.extend(then.ordering["laid"].values())
        keys = {x: f"{x}@{then.epochs.get(x, 0)}" for x in hidden}
        return [c.pretty(x) for x in sorted(x for x, key in keys.items() if key in self.seen and key not in then.seen)]

    def mid_move(self) -> bool:
        """C-6, C-7 (issue 30): the states a move passes through and never stops at. The deal and a round's
        refill deal every hand up to 3 at once (a hand short while a card is left to deal, at a round's start);
        the last order card settles the order; an action decided (a natural, a bust, a stand) resolves at once,
        a hold spent on the set-aside card takes it at once; the last action of a round ends the round; the
        last seed or pass deals at once (C-10)."""
        if self.phase == "seeding":
            return bool(self.seeders()) and not self.seeds_locked and \
                all(self.seed_of(side) is not None for side in self.seeders())
        if self.phase == "ordering":
            assert self.ordering is not None
            return len(self.ordering["laid"]) == len(self.ordering["actors"])
        if self.phase == "action":
            a = self.action
            assert a is not None
            if a["pending"] is not None:
                return False
            if a["hold_used"] == "set-aside" and a["set_aside"] is not None:
                return True
            return bool(a["natural"] or a["stood"] or c.total(a["laid"]) > 21)
        if self.phase != "play" or self.action is not None or self.ordering is not None:
            return False
        if self.acted and all(s in self.acted for s in self.seats):
            return True
        at_start = not self.acted and not self.turn_order
        return at_start and (bool(self.deck) or bool(self.discard)) and any(len(h) < HAND for h in self.hands.values())

    # -- C-4, C-10: seeds or passes, then the deal at the last of them (TO-2) ----------------------------------
    def add_seed(self, seat: str, seed: object, actor: str) -> None:
        """An engaged player's seed; the last input owed deals at once, in the same write (C-10)."""
        self.engaged(seat)
        self.give_input(seat, seed, actor)

    def pass_seed(self, seat: str, actor: str) -> None:
        """An engaged player passes (no seed text); the last input owed deals at once (C-10)."""
        self.engaged(seat)
        self.give_input(seat, None, actor)

    @event("SeedAdded")
    def _seed_added(self, side: str, seed: str, actor: str) -> None:
        self.put_seed(side, seed)

    @event("SeedPassed")
    def _seed_passed(self, side: str, actor: str) -> None:
        self.put_pass(side)

    def draw_at_last_input(self, actor: str) -> None:
        """C-10: the deal, made by the service in the write of the last seed or pass. With table cards the
        House enters the deck it shuffled at the table instead (``deal``, C-3): no seed takes part."""
        if not self.table:
            self._deal(None, actor)

    def deal(self, entered: Sequence[str] | None, actor: str) -> None:
        """The House's deal: with table cards (C-3), or again after a rewind to before the deal (the seeds are
        locked, so the same cards come, C-7). A service deal is otherwise made by the last engaged player's seed
        or pass (C-10), never by hand while an input is owed: the House, knowing the secret, would choose its
        moment. Once nothing is owed the cards are fixed, so the House deals them: after a rewind to before the
        deal, or in a conflict stored before issue 30 with every seed given and no deal (review finding 3)."""
        self.verify_deal(entered)
        owed = self.owed_inputs()
        if not self.table and owed:  # nothing owed: the deal's content is fixed, its moment gives nothing (C-10)
            raise RuleViolation("the deal is made by the service in the same write as the last engaged player's "
                                f"seed or pass, never by hand (still owed by {', '.join(owed)})", ruling="C-10")
        self._deal(entered, actor)

    def _deal(self, entered: Sequence[str] | None, actor: str) -> None:
        deck = self.verify_deal(entered)
        slot = ["shuffle", 0]
        order = self.shuffle(slot, list(c.DECK), deck)
        self._shuffled(slot=slot, cards=list(c.DECK), order=order, entered=self.table, actor=actor)
        for seat in self.seats:
            self._hand_dealt(seat=seat, cards=self.deck[:HAND], reshuffles=[], why="deal", actor=actor)

    @event("Shuffled")
    def _shuffled(self, slot: list[Any], cards: list[str], order: list[str], entered: bool, actor: str) -> None:
        self.record_shuffle(slot, cards, order, entered)
        self.deck, self.discard, self.shuffled = list(order), [], slot[1]
        self.epochs = {x: slot[1] for x in order}
        self.phase = "play"

    @event("HandDealt")
    def _hand_dealt(self, seat: str, cards: list[str], reshuffles: list[dict[str, Any]], why: str,
                    actor: str) -> None:
        self._take(cards, copy.deepcopy(reshuffles))
        self.hands[seat].extend(cards)

    # -- TO-3, TO-15: the order of play -----------------------------------------------------------------------
    def call_order(self, actors: Sequence[str] | None, actor: str) -> None:
        self._order_called(actors=self.verify_call_order(actors), actor=actor)

    @event("OrderCalled")
    def _order_called(self, actors: list[str], actor: str) -> None:
        self.phase, self.ordering = "ordering", {"actors": list(actors), "laid": {}}

    def lay_for_order(self, seat: str, card: object, entered: Sequence[str] | None, actor: str) -> None:
        code = self.verify_lay_for_order(seat, card)
        sim = self._draws(entered)
        assert self.ordering is not None
        laid = {**self.ordering["laid"], seat: code}
        done = len(laid) == len(self.ordering["actors"])
        waits = False
        if done:
            try:
                order, rounds = self._settled_order(laid, sim)
            except ReshuffleFirst:  # TO-16, table cards: the House enters the reshuffle, every card face up
                waits = True
        sim.done()  # every order card: a reshuffle entered with one is refused, not ignored (C-3)
        self._order_card_laid(seat=seat, card=code, actor=actor)
        if waits:
            self._reshuffle_awaited(actor=actor)
        elif done:
            self._order_settled(cards=laid, ties=rounds, order=order, reshuffles=sim.reshuffles, actor=actor,
                                held=True)

    def _settled_order(self, laid: dict[str, str], sim: Any) -> tuple[list[str], list[dict[str, str]]]:
        """TO-3, TO-15, TO-16: the order the laid cards and the tie cards make; verify only."""
        first, ties = c.play_order(laid, self.seats)
        order, rounds = list(first), []  # type: list[str], list[Any]
        for group in ties:
            order += self._settle_tie(group, sim, rounds)
        # TO-14, TO-15: the cards laid and the tie cards dealt lie on the table until the order is settled, so a
        # reshuffle the ties need leaves them out; then they are discarded
        sim.discard += [laid[s] for s in self.seats if s in laid] + [x for r in rounds for x in r.values()]
        return order, rounds

    @event("OrderCardLaid")
    def _order_card_laid(self, seat: str, card: str, actor: str) -> None:
        assert self.ordering is not None
        self.hands[seat].remove(card)
        self.ordering["laid"][seat] = card

    @event("OrderSettled")
    def _order_settled(self, cards: dict[str, str], ties: list[dict[str, str]], order: list[str],
                       reshuffles: list[dict[str, Any]], actor: str, held: bool = False) -> None:
        """``held``: the cards laid and dealt stayed out of any reshuffle until now (TO-14, TO-15); an order
        settled before 2026-11-26 discarded them as they came (its reshuffles were recorded so)."""
        laid = [cards[s] for s in self.seats if s in cards]
        self._show(laid)
        if not held:
            self.discard += laid
        pending = copy.deepcopy(reshuffles)
        for dealt in ties:
            drawn = list(dealt.values())
            self._take(drawn, pending)
            self._show(drawn)
            if not held:
                self.discard += drawn
        if held:
            self.discard += laid + [x for dealt in ties for x in dealt.values()]
        self.phase, self.ordering, self.turn_order = "play", None, list(order)
        self.last_order = {"cards": dict(cards), "ties": copy.deepcopy(ties), "order": list(order), "round": self.round}

    # -- TO-4, TO-5, TO-11: laying, drawing, standing ----------------------------------------------------------
    def lay(self, seat: str, laid: Sequence[object], entered: Sequence[str] | None, actor: str) -> None:
        codes = self.verify_lay(seat, laid)
        sim = self._draws(entered)
        made_up = sim.draw(2 - len(codes))
        rest = [x for x in self.hands[seat] if x not in codes]
        natural = c.natural(codes + made_up)
        self._cards_laid(seat=seat, cards=codes, drawn=made_up, set_aside=rest[0] if rest else None, natural=natural,
                         reshuffles=sim.reshuffles, actor=actor)
        self._after(self._sync(sim), actor)

    @event("CardsLaid")
    def _cards_laid(self, seat: str, cards: list[str], drawn: list[str], set_aside: str | None, natural: bool,
                    reshuffles: list[dict[str, Any]], actor: str) -> None:
        self._take(drawn, copy.deepcopy(reshuffles))
        for card in cards:
            self.hands[seat].remove(card)
        if set_aside is not None:
            self.hands[seat].remove(set_aside)
        self._show(cards + drawn)
        self.phase = "action"
        self.action = {"actor": seat, "laid": cards + drawn, "natural": natural, "set_aside": set_aside,
                       "modifiers": [], "replacement": None, "hold_used": None, "pending": None, "stood": False}

    def draw(self, seat: str, entered: Sequence[str] | None, actor: str) -> None:
        self.verify_draw(seat)
        sim = self._draws(entered)
        card = sim.draw(1)[0]
        self._card_drawn(seat=seat, card=card, reshuffles=sim.reshuffles, actor=actor)
        self._after(self._sync(sim), actor)

    @event("CardDrawn")
    def _card_drawn(self, seat: str, card: str, reshuffles: list[dict[str, Any]], actor: str) -> None:
        assert self.action is not None
        self._take([card], copy.deepcopy(reshuffles))
        self._show([card])
        self.action["laid"].append(card)

    def stand(self, seat: str, entered: Sequence[str] | None, actor: str) -> None:
        self.verify_stand(seat)
        sim = self._draws(entered)
        self._stood(seat=seat, actor=actor)
        self._after(self._sync(sim), actor)

    @event("Stood")
    def _stood(self, seat: str, actor: str) -> None:
        assert self.action is not None
        self.action["stood"] = True

    # -- TO-6, TO-7, TO-8, TO-13: modifiers, assists, holds ---------------------------------------------------------
    def add_modifier(self, value: object, source: object, actor: str) -> None:
        number, text = self.verify_add_modifier(value, source)
        self._modifier_added(value=number, source=text, actor=actor)

    @event("ModifierAdded")
    def _modifier_added(self, value: int, source: str, actor: str) -> None:
        assert self.action is not None
        self.action["modifiers"].append({"value": value, "source": source})

    def replace(self, seat: str, kind: str, card: object, entered: Sequence[str] | None, actor: str) -> None:
        """TO-7: another player replaces the last card laid with one from his hand (assist or hinder)."""
        code = self.verify_replace(seat, card)
        sim = self._draws(entered)
        assert self.action is not None
        self._replaced(seat=seat, kind=kind, card=code, replaced=self.action["laid"][-1], actor=actor)
        self._after(self._sync(sim), actor)

    @event("Replaced")
    def _replaced(self, seat: str, kind: str, card: str, replaced: str, actor: str) -> None:
        assert self.action is not None
        if kind in ("assist", "hinder"):
            self.hands[seat].remove(card)
            self.assisted.append(seat)
            self.action["replacement"] = {"seat": seat, "kind": kind}
        elif kind == "hold-set-aside":
            self.action["set_aside"] = None
        else:  # "hold-draw": the card drawn for the hold, kept
            self.action["pending"] = None
        self._show([card])
        self.action["laid"][-1] = card
        self.discard.append(replaced)

    def use_hold(self, seat: str, use: str, holds: int, entered: Sequence[str] | None, actor: str) -> None:
        """TO-8: spend a hold to replace the last card laid with the set-aside card, or to draw one."""
        self.verify_use_hold(seat, use, holds)
        sim = self._draws(entered)
        assert self.action is not None
        drawn = sim.draw(1)[0] if use == "draw" else None
        self._hold_spent(seat=seat, use=use, card=drawn, reshuffles=sim.reshuffles, actor=actor)
        if use == "set-aside":
            self._replaced(seat=seat, kind="hold-set-aside", card=self.action["set_aside"],
                           replaced=self.action["laid"][-1], actor=actor)
        self._after(self._sync(sim), actor)

    @event("HoldSpent")
    def _hold_spent(self, seat: str, use: str, card: str | None, reshuffles: list[dict[str, Any]],
                    actor: str) -> None:
        assert self.action is not None
        self.action["hold_used"] = use
        self.holds_spent[seat] = self.holds_spent.get(seat, 0) + 1
        if card is not None:
            self._take([card], copy.deepcopy(reshuffles))
            self._show([card])
            self.action["pending"] = card

    def keep(self, seat: str, keep: bool, entered: Sequence[str] | None, actor: str) -> None:
        """TO-8, TO-13: the card drawn for a hold replaces the last card laid, or is discarded."""
        card = self.verify_keep(seat)
        sim = self._draws(entered)
        assert self.action is not None
        if keep:
            self._replaced(seat=seat, kind="hold-draw", card=card, replaced=self.action["laid"][-1], actor=actor)
        else:
            self._hold_card_discarded(seat=seat, card=card, actor=actor)
        self._after(self._sync(sim), actor)

    @event("HoldCardDiscarded")
    def _hold_card_discarded(self, seat: str, card: str, actor: str) -> None:
        assert self.action is not None
        self.action["pending"] = None
        self.discard.append(card)

    # -- TO-4, TO-5, TO-9, TO-12, TO-14: resolving, and the end of a round --------------------------------------
    @event("ActionResolved")
    def _action_resolved(self, seat: str, outcome: str, how: str, total: int, targets: dict[str, int],
                         laid: list[str], actor: str) -> None:
        assert self.action is not None
        self.discard += laid
        if self.action["set_aside"] is not None:
            self.hands[seat].append(self.action["set_aside"])
        self.results.append({"round": self.round, "seat": seat, "outcome": outcome, "how": how, "total": total,
                             "targets": dict(targets), "laid": list(laid),
                             "modifiers": copy.deepcopy(self.action["modifiers"]),
                             "replacement": copy.deepcopy(self.action["replacement"]),
                             "hold": self.action["hold_used"], "overturned": None})
        self.acted.append(seat)
        self.action, self.phase = None, "play"

    @event("RoundEnded")
    def _round_ended(self, round: int, actor: str) -> None:
        self.round += 1
        self.acted, self.assisted, self.turn_order = [], [], []

    # -- TO-9, TO-14, C-3: with table cards, the refill's reshuffle is the House's own step ---------------
    @event("ReshuffleAwaited")
    def _reshuffle_awaited(self, actor: str) -> None:
        self.phase = "reshuffle"
        if self.ordering is not None:  # TO-16: a tie waits for it; every card laid for the order is face up
            self._show([self.ordering["laid"][s] for s in self.seats if s in self.ordering["laid"]])

    def reshuffle(self, entered: Sequence[str] | None, actor: str) -> None:
        """The House enters the discards as reshuffled at the table; the refill the round's end began goes on,
        or the order whose tie waited for it is settled (TO-16)."""
        self.verify_reshuffle(entered)
        sim = self._draws(entered)
        if self.ordering is not None:
            laid = dict(self.ordering["laid"])
            order, rounds = self._settled_order(laid, sim)
            sim.done()
            self._order_settled(cards=laid, ties=rounds, order=order, reshuffles=sim.reshuffles, actor=actor,
                                held=True)
            return
        self._refill_resumed(actor=actor)
        self._refill(self._sync(sim), actor, table_deck_only=False)
        sim.done()

    @event("RefillResumed")
    def _refill_resumed(self, actor: str) -> None:
        self.phase = "play"

    view_for = view.view_for
    legal_actions = view.legal_actions

    # -- the end (C-5), and undo (C-6, C-7) ------------------------------------------------------------------
    def end(self, actor: str) -> None:
        self.verify_end()
        if self.abandons_a_draw():  # C-10: ended while seeding, after a player's input: the deal it would have made
            self._draw_abandoned(**self.would_be_draws(), actor=actor)
        self._ended(actor=actor)

    def would_be_draws(self, **inputs: Any) -> dict[str, Any]:
        """C-10: the deal a conflict ended while seeding would have made (the shuffle, and each hand)."""
        [draw] = self.abandoned_draws([(["shuffle", 0], list(c.DECK))])
        hands = {seat: draw["order"][i * HAND:(i + 1) * HAND] for i, seat in enumerate(self.seats)}
        return {"draws": [draw], "hands": hands}

    def close_abandoned(self, reason: str, actor: str) -> None:
        self._abandoned(reason=reason, actor=actor)

    @event("Abandoned")
    def _abandoned(self, reason: str, actor: str) -> None:
        """C-10: the House abandoned the conflict (with a reason); it is over, everything is revealed (C-5)."""
        self.phase = "settled"
        self.abandoned = reason

    @event("DrawAbandoned")
    def _draw_abandoned(self, draws: list[dict[str, Any]], hands: dict[str, list[str]], actor: str) -> None:
        """C-10: recorded for every seat to see; the deal was not made, the conflict keeps it with the hands it
        would have dealt (for its board)."""
        self.keep_would_have_drawn([{**d, "hands": copy.deepcopy(hands)} for d in draws])

    @event("Ended")
    def _ended(self, actor: str) -> None:
        self.phase = "settled"

    @event("Rewound")
    def _rewound(self, to_step: int, reason: str, state: dict[str, Any], actor: str) -> None:
        self.restore(state)

    #: C-6: the House's void of an ended conflict (a class default for states stored before voids).
    voided: str | None = None

    def verify_overturn(self, reason: object) -> str:
        """C-6 (issue 30, item 4): an ended conflict is voided, with a reason, once; an open one is rewound.
        Returns the cleaned reason."""
        text = clean_text(reason, "a reason", max_length=500, ruling="C-6")
        if not self.settled:
            raise RuleViolation("only an ended conflict is overturned (voided); rewind an open one", ruling="C-6")
        if self.voided is not None:
            raise RuleViolation("this conflict is voided already", ruling="C-6")
        return text

    @property
    def was_overturned(self) -> bool:
        """C-6: a conflict's overturn voids it."""
        return self.voided is not None

    def overturn(self, reason: object, actor: str) -> None:
        """C-6: the House voids the ended conflict: every action that stood is overturned with the reason, and
        the holds spent in it go back to their sheets (the system's ``overturn`` returns them)."""
        self._voided(reason=self.verify_overturn(reason), actor=actor)

    @event("Voided")
    def _voided(self, reason: str, actor: str) -> None:
        self.voided = reason
        for result in self.results:
            if not result["overturned"]:
                result["overturned"] = reason

    @event("ActionOverturned")
    def _action_overturned(self, index: int, reason: str, actor: str) -> None:
        """Stored logs only: before issue 30 the House's overturn of an open conflict voided its last action."""
        self.results[index]["overturned"] = reason
