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
