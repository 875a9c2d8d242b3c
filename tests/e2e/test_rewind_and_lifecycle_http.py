"""Issue 30 over HTTP, on both stores: a Twenty-one rewind to a step of an abandoned timeline gives the sheet's
holds of that step (C-6, TO-8), a step inside one move is refused (C-6), and a unit opens only during an
adventure, which cannot end while it is open (C-1). Refusals are RFC 9457 problems naming the ruling, and
store nothing."""

from __future__ import annotations

from typing import Any

from tests.e2e.conftest import bearer, player_headers
from tests.e2e.test_twenty_one import stacked


def _table(client) -> tuple[str, dict[str, Any]]:
    created = client.post("/campaigns", json={"name": "Cards", "system": "twenty-one",
                                              "settings": {"table_cards": True}}).json()
    c, t = f"/campaigns/{created['campaign']['id']}", {"house": bearer(created["house_token"])}
    for seat in ("ilse", "tomas"):
        r = client.post(f"{c}/players", headers=t["house"], json={"seat": seat, "character": seat.title(),
                                                                  "skills": ["Knife fighting"]})
        t[seat] = player_headers(client, r.json())
    r = client.post(f"{c}/characters/ilse/holds", headers=t["house"], json={"count": 1, "skill": "knife fighting"})
    assert r.status_code == 200, r.text
    return c, t


def _refused(r, ruling: str) -> None:
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/problem+json") and r.json()["ruling"] == ruling


class _Conflict:
    """A Twenty-one conflict of Ilse and Tomas in an adventure of ``_table``: its moves and its last step."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.c, self.t = _table(client)
        client.post(f"{self.c}/adventures", headers=self.t["house"], json={})
        unit = client.post(f"{self.c}/conflicts", headers=self.t["house"],
                           json={"characters": ["ilse", "tomas"]}).json()["id"]
        self.u = f"{self.c}/challenges/{unit}"

    def move(self, seat: str, **body: Any) -> dict[str, Any]:
        r = self.client.post(f"{self.u}/actions", headers=self.t[seat], json=body)
        assert r.status_code == 200, r.text
        return dict(r.json())

    def step(self) -> int:
        return int(self.client.get(f"{self.u}/replay", headers=self.t["house"]).json()["steps"][-1]["step"])


def test_a_conflict_opens_only_during_an_adventure_which_cannot_end_while_it_is_open(client):  # C-1
    c, t = _table(client)
    _refused(client.post(f"{c}/conflicts", headers=t["house"], json={"characters": ["ilse", "tomas"]}), "C-1")
    assert client.get(f"{c}/challenges", headers=t["house"]).json() == []  # nothing stored
    assert client.post(f"{c}/adventures", headers=t["house"], json={}).status_code == 201
    r = client.post(f"{c}/conflicts", headers=t["house"], json={"characters": ["ilse", "tomas"]})
    assert r.status_code == 201, r.text
    _refused(client.post(f"{c}/adventures/current/end", headers=t["house"]), "C-1")
    assert client.get(c, headers=t["house"]).json()["adventure_running"] is True
    assert client.post(f"{c}/challenges/{r.json()['id']}/actions", headers=t["house"],
                       json={"action": "end"}).status_code == 200
    assert client.post(f"{c}/adventures/current/end", headers=t["house"]).status_code == 200


def test_a_rewind_to_a_step_of_an_abandoned_timeline_spends_its_hold_again_on_the_sheet(client):  # C-6, TO-8
    conflict = _Conflict(client)
    c, t, u, move, step = conflict.c, conflict.t, conflict.u, conflict.move, conflict.step

    def rewind(to: int):
        return client.post(f"{u}/rewind", headers=t["house"], json={"to_step": to, "reason": "ruled otherwise",
                                                                 "reveal": True})  # C-8: KD was seen by all

    def holds() -> int:
        return client.get(f"{c}/characters/ilse", headers=t["tomas"]).json()["holds"]

    move("house", action="deal", deck=stacked("10S", "3S", "7S", "7H", "9H", "4H", "KD"))
    move("ilse", action="lay", cards=["10S", "3S"])
    laid = step()
    move("ilse", action="hold", draw=True)  # KD drawn for the hold, pending
    spent = step()
    assert holds() == 0
    assert rewind(laid).status_code == 200 and holds() == 1
    assert rewind(laid - 1).status_code == 200  # before the lay: a second timeline
    move("ilse", action="lay", cards=["10S", "3S"])
    assert holds() == 1
    view = rewind(spent).json()  # the step after the hold spent in the abandoned timeline
    assert view["state"]["action"]["pending"] == "KD" and holds() == 0  # the hold is spent there: once
    before = step()
    _refused(client.post(f"{u}/actions", headers=t["ilse"], json={"action": "hold", "set_aside": True}), "TO-8")
    assert step() == before and holds() == 0
    move("ilse", action="keep", keep=True)  # 10S KD: 20, then stand
    move("ilse", action="stand")
    _refused(rewind(step() - 1), "C-6")  # between the stand and the result it brought: inside one move
    assert step() == before + 3 and holds() == 0


def test_a_rewind_to_another_timelines_step_gives_the_sheet_that_timelines_action_line_whole(client):  # C-6, TO-6
    """Found by an independent check of the rulings: the same cards, stood on against other targets in the two
    timelines (a modifier in one), kept the left timeline's targets on the sheet after a rewind back to the other."""
    conflict = _Conflict(client)
    c, t, u, move, step = conflict.c, conflict.t, conflict.u, conflict.move, conflict.step

    def rewind(to: int) -> None:
        r = client.post(f"{u}/rewind", headers=t["house"], json={"to_step": to, "reason": "ruled otherwise"})
        assert r.status_code == 200, r.text

    def lines() -> list[tuple[Any, ...]]:
        sheet = client.get(f"{c}/characters/ilse", headers=t["tomas"]).json()
        return [(a["outcome"], a["total"], a["targets"], a["modifiers"]) for a in sheet["actions"]]

    def results() -> list[tuple[Any, ...]]:
        view = client.get(u, headers=t["ilse"]).json()["state"]
        return [(r["outcome"], r["total"], r["targets"], r["modifiers"]) for r in view["results"]]

    move("house", action="deal", deck=stacked("10S", "8S", "7S", "7H", "9H", "4H"))
    move("ilse", action="lay", cards=["10S", "8S"])  # 18: a full success against either targets
    before_modifier = step()
    move("house", action="modifier", value=-1, source="Knife fighting")  # targets 14 and 16 (TO-6)
    move("ilse", action="stand")
    with_modifier = step()
    first = results()
    assert lines() == first and first[0][2] != {"mixed": 15, "full": 17}
    rewind(before_modifier)
    move("ilse", action="stand")  # the same 18, against 15 and 17: the same outcome, other targets
    assert lines() == results() != first
    rewind(with_modifier)  # back to the first timeline's stand
    assert results() == first and lines() == first
