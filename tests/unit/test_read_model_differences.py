"""Issue 29: how the audit tells live read-model rows from the rows the events project to (ADR 0023)."""

from __future__ import annotations

from adapters.readcheck import differences

EXPECTED = {"event_log": [{"notification_id": 7, "detail": "{}"}, {"notification_id": 9, "detail": "{}"}]}


def kinds(live: dict) -> list[tuple[str, str, dict | None]]:
    return [(d["table"], d["kind"], d["key"]) for d in differences(live, EXPECTED)]


def test_equal_rows_in_any_order_make_no_difference():
    assert differences({"event_log": list(reversed(EXPECTED["event_log"]))}, EXPECTED) == []


def test_a_changed_value_is_altered_and_names_its_column():
    live = {"event_log": [{"notification_id": 7, "detail": "{\"forged\": 1}"}, EXPECTED["event_log"][1]]}
    (d,) = differences(live, EXPECTED)
    assert (d["kind"], d["key"], d["columns"], d["found"], d["expected"]) == (
        "altered", {"notification_id": 7}, ["detail"], {"detail": "{\"forged\": 1}"}, {"detail": "{}"})


def test_a_row_gone_is_missing_and_a_row_no_event_made_is_foreign():
    assert kinds({"event_log": [EXPECTED["event_log"][0]]}) == [("event_log", "missing", {"notification_id": 9})]
    planted = {"event_log": [*EXPECTED["event_log"], {"notification_id": 8, "detail": "{}"}]}
    assert kinds(planted) == [("event_log", "foreign", {"notification_id": 8})]


def test_a_row_copied_under_its_own_key_is_foreign():
    copied = {"event_log": [*EXPECTED["event_log"], EXPECTED["event_log"][0]]}
    assert kinds(copied) == [("event_log", "foreign", {"notification_id": 7})]
