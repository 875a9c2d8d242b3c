"""A creation key never hands the House token to a second client (issue 29 item 10, C-1), against a real
``stakes serve`` on both stores: the key is the creating client's secret (32 characters at least, drawn at
random), a retry with it answers the same campaign but never the House token again (ADR 0028), and the
server keeps only a keyed digest of it, so
nothing a seat or the House can read (the log, the leaves, the export) gives the key away."""

from __future__ import annotations

import re
import uuid

import httpx

from tests.e2e.conftest import bearer, player_headers
from tests.e2e.live import live_server


def test_a_creation_key_is_the_creators_secret_and_no_read_gives_it_or_the_house_token_away(
        settings, env_for, tmp_path) -> None:
    body = {"name": "Keyed", "system": "penny-ante"}
    with live_server(env_for(settings), tmp_path / "server.log") as url, httpx.Client(base_url=url) as http:
        # a short key (a counter, a name) could be sent by anyone: refused, nothing created
        for short in ("create-1", "1", "x" * 31):
            r = http.post("/campaigns", json=body, headers={"Idempotency-Key": short})
            assert r.status_code == 422 and r.json()["ruling"] == "C-1" and "secret" in r.json()["detail"], r.text
        key = uuid.uuid4().hex
        first = http.post("/campaigns", json=body, headers={"Idempotency-Key": key})
        assert first.status_code == 201, first.text
        token, cid = first.json()["house_token"], first.json()["campaign"]["id"]
        # the same key again (the creator's retry after a lost answer, or anyone who learnt the key): the same
        # campaign, created once, but never the House token again (issue 29, ADR 0028); the answer says why
        again = http.post("/campaigns", json=body, headers={"Idempotency-Key": key})
        assert again.status_code == 201 and again.json()["campaign"] == first.json()["campaign"], again.text
        assert again.json()["house_token"] is None and token not in again.text
        assert "answered to that request only" in again.json()["note"] and "new key" in again.json()["note"]
        assert http.get("/session", headers=bearer(token)).json()["seat"] == "house"  # the first token still works
        # everything readable about the campaign, by the House and by a player seated meanwhile
        house = bearer(token)
        ilse = player_headers(http, http.post(f"/campaigns/{cid}/players", headers=house, json={
            "seat": "ilse", "character": "Ilse", "characteristic": "Sly"}).json())
        texts = [http.get(f"/campaigns/{cid}/export", headers=house).text]
        for who in (house, ilse):
            for path in ("log", "audit/leaves", "audit", ""):
                r = http.get(f"/campaigns/{cid}/{path}".rstrip("/"), headers=who,
                             params={"limit": 500} if path == "log" else None)
                assert r.status_code == 200, (path, r.text)
                texts.append(r.text)
        seen = "\n".join(texts)
        assert key not in seen and token not in seen  # the key is never shown, nor the token
        # what the record keeps instead is a digest; sent as a key, it is just another key (a new campaign)
        digests = set(re.findall(r"key_[A-Za-z0-9_-]{20,}", seen))
        assert digests, "the creation's record keeps a digest of its key"
        for digest in digests:
            r = http.post("/campaigns", json=body, headers={"Idempotency-Key": digest})
            assert r.status_code == 201 and r.json()["house_token"] != token
            assert r.json()["campaign"]["id"] != cid
        # the same key with another body is another creation: refused, no token
        r = http.post("/campaigns", json={**body, "name": "Someone else's"}, headers={"Idempotency-Key": key})
        assert r.status_code in (409, 422) and "house_token" not in r.text and token not in r.text


class LosesFirstCreationAnswer(httpx.HTTPTransport):
    """Sends every request to the server, but drops the answer of the first ``POST /campaigns`` on the way
    back, as a broken connection would: the campaign is created, its House token never arrives."""

    def __init__(self) -> None:
        super().__init__()
        self.lost = False

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        if request.method == "POST" and request.url.path == "/campaigns" and not self.lost:
            self.lost = True
            response.read()
            raise httpx.ReadError("the connection dropped before the answer arrived", request=request)
        return response


def test_the_cli_whose_creation_answer_was_lost_says_so_and_exits_non_zero(settings, env_for, tmp_path, monkeypatch):
    """The CLI retries a command whose answer was lost under the same key; for a creation the retry answers
    no House token (ADR 0028), so the CLI names the campaign and what to do, exits 6, and keeps no token."""
    import cli.remote
    from tests.e2e.conftest import Cli

    transport = LosesFirstCreationAnswer()
    real_client = httpx.Client
    monkeypatch.setattr(cli.remote.httpx, "Client", lambda *a, **kw: real_client(*a, **{**kw, "transport": transport}))
    with live_server(env_for(settings), tmp_path / "server.log") as url:
        cli = Cli({**env_for(settings), "STAKES_CONFIG": str(tmp_path / "config.json")})
        result = cli("--server", url, "campaign", "create", "Lost answer", expect=6)
    assert transport.lost
    assert "was lost" in result.output and "create a new one" in result.output.replace("\n", " ")
    assert "stk_" not in result.output
    config = tmp_path / "config.json"
    assert not config.exists() or "stk_" not in config.read_text()
