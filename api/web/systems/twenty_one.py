"""Twenty-one's web board (issue 31): the cards as cards, the 15 / 17 / 21 line, the order of play, and a
control for every legal move of the seat (TO-1 … TO-16, C-3 … C-10).

Everything drawn comes from the signed-in seat's own reads (``TableView.state``, the conflict as that seat
may see it, C-5): another seat's hand, a set-aside card and a face-down order card come as ``{"card": None}``
and are drawn as backs; nothing here looks a card up anywhere else. The moves come from the legal actions:
a card to lay, to lay for the order, or to assist or hinder with is tapped; a hold's use, keep or discard,
easier or harder are buttons; the characters laying for the order and those engaged in a conflict are
checkboxes by character name. With table cards (C-3) the deck and a reshuffle are entered by tapping the
cards in the order they lie (``boards/twenty_one.js``); a campaign without table cards shows no such field.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from api.web.systems import CampaignView, CommandForm, Group, TableView, WebBoard, ordinal
from domain.systems.twenty_one import cards as c

RANK_NAMES = {"A": "ace", "K": "king", "Q": "queen", "J": "jack"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
OUTCOMES = {"full": "full success", "mixed": "mixed result", "fail": "failure"}
#: Moves with their own place on the board; any other legal move is drawn from its schema (none today).
DRAWN = {"seed", "pass", "deal", "order", "order-card", "lay", "draw", "stand", "hold", "keep", "assist", "hinder",
         "modifier", "reshuffle", "end"}


def card_name(code: str) -> str:
    """``9H`` -> "9 of hearts", ``AS`` -> "ace of spades" (what a screen reader says of a card)."""
    rank, suit = code[:-1], code[-1]
    return f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[suit]}"


def face(code: str) -> dict[str, Any]:
    """A card as the templates draw it: rank, suit symbol, colour and name."""
    return {"code": code, "rank": code[:-1], "suit": c.PRETTY[code[-1]], "red": code[-1] in "HD",
            "name": card_name(code)}


def shown(item: Any) -> dict[str, Any] | None:
    """A card of the view (a code, or ``{"card": …, "seen_before_rewind": …}``) as a face, or None for a back."""
    if isinstance(item, dict):
        code = item.get("card")
        if code is None:
            return None
        return {**face(code), "seen": bool(item.get("seen_before_rewind"))}
    return None if item is None else face(str(item))


@dataclass(frozen=True)
class Cell:
    """One step of the 15 / 17 / 21 line."""

    label: str
    zone: str  # fail, mixed, full, bust
    here: bool


def line(total: int, targets: dict[str, int]) -> list[Cell]:
    """TO-4, TO-6: the totals from a little under the lower of the total and the mixed target up to 21, then the
    bust; each in its zone, the total marked. Labelled where it matters: the targets, 21 and the total."""
    mixed, full = targets["mixed"], targets["full"]
    low = max(2, min(total, mixed) - 2)
    cells = []
    for n in range(low, 22):
        zone = "full" if n >= full else "mixed" if n >= mixed else "fail"
        label = str(n) if n in (low, mixed, full, 21, total) else ""
        cells.append(Cell(label, zone, n == total))
    cells.append(Cell("bust", "bust", total > 21))
    return cells


def standing(total: int, targets: dict[str, int]) -> str:
    """What standing now would give, in words (TO-4)."""
    mixed, full = targets["mixed"], targets["full"]
    if total > 21:
        return f"{total} is over 21: bust, a failure."
    if total >= full:
        return f"At {total}, standing now is a full success (full at {full})."
    if total >= mixed:
        return f"At {total}, standing now is a mixed result; {full} for a full success."
    return f"At {total}, standing now fails: {mixed} for a mixed result, {full} for a full success."


def modifier_words(value: int) -> str:
    return "−1, easier" if value < 0 else "+1, harder"


def result_words(r: dict[str, Any], name: str) -> str:
    """One resolved action in words (TO-4, TO-5, TO-12)."""
    aims = r["targets"]
    how = {"natural": "laid a natural 21", "bust": f"went bust at {r['total']}",
           "stood": f"stood at {r['total']}"}.get(r["how"], f"{r['how']} at {r['total']}")
    return f"{name} {how} against {aims['mixed']} / {aims['full']}: {OUTCOMES.get(r['outcome'], r['outcome'])}."


class TwentyOneBoard(WebBoard):
    #: Twenty-one's rulings in a player's words (the page of rulings, ``/web/rules``).
    rules = {
        "TO-1": "One shuffled deck per conflict; when it runs out the discards are shuffled back in.",
        "TO-2": "Each player is dealt 3 hidden cards; the House holds none.",
        "TO-3": "When it matters, each actor lays a card face down for the order of play; highest first, ties dealt "
                "again.",
        "TO-4": "An action lays 2 cards, then draws or stands: 17 or more is a full success, 15 or more a mixed one, "
                "over 21 fails.",
        "TO-5": "A 21 from the first two cards is a full success nothing can change.",
        "TO-6": "Each modifier moves both targets by one, easier or harder; the House names its source.",
        "TO-7": "Another player may assist or hinder by swapping in a card for the last one laid, once per action.",
        "TO-8": "A hold from the sheet swaps in the set-aside card, or a card drawn, for the last one laid.",
        "TO-9": "When everyone has acted once, the round ends and every hand is dealt back up to 3.",
        "TO-10": "One ace counts 11 while that keeps the total at 21 or less; every other ace counts 1.",
        "TO-11": "The first two cards laid decide a natural 21 the moment they are laid.",
        "TO-12": "A bust ends the action at once; modifiers are +1 or -1 each, added until the action ends.",
        "TO-13": "One assist or hinder per action, besides the actor's own hold; an unused hold card is discarded.",
        "TO-14": "Laid cards are discarded when an action ends; the set-aside card goes back to the hand; each player "
                 "acts once a round.",
        "TO-15": "Untied actors go before tied ones; tie cards are dealt face up, highest tie first.",
        "TO-16": "A tie the deck cannot break shuffles the discards in first; only when that is not enough are the "
                 "tied ordered by seat.",
    }

    package = "twenty_one"
    phases = {"play": "playing", "tie": "breaking a tie", "reshuffle": "reshuffling"}
    script = True

    #: Twenty-one's steps in words: a deal or a shuffle is stored by the command that set it off (C-10).
    step_phrases = {
        "Opened": "{who} opened the conflict", "Shuffled": "The deck was shuffled (set off by {who})",
        "HandDealt": "{seat}'s cards were dealt (set off by {who})", "OrderCalled": "{who} called for the order of play",
        "OrderCardLaid": "{seat} laid a card for the order", "OrderSettled": "The order of play was settled",
        "CardsLaid": "{seat} laid two cards", "CardDrawn": "{seat} drew a card", "Stood": "{seat} stood",
        "ModifierAdded": "{who} added a modifier ({source})", "Replaced": "{seat} replaced the last card laid ({kind})",
        "HoldSpent": "{seat} spent a hold ({use})",
        "HoldCardDiscarded": "{seat} discarded the card drawn for a hold (TO-13)",
        "ActionResolved": "{seat}'s action: {outcome}", "RoundEnded": "Round {round} ended",
        "ReshuffleAwaited": "The deck ran out: the House shuffles the discards", "RefillResumed": "The deal went on",
        "Ended": "{who} ended the conflict", "Voided": "{who} voided the conflict",
    }

    def step_words(self, event: str, detail: dict[str, Any], actor: str, name_of: Callable[[str], str],
                   sides: Mapping[str, str] | None = None) -> str:
        """A hand dealt says whether it was the opening deal (TO-2) or the round's refill (TO-9): the step a move
        of several deals ends on is offered alone in the undo list, and read as one seat's deal it misled."""
        if event == "ActionResolved" and isinstance(detail.get("seat"), str) and isinstance(detail.get("total"), int) \
                and isinstance(detail.get("targets"), dict) and {"mixed", "full"} <= set(detail["targets"]):
            return result_words({**detail, "how": detail.get("how") or ""}, name_of(str(detail["seat"]))).rstrip(".")
        if event == "CardsLaid" and isinstance(detail.get("seat"), str) and isinstance(detail.get("cards"), list):
            drawn = detail.get("drawn") if isinstance(detail.get("drawn"), list) else []
            laid = "a card" if len(detail["cards"]) == 1 else f"{len(detail['cards'])} cards"
            more = f", and drew {'a card' if len(drawn) == 1 else f'{len(drawn)} cards'} to make two (TO-4)" \
                if drawn else ""
            return f"{name_of(str(detail['seat']))} laid {laid}{more}"
        if event == "HandDealt" and isinstance(detail.get("seat"), str) and detail.get("why") in ("deal", "refill"):
            whose = name_of(str(detail["seat"]))
            return (f"The opening deal: {whose}'s three cards (set off by {name_of(actor)}, TO-2)"
                    if detail["why"] == "deal" else
                    f"The refill at the round's end: {whose}'s hand dealt back up to three (TO-9)")
        return super().step_words(event, detail, actor, name_of, sides)

    # -- the table --------------------------------------------------------------------------------------------
    def slot_words(self, slot: list[Any], sides: Mapping[str, str]) -> str | None:
        """The deck shuffled for the deal (``["shuffle", 0]``) or the discards reshuffled into it
        (``["shuffle", n]``, TO-14, TO-16), for the replay's verify panel."""
        if len(slot) == 2 and slot[0] == "shuffle" and isinstance(slot[1], int):
            return "the deck shuffled for the deal" if slot[1] == 0 else \
                f"the discards reshuffled into the deck ({ordinal(slot[1])} reshuffle, TO-14)"
        return None

    def draw_words(self, recorded: Any) -> str | None:
        """A shuffle as the cards print (``A♠ 10♥ …``), spaced, not their stored codes run together."""
        if isinstance(recorded, list) and recorded and all(isinstance(x, str) and x in c.DECK for x in recorded):
            return " ".join(x[:-1] + c.PRETTY[x[-1]] for x in recorded)
        return None

    def table(self, view: TableView) -> Markup:
        s = view.state
        me = view.seat if view.seat in s.get("seats", []) else None
        hands = s.get("hands") or {}
        mine = [x for x in (shown(i) for i in hands.get(me, [])) if x is not None] if me else []
        others = [{"seat": seat, "name": view.name_of(seat), "cards": [shown(i) for i in hands.get(seat, [])]}
                  for seat in s.get("seats", []) if seat != me]
        return self.render("table.html", t=view, s=s, me=me, mine=mine, others=others,
                           action=self._action(view), order=self._order(view), results=self._results(view),
                           seeds=self._seeds(view), moves=self._moves(view, mine), face=face, pile={
                               "discard": [face(x) for x in s.get("discard") or []],
                               "deck": [face(x) for x in s.get("deck") or []],
                               "known": [shown(x) for x in s.get("deck_known") or []]},
                           extra=[m for m in view.moves if m.name not in DRAWN])

    def abandoned_lines(self, view: TableView) -> list[tuple[str, str]]:
        """C-10: the hands the abandoned deal would have dealt, seat by seat (TO-2)."""
        lines = []
        for record in view.would_have_drawn:
            for seat, dealt in (record.get("hands") or {}).items():
                lines.append((view.name_of(seat), " ".join(f"{face(x)['rank']}{face(x)['suit']}" for x in dealt)))
        return lines or super().abandoned_lines(view)

    def _action(self, view: TableView) -> dict[str, Any] | None:
        a = view.state.get("action")
        if not a:
            return None
        total, aims = int(a["total"]), a["targets"]
        aside = a.get("set_aside")
        return {
            "actor": a["actor"], "name": view.name_of(a["actor"]), "yours": a["actor"] == view.seat,
            "laid": [face(x) for x in a["laid"]], "total": total, "targets": aims, "natural": a["natural"],
            "line": line(total, aims), "words": standing(total, aims),
            "modifiers": [{"words": modifier_words(m["value"]), "source": m["source"]} for m in a["modifiers"]],
            "replacement": None if not a.get("replacement") else {
                "name": view.name_of(a["replacement"]["seat"]), "kind": a["replacement"]["kind"]},
            "hold": a.get("hold_used"), "pending": face(a["pending"]) if a.get("pending") else None,
            "set_aside": None if not aside else {"card": shown(aside)},
        }

    def _order(self, view: TableView) -> dict[str, Any]:
        s = view.state
        acted, turn = set(s.get("acted") or []), s.get("turn")
        acting = (s.get("action") or {}).get("actor")
        rows = [{"name": view.name_of(seat), "acted": seat in acted, "next": seat == turn, "you": seat == view.seat,
                 "acting": seat == acting} for seat in s.get("turn_order") or []]
        laying = None
        if s.get("ordering"):
            o = s["ordering"]
            laying = [{"name": view.name_of(seat), "you": seat == view.seat, "laid": seat in o["laid"],
                       "card": shown(o["laid"][seat]) if seat in o["laid"] else None} for seat in o["actors"]]
        last = None
        if s.get("last_order"):
            lo = s["last_order"]
            last = {"cards": [{"name": view.name_of(seat), "card": face(code)} for seat, code in lo["cards"].items()],
                    "ties": [[{"name": view.name_of(seat), "card": face(code)} for seat, code in tie.items()]
                             for tie in lo.get("ties") or []], "round": lo.get("round")}
        return {"rows": rows, "laying": laying, "last": last, "round": s.get("round"),
                "waiting": [view.name_of(x) for x in s.get("seats", []) if x not in acted]}

    def _results(self, view: TableView) -> list[dict[str, Any]]:
        out = []
        for r in reversed(view.state.get("results") or []):
            out.append({"round": r["round"], "words": result_words(r, view.name_of(r["seat"])),
                        "outcome": r["outcome"], "laid": [face(x) for x in r["laid"]],
                        "modifiers": [{"words": modifier_words(m["value"]), "source": m["source"]}
                                      for m in r.get("modifiers") or []],
                        "replacement": None if not r.get("replacement") else {
                            "name": view.name_of(r["replacement"]["seat"]), "kind": r["replacement"]["kind"]},
                        "hold": r.get("hold"), "overturned": r.get("overturned")})
        return out

    def _seeds(self, view: TableView) -> list[dict[str, str]]:
        """C-4, C-10: who has seeded or passed (the words themselves are the replay's, not the table's)."""
        seeds = view.state.get("seeds") or {}
        return [{"name": view.name_of(seat), "state": "passed" if seed == "" else "waiting" if seed is None else
                 "seeded"} for seat, seed in seeds.items()]

    def _moves(self, view: TableView, mine: list[dict[str, Any]]) -> dict[str, Any]:
        """The seat's moves, each with what its control needs."""
        out: dict[str, Any] = {m.name: m for m in view.moves}
        a = view.state.get("action")
        # C-8: a card of the hand every seat saw before a rewind says so on its control too, so its owner knows
        # the others know it (found on a phone walk: the hand's cards to tap looked like any other)
        seen = {f["code"] for f in mine if f.get("seen")}

        def card(x: str) -> dict[str, Any]:
            return {**face(x), "seen": x in seen}

        replace = []
        for m in view.moves:
            if m.name == "assist" and a:
                rest = list(a["laid"][:-1])
                replace = [{**card(x), "total": c.total([*rest, x])} for x in m.limits.get("choices", [])]
        out["replace_with"] = replace
        out["holds"] = [m for m in view.moves if m.name == "hold"]
        out["lay_cards"] = [card(x) for x in (out["lay"].limits.get("choices", []) if "lay" in out else [])]
        out["sources"] = self._sources(view)
        out["actors"] = [(seat, view.name_of(seat)) for seat in
                         (out["order"].limits.get("choices", []) if "order" in out else [])]
        return out

    def _sources(self, view: TableView) -> list[str]:
        """TO-6: what a modifier may come from: the actor's skills, the surroundings, the other characters."""
        a = view.state.get("action")
        if not a:
            return []
        skills = next((list(sh.get("skills") or []) for sh in view.sheets if sh.get("seat") == a["actor"]), [])
        helpers = [view.name_of(seat) for seat in view.state.get("seats", []) if seat != a["actor"]]
        return [*skills, "the surroundings", *helpers]

    def unit_title(self, unit: dict[str, Any], names: dict[str, str]) -> str:
        # its state's seats, else a list line's sides (every seat: a conflict has a side a seat)
        found = unit.get("sides")
        listed_sides: list[Any] = found if isinstance(found, list) else []
        seats = list(unit.get("seats") or [seat for side in listed_sides for seat in side]
                     or [*(unit.get("challenger") or []), *(unit.get("opponent") or [])])
        who = [names.get(s, s) for s in seats]
        listed = who[0] if len(who) == 1 else ", ".join(who[:-1]) + " and " + who[-1] if who else "nobody"
        return f"Conflict: {listed}"

    # -- the campaign --------------------------------------------------------------------------------------------
    def campaign(self, view: CampaignView) -> Markup:
        hand = view.book("hand") or {}
        units = {str(u["id"]): u for u in view.units}
        hands = [{"title": self.unit_title(units.get(str(h["conflict"]), {}), view.names), "id": h["conflict"],
                  "phase": h["phase"], "cards": [face(x) for x in h["cards"]],
                  "set_aside": face(h["set_aside"]) if h.get("set_aside") else None}
                 for h in hand.get("hands") or []]
        return self.render("campaign.html", c=view, hands=hands, own=[self._sheet(s, view) for s in view.own],
                           others=[self._sheet(s, view) for s in view.others])

    def _sheet(self, sheet: dict[str, Any], view: CampaignView) -> dict[str, Any]:
        return {"name": sheet.get("name"), "seat": sheet.get("seat"), "skills": sheet.get("skills") or [],
                "holds": sheet.get("holds", 0),
                "actions": [{"at": r["at"], "words": result_words({**r, "seat": sheet.get("seat")},
                                                                  str(sheet.get("name"))),
                             "laid": [face(x) for x in r["laid"]], "overturned": r.get("overturned")}
                            for r in (sheet.get("actions") or [])[:5]]}

    GROUPS = {"open-conflict": "Conflicts", "grant-holds": "Holds", "add-player": "Seats",
              "start-adventure": "Adventures", "end-adventure": "Adventures"}
    ORDER = ("Conflicts", "Holds", "Adventures", "Seats")

    def group_of(self, command: CommandForm) -> str:
        return self.GROUPS.get(command.verb) or super().group_of(command)

    def usable(self, command: CommandForm, view: CampaignView) -> bool:
        players = [s for s in view.own + view.others if s.get("seat")]
        if command.verb == "open-conflict":  # C-1: during an adventure; TO-2: player characters only
            return bool(view.campaign.get("adventure_running")) and bool(players)
        if command.verb == "grant-holds":  # TO-8: holds come from a skill
            return any(s.get("skills") for s in players)
        if command.verb == "end-adventure":  # an adventure does not end while a conflict is open
            return super().usable(command, view) and not view.open
        return super().usable(command, view)

    def groups(self, view: CampaignView) -> list[Group]:
        found = super().groups(view)
        ranked = sorted(found, key=lambda g: self.ORDER.index(g.label) if g.label in self.ORDER else len(self.ORDER))
        return [Group(g.label, g.commands, open=g.label == "Conflicts") for g in ranked]

    def command_form(self, command: CommandForm, view: CampaignView) -> Markup | None:
        players = [s for s in view.own + view.others if s.get("seat")]
        if command.verb == "open-conflict":
            return self.render("open_conflict.html", cmd=command,
                               characters=[(s["seat"], s.get("name") or s["seat"]) for s in players])
        if command.verb == "grant-holds":
            return self.render("grant_holds.html", cmd=command, characters=[
                {**s, "skill_options": [(k, k) for k in s["skills"]]} for s in players if s.get("skills")])
        return None

    def answer(self, verb: str, value: Any, view: CampaignView) -> Markup:
        if verb == "grant-holds" and isinstance(value, dict) and "holds" in value:
            return self.render("answer_holds.html", sheet=value)
        return super().answer(verb, value, view)


BOARD = TwentyOneBoard()
