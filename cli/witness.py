"""The player's side of C-2: the CLI keeps the last signed head of each campaign it saw on a server, and on
every call checks that the server's log still extends it (an RFC 9162 consistency proof, signed by the key it
pinned the first time). A truncated, forked or rewritten log stops the CLI with exit code 10, and the two
signed heads that no proof joins are written to a file: portable proof, checkable by anyone with the key."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from adapters import checkpoint, heads
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
        new = heads.check_extends(held, answer, vkey, origin)
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
