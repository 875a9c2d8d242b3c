"""Coin Flip's rules (CF-1 … CF-5): a minimal unit of resolution built on the kernel alone.

The rulings of this toy system (its own, numbered like the real systems'):

* CF-1 The House opens a flip during an adventure (C-1) for one to four players; the first one listed calls.
* CF-2 Each player in the flip seeds or passes (C-4, C-10); the coin is tossed by the service in the same
  write as the last of them, and stays hidden from every seat until the flip is settled (C-5).
* CF-3 The caller calls heads or tails once the coin is tossed.
* CF-4 The House settles the flip after the call: the coin is shown, and the caller wins when he called it.
  The sheet counts each player's wins and losses as caller.
* CF-5 A rewind goes back to the call at the earliest: the coin, once tossed, stays tossed (C-7). A settled
  flip is voided with a reason (C-6), and names no new winner: the coin decides.

The kernel does the rest: seeds and passes (``give_input``), the draw at the last input (C-10), the die from
the slot (C-7), ``verify`` (C-4), the House's abandon with the would-be draw shown (C-10), the rewind checks
(C-6), and the shared commands (seating, adventures, rewind, overturn).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Literal
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate, event
from pydantic import BaseModel, ConfigDict, Field

from domain.errors import NotPermitted, RuleViolation, passes
from domain.fairness import commitment
from domain.kernel import common
from domain.kernel.commands import Command, Context, Handlers
from domain.kernel.registry import RuleSystem
from domain.kernel.resolution import HOUSE, Resolution
from domain.seats import player_handle
from domain.text import clean_text

if TYPE_CHECKING:
    from domain.application import StakesApplication
    from domain.campaign import Campaign

FACES = ("heads", "tails")  # the coin is a die with two faces: 1 is heads, 2 is tails
SLOT = ["coin"]  # C-7: the toss fills one slot, whatever happens before or after it
MAX_PLAYERS = 4


# -- the character --------------------------------------------------------------------------------------------
class CoinCharacter(Aggregate):
    """A player's character: a name. The sheet's wins and losses are read from the flips (``adapters``)."""

    @staticmethod
    def create_id(campaign_id: UUID, seat: str, **_: Any) -> UUID:  # type: ignore[override]
        return uuid5(campaign_id, f"character/{seat}")

    @event("Created")
    def __init__(self, campaign_id: UUID, seat: str, name: str, actor: str) -> None:
        self.campaign_id, self.seat, self.name = campaign_id, seat, name


# -- the unit of resolution -------------------------------------------------------------------------------------
class CoinFlip(Resolution, Aggregate):
    """One toss of a coin (CF-1 … CF-5). Its sides are its players, one seat each; each may seed (C-4)."""

    REWOUND = ("phase", "call")  # C-6: what a rewind restores; the toss itself stays (CF-5, C-7)
    DIE_FACES = len(FACES)  # verify derives a die a rewind took back with these faces (C-7, C-8)
    SEEDS_CLOSED = "a player seeds or passes before the toss, and not after"
    SEED_GIVEN = "you have seeded or passed already"
    SETTLED_REWIND = "a settled flip is not rewound; void it instead"
    overturned: str | None = None
    abandoned: str | None = None

    @event("Opened")
    def __init__(self, campaign_id: UUID, adventure: int, seats: list[str], seed_hash: str, secret_seed: str,
                 actor: str) -> None:
        self.campaign_id, self.adventure = campaign_id, adventure
        self.seed_hash, self.secret_seed = seed_hash, secret_seed
        self.table = False  # the service tosses; a table coin would be C-3's business
        self.seats = list(seats)
        self.SEED_SIDES = tuple(seats)  # type: ignore[misc]  # every player in the flip seeds, in this order (C-4)
        self.sides = {seat: {"seats": [seat], "seed": None} for seat in seats}
        self.rolls: list[dict[str, Any]] = []
        self.phase = "seeding"
        self.coin: str | None = None
        self.call: str | None = None

    @classmethod
    def open(cls, *, campaign_id: UUID, adventure: int, seats: list[str], secret_seed: str, actor: str) -> CoinFlip:
        if not 1 <= len(seats) <= MAX_PLAYERS or len(set(seats)) != len(seats):
            raise RuleViolation(f"a flip takes 1 to {MAX_PLAYERS} different players", ruling="CF-1")
        if not secret_seed:
            raise ValueError("a flip needs the secret the adapters drew for it (C-4)")
        return cls(campaign_id=campaign_id, adventure=adventure, seats=seats, seed_hash=commitment(secret_seed),
                   secret_seed=secret_seed, actor=actor)

    @property
    def caller(self) -> str:
        return self.seats[0]

    @property
    def settled(self) -> bool:
        return self.phase == "settled"

    @property
    def won(self) -> bool | None:
        """Whether the caller called the coin; None until the flip is settled by a call (CF-4)."""
        return None if not self.settled or self.call is None else self.call == self.coin

    def seed_phase_open(self) -> bool:
        return self.phase == "seeding"

    # -- CF-2: seeds and passes, then the toss in the same write (C-4, C-10) ------------------------------------
    def _player(self, seat: str) -> None:
        if seat not in self.sides:
            raise NotPermitted(f"{seat} is not in this flip", ruling="CF-2")

    def add_seed(self, seat: str, seed: object, actor: str) -> None:
        self._player(seat)
        self.give_input(seat, seed, actor)

    def pass_seed(self, seat: str, actor: str) -> None:
        self._player(seat)
        self.give_input(seat, None, actor)

    @event("SeedAdded")
    def _seed_added(self, side: str, seed: str, actor: str) -> None:
        self.put_seed(side, seed)

    @event("SeedPassed")
    def _seed_passed(self, side: str, actor: str) -> None:
        self.put_pass(side)

    def draw_at_last_input(self, actor: str) -> None:
        """C-10: the kernel calls this in the write of the last seed or pass."""
        value = self.draw_dice([SLOT], None, faces=len(FACES))[0]
        self._tossed(slot=list(SLOT), value=value, actor=actor)

    @event("Tossed")
    def _tossed(self, slot: list[Any], value: int, actor: str) -> None:
        self.record_result(slot, value, entered=False, faces=len(FACES))
        self.coin = FACES[value - 1]
        self.phase = "tossed"

    def mid_move(self) -> bool:
        """Every seed or pass is in and the coin is not tossed yet: the last input's own write (C-6, C-10)."""
        return self.phase == "seeding" and bool(self.seeders()) and not self.owed_inputs() and not self.rolls

    # -- CF-3: the call -------------------------------------------------------------------------------------------
    def verify_call(self, seat: str, call: object) -> str:
        if self.phase != "tossed":
            raise RuleViolation("the caller calls once the coin is tossed, and once", ruling="CF-3")
        if seat != self.caller:
            raise NotPermitted(f"only {self.caller} calls this flip", ruling="CF-3")
        if call not in FACES:
            raise RuleViolation("call heads or tails", ruling="CF-3")
        return str(call)

    def call_it(self, seat: str, call: object, actor: str) -> None:
        self._called(call=self.verify_call(seat, call), actor=actor)

    @event("Called")
    def _called(self, call: str, actor: str) -> None:
        self.call, self.phase = call, "called"

    # -- CF-4: the House settles, and the coin is shown ---------------------------------------------------------------
    def verify_settle(self) -> None:
        if self.phase != "called":
            raise RuleViolation("the House settles a flip once the caller has called", ruling="CF-4")

    def settle(self, actor: str) -> None:
        self.verify_settle()
        self._settled(caller=self.caller, coin=self.coin, won=self.call == self.coin, actor=actor)

    @event("Settled")
    def _settled(self, caller: str, coin: str, won: bool, actor: str) -> None:
        self.phase = "settled"

    # -- CF-5, C-6: rewind and void ---------------------------------------------------------------------------------
    def verify_rewind(self, to_step: object, past: Any, reason: object) -> tuple[str, dict[str, Any]]:
        """The kernel's checks (C-6), then CF-5: never back before the toss. The kernel records the rewind."""
        checked = super().verify_rewind(to_step, past, reason)
        if not past.rolls:
            raise RuleViolation(f"step {to_step} comes before the toss: a rewind goes back to the call at the "
                                "earliest, the coin stays as it fell (undo is not a reroll)", ruling="CF-5")
        return checked

    @event("Rewound")
    def _rewound(self, to_step: int, reason: str, state: dict[str, Any], actor: str) -> None:
        self.restore(state)

    def verify_overturn(self, reason: object) -> str:
        text = clean_text(reason, "a reason", max_length=500, ruling="C-6")
        if not self.settled or self.abandoned is not None:
            raise RuleViolation("only a flip settled by its call is voided; an open one is rewound or abandoned",
                                ruling="C-6")
        if self.overturned is not None:
            raise RuleViolation("this flip is voided already", ruling="C-6")
        return text

    def void(self, reason: object, actor: str) -> None:
        self._overturned(reason=self.verify_overturn(reason), caller=self.caller, won=self.won, actor=actor)

    @event("Overturned")
    def _overturned(self, reason: str, caller: str, won: bool, actor: str) -> None:
        self.overturned = reason

    # -- C-10: the House abandons an open flip ----------------------------------------------------------------------
    def would_be_draws(self, **inputs: Any) -> dict[str, Any]:
        return {"draws": self.abandoned_dice([SLOT], faces=len(FACES))}

    @event("DrawAbandoned")
    def _draw_abandoned(self, draws: list[dict[str, Any]], actor: str) -> None:
        """C-10: the toss the inputs given fixed, shown to every seat (kept for the board and ``verify``)."""
        self.keep_would_have_drawn(draws)

    def close_abandoned(self, reason: str, actor: str) -> None:
        self._abandoned(reason=reason, actor=actor)

    @event("Abandoned")
    def _abandoned(self, reason: str, actor: str) -> None:
        self.phase, self.abandoned = "settled", reason

    # -- C-5: what each seat sees and may do ----------------------------------------------------------------------------
    def view_for(self, seat: str, reveal: bool = False, settled: bool = False) -> dict[str, Any]:
        """The coin and the secret are nobody's until the flip is settled (C-4, C-5); the rest is public. The
        replay asks for a step of a flip revealed since (``reveal``, ``settled``)."""
        shown = self.revealed or reveal or settled
        return {"adventure": self.adventure, "phase": self.phase, "caller": self.caller, "players": list(self.seats),
                "seeds": {s: self.seed_of(s) for s in self.seats}, "seed_hash": self.seed_hash,
                "tossed": bool(self.rolls), "call": self.call,
                "coin": self.coin if shown else None, "won": self.won,
                "secret_seed": self.secret_seed if shown else None,
                "voided": self.overturned, "abandoned": self.abandoned}

    def legal_actions(self, seat: str) -> list[dict[str, Any]]:
        """Built from the very checks that refuse the moves: listed is accepted, unlisted is refused."""
        out: list[dict[str, Any]] = []
        if seat in self.sides and passes(self.verify_may_seed, seat):
            out += [{"action": "seed"}, {"action": "pass"}]
        calls = [c for c in FACES if passes(self.verify_call, seat, c)]
        if calls:
            out.append({"action": "call", "choices": calls})
        if seat == HOUSE and passes(self.verify_settle):
            out.append({"action": "settle"})
        return [*out, *self.abandon_actions(seat)]


# -- commands ---------------------------------------------------------------------------------------------------
class OpenFlip(Command):
    """Open a flip for one to four players; the first one calls (CF-1)."""

    verb: ClassVar[str] = "open-flip"
    who = "house"
    ruling = "CF-1"
    route = "POST /flips"
    status = 201
    answer = "unit"
    cli = "flip open"
    cli_arguments = ("players",)
    draws_secret = True  # C-4: the flip's secret, committed in its opening event

    players: list[str] = Field(min_length=1, max_length=MAX_PLAYERS, description="The players; the first calls.")


class _Move(Command):
    units = (CoinFlip,)
    answer = "unit"


class Seed(_Move):
    """Add your seed text before the toss (C-4)."""

    who = "player"
    ruling = "C-4"
    cli = "flip seed"
    cli_arguments = ("seed",)
    action: Literal["seed"] = "seed"
    seed: str = Field(max_length=200, description="Your seed text.")


class Pass(common.Pass):
    """Pass: add no seed text (C-10)."""

    units = (CoinFlip,)
    cli = "flip pass"


class Call(_Move):
    """Call heads or tails (CF-3)."""

    who = "player"
    ruling = "CF-3"
    cli = "flip call"
    cli_arguments = ("call",)
    action: Literal["call"] = "call"
    call: Literal["heads", "tails"] = Field(description="heads or tails.")


class Settle(_Move):
    """Settle the flip: the coin is shown (CF-4)."""

    who = "house"
    ruling = "CF-4"
    cli = "flip settle"
    action: Literal["settle"] = "settle"


class Abandon(common.Abandon):
    """Abandon the open flip, with a reason; a toss the inputs already fixed is shown to every seat (C-10)."""

    units = (CoinFlip,)
    cli = "flip abandon"


# -- handlers ---------------------------------------------------------------------------------------------------
handles = Handlers()


@handles(OpenFlip)
def open_flip(app: StakesApplication, ctx: Context, command: OpenFlip) -> UUID:
    campaign = app.campaign(ctx.campaign_id)
    seats = [player_handle(s) for s in command.players]
    for seat in seats:
        campaign.character_id(seat)  # seated here, or NotFound
    flip = CoinFlip.open(campaign_id=campaign.id, adventure=campaign.adventure, seats=seats,
                         secret_seed=ctx.secret or "", actor=ctx.actor.name)
    app.save(flip)  # the kernel refuses it outside an adventure and registers it with the campaign (C-1)
    return flip.id


@handles(Seed)
def seed(app: StakesApplication, ctx: Context, campaign: Campaign, flip: CoinFlip, command: Seed) -> list[Any]:
    flip.add_seed(ctx.actor.name, command.seed, ctx.actor.name)
    return [flip]


@handles(Pass)
def pass_(app: StakesApplication, ctx: Context, campaign: Campaign, flip: CoinFlip, command: Pass) -> list[Any]:
    flip.pass_seed(ctx.actor.name, ctx.actor.name)
    return [flip]


@handles(Call)
def call(app: StakesApplication, ctx: Context, campaign: Campaign, flip: CoinFlip, command: Call) -> list[Any]:
    flip.call_it(ctx.actor.name, command.call, ctx.actor.name)
    return [flip]


@handles(Settle)
def settle(app: StakesApplication, ctx: Context, campaign: Campaign, flip: CoinFlip, command: Settle) -> list[Any]:
    flip.settle(ctx.actor.name)
    return [flip]


handles(Abandon)(common.abandon)  # the kernel's abandon (C-10)


# -- the system -------------------------------------------------------------------------------------------------
class CoinFlipSettings(BaseModel):
    """Coin Flip has no settings."""

    model_config = ConfigDict(extra="forbid", title="CoinFlipSettings")


class CoinFlipSystem(RuleSystem):
    id = "coin-flip"
    name = "Coin Flip"
    package = "coin_flip"
    modules = {"adapters": "tests.toy_system.adapters"}  # kept outside the tree, so its edge says where it is
    settings_model = CoinFlipSettings
    aggregates = (CoinCharacter, CoinFlip)
    resolutions = (CoinFlip,)
    handlers = handles
    visibility = {  # C-4, C-5: the secret and the coin are nobody's until the flip is settled
        "CoinFlip.Opened": {"fields": {"secret_seed": []}, "until": "settled"},
        "CoinFlip.Tossed": {"fields": {"value": []}, "until": "settled"},
    }

    def settings(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        if raw:
            raise RuleViolation(f"Coin Flip has no settings, not {', '.join(sorted(raw))}", ruling="C-1")
        return {}

    def new_character(self, app: StakesApplication, campaign: Campaign, seat: str, name: str, command: Any,
                      actor: str) -> CoinCharacter:
        return CoinCharacter(campaign_id=campaign.id, seat=seat, name=name, actor=actor)

    rewinds = (CoinFlip,)  # C-6: the kernel's rewind; a flip spends nothing outside it

    def overturn(self, app: StakesApplication, ctx: Context, campaign: Campaign, unit: Any,
                 command: common.Overturn) -> list[Any]:
        """CF-5: a flip names no new winner, the coin decides (the shared ``Overturn`` has none): it is voided."""
        unit.void(command.reason, ctx.actor.name)
        return [unit]
