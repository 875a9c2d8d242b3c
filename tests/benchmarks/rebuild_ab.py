"""An interleaved A/B of the rebuild (ADR 0037): two source trees rebuild the same generated campaign, in turns.

    python tests/benchmarks/rebuild_ab.py make  STORE EVENTS DIR          # the campaign, once (either tree)
    python tests/benchmarks/rebuild_ab.py ab    STORE DIR ROUNDS OLD NEW  # OLD, NEW: source trees
    python tests/benchmarks/rebuild_ab.py one   STORE DIR [profile.out]   # one measure, in this tree

``ab`` runs ``one`` in a fresh process per tree and round (PYTHONPATH=<tree>), alternating which goes first,
and prints each tree's medians: events per second of the raw decode and of each tool (each the best of five,
taken in turns), the ratio of those, and the median of each turn's own ratio. The tools are
``STAKES_AB_TOOLS`` (comma-separated, of ``rebuild``, ``audit`` and ``export``; default ``rebuild``); the audit
and the export are timed over the campaign's events, as ``make bench`` times them. STORE is ``sqlite`` (DIR
holds the files) or ``postgres`` (schema ``STAKES_AB_SCHEMA``, default ``ab_rebuild``, of the database ``test``
at 127.0.0.1:5432).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path


def settings(store: str, folder: Path):  # type: ignore[no-untyped-def]
    from adapters.settings import Settings

    if store == "sqlite":
        return Settings(store="sqlite", sqlite_path=folder / "stakes.sqlite", config=folder / "config.json",
                        store_timeout=30)
    return Settings(store="postgres", postgres_user="postgres", postgres_dbname="test",
                    postgres_schema=os.environ.get("STAKES_AB_SCHEMA", "ab_rebuild"), config=folder / "config.json",
                    signing_key=folder / "pg.signing-key.pem", store_timeout=30)


def make(store: str, events: int, folder: Path) -> None:
    from adapters.service import Stakes
    from tests.benchmarks import campaign

    folder.mkdir(parents=True, exist_ok=True)
    stakes = Stakes(settings(store, folder))
    try:
        cid = campaign.new_campaign(stakes)
        print(campaign.grow(stakes, cid, events), "events")
    finally:
        stakes.close()


def one(store: str, folder: Path, profile: str | None = None) -> dict[str, float]:
    from uuid import UUID

    from adapters.service import Stakes
    from tests.benchmarks.campaign import HOUSE
    from tests.benchmarks.test_load import raw_decode_rate, timed

    stakes = Stakes(settings(store, folder))
    try:
        if profile:
            import cProfile

            cProfile.runctx("stakes.rebuild()", globals(), {"stakes": stakes}, profile)
        cid = UUID(str(stakes.views.query("SELECT campaign_id FROM {p}campaigns")[0]["campaign_id"]))
        tools = {"rebuild": stakes.rebuild, "audit": lambda: stakes.audit(cid, HOUSE),
                 "export": lambda: sum(1 for _ in stakes.export_campaign(cid, HOUSE))}
        measured = [t for t in os.environ.get("STAKES_AB_TOOLS", "rebuild").split(",") if t]
        audited = stakes.audit(cid, HOUSE)
        assert audited.intact, audited
        # the raw decode and each tool in turns, five of each, so the machine's swings touch them alike; the
        # best of each, as ``make bench`` takes them, and the median of each turn's own ratio
        decodes: list[float] = []
        rates: dict[str, list[float]] = {t: [] for t in measured}
        for _ in range(5):
            count, rate = raw_decode_rate(stakes)
            decodes.append(rate)
            for tool in measured:
                events = count if tool == "rebuild" else audited.events
                rates[tool].append(events / timed(tools[tool]))
        out = {"events": count, "decode": max(decodes)}
        for tool, found in rates.items():
            out[tool] = max(found)
            out[f"{tool} ratio"] = max(found) / max(decodes)
            out[f"{tool} turns"] = statistics.median(r / d for r, d in zip(found, decodes, strict=True))
        return out
    finally:
        stakes.close()


def ab(store: str, folder: Path, rounds: int, old: str, new: str) -> None:
    found: dict[str, list[dict[str, float]]] = {old: [], new: []}
    for r in range(rounds):
        for tree in ((old, new) if r % 2 == 0 else (new, old)):
            env = {**os.environ, "PYTHONPATH": tree}
            out = subprocess.run([sys.executable, __file__, "one", store, str(folder)], env=env, cwd=tree,
                                 capture_output=True, text=True, check=True).stdout
            figures = json.loads(out.strip().splitlines()[-1])
            found[tree].append(figures)
            print(f"round {r + 1} {tree}: " + " ".join(f"{k} {v:.3f}" if v < 10 else f"{k} {v:.0f}/s"
                                                         for k, v in figures.items() if k != "events"), flush=True)
    for tree, runs in found.items():
        med = {k: statistics.median(run[k] for run in runs) for k in runs[0] if k != "events"}
        print(f"MEDIAN {store} {tree}: " + " ".join(f"{k} {v:.3f}" if v < 10 else f"{k} {v:.0f}/s"
                                                    for k, v in med.items())
              + f" ({len(runs)} runs, {time.strftime('%H:%M UTC', time.gmtime())})")


if __name__ == "__main__":
    verb, store = sys.argv[1], sys.argv[2]
    if verb == "make":
        make(store, int(sys.argv[3]), Path(sys.argv[4]))
    elif verb == "one":
        print(json.dumps(one(store, Path(sys.argv[3]), sys.argv[4] if len(sys.argv) > 4 else None)))
    else:
        ab(store, Path(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6])
