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
