"""A Humanity and Beast table on the in-memory store, for the unit tests (BE-1 … BE-12)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.kernel.commands import Context
from domain.seats import Seat
from domain.systems.beast import commands as cmd
from domain.systems.beast import play
from tests.unit.conftest import new_app

HOUSE, ILSE, TOMAS = Seat.house(), Seat("ilse"), Seat("tomas")


class BeastTable:
    def __init__(self, ilse_humanity: int = 7, cole_humanity: int = 4, cole_willpower: int = 3, **settings: Any):
        self.app = new_app()
        self.cid = self.app.create_campaign("Night of the Beast", "beast", settings)
        self.run(HOUSE, self.app.parse(self.cid, "add-player", {"seat": "ilse", "character": "Ilse",
                                                                "humanity": ilse_humanity}))
        self.run(HOUSE, self.app.parse(self.cid, "add-player", {"seat": "tomas", "character": "Tomas"}))
        self.run(HOUSE, cmd.CreateAntagonist(name="Sheriff Cole", humanity=cole_humanity, willpower=cole_willpower))
        self.app.start_adventure(self.cid, HOUSE)  # units of resolution happen during an adventure (C-1)

    def run(self, seat: Seat, command: Any, secret: str | None = "fixed secret") -> Any:
        return self.app.execute(Context(self.cid, seat, secret), command)

    def act(self, seat: Seat, unit: UUID, **payload: Any) -> Any:
        self.app.application.act(Context(self.cid, seat), unit, payload)
        return self.unit(unit)

    def unit(self, unit: UUID) -> Any:
        return self.app.repository.get(unit)

    def action(self, seat: Seat = ILSE, **inputs: Any) -> Any:
        return self.unit(self.run(seat, cmd.Act(**inputs)))

    def conflict(self, against: str = "Sheriff Cole", seat: Seat = ILSE, **inputs: Any) -> UUID:
        return self.run(seat, cmd.OpenConflict(against=against, **inputs))

    def sheet(self, seat: str) -> dict[str, int]:
        return play.character(self.app.application, self.app.campaign(self.cid), seat).values()

    def cole(self) -> dict[str, int]:
        return play.antagonist(self.app.application, self.app.campaign(self.cid), "Sheriff Cole").values()
