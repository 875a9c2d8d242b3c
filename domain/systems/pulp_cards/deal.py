"""A Pulp deal: one standard or resistance deal (PU-2 … PU-4, PU-7, PU-8), a unit of resolution (C-1).

The dealer (a player for his character, the House for a character of its own) sees the cards; every other
seat sees only that a deal was made, until the dealer shows it (C-5). Showing settles it and reveals the
secret seed, so anyone can recompute it (C-4). The House may overturn a shown deal (C-6).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate, event

from domain.errors import RuleViolation, passes
from domain.fairness import commitment
from domain.kernel.resolution import HOUSE
from domain.systems.pulp_cards import rules
from domain.systems.pulp_cards.dealing import Dealing
from domain.text import clean_text

KINDS = ("standard", "resistance")
SLOT = ("deal",)


class PulpDeal(Dealing, Aggregate):
    UNIT_LABEL = "deal"
    SEED_SIDES = ("dealer",)
    SETTLED_REWIND = "a deal is not rewound; the House overturns it once it is shown"

    @event("Dealt")
    def __init__(self, campaign_id: UUID, adventure: int, seat: str, character: str, kind: str, difficulty: int,
                 seed_hash: str, secret_seed: str, seed: str | None, table: bool, hand: dict[str, Any],
                 result: dict[str, Any], actor: str) -> None:
        self.campaign_id, self.adventure = campaign_id, adventure
        self.seat, self.character, self.kind, self.difficulty = seat, character, kind, difficulty
        self.seed_hash, self.secret_seed, self.table = seed_hash, secret_seed, table
        self.sides = {"dealer": {"seats": [seat], "seed": seed}}
        self.rolls: list[dict[str, Any]] = []
        self.record_hand(hand)
        self.cards = list(hand["cards"])
        self.cut, self.cut_by = hand["cut"], hand["cut_by"]
        self.result = dict(result)
        self.phase = "dealt"
        self.overturned: dict[str, Any] | None = None

    @classmethod
    def deal(cls, *, campaign_id: UUID, adventure: int, seat: str, character: str, kind: object,
             difficulty: object, cut: object, seed: str | None, secret_seed: str, table: bool,
             entered: Sequence[str] | None, actor: str) -> PulpDeal:
        """Shuffle, cut, deal seven (PU-2, PU-7), judged at once and recorded (C-3)."""
        if kind not in KINDS:
            raise RuleViolation(f"a deal is 'standard' or 'resistance', not {kind!r}", ruling="PU-4")
        diff = rules.difficulty(difficulty)
        seed = clean_text(seed, "a seed", max_length=200, ruling="C-4", required=False) if seed else None
        probe = cls.__new__(cls)  # the kernel's helpers, before the event exists
        probe.table, probe.secret_seed = table, secret_seed
        probe.sides = {"dealer": {"seats": [seat], "seed": seed}}
        if seat == HOUSE and seed and not table:
            raise RuleViolation("the House runs the service and can know its secret seed: it adds no seed of its "
                                "own to a deal", ruling="C-9")
        hand = probe.draw_hand(SLOT, cut, entered, seat)
        return cls(campaign_id=campaign_id, adventure=adventure, seat=seat, character=character, kind=kind,
                   difficulty=diff, seed_hash=commitment(secret_seed), secret_seed=secret_seed, seed=seed,
                   table=table, hand=hand, result=rules.judge(hand["cards"], diff), actor=actor)

    @property
    def settled(self) -> bool:
        return self.phase == "settled"

    # -- C-5: showing ---------------------------------------------------------------------------------
    def verify_show(self, seat: str) -> None:
        if self.phase != "dealt":
            raise RuleViolation("this deal is shown already", ruling="C-5")
        if seat not in (self.seat, HOUSE):
            raise RuleViolation("only the dealer (or the House) shows a deal", ruling="C-5")

    def show_deal(self, seat: str, actor: str) -> None:
        self.verify_show(seat)
        self._shown(actor=actor)

    @event("Shown")
    def _shown(self, actor: str) -> None:
        self.phase = "settled"
        self.mark_seen(SLOT, {"slot": list(SLOT), "cards": self.cards, "result": self.result})

    # -- C-6: overturn (``Dealing.overturn``) -----------------------------------------------------------
    OPEN_OVERTURN = "only a shown deal is overturned"
    NOUN = "deal"

    @event("Overturned")
    def _overturned(self, reason: str, actor: str) -> None:
        self.overturned = {"reason": reason, "void": True}

    # -- what a seat may do and see --------------------------------------------------------------------
    def legal_actions(self, seat: str) -> list[dict[str, Any]]:
        return [{"action": "show"}] if passes(self.verify_show, seat) else []

    def view_for(self, seat: str, reveal: bool = False, settled: bool = False) -> dict[str, Any]:
        sees = self.revealed or reveal or seat == self.seat or (seat == HOUSE and self.seat == HOUSE)
        view: dict[str, Any] = {
            "kind": self.kind, "adventure": self.adventure, "dealer": self.seat, "character": self.character,
            "difficulty": self.difficulty, "phase": self.phase, "table": self.table, "seed_hash": self.seed_hash,
            "seed": self.seed_of("dealer"), "secret_seed": self.secret_seed if self.settled or settled else None,
            "overturned": copy.deepcopy(self.overturned), "hidden": not sees,
            "cut": self.cut if sees else None, "cut_by": self.cut_by if sees else None,
            "cards": list(self.cards) if sees else None, "shown_as": rules.faces(self.cards) if sees else None,
            "result": dict(self.result, reads=rules.outcome_words(self.kind, self.result)) if sees else None,
        }
        return view
