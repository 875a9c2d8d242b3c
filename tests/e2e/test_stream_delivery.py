"""How the notifier delivers to live streams (issue 32): written to each stream's connection directly, with
the backlog, the hand-over from it and hang-ups still exact. A real ``stakes serve`` on both stores.
"""

from __future__ import annotations

import socket
import threading
import time

import httpx

from tests.e2e.live import live_server
from tests.e2e.test_stream import seat_table
from tests.e2e.test_stream_hardening import Follower, log_entries


def test_streams_opened_while_the_table_plays_get_every_entry_they_may_see_once_and_in_order(
        settings, env_for, tmp_path):
    with live_server(env_for(settings), tmp_path / "server.log") as url, httpx.Client(base_url=url, timeout=30) as http:
        c, t = seat_table(http)
        start = log_entries(http, c, t["house"])[-1]["position"]
        written: list[int] = []

        def play() -> None:
            with httpx.Client(base_url=url, timeout=30) as writer:
                for k in range(24):
                    r = writer.post(f"{c}/antagonists", headers=t["house"], json={"name": f"Rival {k}",
                                                                                  "characteristics": []})
                    written.append(r.status_code)

        player = threading.Thread(target=play)
        player.start()
        # streams open from the beginning, from where the log stood, and from "now", as the moves land: each
        # reads a backlog of its own while the notifier already writes what comes next
        followers = []
        for k in range(6):
            seat = ("ilse", "tomas")[k % 2]
            after = (0, start, 10**6)[k % 3]
            followers.append((seat, after, Follower(httpx.Client(base_url=url), f"{url}{c}/stream?after={after}",
                                                    t[seat])))
        player.join(60)
        assert written == [201] * 24
        for seat, after, follower in followers:
            assert follower.status == 200
            expected = [e["position"] for e in log_entries(http, c, t[seat])]
            deadline = time.monotonic() + 30  # waits for the frames; asserts nothing about the time they took
            while follower.ids()[-1:] != expected[-1:] and time.monotonic() < deadline:
                time.sleep(0.05)
            got = follower.ids()
            if not got:  # opened "from now" after the last move landed (a slow machine): nothing was due to it
                assert after == 10**6, f"a stream from {after} got nothing"
                continue
            assert got == sorted(set(got)), f"a repeat or a reordering: {got}"  # once each, in order
            assert got[-1] == expected[-1]
            assert got == [p for p in expected if p >= got[0]], "a gap"
            if after == 0:
                assert got == expected
            heads = [f for f in follower.frames if f.get("event") == "head"]
            assert heads and '"size"' in heads[-1]["data"]


def test_a_client_that_hangs_up_frees_its_place_for_the_next_stream(settings, env_for, tmp_path):
    env = {**env_for(settings), "STAKES_STREAMS_PER_CREDENTIAL": "1"}
    with live_server(env, tmp_path / "server.log") as url, httpx.Client(base_url=url, timeout=30) as http:
        c, t = seat_table(http)
        host, port = url.removeprefix("http://").split(":")
        raw = socket.create_connection((host, int(port)))
        raw.sendall(f"GET {c}/stream HTTP/1.1\r\nHost: {host}\r\nAuthorization: {t['ilse']['Authorization']}\r\n"
                    "Accept: text/event-stream\r\n\r\n".encode())
        assert raw.recv(4096).startswith(b"HTTP/1.1 200")
        assert http.get(f"{c}/stream", headers=t["ilse"]).status_code == 429  # the one place is taken
        raw.close()
        deadline, status = time.monotonic() + 30, 429
        while status == 429 and time.monotonic() < deadline:
            with http.stream("GET", f"{c}/stream", headers=t["ilse"]) as again:
                status = again.status_code
            if status == 429:
                time.sleep(0.1)
        assert status == 200, "the hung-up stream kept its place"


def test_a_client_that_stops_reading_is_cut_off_past_its_bound_while_every_other_stream_gets_every_entry(
        settings, env_for, tmp_path):
    # issue 29: a slow client is bounded (``stream_buffer`` bytes unread, ``stream_queue`` batches pending,
    # ``stream_send_wait`` seconds for a full buffer): the server hangs up on it and frees its place, instead of
    # buffering without end. Small bounds here, so a few hundred frames cross them. The queue's bound is left
    # roomy: at 4 batches the keen reader's own thread, starved on a loaded machine (CI's workers, browsers),
    # fell behind it too and was cut; the slow one is cut by its full buffer (``stream_send_wait``) either way.
    env = {**env_for(settings), "STAKES_STREAM_BUFFER": "131072", "STAKES_STREAM_QUEUE": "64",
           "STAKES_STREAM_SEND_WAIT": "1", "STAKES_STREAMS_PER_CREDENTIAL": "1"}
    log_path = tmp_path / "server.log"
    with live_server(env, log_path) as url, httpx.Client(base_url=url, timeout=30) as http:
        c, t = seat_table(http)
        host, port = url.removeprefix("http://").split(":")
        slow = socket.socket()
        slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a small window: the server's side fills
        slow.connect((host, int(port)))
        slow.sendall(f"GET {c}/stream HTTP/1.1\r\nHost: {host}\r\nAuthorization: {t['ilse']['Authorization']}"
                     "\r\nAccept: text/event-stream\r\n\r\n".encode())
        assert slow.recv(64).startswith(b"HTTP/1.1 200")  # then it reads nothing more
        keen = Follower(httpx.Client(base_url=url), f"{url}{c}/stream", t["tomas"])
        dropped = False
        for k in range(600):
            r = http.post(f"{c}/antagonists", headers=t["house"],
                          json={"name": f"Rival {k:03} of the long winding river road of Jade",
                                "characteristics": []})
            assert r.status_code == 201, r.text
            if k % 10 == 9 and "fell behind" in log_path.read_text():
                dropped = True
                break
        assert dropped, "600 unread frames and the slow stream was never dropped"
        # its place is freed while it still reads nothing: the seat's one stream may open again
        deadline, status = time.monotonic() + 30, 429
        while status == 429 and time.monotonic() < deadline:
            with http.stream("GET", f"{c}/stream", headers=t["ilse"]) as again:
                status = again.status_code
            if status == 429:
                time.sleep(0.2)
        assert status == 200, "the slow stream kept its place"
        # reading at last, the slow client finds its connection cut (what was already on its way, then the end)
        slow.settimeout(30)
        try:
            while slow.recv(1 << 16):
                pass
        except ConnectionResetError:
            pass
        slow.close()
        # the reader that kept up got every entry its seat may see, once and in order, and is still open
        expected = [e["position"] for e in log_entries(http, c, t["tomas"])]
        deadline = time.monotonic() + 30
        while keen.ids()[-1:] != expected[-1:] and time.monotonic() < deadline:
            time.sleep(0.05)
        assert keen.ids() == expected
        assert keen.status == 200 and not keen.closed.is_set()


def test_a_server_told_to_stop_ends_within_its_grace_even_with_a_live_stream_open(settings, env_for, tmp_path):
    # before, ``stakes serve`` waited without end for the streams' clients to hang up (Ctrl-C did nothing
    # while a phone watched the table); now it waits STAKES_SHUTDOWN_GRACE seconds, then ends them
    from tests.e2e.live import live_server_process

    env = {**env_for(settings), "STAKES_SHUTDOWN_GRACE": "1"}
    with live_server_process(env, tmp_path / "server.log") as (url, proc), httpx.Client(base_url=url) as http:
        c, t = seat_table(http)
        watching = Follower(httpx.Client(base_url=url), f"{url}{c}/stream", t["ilse"])
        assert watching.status == 200
        started = time.monotonic()
        proc.terminate()
        proc.wait(timeout=15)
        assert time.monotonic() - started < 10
        assert watching.closed.wait(10), "the stream outlived its server"
