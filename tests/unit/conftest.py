"""Unit tests run the application on eventsourcing's in-memory store: rules only, no I/O."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

import pytest

from domain.application import StakesApplication
from domain.seats import Seat

HOUSE = Seat.house()
ILSE = Seat("ilse")
TOMAS = Seat("tomas")


def new_app() -> StakesApplication:
    return StakesApplication(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})


@dataclass
class Table:
    app: StakesApplication
    campaign_id: UUID

    def character(self, seat: str):
        return self.app._character(self.app.campaign(self.campaign_id), seat)

    def house(self):
        return self.app._house(self.app.campaign(self.campaign_id))

    def event_count(self) -> int:
        return self.app.recorder.max_notification_id() or 0


@pytest.fixture
def app() -> StakesApplication:
    return new_app()


@pytest.fixture
def table(app: StakesApplication) -> Table:
    """A Penny Ante campaign (starting pile 30) with Ilse and Tomas seated."""
    campaign_id = app.create_campaign("Ninjas of the Jade Court", "penny-ante", {"starting_pile": 30})
    app.add_player(campaign_id, HOUSE, "ilse", "Ilse Varn", "Whip Smart")
    app.add_player(campaign_id, HOUSE, "tomas", "Brother Tomas", "Love Conquers All")
    return Table(app, campaign_id)
