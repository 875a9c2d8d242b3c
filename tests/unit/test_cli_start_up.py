"""The CLI builds only the branch of its command tree a command line names (issue 14: a CLI that starts fast);
anything it cannot place gets the whole tree, so help and "did you mean" stay whole."""

from __future__ import annotations

from typer.testing import CliRunner

from cli import main


def names(app) -> set[str]:
    return {g.name for g in app.registered_groups} | {c.name for c in app.registered_commands}


def test_a_command_line_builds_only_the_group_or_command_it_names() -> None:
    assert names(main.for_command_line(["challenge", "show", "abc"])) == {"challenge"}
    assert names(main.for_command_line(["--server", "http://x", "--token=t", "sheet", "ilse"])) == {"sheet"}


def test_help_a_misspelt_command_and_root_options_alone_get_the_whole_tree() -> None:
    for args in ([], ["--help"], ["shet"], ["--server", "http://x"], ["--version"]):
        assert main.for_command_line(args) is main.app, args


def test_a_pruned_tree_answers_like_the_whole_one() -> None:
    runner = CliRunner()
    pruned = runner.invoke(main.for_command_line(["challenge", "--help"]), ["challenge", "--help"])
    whole = runner.invoke(main.app, ["challenge", "--help"])
    assert pruned.exit_code == whole.exit_code == 0
    assert pruned.output == whole.output
