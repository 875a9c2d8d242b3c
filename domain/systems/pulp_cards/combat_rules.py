"""The moves of a Pulp combat (PU-5, PU-9, C-5): each has one verify function that refuses it, naming the
ruling, or returns what it records; ``PulpCombat.legal_actions`` lists exactly the moves whose verify
function passes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.errors import RuleViolation, passes
from domain.fairness import derive_die
from domain.kernel.resolution import HOUSE
from domain.systems.pulp_cards import rules
from domain.text import clean_text


class CombatRules:
    """Mixin of ``PulpCombat``: verify functions and the public moves that record events."""

    combatants: list[dict[str, str]]
    phase: str
    cycle: int
    order: list[str]
    turn: int
    attacks: list[dict[str, Any]]
    surprise: dict[str, Any] | None
    free_attack: str | None
    table: bool
    initiative: dict[str, Any] | None

    # -- who is who -------------------------------------------------------------------------------------
    def named(self, name: object, ruling: str = "PU-5") -> str:
        """A combatant's name as the combat records it (case-insensitively), or the character of a player's
        seat (``ilse``), as ``combat open`` takes them (issue 31)."""
        wanted = " ".join(str(name).split()).casefold()
        found = next((c["name"] for c in self.combatants if c["name"].casefold() == wanted), None)
        if found is None and wanted != HOUSE:
            found = next((c["name"] for c in self.combatants if c["seat"].casefold() == wanted), None)
        if found is None:
            raise RuleViolation(f"{name!r} is not in this combat; the combatants are "
                                f"{', '.join(c['name'] for c in self.combatants)}", ruling=ruling)
        return found

    def controller(self, name: str) -> str:
        """The seat that deals for a combatant: its player, or the House for its own characters."""
        return next(c["seat"] for c in self.combatants if c["name"] == name)

    def up(self) -> str | None:
        """The combatant who attacks now."""
        if self.phase == "free-attack":
            return self.free_attack
        if self.phase == "attacking" and self.turn < len(self.order):
            return self.order[self.turn]
        return None

    def _house(self, seat: str, doing: str, ruling: str = "PU-5") -> None:
        if seat != HOUSE:
            raise RuleViolation(f"only the House {doing}", ruling=ruling)

    # -- PU-5: surprise ---------------------------------------------------------------------------------
    # -- C-10: the first deal is called before the players' input, and dealt at the last of it ---------------
    called: dict[str, Any] | None = None  # older states: nothing called

    def _verify_not_called(self) -> None:
        """C-10: once the House has called the first deal, it waits for the players' seed or pass; the House
        does not call another (it would choose which deal counts, knowing their seed)."""
        if self.called is not None and self.owed_inputs():  # type: ignore[attr-defined]
            raise RuleViolation(f"the House called the first deal ({self.called['kind']}); it is dealt in the "
                                "same write as the players' seed or pass", ruling="C-10")

    def calls_first_deal(self, cut: object) -> bool:
        """Whether a surprise or initiative asked for now is only called (C-10): the players still owe their
        input. Its inputs are fixed now, before their seed; a House cut is never chosen (C-9)."""
        if not self.owed_inputs():  # type: ignore[attr-defined]
            return False
        if cut is not None:
            raise RuleViolation("the House's cut is drawn for the slot, not chosen: leave it out", ruling="C-9")
        return True

    def draw_at_last_input(self, actor: str) -> None:
        """C-10: the first deal the House called, dealt by the service in the write of the players' seed or
        pass, with the inputs fixed by the call."""
        called = self.called
        if called is None:  # a combat whose players seeded before the call existed (stored before issue 30)
            return
        if called["kind"] == "surprise":
            self._deal_surprise(HOUSE, called["ambusher"], called["difficulty"], None, None, actor)
        else:
            self._deal_initiative(HOUSE, called["advantages"], None, actor)

    def verify_surprise(self, seat: str, ambusher: object, difficulty: object) -> tuple[str, int]:
        self._house(seat, "calls for a surprise deal")
        self._verify_not_called()
        if self.phase != "opened" or self.surprise is not None or self.cycle:
            raise RuleViolation("a surprise deal comes once, before the first initiative", ruling="PU-5")
        return self.named(ambusher), rules.difficulty(difficulty)

    def deal_surprise(self, seat: str, ambusher: object, difficulty: object, cut: object,
                      entered: Sequence[str] | None, actor: str) -> None:
        """The ambusher's standard deal against the surprised; on a success, a free attack (PU-5). Called
        only, while the players owe their input (C-10)."""
        name, diff = self.verify_surprise(seat, ambusher, difficulty)
        if self.calls_first_deal(cut):
            self._deal_called(kind="surprise", ambusher=name, difficulty=diff,  # type: ignore[attr-defined]
                              advantages=None, actor=actor)
            return
        self._deal_surprise(seat, name, diff, cut, entered, actor)

    def _deal_surprise(self, seat: str, name: str, diff: int, cut: object, entered: Sequence[str] | None,
                       actor: str) -> None:
        hand = self.draw_hand(["surprise"], cut, entered, seat)  # type: ignore[attr-defined]
        self._surprise_dealt(ambusher=name, difficulty=diff, hand=hand,  # type: ignore[attr-defined]
                             result=rules.judge(hand["cards"], diff), actor=actor)

    # -- PU-5, PU-9: initiative ------------------------------------------------------------------------------
    def verify_initiative(self, seat: str, advantages: Mapping[str, object] | None,
                          entered: Sequence[str] | None) -> dict[str, int]:
        self._house(seat, "deals initiative")
        self._verify_not_called()
        self._verify_not_chosen()
        if self.phase not in ("opened", "cycle-end"):
            raise RuleViolation("initiative is dealt before the first cycle or when a cycle ends", ruling="PU-5")
        found: dict[str, int] = {}
        for name, value in (advantages or {}).items():
            combatant = self.named(name, "PU-9")
            if combatant in found:  # ``ilse`` and ``Ilse Varn`` are one combatant: neither value would be sure
                raise RuleViolation(f"{combatant} is named twice among the advantages ({name!r} is {combatant}): "
                                    "give each combatant's advantage once", ruling="PU-9")
            found[combatant] = rules.advantage(value)
        if self.stages_apply():
            self.verify_same_choice(self.cycle_stage(), {"kind": "initiative", "advantages": found})
        return found

    def deal_initiative(self, seat: str, advantages: Mapping[str, object] | None, entered: Sequence[str] | None,
                        actor: str) -> None:
        """Two cards each, round-robin, no cut (PU-7); ties dealt again (PU-9). A new cycle begins. The first
        is called only, while the players owe their input (C-10); a later one is the House's choice of its
        cycle's stage, dealt with the players' fresh seed (C-9, C-10)."""
        found = self.verify_initiative(seat, advantages, entered)
        if self.calls_first_deal(None):
            self._deal_called(kind="initiative", ambusher=None, difficulty=None,  # type: ignore[attr-defined]
                              advantages=found, actor=actor)
            return
        if self.stages_apply():
            self.choose(self.cycle_stage(), {"kind": "initiative", "advantages": found}, actor)
            return
        self._deal_initiative(seat, found, entered, actor)

    def _deal_initiative(self, seat: str, found: dict[str, int], entered: Sequence[str] | None, actor: str) -> None:
        cycle = self.cycle + 1
        deck = self.shuffle(self.draw_slot(["initiative", cycle]), rules.DECK, entered)  # type: ignore[attr-defined]
        names = [c["name"] for c in self.combatants]
        dealt = rules.deal_initiative(names, found, deck)
        if self.table and dealt["used"] != len(deck):
            raise RuleViolation(f"this initiative took {dealt['used']} cards, not {len(deck)}", ruling="C-3")
        self._initiative_dealt(cycle=cycle, advantages=found, deck=deck,  # type: ignore[attr-defined]
                               dealt=dealt["dealt"], order=dealt["order"], totals=dealt["totals"],
                               by_name=dealt["by_name"], actor=actor)

    def verify_keep(self, seat: str) -> None:
        self._house(seat, "keeps the order")
        self._verify_not_chosen()
        if self.phase != "cycle-end":
            raise RuleViolation("the order is kept or dealt again when a cycle ends", ruling="PU-5")
        if self.stages_apply():
            self.verify_same_choice(self.cycle_stage(), {"kind": "keep"})

    def keep_order(self, seat: str, actor: str) -> None:
        """PU-5: the same order for the next cycle; with a service deck, the House's choice of the cycle's
        stage, which takes effect with the players' fresh seed (C-9, C-10)."""
        self.verify_keep(seat)
        if self.stages_apply():
            self.choose(self.cycle_stage(), {"kind": "keep"}, actor)
            return
        self._order_kept(cycle=self.cycle + 1, actor=actor)  # type: ignore[attr-defined]

    # -- C-9, C-10: the House's choices after the players' input, each followed by a fresh seed ---------------
    #: The House's choice whose stage waits for the players' fresh seed (``{"stage", "kind", ...}``), and the
    #: last stage whose fresh seed is in: the draws since carry it (older states: neither).
    pending: dict[str, Any] | None = None
    epoch: str | None = None

    def stages_apply(self) -> bool:
        """C-9: once the first deal is made from the players' input, the House can compute every later draw from
        its secret; each choice it makes then is followed by a fresh seed of the players' before any draw. Not
        with table cards (physical, C-3; ``seeders`` is empty) nor when no player is in the combat."""
        return (not self.table and bool(self.seeders())  # type: ignore[attr-defined]
                and bool(self.rolls or self.shuffles))  # type: ignore[attr-defined]

    def cycle_stage(self) -> str:
        """The stage of the House's choice that starts the next cycle (initiative again, or keep): ``cycle-N``."""
        return f"cycle-{self.cycle + 1}"

    def attack_stage(self) -> str:
        """The stage of a House attack (its target and difficulty): ``attack-N``, N its number in the combat."""
        return f"attack-{len(self.attacks) + 1}"

    def fresh_stage(self) -> str | None:
        """C-9, C-10: the stage of the House's choice made and not yet drawn. Every House choice after the first
        deal (initiative again or keep, a House attack) has one, whatever it chose (C-5)."""
        return self.pending["stage"] if self.pending is not None else None

    def draw_slot(self, slot: Sequence[Any]) -> list[Any]:
        """C-9, C-7: the slot a draw fills now: with the fresh seeds of the choice being drawn, else of the last
        stage drawn (every draw after a House choice carries the seeds given after it), else the slot itself."""
        stage = self.pending["stage"] if self.pending is not None else self.epoch
        if stage is None or not self.fresh_in(stage):  # type: ignore[attr-defined]
            return list(slot)
        return self.fresh_slot(stage, slot)  # type: ignore[attr-defined,no-any-return]

    def _verify_not_chosen(self) -> None:
        """C-10: the House's choice waits for the players' fresh seed; it makes no other meanwhile."""
        if self.pending is not None:
            raise RuleViolation(f"the House chose {self.choice_words(self.pending)}; it is dealt with the players' "
                                "fresh seed, in the same write", ruling="C-10")

    def verify_same_choice(self, stage: str, choice: dict[str, Any]) -> None:
        """C-9: after a rewind that kept ``stage``'s fresh seed, the House's choice is the one it made."""
        bound, made = self.bound_house_choice(stage, "choice")  # type: ignore[attr-defined]
        if bound:
            self.verify_house_choice(stage, "choice", choice, self.choice_words(made, stage))  # type: ignore[attr-defined]

    @staticmethod
    def choice_words(choice: Mapping[str, Any], stage: str | None = None) -> str:
        """A House choice in the table's words (``initiative again``, ``to keep the order``, ``Cole's attack``)."""
        cycle = f" for {stage.replace('-', ' ')}" if stage else ""
        if choice["kind"] == "keep":
            return f"to keep the order{cycle}"
        if choice["kind"] == "initiative":
            given = ", ".join(f"{n} {v}" for n, v in choice["advantages"].items() if v) or "none"
            return f"initiative{cycle} with advantages {given}"
        words = f"{choice['attacker']}'s attack" + (f" on {choice['target']}" if choice.get("target") else "")
        return words + (f" at difficulty {choice['difficulty']}" if stage else "")

    def choose(self, stage: str, choice: dict[str, Any], actor: str) -> None:
        """C-9, C-10: record the House's choice of ``stage``; it is drawn at the players' fresh seed, or at once
        when a rewind kept that seed (the choice was bound to be the same, ``verify_house_choice``)."""
        self._house_chose(stage=stage, choice=choice, actor=actor)  # type: ignore[attr-defined]
        if self.fresh_in(stage):  # type: ignore[attr-defined]
            self.draw_at_fresh_input(stage, actor)

    def draw_at_fresh_input(self, stage: str, actor: str) -> None:
        """C-10: the House's choice of ``stage``, drawn (or taking effect) with the players' fresh seed."""
        choice = self.pending
        if choice is None or choice["stage"] != stage:  # pragma: no cover - the kernel asks only for the stage owed
            return
        if choice["kind"] == "initiative":
            self._deal_initiative(HOUSE, dict(choice["advantages"]), None, actor)
        elif choice["kind"] == "keep":
            self._order_kept(cycle=self.cycle + 1, actor=actor)  # type: ignore[attr-defined]
        else:
            self._deal_attack(HOUSE, choice["target"], choice["difficulty"], None, None, actor)

    def stage_drawn(self) -> None:
        """Mutator: the choice's stage is drawn; the draws that follow carry its fresh seeds (C-9)."""
        if self.pending is not None:
            self.epoch, self.pending = self.pending["stage"], None

    # -- PU-5: attacks -------------------------------------------------------------------------------------
    def verify_attack(self, seat: str, target: object, difficulty: object, cut: object,
                      entered: Sequence[str] | None) -> tuple[str | None, int]:
        self._verify_not_chosen()
        attacker = self.up()
        if attacker is None:
            raise RuleViolation(f"nobody attacks now (the combat is at '{self.phase}')", ruling="PU-5")
        if seat != self.controller(attacker):
            raise RuleViolation(f"it is {attacker}'s attack; {self.controller(attacker)} deals it", ruling="PU-5")
        name = None
        if target is not None:
            name = self.named(target)
            if name == attacker:
                raise RuleViolation("a combatant does not attack himself", ruling="PU-5")
        if cut is not None:
            rules.cut_value(cut)
        diff = rules.difficulty(difficulty)
        if seat == HOUSE and self.stages_apply():
            if cut is not None:
                raise RuleViolation("the House's cut is drawn for the slot, not chosen: leave it out", ruling="C-9")
            self.verify_same_choice(self.attack_stage(),
                                    {"kind": "attack", "attacker": attacker, "target": name, "difficulty": diff})
        before = self.dealt_before(self.draw_slot(self.attack_slot(attacker)))  # type: ignore[attr-defined]
        if before is not None and (name, diff) != (before["target"], before["difficulty"]):
            # C-7: an undo brings these cards again, and their dealer has seen them; a new target or difficulty
            # would choose the outcome knowing the cards (an undo is not a reroll)
            aim = "nobody named" if before["target"] is None else before["target"]
            raise RuleViolation(f"{attacker}'s attack was dealt before the undo against {aim} at difficulty "
                                f"{before['difficulty']}, and its cards are known: it is dealt again with those",
                                ruling="C-7")
        return name, diff

    def attack(self, seat: str, target: object, difficulty: object, cut: object, entered: Sequence[str] | None,
               actor: str) -> None:
        """A standard deal; its degree, critical or fumble are recorded (PU-5). With a service deck, a House
        attack is its choice (target, difficulty) of a stage, dealt with the players' fresh seed (C-9, C-10)."""
        name, diff = self.verify_attack(seat, target, difficulty, cut, entered)
        if seat == HOUSE and self.stages_apply():
            self.choose(self.attack_stage(), {"kind": "attack", "attacker": self.up(), "target": name,
                                              "difficulty": diff}, actor)
            return
        self._deal_attack(seat, name, diff, cut, entered, actor)

    def _deal_attack(self, seat: str, name: str | None, diff: int, cut: object, entered: Sequence[str] | None,
                     actor: str) -> None:
        number = len(self.attacks) + 1
        hand = self.draw_hand(self.draw_slot(self.attack_slot(self.up())), cut, entered,  # type: ignore[attr-defined]
                              seat)
        self._attacked(number=number, seat=seat, attacker=self.up(), target=name,  # type: ignore[attr-defined]
                       free=self.phase == "free-attack", difficulty=diff, hand=hand,
                       result=rules.judge(hand["cards"], diff), actor=actor)

    def _attack(self, number: object) -> dict[str, Any]:
        if number is None:
            raise RuleViolation("no attack is named and none waits for this (none dealt yet, or each is done)",
                                ruling="PU-5")
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(self.attacks):
            raise RuleViolation(f"there is no attack {number!r} in this combat", ruling="PU-5")
        return self.attacks[number - 1]

    def verify_show(self, seat: str, number: object) -> dict[str, Any]:
        attack = self._attack(number)
        if self.phase == "settled" or self.attack_public(attack):
            raise RuleViolation(f"attack {number} is shown already", ruling="C-5")
        if seat not in (attack["dealer"], HOUSE):
            raise RuleViolation("only the dealer (or the House) shows an attack", ruling="C-5")
        return attack

    def attack_slot(self, attacker: str | None) -> list[Any]:
        """C-7: an attack's slot is its attacker's k-th attack in the combat, ``["attack", attacker, k]``: the
        same cards come to him again after a rewind, whatever the order, and never another's (C-5)."""
        return ["attack", attacker, 1 + sum(1 for a in self.attacks if a["attacker"] == attacker)]

    @staticmethod
    def slot_of(attack: Mapping[str, Any]) -> list[Any]:
        """The slot an attack was dealt in (attacks recorded before 2026-11-26: ``["attack", number]``)."""
        return list(attack.get("slot") or ["attack", attack["number"]])

    def attack_public(self, attack: Mapping[str, Any]) -> bool:
        """Shown, now or before a rewind (the same slot deals the same cards, C-7): public for good (C-8)."""
        return bool(attack["shown"]) or self.seen_slot(self.slot_of(attack))  # type: ignore[attr-defined]

    def latest_unshown(self, seat: str) -> int | None:
        return next((a["number"] for a in reversed(self.attacks)
                     if seat in (a["dealer"], HOUSE) and not self.attack_public(a)), None)

    def show_attack(self, seat: str, number: int | None, actor: str) -> None:
        number = self.latest_unshown(seat) if number is None else number
        if number is None:
            raise RuleViolation("no attack of yours waits to be shown in this combat", ruling="PU-5")
        attack = self.verify_show(seat, number)
        self._attack_shown(number=number, cards=attack["cards"], result=attack["result"],  # type: ignore[attr-defined]
                           actor=actor)

    def verify_effect(self, seat: str, number: object, effect: object) -> str:
        self._house(seat, "records an attack's effect")
        if getattr(self, "was_overturned", False):  # the kernel's (C-6)
            raise RuleViolation("this combat was overturned: nothing it did stands, so no effect is recorded",
                                ruling="C-6")
        attack = self._attack(number)
        if not self.attack_public(attack) and self.phase != "settled":
            raise RuleViolation(f"attack {number} is not shown yet", ruling="C-5")
        if attack["effect"] is not None:
            raise RuleViolation(f"attack {number}'s effect is recorded already", ruling="PU-5")
        return clean_text(effect, "an effect", max_length=500, ruling="PU-5")

    def record_effect(self, seat: str, number: int | None, effect: object, actor: str) -> None:
        if number is None:
            self._house(seat, "records an attack's effect")  # a player is refused as such, not told of attacks
            # the latest the House may record an effect for, by the check that refuses one: the same attacks the
            # legal actions list as the effect's choices
            number = next((a["number"] for a in reversed(self.attacks)
                           if passes(self.verify_effect, seat, a["number"], "x")), None)
            if number is None:
                raise RuleViolation("no shown attack waits for its effect in this combat", ruling="PU-5")
        self._effect_recorded(number=number, effect=self.verify_effect(seat, number, effect),  # type: ignore[attr-defined]
                              actor=actor)

    def verify_end(self, seat: str, reason: object) -> str:
        self._house(seat, "ends a combat")
        if self.phase == "settled":
            raise RuleViolation("this combat has ended", ruling="PU-5")
        return clean_text(reason or "", "a reason", max_length=500, ruling="PU-5", required=False)

    def end(self, seat: str, reason: object, actor: str) -> None:
        text = self.verify_end(seat, reason)
        if self.abandons_a_draw():  # type: ignore[attr-defined]  # C-10: ended before a draw the seeds given already fix
            self._draw_abandoned(**self.would_be_draws(), actor=actor)  # type: ignore[attr-defined]
        self._ended(reason=text, actor=actor)  # type: ignore[attr-defined]

    def draw_to_come(self) -> bool:
        """C-10: a draw the seeds given fix is still to come: the first deal (the kernel's case), or a player's
        attack up next (``next_known_draw``)."""
        return bool(super().draw_to_come()) or self.next_known_draw() is not None  # type: ignore[misc]

    def next_known_draw(self) -> dict[str, Any] | None:
        """C-9, C-10: the deal a combat ended now would skip, when the House can already compute it. Once the
        first deal is made, every draw until the House's next choice comes from seeds all given: a player's
        attack that is up next is dealt from a shuffle the House knows (its next choice, a House attack or the
        next cycle, waits for the players' fresh seed, so it does not). Ending the combat there records that
        deal for every seat to see: its shuffle, and the cut drawn for the slot (a player who leaves the cut
        out gets it) with the 7 cards after it. None when nothing known is skipped."""
        attacker = self.up()
        if not self.stages_apply() or self.pending is not None or attacker is None \
                or self.controller(attacker) == HOUSE:
            return None
        slot = self.draw_slot(self.attack_slot(attacker))
        hand = self.draw_hand(slot, None, None, self.controller(attacker))  # type: ignore[attr-defined]
        record: dict[str, Any] = self.abandoned_draws([(slot, rules.DECK)])[0]  # type: ignore[attr-defined]
        record.update(cut=hand["cut"], cut_by=hand["cut_by"], cards=hand["cards"])
        return record

    def would_be_draws(self, **inputs: Any) -> dict[str, Any]:
        """C-10: the first deals the combat would have made (the surprise deal and the first initiative), or,
        once dealt, the player's attack up next."""
        if (known := self.next_known_draw()) is not None:
            return {"draws": [known]}
        draws = self.abandoned_draws([(["surprise"], rules.DECK),  # type: ignore[attr-defined]
                                      (["initiative", 1], rules.DECK)])
        # the surprise deal's cut is the House's, drawn for the slot (C-9, PU-7)
        k = derive_die(self.secret_seed, self.side_seeds(), ["surprise", "cut"],  # type: ignore[attr-defined]
                       len(rules.DECK) - 1)
        draws[0].update(cut=k, cards=rules.cut(draws[0]["order"], k)[:rules.HAND])
        return {"draws": draws}

    def close_abandoned(self, reason: str, actor: str) -> None:
        """C-10: an abandoned combat ends with the House's reason (its ``Ended`` event)."""
        self._ended(reason=reason, actor=actor)  # type: ignore[attr-defined]
