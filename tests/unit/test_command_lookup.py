"""A campaign command is found by its verb in each system's registry (C-1), from a table made once
(issue 15) that stays true when a handler is registered later."""

from __future__ import annotations

from typing import ClassVar, Literal

from domain.kernel.commands import Command, Handlers
from domain.kernel.registry import supported


class Ping(Command):
    verb: ClassVar[str] = "ping"


class Pong(Command):
    verb: ClassVar[str] = "pong"


class Poke(Command):
    """A unit action: found by its action name, never as a campaign command."""

    verb: ClassVar[str] = "act"
    action: Literal["poke"] = "poke"


def test_every_system_finds_each_of_its_campaign_commands_by_its_verb():
    for system in supported():
        for cls in system.commands():
            found = system.command(cls.verb)
            assert found is not None and found.verb == cls.verb, (system.id, cls.verb)
        assert system.command("no-such-verb") is None


def test_a_unit_action_is_not_a_campaign_command():
    handlers = Handlers()
    handlers(Poke)(lambda *args: None)
    assert handlers.campaign_command("act") is None


def test_a_handler_registered_after_a_lookup_is_found():
    handlers = Handlers()
    handlers(Ping)(lambda *args: None)
    assert handlers.campaign_command("ping") is Ping and handlers.campaign_command("pong") is None
    handlers.declare(Pong)
    assert handlers.campaign_command("pong") is Pong
