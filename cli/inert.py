"""Every user text is inert in the CLI (issue 29, item 3): the one place that makes what players typed safe
to show in a terminal.

Names, characteristics, traits, notes, reasons, circumstances, seeds and every other text a seat typed reach
the CLI inside the views the store or the server answers. Two things could make such a text act instead of
being shown:

- **rich markup.** ``[/bold]`` crashed a table with a MarkupError, ``[link=…]`` drew a live hyperlink and
  ``[reverse]…`` styled text. The consoles (``cli/tables.py``) therefore read *no* string as markup and
  replace no ``:emoji:`` code: every string is shown as typed. The CLI's own styling is written with
  :func:`styled`, whose template is ours and whose arguments are escaped, so markup only ever comes from
  the CLI's source code.
- **the terminal itself.** ESC starts colour codes, cursor moves and OSC 8 hyperlinks; other C0/C1 controls
  move the cursor or clear the line; bidi overrides and isolates (U+202A-U+202E, U+2066-U+2069) and other
  invisible format characters reorder or hide text (``audit: intact`` written backwards). :func:`neutralise`
  shows each as its Python escape (``\\x1b``, ``\\u202e``), so it is seen rather than obeyed. A newline is
  kept only in the long texts where lines are wanted (:data:`LINES`); elsewhere it is shown as ``\\n``, so a
  name cannot start a forged line of its own.

:func:`inert` applies both to a whole view before any renderer sees it (``cli/tables.py:show``), so every
table, panel and line of every system, embedded and against a server, gets it without a renderer having to
remember. ``--format json`` needs none of this: ``json.dumps`` (ASCII only) escapes every control, bidi
and non-ASCII character, and keeps the text exact. This module imports no rich, so a JSON command stays
fast (ADR 0013).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from pydantic import BaseModel

#: Fields (and keys) whose text may run over several lines: a note, a description, a reason.
LINES = frozenset({"text", "note", "notes", "description", "reason", "detail"})

#: Categories shown escaped: controls, invisible format characters (bidi overrides and isolates, zero-width
#: spaces, tag characters), line and paragraph separators, and lone surrogates (which cannot even be printed).
_SHOWN = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
#: The zero-width joiner builds emoji sequences and reorders nothing.
_ALLOWED = frozenset({"\u200d"})
_SUSPECT = re.compile(r"[^\x20-\x7e]")
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _visible(ch: str) -> str:
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def neutralise(text: str, lines: bool = False) -> str:
    """``text`` with every terminal control, bidi override or isolate and invisible format character shown
    as its escape (``\\x1b``, ``\\u202e``); newlines kept when ``lines``. Plain text comes back unchanged."""
    if text.isascii() and text.isprintable():
        return text

    def shown(match: re.Match[str]) -> str:
        ch = match.group()
        if ch == "\n" and lines:
            return ch
        if ch in _ALLOWED or unicodedata.category(ch) not in _SHOWN:
            return ch
        return _visible(ch)

    return _SUSPECT.sub(shown, text)


def inert(value: Any, lines: bool = False) -> Any:
    """``value`` (a view, a list of views, a mapping …) with every text in it neutralised, keys included;
    the same types, so every renderer reads it as before. Enum members are the program's words, kept."""
    if type(value) is str:
        return neutralise(value, lines)
    if isinstance(value, BaseModel):
        fields = {name: inert(getattr(value, name), name in LINES) for name in type(value).model_fields}
        return type(value).model_construct(_fields_set=value.model_fields_set, **fields)
    if isinstance(value, dict):
        return {inert(k): inert(v, isinstance(k, str) and k in LINES) for k, v in value.items()}
    if isinstance(value, list):
        return [inert(v, lines) for v in value]
    if isinstance(value, tuple):
        items = [inert(v, lines) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)  # a named tuple keeps its type
    if isinstance(value, (set, frozenset)):
        return type(value)(inert(v, lines) for v in value)
    return value  # numbers, dates, ids, and str-valued Enum members (the program's own words)


def styled(template: str, *args: Any) -> Any:
    """The CLI's own styling around user text: ``styled("[bold]{}[/] ({})", name, system)``. The template is
    rich markup written in this program; each argument is neutralised and escaped, so it shows as typed.
    Returns a rich ``Text``."""
    from rich.markup import escape
    from rich.text import Text

    return Text.from_markup(template.format(*(escape(neutralise(str(a))) for a in args)), emoji=False)
