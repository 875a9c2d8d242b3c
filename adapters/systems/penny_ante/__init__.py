"""Penny Ante's adapter module: its read models and projection, its sheet, its challenge view, and its own
reads (the House budget, the debt register, the antagonists), and a seat's moves alone
(``legal_actions``, ADR 0034). See ``adapters/systems/__init__.py``."""

from adapters.systems.penny_ante import schemas
from adapters.systems.penny_ante.projection import PROJECTION
from adapters.systems.penny_ante.reads import ANSWERS, READS, legal_actions, players, sheet, unit_view

SHEET = schemas.Sheet
UNITS = (schemas.ChallengeView,)

__all__ = ["ANSWERS", "PROJECTION", "READS", "SHEET", "UNITS", "legal_actions", "players", "sheet", "unit_view"]

from adapters.plugin import Line, Tracked  # noqa: E402

# The chart (issue 31): a player's pile over the campaign (PA-1), moved by the events its projection follows.
_PLUS, _MINUS = (lambda e: e.amount), (lambda e: -e.amount)
TRACKED = Tracked(
    label="pennies", ruling="PA-1",
    starts={"Character.Created": lambda e: Line(seat=e.seat, name=e.name, value=e.pile)},
    moves={
        "Character.CharacteristicBought": lambda e: -e.cost,  # PA-2
        "Character.LoanPaidOut": _MINUS, "Character.LoanReceived": _PLUS,  # PA-14
        "Character.RepaymentPaid": _MINUS, "Character.RepaymentReceived": _PLUS,
        "Character.PenniesWagered": _MINUS, "Character.PenniesReturned": _PLUS,
        "Character.StakesSettled": lambda e: e.received,
        "Character.BuyoutPaid": _MINUS, "Character.BuyoutReceived": _PLUS,
        "Character.SettlementCorrected": _PLUS,
    },
)
__all__ += ["TRACKED"]


from adapters.luck import dice_luck  # noqa: E402

# -- the luck report (issue 31, ADR 0035): every die is a fair d6 (PA-6) -------------------------------------
LUCK = dice_luck(6)
__all__ += ["LUCK"]
