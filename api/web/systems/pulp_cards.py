"""Pulp in the Cards in the browser (issue 31): deals and combats drawn as the table reads them.

A hand is a fan of seven cards, black against red (PU-1), with its totals, its degree and what the result
means in words (PU-2, PU-3, PU-8); a combat is its initiative track (who acts in which order, each combatant's
initiative cards and total, PU-5, PU-9) with each attack's outcome. Every move is a control made from the
seat's legal actions: targets and ambushers are chosen by character name, advantages with steppers,
difficulties with a slider, cuts from a list; the players' seed (C-4) is words of their own or a random value
drawn in the browser (``static/seed.js``). The House's characters are names typed into commands (a deal for
one of them, a combat): the forms say so where a name is asked.

Everything drawn comes from the signed-in seat's reads (C-5): another seat's unshown hand is seven backs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from markupsafe import Markup

from api.web.systems import CampaignView, CommandForm, Group, TableView, WebBoard
from domain.seats import HOUSE
from domain.systems.pulp_cards import rules

#: Card codes in the deck's order (PU-1): what a table-cards form offers.
DECK = rules.DECK
#: The cuts a dealing player chooses from (PU-7): the top k cards go under the rest.
CUTS = [(k, f"at {k}: the top {k} go under") for k in range(1, len(DECK))]
RANK_WORDS = {"A": "ace", "2": "two", "4": "four"}
SUIT_WORDS = {"♠": "spades", "♥": "hearts", "♦": "diamonds"}


def card(code: str | None, tie: bool = False) -> dict[str, Any]:
    """One card as the page draws it: rank, suit, colour and words for a screen reader; None is a card face
    down (another seat's hand, C-5)."""
    if code is None:
        return {"back": True, "label": "a card face down"}
    points = rules.points(code)
    if rules.is_black(code) or rules.is_red(code):
        face = rules.face(code)
        rank, suit = face[:-1], face[-1]
        colour = "black" if rules.is_black(code) else "red"
        label = f"{colour} {RANK_WORDS[rank]} of {SUIT_WORDS[suit]}, {points} point{'s' if points != 1 else ''}"
    else:
        rank, suit, colour, label = "", "♛", "picture", "picture card, no points"
    if tie:
        label += ", dealt to break a tie"
    return {"back": False, "code": code, "rank": rank, "suit": suit, "colour": colour, "label": label,
            "points": points, "tie": tie}


def hand(cards: list[str] | None, size: int = rules.HAND) -> list[dict[str, Any]]:
    return [card(c) for c in cards] if cards else [card(None) for _ in range(size)]


def signed(value: int) -> str:
    return f"{value:+d}".replace("-", "−")


def outcome(result: dict[str, Any], difficulty: int, kind: str = "standard", who: str = "") -> dict[str, Any]:
    """What a deal's result means, in words (PU-2, PU-3, PU-4, PU-8): the totals, the degree, how far above or
    below the difficulty it came, a critical or a fumble; a resistance deal from the character's side."""
    degree, net = result["degree"], result["degree"] - difficulty
    against = f"degree {signed(degree)} against difficulty {signed(difficulty)}"
    if result["critical"]:
        head, tone = "Critical success", "critical"
        detail = f"a degree of {signed(degree)}: +5 or more always succeeds (PU-3)"
    elif result["fumble"]:
        head, tone = "Fumble", "fumble"
        detail = f"a degree of {signed(degree)}: −5 or less always fails (PU-3)"
    elif result["success"]:
        grade = "A narrow" if net == 1 else "A clear" if net <= 3 else "A great"
        head, tone = f"{grade} success, by {net}", "success"
        detail = f"{against}: above it by {net}"
    else:
        short = 1 - net
        head = "A failure, just short" if short == 1 else f"A failure, short by {short}" if short <= 3 \
            else f"A bad failure, short by {short}"
        tone = "failure"
        detail = f"{against}: the degree must be above the difficulty (PU-2)"
    if kind == "resistance":  # the result is the action's on the character (PU-8)
        name = who or "the character"
        detail = f"the action on {name}: {head[0].lower()}{head[1:]}; {detail} (PU-4, PU-8)"
        head = f"{name} does not resist" if result["success"] else f"{name} resists"
    return {"head": head, "detail": detail, "tone": tone, "black": result.get("black"), "red": result.get("red"),
            "degree": signed(degree), "difficulty": signed(difficulty)}


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def names_list(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1] if names else ""


class PulpBoard(WebBoard):
    #: Pulp in the Cards' rulings in a player's words (the page of rulings, ``/web/rules``).
    rules = {
        "PU-1": "The deck has 14 cards: black 1, 2 and 4, red 1, 1, 2 and 2, and seven pictures worth nothing.",
        "PU-2": "A deal: shuffle, cut, deal 7; black points minus red points, less the difficulty (-4 to +4), must be "
                "above 0 to succeed.",
        "PU-3": "A raw degree of +5 or more is a critical success, -5 or less a fumble.",
        "PU-4": "A resistance deal: black is the action on the character, red the resistance.",
        "PU-5": "Combat: an optional surprise deal, then initiative by 2 cards each plus advantage, highest first; each "
                "attack is a deal, and the House records its effect.",
        "PU-6": "The sheet is the player's notes; the House may add notes, conditions and promotions.",
        "PU-7": "Cards are dealt from the top; the dealer gives the cut (1 to 13), or it is drawn.",
        "PU-8": "A resistance deal's difficulty and outcome are the action's; a critical always succeeds, a fumble "
                "always fails.",
        "PU-9": "Initiative ties are broken by one more card plus the same advantage; if the deck runs short, by name.",
    }

    package = "pulp_cards"

    def slot_words(self, slot: list[Any], sides: Mapping[str, str]) -> str | None:
        """A shuffle or a drawn cut by the deal it is for (PU-5, PU-7): a deal (``["deal"]``), the surprise deal,
        the initiative of a cycle, a combatant's k-th attack; one drawn with the players' fresh seed says so
        (C-9). A slot of another shape (an initiative tie's swaps) is said as its parts."""
        if not slot or "swap" in slot:
            return None
        cut = ", its cut" if slot[-1] == "cut" else ""
        fresh = " (with the fresh seed)" if "fresh" in slot else ""
        if slot[0] == "deal":
            return f"the deal's {'cut' if cut else 'shuffle'}{fresh}"
        if slot[0] == "surprise":
            return f"the surprise deal{cut or ', its shuffle'}{fresh}"
        if slot[0] == "initiative" and len(slot) > 1 and isinstance(slot[1], int):
            return f"the initiative deal of cycle {slot[1]}{fresh}"
        if slot[0] == "attack" and len(slot) > 2 and isinstance(slot[2], int):
            return f"{sides.get(str(slot[1]), slot[1])}'s {ordinal(slot[2])} attack{cut}{fresh}"
        return None

    def draw_words(self, recorded: Any) -> str | None:
        """A shuffle as the cards print (``A♠ 2♥ ▢``, picture cards blank), not their stored codes (PU-1)."""
        if isinstance(recorded, list) and recorded and all(isinstance(c, str) and c in rules.POINTS for c in recorded):
            return rules.faces(recorded)
        return None

    def abandoned_lines(self, view: TableView) -> list[tuple[str, str]]:
        """C-10: each deal the combat would have made: the surprise (its 7 cards after the House's drawn cut),
        the first initiative shuffle, or the attack up next (its 7 cards after its cut), as the cards print."""
        lines = []
        for record in view.would_have_drawn:
            slot = [str(x) for x in record.get("slot") or []]
            cards = record.get("cards") or record.get("order") or []
            if slot[:1] == ["attack"] and len(slot) > 1:
                whose = f"{slot[1]}'s attack up next"
            elif slot[:1] == ["initiative"]:
                whose = "The initiative deal"
            else:
                whose = "The surprise deal" if slot[:1] == ["surprise"] else "The deal"
            cut = f" (cut at {record['cut']})" if record.get("cut") is not None else ""
            lines.append((whose, rules.faces(cards) + cut))
        return lines

    # -- the table ---------------------------------------------------------------------------------------
    def table(self, view: TableView) -> Markup:
        if view.state.get("kind") == "combat":
            return self.render("combat.html", t=view, **self.combat(view))
        return self.render("deal.html", t=view, **self.deal(view))

    def deal(self, view: TableView) -> dict[str, Any]:
        s = view.state
        who = str(s.get("character") or view.name_of(str(s.get("dealer"))))
        result = s.get("result")
        mine = s.get("dealer") == view.seat
        return {
            "who": who, "dealer": view.name_of(str(s.get("dealer"))), "mine": mine,
            "resistance": s.get("kind") == "resistance",
            "cards": hand(s.get("cards")), "hidden": bool(s.get("hidden")),
            "outcome": outcome(result, s["difficulty"], s.get("kind", "standard"), who) if result else None,
            "difficulty": signed(int(s.get("difficulty") or 0)),
            "cut": s.get("cut"), "cut_by": s.get("cut_by"), "shown": s.get("phase") == "settled",
            "overturned": s.get("overturned"), "show": view.move("show"),
        }

    def combat(self, view: TableView) -> dict[str, Any]:
        s = view.state
        seats = {c["name"]: c["seat"] for c in s.get("combatants") or []}
        settled = s.get("phase") == "settled"
        attacks = [self.attack(a, seats, view) for a in s.get("attacks") or []]
        init = s.get("initiative") or {}
        dealt: dict[str, list[dict[str, Any]]] = {}
        for name, code, rnd in init.get("dealt") or []:
            dealt.setdefault(name, []).append(card(code, tie=rnd >= 2))
        order = list(s.get("order") or [])
        turn, phase, cycle = int(s.get("turn") or 0), s.get("phase"), int(s.get("cycle") or 0)
        track = []
        for i, name in enumerate(order or list(seats)):
            this_cycle = [a for a in attacks if a["attacker"] == name and a["cycle"] == cycle and not a["free"]]
            if not order:
                status = "waiting"
            elif settled:  # the House may end a combat mid-cycle: only who attacked this cycle has attacked
                status = "done" if this_cycle else "ended"
            elif phase == "cycle-end" or (phase == "attacking" and i < turn):
                status = "done"
            elif phase == "attacking" and i == turn:
                status = "up"
            else:
                status = "next"
            track.append({
                "place": i + 1 if order else None, "name": name, "seat": seats.get(name),
                "played_by": "House character" if seats.get(name) == "house" else "player character",
                "yours": self.yours(seats.get(name), view), "cards": dealt.get(name, []),
                "advantage": (init.get("advantages") or {}).get(name, 0), "total": (init.get("totals") or {}).get(name),
                "status": status, "attack": this_cycle[-1] if this_cycle else None})
        surprise = s.get("surprise")
        if surprise:
            surprise = {**surprise, "cards": hand(surprise.get("cards")),
                        "outcome": outcome(surprise["result"], surprise["difficulty"])}
        up = s.get("up")
        surprise_move = view.move("surprise")
        mine_unshown = [a for a in attacks if a["yours"] and not a["hidden"] and not a["shown"] and not settled]
        return {
            "seats": seats, "names": list(seats), "track": track, "attacks": list(reversed(attacks)),
            "cycle": cycle, "up": up, "surprise": surprise, "status": self.status(s, view),
            "by_name": init.get("by_name") or [], "ties": any(c["tie"] for cards in dealt.values() for c in cards),
            "kept": init.get("kept"), "init_cycle": init.get("cycle"),
            "owed": bool(s.get("owed")), "called": self.called(s.get("called")), "seeds": self.seeds(s),
            "fresh": bool(s.get("fresh_owed")), "chosen": self.chosen(s.get("chosen")),
            "mine_unshown": mine_unshown, "settled": settled, "overturned": s.get("overturned"),
            "seen_before": [self.seen(h) for h in s.get("seen_before_the_rewind") or []],
            "targets": [(n, n) for n in seats if n != up], "default_target": self.default_target(up, seats),
            "house_attacks": seats.get(str(up)) == "house", "table": bool(s.get("table")),
            "deck": self.deck_options(), "cuts": CUTS, "ordinal": ordinal,
            "required": {m.name: m.limits.get("required") or [] for m in view.moves},
            # C-9: after a rewind that kept a fresh seed, the House's choice as it made it (the form is set to it)
            "bound": {m.name: m.limits.get("bound") for m in view.moves if m.limits.get("bound") is not None},
            "ambushers": [(n, n) for n in (surprise_move.limits.get("choices") or [])] if surprise_move else [],
            "about": {a["number"]: self.about(a) for a in attacks},
        }

    @staticmethod
    def about(a: dict[str, Any]) -> str:
        """An attack in a few words: ``attack 2, Ilse Varn on Sheriff Cole``."""
        return f"attack {a['number']}, {a['attacker']}" + (f" on {a['target']}" if a.get("target") else "")

    @staticmethod
    def yours(seat: str | None, view: TableView) -> bool:
        return seat is not None and seat == view.seat

    def attack(self, a: dict[str, Any], seats: dict[str, str], view: TableView) -> dict[str, Any]:
        hidden = bool(a.get("hidden")) or not a.get("cards")
        return {
            "number": a["number"], "cycle": a["cycle"], "attacker": a["attacker"], "target": a.get("target"),
            "free": bool(a.get("free")), "difficulty": signed(int(a.get("difficulty") or 0)),
            "dealer": view.name_of(a["dealer"]), "yours": a["dealer"] == view.seat, "hidden": hidden,
            "shown": bool(a.get("shown") or a.get("seen_before_rewind")), "seen_before": bool(a.get("seen_before_rewind")),
            "effect": a.get("effect"), "cards": hand(None if hidden else a["cards"]),
            "outcome": None if hidden else outcome(a["result"], int(a.get("difficulty") or 0)),
            "cut": a.get("cut"),
        }

    @staticmethod
    def seen(h: dict[str, Any]) -> dict[str, Any]:
        """A hand every seat saw before a rewind took it back (C-8): still public."""
        slot = h.get("slot") or []
        what = {"surprise": "The surprise deal", "initiative": "Initiative"}.get(str(slot[0]) if slot else "", "")
        if slot and slot[0] == "attack":
            what = f"{h.get('attacker') or slot[1]}'s attack"
        cards = h.get("cards") or [c for _, c, _ in h.get("dealt") or []]
        return {"what": what or "A deal", "cards": hand(cards, len(cards))}

    @staticmethod
    def default_target(up: str | None, seats: dict[str, str]) -> str | None:
        """The first combatant of the other side, else anyone but the attacker."""
        if up is None:
            return None
        mine = seats.get(up) == "house"
        other = [n for n, seat in seats.items() if n != up and (seat != "house") == mine]
        return next(iter(other or [n for n in seats if n != up]), None)

    @staticmethod
    def called(called: dict[str, Any] | None) -> str | None:
        """C-10: the first deal the House called, in words."""
        if not called:
            return None
        if called.get("kind") == "surprise":
            return (f"a surprise deal by {called.get('ambusher')} at difficulty "
                    f"{signed(int(called.get('difficulty') or 0))}")
        given = ", ".join(f"{n} +{v}" for n, v in (called.get("advantages") or {}).items() if v)
        return "initiative" + (f" (advantage: {given})" if given else "")

    @staticmethod
    def chosen(chosen: dict[str, Any] | None) -> str | None:
        """C-9: the House's choice that waits for the players' fresh seed, in words."""
        if not chosen:
            return None
        if chosen.get("kind") == "keep":
            return "to keep the order for the next cycle"
        if chosen.get("kind") == "initiative":
            given = ", ".join(f"{n} +{v}" for n, v in (chosen.get("advantages") or {}).items() if v)
            return "initiative for the next cycle" + (f" (advantage: {given})" if given else "")
        target = f" on {chosen['target']}" if chosen.get("target") else ""
        return (f"{chosen.get('attacker')}'s attack{target} at difficulty "
                f"{signed(int(chosen.get('difficulty') or 0))}")

    @staticmethod
    def seeds(s: dict[str, Any]) -> str:
        """The players' input in words (C-4, C-10); hashes stay on the replay page."""
        if s.get("table"):
            return "Cards are dealt at the table and entered by the House (C-3)."
        seed = (s.get("seeds") or {}).get("players")
        if "players" in (s.get("owed") or []):
            return "The players' seed (or pass) is still owed."
        if s.get("fresh_owed") and s.get("phase") != "settled":
            return "The players owe a fresh seed for the House's choice (C-9, C-10)."
        if seed is None:
            if any(c.get("seat") != "house" for c in s.get("combatants") or []):
                return "The table ended before the players gave their seed."
            return "No player in this combat: no seed."
        fresh = sum(1 for given in (s.get("fresh_seeds") or {}).values() if given.get("players"))
        since = (f" Since then, {'a fresh seed of theirs has' if fresh == 1 else f'{fresh} fresh seeds of theirs have'}"
                 " dealt what the House chose (C-9).") if fresh else ""
        return ("The players passed: no seed of theirs at the start." if seed == "" else
                "The players added a seed of their own.") + since

    def status(self, s: dict[str, Any], view: TableView) -> str:
        phase, cycle, up = s.get("phase"), s.get("cycle") or 0, s.get("up")
        if phase == "settled":
            how = f" (“{s['ended']}”)" if s.get("ended") else ""
            return f"The combat has ended{how}: every card is shown."
        if s.get("chosen") and s.get("fresh_owed") and (s.get("chosen") or {}).get("kind") == "keep":
            return (f"The House chose {self.chosen(s.get('chosen'))}. It stands as soon as the players add a "
                    "fresh seed, so nobody knew the next deal when choosing (C-9, C-10).")
        if s.get("chosen") and s.get("fresh_owed"):
            return (f"The House chose {self.chosen(s.get('chosen'))}. It is dealt as soon as the players add a "
                    "fresh seed, so nobody knew those cards when choosing (C-9, C-10).")
        if phase == "opened" and s.get("called"):
            return (f"The House called {self.called(s.get('called'))}. It is dealt as soon as the players "
                    "seed or pass (C-10).")
        if phase == "opened" and s.get("surprise"):
            return "The surprise is dealt: the House deals initiative next (PU-5)."
        if phase == "opened":
            return "The House deals first: a surprise deal, or initiative."
        if phase == "free-attack":
            return f"{up} took them by surprise: a free attack before initiative (PU-5)."
        if phase == "attacking":
            order = list(s.get("order") or [])
            place = f" ({ordinal(int(s.get('turn') or 0) + 1)} of {len(order)})" if order else ""
            return f"Cycle {cycle}: {up} attacks{place}."
        if phase == "cycle-end":
            return f"Cycle {cycle} is over: the House keeps the order or deals initiative again."
        return str(phase)

    def step_words(self, event: str, detail: dict[str, Any], actor: str, name_of: Callable[[str], str],
                   sides: Mapping[str, str] | None = None) -> str:
        """An attack by its attacker: a House character's attack is dealt by the command of the seat whose
        fresh seed it waited for (C-9), which is not who attacked."""
        if event == "Attacked" and isinstance(detail.get("attacker"), str):
            target = f" on {detail['target']}" if isinstance(detail.get("target"), str) else ""
            sent = f" (dealt when {name_of(actor)} sent the fresh seed)" \
                if detail.get("seat") == HOUSE and actor != HOUSE else ""
            return f"{detail['attacker']}'s attack{target}{sent}"
        number = detail.get("number") if isinstance(detail.get("number"), int) else None
        if event == "AttackShown" and number is not None:
            return f"Attack {number} shown to every seat, by {name_of(actor)}"
        if event == "EffectRecorded" and number is not None:
            effect = f": “{detail['effect']}”" if isinstance(detail.get("effect"), str) else ""
            return f"The House recorded the effect of attack {number}{effect}"
        if event == "DealCalled" and detail.get("kind") in ("surprise", "initiative"):
            if detail["kind"] == "initiative":
                return "The House called for the initiative deal (PU-5, C-10)"
            by = f" by {detail['ambusher']}" if isinstance(detail.get("ambusher"), str) else ""
            at = f" at difficulty {detail['difficulty']}" if isinstance(detail.get("difficulty"), int) else ""
            return f"The House called for the surprise deal{by}{at} (PU-5, C-10)"
        if event == "HouseChose":
            made: dict[str, Any] = detail["choice"] if isinstance(detail.get("choice"), dict) else {}
            if made.get("kind") == "attack" and isinstance(made.get("attacker"), str):
                target = f" on {made['target']}" if isinstance(made.get("target"), str) else ""
                at = f" at difficulty {made['difficulty']}" if isinstance(made.get("difficulty"), int) else ""
                return f"The House chose {made['attacker']}'s attack{target}{at}, dealt with the players' fresh seed (C-9)"
            return "The House made its choice, dealt with the players' fresh seed (C-9)"
        if event == "OrderKept" and actor != HOUSE:  # the House's choice, standing with the fresh seed (C-9)
            return f"The order kept (the House's choice, when {name_of(actor)} sent the fresh seed, C-9)"
        if event in ("SurpriseDealt", "InitiativeDealt") and actor != HOUSE:  # the House's call, dealt by the
            # players' seed or pass (C-9, C-10): one step cannot tell which
            what = "The surprise deal" if event == "SurpriseDealt" else "Initiative dealt"
            return f"{what} (the House's call, dealt with {name_of(actor)}'s input, C-10)"
        return super().step_words(event, detail, actor, name_of, sides)

    # -- names and the campaign page ------------------------------------------------------------------------
    def unit_title(self, unit: dict[str, Any], names: dict[str, str]) -> str:
        kind = str(unit.get("kind", ""))
        if unit.get("combatants"):
            return "Combat: " + names_list([c["name"] for c in unit["combatants"]])
        if unit.get("character"):
            return f"{unit['character']}'s {'resistance deal' if kind == 'resistance' else 'deal'}"
        summary = unit.get("summary") or {}
        if summary.get("names"):  # a line of the lists: the names its summary row holds (House characters too)
            if kind == "PulpCombat":
                return "Combat: " + names_list([str(n) for n in summary["names"]])
            return f"{summary['names'][0]}'s {'resistance deal' if summary.get('deal') == 'resistance' else 'deal'}"
        seats = [names.get(s, s) for s in [*(unit.get("challenger") or []), *(unit.get("opponent") or [])]]
        if kind == "PulpCombat":
            return "Combat: " + (names_list(seats) or "the House")
        who = seats[0] if seats else "the House"
        return f"{who[0].upper()}{who[1:]}'s deal"

    def group_of(self, command: CommandForm) -> str:
        return {"deal": "Deals and combats", "open-combat": "Deals and combats",
                "add-note": "Sheets"}.get(command.verb) or super().group_of(command)

    def usable(self, command: CommandForm, view: CampaignView) -> bool:
        if command.verb in ("deal", "open-combat"):
            return bool(view.campaign.get("adventure_running"))  # C-1: units happen during an adventure
        if command.verb == "add-note":
            return bool(view.own or view.others)
        return super().usable(command, view)

    def groups(self, view: CampaignView) -> list[Group]:
        found = super().groups(view)
        rank = {"Deals and combats": 0, "Adventures": 1, "Sheets": 2, "Seats": 3}
        ordered = sorted(found, key=lambda g: rank.get(g.label, 9))
        return [Group(g.label, g.commands, open=g.label == "Deals and combats") for g in ordered]

    def command_form(self, command: CommandForm, view: CampaignView) -> Markup | None:
        players = [(s["seat"], s["name"]) for s in [*view.own, *view.others] if s.get("seat")]
        table = bool((view.campaign.get("settings") or {}).get("table_cards"))
        context = {"cmd": command, "c": view, "players": players, "table": table, "deck": self.deck_options(),
                   "cuts": CUTS}
        template = {"deal": "cmd_deal.html", "open-combat": "cmd_open_combat.html",
                    "add-note": "cmd_add_note.html"}.get(command.verb)
        return self.render(template, **context) if template else None

    @staticmethod
    def deck_options() -> list[tuple[str, str]]:
        """The fourteen cards as (code, words) for a table-cards form (C-3): nobody types a card's code."""
        out = []
        for code in DECK:
            c = card(code)
            out.append((code, f"{c['rank']}{c['suit']} {c['label']}" if c["rank"] else c["label"]))
        return out

    def campaign(self, view: CampaignView) -> Markup:
        return self.render("campaign.html", c=view, own=[self.sheet(s, view) for s in view.own],
                           others=[self.sheet(s, view) for s in view.others])

    def sheet(self, s: dict[str, Any], view: CampaignView) -> dict[str, Any]:
        deals = []
        for d in s.get("deals") or []:
            kind = {"standard": "Deal", "resistance": "Resistance deal"}.get(d["kind"], f"Attack {d['number']}")
            deals.append({**d, "what": kind, "cards": hand(d["cards"]),
                          "outcome": outcome(d, d["difficulty"], d["kind"], s.get("name", ""))})
        notes = [{**n, "by_name": view.name_of(n["by"])} for n in s.get("notes") or []]
        return {**s, "deals": deals[:10], "notes": notes}

    def answer(self, verb: str, value: Any, view: CampaignView) -> Markup:
        if verb == "add-note" and isinstance(value, dict) and value.get("seat"):
            return self.render("answer_note.html", sheet=self.sheet(value, view))
        return super().answer(verb, value, view)


BOARD = PulpBoard()
