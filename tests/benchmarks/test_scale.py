"""``make bench``: every read and command answers as fast in a long campaign as in a short one (issue 15).

The same generated campaign (``campaign.py``) is grown in two stores of its own: to
``STAKES_BENCH_SMALL_EVENTS`` (default 10,000) in one and to ``STAKES_BENCH_SCALE_EVENTS`` (default 100,000;
the issue's figure is ``STAKES_BENCH_SCALE_EVENTS=1000000``, about 10 minutes of generating on this machine)
in the other. The large store's read models are emptied, so its server starts on an empty read store: the
table says when it first answered, how long its catch-up took (a rebuild in the API process) and its
resident memory after it. Both servers then run side by side and are measured in alternating rounds
(``STAKES_BENCH_ROUNDS``, ``STAKES_BENCH_REQUESTS`` requests of each read a round), so a drift of the machine
touches both sizes alike. Each row is the median of the rounds' medians of sequential requests from one
client: latency, not throughput. Under ``make test`` the same code runs on a few hundred events as a smoke
test.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from uuid import UUID

import httpx
import pytest

from adapters.service import Stakes
from adapters.settings import Settings
from tests.benchmarks import load, verdicts
from tests.benchmarks.campaign import MOVES, grow, new_campaign
from tests.benchmarks.test_load import own_store, publish


def _int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


class Table:
    """A running server and the three seats' clients."""

    def __init__(self, url: str, cid: UUID, tokens: dict[str, str]) -> None:
        self.prefix = f"/campaigns/{cid}"
        self.seats = {seat: httpx.Client(base_url=url, timeout=60,
                                         headers={"Authorization": f"Bearer {token}"})
                      for seat, token in tokens.items()}

    def get(self, seat: str, path: str, **params) -> dict:
        answer = self.seats[seat].get(self.prefix + path, params=params)
        assert answer.status_code == 200, (path, answer.status_code, answer.text[:300])
        return answer.json()

    def post(self, seat: str, path: str, body: dict) -> dict:
        answer = self.seats[seat].post(self.prefix + path, json=body)
        assert answer.status_code in (200, 201), (path, answer.status_code, answer.text[:300])
        return answer.json()

    def close(self) -> None:
        for client in self.seats.values():
            client.close()


def median_ms(requests: int, call: Callable[[int], None]) -> float:
    took = []
    for i in range(requests):
        began = time.perf_counter()
        call(i)
        took.append(time.perf_counter() - began)
    return statistics.median(took) * 1000


def latencies(table: Table, requests: int, log_end: int) -> dict[str, float]:
    """Median milliseconds of each read and command, one client at a time."""
    challenges = table.get("ilse", "/challenges", limit=100)
    latest = challenges[-1]["id"] if challenges else None
    found: dict[str, float] = {
        "campaign": median_ms(requests, lambda i: table.get("ilse", "")),
        "sheet": median_ms(requests, lambda i: table.get("ilse", "/characters/ilse")),
        # a full page at either size (the 10,000-event campaign holds about 40 challenges): the same work
        "challenge list, first page": median_ms(requests, lambda i: table.get("ilse", "/challenges", limit=25)),
        "debt register, first page": median_ms(requests, lambda i: table.get("ilse", "/debts")),
        "House budget": median_ms(requests, lambda i: table.get("house", "/budget")),
        "log, first page": median_ms(requests, lambda i: table.get("ilse", "/log", limit=100)),
        "log, latest page": median_ms(requests, lambda i: table.get("ilse", "/log", after=log_end - 150, limit=100)),
    }
    if latest:
        found["challenge view"] = median_ms(requests, lambda i: table.get("tomas", f"/challenges/{latest}"))
        found["challenge replay"] = median_ms(requests, lambda i: table.get("ilse", f"/challenges/{latest}/replay"))
    loans: list[str] = []
    found["command: offer a loan"] = median_ms(requests, lambda i: loans.append(
        table.post("tomas", "/loans", {"borrower": "ilse", "amount": 1})["loan_id"]))
    found["command: withdraw a loan"] = median_ms(requests, lambda i: table.post(
        "tomas", f"/loans/{loans[i]}/withdraw", {}))
    moves: list[float] = []
    for _ in range(max(1, requests // len(MOVES))):
        unit = table.post("ilse", "/challenges", {"challenger": {"players": ["ilse"]},
                                                  "opponent": {"players": ["tomas"]}, "ante": 1})["id"]
        for seat, action, args in MOVES:
            began = time.perf_counter()
            table.post(seat.name, f"/challenges/{unit}/actions", {"action": action, **args})
            moves.append(time.perf_counter() - began)
    found["command: a challenge move"] = statistics.median(moves) * 1000
    return found


def rss_mib(pid: int) -> float:
    """Resident memory of a process and its descendants (uvicorn's workers), from /proc."""
    total = 0
    for proc in load.process_tree(pid):
        status = Path(f"/proc/{proc}/status")
        if status.exists():
            for line in status.read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total / 1024


@contextmanager
def serving(env: dict[str, str], log: Path, cid: UUID, tokens: dict[str, str],
            events: int) -> Iterator[tuple[Table, dict[str, float], int]]:
    """A server, once its read models reached the log: its seats' clients, its start-up figures and the log's
    end."""
    began = time.perf_counter()
    with load.stakes_server(env, log) as url:
        first_answer = time.perf_counter() - began
        while True:
            health = httpx.get(f"{url}/health", timeout=60).json()
            if health["read_models"] == "ready":  # /health shows no log position (issue 29, ADR 0028)
                break
            time.sleep(0.05)
        caught_up = time.perf_counter() - began
        server = {"first answer s": first_answer, "caught up s": caught_up, "rss MiB": rss_mib(url.pid)}
        table = Table(url, cid, tokens)
        try:
            yield table, server, events
        finally:
            table.close()


def generated(settings: Settings, events: int, empty_read_store: bool) -> tuple[UUID, dict[str, str], int]:
    """The campaign grown to ``events`` in the store ``settings`` names, with its seats' tokens."""
    stakes = Stakes(settings)
    try:
        cid = new_campaign(stakes)
        tokens = {seat: stakes.tokens.issue(cid, seat) for seat in ("house", "ilse", "tomas")}
        at = grow(stakes, cid, events)
        if empty_read_store:
            stakes.views.reset(stakes.app.name)  # the server starts on an empty read store (tokens are kept)
        return cid, tokens, at
    finally:
        stakes.close()


def rounds_median(rounds: list[dict[str, float]]) -> dict[str, float]:
    return {name: statistics.median(r[name] for r in rounds) for name in rounds[0]}


def section_name(store: str, large: int) -> str:
    """One section per store and size in docs/benchmarks.md, so a 1M run stays beside the default one."""
    return f"scale to {large:,} events, {store}"


def render(store: str, small: int, large: int, at_small: dict[str, float], at_large: dict[str, float],
           server: dict[str, float]) -> str:
    lines = [f"### {section_name(store, large)}", "",
             (f"Median latency of one client, milliseconds, of one campaign at {small:,} and at {large:,} events "
              "(two stores, served side by side, measured in alternating rounds):"), "",
             f"| read or command | at {small:,} | at {large:,} | × |", "|---|---:|---:|---:|"]
    for name, ms in at_small.items():
        later = at_large.get(name, float("nan"))
        lines.append(f"| {name} | {ms:.1f} | {later:.1f} | {later / ms:.2f} |")
    lines += ["", f"A server started on an empty read store at {large:,} events answered after "
                  f"{server['first answer s']:.1f} s, had projected the whole log after {server['caught up s']:.1f} s, "
                  f"and then held "
                  f"{server['rss MiB']:.0f} MiB resident."]
    return "\n".join(lines) + "\n"


@pytest.mark.benchmark(group="scale")
def test_latency_stays_flat_as_the_campaign_grows(benchmark, settings, env_for, tmp_path):
    measuring = not benchmark.disabled
    small = _int("STAKES_BENCH_SMALL_EVENTS", 10_000) if measuring else 200
    large = _int("STAKES_BENCH_SCALE_EVENTS", 100_000) if measuring else 400
    requests = _int("STAKES_BENCH_REQUESTS", 60) if measuring else 2
    rounds = _int("STAKES_BENCH_ROUNDS", 5) if measuring else 1

    def measure():
        with own_store(settings, tmp_path, "small") as small_store, \
                own_store(settings, tmp_path, "large") as large_store:
            quiet = {"STAKES_ACCESS_LOG": "false"}
            small_env, large_env = {**env_for(small_store), **quiet}, {**env_for(large_store), **quiet}
            small_campaign = generated(small_store, small, empty_read_store=False)
            large_campaign = generated(large_store, large, empty_read_store=True)
            with serving(large_env, tmp_path / "large.log", *large_campaign) as (large_table, server, large_end), \
                    serving(small_env, tmp_path / "small.log", *small_campaign) as (small_table, _, small_end):
                for table, end in ((small_table, small_end), (large_table, large_end)):
                    latencies(table, max(2, requests // 6), end)  # a warm-up round, not measured: caches, pools
                at_small, at_large = [], []
                for _ in range(rounds):  # alternating, so the machine's drift touches both sizes alike
                    at_small.append(latencies(small_table, requests, small_end))
                    at_large.append(latencies(large_table, requests, large_end))
            return rounds_median(at_small), rounds_median(at_large), server

    at_small, at_large, server = benchmark.pedantic(measure, rounds=1, iterations=1)
    section = render(settings.store, small, large, at_small, at_large, server)
    print("\n" + section)
    assert at_small.keys() == at_large.keys()
    if measuring:
        publish(section, section_name(settings.store, large))
        if large >= 1_000_000:  # issue 32's target is judged at a million events only
            verdicts.record(settings.store, **{"scale 1M worst x": max(at_large[k] / at_small[k] for k in at_small)})
