"""C-6 through the kernel's rewind (ADR 0032): a step of another timeline that spent more from a sheet than the
sheet now holds is refused before anything is stored, so one point or die is never spent twice (stop 36
review: Beast had no such check, the Pool's ignored its floor of two dice, PL-3)."""

from __future__ import annotations

from types import SimpleNamespace
from uuid import uuid4

import pytest

from domain.errors import RuleViolation
from domain.systems.beast.system import Beast
from domain.systems.pool import play as pool_play
from domain.systems.pool.system import Pool


def _beast_app(willpower: int, humanity: int = 5) -> tuple[SimpleNamespace, SimpleNamespace]:
    sheet = SimpleNamespace(name="Ilse", willpower=willpower, humanity=humanity)
    app = SimpleNamespace(repository=SimpleNamespace(get=lambda _id: sheet))
    unit = SimpleNamespace(sides={"ilse": {"character": str(uuid4())}})
    return app, unit


def test_a_beast_rewind_to_a_step_that_spent_a_willpower_point_spent_again_since_is_refused_c6():
    app, unit = _beast_app(willpower=0)  # the point came back by a rewind and was spent on another roll
    with pytest.raises(RuleViolation) as refused:
        Beast().verify_spend_again(app, None, unit, "ilse", then={"willpower": -1, "humanity": 0},
                                   now={"willpower": 0, "humanity": 0})
    assert refused.value.ruling == "C-6" and "Willpower" in str(refused.value)


def test_a_beast_rewind_that_the_sheet_can_bear_is_accepted():
    app, unit = _beast_app(willpower=1)
    Beast().verify_spend_again(app, None, unit, "ilse", then={"willpower": -1, "humanity": 0},
                               now={"willpower": 0, "humanity": 0})
    Beast().verify_spend_again(app, None, unit, "ilse", then=None, now={"willpower": -1, "humanity": 0})


@pytest.mark.parametrize(("pool", "refused"), [(5, False), (4, False), (3, True)])
def test_a_pool_rewind_never_takes_a_pool_below_two_dice_pl3(monkeypatch, pool, refused):
    monkeypatch.setattr(pool_play, "character", lambda app, campaign, seat: SimpleNamespace(pool=pool))
    check = lambda: Pool().verify_spend_again(None, None, None, "ilse", then=2, now=0)
    if refused:
        with pytest.raises(RuleViolation) as found:
            check()
        assert found.value.ruling == "C-6" and "PL-3" in str(found.value)
    else:
        check()
