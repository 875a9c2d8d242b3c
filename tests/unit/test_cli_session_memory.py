"""A seat token names one seat of one campaign for good, so the CLI asks a server which once and remembers
it (issue 14: a remote command that feels instant); another token or another server is asked again."""

from __future__ import annotations

from types import SimpleNamespace
from uuid import uuid4

from cli import config, session


class Remote:
    def __init__(self, campaign, seat) -> None:
        self.asked, self.answer = 0, SimpleNamespace(campaign_id=campaign, seat=seat, system="pool")

    def session(self):
        self.asked += 1
        return self.answer


def test_the_seat_a_token_holds_is_asked_of_the_server_once(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("STAKES_CONFIG", str(tmp_path / "config.json"))
    campaign = uuid4()
    remote = Remote(campaign, "ilse")
    for _ in range(3):
        assert session._session(remote, config.load(), "http://table:8000/", "tok-1") == (campaign, "ilse")
    assert remote.asked == 1
    assert config.load().systems[campaign.hex] == "pool"  # the system came with it: no command asks (issue 30)


def test_another_token_or_another_server_is_asked_again(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("STAKES_CONFIG", str(tmp_path / "config.json"))
    first, second = Remote(uuid4(), "ilse"), Remote(uuid4(), "tomas")
    session._session(first, config.load(), "http://table:8000", "tok-1")
    assert session._session(second, config.load(), "http://table:8000", "tok-2")[1] == "tomas"
    assert session._session(second, config.load(), "http://other:8000", "tok-1")[1] == "tomas"
    assert (first.asked, second.asked) == (1, 2)
    assert "tok-1" not in (tmp_path / "config.json").read_text()  # the token is not a key in the file
