"""The player's side of C-2: the CLI keeps the last signed head of each campaign it saw on a server, and on
every call checks that the server's log still extends it (an RFC 9162 consistency proof, signed by the key it
pinned the first time). A truncated, forked or rewritten log stops the CLI with exit code 10, and the two
signed heads that no proof joins are written to a file: portable proof, checkable by anyone with the key."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, Literal
from uuid import UUID

from pydantic import BaseModel, Field

from adapters import checkpoint, heads, merkle
from cli import config
from cli.errors import Tampered
from domain.errors import RuleViolation


def _evidence(campaign_id: UUID, held: checkpoint.Head, answer: Any) -> str:
    path = config.config_path().parent / f"evidence-{campaign_id}.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    now = datetime.now(UTC).isoformat()
    newer = answer.checkpoint.note if answer is not None else "(the server offered no head extending it)"
    path.write_text(f"# Stakes: two signed heads of one campaign that no consistency proof joins ({now})\n"
                    f"## held\n{held.note}\n## served\n{newer}\n")
    return str(path)


def check(remote: Any, campaign_id: UUID) -> None:
    """Raise Tampered unless the server's current head extends the one kept for this campaign; keep the new one."""
    saved = config.load()
    server = remote.server.rstrip("/")
    vkey = saved.server_keys.get(server) or remote.public_key().vkey  # pinned on first use
    origin = checkpoint.origin(vkey.split("+", 1)[0], campaign_id.hex)
    slot = f"{server} {campaign_id}"
    held = checkpoint.verify(saved.heads[slot], vkey, origin) if slot in saved.heads else None
    answer = None
    try:
        answer = remote.consistency(campaign_id, None, held.size if held else 0)
        new = heads.verify_extends(held, answer, vkey, origin)
    except (checkpoint.InvalidCheckpoint, RuleViolation) as exc:
        if held is None and isinstance(exc, RuleViolation):
            raise
        where = _evidence(campaign_id, held, answer) if held is not None else "nowhere"
        raise Tampered(f"the server's log of this campaign does not extend the signed head you kept "
                       f"({held.size if held else 0} events): it was truncated, forked or rewritten. {exc}. "
                       f"Both signed heads are in {where}", ruling="C-2") from None
    fresh = config.load()  # another command may have written the file meanwhile
    config.save(replace(fresh, heads={**fresh.heads, slot: new.note},
                        server_keys={**fresh.server_keys, server: vkey}))


# -- the held head, shown and compared (issue 29 item 11: split views are caught by players) -------------------

_PRINTABLE = {0x0A}


def _inert(text: str) -> str:
    """A note's text as shown in a table: control characters (terminal escapes) and bidi overrides shown as
    their code points, never obeyed. The note itself, under ``--note`` and in JSON, is left byte for byte."""
    return "".join(c if (c.isprintable() or ord(c) in _PRINTABLE) and not 0x202A <= ord(c) <= 0x202E
                   and not 0x2066 <= ord(c) <= 0x2069 else f"\\u{ord(c):04x}" for c in text)


class HeldHead(BaseModel):
    """The signed head this CLI holds for a campaign (C-2)."""

    campaign_id: UUID
    source: Literal["held", "fetched", "store"] = Field(description=(
        "held: the last head this CLI checked against the server, shown as kept; fetched: the server's "
        "current head, checked to extend the held one and kept (--fetch); store: embedded, the local "
        "store's own head (nothing is held for a store you hold)."))
    server: str | None
    origin: str
    size: int
    root: str
    note: str

class HeadComparison(BaseModel):
    """Two held heads of one campaign compared with an RFC 9162 consistency proof (C-2)."""

    campaign_id: UUID
    verdict: Literal["equal", "prefix", "fork"]
    detail: str
    shorter: Literal["mine", "other"] | None = None
    mine_size: int
    mine_root: str
    other_size: int
    other_root: str
    proof: list[str] = []
    evidence: str | None = None
    mine: str
    other: str


def _slot(remote: Any, campaign_id: UUID) -> tuple[str, str]:
    server = remote.server.rstrip("/")
    return server, f"{server} {campaign_id}"


def pinned_key(target: Any) -> str:
    """The key heads must be signed with: the one pinned for this server (the server's, on first use), or
    embedded the local store's own key."""
    if not target.remote:
        return target.backend.public_key().vkey
    server, _ = _slot(target.backend, target.campaign_id())
    return config.load().server_keys.get(server) or target.backend.public_key().vkey


def held_head(target: Any, fetch: bool = False) -> Any:
    """The head this CLI holds for the target's campaign, never replaced here unless ``fetch`` (then the
    server's current head is checked to extend it, as every command does, and kept). Embedded: the store's."""
    campaign_id = target.campaign_id()
    if not target.remote:
        head = target.backend.checkpoint(campaign_id, target.seat)
        return HeldHead(campaign_id=campaign_id, source="store", server=None, origin=head.origin, size=head.size,
                        root=head.root, note=head.note)
    server, slot = _slot(target.backend, campaign_id)
    if fetch:
        check(target.backend, campaign_id)
    saved = config.load()
    if slot not in saved.heads:
        from domain.errors import NotFound

        raise NotFound(f"this CLI holds no signed head of campaign {campaign_id} from {server} yet: "
                       "'stakes audit checkpoint --fetch' fetches the server's current head, checks it and keeps it",
                       ruling="C-2")
    vkey = saved.server_keys.get(server) or target.backend.public_key().vkey
    try:
        head = checkpoint.verify(saved.heads[slot], vkey, checkpoint.origin(vkey.split("+", 1)[0], campaign_id.hex))
    except checkpoint.InvalidCheckpoint as exc:
        from cli.errors import BadHead

        raise BadHead(f"the head kept in {config.config_path()} does not check: {exc}") from None
    import base64

    return HeldHead(campaign_id=campaign_id, source="fetched" if fetch else "held", server=server,
                    origin=head.origin, size=head.size, root=base64.b64encode(head.root).decode(), note=head.note)


#: A signed note is a few hundred bytes; a file given as one is read no further than this.
NOTE_MAX = 64 * 1024


def read_note(given: str) -> str:
    """A signed note given on the command line: '-' for stdin, the note's text itself, or a file holding it
    (or the JSON ``stakes audit checkpoint --format json`` prints)."""
    import json
    import sys
    from pathlib import Path

    from cli.errors import BadHead

    if "\n" in given:
        text = given
    else:
        try:
            if given == "-":
                raw = sys.stdin.buffer.read(NOTE_MAX + 1) if hasattr(sys.stdin, "buffer") else \
                    sys.stdin.read(NOTE_MAX + 1).encode()
            else:
                with Path(given).open("rb") as handle:
                    raw = handle.read(NOTE_MAX + 1)
            if len(raw) > NOTE_MAX:
                raise ValueError(f"more than {NOTE_MAX:,} bytes, far more than a signed note")
            text = raw.decode("utf-8")
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise BadHead(f"cannot read the head {given!r}: {exc}") from None
    if text.lstrip().startswith("{"):
        try:
            found = json.loads(text)
        except ValueError as exc:
            raise BadHead(f"{given!r} is neither a signed note nor the JSON of 'stakes audit checkpoint': {exc}") from None
        if not isinstance(found, dict) or not isinstance(found.get("note"), str):
            raise BadHead(f"{given!r} is JSON without a signed note in its 'note' field")
        text = found["note"]
    return text.replace("\r\n", "\n")


def _verified(note: str, whose: str, vkey: str, origin: str) -> checkpoint.Head:
    from cli.errors import BadHead

    try:
        return checkpoint.verify(note, vkey, origin)
    except checkpoint.InvalidCheckpoint as exc:
        why = str(exc)
        if why.startswith("not a checkpoint"):
            why = ("it is not a signed note (an origin line, a size line, a root line, a blank line, then "
                   f"signature lines: what 'stakes audit checkpoint --note' prints): {why}")
        raise BadHead(f"{whose} is not a head of this campaign signed by the key pinned for this server "
                      f"(embedded: the store's own key), {vkey}: {why}; nothing was compared") from None


def _fork_evidence(path: Any, campaign_id: UUID, detail: str, mine: checkpoint.Head, other: checkpoint.Head,
                   served: str | None) -> str:
    from pathlib import Path

    target = Path(path) if path else config.config_path().parent / f"fork-{campaign_id}.txt"
    target.parent.mkdir(parents=True, exist_ok=True)
    now = datetime.now(UTC).isoformat()
    target.write_text(f"# Stakes: two signed heads of one campaign that no consistency proof joins: the server "
                      f"showed two histories ({now})\n# {detail}\n"
                      f"## mine ({mine.size} events)\n{mine.note}\n## other ({other.size} events)\n{other.note}\n"
                      + (f"## served today for {max(mine.size, other.size)} events\n{served}\n" if served else ""))
    return str(target)


def compare(target: Any, mine_note: str, other_note: str, evidence: Any = None) -> Any:
    """Compare two players' held heads of one campaign: equal, one a prefix of the other (an RFC 9162 proof
    between their sizes, asked of the server or the store), or a fork. Both must be signed by the pinned key
    for this campaign. Returns the comparison; on a fork the evidence (both signed notes) is written first."""
    import base64

    campaign_id = target.campaign_id()
    vkey = pinned_key(target)
    origin = checkpoint.origin(vkey.split("+", 1)[0], campaign_id.hex)
    mine = _verified(mine_note, "your head", vkey, origin)
    other = _verified(other_note, "the other head", vkey, origin)
    small, large = (mine, other) if mine.size <= other.size else (other, mine)
    proof: list[str] = []
    served = None
    verdict: Literal["equal", "prefix", "fork"]
    if mine.size == other.size:
        verdict = "equal" if mine.root == other.root else "fork"
        detail = (f"both heads hold the same {mine.size} events" if verdict == "equal" else
                  f"two different roots at the same size ({mine.size} events)")
    else:
        try:
            answer = target.backend.consistency(campaign_id, target.seat, small.size, large.size)
        except RuleViolation as exc:
            if exc.ruling != "C-2":
                raise
            verdict, detail = "fork", f"the log cannot prove the {large.size}-event head extends the other: {exc.message}"
        else:
            proof = answer.proof
            served = answer.checkpoint.note
            joined = answer.first == small.size and answer.checkpoint.size == large.size and merkle.verify_consistency(
                small.size, large.size, small.root, large.root, [base64.b64decode(p) for p in proof])
            if joined:
                verdict = "prefix"
                detail = f"the head of {small.size} events is a prefix of the head of {large.size} events"
            else:
                verdict = "fork"
                detail = (f"no consistency proof joins the head of {small.size} events to the head of {large.size}: "
                          "the histories fork")
                if base64.b64decode(answer.checkpoint.root) != large.root:
                    detail += f" (the log today has another root at {large.size} events than the head held)"
    where = _fork_evidence(evidence, campaign_id, detail, mine, other, served) if verdict == "fork" else None
    b64 = base64.b64encode
    return HeadComparison(
        campaign_id=campaign_id, verdict=verdict, detail=detail,
        shorter=None if mine.size == other.size else ("mine" if mine is small else "other"),
        mine_size=mine.size, mine_root=b64(mine.root).decode(), other_size=other.size,
        other_root=b64(other.root).decode(), proof=proof, evidence=where, mine=mine.note, other=other.note)


def render_head(head: Any) -> Any:
    from rich import box
    from rich.table import Table
    from rich.text import Text

    said = {"held": "held by this CLI (the last head it checked; not replaced by this command)",
            "fetched": "fetched from the server now, checked to extend the one held, and kept",
            "store": "the local store's own head (embedded: nothing is held)"}[head.source]
    table = Table(title="Signed head", box=box.SIMPLE_HEAVY, title_justify="left", show_header=False)
    table.add_column("field")
    table.add_column("value", overflow="fold")
    for name, value in (("campaign", str(head.campaign_id)), ("which", said), ("server", head.server or "-"),
                        ("size", str(head.size)), ("root", head.root), ("signed note", head.note.rstrip("\n"))):
        table.add_row(name, Text(_inert(value)))
    return table


def render_comparison(result: Any) -> Any:
    from rich import box
    from rich.table import Table
    from rich.text import Text

    style = {"equal": "green", "prefix": "green", "fork": "bold red"}[result.verdict]
    table = Table(title=f"Held heads of campaign {result.campaign_id}", box=box.SIMPLE_HEAVY,
                  title_justify="left", show_header=False)
    table.add_column("field")
    table.add_column("value", overflow="fold")
    table.add_row("verdict", Text(result.verdict.upper(), style=style))
    table.add_row("detail", Text(_inert(result.detail)))
    table.add_row("mine", Text(f"{result.mine_size} events, root {result.mine_root}"))
    table.add_row("other", Text(f"{result.other_size} events, root {_inert(result.other_root)}"))
    if result.evidence:
        table.add_row("evidence", Text(_inert(result.evidence)))
    return table
