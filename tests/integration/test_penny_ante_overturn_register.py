"""C-6 in the debt register: what an overturn leaves a member owing is a debt of its own kind, not a loan nobody
made nor a bankruptcy nobody went into (found on a phone walk: "Ilse Varn lent …", "a bankruptcy debt")."""

from __future__ import annotations

from markupsafe import Markup

from api.web.systems import CampaignView
from api.web.systems.penny_ante import BOARD
from tests.drivers import ServiceDriver
from tests.unit.challenge_game import HOUSE, ILSE, Game
from tests.unit.test_undo import settle_with_ilse_winning


def overturned_after_the_pennies_were_spent(stakes: ServiceDriver) -> Game:
    """Ilse won 10 of Tomas's pennies and spent them; the House then gives Tomas the win (C-6)."""
    game = Game(stakes.app)
    settle_with_ilse_winning(game)  # Ilse 35, Tomas 20
    game.app.end_adventure(game.cid, HOUSE)
    for name in ("Quick", "Strong", "Sly Grin", "Iron Will", "Luck"):  # 35 pennies spent: Ilse holds none
        game.app.buy_characteristic(game.cid, ILSE, "ilse", name)
    game.app.overturn_challenge(game.cid, HOUSE, game.challenge_id, "opponent", False, "a bad call")
    return game


def register_kinds(stakes: ServiceDriver, game: Game) -> list[tuple[str, str, str, int, str]]:
    return [(x.kind, x.borrower, x.lender, x.outstanding, x.status)
            for x in stakes.read(game.cid, HOUSE, "debts").loans]


def test_an_overturns_shortfall_is_registered_as_what_the_overturn_left_owing_c6(stakes: ServiceDriver):
    game = overturned_after_the_pennies_were_spent(stakes)
    assert register_kinds(stakes, game) == [("shortfall", "ilse", "tomas", 10, "active")]
    stakes.rebuild()  # the same rows from the log alone (the debt is written before the Overturned naming it)
    assert register_kinds(stakes, game) == [("shortfall", "ilse", "tomas", 10, "active")]


def test_the_register_on_the_page_says_who_owes_whom_after_an_overturn_c6(stakes: ServiceDriver):
    game = overturned_after_the_pennies_were_spent(stakes)
    (debt,) = stakes.read(game.cid, HOUSE, "debts").model_dump(mode="json")["loans"]
    view = CampaignView(campaign={"adventure": 1}, seat="tomas", is_house=False,
                        names={"ilse": "Ilse Varn", "tomas": "Brother Tomas"}, own=[{"pile": 30}], others=[],
                        books=[], units=[], open=[])
    row = BOARD.loan_row(view, debt, set())
    assert row["what"] == "What an overturned result left owing (C-6)"
    page = str(BOARD.render("campaign.html", c=view, antagonists=[], budget=None, rows=[row], more=None,
                            status={}))
    text = Markup(page).striptags()
    assert "Ilse Varn owes Brother Tomas" in text and "lent" not in text and "bankruptcy" not in text



def test_a_side_that_gave_no_seed_words_says_the_dice_were_drawn_without_them_once_rolled_c10(stakes: ServiceDriver):
    """Found on a phone walk: "No seed words yet." stayed on Ilse's side after she rolled without seeding (her
    roll stands for her input, C-10), through to the end; table dice take no seed words at all (C-3)."""
    from api.web.systems import TableView

    def said(game: Game) -> dict[str, str | None]:
        view = stakes.challenge(game.cid, HOUSE, game.challenge_id).model_dump(mode="json")
        state = {k: v for k, v in view.items() if k not in ("legal_actions", "waiting_for")}
        table = TableView(unit_id=game.challenge_id, campaign_id=game.cid, kind="Challenge", phase=state["phase"],
                          state=state, moves=[], waiting={}, seat="house", is_house=True, names={})
        return {x.key: x.seed for x in BOARD.sides(table)}

    game = Game(stakes.app)
    game.announce("ilse", {"players": ["ilse"]}, {"players": ["tomas"]}, 1)
    assert said(game) == {"challenger": "no seed words yet", "opponent": "no seed words yet"}
    game.act("ilse", "declare", characteristics=[])
    game.act("tomas", "declare", characteristics=[])
    game.act("tomas", "pass")
    game.act("ilse", "roll")  # her roll stands for her input (C-10)
    assert said(game) == {"challenger": "no seed words: the dice were drawn without",
                          "opponent": "passed: no seed words"}
    table = Game(stakes.app)
    table.announce("ilse", {"players": ["ilse"]}, {"players": ["tomas"]}, 1, table=True)
    assert said(table) == {"challenger": None, "opponent": None}
