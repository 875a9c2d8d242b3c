"""Penny Ante's read models and the projection that keeps them (PA-1 … PA-19)."""

from __future__ import annotations

import json
from typing import Any

from adapters.plugin import Projection, ProjectionContext

PROJECTION = Projection(
    tables=("characters", "characteristics", "loans", "loan_history", "antagonists", "adventures", "allocations"),
    ddl=(
    "CREATE TABLE IF NOT EXISTS {p}characters (character_id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL,"
    " seat TEXT NOT NULL, name TEXT NOT NULL, pile BIGINT NOT NULL, in_play BIGINT NOT NULL,"
    " spent BIGINT NOT NULL, joined_at TEXT NOT NULL, UNIQUE (campaign_id, seat))",
    "CREATE TABLE IF NOT EXISTS {p}characteristics (character_id TEXT NOT NULL, position BIGINT NOT NULL,"
    " name TEXT NOT NULL, cost BIGINT NOT NULL, acquired_at TEXT NOT NULL, PRIMARY KEY (character_id, position))",
    "CREATE TABLE IF NOT EXISTS {p}loans (loan_id {id} PRIMARY KEY, campaign_id {id} NOT NULL,"
    " lender TEXT NOT NULL, borrower TEXT NOT NULL, amount BIGINT NOT NULL, outstanding BIGINT NOT NULL,"
    " status TEXT NOT NULL, adventure BIGINT NOT NULL, defaulted_in BIGINT, consequence TEXT,"
    " offered_at TEXT NOT NULL, updated_at TEXT NOT NULL, kind TEXT NOT NULL, challenge_id {id},"
    " round BIGINT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS loans_by_campaign ON {p}loans (campaign_id, offered_at, loan_id)",  # the register's order
    # a sheet's debts and offers, and a challenge's offers, without reading every loan of the campaign
    "CREATE INDEX IF NOT EXISTS loans_by_borrower ON {p}loans (campaign_id, borrower, status)",
    "CREATE INDEX IF NOT EXISTS loans_by_lender ON {p}loans (campaign_id, lender, status)",
    "CREATE INDEX IF NOT EXISTS loans_by_challenge ON {p}loans (challenge_id, status)",
    "CREATE TABLE IF NOT EXISTS {p}loan_history (loan_id {id} NOT NULL, version BIGINT NOT NULL,"
    " at TEXT NOT NULL, actor TEXT NOT NULL, what TEXT NOT NULL, amount BIGINT, note TEXT,"
    " PRIMARY KEY (loan_id, version)){clustered}",
    "CREATE TABLE IF NOT EXISTS {p}antagonists (antagonist_id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL,"
    " name TEXT NOT NULL, kind TEXT NOT NULL, pennies BIGINT NOT NULL, characteristics TEXT NOT NULL,"
    " created_at TEXT NOT NULL, in_play BIGINT NOT NULL, winnings BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS {p}adventures (campaign_id TEXT NOT NULL, number BIGINT NOT NULL,"
    " started_at TEXT NOT NULL, ended_at TEXT, player_piles BIGINT NOT NULL, opening_pile BIGINT NOT NULL,"
    " note TEXT, pile BIGINT NOT NULL, allocated BIGINT NOT NULL, retired BIGINT NOT NULL,"
    " PRIMARY KEY (campaign_id, number))",
    "CREATE TABLE IF NOT EXISTS {p}allocations (campaign_id TEXT NOT NULL, adventure BIGINT NOT NULL,"
    " position BIGINT NOT NULL, antagonist TEXT NOT NULL, amount BIGINT NOT NULL, at TEXT NOT NULL,"
    " PRIMARY KEY (campaign_id, position))",
    ),
    rows=2,  # 2: an overturn's shortfall debts are kind 'shortfall' (C-6), no longer 'debt'
)

# characters (PA-1, PA-2, PA-14)
@PROJECTION.on("Character.Created")
def _character_created(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    p.execute("INSERT INTO {p}characters VALUES (?, ?, ?, ?, ?, 0, 0, ?)",
            (oid, campaign, e.seat, e.name, e.pile, at))
    p.execute("INSERT INTO {p}characteristics VALUES (?, 0, ?, 0, ?)", (oid, e.first_characteristic, at))

@PROJECTION.on("Character.CharacteristicBought")
def _character_characteristic_bought(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    _pile(p, oid, -e.cost, spent=e.cost)
    p.execute("INSERT INTO {p}characteristics VALUES (?, (SELECT COALESCE(MAX(position), -1) + 1"
               " FROM {p}characteristics WHERE character_id = ?), ?, ?, ?)", (oid, oid, e.name, e.cost, at))

def _pile(p: ProjectionContext, oid: str, delta: int, spent: int = 0) -> None:
    p.add_later("UPDATE {p}characters SET pile = pile + ?, spent = spent + ? WHERE character_id = ?",
                 oid, delta, spent)

@PROJECTION.on("Character.LoanPaidOut")
def _character_loan_paid_out(p: ProjectionContext, e, oid, *_: Any) -> None:
    _pile(p, oid, -e.amount)

@PROJECTION.on("Character.LoanReceived")
def _character_loan_received(p: ProjectionContext, e, oid, *_: Any) -> None:
    _pile(p, oid, e.amount)

@PROJECTION.on("Character.RepaymentPaid")
def _character_repayment_paid(p: ProjectionContext, e, oid, *_: Any) -> None:
    _pile(p, oid, -e.amount)

@PROJECTION.on("Character.RepaymentReceived")
def _character_repayment_received(p: ProjectionContext, e, oid, *_: Any) -> None:
    _pile(p, oid, e.amount)

# loans (PA-14)
def _history(p: ProjectionContext, e: Any, oid: str, at: str, what: str, amount: int | None = None,
             note: str | None = None) -> None:
    p.insert_later("INSERT INTO {p}loan_history VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (oid, e.originator_version, at, e.actor, what, amount, note))

LOAN_COLUMNS = ("loan_id", "campaign_id", "lender", "borrower", "amount", "outstanding", "status", "adventure",
                "defaulted_in", "consequence", "offered_at", "updated_at", "kind", "challenge_id", "round")


def _new_loan(p: ProjectionContext, **row: Any) -> None:
    """A loan's row; the batch keeps it in memory, so the acceptance and repayment that usually follow in
    the same batch change it there and it is written once."""
    p.insert_row_later("loans", row["loan_id"], {k: row.get(k) for k in LOAN_COLUMNS})


def _loan(p: ProjectionContext, oid: str, at: str, **changes: Any) -> None:
    row = p.row_later("loans", oid)
    if row is not None:
        row.update(changes, updated_at=at)
        return
    sets = ", ".join(f"{column} = ?" for column in changes)
    p.execute(f"UPDATE {{p}}loans SET {sets}, updated_at = ? WHERE loan_id = ?",
            (*changes.values(), at, oid))

@PROJECTION.on("Loan.Offered")
def _loan_offered(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    _new_loan(p, loan_id=oid, campaign_id=campaign, lender=e.lender, borrower=e.borrower, amount=e.amount,
              outstanding=0, status="offered", adventure=e.adventure, offered_at=at, updated_at=at, kind="loan",
              challenge_id=getattr(e, "challenge_id", None), round=getattr(e, "round", 0))
    _history(p, e, oid, at, "offered", e.amount)

@PROJECTION.on("Debt.Recorded")
def _debt_recorded(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    """PA-15, PA-16: a bankruptcy debt, owed from the start."""
    _new_loan(p, loan_id=oid, campaign_id=campaign, lender=e.lender, borrower=e.borrower, amount=e.amount,
              outstanding=e.amount, status="active", adventure=e.adventure, offered_at=at, updated_at=at,
              kind="debt", challenge_id=e.challenge_id, round=0)
    _history(p, e, oid, at, "debt recorded", e.amount)

@PROJECTION.on("Challenge.Overturned")
def _challenge_overturned(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    """C-6: what the overturn left a member owing is a debt of its own kind in the register (written just before)."""
    for debt_id in getattr(e, "debts", None) or ():
        _loan(p, debt_id, at, kind="shortfall")

@PROJECTION.on("Loan.Accepted")
def _loan_accepted(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    row = p.row_later("loans", oid)
    if row is not None:
        row.update(status="active", outstanding=row["amount"], updated_at=at)
    else:
        p.execute("UPDATE {p}loans SET status = 'active', outstanding = amount, updated_at = ? WHERE loan_id = ?",
                (at, oid))
    _history(p, e, oid, at, "accepted")

@PROJECTION.on("Loan.Declined")
def _loan_declined(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    _loan(p, oid, at, status="declined")
    _history(p, e, oid, at, "declined")

@PROJECTION.on("Loan.Withdrawn")
def _loan_withdrawn(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    _loan(p, oid, at, status="withdrawn")
    _history(p, e, oid, at, "withdrawn")

@PROJECTION.on("Loan.Repaid")
def _loan_repaid(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    row = p.row_later("loans", oid)
    if row is not None:
        row.update(outstanding=row["outstanding"] - e.amount, updated_at=at,
                   status="repaid" if row["outstanding"] == e.amount else row["status"])
    else:
        p.execute("UPDATE {p}loans SET outstanding = outstanding - ?, updated_at = ?, status = CASE WHEN"
                " outstanding = ? THEN 'repaid' ELSE status END WHERE loan_id = ?", (e.amount, at, e.amount, oid))
    _history(p, e, oid, at, "repaid", e.amount)

@PROJECTION.on("Loan.Forgiven")
def _loan_forgiven(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    _loan(p, oid, at, status="forgiven", outstanding=0)
    _history(p, e, oid, at, "forgiven", e.amount)

@PROJECTION.on("Loan.Defaulted")
def _loan_defaulted(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    _loan(p, oid, at, status="defaulted", defaulted_in=e.adventure)
    _history(p, e, oid, at, "defaulted")

@PROJECTION.on("Loan.Reversed")
def _loan_reversed(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    row = p.row_later("loans", oid)
    if row is not None:
        left = 0 if row["status"] == "offered" else row["outstanding"] - e.returned
        row.update(outstanding=left, updated_at=at, status="reversed" if left == 0 else row["status"])
    else:
        p.execute("UPDATE {p}loans SET outstanding = CASE WHEN status = 'offered' THEN 0 ELSE outstanding - ? END,"
                   " updated_at = ? WHERE loan_id = ?", (e.returned, at, oid))
        p.execute("UPDATE {p}loans SET status = 'reversed' WHERE loan_id = ? AND outstanding = 0", (oid,))
    _history(p, e, oid, at, "reversed", e.returned, e.reason)

@PROJECTION.on("Debt.Voided")
def _debt_voided(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    _loan(p, oid, at, status="voided", outstanding=0)
    _history(p, e, oid, at, "voided", e.amount, e.reason)

@PROJECTION.on("Loan.ConsequenceRecorded")
def _loan_consequence_recorded(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    _loan(p, oid, at, consequence=e.note)
    _history(p, e, oid, at, "consequence", note=e.note)

# the House side (PA-3, PA-4)
@PROJECTION.on("House.BudgetOpened")
def _house_budget_opened(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    p.execute("INSERT INTO {p}adventures VALUES (?, ?, ?, NULL, ?, ?, ?, ?, 0, 0)",
            (campaign, e.adventure, at, e.player_piles, e.amount, e.note, e.amount))

@PROJECTION.on("House.PenniesAllocated")
def _house_pennies_allocated(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    p.execute("UPDATE {p}adventures SET pile = pile - ?, allocated = allocated + ?"
               " WHERE campaign_id = ? AND number = ?", (e.amount, e.amount, campaign, e.adventure))
    p.execute("INSERT INTO {p}allocations VALUES (?, ?, ?, ?, ?, ?)",
            (campaign, e.adventure, nid, e.antagonist, e.amount, at))

@PROJECTION.on("House.BudgetClosed")
def _house_budget_closed(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    p.execute("UPDATE {p}adventures SET pile = 0, retired = retired + ? WHERE campaign_id = ? AND number = ?",
            (e.retired, campaign, e.adventure))

@PROJECTION.on("Antagonist.Created")
def _antagonist_created(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    p.execute("INSERT INTO {p}antagonists VALUES (?, ?, ?, ?, 0, ?, ?, 0, 0)",
            (oid, campaign, e.name, e.kind, json.dumps(list(e.characteristics)), at))

@PROJECTION.on("Antagonist.CharacteristicAdded")
def _antagonist_characteristic_added(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    row = p.one("SELECT characteristics FROM {p}antagonists WHERE antagonist_id = ?", (oid,))
    assert row is not None
    names = [*json.loads(row["characteristics"]), e.name]
    p.execute("UPDATE {p}antagonists SET characteristics = ? WHERE antagonist_id = ?", (json.dumps(names), oid))

@PROJECTION.on("Antagonist.Funded")
def _antagonist_funded(p: ProjectionContext, e, oid, *_: Any) -> None:
    p.execute("UPDATE {p}antagonists SET pennies = pennies + ? WHERE antagonist_id = ?", (e.amount, oid))

@PROJECTION.on("Antagonist.PenniesRetired")
def _antagonist_pennies_retired(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    p.execute("UPDATE {p}antagonists SET pennies = 0 WHERE antagonist_id = ?", (oid,))
    p.execute("UPDATE {p}adventures SET retired = retired + ? WHERE campaign_id = ? AND number = ?",
            (e.amount, campaign, e.adventure))

# challenges: pennies in play (PA-9, PA-12, PA-15, PA-19)
def _purse(p: ProjectionContext, oid: str, pile: int, in_play: int) -> None:
    p.add_later("UPDATE {p}characters SET pile = pile + ?, in_play = in_play + ? WHERE character_id = ?",
                 oid, pile, in_play)

def _antagonist_purse(p: ProjectionContext, oid: str, pennies: int, in_play: int, won: int = 0) -> None:
    p.execute("UPDATE {p}antagonists SET pennies = pennies + ?, in_play = in_play + ?,"
               " winnings = winnings + ? WHERE antagonist_id = ?", (pennies, in_play, won, oid))

@PROJECTION.on("Character.PenniesWagered")
def _character_pennies_wagered(p: ProjectionContext, e, oid, *_: Any) -> None:
    _purse(p, oid, -e.amount, e.amount)

@PROJECTION.on("Character.PenniesReturned")
def _character_pennies_returned(p: ProjectionContext, e, oid, *_: Any) -> None:
    _purse(p, oid, e.amount, -e.amount)

@PROJECTION.on("Character.StakesSettled")
def _character_stakes_settled(p: ProjectionContext, e, oid, *_: Any) -> None:
    _purse(p, oid, e.received, -e.staked)

@PROJECTION.on("Character.BuyoutPaid")
def _character_buyout_paid(p: ProjectionContext, e, oid, *_: Any) -> None:
    _pile(p, oid, -e.amount)

@PROJECTION.on("Character.BuyoutReceived")
def _character_buyout_received(p: ProjectionContext, e, oid, *_: Any) -> None:
    _pile(p, oid, e.amount)

@PROJECTION.on("Character.CharacteristicSurrendered")
def _character_characteristic_surrendered(p: ProjectionContext, e, oid, *_: Any) -> None:
    p.execute("DELETE FROM {p}characteristics WHERE character_id = ? AND name = ?", (oid, e.name))

@PROJECTION.on("Antagonist.PenniesWagered")
def _antagonist_pennies_wagered(p: ProjectionContext, e, oid, *_: Any) -> None:
    _antagonist_purse(p, oid, -e.amount, e.amount)

@PROJECTION.on("Antagonist.PenniesReturned")
def _antagonist_pennies_returned(p: ProjectionContext, e, oid, *_: Any) -> None:
    _antagonist_purse(p, oid, e.amount, -e.amount)

@PROJECTION.on("Antagonist.StakesSettled")
def _antagonist_stakes_settled(p: ProjectionContext, e, oid, *_: Any) -> None:
    _antagonist_purse(p, oid, e.received, -e.staked, won=e.received - e.staked)

@PROJECTION.on("Antagonist.RepaymentReceived")
def _antagonist_repayment_received(p: ProjectionContext, e, oid, *_: Any) -> None:
    _antagonist_purse(p, oid, e.amount, 0)

@PROJECTION.on("Antagonist.RepaymentPaid")
def _antagonist_repayment_paid(p: ProjectionContext, e, oid, *_: Any) -> None:
    _antagonist_purse(p, oid, -e.amount, 0)

@PROJECTION.on("Character.SettlementCorrected")
def _character_settlement_corrected(p: ProjectionContext, e, oid, *_: Any) -> None:
    _purse(p, oid, e.amount, 0)

@PROJECTION.on("Antagonist.SettlementCorrected")
def _antagonist_settlement_corrected(p: ProjectionContext, e, oid, *_: Any) -> None:
    _antagonist_purse(p, oid, e.amount, 0, won=e.amount)

@PROJECTION.on("House.BuyoutPaid")
def _house_buyout_paid(p: ProjectionContext, e, oid, campaign, at, nid) -> None:
    p.execute("UPDATE {p}adventures SET pile = pile - ? WHERE campaign_id = ? AND number ="
               " (SELECT adventure FROM {p}campaigns WHERE campaign_id = ?)", (e.amount, campaign, campaign))


@PROJECTION.summarises
def _summary(unit: Any) -> dict[str, Any]:
    """A challenge's ante and pot (PA-3, PA-7), and the names of the antagonists the House plays (PA-4: the
    table names them to every seat), for its row in the unit lists."""
    found: dict[str, Any] = {"ante": unit.ante, "pot": unit.pot}
    antagonists = {side: list(data["members"]) for side, data in unit.sides.items() if data["kind"] == "antagonist"}
    if antagonists:
        found["antagonists"] = antagonists
    return found
