"""The Pulp board over plain HTTP (issue 31), on both stores: the forms a page offers are controls made from the
campaign and the legal actions (seats ticked by name, House characters typed where the page says so, cards
picked from the deck with table cards, one advantage stepper per combatant), a form posted as the page posts
it plays the move, another seat's unshown hand is never in a page (C-5), and no page carries a style
attribute the Content-Security-Policy would refuse."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.e2e.conftest import bearer, player_token
from tests.e2e.test_web_http import sign_in


def pulp_campaign(client: Any, table_cards: bool = False) -> tuple[str, dict[str, str]]:
    created = client.post("/campaigns", json={"name": "Dust", "system": "pulp-cards",
                                              "settings": {"table_cards": table_cards}}).json()
    c, tokens = f"/campaigns/{created['campaign']['id']}", {"house": created["house_token"]}
    for seat, name in (("ilse", "Ilse Varn"), ("tomas", "Tomas")):
        added = client.post(f"{c}/players", headers=bearer(tokens["house"]), json={"seat": seat, "character": name})
        tokens[seat] = player_token(client, added.json())
    assert client.post(f"{c}/adventures", headers=bearer(tokens["house"]), json={}).status_code == 201
    return c, tokens


def as_seat(client: Any, tokens: dict[str, str], seat: str) -> None:
    client.cookies.clear()
    sign_in(client, tokens[seat])


def opened(answer: Any) -> str:
    """The unit a campaign command opened: the page is sent to its table."""
    assert answer.status_code == 204, answer.text
    return answer.headers["HX-Redirect"].rsplit("/", 1)[1]


def words(html: str) -> str:
    """A page's text as a reader reads it: tags out, spaces collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def form_of(page: str, action: str) -> str:
    """The HTML of the page's form for one move."""
    found = page[page.index(f'data-action="{action}"'):]
    return found[:found.index("</form>")]


def test_a_table_cards_combat_is_played_from_card_controls_and_named_seats(client):
    c, tokens = pulp_campaign(client, table_cards=True)
    as_seat(client, tokens, "house")
    panel = client.get("/web/campaign/panel").text
    form = panel[panel.index('data-verb="open-combat"'):]
    assert re.search(r'type="checkbox" name="combatants" value="ilse"[^>]*>\s*Ilse Varn', form)  # ticked by name
    assert "not created beforehand" in form and "in a field of its own" in form
    # one House character a field (PU-5): two names are never typed into one, which would make one combatant
    assert len(re.findall(r'type="text" name="combatants"', form[:form.index("</form>")])) == 7
    deal_form = panel[panel.index('<form class="command-form wide" hx-post="/web/commands/deal"'):]
    assert "The House character's name" in deal_form and "not created beforehand" in deal_form
    assert deal_form.count('name="cards"') == 14  # table cards: the deck as checkboxes, never typed codes (C-3)

    # The form posts the ticked seats and the typed names in one list, as the page does.
    unit = opened(client.post("/web/commands/open-combat", data={
        "combatants": ["ilse", "tomas", "Sheriff Cole"], "combatants__multi": "1"}))
    view = client.get(f"{c}/challenges/{unit}").json()
    assert [(x["name"], x["seat"]) for x in view["state"]["combatants"]] == [
        ("Ilse Varn", "ilse"), ("Tomas", "tomas"), ("Sheriff Cole", "house")]

    # Initiative with table cards: one stepper per combatant, the cards dealt picked in order from the deck.
    page = client.get(f"/web/units/{unit}/table").text
    assert re.findall(r'name="advantage\.([^"]+)"', page) == ["Ilse Varn", "Tomas", "Sheriff Cole"]
    initiative = form_of(page, "initiative")
    assert initiative.count('<select id="pc-init-card-') == 14 and "not dealt" in initiative
    assert form_of(page, "surprise").count('type="checkbox" name="cards"') == 14
    # B4, R21, P1 | B2, R22, P2: Ilse 6, Tomas 4, Cole 0 + 2, no tie (PU-5, PU-9); the selects left blank
    # are the cards not dealt
    dealt = ["B4", "R21", "P1", "B2", "R22", "P2"]
    r = client.post(f"/web/units/{unit}/act", data={
        "action": "initiative", "advantage.Ilse Varn": "0", "advantage.Tomas": "0", "advantage.Sheriff Cole": "2",
        "cards": [*dealt, *[""] * 8], "cards__multi": "1"})
    assert r.status_code == 200, r.text
    state = client.get(f"{c}/challenges/{unit}").json()["state"]
    assert state["order"] == ["Ilse Varn", "Tomas", "Sheriff Cole"] and state["initiative"]["advantages"]["Sheriff Cole"] == 2
    assert re.findall(r'data-combatant="([^"]+)"', r.text) == state["order"]  # the track in order

    # Ilse attacks: her target from a select by name, her cards ticked from the deck, no cut with table cards.
    as_seat(client, tokens, "ilse")
    page = client.get(f"/web/units/{unit}/table").text
    attack = form_of(page, "attack")
    assert re.findall(r'<option value="([^"]+)"', attack)[:2] == ["Tomas", "Sheriff Cole"] and 'name="cut"' not in attack
    hand = ["BA", "B4", "P1", "P2", "P3", "RA1", "P4"]
    r = client.post(f"/web/units/{unit}/act", data={"action": "attack", "target": "Sheriff Cole", "difficulty": "1",
                                                    "cards": hand, "cards__multi": "1"})
    assert r.status_code == 200, r.text
    mine = r.text[r.text.index('class="pc-mine" data-attack="1"'):]
    assert re.findall(r'data-card="([^"]+)"', mine)[:7] == hand  # her cards, above her buttons
    assert "Black 5 − red 1 = degree +4 A clear success, by 3" in words(mine)

    # Nobody else sees them until she shows them (C-5): seven backs, no card, in the table and the whole page.
    for seat in ("house", "tomas"):
        as_seat(client, tokens, seat)
        page = client.get(f"/web/units/{unit}").text
        article = page[page.index('data-attack="1"'):]
        article = article[:article.index("</article>")]
        assert article.count("pc-card back") == 7 and "data-card" not in article, seat
        assert 'class="pc-mine"' not in page and "degree +4" not in words(page), seat
    as_seat(client, tokens, "ilse")
    r = client.post(f"/web/units/{unit}/act", data={"action": "show", "number": "1"})
    assert r.status_code == 200 and 'class="pc-mine"' not in r.text
    as_seat(client, tokens, "tomas")
    page = client.get(f"/web/units/{unit}/table").text
    assert re.findall(r'data-card="([^"]+)"', page[page.index('data-attack="1"'):])[:7] == hand


def test_a_deal_is_hidden_from_the_other_seats_until_shown_and_no_page_has_a_style_attribute(client):
    c, tokens = pulp_campaign(client)
    as_seat(client, tokens, "ilse")
    panel = client.get("/web/campaign/panel").text
    assert 'data-random-seed="pc-deal-seed"' in panel and 'name="cut"' in panel  # her seed and her cut (C-4, PU-7)
    deal = opened(client.post("/web/commands/deal", data={"kind": "resist", "difficulty": "-2", "cut": "4",
                                                           "seed": "her own words"}))
    view = client.get(f"{c}/challenges/{deal}").json()["state"]
    assert view["cut"] == 4 and view["seed"] == "her own words" and view["kind"] == "resistance"
    mine = client.get(f"/web/units/{deal}").text
    assert re.findall(r'data-card="([^"]+)"', mine) == view["cards"]
    assert ("Ilse Varn resists" in mine) != ("Ilse Varn does not resist" in mine)  # from her side (PU-8)
    pages = [mine]
    for seat in ("house", "tomas"):
        as_seat(client, tokens, seat)
        page = client.get(f"/web/units/{deal}").text
        assert "data-card" not in page and page.count("pc-card back") == 7, seat  # C-5
        assert "resist" not in page.split('data-testid="deal-hand"')[1].split("</section>")[0].split("</h2>")[1] \
            .replace("Face down", ""), seat  # nor what it means
        pages += [page, client.get("/web/campaign").text]
    as_seat(client, tokens, "ilse")
    assert client.post(f"/web/units/{deal}/act", data={"action": "show"}).status_code == 200
    as_seat(client, tokens, "tomas")
    page = client.get(f"/web/units/{deal}").text
    assert re.findall(r'data-card="([^"]+)"', page) == view["cards"]
    pages += [page, client.get("/web/campaign").text]
    for page in pages:
        assert not re.search(r"<[^>]+\sstyle=", page)  # the CSP allows no inline style


def test_antagonist_create_in_a_pulp_campaign_is_refused_saying_house_characters_are_typed_names(client):
    c, tokens = pulp_campaign(client)
    r = client.post(f"{c}/antagonists", headers=bearer(tokens["house"]), json={"name": "Sheriff Cole"})
    assert r.status_code == 422 and r.json()["ruling"] == "C-1", r.text
    assert "not created beforehand" in r.json()["detail"] and "combatants" in r.json()["detail"]


def test_a_house_characters_typed_name_is_shown_as_text_everywhere_on_the_board(client):
    c, tokens = pulp_campaign(client)
    hostile = '<img src=x onerror=alert(1)> "Cole\''
    as_seat(client, tokens, "house")
    fight = opened(client.post("/web/commands/open-combat", data={"combatants": ["ilse", hostile],
                                                                   "combatants__multi": "1"}))
    deal = opened(client.post("/web/commands/deal", data={"character": hostile, "kind": "standard"}))
    client.post(f"/web/units/{deal}/act", data={"action": "show"})
    r = client.post(f"/web/units/{fight}/act", data={"action": "initiative", f"advantage.{hostile}": "3"})
    assert r.status_code == 200, r.text
    assert client.get(f"{c}/challenges/{fight}").json()["state"]["called"]["advantages"][hostile] == 3
    for seat in ("house", "ilse"):
        as_seat(client, tokens, seat)
        assert "<img" not in client.get("/web/campaign").text, seat
        for page in (client.get(f"/web/units/{fight}").text, client.get(f"/web/units/{deal}").text):
            assert "<img" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page, seat  # inert (autoescape)


def test_the_fresh_seed_form_follows_a_house_choice_and_a_bound_choice_is_set_in_the_form_c9(client):
    """C-9, C-10: after the first deal, the House's initiative again is dealt only with the players' fresh seed,
    which the page asks for in plain words with a random button (128 bits drawn in the browser, seed.js) and no
    pass; after a rewind that kept that seed, the House's form is set to the advantages it chose, and posting it
    as the page posts it deals at once."""
    c, tokens = pulp_campaign(client)
    as_seat(client, tokens, "house")
    fight = opened(client.post("/web/commands/open-combat", data={"combatants": ["ilse", "Sheriff Cole"],
                                                                   "combatants__multi": "1"}))
    assert client.post(f"/web/units/{fight}/act", data={"action": "surprise", "by": "Sheriff Cole",
                                                        "difficulty": "4"}).status_code == 200
    as_seat(client, tokens, "ilse")
    assert client.post(f"/web/units/{fight}/act", data={"action": "pass"}).status_code == 200
    state = client.get(f"{c}/challenges/{fight}", headers=bearer(tokens["house"])).json()["state"]
    if state["phase"] == "free-attack":  # the sheriff's free attack, then its fresh seed
        as_seat(client, tokens, "house")
        client.post(f"/web/units/{fight}/act", data={"action": "attack", "target": "Ilse Varn", "difficulty": "0"})
        as_seat(client, tokens, "ilse")
        assert client.post(f"/web/units/{fight}/act", data={"action": "seed", "seed": "x"}).status_code == 200
    as_seat(client, tokens, "house")
    steps = client.get(f"{c}/challenges/{fight}/replay", headers=bearer(tokens["house"])).json()["steps"]
    r = client.post(f"/web/units/{fight}/act", data={"action": "initiative", "advantage.Ilse Varn": "0",
                                                    "advantage.Sheriff Cole": "3"})
    assert r.status_code == 200, r.text
    assert "The House chose initiative for the next cycle (advantage: Sheriff Cole +3)" in words(r.text)
    as_seat(client, tokens, "ilse")
    page = client.get(f"/web/units/{fight}/table").text
    fresh = page[page.index('class="pc-seed pc-fresh-seed"'):]
    fresh = fresh[:fresh.index("</div>")]
    assert "fresh seed for the next deal after the House's choices" in words(fresh)
    assert 'data-random-seed="pc-fresh-seed-words"' in fresh and 'id="pc-fresh-seed-words"' in fresh
    assert 'data-action="pass"' not in page  # a fresh seed is never passed (C-9)
    r = client.post(f"/web/units/{fight}/act", data={"action": "seed", "seed": "ilse " + "ab" * 16})
    assert r.status_code == 200, r.text
    dealt = client.get(f"{c}/challenges/{fight}", headers=bearer(tokens["house"])).json()["state"]
    assert dealt["phase"] == "attacking" and dealt["initiative"]["advantages"]["Sheriff Cole"] == 3
    seeds = words(client.get(f"/web/units/{fight}/table").text)  # the pass at the start, and the fresh seeds since
    assert re.search(r"The players passed: no seed of theirs at the start\. Since then, (a fresh seed of theirs has|2 "
                     r"fresh seeds of theirs have) dealt what the House chose \(C-9\)\.", seeds), seeds
    as_seat(client, tokens, "house")
    r = client.post(f"{c}/challenges/{fight}/rewind", headers=bearer(tokens["house"]),
                    json={"to_step": steps[-1]["step"], "reason": "misread"})
    assert r.status_code == 200, r.text
    page = client.get(f"/web/units/{fight}/table").text
    initiative = form_of(page, "initiative")
    assert "Bound (C-9)" in initiative
    assert re.search(r'name="advantage\.Sheriff Cole"[^>]*value="3"', initiative), initiative
    r = client.post(f"/web/units/{fight}/act", data={"action": "initiative", "advantage.Ilse Varn": "0",
                                                    "advantage.Sheriff Cole": "3"})
    assert r.status_code == 200, r.text
    again = client.get(f"{c}/challenges/{fight}", headers=bearer(tokens["house"])).json()["state"]
    assert again["phase"] == "attacking" and again["order"] == dealt["order"]  # dealt at once, the same cards
    assert again["initiative"]["dealt"] == dealt["initiative"]["dealt"]


def test_after_an_undo_a_players_attack_is_cut_as_before_and_the_page_says_so_instead_of_offering_a_cut_c7(client):
    """C-7: a deal made again after an undo is cut where it was cut before; the dealer's form says where and sends
    no cut (the rules make the same one), rather than a list of cuts every other one of which is refused."""
    c, tokens = pulp_campaign(client)
    house = bearer(tokens["house"])
    as_seat(client, tokens, "house")
    fight = opened(client.post("/web/commands/open-combat", data={"combatants": ["ilse", "Sheriff Cole"],
                                                                   "combatants__multi": "1"}))
    client.post(f"/web/units/{fight}/act", data={"action": "initiative", "advantage.Ilse Varn": "0",
                                                 "advantage.Sheriff Cole": "0"})
    for _ in range(6):  # seeds, then the attacks in initiative order until Ilse's
        listed = {seat: {a["action"] for a in client.get(f"{c}/challenges/{fight}", headers=bearer(tokens[seat]))
                         .json()["legal_actions"]} for seat in ("house", "ilse")}
        if "attack" in listed["ilse"]:
            break
        if "pass" in listed["ilse"] or "seed" in listed["ilse"]:
            as_seat(client, tokens, "ilse")
            move = "pass" if "pass" in listed["ilse"] else "seed"
            assert client.post(f"/web/units/{fight}/act", data={"action": move, "seed": "x"}).status_code == 200
        elif "attack" in listed["house"]:
            as_seat(client, tokens, "house")
            assert client.post(f"/web/units/{fight}/act", data={"action": "attack", "target": "Ilse Varn",
                                                                "difficulty": "0"}).status_code == 200
    as_seat(client, tokens, "ilse")
    page = client.get(f"/web/units/{fight}/table").text
    assert 'name="cut"' in form_of(page, "attack")  # a first deal: the dealer may choose the cut (PU-7)
    before = client.get(f"{c}/challenges/{fight}/replay", headers=house).json()["steps"][-1]["step"]
    r = client.post(f"/web/units/{fight}/act", data={"action": "attack", "target": "Sheriff Cole", "difficulty": "0",
                                                    "cut": "5"})
    assert r.status_code == 200, r.text
    dealt = client.get(f"{c}/challenges/{fight}", headers=bearer(tokens["ilse"])).json()["state"]["attacks"][-1]
    assert client.post(f"/web/units/{fight}/act", data={"action": "show", "number": str(dealt["number"])}
                       ).status_code == 200  # every seat sees it now (C-8: public for good)
    r = client.post(f"{c}/challenges/{fight}/rewind", headers=house,
                    json={"to_step": before, "reason": "the sheriff was out of reach", "reveal": True})
    assert r.status_code == 200, r.text
    form = form_of(client.get(f"/web/units/{fight}/table").text, "attack")
    assert 'data-testid="cut-bound"' in form and "cut as before (C-7): at 5" in words(form)
    assert 'name="cut"' not in form
    r = client.post(f"/web/units/{fight}/act", data={"action": "attack", "target": "Sheriff Cole", "difficulty": "0"})
    assert r.status_code == 200, r.text
    again = client.get(f"{c}/challenges/{fight}", headers=bearer(tokens["ilse"])).json()["state"]["attacks"][-1]
    assert again["cards"] == dealt["cards"] and again["cut"] == dealt["cut"] == 5
    assert again["seen_before_rewind"] is True and again["shown"] is False
    page = words(client.get(f"/web/units/{fight}/table").text)  # the dealer's own page says it is public (C-8)
    assert "Every seat saw these cards before the undo: they stay shown (C-8)." in page
    assert "Not shown yet: only you see them." not in page


def test_the_houses_words_for_how_a_combat_ended_are_on_every_seats_table_and_rulings_name_only_what_is_offered(
        client):
    _, tokens = pulp_campaign(client)
    as_seat(client, tokens, "house")
    fight = opened(client.post("/web/commands/open-combat", data={"combatants": ["ilse", "Sheriff Cole"],
                                                                   "combatants__multi": "1"}))
    page = client.get(f"/web/units/{fight}/table").text
    assert "Rulings: undo, abandon" in page or "Rulings: abandon" in page  # an open combat: no overturn yet
    r = client.post(f"/web/units/{fight}/act", data={"action": "end", "reason": "Cole rode off"})
    assert r.status_code == 200, r.text
    for seat in ("house", "ilse"):
        as_seat(client, tokens, seat)
        assert "The combat has ended (“Cole rode off”): every card is shown." in words(
            client.get(f"/web/units/{fight}/table").text), seat
    as_seat(client, tokens, "house")
    assert "Rulings: overturn</summary>" in client.get(f"/web/units/{fight}/table").text


def test_after_an_undo_the_houses_bound_attack_names_its_target_instead_of_offering_targets_refused_c9(client):
    """C-9: after a rewind that kept the players' fresh seed for a House attack, the House makes the attack it
    chose before: the form says whom it attacks and sends that target, rather than a list whose other names are
    refused; and the House's undo list names the attacker, not the seat whose seed dealt it."""
    c, tokens = pulp_campaign(client)
    house = bearer(tokens["house"])
    as_seat(client, tokens, "house")
    fight = opened(client.post("/web/commands/open-combat", data={"combatants": ["ilse", "tomas", "Sheriff Cole"],
                                                                   "combatants__multi": "1"}))
    client.post(f"/web/units/{fight}/act", data={"action": "initiative", "advantage.Ilse Varn": "0",
                                                 "advantage.Sheriff Cole": "0"})
    for _ in range(12):  # seeds and the players' attacks, until the sheriff's
        listed = {seat: {a["action"] for a in client.get(f"{c}/challenges/{fight}", headers=bearer(tokens[seat]))
                         .json()["legal_actions"]} for seat in ("house", "ilse", "tomas")}
        if "attack" in listed["house"]:
            break
        for seat in ("ilse", "tomas"):
            if listed[seat] & {"pass", "seed", "attack"}:
                as_seat(client, tokens, seat)
                move = next(m for m in ("pass", "seed", "attack") if m in listed[seat])
                r = client.post(f"/web/units/{fight}/act", data={"action": move, "seed": "x",
                                                                 "target": "Sheriff Cole", "difficulty": "0"})
                assert r.status_code == 200, r.text
                break
    before = client.get(f"{c}/challenges/{fight}/replay", headers=house).json()["steps"][-1]["step"]
    as_seat(client, tokens, "house")
    r = client.post(f"/web/units/{fight}/act", data={"action": "attack", "target": "Tomas", "difficulty": "2"})
    assert r.status_code == 200, r.text
    for seat in ("ilse", "tomas"):  # the players' fresh seed deals it (C-9)
        if "seed" in {a["action"] for a in client.get(f"{c}/challenges/{fight}", headers=bearer(tokens[seat]))
                      .json()["legal_actions"]}:
            as_seat(client, tokens, seat)
            assert client.post(f"/web/units/{fight}/act", data={"action": "seed", "seed": seat}).status_code == 200
    dealt = client.get(f"{c}/challenges/{fight}", headers=house).json()["state"]["attacks"][-1]
    assert dealt["attacker"] == "Sheriff Cole" and dealt["target"] == "Tomas"
    r = client.post(f"{c}/challenges/{fight}/rewind", headers=house,
                    json={"to_step": before, "reason": "the sheriff aimed elsewhere", "reveal": True})
    assert r.status_code == 200, r.text
    as_seat(client, tokens, "house")
    page = client.get(f"/web/units/{fight}/table").text
    form = form_of(page, "attack")
    assert 'data-testid="target-bound"' in form and "Sheriff Cole attacks Tomas at difficulty 2, as before the undo" in \
        words(form)
    assert 'name="difficulty" value="2"' in form and 'type="range"' not in form  # said, not a slider that cannot move
    assert '<select id="pc-target"' not in form and 'name="target" value="Tomas"' in form
    assert "Sheriff Cole&#39;s attack on Tomas (dealt when" in page  # the undo list says whose attack it was
    as_seat(client, tokens, "tomas")  # so does every seat's replay, from what that seat may read of the step
    replayed = client.get(f"/web/units/{fight}/replay").text
    data = json.loads(replayed.split('id="replay-data">', 1)[1].split("</script>", 1)[0])
    said = [s["words"] for s in data["steps"] if s["event"] == "Attacked"]
    assert any(w.startswith("Sheriff Cole's attack on Tomas (dealt when") for w in said), said
    as_seat(client, tokens, "house")
    r = client.post(f"/web/units/{fight}/act", data={"action": "attack", "target": "Tomas", "difficulty": "2"})
    assert r.status_code == 200, r.text
