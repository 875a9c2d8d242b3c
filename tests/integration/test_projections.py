"""Read models: exactly once, resume after a restart, rebuild equals incremental, hidden fields."""

from __future__ import annotations

from adapters.service import Stakes
from domain.seats import Seat
from domain.systems.pool import play as pool_play
from tests.drivers import ServiceDriver
from tests.integration.test_event_store import seat_two

HOUSE, ILSE, TOMAS = Seat.house(), Seat("ilse"), Seat("tomas")


def play_an_economy(stakes: Stakes):
    cid, *_ = seat_two(stakes)
    stakes.buy_characteristic(cid, ILSE, "ilse", "Lucky Necklace")
    loan = stakes.offer_loan(cid, TOMAS, "ilse", 10)
    stakes.accept_loan(cid, ILSE, loan.loan_id)
    stakes.repay_loan(cid, ILSE, loan.loan_id, 4)
    stakes.create_antagonist(cid, HOUSE, "Lady Sen", characteristics=["Commands a Bunch of Ninjas"])
    stakes.start_adventure(cid, HOUSE)
    stakes.fund_antagonist(cid, HOUSE, "Lady Sen", 40)
    stakes.record_consequence(cid, HOUSE, loan.loan_id, "Ilse owes the Tongs a favour")
    stakes.end_adventure(cid, HOUSE)
    return cid, loan.loan_id


def test_every_event_is_projected_exactly_once(stakes):
    _cid, _ = play_an_economy(stakes)
    total = stakes.app.recorder.max_notification_id()
    assert stakes.views.max_tracking_id(stakes.app.name) == total
    log_rows = stakes.views.query("SELECT COUNT(*) AS n FROM {p}event_log")
    stored = stakes.app.recorder.select_notifications(start=1, limit=total)
    readable = [n for n in stored if not n.topic.endswith(":CommandRecord.Executed")]
    assert log_rows[0]["n"] == len(readable) < total
    assert stakes.catch_up() == 0


def test_command_records_pass_the_projection_without_rows(stakes):
    """A command's record (exactly once) is in the chain but no seat reads it (C-5): the tracking position
    passes it, and no read model keeps a row of it (issue 15)."""
    cid, *_ = seat_two(stakes)
    before = stakes.views.max_tracking_id(stakes.app.name)
    stakes.buy_characteristic(cid, ILSE, "ilse", "Lucky Necklace")
    after = stakes.app.recorder.max_notification_id()
    assert stakes.views.max_tracking_id(stakes.app.name) == after == before + 2
    rows = stakes.views.query("SELECT notification_id, event FROM {p}event_log WHERE notification_id > ?", (before,))
    assert [r["event"] for r in rows] == ["CharacteristicBought"]
    streams = stakes.views.query("SELECT kind FROM {p}streams")
    assert "CommandRecord" not in {r["kind"] for r in streams}


def test_the_projection_resumes_where_it_stopped_after_a_restart(stakes, settings):
    cid, *_ = seat_two(stakes)
    position = stakes.views.max_tracking_id(stakes.app.name)
    # Commands recorded while no projection runs (as if the process died after saving):
    stakes.app.buy_characteristic(cid, ILSE, "ilse", "Lucky Necklace")
    stakes.app.buy_characteristic(cid, TOMAS, "tomas", "Iron Will")
    assert stakes.views.max_tracking_id(stakes.app.name) == position
    stakes.close()
    restarted = Stakes(settings)
    try:
        assert restarted.catch_up() == 2 * 2  # each command: its event, and its record (exactly once)
        assert restarted.sheet(cid, ILSE).pile == 25 and restarted.sheet(cid, TOMAS).pile == 25
        assert restarted.catch_up() == 0
    finally:
        restarted.close()


def test_a_rebuild_from_the_log_equals_the_incrementally_built_read_models(stakes):
    play_an_economy(stakes)
    incremental = stakes.views.dump()
    report = stakes.rebuild()
    assert report.events == stakes.app.recorder.max_notification_id()
    assert stakes.views.dump() == incremental


def test_loans_offered_and_settled_within_one_batch_project_as_when_each_event_came_alone(stakes):
    """A batch keeps the loans it creates in memory and changes them there (issue 15): every way a loan
    ends (declined, withdrawn, repaid in full or in part, forgiven, with a consequence) gives the rows the
    events projected one command at a time gave."""
    cid, *_ = seat_two(stakes)
    ends = []
    for amount, then in ((3, "decline"), (4, "withdraw"), (5, "repay all"), (6, "repay some"), (7, "forgive"),
                         (8, "open")):
        loan = stakes.offer_loan(cid, TOMAS, "ilse", amount).loan_id
        ends.append(loan)
        if then == "decline":
            stakes.decline_loan(cid, ILSE, loan)
        elif then == "withdraw":
            stakes.withdraw_loan(cid, TOMAS, loan)
        elif then != "open":
            stakes.accept_loan(cid, ILSE, loan)
            if then == "repay all":
                stakes.repay_loan(cid, ILSE, loan, amount)
            elif then == "repay some":
                stakes.repay_loan(cid, ILSE, loan, 2)
                stakes.repay_loan(cid, ILSE, loan, 1)
            else:
                stakes.forgive_loan(cid, TOMAS, loan)
    stakes.start_adventure(cid, HOUSE)  # the loans still owed from before default (PA-14)
    stakes.record_consequence(cid, HOUSE, ends[3], "Ilse owes Tomas a song")
    incremental = stakes.views.dump()
    stakes.rebuild()  # every event in one batch
    assert stakes.views.dump() == incremental
    statuses = [r["status"] for r in stakes.views.query("SELECT status FROM {p}loans ORDER BY amount")]
    assert statuses == ["declined", "withdrawn", "repaid", "defaulted", "forgiven", "offered"]


def test_a_rebuild_keeps_seat_tokens(stakes):
    cid, _, ilse_token, _ = seat_two(stakes)
    stakes.rebuild()
    assert stakes.authenticate(ilse_token) == (cid, ILSE)


def test_a_command_is_readable_by_the_same_client_at_once(stakes):
    cid, *_ = seat_two(stakes)
    assert stakes.buy_characteristic(cid, ILSE, "ilse", "Quick").pile == 25
    assert stakes.sheet(cid, ILSE).pile == 25


def test_a_second_process_on_the_same_store_reads_the_first_ones_writes(stakes, settings):
    cid, *_ = seat_two(stakes)
    other = ServiceDriver(Stakes(settings))
    try:
        other.buy_characteristic(cid, ILSE, "ilse", "Quick")
        assert stakes.sheet(cid, ILSE).pile == 25
    finally:
        other.close()


def test_players_never_see_an_antagonists_characteristics(stakes):
    cid, _ = play_an_economy(stakes)
    secret = "Commands a Bunch of Ninjas"
    for view in (stakes.budget(cid, ILSE), stakes.antagonists(cid, ILSE), stakes.log(cid, ILSE, limit=1000)):
        assert secret not in repr(view)
    assert secret in repr(stakes.budget(cid, HOUSE)) and secret in repr(stakes.log(cid, HOUSE, limit=1000))


def test_the_debt_register_shows_every_loan_with_its_history(stakes):
    cid, loan_id = play_an_economy(stakes)
    (loan,) = stakes.debts(cid, TOMAS).loans
    assert (loan.loan_id, loan.status, loan.outstanding, loan.defaulted_in) == (loan_id, "defaulted", 6, 1)
    assert [h.what for h in loan.history] == ["offered", "accepted", "repaid", "defaulted", "consequence"]
    assert loan.consequence == "Ilse owes the Tongs a favour"
    sheet = stakes.sheet(cid, ILSE)
    assert [(o.lender, o.outstanding) for o in sheet.owes] == [("tomas", 6)]
    assert [(o.borrower, o.outstanding) for o in stakes.sheet(cid, TOMAS).owed] == [("ilse", 6)]


def test_the_house_budget_shows_each_adventure_with_its_allocations(stakes):
    cid, _ = play_an_economy(stakes)
    budget = stakes.budget(cid, HOUSE)
    (adventure,) = budget.adventures
    # Ilse: 30 - 5 (purchase) + 10 (loan) - 4 (repaid) = 31; Tomas: 30 - 10 + 4 = 24.
    assert (adventure.player_piles, adventure.opening_pile, adventure.allocated) == (55, 55, 40)
    assert adventure.retired == 55 and adventure.pile == 0 and adventure.ended_at is not None
    assert [(a.antagonist, a.amount) for a in adventure.allocations] == [("Lady Sen", 40)]
    assert budget.pile == 0 and not budget.adventure_running
    assert [(a.name, a.pennies) for a in budget.antagonists] == [("Lady Sen", 0)]


def test_reads_select_projected_rows_and_never_replay_history(stakes, monkeypatch):
    cid, _ = play_an_economy(stakes)

    def no_replay(*args, **kwargs):
        raise AssertionError("a read replayed events")

    monkeypatch.setattr(stakes.app.recorder, "select_events", no_replay)
    stakes.sheet(cid, ILSE), stakes.sheets(cid, HOUSE), stakes.debts(cid, TOMAS)
    stakes.budget(cid, HOUSE), stakes.antagonists(cid, ILSE), stakes.log(cid, ILSE), stakes.campaign(cid, ILSE)


def play_a_challenge(stakes: Stakes, cid):
    stakes.create_antagonist(cid, HOUSE, "Lady Sen", characteristics=["Poison", "Cunning"])
    stakes.start_adventure(cid, HOUSE)
    stakes.fund_antagonist(cid, HOUSE, "Lady Sen", 30)
    view = stakes.announce_challenge(cid, HOUSE, {"antagonist": "Lady Sen"}, {"players": ["ilse"]}, 1)
    ch = view.id
    for seat, action, args in (
        (HOUSE, "declare", {"characteristics": ["Poison"]}), (ILSE, "declare", {"characteristics": []}),
        (ILSE, "pass", {}), (HOUSE, "roll", {}), (ILSE, "roll", {}), (HOUSE, "keep", {"cup": [0]}), (ILSE, "keep", {"cup": []}),
        (HOUSE, "raise", {"amount": 2}), (TOMAS, "lend", {"borrower": "ilse", "amount": 3}), (ILSE, "call", {}),
        (HOUSE, "roll", {}), (ILSE, "roll", {}), (ILSE, "seed", {"seed": "fresh words"}),  # C-9: the reroll
        (HOUSE, "check", {}), (ILSE, "check", {}),
    ):
        stakes.challenge_action(cid, seat, ch, action, args)
    return ch


def test_a_rebuild_equals_the_incremental_read_models_after_challenges(stakes):
    cid, *_ = seat_two(stakes)
    ch = play_a_challenge(stakes, cid)
    incremental = stakes.views.dump()
    view = stakes.challenge(cid, TOMAS, ch)
    stakes.rebuild()
    assert stakes.views.dump() == incremental
    assert stakes.challenge(cid, TOMAS, ch) == view and view.phase == "settled"


def test_challenge_reads_come_from_the_projection_not_the_event_store(stakes, monkeypatch):
    cid, *_ = seat_two(stakes)
    ch = play_a_challenge(stakes, cid)

    def no_replay(*args, **kwargs):
        raise AssertionError("a read replayed events")

    monkeypatch.setattr(stakes.app.recorder, "select_events", no_replay)
    assert stakes.challenge(cid, ILSE, ch).phase == "settled"
    assert stakes.verify_challenge(cid, ILSE, ch).mismatches == []
    assert len(stakes.challenges(cid, TOMAS)) == 1


def test_a_rebuild_equals_the_incremental_read_models_for_a_pool_campaign(stakes):
    cid = stakes.create_campaign("Pool night", "pool").campaign.id
    stakes.add_player(cid, HOUSE, "ilse", "Ilse", description="A brave thief with quick hands", traits={"brave": 1})
    stakes.add_player(cid, HOUSE, "tomas", "Tomas", description="A stubborn monk")
    stakes.start_adventure(cid, HOUSE)  # C-1: units of resolution happen during an adventure
    stakes.offer_help(cid, TOMAS, "ilse", 2)
    roll = stakes.pool_roll(cid, ILSE, 3, trait="brave", helper="tomas")
    if roll.phase == "choice":
        stakes.challenge_action(cid, ILSE, roll.id, "choose", {"choice": "house"})
    stakes.raise_trait(cid, ILSE, None, "thief")
    contest = stakes.open_contest(cid, TOMAS, "ilse")
    stakes.challenge_action(cid, ILSE, contest.id, "pass", {})  # C-10: Ilse's input before the first roll
    stakes.challenge_action(cid, TOMAS, contest.id, "roll", {"count": 3})
    incremental = stakes.views.dump()
    sheet = stakes.sheet(cid, HOUSE, "ilse")
    stakes.rebuild()
    assert stakes.views.dump() == incremental and stakes.sheet(cid, HOUSE, "ilse") == sheet
    assert sheet.pool == pool_play.character(stakes.app.application, stakes.app.campaign(cid), "ilse").pool


def test_a_sheet_shows_what_its_seat_owes_is_owed_and_the_open_offers_either_way(stakes):
    """The sheet's loans come from one read (issue 15): debts, credits and offers, each where it belongs,
    in offer order; an answered offer is no longer shown."""
    cid, *_ = seat_two(stakes)
    stakes.add_player(cid, HOUSE, "mara", "Mara Quill", "Keen Eye")
    lent = stakes.offer_loan(cid, TOMAS, "ilse", 10)
    stakes.accept_loan(cid, ILSE, lent.loan_id)
    declined = stakes.offer_loan(cid, TOMAS, "ilse", 5)
    stakes.decline_loan(cid, ILSE, declined.loan_id)
    ilse_offers = stakes.offer_loan(cid, ILSE, "mara", 3)
    mara_offers = stakes.offer_loan(cid, Seat("mara"), "ilse", 2)

    ilse = stakes.sheet(cid, ILSE)
    assert [(o.lender, o.borrower, o.outstanding) for o in ilse.owes] == [("tomas", "ilse", 10)]
    assert ilse.owed == []
    assert [o.loan_id for o in ilse.offers] == [ilse_offers.loan_id, mara_offers.loan_id]
    tomas = stakes.sheet(cid, TOMAS)
    assert [(o.lender, o.borrower) for o in tomas.owed] == [("tomas", "ilse")]
    assert tomas.owes == [] and tomas.offers == []
    mara = stakes.any_sheet(cid, "mara")
    assert mara.owes == mara.owed == [] and [o.loan_id for o in mara.offers] == [ilse_offers.loan_id,
                                                                                   mara_offers.loan_id]


def test_the_projection_decodes_events_to_their_stored_text_and_leaves_the_rest_to_the_library(stakes):
    """ADR 0037: an event is its stored JSON with its top-level ids and times as text; a unit's events, and an
    event holding a typed value deeper down, are the library's own typed objects."""
    import json
    import uuid
    from datetime import datetime

    from adapters.chained import Note
    from adapters.projection import Decoder

    cid, *_ = seat_two(stakes)
    play_a_challenge(stakes, cid)
    decode = Decoder(stakes.app.mapper).refresh()
    notes = stakes.app.recorder.log_page(1, 10_000)
    decoded = [(n, decode(n)) for n in notes]
    kinds = {type(e).__qualname__.split(".")[0]: e for _, e in decoded if e is not None}
    created = next(e for _, e in decoded if type(e).__qualname__ == "Character.Created")
    assert created.timestamp.__class__ is str and datetime.fromisoformat(created.timestamp)
    assert created.campaign_id == cid.hex
    assert isinstance(kinds["Challenge"].timestamp, datetime)  # a unit's: its mutators read typed values
    assert all(e is None for n, e in decoded if n.topic.endswith(":CommandRecord.Executed"))
    note, _ = next((n, e) for n, e in decoded if e is not None and type(e).__qualname__ == "Character.Created")
    state = json.loads(stakes.app.mapper.compressor.decompress(note.state))
    state["deeper"] = [{"_type_": "uuid_hex", "_data_": uuid.uuid4().hex}]
    whole = decode(Note(note.id, note.originator_id, note.originator_version, note.topic, json.dumps(state).encode()))
    assert isinstance(whole.timestamp, datetime) and isinstance(whole.deeper[0], uuid.UUID)
