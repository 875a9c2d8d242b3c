"""Coin Flip: a sixth, minimal rule system kept under ``tests/`` to prove the plugin contract (issue 30).

It lives outside the tree on purpose: adding it touches no shared file. The test suite plugs it in where it
wants it (``plug_in``), as a registry line in ``domain/systems/__init__.py`` would, and the conformance suite
(``tests/integration/test_conformance.py``) holds it to every promise it holds the five real systems to.
``docs/adding-a-rule-system.md`` walks through it.

* ``rules.py``: the domain layer, pure rules: its character, its unit of resolution ``CoinFlip``, its commands and their
  handlers, and the ``RuleSystem`` that declares them;
* ``adapters.py``: its read model, its sheet and the view of a flip;
* no CLI module and no web board: the generic ones show it.
"""

from __future__ import annotations

import pytest

import domain.systems
from tests.toy_system.rules import CoinFlipSystem

SYSTEM = CoinFlipSystem()


def plug_in(monkeypatch: pytest.MonkeyPatch) -> CoinFlipSystem:
    """Add Coin Flip to the registry until ``monkeypatch`` undoes it (the end of the test, or of the fixture's
    scope). Open the service (``Stakes``) after this: it reads the registry when it opens its stores."""
    if SYSTEM not in domain.systems.SYSTEMS:
        monkeypatch.setattr(domain.systems, "SYSTEMS", (*domain.systems.SYSTEMS, SYSTEM))
    return SYSTEM
