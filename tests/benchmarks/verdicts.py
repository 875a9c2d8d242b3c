"""The targets of issue 32, judged from the figures of one ``make bench`` run.

Each measuring benchmark records its figures here (``record``) as it ends; at the end of the session
(``tests/benchmarks/conftest.py``) one verdict line per target and store is printed and written to
``docs/benchmarks.md`` (``### targets, <store>``): met, or missed and by how much. A target whose benchmark
did not run in the session says so. Under ``make test`` (benchmarks disabled) nothing is recorded, so
nothing is printed or written.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path

REPORT = Path(__file__).resolve().parents[2] / "docs" / "benchmarks.md"

#: store -> figure name -> value, for this session only.
FIGURES: dict[str, dict[str, float]] = {}


def record(store: str, **figures: float) -> None:
    """Figures of this run for ``store`` (the names ``TARGETS`` reads)."""
    FIGURES.setdefault(store, {}).update(figures)


@dataclass(frozen=True)
class Target:
    """``figure`` must be at least (``at_least``) or under ``bound``; ``unit`` says how to print it."""

    label: str
    figure: str
    bound: float
    at_least: bool
    unit: str  # "×" for a ratio, " ms" for a latency, " answers" for a count that must be 0
    stores: tuple[str, ...] = ("sqlite", "postgres")

    def verdict(self, figures: dict[str, float]) -> str | None:
        """This target's line for one store's figures: None when it does not apply to the store."""
        value = figures.get(self.figure)
        goal = "none" if self.unit == " answers" else f"{'≥' if self.at_least else '<'} {self._show(self.bound)}"
        if value is None:
            return f"- {self.label} ({goal}): not measured in this run"
        shown = self._show(value)
        met = value >= self.bound if self.at_least else value < self.bound
        if met:
            return f"- {self.label} ({goal}): **met**, {shown}"
        if self.at_least:
            short = (self.bound - value) / self.bound * 100
            return f"- {self.label} ({goal}): **missed**, {shown}: {short:.0f} % short"
        if self.unit == " answers":
            return f"- {self.label} ({goal}): **missed**, {shown}"
        over = (value - self.bound) / self.bound * 100
        return f"- {self.label} ({goal}): **missed**, {shown}: {over:.0f} % over"

    def _show(self, value: float) -> str:
        return f"{value:.2f}×" if self.unit == "×" else f"{value:.0f}{self.unit}"


TARGETS = (
    Target("commands, 8 clients, against the steady naive peer", "commands x naive", 1.5, True, "×"),
    Target("commands, 8 clients, against the web floor", "commands x floor", 0.25, True, "×"),
    Target("commands, 8 clients, answers 5xx", "commands 5xx", 1, False, " answers"),
    Target("commands, 8 clients, p99", "commands p99 ms", 50, False, " ms", stores=("sqlite",)),
    Target("rebuild against the raw decode", "rebuild x decode", 0.5, True, "×"),
    Target("audit verify against the raw decode", "audit x decode", 0.5, True, "×"),
    Target("export against the raw decode", "export x decode", 0.5, True, "×"),
    Target("1,000 streams: a move reaches every stream, p99", "streams p99 ms", 250, False, " ms"),
    Target("1,000 streams: other commands' median against idle (the worse of another campaign's and the "
           "streamed campaign's)", "streams x idle", 1.2, False, "×"),
    Target("every read and command at 1,000,000 events against its latency at 10,000 (the worst; "
           "STAKES_BENCH_SCALE_EVENTS=1000000)", "scale 1M worst x", 1.2, False, "×"),
)


def lines(store: str, figures: dict[str, float]) -> list[str]:
    """Every verdict line of ``store``."""
    found = [t.verdict(figures) for t in TARGETS if store in t.stores]
    return [line for line in found if line is not None]


def section(store: str, figures: dict[str, float], notes: list[str] | None = None) -> str:
    met = sum("**met**" in line for line in lines(store, figures))
    judged = sum("not measured" not in line for line in lines(store, figures))
    return "\n".join([
        f"### targets, {store}", "",
        f"Issue 32's targets, judged from the figures of the run of "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: {met} of {judged} measured met.", "",
        *lines(store, figures), *(notes or []), ""])


NOT_MEASURED = "not measured in this run"
EARLIER = " (an earlier run)"


def kept(previous: str, text: str) -> str:
    """``text`` with each target this run did not measure judged as ``previous`` judged it, marked as from an
    earlier run (a run of some benchmarks alone, ``-k streams``, keeps the others' verdicts), and the count in
    its heading made over every judged line."""
    def target(line: str) -> str:
        return line.split(" (", 1)[0]

    earlier = {target(line): line.removesuffix(EARLIER) + EARLIER
               for line in previous.splitlines() if line.startswith("- ") and "**" in line}
    out = [earlier.get(target(line), line) if line.startswith("- ") and line.endswith(NOT_MEASURED) else line
           for line in text.splitlines()]
    judged = [line for line in out if line.startswith("- ") and "**" in line]
    met = sum("**met**" in line for line in judged)
    return re.sub(r": \d+ of \d+ measured met\.", f": {met} of {len(judged)} measured met.", "\n".join(out), count=1)


def publish(store: str, text: str, report: Path = REPORT) -> None:
    """Replace ``### targets, <store>`` in the report (keeping the verdicts of targets this run did not
    measure, :func:`kept`), or add it before the stores' sections."""
    body = report.read_text() if report.exists() else "# Benchmarks\n"
    pattern = re.compile(rf"### targets, {re.escape(store)}\n.*?(?=\n### |\Z)", re.S)
    found = pattern.search(body)
    if found:
        text = kept(found.group(0), text)
        body = pattern.sub(lambda _: text.rstrip("\n") + "\n", body)
    else:
        first = body.find("\n### ")
        body = (body.rstrip("\n") + "\n\n" + text if first < 0
                else body[:first + 1] + text.rstrip("\n") + "\n\n" + body[first + 1:])
    report.write_text(body.rstrip("\n") + "\n")
