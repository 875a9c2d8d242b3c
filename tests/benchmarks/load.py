"""The load harness of ``make bench`` (issue 15): Stakes beside a naive peer and raw eventsourcing saves.

Every figure comes from one run on one store, interleaved, so the ratios compare like with like:

- **Stakes**: ``stakes serve`` (uvicorn, N workers) answering ``POST …/characters/{seat}/characteristics``
  from concurrent clients, each a player of its own (one command: load, check PA-2, save, project);
- **naive peer** (``naive_peer.py``): a FastAPI endpoint that loads one aggregate and saves one event, at a
  steady state (40 counters, snapshotted as Stakes snapshots; its ``drift`` column shows the rate held);
- **raw saves**: eventsourcing ``Application.save`` from concurrent writer threads, in process;
- **web floor**: the naive peer's process answering the same request shape with no store at all: what any
  FastAPI endpoint costs on this machine, with this client;
- **rebuild / audit / export** of a generated campaign against the raw read-and-decode rate of its log.
"""

from __future__ import annotations

import os
import resource
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Run:
    """What the clients of one measurement saw."""

    name: str
    seconds: float
    latencies: list[float] = field(default_factory=list)
    #: When each answered request finished, in seconds from the start (for ``drift``).
    finished: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    #: CPU seconds the server's processes (None: no server, in process) and this client process spent.
    server_cpu: float | None = None
    client_cpu: float = 0.0

    @property
    def done(self) -> int:
        return len(self.latencies)

    @property
    def throughput(self) -> float:
        return self.done / self.seconds if self.seconds else 0.0

    @property
    def drift(self) -> float:
        """Answers in the run's second half over its first: about 1 for a steady rate (issue 32)."""
        half = self.seconds / 2
        first = sum(1 for t in self.finished if t < half)
        return (len(self.finished) - first) / first if first else 0.0

    def percentile(self, p: float) -> float:
        if not self.latencies:
            return 0.0
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000

    def cpu_ms(self, seconds: float | None) -> float | None:
        """CPU milliseconds per answered request."""
        return None if seconds is None or not self.done else seconds * 1000 / self.done

    @property
    def server_errors(self) -> int:
        return sum(n for status, n in self.statuses.items() if status >= 500 or status == 0)


def hammer(name: str, clients: int, seconds: float, request: Callable[[int, int], int],
           server: int | None = None) -> Run:
    """``clients`` threads call ``request(client, i)`` for ``seconds``; each call returns its status. With
    ``server`` (a process id), the CPU its processes spend meanwhile is measured too."""
    run = Run(name, seconds)
    lock = threading.Lock()
    began_at = time.perf_counter()
    deadline = began_at + seconds

    def client(k: int) -> None:
        i = 0
        while time.perf_counter() < deadline:
            start = time.perf_counter()
            try:
                status = request(k, i)
            except httpx.HTTPError:
                status = 0
            took = time.perf_counter() - start
            with lock:
                run.statuses[status] = run.statuses.get(status, 0) + 1
                if 200 <= status < 300:
                    run.latencies.append(took)
                    run.finished.append(start + took - began_at)
            i += 1

    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    began, served = own_cpu(), process_cpu(server) if server else 0.0
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    run.client_cpu = own_cpu() - began
    if server:
        run.server_cpu = process_cpu(server) - served
    return run


def own_cpu() -> float:
    """CPU seconds this process has spent, every thread together."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def process_tree(pid: int) -> list[int]:
    """A process and its live descendants (uvicorn's workers), from Linux ``/proc``."""
    found, pending = [], [pid]
    while pending:
        current = pending.pop()
        found.append(current)
        for children in Path("/proc").glob(f"{current}/task/*/children"):
            try:
                pending += [int(c) for c in children.read_text().split()]
            except (FileNotFoundError, ProcessLookupError):  # a worker that ended meanwhile
                continue
    return found


def process_cpu(pid: int) -> float:
    """CPU seconds a process and its live descendants have spent."""
    total, tick = 0.0, os.sysconf("SC_CLK_TCK")
    for current in process_tree(pid):
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


class Served(str):
    """A running server's URL, with its process id."""

    pid: int


@contextmanager
def process(args: list[str], env: dict[str, str], log: Path) -> Iterator[Served]:
    """A server process on a free port; yields its URL once ``/health`` answers."""
    port = free_port()
    env = {**os.environ, **env, "STAKES_PORT": str(port), "STAKES_HOST": "127.0.0.1", "PYTHONPATH": str(ROOT)}
    url = f"http://127.0.0.1:{port}"
    with open(log, "w") as out:
        proc = subprocess.Popen(args, env=env, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)
        try:
            for _ in range(300):
                try:
                    if httpx.get(f"{url}/health", timeout=0.5).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if proc.poll() is not None:
                    raise RuntimeError(f"{args} exited: {log.read_text()}")
                time.sleep(0.1)
            else:
                raise RuntimeError(f"{args} did not start: {log.read_text()}")
            served = Served(url)
            served.pid = proc.pid
            yield served
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()


def stakes_server(env: dict[str, str], log: Path, workers: int = 1):
    args = [sys.executable, "-m", "cli", "serve"]
    if workers > 1:
        args += ["--workers", str(workers)]
    return process(args, env, log)


def naive_server(env: dict[str, str], log: Path):
    return process([sys.executable, "-m", "tests.benchmarks.naive_peer"], env, log)


#: Players each Stakes client plays in turn (8 clients: 200). A purchase answers the whole sheet, so a sheet that
#: grew all through the window made each answer cost more than the last: over 40 players at 452 commands a second
#: Stakes' rate drifted to 0.87 (its second half over its first; 0.62 by the end of a 24-second run). Over 200 no
#: sheet passes about 30 characteristics in a window.
PLAYERS_PER_CLIENT = 25


def stakes_load(url: Served, clients: int, seconds: float) -> Run:
    """Each client plays ``PLAYERS_PER_CLIENT`` players of its own in turn, buying characteristics (PA-2), one
    command per request, so that no sheet grows long over a run (a rate that fell as the run went on, as the
    old peer's did, would measure the run's length)."""
    with httpx.Client(base_url=url, timeout=30) as http:
        created = http.post("/campaigns", json={"name": "Load", "system": "penny-ante",
                                                "settings": {"starting_pile": 1_000_000}}).json()
        cid, house = created["campaign"]["id"], {"Authorization": f"Bearer {created['house_token']}"}
        headers: list[list[dict[str, str]]] = []
        for k in range(clients):
            mine = []
            for j in range(PLAYERS_PER_CLIENT):
                added = http.post(f"/campaigns/{cid}/players", headers=house,
                                  json={"seat": f"p{k}x{j}", "character": f"Player {k}.{j}",
                                        "characteristic": "Grit"}).json()
                mine.append({"Authorization": f"Bearer {seat_token(http, added)}"})
            headers.append(mine)
    sessions = [httpx.Client(base_url=url, timeout=30) for _ in range(clients)]
    try:
        def buy(k: int, i: int) -> int:
            j = i % PLAYERS_PER_CLIENT
            return sessions[k].post(f"/campaigns/{cid}/characters/p{k}x{j}/characteristics", headers=headers[k][j],
                                    json={"name": f"Trick {i}"}).status_code

        return hammer("stakes", clients, seconds, buy, url.pid)
    finally:
        for s in sessions:
            s.close()


def seat_token(http: httpx.Client, added: dict) -> str:
    from tests.e2e.conftest import player_token

    return player_token(http, added)


def naive_load(url: Served, clients: int, seconds: float) -> Run:
    return _counter_load(url, clients, seconds, "naive peer", "/counters/c{k}-{j}/increment")


def floor_load(url: Served, clients: int, seconds: float) -> Run:
    """The naive peer's ``/floor``: the same request and answer as its command, and no store."""
    return _counter_load(url, clients, seconds, "web floor", "/floor/c{k}")


def _counter_load(url: Served, clients: int, seconds: float, name: str, path: str) -> Run:
    """Each client posts ``{"by": 1}`` to ``path`` (``{k}``: the client's number; ``{j}``: one of its counters)."""
    from tests.benchmarks.naive_peer import COUNTERS_PER_CLIENT

    sessions = [httpx.Client(base_url=url, timeout=30) for _ in range(clients)]
    try:
        def post(k: int, i: int) -> int:  # ``{j}``: one of the client's counters in turn (steady state)
            return sessions[k].post(path.format(k=k, j=i % COUNTERS_PER_CLIENT), json={"by": 1}).status_code

        return hammer(name, clients, seconds, post, url.pid)
    finally:
        for s in sessions:
            s.close()


def raw_saves(env: dict[str, str], writers: int, seconds: float) -> Run:
    """eventsourcing alone: ``writers`` threads each append events to an aggregate of their own."""
    from tests.benchmarks import naive_peer

    saved = dict(os.environ)
    os.environ.update(env)
    try:
        application = naive_peer.open_application()
    finally:
        os.environ.clear()
        os.environ.update(saved)
    counters = [naive_peer.Counter(f"raw-{time.time_ns()}-{k}") for k in range(writers)]
    for counter in counters:
        application.save(counter)

    def save(k: int, i: int) -> int:
        counters[k].increment(1)
        application.save(counters[k])
        return 201

    try:
        return hammer("raw saves", writers, seconds, save)
    finally:
        application.close()


def median(runs: list[float]) -> float:
    return statistics.median(runs) if runs else 0.0
