"""Which unit a command without an id goes to (issue 31): the seat's current one, but not once it is over while
another seat has opened one this seat is in (found on a CLI walk: Tomas's ``challenge show`` kept showing the
settled challenge, "Nothing to do for you now", while Ilse's new one waited for his seed)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from uuid import uuid4

import pytest

from cli import commands, config
from cli.session import Target
from domain.seats import Seat


def unit(*, challenger: tuple[str, ...], opponent: tuple[str, ...], phase: str = "betting") -> SimpleNamespace:
    return SimpleNamespace(id=uuid4(), challenger=list(challenger), opponent=list(opponent), phase=phase,
                           kind="Challenge", position=1)


class Backend:
    def __init__(self, units: list[SimpleNamespace]) -> None:
        self.units = units

    def challenges(self, campaign_id, seat, after=0, limit=100, open_only=False):
        found = [u for u in self.units if not open_only or u.phase not in ("settled", "void")]
        return found if after == 0 else []


@pytest.fixture
def tomas(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("STAKES_CONFIG", str(tmp_path / "config.json"))
    old = unit(challenger=("ilse",), opponent=("tomas",), phase="settled")
    backend = Backend([old])
    target = Target(backend, Seat("tomas"), uuid4(), remote=False)
    commands.current_unit(target, old.id)
    return target, backend, old


def test_the_seats_current_unit_is_read_while_nothing_else_is_open(tomas):
    target, _, old = tomas
    assert commands.unit_id(target, None, settled=True) == old.id


def test_an_open_unit_the_seat_is_in_is_read_once_its_current_one_is_over(tomas):
    target, backend, old = tomas
    new = unit(challenger=("ilse",), opponent=("tomas",))
    backend.units.append(new)
    assert commands.unit_id(target, None, settled=True) == new.id
    assert commands.unit_id(target, old.id.hex[:8]) == old.id  # named: that one
    backend.units.append(unit(challenger=("ilse",), opponent=("tomas",)))  # two open: his current one stays
    assert commands.unit_id(target, None, settled=True) == old.id
    assert config.load().units  # the current unit is kept as it was
