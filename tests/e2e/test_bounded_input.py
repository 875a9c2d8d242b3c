"""Bounded input (issue 29, items 4 and 12), against a real ``stakes serve`` on both stores: every body has a
limit answered 413 before the body is read (the server's memory stays flat under 300 MB), a JSON ``null``
is not an absent body, a body that is not UTF-8 is malformed JSON (422, documented), and an unknown token
is 401 everywhere, imports included."""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import psutil
import pytest

from tests.e2e.conftest import bearer, player_headers
from tests.e2e.live import live_server_for, live_server_process

MIB = 1024 * 1024


#: Each test uses its own campaign: the module shares one store of each kind and its live server.
pytestmark = pytest.mark.shared_store


@pytest.fixture
def server(request, settings, env_for, tmp_path) -> Iterator[tuple[str, Any, Any]]:
    """A live server with a small body limit (64 KiB) so the limit is cheap to cross; yields (url, process, log).
    The module's one on each store (``shared_store``)."""
    env = {**env_for(settings), "STAKES_MAX_BODY_BYTES": str(64 * 1024), "STAKES_OPERATOR_TOKEN": "the-operator"}
    with live_server_for(request, settings, env, tmp_path / "server.log") as served:
        yield served


def log_size(http: httpx.Client, cid: str, house: dict[str, str]) -> int:
    return len(http.get(f"/campaigns/{cid}/log", headers=house, params={"limit": 500}).json()["entries"])


def json_operations(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(method, path, op) for path, item in spec["paths"].items() for method, op in item.items()
            if "application/json" in op.get("requestBody", {}).get("content", {})]


def rss_of(proc: Any) -> int:
    return psutil.Process(proc.pid).memory_info().rss


def raw_post(url: str, path: str, headers: dict[str, str], body: Iterator[bytes], *, read_first: bool = False
             ) -> tuple[bytes, int]:
    """POST over a plain socket, reading the answer while the body is still being sent (a server may answer
    and close before the body ends). Returns the answer's bytes and how many body bytes were sent."""
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=30)
    answer = bytearray()

    def read() -> None:
        try:
            while chunk := sock.recv(65536):
                answer.extend(chunk)
        except OSError:
            pass

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    lines = [f"POST {path} HTTP/1.1", f"Host: {host}:{port}", *(f"{k}: {v}" for k, v in headers.items()), "", ""]
    sock.sendall("\r\n".join(lines).encode())
    sent = 0
    try:
        if read_first:  # a declared length over the limit: the answer comes before a byte of the body
            reader.join(timeout=20)
        for chunk in body:
            if answer or not reader.is_alive():
                break
            sock.sendall(chunk)
            sent += len(chunk)
    except OSError:  # the server answered and closed: the rest of the body is not taken
        pass
    reader.join(timeout=20)
    sock.close()
    return bytes(answer), sent


def chunked(total: int, size: int = MIB) -> Iterator[bytes]:
    block = b"x" * size
    for _ in range(total // size):
        yield f"{size:x}\r\n".encode() + block + b"\r\n"
    yield b"0\r\n\r\n"


def test_a_300_mb_body_without_a_token_is_refused_413_before_it_is_read_and_the_servers_memory_stays_flat(
        settings, env_for, tmp_path) -> None:
    """Issue 29 item 4, at the default limit (1 MiB): streamed (chunked) and with its length declared."""
    log = tmp_path / "server.log"
    with live_server_process(env_for(settings), log) as (url, proc):
        for _ in range(3):  # the server's own working set, warmed by a few ordinary requests
            httpx.post(f"{url}/campaigns", json={"name": "Warm"})
        before = rss_of(proc)
        peak = [before]
        sampling = threading.Event()

        def sample() -> None:
            while not sampling.is_set():
                peak.append(rss_of(proc))
                time.sleep(0.02)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        try:
            answer, sent = raw_post(url, "/campaigns", {"Content-Type": "application/json",
                                                        "Transfer-Encoding": "chunked"}, chunked(300 * MIB))
            declared, declared_sent = raw_post(url, "/campaigns", {"Content-Type": "application/json",
                                                                   "Content-Length": str(300 * MIB)},
                                               chunked(300 * MIB), read_first=True)
        finally:
            sampling.set()
            sampler.join()
        for got in (answer, declared):
            head, _, body = got.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 413"), got[:300]
            assert b"application/problem+json" in head and b"STAKES_MAX_BODY_BYTES" in body
        assert declared_sent == 0  # answered from the header alone
        assert sent < 300 * MIB  # the server hung up long before the end
        grown = max(peak) - before
        assert grown < 40 * MIB, f"the server grew by {grown / MIB:.0f} MiB"
        assert httpx.get(f"{url}/health").status_code == 200
    assert "Traceback" not in log.read_text()


def test_every_operation_with_a_body_answers_413_past_the_limit_documents_it_and_stores_nothing(server) -> None:
    url, _, log = server
    with httpx.Client(base_url=url, timeout=30) as http:
        spec = http.get("/openapi.json").json()
        created = http.post("/campaigns", json={"name": "Bounded", "system": "penny-ante"}).json()
        cid, house = created["campaign"]["id"], bearer(created["house_token"])
        before = log_size(http, cid, house)
        big = b'{"name": "' + b"a" * (70 * 1024) + b'"}'
        operations = json_operations(spec)
        assert len(operations) > 10
        for method, path, op in operations:
            target = re.sub(r"\{[^}]+\}", cid, path)
            for body in (big, iter([big[:40_000], big[40_000:]])):  # declared length, then chunked
                r = http.request(method.upper(), target, content=body,
                                 headers={**house, "Content-Type": "application/json"})
                assert r.status_code == 413, (method, path, r.status_code, r.text[:200])
                assert r.json()["type"] == "/problems/too-large"
            assert "413" in op["responses"], (method, path)
        r = http.post("/imports", content=b"{}\n" * 30_000, headers={**bearer("the-operator"),
                                                                      "Content-Type": "application/x-ndjson"})
        assert r.status_code != 413  # 90 KB: over the body limit, inside the import's own (16 MiB)
        assert log_size(http, cid, house) == before
    assert "Traceback" not in log.read_text()


def test_a_json_null_body_is_refused_where_the_schema_is_an_object_and_nothing_is_stored(server) -> None:
    url, _, _ = server
    with httpx.Client(base_url=url, timeout=30) as http:
        created = http.post("/campaigns", json={"name": "Nulls", "system": "pulp-cards"}).json()
        cid, house = created["campaign"]["id"], bearer(created["house_token"])
        added = http.post(f"/campaigns/{cid}/players", headers=house, json={"seat": "ilse", "character": "Ilse"})
        ilse = player_headers(http, added.json())
        assert http.post(f"/campaigns/{cid}/adventures", headers=house, json={}).status_code in (200, 201)  # C-1
        spec = http.get("/openapi.json").json()
        before = log_size(http, cid, house)
        r = http.post(f"/campaigns/{cid}/deals", content=b"null", headers={**ilse, "Content-Type": "application/json"})
        assert r.status_code == 422 and r.json()["type"] == "/problems/invalid-input", r.text
        assert "null" in r.json()["detail"]
        checked = 0
        for method, path, _ in json_operations(spec):
            target = re.sub(r"\{[^}]+\}", cid, path)
            r = http.request(method.upper(), target, content=b" null ",
                             headers={**house, "Content-Type": "application/json"})
            assert r.status_code == 422, (method, path, r.status_code, r.text[:200])
            checked += 1
        assert checked > 10 and log_size(http, cid, house) == before
        r = http.post(f"/campaigns/{cid}/deals", headers=ilse)  # no body at all is still "no inputs"
        assert r.status_code == 201, r.text


def test_a_body_that_is_not_utf8_is_answered_like_malformed_json_on_every_endpoint(server) -> None:
    url, _, log = server
    with httpx.Client(base_url=url, timeout=30) as http:
        spec = http.get("/openapi.json").json()
        created = http.post("/campaigns", json={"name": "Bytes", "system": "penny-ante"}).json()
        cid, house = created["campaign"]["id"], bearer(created["house_token"])
        before = log_size(http, cid, house)
        for method, path, op in json_operations(spec):
            target = re.sub(r"\{[^}]+\}", cid, path)
            for body in (b'{"name": "\xff\xfe"}', b"\xc3\x28", b'{"name": '):  # not UTF-8 twice, then cut short
                r = http.request(method.upper(), target, content=body,
                                 headers={**house, "Content-Type": "application/json"})
                assert r.status_code == 422, (method, path, body, r.status_code, r.text[:200])
                assert r.json()["type"] == "/problems/invalid-input" and r.json()["detail"]
                assert "422" in op["responses"] and "UTF-8" in op["responses"]["422"]["description"]
        assert log_size(http, cid, house) == before
    assert "Traceback" not in log.read_text()


def test_an_unknown_token_is_401_on_every_route_that_takes_one_imports_included(server) -> None:
    url, _, _ = server
    with httpx.Client(base_url=url, timeout=30) as http:
        spec = http.get("/openapi.json").json()
        created = http.post("/campaigns", json={"name": "Tokens"}).json()
        cid = created["campaign"]["id"]
        checked = []
        for path, item in spec["paths"].items():
            if path.endswith("/stream"):
                continue  # the stream's own refusals: tests/e2e/test_stream.py
            for method in item:
                target = re.sub(r"\{[^}]+\}", cid, path)
                if http.request(method.upper(), target).status_code != 401:
                    continue  # takes no token (creating a campaign, claiming an invite, the public key)
                r = http.request(method.upper(), target, headers=bearer("stk_nobody-holds-this"))
                assert r.status_code == 401, (method, path, r.status_code)
                assert r.headers["WWW-Authenticate"] == "Bearer" and r.json()["type"] == "/problems/unauthenticated"
                checked.append(path)
        assert "/imports" in checked and len(checked) > 20
        r = http.post("/imports", content=b"{}\n", headers=bearer(created["house_token"]))
        assert r.status_code == 403 and r.json()["ruling"] == "C-2"  # a known seat that may not import


def test_overturn_void_takes_only_a_json_boolean(server) -> None:
    url, _, _ = server
    with httpx.Client(base_url=url, timeout=30) as http:
        created = http.post("/campaigns", json={"name": "Void"}).json()
        cid, house = created["campaign"]["id"], bearer(created["house_token"])
        unit = "0" * 31 + "1"
        for bad in (1, 0, "yes", "true", "false", "1"):
            r = http.post(f"/campaigns/{cid}/challenges/{unit}/overturn", headers=house,
                          json={"void": bad, "reason": "misread"})
            assert r.status_code == 422 and r.json()["ruling"] == "C-6" and "void" in r.json()["detail"], (bad, r.text)
        r = http.post(f"/campaigns/{cid}/challenges/{unit}/overturn", headers=house,
                      json={"void": True, "reason": "misread"})
        assert r.status_code == 404  # a boolean passes validation; the unit does not exist
