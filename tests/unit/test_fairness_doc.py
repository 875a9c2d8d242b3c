"""docs/fairness.md is precise enough to recompute every die and shuffle without the code (C-4, C-7, C-9):
its worked example is recomputed here from the recipe alone, and with the service's own functions."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from pathlib import Path

from domain.fairness import commitment, derive_die, derive_shuffle

DOC = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"


def example() -> dict:
    found = re.search(r"```json worked-example\n(.*?)```", DOC.read_text(), re.S)
    assert found, "docs/fairness.md has its worked example"
    return json.loads(found.group(1))


def words(secret: str, seeds: list[str], slot: list) -> list[int]:
    """The recipe's words, as the page states it: HMAC-SHA256 over compact JSON, counter after '#'."""
    base = json.dumps([seeds, [str(p) for p in slot]], separators=(",", ":"))
    out = []
    for counter in range(4):
        digest = hmac.new(secret.encode(), f"{base}#{counter}".encode(), hashlib.sha256).digest()
        out += [int.from_bytes(digest[i:i + 4], "big") for i in range(0, 32, 4)]
    return out


def integer(secret: str, seeds: list[str], slot: list, n: int) -> int:
    limit = 2**32 - (2**32 % n)
    return next(w for w in words(secret, seeds, slot) if w < limit) % n


def test_the_worked_example_in_the_fairness_doc_recomputes_from_the_recipe_alone():
    ex = example()
    secret, seeds = ex["secret"], ex["side_seeds"]
    assert hashlib.sha256(secret.encode()).hexdigest() == ex["commitment"] == commitment(secret)
    for die in ex["dice"]:
        assert integer(secret, seeds, die["slot"], die["faces"]) + 1 == die["value"]
        assert derive_die(secret, seeds, die["slot"], die["faces"]) == die["value"]
    for shuffle in ex["shuffles"]:
        deck = list(shuffle["deck"])
        for i in range(len(deck) - 1, 0, -1):
            j = integer(secret, seeds, [*shuffle["slot"], "swap", i], i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        assert deck == shuffle["value"] == derive_shuffle(secret, seeds, shuffle["slot"], shuffle["deck"])


def test_the_recipe_matches_the_service_for_any_seed_text_and_slot():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=40, deadline=None)
    @given(st.text(max_size=30), st.text(max_size=30), st.integers(0, 20), st.sampled_from([6, 10]))
    def check(secret: str, seed: str, index: int, faces: int) -> None:
        slot = ["roll", "opponent", index]
        assert integer(secret, ["", seed], slot, faces) + 1 == derive_die(secret, ["", seed], slot, faces)

    check()
