"""Issue 29 item 11, C-2: split views are caught by players. Each player's CLI holds the last signed head it
checked; ``stakes audit checkpoint`` shows that held head (never the server's current one, never replacing it),
and ``stakes audit compare`` joins two players' held heads of any sizes with an RFC 9162 consistency proof
between them: equal, a prefix, or a fork (exit 11, both signed notes written as evidence). Against a live
``stakes serve`` and embedded, on SQLite and PostgreSQL."""

from __future__ import annotations

import base64
import hashlib
import json

import httpx
import pytest

from adapters import checkpoint, codec, heads, merkle, schemas
from adapters.settings import Settings
from tests.e2e.conftest import Cli, bearer
from tests.e2e.test_cli_live_server import seat_cli, server  # noqa: F401  (fixture)
from tests.integration.test_audit import Rows
from tests.integration.test_tamper import rechain

FORKED = 11


@pytest.fixture
def rows(settings):
    r = Rows(settings)
    yield r
    r.close()


def table_of_three(cli: Cli, tmp_path, server: str) -> tuple[Cli, Cli, Cli]:  # noqa: F811
    """The House, Ilse and Tomas, each with his own CLI config (his own laptop), seated against ``server``."""
    house = seat_cli(cli, tmp_path, "house")
    house.json("--server", server, "campaign", "create", "Jade Court", "--starting-pile", "30")
    ilse_code = house.json("player", "add", "ilse", "--character", "Ilse Varn", "--characteristic", "Whip")["invite"]
    tomas_code = house.json("player", "add", "tomas", "--character", "Brother Tomas",
                            "--characteristic", "Love")["invite"]
    ilse, tomas = seat_cli(cli, tmp_path, "ilse"), seat_cli(cli, tmp_path, "tomas")
    ilse("claim", ilse_code, "--server", server)
    tomas("claim", tomas_code, "--server", server)
    return house, ilse, tomas


def held(tmp_path, name: str) -> dict[str, str]:
    return json.loads((tmp_path / f"{name}.json").read_text()).get("heads", {})


def no_traceback(result) -> None:
    assert "Traceback" not in result.stdout + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)


def signer_of(settings: Settings) -> checkpoint.Signer:
    """The server's own checkpoint key, read from its file: what a server showing two histories signs with."""
    return checkpoint.Signer(settings.signing_key_path, settings.log_name)


# -- stakes audit checkpoint shows the held head --------------------------------------------------------------


def test_audit_checkpoint_shows_the_head_this_cli_holds_and_never_moves_it(cli, server, tmp_path):  # noqa: F811
    _house, ilse, tomas = table_of_three(cli, tmp_path, server)
    ilse.json("characteristic", "buy", "Lucky Necklace")
    kept = held(tmp_path, "ilse")
    (note,) = kept.values()
    tomas.json("characteristic", "buy", "Quick")  # the log grows while Ilse is away
    shown = ilse.json("audit", "checkpoint")
    assert shown["note"] == note and shown["source"] == "held"
    assert shown["size"] == checkpoint.verify(note, shown_key(server), shown["origin"]).size
    assert ilse("audit", "checkpoint", "--note").stdout == note  # byte for byte, to hand to another player
    table = ilse("audit", "checkpoint").stdout
    assert "held by this CLI" in table and str(shown["size"]) in table and shown["root"] in table
    assert held(tmp_path, "ilse") == kept  # shown three times, replaced never

    fetched = ilse.json("audit", "checkpoint", "--fetch")  # asked for: fetched, checked to extend, kept
    assert fetched["source"] == "fetched" and fetched["size"] > shown["size"]
    assert list(held(tmp_path, "ilse").values()) == [fetched["note"]]


def shown_key(server: str) -> str:  # noqa: F811
    return httpx.get(f"{server}/audit/public-key").json()["vkey"]


def test_audit_checkpoint_without_a_held_head_says_how_to_fetch_one(cli, server, tmp_path):  # noqa: F811
    _house, _ilse, _ = table_of_three(cli, tmp_path, server)
    token = json.loads((tmp_path / "ilse.json").read_text())["token"]
    fresh = seat_cli(cli, tmp_path, "laptop")
    fresh("login", "--server", server, "--token", token)
    result = fresh("audit", "checkpoint", expect=5)
    assert "holds no signed head" in result.stderr and "--fetch" in result.stderr and "C-2" in result.stderr
    no_traceback(result)
    assert held(tmp_path, "laptop") == {}
    assert fresh.json("audit", "checkpoint", "--fetch")["source"] == "fetched"
    assert len(held(tmp_path, "laptop")) == 1


# -- two players compare their held heads ---------------------------------------------------------------------


def test_two_players_holding_heads_of_different_sizes_find_one_a_prefix_of_the_other(cli, server, tmp_path):  # noqa: F811
    house, ilse, tomas = table_of_three(cli, tmp_path, server)
    tomas.json("characteristic", "buy", "Quick")
    (tmp_path / "tomas-head.txt").write_text(tomas("audit", "checkpoint", "--note").stdout)
    ilse.json("characteristic", "buy", "Lucky Necklace")
    house.json("antagonist", "create", "Lady Sen", "--characteristic", "Poison")
    ilse.json("sheet")  # Ilse now holds a larger head than Tomas
    (tmp_path / "ilse-head.json").write_text(ilse("audit", "checkpoint", "--format", "json").stdout)
    before = {name: held(tmp_path, name) for name in ("ilse", "tomas")}

    said = ilse.json("audit", "compare", str(tmp_path / "tomas-head.txt"))
    assert said["verdict"] == "prefix" and said["shorter"] == "other" and said["other_size"] < said["mine_size"]
    assert said["evidence"] is None and said["proof"]
    assert tomas.json("audit", "compare", str(tmp_path / "ilse-head.json"))["shorter"] == "mine"
    table = tomas("audit", "compare", str(tmp_path / "ilse-head.json")).stdout
    assert "PREFIX" in table and f"of {said['other_size']} events is a prefix of the head of {said['mine_size']}" in table
    # the note text itself, on stdin or as the argument, is taken too; a head against itself is equal
    piped = ilse("audit", "compare", "-", "--format", "json", input=(tmp_path / "tomas-head.txt").read_text())
    assert json.loads(piped.stdout)["verdict"] == "prefix"
    assert tomas.json("audit", "compare", (tmp_path / "tomas-head.txt").read_text())["verdict"] == "equal"
    assert {name: held(tmp_path, name) for name in ("ilse", "tomas")} == before  # comparing replaces nothing
    assert not list(tmp_path.glob("fork-*.txt"))


def test_two_validly_signed_heads_of_one_size_with_different_roots_are_a_fork(cli, server, tmp_path, settings):  # noqa: F811
    _house, ilse, _tomas = table_of_three(cli, tmp_path, server)
    ilse.json("characteristic", "buy", "Lucky Necklace")
    mine = checkpoint.verify(next(iter(held(tmp_path, "ilse").values())), shown_key(server))
    # What a server showing Tomas another history signs: the same size, another root, its own key.
    other_root = hashlib.sha256(b"another history").digest()
    forged = signer_of(settings).sign(mine.origin, mine.size, other_root)
    (tmp_path / "tomas-head.txt").write_text(forged)

    result = ilse("audit", "compare", str(tmp_path / "tomas-head.txt"), "--format", "json", expect=FORKED)
    said = json.loads(result.stdout)
    assert said["verdict"] == "fork" and "two different roots at the same size" in said["detail"]
    problem = json.loads(result.stderr)
    assert problem["exit_code"] == FORKED and problem["ruling"] == "C-2" and problem["error"] == "Forked"
    evidence = (tmp_path / f"fork-{said['campaign_id']}.txt").read_text()
    assert said["evidence"].endswith(f"fork-{said['campaign_id']}.txt")
    assert mine.note in evidence and forged in evidence  # both signed notes: checkable by anyone with the key
    table = ilse("audit", "compare", str(tmp_path / "tomas-head.txt"), "--evidence", str(tmp_path / "e.txt"),
                 expect=FORKED)
    assert "FORK" in table.stdout and "the histories fork" in table.stderr and forged in (tmp_path / "e.txt").read_text()
    no_traceback(table)


@pytest.mark.parametrize("attack", ["rewrite", "truncate"])
def test_a_log_changed_between_two_players_reads_is_caught_as_a_fork(cli, server, tmp_path, rows, attack):  # noqa: F811
    """The server shows Ilse one history, then rewrites (or cuts) it before Tomas's first look: each player's
    own CLI is content (Tomas pinned what he was shown), and only comparing their held heads shows the fork."""
    _house, ilse, _tomas_then = table_of_three(cli, tmp_path, server)
    tomas = seat_cli(cli, tmp_path, "tomas-later")  # Tomas's CLI first looks after the change
    token = json.loads((tmp_path / "tomas.json").read_text())["token"]
    ilse.json("characteristic", "buy", "Lucky Necklace")
    ilse.json("characteristic", "buy", "Quick")
    (tmp_path / "ilse-head.txt").write_text(ilse("audit", "checkpoint", "--note").stdout)
    links = rows.run(f"SELECT notification_id, salt FROM {rows.chain} ORDER BY notification_id")
    if attack == "rewrite":  # Ilse's first purchase cost 5; make it 6, and recompute every digest and link after it
        target = next(nid for nid, _ in links if b'"cost":5' in codec.plain(
            rows.run(f"SELECT state FROM {rows.table} WHERE {rows.id_col} = ?", nid)[0][0]))
        rows.alter(target)
        rechain(rows, links)
    else:  # her last purchase removed, and the head set back to match
        for nid, _ in links[-2:]:
            rows.delete(nid)
            rows.run(f"DELETE FROM {rows.chain} WHERE notification_id = ?", nid)
        rechain(rows, links[:-2])
    tomas("login", "--server", server, "--token", token)
    if attack == "rewrite":
        tomas.json("characteristic", "buy", "Hymns")  # his log grows past Ilse's: sizes differ
    else:
        tomas.json("audit", "checkpoint", "--fetch")  # he holds the cut log's head: smaller than Ilse's
    (tmp_path / "tomas-head.txt").write_text(tomas("audit", "checkpoint", "--note").stdout)

    said = json.loads(ilse("audit", "compare", str(tmp_path / "tomas-head.txt"), "--format", "json",
                           expect=FORKED).stdout)
    assert said["verdict"] == "fork" and said["mine_size"] != said["other_size"]
    assert ("cannot prove" if attack == "truncate" else "no consistency proof joins") in said["detail"]
    back = tomas("audit", "compare", str(tmp_path / "ilse-head.txt"), expect=FORKED)
    assert "C-2" in back.stderr and "the histories fork" in back.stderr
    evidence = next(tmp_path.glob("fork-*.txt")).read_text()
    assert (tmp_path / "ilse-head.txt").read_text() in evidence and (tmp_path / "tomas-head.txt").read_text() in evidence


def test_a_head_that_is_not_a_signed_note_of_this_campaign_is_refused_clearly(cli, server, tmp_path):  # noqa: F811
    _house, ilse, _tomas = table_of_three(cli, tmp_path, server)
    ilse.json("characteristic", "buy", "Lucky Necklace")
    mine = checkpoint.verify(next(iter(held(tmp_path, "ilse").values())), shown_key(server))
    other = seat_cli(cli, tmp_path, "other-house")
    other.json("--server", server, "campaign", "create", "Elsewhere")
    elsewhere = other("audit", "checkpoint", "--fetch", "--note").stdout  # validly signed, by this server, for another campaign
    stranger = checkpoint.Signer(tmp_path / "stranger.pem", "stakes").sign(mine.origin, mine.size, mine.root)
    cases = {
        "garbage.txt": ("hello, this is no head\n", "is not a signed note"),
        "wrong-key.txt": (stranger, "carries no valid signature"),
        "other-campaign.txt": (elsewhere, "not " + mine.origin),
        "no-note.json": ('{"size": 3}', "without a signed note"),
        "bad.json": ("{not json", "neither a signed note nor the JSON"),
        "not-utf8.txt": (b"\xb2\xff".decode("latin-1"), "cannot read the head"),
        "huge.txt": ("x" * 70_000, "far more than a signed note"),
    }
    for name, (text, why) in cases.items():
        if name == "not-utf8.txt":
            (tmp_path / name).write_bytes(b"\xb2\xff\n")
        else:
            (tmp_path / name).write_text(text)
        result = ilse("audit", "compare", str(tmp_path / name), expect=2)
        assert why in result.stderr and "C-2" in result.stderr, (name, result.stderr)
        no_traceback(result)
        problem = json.loads(ilse("audit", "compare", str(tmp_path / name), "--format", "json", expect=2).stderr)
        assert problem["error"] == "BadHead" and problem["ruling"] == "C-2" and why in problem["message"]
    missing = ilse("audit", "compare", str(tmp_path / "nowhere.txt"), expect=2)
    assert "cannot read the head" in missing.stderr
    # a forged "mine" is refused the same way, and nothing is written anywhere
    assert "your head" in ilse("audit", "compare", str(tmp_path / "garbage.txt"), "--mine", stranger, expect=2).stderr
    assert not list(tmp_path.glob("fork-*.txt"))


# -- the proof between two sizes, over HTTP ---------------------------------------------------------------------


def test_the_server_proves_any_smaller_head_a_prefix_of_any_larger_one(cli, server, tmp_path):  # noqa: F811
    _house, ilse, tomas = table_of_three(cli, tmp_path, server)
    ilse.json("characteristic", "buy", "Lucky Necklace")
    tomas.json("characteristic", "buy", "Quick")
    token = json.loads((tmp_path / "ilse.json").read_text())["token"]
    cid = json.loads((tmp_path / "ilse.json").read_text())["campaign"]
    vkey = shown_key(server)
    with httpx.Client(base_url=server, headers=bearer(token)) as http:
        whole = schemas.Consistency.model_validate(http.get(f"/campaigns/{cid}/audit/consistency",
                                                            params={"from": 0}).json()).checkpoint
        for first, second in ((1, 2), (2, 5), (3, whole.size - 1), (whole.size - 1, whole.size), (4, 4)):
            r = http.get(f"/campaigns/{cid}/audit/consistency", params={"from": first, "second": second})
            assert r.status_code == 200, r.text
            answer = schemas.Consistency.model_validate(r.json())
            larger = checkpoint.verify(answer.checkpoint.note, vkey, whole.origin)
            smaller = checkpoint.verify(http.get(f"/campaigns/{cid}/audit/consistency", params={
                "from": 0, "second": first}).json()["checkpoint"]["note"], vkey, whole.origin)
            assert larger.size == second and answer.first == first
            assert merkle.verify_consistency(first, second, smaller.root, larger.root,
                                             [base64.b64decode(p) for p in answer.proof])
            assert heads.verify_extends(smaller, answer, vkey, whole.origin) == larger
        for params in ({"from": 3, "second": 2}, {"from": 1, "second": whole.size + 1}):
            r = http.get(f"/campaigns/{cid}/audit/consistency", params=params)
            assert r.status_code == 422 and r.json()["ruling"] == "C-2", r.text
            assert r.headers["content-type"].startswith("application/problem+json")
        for bad in ("-1", "true", "1.5", "2" * 30):
            assert http.get(f"/campaigns/{cid}/audit/consistency", params={"from": 1, "second": bad}).status_code == 422
    spec = httpx.get(f"{server}/openapi.json").json()["paths"]["/campaigns/{campaign_id}/audit/consistency"]["get"]
    assert "second" in {p["name"] for p in spec["parameters"]} and {"200", "401", "403", "422"} <= set(spec["responses"])


# -- embedded ---------------------------------------------------------------------------------------------------


def test_embedded_the_store_s_own_head_is_compared_with_a_player_s(cli, tmp_path, settings):
    cli.json("campaign", "create", "Jade Court", "--starting-pile", "30")
    shown = cli.json("audit", "checkpoint")
    assert shown["source"] == "store" and shown["server"] is None
    (tmp_path / "early.txt").write_text(cli("audit", "checkpoint", "--note").stdout)
    cli.json("player", "add", "ilse", "--character", "Ilse Varn", "--characteristic", "Whip")
    said = cli.json("audit", "compare", str(tmp_path / "early.txt"))
    assert said["verdict"] == "prefix" and said["shorter"] == "other"
    assert cli.json("audit", "compare", str(tmp_path / "early.txt"), "--mine",
                    str(tmp_path / "early.txt"))["verdict"] == "equal"
    early = checkpoint.verify((tmp_path / "early.txt").read_text(), signer_of(settings).vkey)
    forged = signer_of(settings).sign(early.origin, early.size + 1, hashlib.sha256(b"another history").digest())
    (tmp_path / "forged.txt").write_text(forged)
    result = cli("audit", "compare", str(tmp_path / "forged.txt"), "--mine", str(tmp_path / "early.txt"),
                 expect=FORKED)
    assert "FORK" in result.stdout and "C-2" in result.stderr
    evidence = next(tmp_path.glob("fork-*.txt")).read_text()
    assert forged in evidence and early.note in evidence
