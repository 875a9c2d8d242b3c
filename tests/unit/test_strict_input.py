"""Strict input (C-1 and the ruling of each command): booleans and numeric strings are not numbers, and a
name written in two scripts is refused so it cannot pass for another."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.systems.penny_ante.commands import AnnounceChallenge, FundAntagonist, OfferLoan, Raise
from domain.systems.pool.commands import RollDice
from domain.text import clean_text


@pytest.mark.parametrize("value", [True, False, "12", 1.5, None])
def test_a_loan_amount_is_a_whole_number_not_a_boolean_or_text(value: object) -> None:
    with pytest.raises(RuleViolation, match="PA-14: amount"):
        OfferLoan.parse({"borrower": "ilse", "amount": value})


def test_every_numeric_input_refuses_true() -> None:
    for cls, payload, ruling in (
        (FundAntagonist, {"antagonist": "Lady Sen", "amount": True}, "PA-4"),
        (Raise, {"action": "raise", "amount": True}, "PA-9"),
        (RollDice, {"count": True}, "PL-2"),
        (AnnounceChallenge, {"challenger": {"players": ["ilse"]}, "opponent": {"players": ["tomas"]},
                             "ante": True}, "PA-5"),
    ):
        with pytest.raises(RuleViolation, match=f"^{ruling}: "):
            cls.parse(payload)


def test_unknown_inputs_are_refused_naming_the_ruling() -> None:
    with pytest.raises(RuleViolation, match="PA-14: .*pile"):
        OfferLoan.parse({"borrower": "ilse", "amount": 3, "pile": 99})


def test_a_name_mixing_latin_and_cyrillic_letters_is_refused() -> None:
    with pytest.raises(RuleViolation, match="PA-4: a name mixes Cyrillic and Latin letters"):
        clean_text("L\u0430dy Sen", "a name", max_length=60, ruling="PA-4", name=True)


def test_a_name_in_one_script_is_kept_whatever_the_script() -> None:
    assert clean_text("Москва Сити", "a name", max_length=60, ruling="PA-4", name=True) == "Москва Сити"
    assert clean_text("Ｌａｄｙ  Sen", "a name", max_length=60, ruling="PA-4", name=True) == "Lady Sen"  # NFKC


def test_free_text_may_mix_scripts() -> None:
    assert clean_text("Moscow — Москва", "a note", max_length=60, ruling="PA-14") == "Moscow — Москва"


def test_a_missing_field_is_named_in_words_with_the_commands_ruling():
    """Found on a phone walk: an announcement with no opponent read 'PA-5: opponent: Field required'."""
    from domain.errors import RuleViolation
    from domain.systems.penny_ante.commands import AnnounceChallenge

    with pytest.raises(RuleViolation) as refused:
        AnnounceChallenge.parse({"challenger": {"players": ["ilse"]}, "ante": 1})
    assert refused.value.ruling == "PA-5" and "the opponent is missing" in str(refused.value)
