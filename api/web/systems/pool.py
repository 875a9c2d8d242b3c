"""The Pool's web board (issue 31): dice pools as dice, traits and moves bought by tapping, a roll made from the
player's own sheet and answered on the campaign page, contests played at their table (PL-1 … PL-9).

Nothing in the Pool is hidden from another seat but the secret seed (C-5), which only the replay shows once the
unit is settled; sheets are public, so every seat sees every pool, trait, move and standing offer of help.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from markupsafe import Markup

from api.web.systems import CampaignView, CommandForm, TableView, WebBoard
from domain.systems.pool import rules

#: PL-2: what a total means, in words.
OUTCOMES = {"full": "full success", "mixed": "success with a complication", "miss": "miss"}
#: The commands a player makes from his own sheet (drawn by ``campaign``, not listed among the groups).
SHEET_VERBS = ("roll", "open-contest", "offer-help", "raise-trait", "cash-in-trait", "buy-move")
#: Those that need an adventure under way (C-1, issue 30).
IN_ADVENTURE = ("roll", "open-contest")


def counted(dice: list[int]) -> set[int]:
    """The places of the two highest dice, the ones the total adds (PL-2)."""
    order = sorted(range(len(dice)), key=lambda i: (-dice[i], i))
    return set(order[:2])


def trait_offers(sheet: dict[str, Any]) -> list[dict[str, Any]]:
    """Each trait with what raising it costs now (PL-5), or None past +3 or beyond the pool's floor (two dice)."""
    out = []
    for name, rating in sheet.get("traits", {}).items():
        others = [r for t, r in sheet["traits"].items() if t != name]
        cost = rules.step_cost(rating + 1, others) if rating < 3 else None
        out.append({"name": name, "rating": rating, "raise": cost,
                    "affordable": cost is not None and sheet["pool"] - cost >= rules.FLOOR})
    return out


def new_trait_cost(sheet: dict[str, Any]) -> int:
    """A new trait at +1: 2 dice plus one for every trait already at +1 (PL-5)."""
    return rules.step_cost(1, sheet.get("traits", {}).values())


def help_for(seat: str, sheets: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The standing offers of help to ``seat`` (PL-7), as ``{seat, name, dice}``, each within the helper's pool."""
    out = []
    for s in sheets:
        offer = s.get("help_offer") or {}
        if offer.get("to") == seat and s.get("seat") != seat and s["pool"] - offer["dice"] >= rules.FLOOR:
            out.append({"seat": s["seat"], "name": s["name"], "dice": offer["dice"]})
    return out


def read(sheet: dict[str, Any], limit: int = 5) -> dict[str, Any]:
    """A sheet as the page draws it: its latest rolls (newest first) with the dice each total counted."""
    return {**sheet, "rolls": [{**r, "counted": counted(r["dice"])} for r in sheet.get("rolls", [])[:limit]]}


class PoolBoard(WebBoard):
    #: The Pool's rulings in a player's words (the page of rulings, ``/web/rules``).
    rules = {
        "PL-1": "A character has a short description and a pool of dice (12 to start); traits may be bought at "
                "creation, keeping at least 2 dice.",
        "PL-2": "A roll takes at least 2 dice; the two highest plus one trait make the result: 10 or more a full "
                "success, 7 to 9 a success with a complication, 6 or less a miss.",
        "PL-3": "After a roll every 5 or 6 is lost from the pool, never below 2 dice.",
        "PL-4": "A miss: the House narrates and the pool gains 2 dice. A hit: narrate it, or let the House narrate and "
                "gain 1 die.",
        "PL-5": "Traits can be added, raised one step or cashed in later; spending always leaves 2 dice.",
        "PL-6": "Moves may be bought with dice (2, 5 or 10).",
        "PL-7": "A character may help another with dice; the helper's dice pay for the 5s and 6s first.",
        "PL-8": "Opposed rolls: in tiers a hit beats a miss, and two hits are a stalemate to fold or push; in highest "
                "the higher result wins.",
        "PL-9": "In an opposed roll each side that missed gains 2 dice and nobody else does (none at all in highest); "
                "help is checked when the roll is made.",
    }

    package = "pool"

    # -- names -----------------------------------------------------------------------------------------------
    def unit_title(self, unit: dict[str, Any], names: dict[str, str]) -> str:
        """"Mara Quill's roll", "Mara Quill against Tom Reyes": names, never the unit's class."""
        if isinstance(unit.get("sides"), dict):  # a contest's state, on its own page
            seats = [str(unit["sides"][side]["seat"]) for side in ("challenger", "opponent") if side in unit["sides"]]
        elif "roller" in unit:  # a roll's state
            seats = [str(unit["roller"])]
        else:  # a line of the campaign's list of units
            seats = [*(unit.get("challenger") or []), *(unit.get("opponent") or [])]
        who = [names.get(s, s) for s in seats]
        if str(unit.get("kind")) in ("PoolContest", "contest") and len(who) == 2:
            return f"{who[0]} against {who[1]}"
        rolled = unit.get("summary") or {}  # a list's line: the roll's total, so two of them read apart
        said = f": {rolled['total']}, a {OUTCOMES.get(str(rolled.get('outcome')), rolled.get('outcome'))}" \
            if isinstance(rolled.get("total"), int) else ""
        return f"{who[0]}'s roll{said}" if who else "A roll"

    # -- steps in words (the undo list, the replay) -------------------------------------------------------------
    step_phrases = {
        "Opened": "{who} opened the contest", "TieBroken": "The House broke the tie",
    }

    def step_words(self, event: str, detail: dict[str, Any], actor: str, name_of: Callable[[str], str],
                   sides: Mapping[str, str] | None = None) -> str:
        """A roll with its dice, total and outcome (PL-2), a contest's round by whose side rolled it, an answer to
        a stalemate as a push or a fold (PL-8), the narrator's choice (PL-4) and the House's tie-break (PL-8)."""
        who = name_of(actor)
        side = detail.get("side")
        whose = (sides or {}).get(str(side), who) if isinstance(side, str) else who
        if event == "Rolled" and isinstance(detail.get("total"), int) and isinstance(detail.get("count"), int):
            said = OUTCOMES.get(str(detail.get("outcome")), str(detail.get("outcome")))
            rounds = f" in round {detail['round']}" if isinstance(detail.get("round"), int) else ""
            return f"{whose} rolled {detail['count']} dice{rounds}: {detail['total']}, a {said}"
        if event == "Answered" and detail.get("answer") in ("push", "fold"):
            return f"{whose} {'pushed on' if detail['answer'] == 'push' else 'folded'} in the stalemate (PL-8)"
        if event == "Chosen" and detail.get("choice") in ("narrate", "house"):
            return (f"{who} chose to narrate the hit" if detail["choice"] == "narrate" else
                    f"{who} let the House narrate the hit, for 1 die (PL-4)")
        if event == "TieBroken" and detail.get("decision") in ("reroll", "interrupt"):
            return ("The House asked both sides to roll again (PL-8)" if detail["decision"] == "reroll" else
                    "The House narrated an interruption: nobody wins (PL-8)")
        return super().step_words(event, detail, actor, name_of, sides)

    # -- the campaign page -------------------------------------------------------------------------------------
    def usable(self, command: CommandForm, view: CampaignView) -> bool:
        if command.verb in SHEET_VERBS:
            return False  # drawn on the player's own sheet (``campaign``)
        return super().usable(command, view)

    def group_of(self, command: CommandForm) -> str:
        return "Seat a player" if command.verb == "add-player" else super().group_of(command)

    def command_controls(self, command: CommandForm, view: CampaignView) -> Markup:
        if command.verb == "add-player":
            return self.render("add_player.html", cmd=command, costs=rules.TRAIT_COST, rows=3)
        return Markup("")

    def opens_table(self, verb: str) -> bool:
        return verb != "roll"  # a roll is one request: its dice and outcome answer on the campaign page

    def slot_words(self, slot: list[Any], sides: Mapping[str, str]) -> str | None:
        """A die of a roll (``["roll", seat, i]``) or of a contest's round (``["round", r, side, i]``), by whose it
        is and its number from 1 (the slot counts from 0), for the replay's verify panel (PL-2, PL-8)."""
        if len(slot) == 3 and slot[0] == "roll" and isinstance(slot[2], int):
            return f"{sides.get(str(slot[1]), slot[1])}'s die {slot[2] + 1}"
        if len(slot) == 4 and slot[0] == "round" and isinstance(slot[3], int):
            return f"{sides.get(str(slot[2]), slot[2])}'s die {slot[3] + 1}, round {slot[1]}"
        return None

    def campaign(self, view: CampaignView) -> Markup:
        own = read(view.own[0]) if view.own else None
        others = [read(s) for s in view.others]
        everyone = [*view.own, *view.others]
        running = bool(view.campaign.get("adventure_running"))
        can = {c.verb for c in view.commands}
        context: dict[str, Any] = {
            "c": view, "own": own, "others": others, "running": running, "can": can,
            "entered": bool((view.campaign.get("settings") or {}).get("table_dice")),
            "outcomes": OUTCOMES, "floor": rules.FLOOR, "move_costs": rules.MOVE_COSTS,
        }
        if own is not None:
            context.update(
                traits=trait_offers(own), new_cost=new_trait_cost(own), offers=help_for(own["seat"], everyone),
                pending=[u for u in view.open if u.get("kind") == "PoolRoll" and own["seat"] in (u.get("challenger") or [])],
                contests=[u for u in view.open if u.get("kind") == "PoolContest"
                          and own["seat"] in [*(u.get("challenger") or []), *(u.get("opponent") or [])]])
        return self.render("campaign.html", **context)

    def answer(self, verb: str, value: Any, view: CampaignView) -> Markup:
        if verb == "roll" and isinstance(value, dict) and "state" in value:
            state = value["state"]
            choose = next((a for a in value.get("legal_actions", []) if a.get("action") == "choose"), None)
            return self.render("roll.html", unit_id=value["id"], s=state, names=view.names, outcomes=OUTCOMES,
                               counted=counted(state.get("dice") or []), title=self.unit_title(state, view.names),
                               choices=choose.get("choices") if choose else None, inline=True)
        if verb in SHEET_VERBS or verb in ("add-player", "start-adventure", "end-adventure"):
            return self.render("answer.html", verb=verb, value=value, names=view.names)
        return super().answer(verb, value, view)

    # -- a unit's table ----------------------------------------------------------------------------------------
    def table(self, view: TableView) -> Markup:
        if view.kind == "PoolRoll":
            choose = view.move("choose")
            return self.render("roll.html", t=view, unit_id=view.unit_id, s=view.state, names=view.names, outcomes=OUTCOMES,
                               counted=counted(view.state.get("dice") or []), title=self.unit_title(view.state, view.names),
                               choices=choose.limits.get("choices") if choose else None, inline=False)
        if view.kind == "PoolContest":
            own = view.own
            return self.render("contest.html", t=view, s=view.state, names=view.names, outcomes=OUTCOMES,
                               own=own, pools={sh["seat"]: sh["pool"] for sh in view.sheets}, counted=counted)
        return super().table(view)


BOARD = PoolBoard()
