"""What the red team found in the merged issue-29 work (issue 29), each over real HTTP against ``stakes serve``
(uvicorn) on both stores."""

from __future__ import annotations

import httpx

from tests.e2e.conftest import bearer
from tests.e2e.test_web_session_http import COOKIE, pool_table, server, sign_in, with_cookie

__all__ = ["server"]  # the fixture, imported for the tests below


def test_a_cookie_borne_write_with_an_authorization_header_that_is_no_bearer_token_is_still_origin_checked(server):
    """``Authorization: Basic …`` (or a bare ``Bearer``) is no bearer token: api.deps then reads the session
    cookie, so the write rides on the cookie and must pass the origin check like any other."""
    url, _ = server
    http = httpx.Client(base_url=url)
    c, tokens, _, _ = pool_table(http)
    house = sign_in(url, tokens["house"])
    before = http.get(f"{c}/log?limit=1000", headers=bearer(tokens["house"])).json()["entries"]
    for authorization in ("Basic Zm9vOmJhcg==", "Bearer", "Digest x", "bearer\tstk_x"):
        r = httpx.post(f"{url}{c}/players", json={"seat": "mallory", "character": "Mallory", "description": "sly"},
                       headers={**with_cookie(house), "Origin": "http://evil.example", "Authorization": authorization})
        assert r.status_code == 403, (authorization, r.text)
        assert r.headers["content-type"] == "application/problem+json" and "origin" in r.json()["detail"].lower()
    assert http.get(f"{c}/log?limit=1000", headers=bearer(tokens["house"])).json()["entries"] == before
    # a real bearer token from another origin is no browser's cookie: it is not asked for an Origin
    r = http.post(f"{c}/players", json={"seat": "nina", "character": "Nina", "description": "calm"},
                  headers={**with_cookie(house), **bearer(tokens["house"]), "Origin": "http://evil.example"})
    assert r.status_code == 201, r.text
    assert COOKIE not in r.headers.get("set-cookie", "")
