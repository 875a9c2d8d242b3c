"""A Pulp combat (PU-5, PU-9): an optional surprise deal, initiative, attacks in order, cycle after cycle.

One unit of resolution (C-1) with one secret seed. Each deal has its slot (C-7): ``["surprise"]``,
``["initiative", cycle]``, ``["attack", attacker, k]`` (his k-th attack); a rewind of an open combat brings
the same cards for the same slots. The surprise deal and initiative are dealt in the open; an attack is seen by its dealer (the
player, or the House for its own characters) until he shows it (C-5); a shown attack stays public through a
rewind (C-8). Ending the combat reveals every card and the secret seed (C-4).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate, event

from domain.errors import RuleViolation, passes
from domain.fairness import commitment
from domain.kernel.resolution import HOUSE, slot_key
from domain.systems.pulp_cards import rules
from domain.systems.pulp_cards.combat_rules import CombatRules
from domain.systems.pulp_cards.dealing import Dealing


class PulpCombat(CombatRules, Dealing, Aggregate):
    UNIT_LABEL = "combat"
    SEED_SIDES = ("players", "house")
    REWOUND = ("phase", "cycle", "order", "turn", "initiative", "attacks", "surprise", "free_attack", "slots",
               "called", "pending", "epoch")
    SEEDS_CLOSED = "seeds are added before the first card is dealt"
    SEED_GIVEN = "this side has added its seed already"
    SETTLED_REWIND = "an ended combat is not rewound"

    @event("Opened")
    def __init__(self, campaign_id: UUID, adventure: int, combatants: list[dict[str, str]], seed_hash: str,
                 secret_seed: str, table: bool, actor: str) -> None:
        self.campaign_id, self.adventure = campaign_id, adventure
        self.combatants = [dict(c) for c in combatants]
        self.seed_hash, self.secret_seed, self.table = seed_hash, secret_seed, table
        players = sorted({c["seat"] for c in combatants if c["seat"] != HOUSE})
        self.sides = {"players": {"seats": players, "seed": None}, "house": {"seats": [HOUSE], "seed": None}}
        self.rolls: list[dict[str, Any]] = []
        self.phase = "opened"
        self.cycle = 0
        self.order: list[str] = []
        self.turn = 0
        self.initiative: dict[str, Any] | None = None
        self.surprise: dict[str, Any] | None = None
        self.free_attack: str | None = None
        self.attacks: list[dict[str, Any]] = []
        self.slots: list[list[Any]] = []  # the slots dealt in the combat as it stands (C-8)
        self.ended: str | None = None

    @classmethod
    def open(cls, *, campaign_id: UUID, adventure: int, combatants: list[dict[str, str]], secret_seed: str,
             table: bool, actor: str) -> PulpCombat:
        names = [c["name"].casefold() for c in combatants]
        if len(set(names)) != len(names):
            raise RuleViolation("each combatant is named once", ruling="PU-5")
        if not 2 <= len(combatants) <= rules.MAX_COMBATANTS:
            raise RuleViolation(f"a combat has 2 to {rules.MAX_COMBATANTS} combatants (two initiative cards "
                                f"each from 14), not {len(combatants)}", ruling="PU-5")
        return cls(campaign_id=campaign_id, adventure=adventure, combatants=combatants,
                   seed_hash=commitment(secret_seed), secret_seed=secret_seed, table=table, actor=actor)

    @property
    def settled(self) -> bool:
        return self.phase == "settled"

    # -- C-4: seeds -------------------------------------------------------------------------------------
    def side_of(self, seat: str) -> str | None:
        return "house" if seat == HOUSE else "players" if seat in self.sides["players"]["seats"] else None

    def add_seed(self, seat: str, seed: str | None, actor: str) -> None:
        """The players' seed (or pass, ``seed`` None); the last input deals the called first deal (C-10)."""
        side = self.side_of(seat)
        if side is None:
            raise RuleViolation("only the House and the players in this combat add seeds", ruling="C-4")
        self.give_input(side, seed, actor)

    def verify_may_seed(self, side: str) -> None:
        """C-10: the players seed (or pass) once the House has called the first deal, so the House cannot
        choose between a surprise deal and initiative knowing their seed."""
        super().verify_may_seed(side)
        if self.called is None and self.seeders() and not self.rolls and not self.shuffles:
            raise RuleViolation("the players seed (or pass) once the House has called the first deal (surprise "
                                "or initiative), which is then dealt with their input", ruling="C-10")

    def mid_move(self) -> bool:
        """C-10: the first deal called and every input in is dealt in the same write, and so is a House choice
        whose fresh seed is in (given now, or kept by a rewind): no move stops there."""
        if self.drawing_fresh():
            return True
        return self.called is not None and not self.owed_inputs() and not self.seeds_locked

    @event("SeedAdded")
    def _seed_added(self, side: str, seed: str, actor: str) -> None:
        self.put_seed(side, seed)

    @event("SeedPassed")
    def _seed_passed(self, side: str, actor: str) -> None:
        self.put_pass(side)

    @event("FreshSeedAdded")
    def _fresh_seed_added(self, stage: str, side: str, seed: str, actor: str) -> None:
        """C-9, C-10: the players' fresh seed for the House's choice of ``stage``, given after it."""
        self.put_fresh(stage, side, seed)

    @event("HouseChose")
    def _house_chose(self, stage: str, choice: dict[str, Any], actor: str) -> None:
        """C-9: the House's choice of ``stage`` (initiative again or keep, or its attack), fixed before the
        players' fresh seed, which draws it; kept through rewinds, bound once that seed is in."""
        self.put_house_choice(stage, "choice", copy.deepcopy(choice))
        self.pending = {"stage": stage, **copy.deepcopy(choice)}

    @event("DealCalled")
    def _deal_called(self, kind: str, ambusher: str | None, difficulty: int | None,
                     advantages: dict[str, int] | None, actor: str) -> None:
        """C-10: the House's first deal, with its inputs, fixed before the players' input; dealt with it."""
        self.called = {"kind": kind, "ambusher": ambusher, "difficulty": difficulty,
                       "advantages": None if advantages is None else dict(advantages)}

    # -- the events (each records what it dealt, C-3) -----------------------------------------------------
    @event("SurpriseDealt")
    def _surprise_dealt(self, ambusher: str, difficulty: int, hand: dict[str, Any], result: dict[str, Any],
                        actor: str) -> None:
        self.record_hand(hand)
        self.slots = [*self.slots, hand["slot"]]
        self.mark_seen(hand["slot"], {"slot": hand["slot"], "cards": hand["cards"], "result": result})
        self.surprise = {"ambusher": ambusher, "difficulty": difficulty, "cut": hand["cut"],
                         "cards": list(hand["cards"]), "result": dict(result)}
        self.free_attack = ambusher if result["success"] else None
        self.phase = "free-attack" if result["success"] else "opened"
        self.called = None

    @event("InitiativeDealt")
    def _initiative_dealt(self, cycle: int, advantages: dict[str, int], deck: list[str], dealt: list[list[Any]],
                          order: list[str], totals: dict[str, int], by_name: list[list[str]], actor: str) -> None:
        slot = self.draw_slot(["initiative", cycle])  # with the fresh seeds of its stage (C-9)
        self.stage_drawn()
        self.record_shuffle(slot, rules.DECK, deck, self.table)
        self.slots = [*self.slots, slot]
        self.mark_seen(slot, {"slot": slot, "dealt": dealt})
        self.cycle, self.order, self.turn, self.phase = cycle, list(order), 0, "attacking"
        self.called = None
        self.initiative = {"cycle": cycle, "advantages": dict(advantages), "dealt": copy.deepcopy(dealt),
                           "totals": dict(totals), "by_name": copy.deepcopy(by_name), "kept": False}

    @event("OrderKept")
    def _order_kept(self, cycle: int, actor: str) -> None:
        self.stage_drawn()
        self.cycle, self.turn, self.phase = cycle, 0, "attacking"
        if self.initiative is not None:
            self.initiative = {**self.initiative, "kept": True, "kept_for": cycle}

    @event("Attacked")
    def _attacked(self, number: int, seat: str, attacker: str, target: str | None, free: bool, difficulty: int,
                  hand: dict[str, Any], result: dict[str, Any], actor: str) -> None:
        self.stage_drawn()
        self.record_hand(hand)
        if seat != HOUSE:  # C-7: its dealer saw these cards; an undo deals them again with the same inputs
            self._own("dealt_with").setdefault(slot_key(hand["slot"]), {"target": target, "difficulty": difficulty})
        self.slots = [*self.slots, hand["slot"]]
        self.attacks = [*self.attacks, {
            "number": number, "slot": list(hand["slot"]), "cycle": self.cycle, "dealer": seat, "attacker": attacker,
            "target": target,
            "free": free, "difficulty": difficulty, "cut": hand["cut"], "cards": list(hand["cards"]),
            "result": dict(result), "shown": False, "effect": None}]
        if free:
            self.free_attack, self.phase = None, "opened"
        else:
            self.turn += 1
            if self.turn >= len(self.order):
                self.phase = "cycle-end"

    @event("AttackShown")
    def _attack_shown(self, number: int, cards: list[str], result: dict[str, Any], actor: str) -> None:
        attack = self.attacks[number - 1]
        self.attacks = [*self.attacks[:number - 1], {**attack, "shown": True}, *self.attacks[number:]]
        slot = self.slot_of(attack)
        self.mark_seen(slot, {"slot": slot, "attacker": attack["attacker"], "cards": list(cards),
                              "result": dict(result)})

    @event("EffectRecorded")
    def _effect_recorded(self, number: int, effect: str, actor: str) -> None:
        attack = self.attacks[number - 1]
        self.attacks = [*self.attacks[:number - 1], {**attack, "effect": effect}, *self.attacks[number:]]

    @event("DrawAbandoned")
    def _draw_abandoned(self, draws: list[dict[str, Any]], actor: str) -> None:
        """C-10: the first draws the combat would have made, for every seat to see; nothing else changes."""
        self.keep_would_have_drawn(draws)

    @event("Ended")
    def _ended(self, reason: str, actor: str) -> None:
        self.phase = "settled"
        self.ended = reason

    @event("Rewound")
    def _rewound(self, to_step: int, reason: str, state: dict[str, Any], actor: str) -> None:
        self.restore(state)

    BEFORE_FIRST_DEAL = ("a rewind to a step before the first deal is refused once the players' input is known: the "
                         "House fixed that deal's kind and inputs (surprise or initiative, ambusher, difficulty, "
                         "advantages) before their seed or pass, and choosing them again now, knowing every input "
                         "and its secret, would choose the deal. Rewind to the step of the first deal or later "
                         "(ADR 0029)")

    def verify_rewind(self, to_step: object, past: Any, reason: object) -> tuple[str, dict[str, Any]]:
        """C-6, with C-9 and C-10 (review finding 1): with a service deck, no rewind goes back before the first
        deal once it is made. Its inputs were called before the players' seed; a state before it is one where
        the House calls again, its secret and every seed known (the same call would only deal the same cards,
        C-7). With table cards the cards are the table's (C-3) and no seed takes part."""
        if not self.settled and not self.table and (self.rolls or self.shuffles) and \
                not past.rolls and not past.shuffles:
            raise RuleViolation(self.BEFORE_FIRST_DEAL, ruling="C-9")
        return super().verify_rewind(to_step, past, reason)

    # -- C-6: an ended combat is overturned (voided): ``Dealing.overturn`` ------------------------------------
    OPEN_OVERTURN = "only an ended combat is overturned; rewind an open one"
    NOUN = "combat"

    @event("Overturned")
    def _overturned(self, reason: str, actor: str) -> None:
        self.overturned = {"reason": reason, "void": True}

    # -- C-5: what a seat may see --------------------------------------------------------------------------
    def sees_attack(self, seat: str, attack: Mapping[str, Any], reveal: bool = False) -> bool:
        return self.revealed or reveal or self.attack_public(attack) or seat == attack["dealer"]

    def view_for(self, seat: str, reveal: bool = False, settled: bool = False) -> dict[str, Any]:
        attacks = []
        for a in self.attacks:
            if self.sees_attack(seat, a, reveal):
                attacks.append({**copy.deepcopy(a), "shown_as": rules.faces(a["cards"]),
                                "reads": rules.outcome_words("standard", a["result"]),
                                # C-8: every seat saw this deal before a rewind dealt it again: public for good
                                "seen_before_rewind": not a["shown"] and self.attack_public(a)})
            else:
                attacks.append({**{k: a[k] for k in ("number", "cycle", "dealer", "attacker", "target", "free",
                                                     "difficulty", "shown", "effect")},
                                "cut": None, "cards": None, "result": None, "hidden": True})
        surprise = copy.deepcopy(self.surprise)
        if surprise:
            surprise["shown_as"] = rules.faces(surprise["cards"])
        return {
            "kind": "combat", "adventure": self.adventure, "phase": self.phase, "cycle": self.cycle,
            "combatants": copy.deepcopy(self.combatants), "order": list(self.order), "turn": self.turn,
            "up": self.up(), "free_attack": self.free_attack, "surprise": surprise,
            "initiative": copy.deepcopy(self.initiative), "attacks": attacks, "table": self.table,
            "seed_hash": self.seed_hash, "seeds": {s: self.seed_of(s) for s in self.SEED_SIDES},
            "called": copy.deepcopy(self.called), "owed": self.owed_inputs(),
            "chosen": copy.deepcopy(self.pending), "fresh_owed": self.owed_fresh(),
            "fresh_seeds": {stage: dict(given) for stage, given in self.fresh.items()},
            "secret_seed": self.secret_seed if self.settled or settled else None,
            "seen_before_the_rewind": self.seen_before_rewind(self.slots),
            "overturned": copy.deepcopy(self.overturned),
            "ended": self.ended,  # how the House said the combat ended (public: it shows every card)
        }

    def _required(self, slot: list[Any], seat: str) -> dict[str, Any]:
        """Dealt before a rewind: the same cards, or the same cut, to a seat that may know them (C-5, C-7)."""
        found = self.required_for(slot, seat)
        return {"required": found} if found is not None else {}

    def _table_cards(self, initiative: bool = False) -> dict[str, Any]:
        """C-3, table cards (issue 30): what the table enters for a deal, for the listing alone to say: the cards
        it may enter (``deck``, the 14 of PU-1, each once) and how many (``dice``): a hand's seven (PU-2, PU-7:
        cut at the table), or initiative's first round-robin, two to each combatant in the order ``dealt_to``;
        then each tied group, highest first, is dealt one card more each in that order, its new card's
        ``points`` plus the same advantage compared among the tied alone, until settled, a group with fewer
        cards left than members going by name (PU-5, PU-9). After a rewind, ``required``: the cards the slot
        had, entered the same again, as far as the deal now needs (C-7)."""
        if not self.table:
            return {}
        if not initiative:
            return {"deck": list(rules.DECK), "dice": rules.HAND}
        names = [c["name"] for c in self.combatants]
        return {"deck": list(rules.DECK), "dice": 2 * len(names), "dealt_to": names, "points": dict(rules.POINTS)}

    def legal_actions(self, seat: str) -> list[dict[str, Any]]:
        """The moves ``seat`` may make now, each found by the verify function that would refuse it."""
        out: list[dict[str, Any]] = []
        side = self.side_of(seat)
        if side is not None and side in self.owed_fresh():  # C-9: a fresh seed is given, never passed
            out.append({"action": "seed", "member": side, "fresh": True, "required": ["seed"]})
        elif side is not None and passes(self.verify_may_seed, side):
            out += [{"action": "seed"}, {"action": "pass"}]  # C-10: either input deals the called first deal
        move: dict[str, Any]
        if passes(self.verify_surprise, seat, self.combatants[0]["name"], None):
            move = {"action": "surprise", "choices": [c["name"] for c in self.combatants]}
            out.append({**move, **self._table_cards(), **self._required(["surprise"], seat)})
        # C-9: after a rewind that kept a stage's fresh seed, only the House's choice as it made it is listed
        made: Any
        bound, made = self.bound_house_choice(self.cycle_stage(), "choice") if self.stages_apply() else (False, None)
        advantages = dict(made["advantages"]) if bound and made["kind"] == "initiative" else {}
        if passes(self.verify_initiative, seat, advantages, None):  # each advantage granted
            move = {"action": "initiative", "min": 0, "max": 4, "field": "advantage"}
            if bound:
                move["bound"] = {"advantage": advantages}
            out.append({**move, **self._table_cards(initiative=True),
                        **self._required(["initiative", self.cycle + 1], seat)})
        if passes(self.verify_keep, seat):
            out.append({"action": "keep", **({"bound": {}} if bound else {})})
        bound, made = self.bound_house_choice(self.attack_stage(), "choice") \
            if seat == HOUSE and self.stages_apply() else (False, None)
        if not bound and self.up() is not None:  # C-7: a player's attack dealt before an undo, with its inputs
            made = self.dealt_before(self.draw_slot(self.attack_slot(self.up())))
            bound = made is not None
        target, difficulty = (made["target"], made["difficulty"]) if bound and made is not None else (None, 0)
        if passes(self.verify_attack, seat, target, difficulty, None, None):
            move = {"action": "attack", "member": self.up(), "min": -4, "max": 4, "field": "difficulty"}
            if bound:
                move.update(min=difficulty, max=difficulty, bound={"target": target, "difficulty": difficulty})
            out.append({**move, **self._table_cards(),
                        **self._required(self.draw_slot(self.attack_slot(self.up())), seat)})
        shows = [a["number"] for a in self.attacks if passes(self.verify_show, seat, a["number"])]
        if shows:
            out.append({"action": "show", "choices": shows})
        effects = [a["number"] for a in self.attacks if passes(self.verify_effect, seat, a["number"], "x")]
        if effects:
            out.append({"action": "effect", "choices": effects})
        if passes(self.verify_end, seat, "x"):
            out += [{"action": "end"}, {"action": "abandon", "required": ["reason"]}]  # C-10: the kernel's
        return out
