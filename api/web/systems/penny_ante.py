"""Penny Ante's web board (issue 31): the table with the pot, each side's purse and wager, the seat's own cup
(the others' hidden dice as backs, C-5), the circumstance dice in the middle, and a control for every legal
move: betting buttons and a raise slider bounded by the legal limits (PA-9), dice to put back in the cup as
checkboxes labelled by their value (PA-8), loans offered, accepted, declined and withdrawn at the table
(PA-14). The campaign page: readable sheets, the House budget and the debt register in words, loan answers as
buttons on their rows, and the announcement of a challenge with seats and antagonists to pick (PA-5).

Everything drawn comes from the signed-in seat's own reads (the view of the table, the sheets, the books).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup

from api.web.render import FACES
from api.web.systems import CampaignView, CommandForm, Group, Move, TableView, WebBoard

#: The steps of a challenge, in words (PA-5 … PA-15).
STEPS = {
    "declare": "Naming characteristics (PA-8)",
    "roll": "Rolling: each side pays the ante and rolls (PA-6, PA-8)",
    "keep": "Keeping dice: each side shows some and cups the rest (PA-8)",
    "betting-1": "First betting round (PA-9)",
    "new-circumstances": "New circumstances, then each side rerolls its cup (PA-7, PA-13)",
    "betting-2": "Second betting round (PA-9)",
    "showdown": "Showdown (PA-11)",
    "folded": "Folded (PA-10)",
    "bankruptcy": "Bankruptcy: debt or buyout (PA-15)",
    "settled": "Settled",
}
#: Moves the table draws with controls of its own; any other legal move gets the generic form.
DRAWN = {"seed", "pass", "declare", "circumstance", "double-down", "roll", "keep", "check", "call", "raise", "fold",
         "all-in", "lend", "bid", "debt", "buyout", "accept-loan", "decline-loan", "withdraw-loan"}
BETS = ("check", "call", "raise", "fold", "all-in")
#: The campaign commands by what they are for; the first group (announcing a challenge) is shown unfolded.
GROUPS = {"announce-challenge": "Challenges", "create-antagonist": "Antagonists",
          "add-antagonist-characteristic": "Antagonists", "fund-antagonist": "Antagonists",
          "offer-loan": "Loans", "buy-characteristic": "Your character", "start-adventure": "Adventures",
          "end-adventure": "Adventures", "add-player": "Seats"}
ORDER = ("Challenges", "Antagonists", "Loans", "Your character", "Adventures", "Seats")
#: Answers to a loan: buttons on the loan's own row (the debt register), never a form asking for its id.
ON_A_LOAN = ("accept-loan", "decline-loan", "withdraw-loan", "repay-loan", "forgive-loan", "record-consequence")
#: PA-11's categories in words ("6s" is the sum of the sixes).
CATEGORIES = {f"{n}s": f"{word} (the sum of the {word})" for n, word in
              enumerate(("ones", "twos", "threes", "fours", "fives", "sixes"), 1)}
#: The other scoring categories (PA-11) in a player's words: what each counts.
CATEGORIES.update({
    "chance": "chance (the sum of the dice)", "three of a kind": "three of a kind (the sum of the dice)",
    "four of a kind": "four of a kind (the sum of the dice)", "full house": "a full house (25)",
    "small straight": "a small straight, four in a row (30)", "large straight": "a large straight, five in a row (40)",
    "yahtzee": "a yahtzee, five alike (50)"})
STATUS = {"offered": "offered, not yet answered", "active": "owed", "declined": "declined", "withdrawn": "withdrawn",
          "repaid": "repaid", "forgiven": "forgiven", "defaulted": "defaulted (unpaid when an adventure began)",
          "reversed": "undone by a rewind", "voided": "voided by an overturn"}


@dataclass
class Side:
    """One side of the table as the seat sees it, in words."""

    key: str  # challenger or opponent
    label: str
    kind: str
    mine: bool
    turn: bool
    #: (name, pile now, put in the pot); the pile is None where the view has none: a step of the replay is the
    #: unit as it stood, and the purses it read then are not part of it
    members: list[tuple[str, int | None, int]]
    wager: int
    betting: int
    doubled: int
    all_in: bool
    characteristics: list[str]
    declared: bool
    dice: list[dict[str, Any]]
    cup_secret: bool = True  # a cup is its side's secret until the challenge ends (C-5); then every seat sees it
    stake_left: int | None = None
    #: C-8: the side's dice every seat saw before an undo took their roll back ({die, value, rolled})
    seen: list[dict[str, Any]] = field(default_factory=list)
    #: C-4, C-10: a players' side's seed in words (public): given, passed or still to come; None for the House's
    seed: str | None = None


@dataclass
class Offer:
    """A loan offered into the challenge (PA-14) and the seat's answers to it."""

    loan: str
    lender: str
    borrower: str
    amount: int
    open: bool
    moves: list[Move] = field(default_factory=list)


def words(names: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1] if names else ""


#: The phases after the last bet (PA-10, PA-11, PA-12): the House's stake no longer has anything to cover.
OVER = ("showdown", "folded", "bankruptcy", "settled", "abandoned")


class PennyAnteBoard(WebBoard):
    #: Penny Ante's rulings in a player's words (the page of rulings, ``/web/rules``).
    rules = {
        "PA-1": "Money is whole pennies; a character starts with the campaign's pile (25 at least).",
        "PA-2": "One characteristic is free; each more costs 5 pennies, bought only between adventures; no two alike.",
        "PA-3": "Starting an adventure gives the House the sum of the players' piles (or an agreed amount); what it "
                "has left when the adventure ends leaves play.",
        "PA-4": "The House funds its antagonists from its pile; each keeps its own pennies and characteristics.",
        "PA-5": "A challenge has two sides: a character, an alliance of players, or the House through an antagonist.",
        "PA-6": "The challenger sets the ante; every member of each side pays it at the roll.",
        "PA-7": "Each side may call one circumstance at the announcement and one before the reroll; each gets a "
                "public die.",
        "PA-8": "A side rolls one die plus one per characteristic it names (at most six), hidden; then it shows some "
                "and keeps the rest in the cup for the reroll.",
        "PA-9": "Two betting rounds, the challenger first: check, call, raise by multiples of the ante, fold or go "
                "all-in.",
        "PA-10": "A fold ends the challenge: the other side takes the pot, and the side that folded narrates.",
        "PA-11": "At the showdown each side scores its best five dice as in Yahtzee; the higher score takes the pot, a "
                 "draw gives each its wager back.",
        "PA-12": "A side that cannot cover a call may go all-in with its whole pile; the excess goes back, and no more "
                 "betting follows.",
        "PA-13": "Doubling down with the second circumstance bars the other side from that die.",
        "PA-14": "Players outside a challenge may each lend once a round to one member of a side; the register "
                 "records every loan until repaid or forgiven.",
        "PA-15": "A side left with nothing chooses a debt to the winner or the best buyout, which costs a "
                 "characteristic.",
        "PA-16": "Bankruptcy debts have no due date.",
        "PA-17": "The House challenges through an antagonist with a stake; it never goes all-in, and its unused "
                 "characteristics stay hidden.",
        "PA-18": "An alliance's bets come evenly from its members' piles; a won pot is split evenly.",
        "PA-19": "Pennies are never made or lost: each is in a pile, a pot or a stake, or left play by a recorded event.",
        "PA-20": "Every member owes the ante; partners cover a member who is short.",
        "PA-21": "A side whose wager is higher after the ante may check; the other must answer.",
        "PA-22": "An alliance's uncalled excess goes back in the reverse of the order it was drawn.",
        "PA-23": "A side's first circumstance may come until its first roll; the House doubles down only within its "
                 "stake; antagonists never go bankrupt.",
        "PA-24": "After a fold into bankruptcy and debt the winner narrates; bankruptcy is judged member by member.",
    }

    package = "penny_ante"
    phases = {"declare": "naming characteristics", "roll": "rolling", "keep": "keeping dice",
              "betting-1": "first betting round", "new-circumstances": "second circumstances",
              "betting-2": "second betting round"}
    #: Penny Ante's steps in words: a draw is stored by the command that set it off (C-10), not by the side
    #: whose dice it rolled.
    step_phrases = {
        "Announced": "{who} announced the challenge", "CharacteristicsDeclared": "{who} named characteristics",
        "CircumstanceDeclared": "{who} called a circumstance", "DiceRolled": "{side}'s dice were rolled (set off by {who})",
        "DiceKept": "{who} kept dice", "RerollCalled": "{who} called for the reroll",
        "CupRerolled": "{side}'s cup was rerolled (set off by {who})", "Checked": "{who} checked", "Called": "{who} called",
        "Raised": "{who} raised {amount}", "Folded": "{who} folded", "WentAllIn": "{who} went all-in",
        "Decided": "The challenge was decided", "BidPlaced": "{who} bid {amount}", "DebtTaken": "{who} took a debt",
        "BuyoutAccepted": "{who} accepted a buyout", "LoanOffered": "{who} offered a loan",
    }

    # -- the table ------------------------------------------------------------------------------------------
    @staticmethod
    def member_name(side: dict[str, Any], member: str, view_names: dict[str, str]) -> str:
        """A character's name; an antagonist is named by itself (even one named like a player's seat)."""
        return member if side.get("kind") == "antagonist" else view_names.get(member, member)

    def side_label(self, side: dict[str, Any], view_names: dict[str, str]) -> str:
        members = [self.member_name(side, m, view_names) for m in side.get("members", [])]
        if side.get("kind") == "antagonist":
            return f"{words(members)} (the House)"
        return words(members)

    def side_name(self, view: TableView, side: str) -> str:  # type: ignore[override]
        """A side by its members' names: Penny Ante's sides list members (characters or an antagonist), not seats."""
        data = (view.state.get("sides") or {}).get(side)
        if not isinstance(data, dict) or not data.get("members"):
            return side
        return words([self.member_name(data, m, view.names) for m in data["members"]])

    def sides(self, t: TableView) -> list[Side]:
        s = t.state
        out = []
        for key in ("challenger", "opponent"):
            side = (s.get("sides") or {}).get(key)
            if side is None:
                continue
            piles, put = side.get("piles"), side.get("contributions") or {}
            # what the House's devoted stake still covers (PA-17), while there is still betting to cover: once the
            # challenge is over, the purse alone says what the antagonist holds
            stake_left = s["stake"] - side["wager"] if side["kind"] == "antagonist" and s.get("stake") is not None \
                and s.get("phase") not in OVER else None
            members = [(self.member_name(side, m, t.names), None if piles is None else piles.get(m, 0), put.get(m, 0))
                       for m in side["members"]]
            out.append(Side(
                key=key, label=self.side_label(side, t.names), kind=side["kind"], mine=s.get("your_side") == key,
                turn=s.get("turn") == key, members=members,
                wager=side["wager"], betting=side.get("betting_wager", side["wager"]),
                doubled=side["wager"] - side.get("betting_wager", side["wager"]), all_in=side["all_in"],
                characteristics=list(side["characteristics"]), declared=side["declared"], dice=list(side["dice"]),
                stake_left=stake_left, cup_secret=s.get("phase") != "settled",
                seen=list(side.get("seen_before_rewind") or []),
                seed=None if s.get("table") else self.seed_words(  # C-3: dice rolled at the table take no seed
                    side, any(d.get("dice") for d in (s.get("sides") or {}).values()))))
        return out

    def slot_words(self, slot: list[Any], sides: Mapping[str, str]) -> str | None:
        """PA-7, PA-8: a die by its side and its number from 1 (the slot counts from 0), a circumstance die by
        its side and step; a slot that carries a fresh seed says so (C-9)."""
        fresh = " (with the fresh seed)" if "fresh" in slot else ""
        if len(slot) >= 3 and slot[0] in ("roll", "reroll") and isinstance(slot[2], int):
            which = "the first roll" if slot[0] == "roll" else "the reroll"
            return f"{sides.get(slot[1], slot[1])}'s die {slot[2] + 1}, {which}{fresh}"
        if len(slot) >= 3 and slot[0] == "circumstance":
            when = "at the announcement" if slot[1] == 1 else "before the reroll"
            return f"{sides.get(slot[2], slot[2])}'s circumstance die, {when}{fresh}"
        return None

    @staticmethod
    def seed_words(side: dict[str, Any], drawn: bool = False) -> str | None:
        """A players' side's seed, said on its box so a seat sees its seed went in (C-4, C-10); the House seeds
        nothing (its secret is committed when the challenge opens). ``drawn``: a roll was made, so the seeds
        are closed (a side that gave none rolled without, its roll standing for its input)."""
        if side.get("kind") == "antagonist":
            return None
        seed = side.get("seed")
        if seed is None:
            return "no seed words: the dice were drawn without" if drawn else "no seed words yet"
        return "passed: no seed words" if seed == "" else f"seed words given: “{seed}”"

    def abandoned_lines(self, t: TableView) -> list[tuple[str, str]]:
        """C-10: each side's dice still to roll and its circumstance die apart. The record holds as many dice as a
        side may ever roll (PA-8); a side that declared its characteristics rolls 1 die plus one for each, from
        the first, so only those are said; an undeclared side's are said as the most it could roll."""
        sides = {x.key: x for x in self.sides(t)}
        dice: dict[str, list[str]] = {}
        extra: dict[str, str] = {}
        firsts: set[str] = set()
        for record in t.would_have_drawn:
            slot = [str(x) for x in record.get("slot") or []]
            side = next((x for x in slot if x in sides), None)
            if side is None:
                continue
            if slot[0] == "circumstance":
                extra[side] = str(record["value"])
            else:
                dice.setdefault(side, []).append(str(record["value"]))
                if slot[0] == "roll":  # the first roll's slots (a reroll's are the side's own dice)
                    firsts.add(side)
        lines = []
        for key, which in sides.items():
            if key not in dice and key not in extra:
                continue
            rolled, first = dice.get(key, []), key in firsts
            if first and which.declared:
                rolled = rolled[:1 + len(which.characteristics)]
                said = f"{' '.join(rolled)} (1 die and one per characteristic named, PA-8)"
            else:
                said = " ".join(rolled) + (" (the most a side rolls; it takes its dice from the first, PA-8)"
                                           if first else "")
            if key in extra:
                said += f"; a circumstance die, if one was called for: {extra[key]}"
            lines.append((which.label, said.strip("; ")))
        return lines

    def offers(self, t: TableView) -> list[Offer]:
        out = []
        for o in t.state.get("loan_offers") or []:
            moves = [m for m in t.moves if m.name in ("accept-loan", "decline-loan", "withdraw-loan")
                     and str(m.limits.get("loan")) == str(o["loan_id"])]
            out.append(Offer(loan=str(o["loan_id"]), lender=t.name_of(o["lender"]), borrower=t.name_of(o["borrower"]),
                             amount=o["amount"], open=bool(o["open"]), moves=moves))
        return out

    #: An answered loan in words (PA-14), after "<lender> offered <borrower> <n> pennies: ".
    ANSWERED = {"accepted": "accepted, and the pennies moved", "declined": "declined",
                "withdrawn": "withdrawn by the lender", "reversed": "taken back by the House's undo (C-6)"}

    def answered(self, t: TableView) -> list[str]:
        """Each loan offered at this table that was answered, in words: the lender sees his offer was taken."""
        out = []
        for o in t.state.get("loans_answered") or []:
            amount = int(o["amount"])
            out.append(f"{t.name_of(o['lender'])} offered {t.name_of(o['borrower'])} {amount} "
                       f"{'penny' if amount == 1 else 'pennies'}: {self.ANSWERED.get(o['answer'], o['answer'])}.")
        return out

    def offers_elsewhere(self, t: TableView) -> list[tuple[str, str, str, str]]:
        """Loans offered to this seat outside this table (on the campaign page, or at another table) and still
        waiting for its answer: said here, in words, each with a link to where it is answered, so a borrower
        sitting at this table does not miss them (PA-14). From the seat's own sheet (C-5: nobody else's offers).
        Each is (what, where it is answered, the link there, the link's words)."""
        here = t.unit_id.hex
        out = []
        for o in (t.own or {}).get("offers") or []:
            into = str(o.get("challenge_id") or "").replace("-", "")
            if o.get("borrower") != t.seat or o.get("status") != "offered" or into == here:
                continue
            amount = o.get("amount")
            what = f"{t.name_of(str(o.get('lender')))} offers you {amount} {'penny' if amount == 1 else 'pennies'}"
            out.append((what, "at another table", f"/web/units/{into}", "answer at that table") if into else
                       (what, "on the campaign page", "/web/campaign", "answer on the campaign page"))
        return out

    def result(self, t: TableView, sides: list[Side]) -> list[str]:
        """The outcome in words: who won and why, the scores, who takes what, who narrates (PA-10 … PA-15)."""
        r = t.state.get("result")
        if not r:
            return []
        label = {s.key: s.label for s in sides}
        many = {s.key for s in sides if len(s.members) > 1}  # an alliance: "Ilse Varn and Brother Tomas take the pot"

        def says(key: Any, one: str, several: str) -> str:
            return several if key in many else one

        lines = []
        reason, winner = r.get("reason"), r.get("winner")
        if reason == "abandoned":
            lines.append(f"The House abandoned this challenge: {r.get('abandoned') or ''}. Every penny went back to "
                         "whoever put it in (C-10, PA-19).")
        elif reason == "fold":
            lines.append(f"{label.get(other(winner), '')} folded: {label.get(winner, '')} "
                         f"{says(winner, 'takes', 'take')} the pot (PA-10).")
        elif reason in ("overturned", "void"):
            why = ((r.get("overturned") or [{}])[-1] or {}).get("reason")  # C-6: every seat sees why
            lines.append("The House overturned the result" + (f" (“{why}”)" if why else "") + ": " +
                         (f"{label.get(winner)} {says(winner, 'wins', 'win')}." if winner else "the challenge is void (C-6)."))
        elif winner is None:
            lines.append("A draw: each side takes back its own wager (PA-11).")
        else:
            lines.append(f"{label.get(winner, '')} {says(winner, 'wins', 'win')} the showdown (PA-11).")
        for key, score in (r.get("scores") or {}).items():
            if isinstance(score, dict):
                category = CATEGORIES.get(str(score.get("category")), score.get("category"))
                lines.append(f"{label.get(key, key)} {says(key, 'scores', 'score')} {score.get('score')}: "
                             f"{category} with {words([str(d) for d in score.get('hand') or []])}.")
        for member, amount in (r.get("payouts") or {}).items():
            lines.append(f"{t.name_of(member)} takes {amount} {'penny' if amount == 1 else 'pennies'} from the pot.")
        if r.get("narrator"):
            lines.append(f"{label.get(r['narrator'], r['narrator'])} {says(r['narrator'], 'narrates', 'narrate')}.")
        return lines

    def bankrupt_lines(self, t: TableView) -> list[str]:
        out = []
        for member, b in (t.state.get("bankrupts") or {}).items():
            bids = ", ".join(f"{t.name_of(x['bidder'])} {x['amount']}" for x in b.get("bids") or []) or "none yet"
            status = {"pending": "chooses between the debt and the best buyout", "debt": "took the debt",
                      "bought": f"was bought out, giving up {b.get('surrendered')}"}.get(b.get("status"), b.get("status"))
            out.append(f"{t.name_of(member)} is bankrupt, lost {b.get('lost')} pennies, and {status}. Bids: {bids}.")
        return out

    def table(self, view: TableView) -> Markup:
        sides = self.sides(view)
        moves = {m.name: m for m in view.moves if m.name not in ("accept-loan", "decline-loan", "withdraw-loan")}
        return self.render(
            "table.html", t=view, s=view.state, sides=sides, mine=[x for x in sides if x.mine],
            others=[x for x in sides if not x.mine], moves=moves, bets=[moves[b] for b in BETS if b in moves],
            offers=self.offers(view), answered=self.answered(view), elsewhere=self.offers_elsewhere(view), result=self.result(view, sides),
            bankrupts=self.bankrupt_lines(view),
            step="Settled, then overturned by the House (C-6)" if view.phase == "settled" and view.overturned
            else "Abandoned by the House before its result (C-10)" if view.abandoned
            else STEPS.get(view.phase, view.phase), other_moves=[m for m in view.moves if m.name not in DRAWN],
            labels={x.key: x.label for x in sides}, faces=FACES, pairs=lambda xs: [(x, x) for x in xs or []],
            lend_to=[(b, view.name_of(b)) for b in (moves["lend"].limits.get("borrowers") or [])] if "lend" in moves else [])

    def unit_title(self, unit: dict[str, Any], names: dict[str, str]) -> str:
        """``Lady Sen challenges Ilse``: the challenger's names, then the opponent's (PA-5)."""
        sides = unit.get("sides")
        if isinstance(sides, dict) and "challenger" in sides:
            first = [self.member_name(sides["challenger"], m, names) for m in sides["challenger"].get("members", [])]
            other_side = sides.get("opponent") or {}
            second = [self.member_name(other_side, m, names) for m in other_side.get("members", [])]
        else:  # a unit in the campaign's list: its members' names, an antagonist's as the summary names it
            named = (unit.get("summary") or {}).get("antagonists") or {}
            first = list(named.get("challenger") or [names.get(m, m) for m in unit.get("challenger") or []])
            second = list(named.get("opponent") or [names.get(m, m) for m in unit.get("opponent") or []])
        who = words(first) or "Someone"
        against = words(second)
        return f"{who} {'challenge' if len(first) > 1 else 'challenges'} {against}" if against else who

    # -- the campaign ------------------------------------------------------------------------------------------
    def group_of(self, command: CommandForm) -> str:
        return GROUPS.get(command.verb) or super().group_of(command)

    def usable(self, command: CommandForm, view: CampaignView) -> bool:
        running = bool(view.campaign.get("adventure_running"))
        if command.verb in ON_A_LOAN:
            return False  # answered on the loan's own row, never by typing its id
        if command.verb == "announce-challenge":
            return running  # a challenge happens during an adventure (C-1)
        if command.verb == "fund-antagonist":
            return running and bool(self.antagonists(view))  # the House funds from its pile (PA-4)
        if command.verb == "buy-characteristic":
            return not running and bool(view.own)  # between adventures only (PA-2)
        if command.verb == "offer-loan":
            return bool(view.own) and len(view.others) > 0
        if command.verb in ("add-antagonist-characteristic",):
            return bool(self.antagonists(view))
        return super().usable(command, view)

    def groups(self, view: CampaignView) -> list[Group]:
        found = super().groups(view)
        found.sort(key=lambda g: ORDER.index(g.label) if g.label in ORDER else len(ORDER))
        return [Group(g.label, g.commands, open=g.label == "Challenges") for g in found]

    @staticmethod
    def antagonists(view: CampaignView) -> list[dict[str, Any]]:
        budget = view.book("budget") or {}
        return list(budget.get("antagonists") or view.book("antagonists") or [])

    def command_form(self, command: CommandForm, view: CampaignView) -> Markup | None:
        template = {"announce-challenge": "announce.html", "fund-antagonist": "fund.html",
                    "add-antagonist-characteristic": "add_characteristic.html", "offer-loan": "offer_loan.html",
                    "buy-characteristic": "buy.html"}.get(command.verb)
        if template is None:
            return None
        return self.render(template, cmd=command, c=view, antagonists=self.antagonists(view),
                           players=[(s["seat"], s["name"]) for s in [*view.own, *view.others]],
                           own=view.own[0] if view.own else None,
                           house_pile=(view.book("budget") or {}).get("pile", 0),
                           antagonist_options=[(a["name"], f"{a['name']} ({a['pennies']} pennies)") for a in
                                               self.antagonists(view)])

    def campaign(self, view: CampaignView) -> Markup:
        antagonists = self.antagonists(view)
        known = {a["name"] for a in antagonists}
        register = (view.book("debts") or {}).get("loans") or []
        rows = [self.loan_row(view, loan, known) for loan in register]
        return self.render("campaign.html", c=view, antagonists=antagonists, budget=view.book("budget"),
                           rows=rows, more=(view.book("debts") or {}).get("next_after"), status=STATUS)

    def loan_row(self, view: CampaignView, loan: dict[str, Any], antagonists: set[str]) -> dict[str, Any]:
        """A loan of the register in words, with the answers this seat can give it now (PA-14, PA-16)."""
        seat, status = view.seat, loan["status"]
        adventure = view.campaign.get("adventure")
        into = loan.get("challenge_id")
        pile = view.own[0]["pile"] if view.own else 0
        actions: list[tuple[str, str, dict[str, Any]]] = []  # (verb, words, fields)
        if status == "offered" and not into:  # an offer into a challenge is answered at its table
            if seat == loan["borrower"]:
                if loan.get("adventure") == adventure:
                    actions.append(("accept-loan", f"Accept {loan['amount']}", {}))
                actions.append(("decline-loan", "Decline", {}))
            if seat == loan["lender"]:
                actions.append(("withdraw-loan", "Withdraw the offer", {}))
        if status in ("active", "defaulted") and loan["outstanding"]:
            payer = "house" if loan["borrower"] in antagonists else loan["borrower"]
            creditor = "house" if loan["lender"] in antagonists else loan["lender"]
            reach = loan["outstanding"] if payer == "house" else min(loan["outstanding"], pile)
            if seat == payer and reach >= 1:
                actions.append(("repay-loan", "Repay", {"max": reach}))
            if seat == creditor:
                actions.append(("forgive-loan", f"Forgive the {loan['outstanding']} owed", {}))
        if status == "defaulted" and view.is_house and not loan.get("consequence"):
            actions.append(("record-consequence", "Record what befalls the borrower", {}))
        what = KINDS.get(loan.get("kind") or "loan", KINDS["loan"])
        where = "during a challenge" if into else "between players"
        return {**loan, "owed": loan.get("kind") in ("debt", "shortfall"),
                "lender_name": view.name_of(loan["lender"]), "borrower_name": view.name_of(loan["borrower"]),
                "what": what, "where": where, "status_words": sentence(STATUS.get(status, status)), "actions": actions,
                "history_words": sentence("; ".join(
                    f"{h['what']} by {view.name_of(h['actor'])}" + (f" ({h['amount']})" if h.get("amount") else "")
                    + (f": {h['note']}" if h.get("note") else "") for h in loan.get("history") or []))}

    def answer(self, verb: str, value: Any, view: CampaignView) -> Markup:
        return self.render("answer.html", verb=verb, value=value if isinstance(value, dict) else {"value": value},
                           c=view)


#: What a row of the register is, in words.
KINDS = {"loan": "A loan (PA-14)", "debt": "A bankruptcy debt (PA-15)",
         "shortfall": "What an overturned result left owing (C-6)"}


def sentence(text: str) -> str:
    """The text with its first letter upper case (names keep their own)."""
    return text[:1].upper() + text[1:]


def other(side: str | None) -> str:
    return "opponent" if side == "challenger" else "challenger"


BOARD = PennyAnteBoard()
