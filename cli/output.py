"""One output sink: rich tables for people, ``--format json`` for scripts; errors to stderr.

The tables and everything rich draws live in ``cli/tables.py``, loaded the first time a table is drawn, so a
command under ``--format json`` never imports rich (issue 14: a CLI that starts fast). The renderers are named
here as ``output.sheet``, ``output.log`` …: each stands for the one in ``cli/tables.py`` (or a system's own,
``output.named``) and loads it only when it draws.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from pydantic import BaseModel

from cli.options import Format

Renderer = Callable[[Any], Any]


def emit(value: BaseModel | Sequence[BaseModel], fmt: Format, render: Renderer | None = None) -> None:
    if fmt is Format.json:
        data = [v.model_dump(mode="json") for v in value] if isinstance(value, (list, tuple)) else value.model_dump(mode="json")  # type: ignore[union-attr]
        print(json.dumps(data, indent=2))
        return
    from cli import tables

    tables.show(value, render)


def _drawn_by(name: str) -> Callable[..., Any]:
    def render(*args: Any) -> Any:
        from cli import tables

        return getattr(tables, name)(*args)

    render.__name__ = render.__qualname__ = name
    return render


def named(read: str) -> Renderer:
    """A system's own renderer of the read ``read`` (``cli/systems/<package>.py``), else the generic one."""
    def render(value: Any) -> Any:
        from cli import tables

        return (tables.renderers().get(read) or tables.render)(value)

    return render


campaign, campaigns, created, claimed, session = map(_drawn_by, ("campaign", "campaigns", "created", "claimed",
                                                                 "session"))
sheet, sheets, render, resolution, adventure = map(_drawn_by, ("sheet", "sheets", "render", "resolution",
                                                               "adventure"))
player_added, challenges, token_notice = map(_drawn_by, ("player_added", "challenges", "token_notice"))
log, replay, replay_step, verification = map(_drawn_by, ("log", "replay", "replay_step", "verification"))
audit_report, imported, rebuilt = map(_drawn_by, ("audit_report", "imported", "rebuilt"))
chart = _drawn_by("chart")  # the campaign chart (issue 31)
luck = _drawn_by("luck")  # the luck report (issue 31)


@contextmanager
def progress_bar(label: str, fmt: Format) -> Iterator[Callable[[int, int], None] | None]:
    """A rich progress bar on a terminal; nothing at all in --format json mode."""
    if fmt is Format.json:
        yield None
        return
    from cli import tables

    with tables.progress_bar(label, fmt) as bar:
        yield bar


def __getattr__(name: str) -> Any:
    """The consoles (``out``, ``err``) and the rest of ``cli/tables.py``, loaded on first use."""
    from cli import tables

    try:
        return getattr(tables, name)
    except AttributeError:
        raise AttributeError(f"module 'cli.output' has no attribute {name!r}") from None
