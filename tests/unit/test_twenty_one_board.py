"""Twenty-one's web board drawn from in-memory conflicts (issue 31): cards named for a screen reader, the
15 / 17 / 21 line, a yes/no button posted as a boolean, hidden cards never in another seat's markup (C-5) over
whole random games, and the reshuffle field only where table cards need it (C-3)."""

from __future__ import annotations

import random
import re
from typing import Any
from uuid import uuid4

import pytest

from api.web import forms
from api.web.systems import Move, TableView
from api.web.systems.twenty_one import BOARD, card_name, line
from domain.kernel.registry import system_of_unit
from domain.systems.twenty_one import commands as cmd
from domain.systems.twenty_one.cards import DECK, total
from tests.unit.twenty_one_game import Game

NAMES = {"ilse": "Ilse Varn", "tomas": "Brother Tomas", "house": "the House"}
INPUTS = {
    "lay": lambda m, rnd: {"cards": rnd.sample(list(m["choices"]), m["min"])},
    "draw": lambda m, rnd: {}, "stand": lambda m, rnd: {},
    "order": lambda m, rnd: {},
    "order-card": lambda m, rnd: {"card": rnd.choice(m["choices"])},
    "assist": lambda m, rnd: {"replace_with": rnd.choice(m["choices"])},
    "hinder": lambda m, rnd: {"replace_with": rnd.choice(m["choices"])},
    "hold": lambda m, rnd: {rnd.choice(m["choices"]).replace("-", "_"): True},
    "keep": lambda m, rnd: {"keep": rnd.choice(m["choices"])},
    "modifier": lambda m, rnd: {"value": rnd.choice(m["choices"]), "source": "the surroundings"},
}


def table_of(game: Game, seat: str) -> TableView:
    """The table as ``api.web.pages.table_view`` builds it for ``seat``, from the seat's own view (C-5)."""
    unit = game.conflict
    holds = 0 if seat == "house" else game.holds(seat)
    moves = []
    for legal in unit.legal_actions(seat, holds):
        cls = system_of_unit(unit).action(unit, legal["action"])
        moves.append(Move(legal["action"], cls.summary(), legal, forms.fields(cls, limits=legal), cls))
    return TableView(unit_id=uuid4(), campaign_id=game.cid, kind="Conflict", phase=unit.phase,
                     state=unit.view_for(seat), moves=moves, waiting={}, seat=seat, is_house=seat == "house",
                     names=NAMES, sheets=[{"seat": s, "name": NAMES[s], "skills": ["Knives"]} for s in game.seats])


def test_a_card_is_named_as_a_screen_reader_says_it():
    assert [card_name(x) for x in ("9H", "AS", "10D", "QC", "JH", "KS")] == [
        "9 of hearts", "ace of spades", "10 of diamonds", "queen of clubs", "jack of hearts", "king of spades"]


def test_the_line_marks_the_total_in_its_zone_against_the_targets_and_the_bust():  # TO-4, TO-6
    cells = line(14, {"mixed": 15, "full": 17})
    zones = {c.label: c.zone for c in cells if c.label}
    assert zones == {"12": "fail", "14": "fail", "15": "mixed", "17": "full", "21": "full", "bust": "bust"}
    assert [c.label for c in cells if c.here] == ["14"]
    easier = line(14, {"mixed": 13, "full": 15})  # two -1 modifiers (TO-6)
    assert next(c for c in easier if c.here).zone == "mixed"
    assert line(24, {"mixed": 15, "full": 17})[-1].here  # over 21: the bust is marked


def test_a_keep_or_discard_button_posts_yes_or_no_as_a_boolean():  # TO-8
    assert forms.payload(cmd.Keep, {"keep": ["false"]}) == {"keep": False}
    assert forms.payload(cmd.Keep, {"keep": ["true"]}) == {"keep": True}
    assert forms.payload(cmd.Hold, {"set_aside": ["true"]}) == {"set_aside": True}


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("table", [False, True])
def test_no_seats_page_holds_another_seats_hidden_card_over_a_whole_game(seed, table):  # C-5, C-3
    """Random legal play; at every step each seat's board is drawn and searched for the cards only another
    seat may see (its hand, its set-aside card, its face-down order card). Without table cards no page ever
    offers a reshuffle or deck field."""
    rnd = random.Random(seed)
    game = Game(seats=["ilse", "tomas"], table=table, holds=2)
    if table:
        deck = list(DECK)
        rnd.shuffle(deck)
        game.act("house", "deal", deck=deck)
    else:
        game.act("ilse", "seed", seed=f"seed {seed}")
        game.act("tomas", "pass")
    for _ in range(80):
        conflict = game.conflict
        secret: dict[str, set[str]] = {s: set(conflict.hands[s]) for s in game.seats}
        if conflict.action is not None and conflict.action["set_aside"]:
            secret[conflict.action["actor"]].add(conflict.action["set_aside"])
        if conflict.ordering is not None and conflict.phase != "reshuffle":
            for s, x in conflict.ordering["laid"].items():
                secret[s].add(x)
        # a card laid face up in an earlier action (or for an earlier order) and reshuffled since is history
        history = {x for r in conflict.results for x in r["laid"]}
        if conflict.last_order:
            history |= set(conflict.last_order["cards"].values()) | {x for t in conflict.last_order["ties"] for x in t.values()}
        secret = {s: cards - history for s, cards in secret.items()}
        for seat in [*game.seats, "house"]:
            html = str(BOARD.table(table_of(game, seat)))
            text = re.sub(r"<[^>]+>", " ", html)
            for owner, cards in secret.items():
                for code in cards if owner != seat else ():
                    assert f'"{code}"' not in html and card_name(code) not in text, (seat, owner, code)
            if not table:
                assert 'name="reshuffle"' not in html and 'name="deck"' not in html, seat
        listed = [(s, m) for s in [*game.seats, "house"]
                  for m in conflict.legal_actions(s, 0 if s == "house" else game.holds(s)) if m["action"] in INPUTS]
        if not listed:
            break
        seat, m = rnd.choice(listed)
        inputs: dict[str, Any] = INPUTS[m["action"]](m, rnd)
        if m.get("reshuffle") is not None:
            inputs["reshuffle"] = rnd.sample(m["reshuffle"], len(m["reshuffle"]))
        game.act(seat, m["action"], **inputs)


def test_a_players_move_that_needs_a_reshuffle_offers_the_discards_to_tap():  # C-3, TO-1
    """Table cards: the deck is out mid-action, so the actor's draw carries the discards to enter as reshuffled;
    the draw's form offers each of them as a card to tap in order, and no field to type them in."""
    for seed in range(400):
        deck = list(DECK)
        random.Random(seed).shuffle(deck)
        game = Game(seats=["ilse"], table=True)
        game.act("house", "deal", deck=deck)
        while len(game.conflict.deck) > 1:
            game.act("ilse", "lay", cards=game.conflict.hands["ilse"][:2])
            if game.conflict.action is not None:
                game.act("ilse", "stand")
        game.act("ilse", "lay", cards=game.conflict.hands["ilse"][:2])
        action = game.conflict.action
        if action is None or action["natural"] or total(action["laid"] + game.conflict.deck[:1]) > 21:
            continue
        game.act("ilse", "draw")  # the last card: the deck is out, the action goes on
        break
    else:
        raise AssertionError("no game ran its deck out mid-action")
    listed = next(m for m in game.conflict.legal_actions("ilse") if m["action"] == "draw")
    assert listed["required"] == ["reshuffle"]
    html = str(BOARD.table(table_of(game, "ilse")))
    form = html[html.index('data-action="draw"'):]
    form = form[:form.index("</form>")]
    assert 'data-ordered="reshuffle"' in form and '<input type="hidden" name="reshuffle"' in form
    assert sorted(re.findall(r'data-ordered-card="([^"]+)"', form)) == sorted(game.conflict.discard)
    assert 'type="text" name="reshuffle"' not in html


def test_a_card_of_the_own_hand_every_seat_saw_before_a_rewind_says_so_on_the_card_to_tap_c8():
    """Found on a phone walk: the others' pages marked two of Ilse's cards "seen" (a hold's card drawn face up,
    then put back by an undo and dealt to her), while her own cards to tap looked like any other: she played
    not knowing they knew them."""
    from tests.unit.twenty_one_game import stacked

    game = Game(seats=["ilse", "tomas"], table=True)
    game.act("house", "deal", deck=stacked("10S", "3S", "7S", "7H", "9H", "4H"))
    conflict = game.conflict
    seen = "3S"  # as if every seat had seen it before a rewind (C-8): the conflict's record of seen cards
    conflict.seen = {*conflict.seen, f"{seen}@{conflict.epochs.get(seen, 0)}"}
    table = table_of(game, "ilse")
    table = TableView(**{**table.__dict__, "state": conflict.view_for("ilse")})
    html = str(BOARD.table(table))
    form = html[html.index('data-action="lay"'):]
    form = form[:form.index("</form>")]
    picks = re.findall(r'<label class="pc-pick[^"]*" for="[^"]+">.*?</label>', form, re.S)
    marked = [p for p in picks if "seen by every seat before a rewind" in p]
    assert len(marked) == 1 and 'value="3S"' in marked[0] and "pc-pick seen" in marked[0]
    assert 'class="pc-flag"' in marked[0]


def test_an_action_under_way_with_no_order_called_is_said_in_the_rounds_box_not_left_empty_to4():
    """Found on a phone walk: during an action the "Round 1" box was empty."""
    from tests.unit.twenty_one_game import stacked

    game = Game(seats=["ilse", "tomas"], table=True)
    game.act("house", "deal", deck=stacked("10S", "3S", "7S", "7H", "9H", "4H"))
    game.act("ilse", "lay", cards=["10S", "3S"])
    assert game.conflict.phase == "action"
    for seat, said in (("tomas", "No order called: Ilse Varn is acting; then Brother Tomas may act."),
                       ("ilse", "No order called: you are acting; then Brother Tomas may act.")):
        html = str(BOARD.table(table_of(game, seat)))
        box = html[html.index('id="t21-order-h"'):]
        box = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", box[:box.index("</section>")]))
        assert said in box.replace(" .", ".").replace(" ;", ";"), box
