"""Issue 30 item 5 (ADR 0036): each command type has its own handler, typed with its own class, so a handler
never branches again on the type it was given; the order actions are registered in (the order a refusal of an
unknown action lists them, and the first one's ruling it names, C-1) is the one the systems always had."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any, Literal

import pytest

from domain.kernel import common
from domain.kernel.commands import Command, Handlers
from domain.kernel.registry import supported

ROOT = Path(__file__).resolve().parents[2]

#: The actions of each system's units, in registration order (as before the handlers were split).
ACTIONS = {
    "penny-ante": ["seed", "pass", "circumstance", "double-down", "declare", "roll", "keep", "check", "call",
                   "raise", "fold", "all-in", "lend", "bid", "debt", "buyout", "abandon"],
    "pool": ["choose", "seed", "pass", "roll", "fold", "push", "reroll", "interrupt", "abandon"],
    "twenty-one": ["seed", "pass", "deal", "order", "order-card", "lay", "draw", "stand", "assist", "hinder", "hold",
                   "keep", "reshuffle", "modifier", "end", "abandon"],
    "beast": ["seed", "pass", "prepare", "roll", "reroll", "keep", "check", "reveal", "abandon"],
    "pulp-cards": ["show", "seed", "pass", "surprise", "initiative", "keep", "attack", "effect", "end", "abandon"],
}


def test_each_command_type_of_every_system_has_a_handler_of_its_own():
    for system in supported():
        by_type = {cls: h for cls, h in system.handlers.by_type.items() if h is not None}
        for cls, handler in by_type.items():
            if handler is common.abandon:  # the kernel's handler of the one shared action (C-10)
                continue
            others = [c.__name__ for c, h in by_type.items() if h is handler and c is not cls]
            assert not others, (system.id, cls.__name__, handler.__name__, others)


def test_each_handler_is_typed_with_the_command_class_it_runs():
    for system in supported():
        for cls, handler in system.handlers.by_type.items():
            if handler is None:  # a system's own inputs for a shared command (``declare``)
                continue
            annotation = str(inspect.signature(handler).parameters["command"].annotation)
            assert annotation.rsplit(".", 1)[-1] == cls.__name__ or (
                handler is common.abandon and issubclass(cls, common.Abandon)), (system.id, cls.__name__, annotation)


def test_no_handler_branches_on_the_type_of_its_command():
    for path in sorted((ROOT / "domain" / "systems").glob("*/play.py")):
        assert "isinstance(command" not in path.read_text(encoding="utf-8"), path


def test_the_actions_are_registered_in_the_order_they_always_were():
    for system in supported():
        assert [a.action_name() for a in system.actions()] == ACTIONS[system.id], system.id


class Heads(Command):
    action: Literal["heads"] = "heads"


class Tails(Command):
    action: Literal["tails"] = "tails"


def test_one_handler_registered_for_two_command_types_is_refused():
    handlers = Handlers()

    def call(app: Any, ctx: Any, campaign: Any, unit: Any, command: Heads) -> list[Any]:
        return [unit]

    handlers(Heads)(call)
    with pytest.raises(TypeError, match="one handler per command type"):
        handlers(Tails)(call)
    assert handlers.commands() == (Heads,)
