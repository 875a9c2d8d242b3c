"""PA-19: any sequence of economy commands by any seats conserves pennies and keeps piles >= 0."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.errors import StakesError
from domain.seats import Seat
from domain.systems.penny_ante import economy
from tests.unit.conftest import HOUSE, new_app

SEATS = [HOUSE, Seat("ilse"), Seat("tomas"), Seat("mara")]
seat = st.sampled_from(SEATS)
player = st.sampled_from(["ilse", "tomas", "mara"])
amount = st.integers(min_value=-2, max_value=60)

commands = st.one_of(
    st.tuples(st.just("buy"), seat, player, st.sampled_from(["Quick", "quick", "Strong", "Sly"])),
    st.tuples(st.just("start"), seat, st.one_of(st.none(), amount), st.sampled_from([None, "agreed"])),
    st.tuples(st.just("end"), seat),
    st.tuples(st.just("enlist"), seat, st.sampled_from(["Lady Sen", "Rockslide"])),
    st.tuples(st.just("fund"), seat, st.sampled_from(["Lady Sen", "Rockslide"]), amount),
    st.tuples(st.just("offer"), seat, player, amount),
    st.tuples(st.just("answer"), seat, st.integers(0, 5), st.sampled_from(["accept", "decline", "withdraw", "forgive"])),
    st.tuples(st.just("repay"), seat, st.integers(0, 5), amount),
)


def run(app, campaign_id, loans, command) -> None:
    kind, actor, *args = command
    if kind == "buy":
        app.buy_characteristic(campaign_id, actor, *args)
    elif kind == "start":
        app.start_adventure(campaign_id, actor, *args)
    elif kind == "end":
        app.end_adventure(campaign_id, actor)
    elif kind == "enlist":
        app.create_antagonist(campaign_id, actor, args[0])
    elif kind == "fund":
        app.fund_antagonist(campaign_id, actor, *args)
    elif kind == "offer":
        loans.append(app.offer_loan(campaign_id, actor, *args))
    elif kind == "answer" and loans:
        getattr(app, f"{args[1]}_loan")(campaign_id, actor, loans[args[0] % len(loans)])
    elif kind == "repay" and loans:
        app.repay_loan(campaign_id, actor, loans[args[0] % len(loans)], args[1])


def ledger(app, campaign_id):
    """(pennies held now, pennies that entered play minus those that left), from aggregates and events."""
    campaign = app.campaign(campaign_id)
    house = economy.house(app.application, campaign)
    held = sum(economy.character(app.application, campaign, s).pile for s in campaign.players) + house.pile
    held += sum(economy.antagonist(app.application, campaign, house, n).pennies for n in house.antagonists)
    entered = left = 0
    for notification in app.recorder.select_notifications(start=1, limit=10_000):
        event = app.mapper.to_domain_event(notification)
        name = type(event).__qualname__
        if name == "Character.Created":
            entered += event.pile
        elif name == "House.BudgetOpened":
            entered += event.amount
        elif name == "Character.CharacteristicBought":
            left += event.cost
        elif name in ("House.BudgetClosed",):
            left += event.retired
        elif name == "Antagonist.PenniesRetired":
            left += event.amount
    return held, entered - left, campaign, house


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(commands, max_size=40))
def test_economy_commands_conserve_pennies_and_never_drive_a_pile_below_zero(sequence):
    app = new_app()
    campaign_id = app.create_campaign("Property", "penny-ante")
    for handle in ("ilse", "tomas", "mara"):
        app.add_player(campaign_id, HOUSE, handle, handle.title(), "Brave")
    loans: list = []
    for command in sequence:
        try:
            run(app, campaign_id, loans, command)
        except StakesError:
            pass  # refused: nothing was stored
        held, expected, campaign, house = ledger(app, campaign_id)
        assert held == expected  # PA-19
        assert house.pile >= 0
        assert all(economy.character(app.application, campaign, s).pile >= 0 for s in campaign.players)
