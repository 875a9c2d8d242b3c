"""The campaign generator of ``make bench`` (issue 15): a Penny Ante campaign of a given size, played
through the application as a table would play it, so its log has every kind of record a long campaign has.

Two players with deep piles trade loans (offer, accept, repay: PA-14) and, every ``CHALLENGE_EVERY`` round
trips, play a challenge against each other to the end (PA-5 … PA-13, 12 moves). Each command also stores
its record for exactly-once, so one loan round trip is about 10 events and one challenge about 33.
Growing a campaign again continues where it stopped, so one store can be measured at 10k and at 1M.
"""

from __future__ import annotations

from uuid import UUID

from adapters import randomness
from adapters.service import Stakes
from domain.kernel.commands import Context
from domain.seats import Seat
from domain.systems.penny_ante.commands import AcceptLoan, AnnounceChallenge, OfferLoan, RepayLoan

HOUSE, ILSE, TOMAS = Seat.house(), Seat("ilse"), Seat("tomas")
CHALLENGE_EVERY = 20
MOVES = (
    (ILSE, "declare", {"characteristics": []}), (TOMAS, "declare", {"characteristics": []}),
    (TOMAS, "pass", {}),  # C-10: Tomas's input before Ilse's first roll
    (ILSE, "roll", {}), (TOMAS, "roll", {}), (ILSE, "keep", {"cup": []}), (TOMAS, "keep", {"cup": []}),
    (ILSE, "check", {}), (TOMAS, "check", {}), (ILSE, "roll", {}), (TOMAS, "roll", {}),
    (ILSE, "check", {}), (TOMAS, "check", {}),
)


def new_campaign(stakes: Stakes) -> UUID:
    """Two players, an adventure under way; returns the campaign id."""
    cid = stakes.create_campaign("Generated", "penny-ante", {"starting_pile": 1_000_000}).campaign.id
    stakes.run(cid, HOUSE, "add-player", {"seat": "ilse", "character": "Ilse", "characteristic": "Whip"})
    stakes.run(cid, HOUSE, "add-player", {"seat": "tomas", "character": "Tomas", "characteristic": "Love"})
    stakes.run(cid, HOUSE, "start-adventure", {})
    return cid


def play_a_challenge(stakes: Stakes, cid: UUID) -> UUID:
    """Ilse challenges Tomas for an ante of 1; both check through to the settlement."""
    announce = AnnounceChallenge.parse({"challenger": {"players": ["ilse"]}, "opponent": {"players": ["tomas"]},
                                        "ante": 1})
    challenge = stakes.app.execute(Context(cid, ILSE, randomness.new_secret_seed()), announce)
    for seat, action, args in MOVES:
        stakes.app.act(Context(cid, seat), challenge, {"action": action, **args})
    return challenge


def grow(stakes: Stakes, cid: UUID, events: int) -> int:
    """Play on until the store holds at least ``events`` events; returns how many it holds."""
    app, played = stakes.app, 0
    while (app.recorder.max_notification_id() or 0) < events:
        loan = app.execute(Context(cid, TOMAS), OfferLoan(borrower="ilse", amount=2))
        app.execute(Context(cid, ILSE), AcceptLoan(loan=loan))
        app.execute(Context(cid, ILSE), RepayLoan(loan=loan, amount=2))
        played += 1
        if played % CHALLENGE_EVERY == 0:
            play_a_challenge(stakes, cid)
    stakes.catch_up()
    return app.recorder.max_notification_id() or 0
