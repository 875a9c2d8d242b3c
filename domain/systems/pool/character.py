"""A Pool character: description, pool of dice, traits and moves (PL-1, PL-5, PL-6)."""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate, event

from domain.errors import RuleViolation
from domain.systems.pool import rules
from domain.text import clean_text


class PoolCharacter(Aggregate):
    @staticmethod
    def create_id(campaign_id: UUID, seat: str, **_: Any) -> UUID:  # type: ignore[override]
        return uuid5(campaign_id, f"character/{seat}")  # the same seat, the same stream, whatever the system

    @event("Created")
    def __init__(self, campaign_id: UUID, seat: str, name: str, description: str, pool: int, traits: dict[str, int],
                 actor: str) -> None:
        self.campaign_id = campaign_id
        self.seat = seat
        self.name = name
        self.description = description
        self.traits = dict(traits)
        self.moves: dict[str, int] = {}
        self.pool = pool - rules.creation_cost(traits)
        self.help_offer: dict[str, Any] | None = None

    @classmethod
    def create(cls, campaign_id: UUID, seat: str, name: str, description: str, pool: int,
               traits: dict[str, Any], actor: str) -> PoolCharacter:
        """PL-1: a description of at most 50 words; traits bought at 2, 5 or 10 dice; two dice left at least."""
        described = rules.description(description)
        bought: dict[str, int] = {}
        for raw, value in (traits or {}).items():
            name_ = rules.trait_name(raw, described)
            if name_.casefold() in {n.casefold() for n in bought}:
                raise RuleViolation(f"the trait {name_!r} is named twice", ruling="PL-1")
            bought[name_] = rules.rating(value)
        cost = rules.creation_cost(bought)
        if pool - cost < rules.FLOOR:
            raise RuleViolation(f"these traits cost {cost} dice of {pool}; at least 2 must remain", ruling="PL-1")
        return cls(campaign_id=campaign_id, seat=seat, name=name, description=described, pool=pool, traits=bought,
                   actor=actor)

    def _trait(self, name: str) -> str | None:
        wanted = " ".join(name.split()).casefold()
        return next((t for t in self.traits if t.casefold() == wanted), None)

    def _spend(self, cost: int, what: str, ruling: str) -> None:
        if self.pool - cost < rules.FLOOR:
            raise RuleViolation(f"{what} costs {cost} dice and {self.name} has {self.pool}; at least 2 must remain",
                                ruling=ruling)

    # -- PL-5: advancement at any time --------------------------------------------------------------
    def raise_trait(self, name: str, actor: str, new: bool | None = None) -> None:
        """A new trait starts at +1; an existing one rises one step; the cost escalates (PL-5).

        ``new``: True to buy only a new trait, False to raise only an existing one, None for either.
        """
        known = self._trait(name)
        if new is True and known is not None:
            raise RuleViolation(f"{self.name} already has {known}; raise it instead", ruling="PL-5")
        if new is False and known is None:
            raise RuleViolation(f"{self.name} has no trait {name!r} to raise; buy it first", ruling="PL-5")
        if known is None:
            new_name, new_rating = clean_text(name, "a trait's name", max_length=60, ruling="PL-5", name=True), 1
        else:
            if self.traits[known] == 3:
                raise RuleViolation(f"{known} is already at +3, the highest rating", ruling="PL-5")
            new_name, new_rating = known, self.traits[known] + 1
        others = [r for t, r in self.traits.items() if t != known]
        cost = rules.step_cost(new_rating, others)
        self._spend(cost, f"{new_name} at +{new_rating}", "PL-5")
        self._trait_raised(name=new_name, rating=new_rating, cost=cost, actor=actor)

    @event("TraitRaised")
    def _trait_raised(self, name: str, rating: int, cost: int, actor: str) -> None:
        self.traits[name] = rating
        self.pool -= cost

    def cash_in(self, name: str, actor: str) -> None:
        """PL-5: the trait is erased and its rating joins the pool."""
        known = self._trait(name)
        if known is None:
            raise RuleViolation(f"{self.name} has no trait {name!r}", ruling="PL-5")
        self._cashed_in(name=known, rating=self.traits[known], actor=actor)

    @event("TraitCashedIn")
    def _cashed_in(self, name: str, rating: int, actor: str) -> None:
        del self.traits[name]
        self.pool += rating

    def buy_move(self, name: str, cost: int, actor: str) -> None:
        """PL-6: a move bought with dice at 2, 5 or 10, as the table agrees."""
        name = clean_text(name, "a move's name", max_length=80, ruling="PL-6", name=True)
        if isinstance(cost, bool) or cost not in rules.MOVE_COSTS:
            raise RuleViolation(f"a move costs 2, 5 or 10 dice, not {cost!r}", ruling="PL-6")
        if name.casefold() in {m.casefold() for m in self.moves}:
            raise RuleViolation(f"{self.name} already has the move {name!r}", ruling="PL-6")
        self._spend(cost, f"the move {name!r}", "PL-6")
        self._move_bought(name=name, cost=cost, actor=actor)

    @event("MoveBought")
    def _move_bought(self, name: str, cost: int, actor: str) -> None:
        self.moves[name] = cost
        self.pool -= cost

    def rating_of(self, trait: str | None) -> tuple[str | None, int]:
        if not trait:
            return None, 0
        known = self._trait(trait)
        if known is None:
            raise RuleViolation(f"{self.name} has no trait {trait!r}", ruling="PL-2")
        return known, self.traits[known]

    # -- PL-7: help ---------------------------------------------------------------------------------
    def offer_help(self, to: str, dice: int, actor: str) -> None:
        """The helper's own consent: he puts dice at the roller's disposal for the next roll, keeping two."""
        if to == self.seat:
            raise RuleViolation("a character does not help himself", ruling="PL-7")
        if isinstance(dice, bool) or not isinstance(dice, int) or dice < 1:
            raise RuleViolation("a helper gives at least one die", ruling="PL-7")
        if self.pool - dice < rules.FLOOR:
            raise RuleViolation(f"{self.name} gives at most {self.pool - rules.FLOOR} dice, keeping two", ruling="PL-7")
        self._help_offered(to=to, dice=dice, actor=actor)

    @event("HelpOffered")
    def _help_offered(self, to: str, dice: int, actor: str) -> None:
        self.help_offer = {"to": to, "dice": dice}

    def offered_to(self, seat: str) -> int:
        offer = getattr(self, "help_offer", None)
        return offer["dice"] if offer and offer["to"] == seat else 0

    @event("HelpUsed")
    def use_help(self, roll_id: str, lost: int, actor: str) -> None:
        """The helped roll is made: the helper gets his dice back, less the 5s and 6s charged to them (PL-7)."""
        self.help_offer = None
        self.pool -= lost

    # -- what rolls do to the pool (PL-3, PL-4, PL-7, PL-8) ------------------------------------------
    @event("DiceLost")
    def lose(self, roll_id: str, count: int, actor: str) -> None:
        self.pool -= count

    @event("DiceGained")
    def gain(self, roll_id: str, count: int, why: str, actor: str) -> None:
        self.pool += count
