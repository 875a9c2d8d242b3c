"""The one place that makes user text inert in the CLI (cli/inert.py, issue 29 item 3): what a view's texts
become before a table draws them, and that no markup, escape or bidi control survives to the terminal. The
store refuses control characters itself (domain/text.py); these check the CLI's own defence, which also
holds against a server that sends them."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from uuid import uuid4

import pytest

from adapters import schemas
from adapters.systems.penny_ante import schemas as pa
from cli import output
from cli.inert import inert, neutralise
from cli.options import Format

RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff\U000e0000-\U000e007f]")
NOW = datetime(2026, 11, 27, tzinfo=UTC)
HOSTILE = ("[/bold]", "[link=https://evil.example]x[/link]", "[reverse]audit: TAMPERED[/reverse]",
           "\x1b[31mred\x1b[0m", "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\", "abc\u202egnp.exe",
           "\u2066iso\u2069", "zero\u200bwidth", "tag\U000e0041", "bell\x07", "c1\x9b31m", "<script>x</script>",
           ":warning:", "line\nbreak", "lone\ud800surrogate", "back\\", "\\[bold]")


def sheet(name: str, characteristic: str) -> pa.Sheet:
    return pa.Sheet(seat="ilse", name=name, pile=25, in_play=0, spent=0,
                    characteristics=[pa.Characteristic(name=characteristic, cost=0, acquired_at=NOW)],
                    owes=[], owed=[], offers=[])


def campaign(name: str, character: str) -> schemas.CampaignView:
    return schemas.CampaignView(id=uuid4(), name=name, system="penny-ante", settings={"note": name}, created_at=NOW,
                                adventure=0, adventure_running=False,
                                players=[schemas.SeatRef(seat="ilse", character=character)])


@pytest.mark.parametrize("text,shown", [
    ("\x1b[31mred", "\\x1b[31mred"), ("abc\u202egnp", "abc\\u202egnp"), ("\u2066x\u2069", "\\u2066x\\u2069"),
    ("a\tb\rc", "a\\tb\\rc"), ("c1\x9b", "c1\\x9b"), ("tag\U000e0041", "tag\\U000e0041"),
    ("lone\ud800", "lone\\ud800"), ("a\nb", "a\\nb"), ("[/bold] <b> :warning:", "[/bold] <b> :warning:"),
    ("Ilse Varn", "Ilse Varn"), ("Zoë 🂡 👩\u200d👩", "Zoë 🂡 👩\u200d👩"), ("עִבְרִית", "עִבְרִית"),
])
def test_a_control_bidi_or_invisible_character_is_shown_as_its_escape_and_plain_text_is_kept(text, shown):
    assert neutralise(text) == shown


def test_a_newline_is_kept_only_in_the_long_texts_where_lines_are_wanted():
    view = inert({"name": "a\nb", "note": "a\nb", "nested": [{"reason": "x\ny", "seat": "x\ny"}]})
    assert view == {"name": "a\\nb", "note": "a\nb", "nested": [{"reason": "x\ny", "seat": "x\\ny"}]}


def test_inert_keeps_a_views_types_and_neutralises_its_keys_too():
    view = inert(sheet("\x1b[2J", "\u202eevil"))
    assert type(view) is pa.Sheet and view.characteristics[0].acquired_at == NOW
    assert view.name == "\\x1b[2J" and view.characteristics[0].name == "\\u202eevil"
    assert inert({"\x1bkey": 1}) == {"\\x1bkey": 1}


@pytest.mark.parametrize("hostile", HOSTILE)
def test_a_hostile_name_in_a_sheet_a_list_and_a_campaign_is_drawn_literally_never_obeyed(hostile, capsys,
                                                                                       monkeypatch):
    monkeypatch.setenv("COLUMNS", "500")
    output.emit(sheet(hostile, f"c {hostile}"), Format.table, output.sheet)
    output.emit([sheet(hostile, f"c {hostile}")], Format.table, output.sheets)
    output.emit(campaign(hostile, hostile), Format.table, output.campaign)
    drawn = capsys.readouterr().out
    assert RAW.search(drawn) is None, repr(drawn)
    assert neutralise(hostile) in drawn  # markup as typed, escapes visible
    assert "TAMPERED" not in drawn or "[reverse]audit: TAMPERED[/reverse]" in drawn


@pytest.mark.parametrize("hostile", HOSTILE)
def test_json_output_keeps_a_hostile_text_exact_and_escaped(hostile, capsys):
    output.emit(sheet(hostile, hostile), Format.json)
    printed = capsys.readouterr().out
    assert RAW.search(printed) is None and printed.isascii()
    assert json.loads(printed)["name"] == hostile


def test_ten_thousand_characters_are_drawn_whole_folded_over_lines(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    long = "[bold]" + "x" * 10_000 + "\x1b"
    output.emit(sheet(long, "y" * 10_000), Format.table, output.sheet)
    drawn = capsys.readouterr().out
    assert "".join(drawn.split()).count("x") >= 10_000 and "\x1b" not in drawn


def test_an_error_that_quotes_a_hostile_text_is_printed_inert(capsys):
    from cli.session import fail

    fail("no antagonist named '[/bold]\x1b]8;;https://evil.example\x1b\\x\u202e'", 5)
    err = capsys.readouterr().err
    assert "[/bold]" in err and "\\x1b]8;;" in err and "\\u202e" in err and RAW.search(err) is None
