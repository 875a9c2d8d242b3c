"""What a Pulp deal and a Pulp combat share: drawing a hand for a slot, with its cut, and proving it (PU-2, PU-7,
C-3, C-4, C-7, C-8).

Built on the resolution kernel: the shuffle of each slot comes from ``Resolution.shuffle`` (or the cards
entered at the table, C-3) and is recorded with ``record_shuffle``. The cut is the dealer's input (PU-7):
when he gives none, it is drawn for the slot like a die of 13 faces (``[*slot, "cut"]``). A slot dealt
before a rewind keeps its cut, so the same cards come again (C-7). ``verify`` recomputes every shuffle,
every drawn cut and every hand from the revealed seeds (C-4).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from domain.errors import RuleViolation
from domain.fairness import derive_die, derive_shuffle
from domain.kernel.resolution import HOUSE, Resolution, slot_key
from domain.systems.pulp_cards import rules
from domain.text import clean_text


class Dealing(Resolution):
    """Mixin for Pulp's units (after ``Resolution``, before ``Aggregate``)."""

    TABLE_DICE = "this campaign deals table cards"
    #: The dealer's cut per slot, kept through rewinds (C-7); the hands every seat has seen (C-8).
    cuts: Mapping[str, int] = MappingProxyType({})
    seen: Mapping[str, dict[str, Any]] = MappingProxyType({})
    hands: Sequence[dict[str, Any]] = ()
    #: C-7: a player's own inputs to a hand he dealt (a combat attack's target and difficulty), per slot, kept
    #: through rewinds: he has seen those cards, so they come again with the inputs they had, never chosen anew.
    dealt_with: Mapping[str, dict[str, Any]] = MappingProxyType({})

    def kept_through_rewind(self) -> dict[str, Any]:
        """C-7, C-8: the dealer's cuts and inputs and the hands every seat has seen, besides the kernel's seeds and
        shown."""
        return {**super().kept_through_rewind(), "cuts": dict(self.cuts), "seen": dict(self.seen),
                "dealt_with": {k: dict(v) for k, v in self.dealt_with.items()}}

    def dealt_before(self, slot: Sequence[Any]) -> dict[str, Any] | None:
        """The inputs its player dealt ``slot`` with before a rewind (C-7), or None."""
        found = self.dealt_with.get(slot_key(slot))
        return dict(found) if found is not None else None

    def faces_of(self, slot: Sequence[Any]) -> int:
        """A drawn cut (PU-7) is a die of 13 faces, at its deal's slot and ``"cut"``."""
        return len(rules.DECK) - 1 if list(slot)[-1:] == ["cut"] else super().faces_of(slot)

    def draw_hand(self, slot: Sequence[Any], cut: object, entered: Sequence[str] | None,
                  dealer: str) -> dict[str, Any]:
        """The hand ``dealer`` (a seat) deals for ``slot`` as it will be recorded; verify only (PU-2, PU-7, C-3,
        C-7, C-9)."""
        if self.table:
            if cut is not None:
                raise RuleViolation("with table cards the cut is made at the table: enter the cards as dealt",
                                    ruling="C-3")
            if entered is not None:
                rules.verify_hand(entered)
            cards = self.shuffle(slot, rules.DECK, entered)
            return {"slot": list(slot), "cut": None, "cut_by": "table", "deck": None, "cards": cards,
                    "dealer": dealer}
        before = self.cut_before(slot)
        if cut is not None:
            if dealer == HOUSE:
                # C-9: the House runs the service and can know its secret seed; a cut of its choosing, given
                # after the players' seeds, would pick the hand. Its cut is drawn for the slot.
                raise RuleViolation("the House's cut is drawn for the slot, not chosen: leave it out", ruling="C-9")
            k = rules.cut_value(cut)
            if before is not None and before != k:
                # the earlier cut is not spelt out: another seat may have dealt this slot (C-5)
                raise RuleViolation("this deal was cut otherwise before the rewind: leave the cut out and the same "
                                    "cut is made", ruling="C-7")
            by = "dealer"
        elif before is not None:  # the same cut again (C-7), given by its dealer or drawn
            k, by = before, "dealer" if slot_key(slot) in self.cuts else "drawn"
        else:
            k, by = derive_die(self.secret_seed, self.side_seeds(), [*slot, "cut"], len(rules.DECK) - 1), "drawn"
        deck = self.shuffle(slot, rules.DECK, entered)
        return {"slot": list(slot), "cut": k, "cut_by": by, "deck": deck, "cards": rules.cut(deck, k)[:rules.HAND],
                "dealer": dealer}

    def required_for(self, slot: Sequence[Any], seat: str) -> list[Any] | None:
        """C-7: what ``seat`` must deal again in ``slot`` after a rewind (the cards in table mode, else the cut),
        when it may know it: it dealt that hand itself, or every seat saw it (C-5, C-8)."""
        if slot_key(slot) not in self.filled and self.cut_before(slot) is None:
            return None
        before = next((h for h in reversed(self.hands) if list(h["slot"]) == list(slot)), None)
        if slot_key(slot) not in self.seen and (before is None or before.get("dealer") != seat):
            return None
        if self.table:
            found = self.filled.get(slot_key(slot))
            return list(found) if found is not None else None
        cut = self.cut_before(slot)  # the House gives none (C-9): its cut is made again for it
        return [cut] if cut is not None and seat != HOUSE else None

    # -- C-6: a settled unit is overturned (voided); each unit records its own ``Overturned`` -------------
    overturned: dict[str, Any] | None = None  # a unit stored before it could be overturned was not
    #: The refusal for a unit not settled yet, and the unit's name in refusals.
    OPEN_OVERTURN = ""
    NOUN = ""

    def verify_overturn(self, reason: object) -> str:
        text = clean_text(reason, "a reason", max_length=500, ruling="C-6")
        if not self.settled:  # type: ignore[attr-defined]
            raise RuleViolation(self.OPEN_OVERTURN, ruling="C-6")
        if self.overturned:
            raise RuleViolation(f"this {self.NOUN} was overturned already", ruling="C-6")
        return text

    def overturn(self, reason: object, actor: str) -> None:
        """Void it: what it dealt stays in the record and on the sheets, marked void."""
        self._overturned(reason=self.verify_overturn(reason), actor=actor)  # type: ignore[attr-defined]

    def seen_slot(self, slot: Sequence[Any]) -> bool:
        """Whether every seat has seen the hand dealt in ``slot``, before a rewind or since (C-8)."""
        return slot_key(slot) in self.seen

    def cut_before(self, slot: Sequence[Any]) -> int | None:
        """The cut this slot was dealt with before a rewind, given or drawn: it is made again (C-7)."""
        return self.cuts.get(slot_key(slot)) or self.filled.get(slot_key([*slot, "cut"]))

    def record_hand(self, hand: Mapping[str, Any]) -> None:
        """Mutator: record the shuffle (or the table's cards), the cut and the hand (C-3, C-7)."""
        slot = hand["slot"]
        self.record_shuffle(slot, rules.DECK, hand["deck"] if hand["deck"] is not None else hand["cards"],
                            self.table)
        if hand["cut_by"] == "drawn":
            self.record_result([*slot, "cut"], hand["cut"], False, faces=len(rules.DECK) - 1)
        elif hand["cut_by"] == "dealer":
            self._own("cuts").setdefault(slot_key(slot), hand["cut"])
        self.hands = [*self.hands, {k: hand[k] for k in ("slot", "cut", "cut_by", "cards", "dealer") if k in hand}]

    def mark_seen(self, slot: Sequence[Any], shown: Mapping[str, Any]) -> None:
        """Mutator: every seat has seen this hand; it stays public through a rewind (C-8)."""
        self.show([slot])
        self._own("seen")[slot_key(slot)] = dict(shown)

    def seen_before_rewind(self, current: Sequence[Sequence[Any]]) -> list[dict[str, Any]]:
        """Hands every seat saw that a rewind took back: still public, marked so (C-8)."""
        now = {slot_key(s) for s in current}
        return [{**v, "seen_before_the_rewind": True} for k, v in self.seen.items() if k not in now]

    def verify(self) -> dict[str, Any]:
        """C-4: the kernel recomputes every shuffle and drawn cut; each hand is recomputed from them too."""
        report = super().verify()
        if not report["verifiable"]:
            return report
        hands = 0
        for hand in self.hands:
            if hand["cut_by"] == "table":
                continue
            hands += 1
            deck = derive_shuffle(self.secret_seed, self.side_seeds(), hand["slot"], rules.DECK)
            expected = rules.cut(deck, hand["cut"])[:rules.HAND]
            if expected != hand["cards"]:
                report["mismatches"].append({"slot": hand["slot"], "recorded": hand["cards"], "derived": expected})
        report["checked"] += hands
        return report
