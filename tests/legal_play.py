"""Random legal play's one move builder, shared by every driver that plays from the listed legal actions alone:
the conformance suite in-process (``tests/integration/conformance.py``, from a command class's schema) and the
HTTP client (``tests/e2e/test_random_legal_play.py``, from the OpenAPI schema of the move).

A move is built from the listed entry alone (its ``choices`` for its ``field``, its ``min``/``max``/``step``, its
``member``, the ``loan`` it answers, what it ``required`` after a rewind, C-7, the fields a ``bound`` House choice
sends again, C-9) and the JSON schema of the move's
body; a text the entry cannot list (a seed, a reason) is a plain sentence.
"""

from __future__ import annotations

import random
from typing import Any

TEXT = "at the table"


def kinds(prop: dict[str, Any]) -> set[str]:
    """The JSON types a schema property takes."""
    return {p.get("type", "") for p in prop.get("anyOf", [prop])}


def body_for(legal: dict[str, Any], schema: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The request body for the listed move ``legal``, whose body has the JSON ``schema``."""
    props, required = schema.get("properties", {}), set(schema.get("required", []))
    body: dict[str, Any] = {"action": legal["action"]}
    if legal.get("member") is not None:
        body.update({f: legal["member"] for f in ("side", "member") if f in props})
    choices, name = legal.get("choices"), legal.get("field")
    low, high = legal.get("min"), legal.get("max")
    if choices is not None and name is not None:
        if "array" in kinds(props.get(name, {})):
            size = rng.randint(low or 0, min(high if high is not None else len(choices), len(choices)))
            run = [x for x in legal.get("required") or [] if x in choices]  # C-7: what a rewind fixed comes first
            rest = [x for x in choices if x not in run]
            body[name] = run + rng.sample(rest, max(0, size - len(run)))
        else:
            body[name] = rng.choice(choices)
    elif choices and isinstance(choices[0], dict):  # several fields' ranges (Beast's roll)
        while True:
            picked = {k: rng.randint(*v) if len(v) == 2 and all(isinstance(x, int) for x in v) else rng.choice(v)
                      for k, v in choices[0].items()}
            numbers = sum(v for v in picked.values() if isinstance(v, int))
            if (low or 0) <= numbers <= (high if high is not None else numbers):
                break
        body.update({k: v for k, v in picked.items() if v is not None})
    elif choices:  # names of flags to set (Twenty-one's hold)
        body[rng.choice(choices).replace("-", "_")] = True
    if (low is not None or high is not None) and choices is None:
        ints = [f for f in (name, *props) if f and f not in body and "integer" in kinds(props.get(f, {}))]
        target = name or next((f for f in ints if f in required), ints[0] if ints else None)
        if target and "integer" in kinds(props.get(target, {})):  # else a map min/max bound (Pulp's advantage)
            step = legal.get("step") or 1
            fixed_count = len(legal["fixed"]) if legal.get("fixed") else None  # C-7: as many as before the rewind
            low = max(low or 0, fixed_count or 0)
            body[target] = rng.choice(range(low, max(low, high if high is not None else low + 6) + 1, step))
    if legal.get("borrowers"):
        body["borrower"] = rng.choice(legal["borrowers"])
    if legal.get("loan") is not None and "loan" in props:  # the loan a listed loan move answers (issue 31)
        body["loan"] = legal["loan"]
    if legal.get("required") is not None and legal["action"] == "keep" and "cup" in props:
        body["cup"] = list(legal["required"])  # C-7: the same cup as before the rewind
    elif legal.get("required") is not None and "cut" in props and legal.get("deck") is None:
        body["cut"] = legal["required"][0]  # C-7: the same cut
    if legal.get("bound"):  # C-9: the House's choice as it made it before a rewind that kept the fresh seed
        body.update({k: v for k, v in legal["bound"].items() if k in props})
    if legal.get("deck") is not None and "cards" in props:  # table cards (C-3): the listed deck, as many as listed
        body["cards"] = table_cards(legal, body, rng)
    count, fixed = legal.get("dice"), legal.get("fixed")
    if count is None and legal.get("count_of"):  # the count is the sum of fields picked (a Beast roll's split)
        count = sum(body.get(f) or 0 for f in legal["count_of"])
    # The listing alone says what to enter (issue 30): its ``faces``, as many as ``dice`` or the ``count_of``
    # fields picked; a listing that says neither enters no dice (a table-dice roll then fails the test).
    faces = legal.get("faces")
    if faces and isinstance(count, int) and "array" in kinds(props.get("dice", {})):
        if legal.get("explode_on") is not None:  # each such face adds a die (a Beast roll's 10s)
            body["dice"] = exploding(legal, count, faces, rng)
        else:
            fixed = list(fixed or []) + [None] * count
            body["dice"] = [v if v is not None else rng.randint(1, faces) for v in fixed[:count]]  # C-7: as before
    for missing in required - set(body):
        if "string" in kinds(props.get(missing, {})):
            body[missing] = TEXT
    return body


def exploding(legal: dict[str, Any], count: int, faces: int, rng: random.Random) -> list[int]:
    """Dice entered as the listing says for a pool whose ``explode_on`` faces are rolled again: ``count`` first
    rolls, then one re-roll for each die that showed ``explode_on`` (while its chain is under ``chain_max``),
    wave by wave in die order; a die's results listed in ``fixed_chains`` (C-7) are entered the same again."""
    again, most = legal["explode_on"], legal.get("chain_max") or 10**6
    fixed = list(legal.get("fixed_chains") or [])
    chains: list[list[int]] = [[] for _ in range(count)]
    entered: list[int] = []
    while True:
        waiting = [i for i, c in enumerate(chains) if not c or (c[-1] == again and len(c) < most)]
        if not waiting:
            return entered
        for i in waiting:
            known = fixed[i] if i < len(fixed) else []
            step = len(chains[i])
            value = known[step] if step < len(known) else rng.randint(1, faces)
            chains[i].append(value)
            entered.append(value)


def table_cards(legal: dict[str, Any], body: dict[str, Any], rng: random.Random) -> list[str]:
    """Cards entered as the listing says (C-3): the ``required`` run a rewind fixed first (C-7), then the rest of
    the listed ``deck`` in a random order; ``dice`` of them, or, for initiative (``dealt_to``), every card the
    round-robin and its ties take by the listed ``points`` and the advantages in the body (PU-5, PU-9)."""
    deck = list(legal["deck"])
    run = list(legal.get("required") or [])
    rest = [c for c in deck if c not in run]
    rng.shuffle(rest)
    order = run + rest
    if legal.get("dealt_to") is None:
        return order[:legal["dice"]]
    return order[:initiative_cards(order, legal["dealt_to"], legal["points"], body.get("advantage") or {})]


def initiative_cards(order: list[str], names: list[str], points: dict[str, int], advantage: dict[str, int]) -> int:
    """How many cards of ``order`` an initiative deal takes, by the rule its listing states (``dealt_to``)."""
    top = 2 * len(names)
    totals = {n: advantage.get(n, 0) + points[order[i]] + points[order[i + len(names)]] for i, n in enumerate(names)}

    def settle(group: list[str], scores: dict[str, int]) -> None:
        nonlocal top
        for value in sorted({scores[n] for n in group}, reverse=True):
            tied = [n for n in group if scores[n] == value]
            if len(tied) == 1 or len(order) - top < len(tied):
                continue  # settled, or ordered by name
            again = {n: points[order[top + j]] + advantage.get(n, 0) for j, n in enumerate(tied)}
            top += len(tied)
            settle(tied, again)

    settle(list(names), totals)
    return top
