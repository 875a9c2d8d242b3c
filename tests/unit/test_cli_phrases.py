"""The CLI's phrases name the table (cli/systems/__init__.py ``Said``): what no random game reaches."""

from __future__ import annotations

import io

from cli.systems import Said
from cli.systems.beast import unit_phrase as beast_phrase
from cli.systems.penny_ante import challenge_phrase

NAMES = {"house": "the House", "ilse": "Ilse Varn"}


def test_an_antagonist_named_like_a_seat_is_shown_by_its_own_name_never_as_that_seats_character():
    said = Said(names=NAMES)
    announced = {"challenger": {"kind": "antagonist", "members": ["ilse"]},
                 "opponent": {"kind": "character", "members": ["ilse"]}, "ante": 1}
    assert challenge_phrase("Announced", announced, said) == "ilse challenges Ilse Varn, ante 1"
    assert challenge_phrase("Checked", {"side": "opponent"}, said) == "Ilse Varn checks"


def test_a_side_whose_unit_opened_before_the_page_is_said_by_its_role():
    assert challenge_phrase("Raised", {"side": "challenger", "amount": 2}, Said(names=NAMES)) == \
        "The challenger raises 2"


def test_a_beast_outcome_hidden_from_the_seat_is_not_said_to_be_a_tie():
    said = Said(names=NAMES)
    assert beast_phrase("Resolved", {}, said) == "Resolved (the outcome is hidden until it is settled)"
    assert beast_phrase("Resolved", {"outcome": {"winner": None}}, said) == "A tie"


def test_a_seed_given_is_shown_as_typed_under_its_phrase():
    said = Said(names=NAMES)
    said.sides({"challenger": "Ilse Varn", "opponent": "Lady Sen"})
    assert challenge_phrase("SeedAdded", {"side": "challenger", "seed": "for the necklace"}, said) == \
        "Ilse Varn gives a seed\nseed for the necklace"


def test_a_log_page_that_starts_after_a_unit_opened_names_its_sides_and_characters_from_what_opened_them():
    """``stakes log --after``: the unit's sides from its opening step, its characters from the campaign's
    players; the opening is read once per unit, and only for a unit that did not open on the page."""
    from datetime import UTC, datetime
    from uuid import uuid4

    from rich.console import Console

    from adapters import schemas
    from cli import tables  # first: history's renderers are imported through it (cli/tables.py)

    at, unit, character, opened_here = datetime.now(UTC), uuid4().hex, uuid4().hex, uuid4().hex
    announced = {"challenger": {"kind": "character", "members": ["ilse"]},
                 "opponent": {"kind": "antagonist", "members": ["Lady Sen"]}, "ante": 1}
    entries = [schemas.LogEntry(position=n, at=at, actor=actor, stream=stream, event=event, detail=detail, hidden=[])
               for n, (actor, stream, event, detail) in enumerate([
                   ("ilse", f"Challenge:{unit}", "Raised", {"side": "challenger", "amount": 2}),
                   ("ilse", f"Character:{character}", "PenniesWagered", {"amount": 2}),
                   ("house", f"Challenge:{unit}", "Checked", {"side": "opponent"}),
                   ("house", f"Challenge:{opened_here}", "Announced", announced)], start=41)]
    asked: list[str] = []

    def opening(oid: str) -> list[schemas.ReplayStep]:
        asked.append(oid)
        return [schemas.ReplayStep(step=1, at=at, actor="house", event="Announced", detail=announced, hidden=[],
                                   changes=[], state={}, rewindable=False)]

    drawn = tables.log(schemas.EventLog(campaign_id=uuid4(), entries=entries, next_after=None), NAMES,
                       {character: "Ilse Varn"}, opening)
    console = Console(width=200, file=io.StringIO())
    console.print(drawn)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Ilse Varn raises 2" in text and "Ilse Varn wagers 2" in text and "Lady Sen checks" in text
    assert "challenger" not in text.lower() and "A character" not in text
    assert asked == [unit]
