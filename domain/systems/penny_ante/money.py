"""Alliance money (PA-18): drawing bets from several piles and splitting a won pot."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def draw(amount: int, members: Sequence[str], piles: Mapping[str, int]) -> dict[str, int]:
    """Take ``amount`` from the members' piles as evenly as possible, penny by penny in joining order.

    Equivalent to handing out one penny at a time to each member in turn, skipping
    empty piles, but computed in whole rounds so large amounts stay cheap.
    """
    take = {m: 0 for m in members}
    left = amount
    while left > 0:
        active = [m for m in members if piles[m] - take[m] > 0]
        if not active:
            raise ValueError(f"the piles hold {sum(piles[m] for m in members)} pennies, not {amount}")
        rounds = left // len(active)
        if rounds == 0:
            for m in active[:left]:
                take[m] += 1
            break
        for m in active:
            got = min(rounds, piles[m] - take[m])
            take[m] += got
            left -= got
    return {m: n for m, n in take.items() if n}


def split(pot: int, members: Sequence[str]) -> dict[str, int]:
    """A won pot split evenly; the remainder goes to the member who declared the alliance (PA-18)."""
    share, remainder = divmod(pot, len(members))
    payout = {m: share for m in members}
    payout[members[0]] += remainder
    return {m: n for m, n in payout.items() if n}
