"""Every user text is inert in the CLI (issue 29, item 3).

A hostile corpus (rich markup, ANSI and OSC 8 escapes, an RTL override, 10,000 characters, HTML) is planted
through the HTTP API of a live ``stakes serve`` into every text field each of the five systems accepts. Then
every read of the CLI runs as every seat, as a table and as JSON, embedded (on the server's own store) and
against the server. Each must exit 0 without a traceback and show the text literally: markup as typed, escape
characters neutralised (never a raw ESC or bidi control in a table), JSON exact. The store refuses control
characters in most fields (``domain/text.py``); each refusal must be a 4xx problem, never a 500. The web
pages (``api/web``) must show the same corpus escaped."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from tests.conftest import STORES
from tests.e2e.test_cli_live_server import seat_cli, server  # noqa: F401 (the live server fixture)

#: Each test plays its own campaign: the module shares one store of each kind and its live server.
pytestmark = pytest.mark.shared_store

#: Printable hostile texts every field must take and show as typed.
MARKUP = ("[/bold]", "[link=https://evil.example]x[/link]", "[reverse]audit: TAMPERED[/reverse]",
          "<script>alert(1)</script>", ":warning: [bold red]")
#: All of them at once, for the longer fields (notes, reasons, seeds, circumstances).
ALL = " ".join(MARKUP[:4])  # 104 characters: within a circumstance (120, PA-7)
#: A name used in a path takes no '/' (PA-4): markup that opens and never closes.
NAME = "[bold red]Lady [reverse]Sen[link=https:evil.example]"
#: Texts the store may refuse (4xx, never 500); when it takes them the CLI must neutralise them.
CONTROLS = ("\x1b[31mred\x1b[0m", "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\", "abc\u202egnp.exe",
            "\u2066isolated\u2069", "y" * 10_000)
#: What must never reach a terminal from a table: ESC and the other C0/C1 controls, bidi overrides and isolates.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]")
WIDE = {"COLUMNS": "2000"}  # no cell is folded, so a text can be found whole


def shown(text: str) -> str:
    """How a table shows a planted text (cli/inert.py), for the texts short enough to be found whole."""
    from cli.inert import neutralise

    return neutralise(text)


@dataclass
class Planted:
    """One campaign of one system, its seats' tokens, its units and every text that reached its store."""

    campaign: str
    system: str
    tokens: dict[str, str]
    units: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)  # every text the store took
    hidden: set[str] = field(default_factory=set)  # texts only the House sees (C-5)
    reads: list[tuple[str, ...]] = field(default_factory=list)  # the system's own reads


class Api:
    """The HTTP API of the live server, as one seat."""

    def __init__(self, url: str) -> None:
        self.url = url

    def __call__(self, token: str | None, method: str, path: str, body: Any = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = httpx.request(method, self.url + path, json=body, headers=headers, timeout=30)
        assert r.status_code < 500, f"{method} {path} -> {r.status_code}: {r.text}"
        return r


def ok(r: httpx.Response) -> Any:
    assert r.is_success, f"{r.request.method} {r.request.url} -> {r.status_code}: {r.text}"
    return r.json()


def probe(planted: Planted, send: Callable[[str], httpx.Response]) -> None:
    """Send each control text: it is refused as a problem (4xx) or taken (and then checked like the rest)."""
    for text in CONTROLS:
        r = send(text)
        if r.is_success:
            planted.texts.append(text)
        else:
            assert 400 <= r.status_code < 500 and r.headers["content-type"].startswith("application/problem+json"), \
                (r.status_code, r.text)


def plant(planted: Planted, text: str, send: Callable[[str], httpx.Response], hidden: bool = False) -> Any:
    """``text`` into one field: it must be taken."""
    answer = ok(send(text))
    planted.texts.append(text)
    if hidden:
        planted.hidden.add(text)
    return answer


def campaign(api: Api, system: str, tag: str, settings: dict[str, Any] | None = None) -> Planted:
    body = {"name": f"{tag} {MARKUP[2]}", "system": system, "settings": settings}
    created = ok(api(None, "POST", "/campaigns", body))
    planted = Planted(created["campaign"]["id"], system, {"house": created["house_token"]})
    planted.texts.append(body["name"])
    probe(planted, lambda t: api(None, "POST", "/campaigns", {"name": t, "system": system}))
    return planted


def seat(api: Api, p: Planted, seat_name: str, body: dict[str, Any]) -> None:
    c = f"/campaigns/{p.campaign}"
    added = ok(api(p.tokens["house"], "POST", f"{c}/players", {"seat": seat_name, **body}))
    p.tokens[seat_name] = ok(api(None, "POST", "/invites", {"code": added["invite"]}))["token"]
    p.texts.append(body["character"])


def _overturn(api: Api, p: Planted, unit: str, tag: str) -> None:
    c = f"/campaigns/{p.campaign}"
    probe(p, lambda t: api(p.tokens["house"], "POST", f"{c}/challenges/{unit}/overturn", {"void": True, "reason": t}))
    plant(p, f"{tag} {ALL}", lambda t: api(p.tokens["house"], "POST", f"{c}/challenges/{unit}/overturn",
                                            {"void": True, "reason": t}))


# -- the five systems, every text field each accepts ---------------------------------------------------------
def penny_ante(api: Api) -> Planted:
    p = campaign(api, "penny-ante", "pa")
    c, house = f"/campaigns/{p.campaign}", p.tokens["house"]
    probe(p, lambda t: api(house, "POST", f"{c}/players", {"seat": "probe", "character": t, "characteristic": "x"}))
    seat(api, p, "ilse", {"character": f"pa1 {MARKUP[0]}", "characteristic": f"pa2 {MARKUP[1]}"})
    seat(api, p, "tomas", {"character": f"pa3 {MARKUP[3]}", "characteristic": f"pa4 {MARKUP[4]}"})
    p.texts += [f"pa2 {MARKUP[1]}", f"pa4 {MARKUP[4]}"]
    buy = lambda t: api(p.tokens["ilse"], "POST", f"{c}/characters/ilse/characteristics", {"name": t})
    probe(p, buy)
    plant(p, f"pa5 {MARKUP[2]}", buy)
    make = lambda t: api(house, "POST", f"{c}/antagonists", {"name": t, "characteristics": ["pa6 [/bold]"]})
    probe(p, make)
    plant(p, f"pa7 {NAME}", make)
    p.texts.append("pa6 [/bold]")
    p.hidden.add("pa6 [/bold]")  # an antagonist's characteristics are the House's (C-5, PA-17)
    more = lambda t: api(house, "POST", f"{c}/antagonists/pa7 {NAME}/characteristics", {"name": t})
    probe(p, more)
    plant(p, f"pa8 {MARKUP[2]}", more, hidden=True)
    start = lambda t: api(house, "POST", f"{c}/adventures", {"amount": 40, "note": t})
    probe(p, start)
    plant(p, f"pa9 {ALL}", start)
    announce = lambda t: api(p.tokens["ilse"], "POST", f"{c}/challenges",
                             {"challenger": {"players": ["ilse"]}, "opponent": {"players": ["tomas"]}, "ante": 1,
                              "circumstance": t})
    probe(p, announce)
    unit = plant(p, f"pa10 {ALL}", announce)["id"]
    p.units.append(unit)
    act = f"{c}/challenges/{unit}/actions"
    seed = lambda t: api(p.tokens["ilse"], "POST", act, {"action": "seed", "seed": t})
    probe(p, seed)
    plant(p, f"pa11 {ALL}", seed)
    ok(api(p.tokens["ilse"], "POST", act, {"action": "declare", "characteristics": [f"pa2 {MARKUP[1]}"]}))
    ok(api(p.tokens["tomas"], "POST", act, {"action": "declare", "characteristics": [f"pa4 {MARKUP[4]}"]}))
    rewind = lambda t: api(house, "POST", f"{c}/challenges/{unit}/rewind", {"to_step": 2, "reason": t})
    probe(p, rewind)
    plant(p, f"pa12 {ALL}", rewind)
    p.reads = [("budget",), ("antagonist", "list"), ("debts",)]
    return p


def pool(api: Api) -> Planted:
    p = campaign(api, "pool", "pl")
    c, house = f"/campaigns/{p.campaign}", p.tokens["house"]
    probe(p, lambda t: api(house, "POST", f"{c}/players", {"seat": "probe", "character": "x", "description": t}))
    seat(api, p, "ilse", {"character": f"pl1 {MARKUP[0]}", "description": f"pl2 {ALL}",
                          "traits": {f"pl2 {MARKUP[1]}": 1}})  # named after words of the description (PL-1)
    seat(api, p, "tomas", {"character": f"pl4 {MARKUP[3]}", "description": f"pl4 {MARKUP[4]} {MARKUP[0]}"})
    p.texts += [f"pl2 {ALL}", f"pl2 {MARKUP[1]}", f"pl4 {MARKUP[4]} {MARKUP[0]}"]
    ok(api(house, "POST", f"{c}/adventures", {}))  # C-1: units of resolution happen during an adventure
    move = lambda t: api(p.tokens["ilse"], "POST", f"{c}/characters/ilse/moves", {"name": t, "cost": 2})
    probe(p, move)
    plant(p, f"pl5 {MARKUP[2]}", move)
    trait = lambda t: api(p.tokens["tomas"], "POST", f"{c}/characters/tomas/traits", {"name": t, "new": True})
    probe(p, trait)
    plant(p, MARKUP[4], trait)
    roll = lambda t: api(p.tokens["ilse"], "POST", f"{c}/rolls", {"count": 2, "trait": f"pl2 {MARKUP[1]}", "seed": t})
    probe(p, roll)
    unit = plant(p, f"pl7 {ALL}", roll)["id"]
    p.units.append(unit)
    view = ok(api(p.tokens["ilse"], "GET", f"{c}/challenges/{unit}"))
    if view["phase"] != "settled":
        ok(api(p.tokens["ilse"], "POST", f"{c}/challenges/{unit}/actions", {"action": "choose", "choice": "narrate"}))
    _overturn(api, p, unit, "pl8")
    return p


def twenty_one(api: Api) -> Planted:
    p = campaign(api, "twenty-one", "to")
    c, house = f"/campaigns/{p.campaign}", p.tokens["house"]
    probe(p, lambda t: api(house, "POST", f"{c}/players", {"seat": "probe", "character": "x", "skills": [t]}))
    seat(api, p, "ilse", {"character": f"to1 {MARKUP[0]}", "skills": [f"to2 {MARKUP[1]}", f"to3 {MARKUP[2]}"]})
    seat(api, p, "tomas", {"character": f"to4 {MARKUP[3]}", "skills": [f"to5 {MARKUP[4]}"]})
    p.texts += [f"to2 {MARKUP[1]}", f"to3 {MARKUP[2]}", f"to5 {MARKUP[4]}"]
    ok(api(house, "POST", f"{c}/adventures", {}))  # C-1
    holds = lambda t: api(house, "POST", f"{c}/characters/ilse/holds", {"count": 1, "skill": t})
    probe(p, holds)
    plant(p, f"to3 {MARKUP[2]}", holds)  # a hold names one of the character's skills (TO-8)
    unit = ok(api(house, "POST", f"{c}/conflicts", {"characters": ["ilse", "tomas"]}))["id"]
    p.units.append(unit)
    act = f"{c}/challenges/{unit}/actions"
    seed = lambda t: api(p.tokens["ilse"], "POST", act, {"action": "seed", "seed": t})
    probe(p, seed)
    plant(p, f"to7 {ALL}", seed)
    ok(api(p.tokens["tomas"], "POST", act, {"action": "pass"}))  # the last input deals (C-10)
    rewind = lambda t: api(house, "POST", f"{c}/challenges/{unit}/rewind", {"to_step": 2, "reason": t})
    probe(p, rewind)
    plant(p, f"to8 {ALL}", rewind)
    p.reads = [("hand",)]
    return p


def beast(api: Api) -> Planted:
    p = campaign(api, "beast", "be")
    c, house = f"/campaigns/{p.campaign}", p.tokens["house"]
    probe(p, lambda t: api(house, "POST", f"{c}/players", {"seat": "probe", "character": t}))
    seat(api, p, "ilse", {"character": f"be1 {MARKUP[0]}"})
    seat(api, p, "tomas", {"character": f"be2 {MARKUP[3]}"})
    ok(api(house, "POST", f"{c}/adventures", {}))  # C-1
    make = lambda t: api(house, "POST", f"{c}/antagonists", {"name": t})
    probe(p, make)
    plant(p, f"be3 {NAME}", make)
    act = lambda t: api(p.tokens["ilse"], "POST", f"{c}/actions",
                        {"difficulty": 2, "humanity": 2, "beast": 1, "seed": t})
    probe(p, act)
    unit = plant(p, f"be4 {ALL}", act)["id"]
    p.units.append(unit)
    view = ok(api(p.tokens["ilse"], "GET", f"{c}/challenges/{unit}"))
    for move in ({"action": "keep"},):
        if view["phase"] != "settled" and any(a["action"] == "keep" for a in view["legal_actions"]):
            view = ok(api(p.tokens["ilse"], "POST", f"{c}/challenges/{unit}/actions", move))
    if view["phase"] == "settled":
        _overturn(api, p, unit, "be5")
    p.reads = [("antagonist", "sheets")]
    return p


def pulp_cards(api: Api) -> Planted:
    p = campaign(api, "pulp-cards", "pu")
    c, house = f"/campaigns/{p.campaign}", p.tokens["house"]
    probe(p, lambda t: api(house, "POST", f"{c}/players", {"seat": "probe", "character": t}))
    seat(api, p, "ilse", {"character": f"pu1 {MARKUP[0]}"})
    seat(api, p, "tomas", {"character": f"pu2 {MARKUP[3]}"})
    ok(api(house, "POST", f"{c}/adventures", {}))  # C-1
    for n, kind in enumerate(("note", "condition", "promotion")):
        note = lambda t, kind=kind: api(house, "POST", f"{c}/notes", {"note": t, "to": "ilse", "kind": kind})
        probe(p, note)
        plant(p, f"pu{3 + n} {ALL}", note)
    mine = lambda t: api(p.tokens["tomas"], "POST", f"{c}/notes", {"note": t})
    plant(p, f"pu6 {ALL}", mine)
    deal = lambda t: api(p.tokens["ilse"], "POST", f"{c}/deals", {"difficulty": 1, "cut": 3, "seed": t})
    probe(p, deal)
    unit = plant(p, f"pu7 {ALL}", deal)["id"]
    p.units.append(unit)
    ok(api(p.tokens["ilse"], "POST", f"{c}/challenges/{unit}/actions", {"action": "show"}))
    _overturn(api, p, unit, "pu8")
    return p


SYSTEMS = {"penny-ante": penny_ante, "pool": pool, "twenty-one": twenty_one, "beast": beast,
           "pulp-cards": pulp_cards}


# -- every read, as every seat, as a table and as JSON, embedded and against the server ----------------------
def reads(p: Planted, reader: str) -> Iterator[tuple[str, ...]]:
    yield "campaign", "show"
    yield "player", "list"
    for other in ("ilse", "tomas"):
        if reader in ("house", other):
            yield "sheet", other
    yield "log", "--limit", "1000"
    yield "challenge", "list"
    for unit in p.units:
        yield "challenge", "show", unit
        yield "replay", unit
        yield "challenge", "verify", unit
    yield "audit", "verify"
    yield from p.reads


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


def read_everything(p: Planted, run: Callable[..., Any], reader: str, as_json: bool = True) -> tuple[str, set[str]]:
    """Every read as a table (and as JSON): what the tables showed, and every string of the JSON answers."""
    tables, found, settled = [], set(), []
    for args in reads(p, reader):
        table = run(*args)
        out = table.stdout
        assert "Traceback" not in table.output, table.output
        bad = RAW.search(out)
        assert bad is None, f"stakes {' '.join(args)} as {reader} printed a raw {bad.group()!r}"
        tables.append(out)
        if as_json and args[:2] != ("audit", "verify"):
            answer = json.loads(run(*args, "--format", "json").stdout)
            found.update(strings(answer))
            if args[:2] == ("challenge", "show") and answer["phase"] == "settled":
                settled.append(args[2])
    for unit in settled:  # the live view (watch) of a settled unit: drawn once, then it stops
        watched = run("watch", unit, "--until-done")
        assert RAW.search(watched.stdout) is None and "Traceback" not in watched.output
        tables.append(watched.stdout)
    return "\n".join(tables), found


def assert_literal(p: Planted, reader: str, tables: str, found: set[str]) -> None:
    visible = [t for t in p.texts if reader == "house" or t not in p.hidden]
    for text in visible:
        if len(text) < 500:
            assert shown(text) in tables, f"{text!r} is not shown literally to {reader}"
    in_json = "\n".join(found)
    for text in visible:
        assert text in found or text in in_json, f"{text!r} is not in the JSON {reader} reads"
    for text in p.hidden:
        if reader != "house":
            assert text not in tables and text not in in_json, f"{text!r} leaked to {reader} (C-5)"


@pytest.mark.parametrize("settings", [STORES[0]], indirect=True)  # what the CLI draws is the same on either store
@pytest.mark.parametrize("system", list(SYSTEMS))
def test_every_cli_read_shows_a_hostile_corpus_planted_through_the_api_literally_as_every_seat(
        cli, server, tmp_path, system):  # noqa: F811
    p = SYSTEMS[system](Api(server))
    assert len(p.texts) >= 5
    for reader, token in p.tokens.items():  # every seat against the server, as tables and as JSON
        mine = seat_cli(cli, tmp_path, f"{system}-{reader}")
        remote = lambda *args, mine=mine, token=token: mine("--server", server, "--token", token, *args, env=WIDE)
        tables, found = read_everything(p, remote, reader)
        assert_literal(p, reader, tables, found)
    # embedded, the same renderers draw from the store itself: the House's tables (JSON is the same code path)
    embedded = lambda *args: cli(*args, "--campaign", p.campaign, "--as", "house", env=WIDE)
    tables, _ = read_everything(p, embedded, "house", as_json=False)
    for text in p.texts:
        if len(text) < 500:
            assert shown(text) in tables, f"{text!r} is not shown literally to the House (embedded)"
    listed = cli("campaign", "list", env=WIDE)  # every campaign of the local store (embedded only)
    assert RAW.search(listed.stdout) is None and shown(p.texts[0]) in listed.stdout
    assert p.texts[0] in strings(json.loads(cli("campaign", "list", "--format", "json").stdout))


def test_the_web_pages_show_the_hostile_corpus_escaped(cli, server):  # noqa: F811
    """The web face (api/web, Jinja autoescape) shows the same corpus as text: no raw ``<script>``."""
    api = Api(server)
    p = penny_ante(api)
    with httpx.Client(base_url=server, timeout=30) as web:
        for seat_name in ("house", "ilse"):
            web.cookies.clear()
            signed = web.post("/web/sign-in", data={"token": p.tokens[seat_name]}, headers={"Origin": server},
                              follow_redirects=True)
            assert signed.status_code < 500
            pages = [web.get("/web/campaign"), web.get("/web/campaign/panel"),
                     *(web.get(f"/web/units/{u}{tail}") for u in p.units for tail in ("", "/table", "/replay"))]
            for page in pages:
                assert page.status_code < 500, page.text
                assert "<script>alert(1)</script>" not in page.text
                assert "\x1b" not in page.text
