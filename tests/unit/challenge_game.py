"""A scripted table for challenge tests: three players, Lady Sen, an adventure running."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.seats import Seat
from domain.systems.penny_ante import economy
from domain.systems.penny_ante.challenge import Challenge
from tests.drivers import Driver

HOUSE, ILSE, TOMAS, MARA = Seat.house(), Seat("ilse"), Seat("tomas"), Seat("mara")
SEATS = {"house": HOUSE, "ilse": ILSE, "tomas": TOMAS, "mara": MARA}
SECRET = "0f" * 32


class Game:
    def __init__(self, app: Driver) -> None:
        self.app = app
        self.cid = app.create_campaign("Jade Court", "penny-ante", {"starting_pile": 30})
        app.add_player(self.cid, HOUSE, "ilse", "Ilse Varn", "Whip Smart")
        app.add_player(self.cid, HOUSE, "tomas", "Brother Tomas", "Love Conquers All")
        app.add_player(self.cid, HOUSE, "mara", "Mara", "Sly")
        app.buy_characteristic(self.cid, ILSE, "ilse", "Lucky Necklace")  # Ilse: 25 pennies
        app.create_antagonist(self.cid, HOUSE, "Lady Sen",
                              characteristics=["Commands a Bunch of Ninjas", "Poison", "Cunning"])
        app.create_antagonist(self.cid, HOUSE, "Rockslide", kind="obstacle", characteristics=["Heavy"])
        app.start_adventure(self.cid, HOUSE)  # House pile 85
        app.fund_antagonist(self.cid, HOUSE, "Lady Sen", 40)
        app.fund_antagonist(self.cid, HOUSE, "Rockslide", 5)  # House pile 40
        self.challenge_id: UUID | None = None

    def announce(self, by: str, challenger: dict[str, Any], opponent: dict[str, Any], ante: int, **kw: Any) -> UUID:
        self.challenge_id = self.app.announce_challenge(self.cid, SEATS[by], challenger, opponent, ante, SECRET, **kw)
        return self.challenge_id

    def act(self, seat: str, action: str, **args: Any) -> Challenge:
        self.app.challenge_action(self.cid, SEATS[seat], self.challenge_id, action, args)
        return self.state

    def inputs(self) -> Challenge:
        """Every player side that owes its input passes, so the House's side may roll (C-10)."""
        for side in self.state.owed_inputs():
            self.act(self.state.sides[side]["seats"][0], "pass")
        return self.state

    @property
    def state(self) -> Challenge:
        return self.app.repository.get(self.challenge_id)

    def pile(self, who: str) -> int:
        app, campaign = self.app.application, self.app.campaign(self.cid)
        if who == "house":
            return economy.house(app, campaign).pile
        if who in campaign.players:
            return economy.character(app, campaign, who).pile
        return economy.antagonist(app, campaign, economy.house(app, campaign), who).pennies

    def total(self) -> int:
        """Every penny in a pile, a pot or a stake (PA-19)."""
        held = sum(self.pile(w) for w in ("house", "ilse", "tomas", "mara", "Lady Sen", "Rockslide"))
        campaign = self.app.campaign(self.cid)
        pots = sum(self.app.repository.get(UUID(c)).pot for c in campaign.open_challenges)
        return held + pots

    def events(self) -> int:
        return self.app.recorder.max_notification_id() or 0


START_TOTAL = 25 + 30 + 30 + 85  # piles plus the House budget after Ilse's purchase
