"""The commands every system shares (C-1, C-6, C-10): seating players, adventures, undoing a ruling, and
abandoning an open unit.

A system that needs inputs of its own for a shared command subclasses it in its
package (Penny Ante's ``start-adventure`` takes an agreed House pile, PA-3) and
registers its subclass; the campaign's system decides which class validates a
request.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal
from uuid import UUID

from pydantic import Field

from domain.errors import RuleViolation
from domain.kernel.commands import Bool, Command, Context, Int, text

if TYPE_CHECKING:
    from domain.application import StakesApplication
    from domain.campaign import Campaign


class AddPlayer(Command):
    """Seat a player with one character; the answer carries a one-time invite code the player claims for his token."""

    verb: ClassVar[str] = "add-player"
    who = "house"
    ruling = "C-1"
    route = "POST /players"
    status = 201
    answer = "player-added"
    cli = "player add"
    cli_arguments = ("seat",)
    draws_secret = True  # C-10: the seat's first committed secret

    seat: str = text(64, "The player's seat name, e.g. 'ilse'.", examples=["ilse"])
    character: str = text(200, "The character's name.", examples=["Ilse Varn"])


class StartAdventure(Command):
    """Start an adventure; adventures run one at a time."""

    verb: ClassVar[str] = "start-adventure"
    who = "house"
    route = "POST /adventures"
    status = 201
    answer = "adventure"
    cli = "adventure start"
    draws_secret = True  # C-10: a seat of a campaign stored before the scheme gets its first commitment


class EndAdventure(Command):
    """End the running adventure."""

    verb: ClassVar[str] = "end-adventure"
    who = "house"
    route = "POST /adventures/current/end"
    answer = "adventure"
    cli = "adventure end"


class Rewind(Command):
    """Rewind an open unit of resolution to an earlier step; the same dice and cards come again (C-6, C-7)."""

    verb: ClassVar[str] = "rewind"
    who = "house"
    ruling = "C-6"
    route = "POST /challenges/{unit}/rewind"
    answer = "unit"
    cli = "undo"
    cli_arguments = ("unit",)
    cli_options = {"reveal": "--yes"}
    cli_confirm = ("reveal", "C-8")
    lookups = {"unit": "unit"}

    unit: UUID
    to_step: Int = Field(description="The step to go back to (1 is the first event).")
    reason: str = text(500, "Why the ruling is undone (kept in the history).")
    reveal: Bool = Field(False, description="Go ahead even though the rewind puts values every seat saw back "
                         "where they were hidden, where they stay shown to all (C-8). A system whose rewind "
                         "can hide such a value again refuses such a "
                         "rewind without it, naming them (issue 31); in the others every value seen stays "
                         "shown where it is, marked, and a rewind needs no confirmation. A JSON boolean: 1, "
                         "\"yes\" or \"true\" are refused.")


class Overturn(Command):
    """Void a settled result (C-6): it no longer stands, and what it moved is put back.

    A system whose units take a new winner subclasses this with its own typed ``winner`` (issue 30, item 4)."""

    verb: ClassVar[str] = "overturn"
    who = "house"
    ruling = "C-6"
    route = "POST /challenges/{unit}/overturn"
    answer = "unit"
    cli = "overturn"
    cli_arguments = ("unit",)
    lookups = {"unit": "settled-unit"}  # the CLI: left out, the last settled unit (a ruling on a result)

    unit: UUID
    void: Bool = Field(True, description="Void it: the result no longer stands, and what it moved is put back; "
                                         "the only ruling where the system names no new winner, so it may be left "
                                         "out (a JSON boolean: 1, \"yes\" or \"true\" are refused).")
    reason: str = text(500, "Why the result is overturned (kept in the history).")

    def ruled_winner(self) -> str | None:
        """The new winner this overturn names: none here; a system's subclass with a ``winner`` says it."""
        return None

    def verify_ruling(self) -> None:
        """C-6: an overturn names a new winner or voids the result; not both, not neither."""
        if (self.ruled_winner() is None) != self.void:
            raise RuleViolation("an overturn names a new winner, or voids the result (void=true); not both, "
                                "not neither", ruling="C-6")


SHARED: tuple[type[Command], ...] = (AddPlayer, StartAdventure, EndAdventure, Rewind, Overturn)


# -- unit actions every system with multi-party seeds offers (C-10) -----------------------------------------
class Abandon(Command):
    """Abandon this open unit, with a reason: a draw some input already fixed is shown to every seat (C-10)."""

    who = "house"
    ruling = "C-10"
    answer = "unit"
    cli = "abandon"
    cli_arguments = ("reason",)
    action: Literal["abandon"] = "abandon"
    reason: str = text(500, "Why the unit is abandoned (kept in the history, shown to every seat).")


class Pass(Command):
    """Pass: add no seed text, so the draw need not wait for yours (C-10)."""

    who = "player"
    ruling = "C-10"
    answer = "unit"
    action: Literal["pass"] = "pass"


def abandon(app: StakesApplication, ctx: Context, campaign: Campaign, unit: Any, command: Abandon) -> list[Any]:
    """The handler a system registers for its ``Abandon`` (``Resolution.abandon``, C-10): the unit closes,
    so the adventure may end (C-1)."""
    unit.abandon(command.reason, ctx.actor.name)
    return [unit]
