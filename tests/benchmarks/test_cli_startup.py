"""Benchmarks of the CLI as a person meets it: a whole ``stakes`` process, from start to exit.

Issue 14's targets: ``stakes --help`` under 250 ms, and a command against a running server under 300 ms
end to end. ``make bench`` reports the figures (pytest-benchmark's table); ``make test`` runs each once.
The catalogue of commands is cached on the first run (``cli/catalogue.py``), so each benchmark warms it
first, as any second command on a machine would.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.e2e.test_cli_live_server import free_port, server  # noqa: F401  (the live-server fixture)

TARGETS = {"help": 0.25, "remote": 0.30}


def stakes_process(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "cli", *args], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done


@pytest.fixture
def cli_env(tmp_path, settings, env_for) -> dict[str, str]:
    env = {**os.environ, **env_for(settings), "STAKES_CACHE_DIR": str(tmp_path / "cache"),
           "STAKES_CONFIG": str(tmp_path / "config.json")}
    for key in ("STAKES_SERVER", "STAKES_TOKEN"):
        env.pop(key, None)
    return env


@pytest.mark.benchmark(group="cli start-up")
def test_benchmark_stakes_help(benchmark, cli_env):
    stakes_process(cli_env, "--help")  # the first run writes the catalogue
    benchmark.extra_info["target_seconds"] = TARGETS["help"]
    done = benchmark.pedantic(stakes_process, args=(cli_env, "--help"), rounds=10, warmup_rounds=1)
    assert "Every system:" in done.stdout


@pytest.mark.benchmark(group="cli start-up")
def test_benchmark_a_command_against_a_running_server(benchmark, cli_env, server):  # noqa: F811
    stakes_process(cli_env, "--server", server, "campaign", "create", "Bench")
    stakes_process(cli_env, "player", "add", "ilse", "--character", "Ilse", "--characteristic", "Whip")
    benchmark.extra_info["target_seconds"] = TARGETS["remote"]
    done = benchmark.pedantic(stakes_process, args=(cli_env, "sheet", "ilse", "--format", "json"), rounds=10,
                              warmup_rounds=1)
    assert '"pile": ' in done.stdout
