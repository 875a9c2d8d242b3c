"""``make bench`` ends with issue 32's targets judged from its own figures (``tests/benchmarks/verdicts.py``)."""

from __future__ import annotations

from typing import Any

from tests.benchmarks import verdicts


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """One verdict line per target and store measured in this session, printed and written to the report.
    Nothing is recorded when the benchmarks are disabled (``make test``'s smoke mode): nothing is written."""
    for store, figures in sorted(verdicts.FIGURES.items()):
        text = verdicts.section(store, figures)
        terminalreporter.write_sep("=", f"issue 32 targets, {store}")
        terminalreporter.write_line(text)
        verdicts.publish(store, text)


#: Under ``make test`` (benchmarks disabled) the three load benchmarks run once each as smoke tests, on the store
#: named here, to keep the suite's time; ``make bench`` measures each on both stores.
SMOKE_STORE = {"test_load_against_the_naive_peer_and_raw_saves": "sqlite",
               "test_latency_stays_flat_as_the_campaign_grows": "sqlite",
               "test_a_move_reaches_every_open_stream_and_other_seats_keep_their_pace": "postgres"}


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    if config.getoption("benchmark_enable", False):  # make bench: every store
        return
    keep, drop = [], []
    for item in items:
        store = SMOKE_STORE.get(getattr(item, "originalname", ""))
        callspec = getattr(item, "callspec", None)
        if store is not None and callspec is not None and callspec.params.get("settings", store) != store:
            drop.append(item)
        else:
            keep.append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
