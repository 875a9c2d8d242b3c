"""Penny Ante's reads: its sheet, the challenge view, the House budget, the debt register, the
antagonists, and the answers to its commands (PA-1 … PA-24, C-5)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from uuid import UUID

from adapters.plugin import Answer, Page, Read
from adapters.systems.penny_ante import schemas
from domain.errors import NotFound
from domain.seats import Seat

if TYPE_CHECKING:  # the CLI parses these schemas against a server without loading the kernel
    from domain.kernel.commands import Context


def players(views: Any, campaign_id: UUID) -> list[dict[str, Any]]:
    return views.query("SELECT seat, name, joined_at, character_id FROM {p}characters WHERE campaign_id = ?"
                       " ORDER BY joined_at, seat", (campaign_id.hex,))


def _in_offer_order(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Loans in the order they were offered, sorted here: an ``ORDER BY offered_at`` would lead SQLite to the
    campaign's index in offer order and past every loan of the campaign, instead of the seat's or the
    challenge's few (a sheet took 36 ms at 100,000 loans)."""
    return sorted(rows, key=lambda r: (r["offered_at"], r["loan_id"]))


def sheet(stakes: Any, campaign_id: UUID, seat: str) -> schemas.Sheet:
    row = stakes.views.query_one("SELECT * FROM {p}characters WHERE campaign_id = ? AND seat = ?",
                                 (campaign_id.hex, seat))
    if row is None:
        raise NotFound(f"no player named {seat!r} sits in this campaign")
    traits = stakes.views.query(
        "SELECT name, cost, acquired_at FROM {p}characteristics WHERE character_id = ? ORDER BY position",
        (row["character_id"],))
    cid, open_ = campaign_id.hex, "status IN ('active', 'defaulted', 'offered')"
    # The seat's open loans in one statement, each half on its own index (issue 15: was four statements)
    loans = _in_offer_order(stakes.views.query(
        f"SELECT * FROM {{p}}loans WHERE campaign_id = ? AND borrower = ? AND {open_} UNION ALL"
        f" SELECT * FROM {{p}}loans WHERE campaign_id = ? AND lender = ? AND borrower <> ? AND {open_}",
        (cid, seat, cid, seat, seat)))

    # PA-14: an offer into a challenge may be accepted only during the betting round it was made in
    into = {r["challenge_id"] for r in loans if r["status"] == "offered" and r.get("challenge_id")}
    phases = {c["challenge_id"]: c["phase"] for c in stakes.views.query(
        "SELECT challenge_id, phase FROM {p}challenges WHERE challenge_id IN (" + ", ".join("?" * len(into)) + ")",
        tuple(into))} if into else {}

    def line(r: dict[str, Any]) -> schemas.LoanLine:
        found = schemas.LoanLine.model_validate(r)
        if r["status"] == "offered" and r.get("challenge_id"):  # the round it was offered in: betting-1, -2
            found.open = phases.get(r["challenge_id"]) == f"betting-{r['round']}"
        return found

    def lines(keep: Callable[[dict[str, Any]], bool]) -> list[schemas.LoanLine]:
        return [line(r) for r in loans if keep(r)]

    outstanding = ("active", "defaulted")
    return schemas.Sheet(
        seat=row["seat"], name=row["name"], pile=row["pile"], in_play=row["in_play"], spent=row["spent"],
        characteristics=traits,  # validated as one list (issue 15: a sheet of many is one call)
        owes=lines(lambda r: r["borrower"] == seat and r["status"] in outstanding),
        owed=lines(lambda r: r["lender"] == seat and r["status"] in outstanding),
        offers=lines(lambda r: r["status"] == "offered"),
    )


def antagonists(stakes: Any, campaign_id: UUID, viewer: Seat, name: str | None = None) -> list[schemas.Antagonist]:
    """Players never see an antagonist's characteristics (C-5, PA-4)."""
    rows = stakes.views.query("SELECT * FROM {p}antagonists WHERE campaign_id = ? ORDER BY created_at, name",
                              (campaign_id.hex,))
    found = [
        schemas.Antagonist(name=r["name"], kind=r["kind"], pennies=r["pennies"], in_play=r["in_play"],
                           winnings=r["winnings"],
                           characteristics=json.loads(r["characteristics"]) if viewer.is_house else None)
        for r in rows if name is None or r["name"].casefold() == " ".join(name.split()).casefold()
    ]
    if name is not None and not found:
        raise NotFound(f"the House has no antagonist or obstacle named {name!r}")
    return found


def budget(stakes: Any, campaign_id: UUID, viewer: Seat) -> schemas.HouseBudget:
    campaign = stakes.campaign(campaign_id, viewer)
    cid = campaign_id.hex
    allocations: dict[int, list[schemas.Allocation]] = {}
    for a in stakes.views.query("SELECT * FROM {p}allocations WHERE campaign_id = ? ORDER BY position", (cid,)):
        allocations.setdefault(a["adventure"], []).append(
            schemas.Allocation(antagonist=a["antagonist"], amount=a["amount"], at=a["at"]))
    adventures = [
        schemas.AdventureBudget(**{k: r[k] for k in schemas.AdventureBudget.model_fields if k != "allocations"},
                                allocations=allocations.get(r["number"], []))
        for r in stakes.views.query("SELECT * FROM {p}adventures WHERE campaign_id = ? ORDER BY number", (cid,))
    ]
    current = adventures[-1].pile if adventures and campaign.adventure_running else 0
    return schemas.HouseBudget(campaign_id=campaign_id, adventure=campaign.adventure,
                               adventure_running=campaign.adventure_running, pile=current,
                               antagonists=antagonists(stakes, campaign_id, viewer), adventures=adventures)


def loans(stakes: Any, campaign_id: UUID, loan_id: UUID | None = None, page: Page | None = None) -> list[schemas.Loan]:
    where, params = "campaign_id = ?", [campaign_id.hex]
    if loan_id is not None:
        where, params = where + " AND loan_id = ?", [*params, loan_id.hex]
    limit = ""
    if page is not None:
        if page.after:
            try:  # a cursor this list gave is a loan's id; anything else names no loan, so nothing follows it
                after = UUID(page.after).hex
            except ValueError:
                return []
            where += " AND (offered_at, loan_id) > (SELECT offered_at, loan_id FROM {p}loans WHERE loan_id = ?)"
            params.append(after)
        limit = f" LIMIT {int(page.limit)}"
    rows = stakes.views.query(f"SELECT * FROM {{p}}loans WHERE {where} ORDER BY offered_at, loan_id{limit}", params)
    if loan_id is not None and not rows:
        raise NotFound(f"no loan {loan_id} in this campaign")
    history: dict[str, list[schemas.LoanEvent]] = {}
    ids = [r["loan_id"] for r in rows]
    if ids:
        marks = ", ".join("?" for _ in ids)
        for h in stakes.views.query(
                f"SELECT * FROM {{p}}loan_history WHERE loan_id IN ({marks}) ORDER BY loan_id, version", ids):
            history.setdefault(h["loan_id"], []).append(
                schemas.LoanEvent(at=h["at"], actor=h["actor"], what=h["what"], amount=h["amount"], note=h["note"]))
    return [schemas.Loan(**r, history=history.get(r["loan_id"], [])) for r in rows]


def debts(stakes: Any, campaign_id: UUID, viewer: Seat, page: Page) -> schemas.DebtRegister:
    """One page of the register, in the order the loans were offered."""
    stakes.campaign(campaign_id, viewer)
    found = loans(stakes, campaign_id, page=page)
    more = len(found) == page.limit
    return schemas.DebtRegister(campaign_id=campaign_id, loans=found,
                                next_after=found[-1].loan_id.hex if more else None)


class _Table:
    """What a seat's moves in a challenge are computed from, read from the read models (not the view, ADR
    0034): every player's pile (the members', the lenders', the bidders'), the pennies and characteristics of
    this challenge's antagonists, and the characteristics of the seats whose lists a move names."""

    def __init__(self, stakes: Any, campaign_id: UUID, unit: Any, lists_of: set[str]) -> None:
        views, cid = stakes.views, campaign_id.hex
        self.players: dict[str, int] = {r["seat"]: r["pile"] for r in views.query(
            "SELECT seat, pile FROM {p}characters WHERE campaign_id = ?", (cid,))}
        self.piles = dict(self.players)  # keyed by member: a player's seat, or the name of this unit's antagonist
        self.lists: dict[str, list[str]] = {}
        antagonists = sorted({m for side in unit.sides.values() if side["kind"] == "antagonist"
                              for m in side["members"]})
        if antagonists:  # another antagonist, even one named like a player's seat, is not in it (C-5)
            for r in views.query("SELECT name, pennies, characteristics FROM {p}antagonists WHERE campaign_id = ?"
                                 f" AND name IN ({', '.join('?' * len(antagonists))})", (cid, *antagonists)):
                self.piles[r["name"]] = r["pennies"]
                self.lists[r["name"]] = json.loads(r["characteristics"])
        seats = sorted(lists_of - set(antagonists))
        if seats:
            for r in views.query("SELECT ch.seat, c.name FROM {p}characteristics c JOIN {p}characters ch"
                                 " ON ch.character_id = c.character_id WHERE ch.campaign_id = ?"
                                 f" AND ch.seat IN ({', '.join('?' * len(seats))}) ORDER BY c.position",
                                 (cid, *seats)):
                self.lists.setdefault(r["seat"], []).append(r["name"])

    @staticmethod
    def lists_needed(unit: Any, viewer: Seat) -> set[str]:
        """Whose characteristics the viewer's moves name: his side's members (a declaration, PA-8) and every
        bankrupt (a bid or a buyout, PA-24)."""
        mine = unit.side_of(viewer.name)
        return {*(unit.sides[mine]["members"] if mine is not None else ()), *unit.bankrupts}

    def moves(self, unit: Any, viewer: Seat, offers: list[schemas.LoanOffer]) -> list[dict[str, Any]]:
        """The viewer's legal actions: the challenge's own, from its verify functions (``moves.py``), and the
        answers to the loans offered into it (PA-14)."""
        from domain.systems.penny_ante.loan import offer_moves  # here: the CLI imports this package without the domain

        mine = unit.side_of(viewer.name)
        side_lists = {}
        if mine is not None:  # only a side's own seats see what it may still name (C-5)
            side_lists[mine] = [n for m in unit.sides[mine]["members"] for n in self.lists.get(m, [])]
        own = {m: self.lists.get(m, []) for m in unit.bankrupts}  # a bankrupt without one is offered no buyout (PA-24)
        # The viewer's own pile bounds a loan and a bid; the House neither lends (PA-14) nor bids (PA-15), so its
        # budget is not read: no House move depends on it.
        seat_pile = 0 if viewer.is_house else self.players.get(viewer.name, 0)
        legal = unit.legal_actions(viewer.name, self.piles, seat_pile, side_lists, characteristics=own)
        for offer in offers:
            for move in offer_moves("offered", offer.lender, offer.borrower, viewer.name, round_open=offer.open,
                                    affordable=offer.amount <= self.players.get(offer.lender, 0)):
                legal.append({"action": move, "loan": offer.loan_id, "lender": offer.lender, "amount": offer.amount})
        return legal


def legal_actions(stakes: Any, campaign_id: UUID, unit: Any, viewer: Seat) -> list[dict[str, Any]]:
    """The viewer's moves in the challenge, without the rest of its view (who the table waits for, ADR 0034):
    the same inputs and the same computation as the view's list, so the two are equal."""
    table = _Table(stakes, campaign_id, unit, _Table.lists_needed(unit, viewer))
    return table.moves(unit, viewer, loan_offers(stakes, campaign_id, unit))


def unit_view(stakes: Any, campaign_id: UUID, unit: Any, viewer: Seat) -> schemas.ChallengeView:
    """The challenge as the viewer's seat may see it (C-5), with the moves it may make now."""
    table = _Table(stakes, campaign_id, unit, _Table.lists_needed(unit, viewer))
    rows = _loans_into(stakes, campaign_id, unit)
    offers = loan_offers(stakes, campaign_id, unit, rows)
    legal = table.moves(unit, viewer, offers)
    seen = unit.view_for(viewer.name)
    for side in seen["sides"].values():  # each member's pile: public, as the sheets and purses show it
        side["piles"] = {m: table.piles.get(m, 0) for m in side["members"]}
    answered = [schemas.LoanAnswered(loan_id=r["loan_id"], lender=r["lender"], borrower=r["borrower"],
                                     amount=r["amount"], answer=ANSWERS_OF_STATUS[r["status"]])
                for r in rows if r["status"] in ANSWERS_OF_STATUS]
    return schemas.ChallengeView(id=unit.id, campaign_id=campaign_id, legal_actions=legal, loan_offers=offers,
                                 loans_answered=answered, **seen)


#: A loan's status in the register, as the answer its offer got (PA-14): one accepted may since be repaid,
#: forgiven or defaulted; one an undo of the challenge took back is "reversed" (C-6).
ANSWERS_OF_STATUS = {"active": "accepted", "repaid": "accepted", "forgiven": "accepted", "defaulted": "accepted",
                     "declined": "declined", "withdrawn": "withdrawn", "reversed": "reversed"}


def _loans_into(stakes: Any, campaign_id: UUID, unit: Any) -> list[dict[str, Any]]:
    """Every loan offered into a challenge (PA-14; a bankruptcy's debt is not one), in the order offered."""
    return _in_offer_order(stakes.views.query(
        "SELECT loan_id, lender, borrower, amount, round, offered_at, status FROM {p}loans WHERE challenge_id = ?"
        " AND campaign_id = ? AND kind = 'loan'", (unit.id.hex, campaign_id.hex)))


def loan_offers(stakes: Any, campaign_id: UUID, unit: Any,
                rows: list[dict[str, Any]] | None = None) -> list[schemas.LoanOffer]:
    """The unanswered loans offered into a challenge (PA-14); those offered in the betting round open now may
    be accepted (one of an earlier round lapsed with it, even when its lender offers again now)."""
    rows = _loans_into(stakes, campaign_id, unit) if rows is None else rows
    return [schemas.LoanOffer(loan_id=r["loan_id"], lender=r["lender"], borrower=r["borrower"], amount=r["amount"],
                              open=unit.round_open(r["round"])) for r in rows if r["status"] == "offered"]


# -- answers and reads ------------------------------------------------------------------------------------
def _antagonist_answer(stakes: Any, ctx: Context, command: Any, result: str) -> schemas.Antagonist:
    return antagonists(stakes, ctx.campaign_id, ctx.actor, result)[0]


def _loan_answer(stakes: Any, ctx: Context, command: Any, result: UUID) -> schemas.Loan:
    return loans(stakes, ctx.campaign_id, result)[0]


def _adventure_answer(stakes: Any, ctx: Context, command: Any, result: int) -> schemas.HouseBudget:
    return budget(stakes, ctx.campaign_id, ctx.actor)


ANSWERS = {
    "antagonist": Answer(schemas.Antagonist, _antagonist_answer),
    "loan": Answer(schemas.Loan, _loan_answer),
    "adventure": Answer(schemas.HouseBudget, _adventure_answer),
}

READS = (
    Read("budget", "/budget", schemas.HouseBudget, budget, "budget",
         "The House budget per adventure: pile, antagonists, allocations (PA-3, PA-4). Players do not see "
         "antagonists' characteristics (C-5).", "House budget", ("adventures and the House",)),
    Read("antagonists", "/antagonists", list[schemas.Antagonist],
         lambda stakes, campaign_id, viewer: (stakes.campaign(campaign_id, viewer),
                                               antagonists(stakes, campaign_id, viewer))[1],
         "antagonist list", "Antagonists and obstacles; players do not see their characteristics (C-5).",
         "antagonists' purses", ("adventures and the House",)),
    Read("debts", "/debts", schemas.DebtRegister, debts, "debts",
         "The debt register, a page at a time: each loan and debt with its status and history (PA-14, PA-16).",
         "debt register", ("loans and debts",), paged=True),
)
