"""Each rule system's web board, ``api/web/systems/<package>.py`` (issue 31, ADR 0031).

The shared web code is the frame: sign-in and joining (invites as a link and a QR code, reissues), navigation,
the live stream, whose turn it is, refusals, the House's rulings on a unit (undo, overturn, abandon: a collapsed
section under the board, ``_rulings.html``; the kernel's abandon move is in ``TableView.rulings``, never in
``moves``), the replay and verify panel, and posting a move (``/web/units/{id}/act``: the legal action's name as ``action``
plus its fields, validated by the same command class as over JSON) or a campaign command
(``/web/commands/{verb}``). It names no system's concepts. What a system's table and campaign *look like*
comes from its module's ``BOARD``, a :class:`WebBoard`:

- ``table(view)``: the unit's board, with a control for every legal move of the seat (:class:`TableView`);
- ``campaign(view)``: the campaign page's own part: sheets, books (registers, budgets), charts;
- ``unit_title(unit, names)``: how a unit is named in lists ("Ilse against Lady Sen");
- ``groups(view)``: the campaign commands the seat can use now, grouped by what they are for, the ones
  that start a unit first;
- ``command_form(command, view)``: a campaign command's form drawn by the board (None: from its schema);
- ``answer(verb, value, view)``: how a campaign command's answer is shown (it stays on the page across live
  refreshes until the seat's next command: ``keep-input.js``);
- ``command_controls(command, view)``: the controls inside a listed command's form, where the schema's own
  fields would not do (a mapping posts as pairs, ``forms.payload``);
- ``opens_table(verb)``: whether a command that answers a unit opens its table, or is answered on the page.

A board draws with Jinja templates of its own under ``api/web/templates/systems/<package>/`` (``render``)
and the shared control macros of ``_controls.html``. User text is escaped by the templates (autoescape); a
board that builds markup in Python uses ``markupsafe`` (``Markup.format`` escapes its arguments).

A system without a module (or with no ``BOARD``) is drawn by :class:`WebBoard` itself: every read drawn
generically and every move as a form built from its command's schema. The module is found through the
registry (``registry.edge_module``): no list here names a system.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any
from uuid import UUID

from markupsafe import Markup

from api.web import forms
from domain.kernel.commands import Command

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


@dataclass(frozen=True)
class Move:
    """One legal move of the seat, ready for a control: post ``action=name`` and its fields to the table."""

    name: str
    summary: str
    #: The legal action's limits (``min``, ``max``, ``step``, ``choices``, ``field`` …), nulls left out.
    limits: dict[str, Any]
    #: The move's form fields, from its command's schema and the limits.
    fields: list[forms.Field]
    command: type[Command]

    def field(self, name: str) -> forms.Field | None:
        return next((f for f in self.fields if f.name == name), None)


def ordinal(n: int) -> str:
    """1 -> "first", 2 -> "second" … 10 -> "tenth"; past ten, "11th", "12th" …"""
    words = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
    return words[n - 1] if 1 <= n <= len(words) else f"{n}th"


@dataclass(frozen=True)
class TableView:
    """A unit as the signed-in seat may see it (C-5), and what that seat may do now."""

    unit_id: UUID
    campaign_id: UUID
    kind: str
    phase: str
    #: The unit's state as the seat's read answers it (``ResolutionView.state``, or the system's own view).
    state: dict[str, Any]
    moves: list[Move]
    #: Seat -> the names of its moves now (the reader's own only; C-5).
    waiting: dict[str, list[str]]
    seat: str
    is_house: bool
    #: Seat -> the character's name ("house" -> "the House").
    names: dict[str, str]
    #: The character sheets the seat may read (its own among them, if it plays a character).
    sheets: list[dict[str, Any]] = field(default_factory=list)

    @property
    def own(self) -> dict[str, Any] | None:
        """The seat's own sheet, or None (the House keeps none)."""
        return next((s for s in self.sheets if s.get("seat") == self.seat), None)

    #: The kernel's rulings among the seat's legal moves (the House's ``abandon``, C-10): the frame draws them in
    #: its collapsed "Rulings" section under the board (``_rulings.html``), so they are not in ``moves`` and a
    #: board never draws them. The House may always abandon an open unit: it is not "your move" for that.
    rulings: list[Move] = field(default_factory=list)
    #: A step of the replay (``/web/units/{id}/replay/{step}``): the unit as it stood after that step, with no
    #: moves and no sheets (today's sheets are not the step's); a board leaves out what speaks of now ("nothing
    #: for you to do", links to the replay).
    replay: bool = False
    #: C-10: the House abandoned the unit (the kernel's ``Resolution.abandoned``): its title says so.
    abandoned: bool = False
    #: C-6: the House overturned (or voided) the unit's result (the kernel's ``Resolution.was_overturned``).
    overturned: bool = False
    #: C-10: the draw an abandoned unit recorded when it ended before it (the kernel's
    #: ``Resolution.would_have_drawn``), public to every seat: the board shows it (``abandoned_draw``).
    would_have_drawn: list[dict[str, Any]] = field(default_factory=list)
    #: C-10, C-4: the seats whose seed or pass the unit's first draw still waits for (the kernel's
    #: ``inputs_awaited``); the frame says so, so a seat with no move to draw yet knows whom it waits for.
    owing: list[str] = field(default_factory=list)
    #: ``owing`` side by side (the kernel's ``inputs_awaited_by_side``): any one seat of a side gives its input.
    owing_sides: list[list[str]] = field(default_factory=list)
    #: The system's reads the board's table draws from (``WebBoard.table_reads``), each as the seat may make it
    #: (C-5: a read answers each seat only what the rules let it see); a read the seat may not make is left out.
    books: list[Book] = field(default_factory=list)

    @property
    def your_turn(self) -> bool:
        """The table waits for this seat (a House that could only abandon is not waited for)."""
        return self.seat in self.waiting

    def move(self, name: str) -> Move | None:
        return next((m for m in self.moves if m.name == name), None)

    def ruling(self, name: str) -> Move | None:
        return next((m for m in self.rulings if m.name == name), None)

    def book(self, name: str) -> Any:
        return next((b.value for b in self.books if b.name == name), None)

    def name_of(self, seat: str) -> str:
        return self.names.get(seat, seat)

    @property
    def owing_words(self) -> str | None:
        """C-10: whose seed or pass the first draw still waits for, said to this seat when someone else's is
        awaited: "… until Tom Reyes has added seed words or passed, and you too"; a side any of whose seats gives
        it (several players on one side), "one of you or Tomas"."""
        groups = [g for g in (self.owing_sides or [[s] for s in self.owing]) if g]
        if not any(s != self.seat for g in groups for s in g):
            return None
        alone = [g[0] for g in groups if len(g) == 1 and g[0] != self.seat]
        parts = []
        if alone:
            names = [self.name_of(s) for s in alone]
            said = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
            parts.append(f"{said} {'has' if len(names) == 1 else 'have'} added seed words or passed")
        for g in (g for g in groups if len(g) > 1):
            who = " or ".join("you" if s == self.seat else self.name_of(s) for s in g)
            parts.append(f"one of {who} has added seed words or passed")
        you = ", and you too" if [self.seat] in groups else ""
        return "The first draw waits until " + ", and ".join(parts) + you + "."


@dataclass(frozen=True)
class CommandForm:
    """A campaign command this seat may send, as a form posted to ``/web/commands/{verb}``."""

    verb: str
    summary: str
    fields: list[forms.Field]
    command: type[Command]

    def field(self, name: str) -> forms.Field | None:
        return next((f for f in self.fields if f.name == name), None)


@dataclass(frozen=True)
class Book:
    """One of the system's campaign reads (a register, a budget …) the seat may make."""

    name: str
    label: str
    value: Any


@dataclass(frozen=True)
class CampaignView:
    campaign: dict[str, Any]
    seat: str
    is_house: bool
    names: dict[str, str]
    own: list[dict[str, Any]]
    others: list[dict[str, Any]]
    books: list[Book]
    #: Every unit (newest last, as ``GET …/challenges`` lists them) and the ones still open.
    units: list[dict[str, Any]]
    open: list[dict[str, Any]]
    #: The campaign commands the seat's seat kind may send (before a board picks those usable now).
    commands: list[CommandForm] = field(default_factory=list)

    def command(self, verb: str) -> CommandForm | None:
        return next((c for c in self.commands if c.verb == verb), None)

    def book(self, name: str) -> Any:
        return next((b.value for b in self.books if b.name == name), None)

    def name_of(self, seat: str) -> str:
        return self.names.get(seat, seat)


@dataclass(frozen=True)
class Group:
    """Campaign commands shown together under one heading; ``open``: shown unfolded."""

    label: str
    commands: list[CommandForm]
    open: bool = False


#: The kernel's own campaign commands and what they are for (shared: they belong to no system).
KERNEL_GROUPS = {"add-player": "Seats", "start-adventure": "Adventures", "end-adventure": "Adventures",
                 "rewind": "Rulings", "overturn": "Rulings", "abandon": "Rulings"}


#: The kernel's commands a form asks about before it sends them (``WebBoard.confirm``).
CONFIRMS = {"end-adventure": "End the adventure now, for every seat?"}


#: The rulings every system shares, one line each in a player's words, for the page of rulings the pages' codes
#: point to (``/web/rules``); a system's own are its board's ``rules``.
KERNEL_RULES = {
    "C-1": "A campaign plays one system, with one House and players, each playing one character; one adventure "
           "runs at a time, and each table is a unit with its own seeds, steps and replay.",
    "C-2": "Every change is a recorded event saying who made it and when (and why, for rulings and undos); "
           "nothing is edited or deleted.",
    "C-3": "Every random result is recorded where it was made; results drawn for real at the table may be typed "
           "in instead, and they are checked and marked as entered.",
    "C-4": "Provably fair: the server commits to a secret before anyone adds a seed; every result comes from the "
           "secret, the seeds and its slot; the secret is shown at the end, so anyone can check every result.",
    "C-5": "Hidden things stay hidden: only their owner sees them until they are revealed; once the table is "
           "settled everything is public.",
    "C-6": "The House may undo a table to an earlier step, or overturn a settled result, always with a reason; the "
           "history keeps both, and every sheet and register follows.",
    "C-7": "An undo is not a reroll: the same slot always draws the same result, so nobody fishes for better luck.",
    "C-8": "Once every seat has seen something, it stays shown, even after an undo, marked as seen before it.",
    "C-9": "The House, which can know the server's secret, never adds or changes an input to the draws once "
           "another seat's input is known; its later choices come before a fresh seed from the players.",
    "C-10": "A draw with inputs from several seats is made the moment the last input arrives: where each side "
            "draws by its own move, nobody's first draw comes before every other player has added seed words or "
            "passed. A table ended before its draw shows every seat what that draw would have been.",
}

#: The kernel's steps, in words (``WebBoard.step_words``; a system's ``step_phrases`` come first).
KERNEL_STEPS = {
    "SeedAdded": "{who} added a seed", "SeedPassed": "{who} passed: no seed", "FreshSeedAdded": "{who} added a fresh seed",
    "Rewound": "{who} undid the table back to step {to_step}", "Overturned": "{who} overturned the result",
    "Abandoned": "{who} abandoned the table", "DrawAbandoned": "The draw it would have made, recorded for every seat",
}


class WebBoard:
    """The generic board; a system's module subclasses it, overrides what it draws itself, and sets
    ``BOARD = TheBoard()``."""

    #: The system's package: its templates are under ``api/web/templates/systems/<package>/``.
    package: str = ""
    #: Whether the board has a script of its own, ``api/static/boards/<package>.js`` (base.html loads it).
    script: bool = False
    #: The names of the system's reads (``Read.name``) a unit's table draws from beside the unit and the sheets
    #: (``TableView.books``), made for the signed-in seat; none by default (each costs a read per drawing).
    table_reads: tuple[str, ...] = ()

    # -- drawing helpers ---------------------------------------------------------------------------------
    def render(self, template: str, **context: Any) -> Markup:
        """One of the system's own templates (``systems/<package>/<template>``) as markup."""
        from api.web.render import templates

        page = templates.env.get_template(f"systems/{self.package}/{template}")
        return Markup(page.render(**context))

    def shared(self, template: str, **context: Any) -> Markup:
        """A shared template (``_generic_table.html`` …) as markup."""
        from api.web.render import templates

        return Markup(templates.env.get_template(template).render(**context))

    # -- what a board draws --------------------------------------------------------------------------------
    def table(self, view: TableView) -> Markup:
        """The unit's board: its state and a control for each of the seat's moves."""
        return self.shared("_generic_table.html", t=view)

    def campaign(self, view: CampaignView) -> Markup:
        """The campaign page's system part: the seat's sheet, the others', the books."""
        return self.shared("_generic_campaign.html", c=view)

    def abandoned_draw(self, view: TableView) -> Markup:
        """C-10: the draw the unit would have made, recorded when the House ended it before that draw, for every
        seat to see. By default a line per side its slots name (in the slot's order), dice as numbers and a
        shuffle as ``draw_words`` says it (else its order); a board says it in its own words."""
        return self.shared("_abandoned_draw.html", lines=self.abandoned_lines(view))

    def abandoned_lines(self, view: TableView) -> list[tuple[str, str]]:
        """``(whose, values)`` for ``abandoned_draw``: a side's name (or "the table"), and its values."""
        found = view.state.get("sides")
        sides: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
        lines: dict[str, list[str]] = {}
        for record in view.would_have_drawn:
            side = next((str(part) for part in record.get("slot") or [] if isinstance(part, str) and part in sides),
                        None)
            order = record.get("order")
            value = (self.draw_words(order) or " ".join(map(str, order))) if isinstance(order, list) else \
                str(record.get("value"))
            lines.setdefault(self.side_name(view, side) if side else "the table", []).append(value)
        return [(whose, " ".join(values)) for whose, values in lines.items()]

    @staticmethod
    def side_name(view: TableView, side: str) -> str:
        """A side of the unit by the names of who plays it (its ``name``, else its seats' names)."""
        data = (view.state.get("sides") or {}).get(side)
        if isinstance(data, Mapping) and data.get("name"):
            return str(data["name"])
        seats = data.get("seats") if isinstance(data, Mapping) else None
        if isinstance(seats, list) and seats:
            return " and ".join(view.name_of(str(x)) for x in seats)
        return side

    def slot_words(self, slot: list[Any], sides: Mapping[str, str]) -> str | None:
        """Where a draw went, in the table's words, for the replay's verify panel (whose result it is and which of
        them, counted from 1), its slot as fairness.md derives from it being the item's title; None: the slot's
        parts, joined.
        ``sides``: each side by who plays it, and each seat by its character's name."""
        return None

    def draw_words(self, recorded: Any) -> str | None:
        """A recorded draw in the table's own words for the replay's verify panel, where the shared drawing (a
        die, a number, a list) would show the system's stored codes; None: the shared drawing does."""
        return None

    #: A system's own steps in words (``step_words``): ``{who}`` is the acting seat's name, ``{seat}`` the name of
    #: the seat the step records, any other ``{field}`` the step's own (as the seat may read it, C-5).
    step_phrases: dict[str, str] = {}

    #: The system's own rulings, code -> one line in a player's words, shown with the shared ones (``KERNEL_RULES``)
    #: on the page the codes in its pages point to (``/web/rules``).
    rules: dict[str, str] = {}

    def step_words(self, event: str, detail: dict[str, Any], actor: str, name_of: Callable[[str], str],
                   sides: Mapping[str, str] | None = None) -> str:
        """One step of a unit in words, for the House's undo list and every seat's replay (from what that seat may
        read of it, C-5): what happened and whose command stored it (a draw that another seat's input set off is
        stored by that seat's command, C-9: a system names whose it is). The system's ``step_phrases``, then the
        kernel's (``KERNEL_STEPS``), else the event's name and who. ``sides``: each side by who plays it
        (``side_name``), for a phrase's ``{side}``."""
        phrase = self.step_phrases.get(event) or KERNEL_STEPS.get(event)
        if phrase is not None:
            fields = {k: v for k, v in detail.items() if isinstance(v, str | int) and not isinstance(v, bool)}
            if isinstance(fields.get("seat"), str):
                fields["seat"] = name_of(str(fields["seat"]))
            if isinstance(fields.get("side"), str) and sides and fields["side"] in sides:
                fields["side"] = sides[str(fields["side"])]
            try:
                said = phrase.format_map({**fields, "who": name_of(actor)})
                return said[:1].upper() + said[1:]  # "The House …", not "the House …"
            except (KeyError, IndexError, ValueError):
                pass  # a field this seat may not read (C-5): the plain words below
        return f"{_CAMEL.sub(' ', event).capitalize()}, by {name_of(actor)}"

    #: A unit's phases in a player's words, where the phase's own name does not do (``phase_words``).
    phases: dict[str, str] = {}

    def phase_words(self, phase: str, abandoned: bool = False, overturned: bool = False) -> str:
        """A unit's phase as the table's title and the campaign's list of tables say it; an abandoned unit's
        (C-10) is "abandoned" and an overturned one's (C-6) "overturned", whatever its phase."""
        if abandoned or overturned:
            return "abandoned" if abandoned else "overturned"
        return self.phases.get(phase) or phase.replace("-", " ")

    def unit_title(self, unit: dict[str, Any], names: dict[str, str]) -> str:
        """A unit in a list, by the names of who takes part."""
        who = ", ".join(names.get(s, s) for s in unit.get("challenger") or [])
        against = ", ".join(names.get(s, s) for s in unit.get("opponent") or [])
        kind = str(unit.get("kind", "")).removeprefix(self.package.title().replace("_", ""))
        return f"{kind or 'Table'}: {who}" + (f" against {against}" if against else "")

    def usable(self, command: CommandForm, view: CampaignView) -> bool:
        """Whether the seat can use the command now (the kernel's own: an adventure to start or to end)."""
        running = bool(view.campaign.get("adventure_running"))
        if command.verb == "start-adventure":
            return not running
        if command.verb in ("end-adventure",):
            return running
        return command.verb not in ("rewind", "overturn", "abandon")  # made from a unit's own page

    def group_of(self, command: CommandForm) -> str:
        """The heading a command is listed under; a system's board names its own."""
        return KERNEL_GROUPS.get(command.verb, "Commands")

    def confirm(self, verb: str) -> str | None:
        """The question a command's form asks before it is sent (one tap must not end what cannot be taken
        back), or None. The kernel's own: ending an adventure. A board adds those of its own commands."""
        return CONFIRMS.get(verb)

    def command_controls(self, command: CommandForm, view: CampaignView) -> Markup:
        """The controls inside a command's form in its group, or empty markup for the form built from the
        command's schema (``_form.html``). A board draws those of its own commands that need real controls."""
        return Markup("")

    def opens_table(self, verb: str) -> bool:
        """Whether a command that answers a unit opens the unit's table (True), or is answered on the
        campaign page by ``answer`` (a one-shot roll whose result is all there is to see)."""
        return True

    def groups(self, view: CampaignView) -> list[Group]:
        """The commands the seat can use now, grouped; groups in the order their first command comes."""
        found: dict[str, list[CommandForm]] = {}
        for command in view.commands:
            if self.usable(command, view):
                found.setdefault(self.group_of(command), []).append(command)
        return [Group(label, commands) for label, commands in found.items()]

    def command_form(self, command: CommandForm, view: CampaignView) -> Markup | None:
        """A campaign command's form with the board's own controls (``_controls.html``'s ``command``), or
        None: the form built from the command's schema."""
        return None

    def answer(self, verb: str, value: Any, view: CampaignView) -> Markup:
        """What a campaign command answered, shown above the campaign."""
        return self.shared("_generic_answer.html", verb=verb, value=value)


GENERIC = WebBoard()


@cache
def of(system_id: str) -> WebBoard:
    """The web board of the system ``system_id`` (its module ``api/web/systems/<package>.py``, or where the
    system says: ``registry.edge_module``), or the generic one when it has none."""
    from domain.kernel.registry import edge_module, edge_module_name, rule_system

    system = rule_system(system_id)
    module = edge_module(system, "web")
    found = GENERIC if module is None else getattr(module, "BOARD", GENERIC)
    if not isinstance(found, WebBoard):
        raise TypeError(f"{edge_module_name(system, 'web')}.BOARD must be a WebBoard")
    return found
