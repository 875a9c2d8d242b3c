"""PA-11: the best Yahtzee score of exactly five dice chosen from a side's usable dice."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations

FACES = range(1, 7)
#: On equal value, the category named is the first of these (only the name changes, never the score).
PREFERENCE = ("yahtzee", "large straight", "small straight", "full house", "four of a kind", "three of a kind",
              *(f"{face}s" for face in reversed(FACES)), "chance")


def _longest_run(faces: set[int]) -> int:
    best = run = 0
    for face in FACES:
        run = run + 1 if face in faces else 0
        best = max(best, run)
    return best


def categories(dice: Sequence[int]) -> dict[str, int]:
    """Every category these dice (at most five) can make, with its value (PA-11).

    With fewer than five dice, only categories the dice can actually make count:
    a full house, a large straight and a yahtzee need five dice.
    """
    counts = Counter(dice)
    total = sum(dice)
    scores = {f"{face}s": face * counts[face] for face in FACES if counts[face]}
    if dice:
        scores["chance"] = total
    most = max(counts.values(), default=0)
    if most >= 3:
        scores["three of a kind"] = total
    if most >= 4:
        scores["four of a kind"] = total
    if len(dice) == 5:
        if sorted(counts.values()) == [2, 3]:
            scores["full house"] = 25
        if most == 5:
            scores["yahtzee"] = 50
    run = _longest_run(set(dice))
    if run >= 4:
        scores["small straight"] = 30
    if run >= 5:
        scores["large straight"] = 40
    return scores


def best_category(dice: Sequence[int]) -> tuple[str, int]:
    scores = categories(dice)
    if not scores:
        return ("nothing", 0)
    name = max(scores, key=lambda n: (scores[n], -PREFERENCE.index(n)))
    return name, scores[name]


def best_score(dice: Iterable[int]) -> tuple[int, tuple[int, ...], str]:
    """The best score of exactly five dice chosen from ``dice`` (all of them when fewer).

    Returns the score, the five dice chosen (sorted) and the category.
    """
    pool = sorted(dice)
    if len(pool) <= 5:
        name, score = best_category(pool)
        return score, tuple(pool), name
    best: tuple[int, tuple[int, ...], str] = (-1, (), "")
    for hand in set(combinations(pool, 5)):
        name, score = best_category(hand)
        if (score, hand) > best[:2]:
            best = (score, hand, name)
    return best
