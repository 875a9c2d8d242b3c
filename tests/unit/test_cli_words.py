"""Several systems may share CLI words (one command, the union of their inputs), but never in ways the
command line cannot read: a word that is a command for one system and a group for another."""

from __future__ import annotations

from domain.kernel.common import SHARED
from domain.kernel.registry import supported


def every_word() -> dict[str, list[type]]:
    found: dict[str, list[type]] = {}
    for cls in [c for s in supported() for c in (*s.commands(), *s.actions())] + list(SHARED):
        for words, _ in ((cls.cli, {}), *cls.cli_variants) if cls.cli else cls.cli_variants:
            found.setdefault(words, []).append(cls)
    return found


def test_no_cli_word_is_a_command_for_one_system_and_a_group_for_another():
    words = every_word()
    groups = {w.split()[0] for w in words if " " in w}
    clashes = {w: [c.__qualname__ for c in words[w]] for w in words if " " not in w and w in groups}
    assert not clashes, f"these words are both a command and a group: {clashes}"
