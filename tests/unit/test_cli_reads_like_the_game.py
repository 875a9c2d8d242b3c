"""The shared CLI names no system's concepts and systems plug in through one typed interface (issue 31,
ADR 0030); what a system draws is never cut at 80 columns."""

from __future__ import annotations

import ast
import io
import re
from pathlib import Path
from uuid import uuid4

from rich.console import Console

from cli import systems
from domain.kernel.registry import edge_module_name, supported

ROOT = Path(__file__).resolve().parents[2]
SHARED_CLI = ("cli/tables.py", "cli/catalogue.py", "cli/commands.py", "cli/challenge.py", "cli/output.py")
CONCEPTS = re.compile(r"\b(ante|pot|characteristics?|traits?|willpower|deck|loans?)\b", re.IGNORECASE)


def drawn(renderable, width: int = 80) -> str:
    console = Console(file=io.StringIO(), width=width, soft_wrap=False, markup=False, emoji=False)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]


def test_the_shared_cli_names_no_systems_concepts_in_what_it_draws_or_offers():
    for name in SHARED_CLI:
        tree = ast.parse((ROOT / name).read_text())
        docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                      if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef)) and n.body
                      and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        found = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
                 and id(n) not in docstrings and CONCEPTS.search(n.value)}
        assert not found, (name, found)


def test_every_systems_cli_module_is_a_typed_system_cli():
    for system in supported():
        found = systems.of(edge_module_name(system, "cli"))
        assert isinstance(found, systems.SystemCli)
        assert found.unit_kinds, system.id  # each names its units, so the list shows its own columns
        assert all(isinstance(c, systems.Column) for c in found.unit_columns)


def test_every_discard_of_a_twenty_one_conflict_is_shown_at_80_columns():
    from adapters.systems.twenty_one import ConflictView
    from cli.systems.twenty_one import CLI, show

    discard = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS"]
    state = {"round": 2, "turn": "ilse", "turn_order": ["ilse", "tomas"], "acted": ["tomas"], "deck_count": 30,
             "deck_known": [], "discard": discard, "hands": {"ilse": [{"card": None}] * 3}, "you": None,
             "action": None, "results": []}
    view = ConflictView(id=uuid4(), campaign_id=uuid4(), kind="Conflict", phase="play", state=state,
                        legal_actions=[], waiting_for=["ilse"])
    text = re.sub(r"\s+", " ", drawn(CLI.renderers["ConflictView"](view)))
    assert "discard (11): " + " ".join(show(x) for x in discard) in text
    assert "The table waits for ilse." in text


def test_a_seat_token_and_a_campaign_id_are_never_cut_at_80_columns():
    from adapters import schemas
    from cli import tables

    token = "stk_" + "x" * 43
    claimed = schemas.SeatClaimed(campaign_id=uuid4(), seat="ilse", token=token)
    text = drawn(tables.claimed(claimed))
    assert token in text and str(claimed.campaign_id) in text.replace("│", "").replace("\n", "").replace(" ", "")
    assert max(len(line) for line in text.splitlines()) <= 80


def test_a_twenty_one_replay_says_modifiers_replacements_and_holds_in_words_to6_to7_to8():
    """Found on a phone walk: ``stakes replay`` printed "seat: tomas; kind: assist; card: 10H; replaced: 9D"
    beside sentences for the other steps."""
    from cli.systems import Said
    from cli.systems.twenty_one import conflict_phrase

    said = Said(names={"ilse": "Ilse Varn", "tomas": "Brother Tomas"})
    lines = [conflict_phrase("Replaced", {"seat": "tomas", "kind": "assist", "card": "10H", "replaced": "9D"}, said),
             conflict_phrase("ModifierAdded", {"value": -1, "source": "wet slates"}, said),
             conflict_phrase("HoldSpent", {"seat": "ilse", "use": "draw", "card": "7H"}, said),
             conflict_phrase("HoldCardDiscarded", {"seat": "ilse", "card": "7H"}, said)]
    assert all(line and ":" not in line.split(" ")[0] for line in lines), lines
    assert lines[0].startswith("Brother Tomas assists: 10") and "replaces 9" in lines[0]
    assert lines[1] == "A modifier makes it easier (-1): wet slates"
    assert lines[2].startswith("Ilse Varn spends a hold on a card drawn (7")
    assert lines[3] == "Ilse Varn discards the card drawn for the hold"


def test_a_command_every_system_shares_says_what_all_share_and_names_the_system_of_each_own_input():
    from cli import catalogue

    commands = {c["words"]: c for c in catalogue.build()["commands"]}
    start = commands["adventure start"]
    # Penny Ante's own class (PA-3: an agreed House pile) must not speak for a Pool campaign's adventure
    assert "House pile" not in start["doc"] and start["doc"].startswith("Start an adventure")
    amount = next(p for p in start["params"] if p["name"] == "amount")
    assert amount["help"].startswith("Penny Ante: ")
    seat = {p["name"]: p["help"] for p in commands["player add"]["params"]}
    assert seat["humanity"].startswith("Humanity and Beast: ") and seat["skills"].startswith("Twenty-one: ")
    assert not seat["character"].startswith(tuple(s.name for s in supported()))  # every system takes it
    roll = {p["name"]: p["help"] for p in commands["roll"]["params"]}  # one system's own: no name needed
    assert not any(h.startswith("The Pool") for h in roll.values())
    # one command line, two systems' own moves (found on a CLI walk: a Beast campaign's help spoke of a deck)
    opened = commands["conflict open"]
    assert opened["doc"].startswith("Twenty-one: ") and " Humanity and Beast: " in opened["doc"]
    assert "\n\n" not in opened["doc"]  # one paragraph: the help says a command's first
    against = next(p for p in opened["params"] if p["name"] == "against")
    assert against["help"].startswith("Humanity and Beast: ")


def test_the_help_of_every_command_all_systems_share_names_no_systems_concepts():
    from cli import catalogue, main

    every = {s.id for s in supported()}
    built = catalogue.build()
    generated = {c["words"] for c in built["commands"]} | {r["cli"] for r in built["reads"]}
    docs = {c["words"]: c["doc"] for c in built["commands"] if set(c["systems"]) >= every}
    written = [(f"{name} {c.name}", c) for name, group in main.GROUPS.items() for c in group.registered_commands]
    written += [(c.name or "", c) for c in main.app.registered_commands]  # typer's own, written in cli/
    docs.update({words: c.callback.__doc__ or "" for words, c in written if words not in generated})
    found = {words: doc for words, doc in docs.items() if CONCEPTS.search(doc.split("\n\n")[0])}
    assert not found, found


def test_a_listed_move_is_played_by_its_line_typed_as_shown_quoted_with_its_seat_and_its_count():
    """Found on a CLI walk: "stakes challenge declare Love Conquers All" (three arguments), "stakes play lay
    {AH|4H|8H}" for a move that lays two, and a player's line with no ``--as`` that, typed as shown, acted as
    the House."""
    import shlex

    from adapters.schemas import LegalAction
    from cli import tables

    declare = LegalAction(action="declare", field="characteristics", choices=["Love Conquers All"], max=5)
    assert tables._how(declare, "penny-ante") == "stakes challenge declare 'Love Conquers All'"
    assert shlex.split(tables._how(declare, "penny-ante"))[3] == "Love Conquers All"
    lay = LegalAction(action="lay", field="cards", choices=["AH", "4H", "8H"], min=2, max=2)
    assert tables._how(lay, "twenty-one") == "stakes play lay <2 of {AH|4H|8H}>"
    token = tables.ACTING_AS.set("tomas")
    try:
        assert tables._how(declare, "penny-ante").endswith(" --as tomas")
    finally:
        tables.ACTING_AS.reset(token)


def test_a_listed_move_of_flags_or_of_declared_ranges_is_played_by_its_line_as_shown():
    """Found on a CLI walk: Twenty-one's hold listed as "stakes play hold" (its choices name the flags to set), and
    a Beast antagonist's roll after its declared split with Willpower before listed without ``--willpower
    before`` (refused, C-9)."""
    from adapters.schemas import LegalAction
    from adapters.systems.beast.schemas import BeastAction
    from cli import tables

    hold = LegalAction(action="hold", choices=["set-aside", "draw"])
    assert tables._how(hold, "twenty-one") == "stakes play hold {--set-aside|--draw}"
    assert tables._how(LegalAction(action="hold", choices=["draw"]), "twenty-one") == "stakes play hold --draw"
    declared = BeastAction(action="roll", choices=[{"humanity": [4, 4], "beast": [5, 5], "willpower": ["before"]}])
    assert tables._how(declared, "beast") == "stakes conflict roll --humanity 4 --beast 5 --willpower before"
    free = BeastAction(action="roll", choices=[{"humanity": [0, 6], "beast": [0, 4], "willpower": [None, "before"]}])
    assert tables._how(free, "beast") == "stakes conflict roll --humanity <humanity> --beast <beast>"


def test_a_group_of_several_systems_commands_says_whose_each_one_is():
    """Found on a CLI walk: in a Pool campaign, ``stakes challenge --help`` listed Penny Ante's betting moves as if
    they were the Pool's."""
    from cli import main

    docs = {c.name: c.callback.__doc__ or "" for c in main.GROUPS["challenge"].registered_commands}
    assert docs["declare"].startswith("Penny Ante: ") and docs["raise"].startswith("Penny Ante: ")
    assert not docs["show"].startswith("Penny Ante")  # every system's
