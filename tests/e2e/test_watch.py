"""``stakes watch`` follows a table live and says whom it waits for (issue 14)."""

from __future__ import annotations

import os
import subprocess
import sys

import httpx

from tests.e2e.live import live_server
from tests.e2e.test_stream import act, seat_table, to_betting


def test_watch_follows_the_stream_until_the_challenge_is_settled(settings, env_for, tmp_path):
    env = env_for(settings)
    with live_server(env, tmp_path / "server.log") as url, httpx.Client(base_url=url) as http:
        c, t = seat_table(http)
        ch = to_betting(http, c, t)
        token = t["tomas"]["Authorization"].split(" ", 1)[1]
        watcher = subprocess.Popen(
            [sys.executable, "-m", "cli", "watch", ch, "--until-done"],
            env={**os.environ, **env, "STAKES_SERVER": url, "STAKES_TOKEN": token,
                 "STAKES_CONFIG": str(tmp_path / "tomas.json")},
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            first = watcher.stdout.readline()  # drawn once it has read the table: it follows from there
            assert "waiting for: house" in first, first
            act(http, c, ch, t["house"], "fold")
            output, _ = watcher.communicate(timeout=60)
        finally:
            watcher.kill() if watcher.poll() is None else None
        assert watcher.returncode == 0, first + output
        assert "waiting for: nobody" in output and "settled" in output


def test_watch_draws_a_settled_table_once_and_stops_embedded(client, cli):
    from tests.e2e.test_challenge_http import act as http_act
    from tests.e2e.test_challenge_http import play_to_betting, table

    c, t = table.__wrapped__(client)
    ch = play_to_betting(client, c, t)
    http_act(client, c, ch, t["house"], "fold")
    result = cli("watch", ch, "--as", "tomas", "--until-done", "--campaign", c.rsplit("/", 1)[1])
    assert "nobody: this table is done" in result.stdout and "settled" in result.stdout


def test_watch_of_a_seat_handed_out_again_stops_and_says_so_in_words(settings, env_for, tmp_path):
    """Issue 31: the stream ends with the old token; ``watch`` says what happened and exits with the code of an
    unknown token (7), instead of reconnecting for ever."""
    env = env_for(settings)
    with live_server(env, tmp_path / "server.log") as url, httpx.Client(base_url=url) as http:
        c, t = seat_table(http)
        ch = to_betting(http, c, t)
        token = t["tomas"]["Authorization"].split(" ", 1)[1]
        watcher = subprocess.Popen(
            [sys.executable, "-m", "cli", "watch", ch],
            env={**os.environ, **env, "STAKES_SERVER": url, "STAKES_TOKEN": token,
                 "STAKES_CONFIG": str(tmp_path / "tomas.json")},
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            first = watcher.stdout.readline()
            assert "waiting for:" in first, first
            assert http.post(f"{c}/players/tomas/token", headers=t["house"]).status_code in (200, 201)
            output, _ = watcher.communicate(timeout=60)
        finally:
            watcher.kill() if watcher.poll() is None else None
        assert watcher.returncode == 7, first + output
        assert "no longer works" in output and "replaced or revoked by the House" in output and "stakes claim" in output
        assert "Traceback" not in output
