"""Unit tests run the application on eventsourcing's in-memory store: rules only, no I/O."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

import pytest

from domain.application import StakesApplication
from domain.seats import Seat
from domain.systems.penny_ante import economy
from tests.drivers import Driver

HOUSE = Seat.house()
ILSE = Seat("ilse")
TOMAS = Seat("tomas")


def new_app() -> Driver:
    """The application on the in-memory store, driven one use case per call (``tests/drivers.py``)."""
    return Driver(StakesApplication(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}))


@dataclass
class Table:
    app: Driver
    campaign_id: UUID

    def character(self, seat: str):
        return economy.character(self.app.application, self.app.campaign(self.campaign_id), seat)

    def house(self):
        return economy.house(self.app.application, self.app.campaign(self.campaign_id))

    def event_count(self) -> int:
        return self.app.recorder.max_notification_id() or 0


@pytest.fixture
def app() -> Driver:
    return new_app()


@pytest.fixture
def table(app: Driver) -> Table:
    """A Penny Ante campaign (starting pile 30) with Ilse and Tomas seated."""
    campaign_id = app.create_campaign("Ninjas of the Jade Court", "penny-ante", {"starting_pile": 30})
    app.add_player(campaign_id, HOUSE, "ilse", "Ilse Varn", "Whip Smart")
    app.add_player(campaign_id, HOUSE, "tomas", "Brother Tomas", "Love Conquers All")
    return Table(app, campaign_id)
