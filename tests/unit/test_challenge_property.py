"""PA-19 over whole challenges: random legal moves, drawn from the legal-actions view, conserve
pennies after every event, never drive a pile below zero, and always end settled."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.systems.penny_ante import economy
from tests.unit.challenge_game import START_TOTAL, Game
from tests.unit.conftest import new_app

SETUPS = [
    ("house", {"antagonist": "Lady Sen"}, {"players": ["ilse"]}, {}),
    ("ilse", {"players": ["ilse"]}, {"players": ["tomas"]}, {}),
    ("tomas", {"players": ["tomas", "ilse"]}, {"antagonist": "Lady Sen"}, {}),
    ("house", {"antagonist": "Lady Sen"}, {"players": ["mara"]}, {"stake": 6}),
    ("mara", {"players": ["mara"]}, {"antagonist": "Rockslide"}, {}),
]
SEATS = ("house", "ilse", "tomas", "mara")


def legal_moves(game: Game) -> list[tuple[str, dict]]:
    state = game.state
    piles = {who: game.pile(who) for who in ("ilse", "tomas", "mara", "Lady Sen", "Rockslide")}
    moves = []
    for seat in SEATS:
        side = state.side_of(seat)
        lists = {}
        if side:
            lists[side] = [n for m in state.sides[side]["members"] for n in characteristics(game, m)]
        seat_pile = game.pile("house") if seat == "house" else piles[seat]
        moves += [(seat, a) for a in state.legal_actions(seat, piles, seat_pile, lists)]
    return moves


def characteristics(game: Game, who: str) -> list[str]:
    campaign = game.app.campaign(game.cid)
    if who in campaign.players:
        return economy.character(game.app.application, campaign, who).characteristics
    house = economy.house(game.app.application, campaign)
    return economy.antagonist(game.app.application, campaign, house, who).characteristics


def arguments(data, game: Game, seat: str, move: dict) -> dict:
    action = move["action"]
    if action in ("raise",):
        return {"amount": data.draw(st.sampled_from(range(move["min"], move["max"] + 1, move["step"])))}
    if action in ("lend", "bid"):
        amount = data.draw(st.integers(move["min"], move["max"]))
        who = data.draw(st.sampled_from(move["borrowers"])) if action == "lend" else move["member"]
        return {"amount": amount, ("borrower" if action == "lend" else "member"): who}
    if action == "declare":
        names = data.draw(st.lists(st.sampled_from(move["choices"]), unique=True, max_size=move["max"])) \
            if move["choices"] else []
        return {"characteristics": names}
    if action == "keep":
        return {"cup": data.draw(st.lists(st.sampled_from(move["choices"]), unique=True))}
    if action in ("circumstance", "double-down"):
        return {"text": "something in the scene"}
    if action == "seed":
        return {"seed": "side seed"}
    if action == "abandon":  # C-10, PA-19: the House ends it early; the pot goes back as it came
        return {"reason": "the scene moved on"}
    if action == "buyout":
        state = game.state
        own = characteristics(game, seat)
        used = [c for s in state.sides.values() if seat in s["members"] for c in s["characteristics"] if c in own]
        return {"give_up": data.draw(st.sampled_from(used or own))}
    return {}


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), setup=st.sampled_from(SETUPS), ante=st.integers(1, 3))
def test_random_legal_moves_conserve_pennies_and_always_end_settled(data, setup, ante):
    game = Game(new_app())
    by, challenger, opponent, extra = setup
    game.announce(by, challenger, opponent, ante, **extra)
    for _ in range(400):
        moves = legal_moves(game)
        if game.state.settled:
            break
        assert moves, f"no legal move at step {game.state.phase}"
        if data.draw(st.integers(0, 15), label="abandon now"):  # C-10: now and then, so the rest is played too
            moves = [m for m in moves if m[1]["action"] != "abandon"] or moves
        seat, move = data.draw(st.sampled_from(moves))
        game.act(seat, move["action"], **arguments(data, game, seat, move))
        assert game.total() == START_TOTAL  # PA-19
        assert all(game.pile(w) >= 0 for w in ("house", "ilse", "tomas", "mara", "Lady Sen", "Rockslide"))
    assert game.state.settled
    assert game.app.campaign(game.cid).open_challenges == []
