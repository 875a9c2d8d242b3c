"""Review of issue 30 (C-9, C-10): two ways the one-shot commitments still let a draw be chosen.

* The House's export (``stakes export``) holds every seat's pending committed secret. A House deal (Pulp)
  takes no other party's input, so with its committed secret the House could foresee its next deal and spend
  it where it suits. The House's own one-shot draw therefore uses a fresh secret nobody has seen.
* Two one-shot draws of one seat at once: the one that loses the race must not be retried with the *next*
  commitment, published after its seed arrived (the server could have chosen it knowing the seed).

Real threads for the race, both stores (``settings`` fixture).
"""

from __future__ import annotations

import hashlib
import json
from uuid import UUID

from adapters.service import Stakes
from domain.errors import ConcurrencyConflict
from domain.seats import Seat
from tests.integration.test_write_skew import interleave, other, stakes  # noqa: F401 (the services on each store)

HOUSE, ILSE = Seat.house(), Seat("ilse")


def pending_secrets(stakes: Stakes, cid: UUID) -> set[str]:  # noqa: F811
    """Every committed secret the House can read in its export (the latest of each seat)."""
    latest: dict[str, str] = {}
    for line in list(stakes.export_campaign(cid, HOUSE))[1:]:
        row = json.loads(line)
        if ".SeatSecret." in row["topic"] or row["topic"].endswith(("SeatSecret.Committed", "SeatSecret.Renewed")):
            latest[row["originator_id"]] = json.loads(row["state"])["secret_seed"]
    assert latest  # the export does hold them: that is what the House could read
    return set(latest.values())


def test_the_house_s_own_deal_is_not_drawn_with_a_secret_the_house_could_read_in_its_export_c9(
        stakes: Stakes) -> None:  # noqa: F811
    cid = stakes.create_campaign("Foresight", "pulp-cards", {}).campaign.id
    stakes.run(cid, HOUSE, "add-player", {"seat": "ilse", "character": "Ilse"})
    stakes.run(cid, HOUSE, "start-adventure", {})
    for _ in range(2):
        readable = pending_secrets(stakes, cid)
        dealt = stakes.app.repository.get(stakes.run(cid, HOUSE, "deal", {"character": "Sheriff Cole"}).id)
        assert dealt.secret_seed not in readable
        stakes.act(cid, HOUSE, dealt.id, {"action": "show"})  # settled, so the next export is allowed
    # a player's deal still uses his committed secret (its hash was public before his cut and seed)
    readable = pending_secrets(stakes, cid)
    mine = stakes.app.repository.get(stakes.run(cid, ILSE, "deal", {"difficulty": 2, "cut": 4, "seed": "x"}).id)
    assert mine.secret_seed in readable


def test_a_seeded_roll_that_lost_the_race_for_its_seat_s_commitment_is_refused_not_drawn_with_the_next_c10(
        stakes: Stakes, other: Stakes) -> None:  # noqa: F811
    cid = stakes.create_campaign("Race", "pool", {}).campaign.id
    stakes.run(cid, HOUSE, "add-player", {"seat": "ilse", "character": "Ilse", "description": "A brave thief"})
    stakes.run(cid, HOUSE, "start-adventure", {})
    promised = stakes.app.seat_secret(cid, "ilse")
    outcome, saves = interleave(
        stakes, lambda: stakes.run(cid, ILSE, "roll", {"count": 2, "seed": "sent first"}),
        lambda: other.run(cid, ILSE, "roll", {"count": 2, "seed": "sent second"}))  # another process
    assert isinstance(outcome.get("error"), ConcurrencyConflict) and outcome["error"].ruling == "C-10", outcome
    assert saves == 1  # refused on the retry, before saving
    now = stakes.app.seat_secret(cid, "ilse")
    assert now.nonce == promised.nonce + 1  # only the winner spent a commitment
    rolls = [e for e in stakes.log(cid, HOUSE, limit=1000).entries if e.stream.startswith("PoolRoll")]
    assert {e.detail.get("seed_hash") for e in rolls if e.detail.get("seed_hash")} == {promised.seed_hash}


def test_an_unseeded_roll_that_lost_the_race_goes_on_with_the_next_commitment(
        stakes: Stakes, other: Stakes) -> None:  # noqa: F811
    cid = stakes.create_campaign("Race", "pool", {}).campaign.id
    stakes.run(cid, HOUSE, "add-player", {"seat": "ilse", "character": "Ilse", "description": "A brave thief"})
    stakes.run(cid, HOUSE, "start-adventure", {})
    outcome, saves = interleave(stakes, lambda: stakes.run(cid, ILSE, "roll", {"count": 2}),
                                lambda: other.run(cid, ILSE, "roll", {"count": 2, "seed": "mine"}))
    assert "value" in outcome and saves == 2, outcome  # no player input to protect: the usual retry
    assert stakes.app.seat_secret(cid, "ilse").nonce == 2


def _shuffle(secret: str, side_seeds: list[str], slot: list[object], cards: list[str]) -> list[str]:
    """docs/fairness.md "A shuffle", from the page alone."""
    from tests.e2e.test_one_shot_commitments_http import words

    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = 2**32 - (2**32 % n)
        j = next(w for w in words(secret, side_seeds, [*slot, "swap", i]) if w < limit) % n
        out[i], out[j] = out[j], out[i]
    return out


def test_a_pulp_deal_with_a_drawn_cut_is_recomputed_from_docs_fairness_alone(stakes: Stakes) -> None:  # noqa: F811
    from tests.e2e.test_one_shot_commitments_http import die

    cid = stakes.create_campaign("Outsider", "pulp-cards", {}).campaign.id
    stakes.run(cid, HOUSE, "add-player", {"seat": "ilse", "character": "Ilse"})
    stakes.run(cid, HOUSE, "start-adventure", {})
    for seat, body in ((ILSE, {"difficulty": 2, "seed": "no cut given"}), (HOUSE, {"character": "Sheriff Cole"})):
        unit = stakes.run(cid, seat, "deal", body)
        stakes.act(cid, seat, unit.id, {"action": "show"})
        state = stakes.unit_view(cid, unit.id, ILSE).state  # as the other seat sees it, once shown
        proof = stakes.verify_challenge(cid, ILSE, unit.id).model_dump()  # only for the slot and the unshuffled deck
        secret, seeds = state["secret_seed"], [body.get("seed", "")]
        assert hashlib.sha256(secret.encode()).hexdigest() == state["seed_hash"] and proof["side_seeds"] == seeds
        shuffled = next(r for r in proof["results"] if "deck" in r)
        order = _shuffle(secret, seeds, shuffled["slot"], shuffled["deck"])
        k = die(secret, seeds, [*shuffled["slot"], "cut"], 13)
        assert (state["cut"], state["cut_by"]) == (k, "drawn")
        assert (order[k:] + order[:k])[:7] == state["cards"]
