"""Signed heads of a campaign's log, and the proofs that one head extends another (C-2).

The server signs ``(size, Merkle root)`` of a campaign's chain as a C2SP checkpoint; a player keeps the last
one he saw and asks for an RFC 9162 consistency proof from its size to the current head. A log that was
truncated, forked or rewritten cannot produce one; two signed heads that no proof joins are portable proof.
"""

from __future__ import annotations

import base64
from typing import Any
from uuid import UUID

from adapters import checkpoint, merkle, schemas
from domain.errors import RuleViolation
from domain.seats import Seat


def _signed(stakes: Any, campaign_id: UUID, size: int, root: bytes) -> schemas.Checkpoint:
    origin = checkpoint.origin(stakes.settings.log_name, campaign_id.hex)
    note = stakes.signer.sign(origin, size, root)
    return schemas.Checkpoint(origin=origin, size=size, root=base64.b64encode(root).decode(), note=note)


def current(stakes: Any, campaign_id: UUID) -> schemas.Checkpoint:
    """The campaign's head now, signed (no seat check: callers have made it). One read: the last link keeps
    the tree's compact range and root, so every command can answer with its head."""
    return _signed(stakes, campaign_id, *stakes.app.recorder.head(campaign_id.hex))


def after_command(stakes: Any, campaign_id: UUID) -> schemas.Checkpoint:
    """The signed head a command answers with: the one the transaction that stored it computed (its events
    and every earlier one; no read), else (it stored nothing in this campaign: a retry) the head now."""
    written = stakes.written_head(campaign_id)
    return current(stakes, campaign_id) if written is None else _signed(stakes, campaign_id, *written)


def consistency(stakes: Any, campaign_id: UUID, first: int, second: int | None = None) -> schemas.Consistency:
    """Proof that the log of ``second`` events (today's whole log by default) extends the head of ``first``
    events a player holds: two players compare heads of any sizes this way (``stakes audit compare``). The
    answer's checkpoint is the signed head of exactly the first ``second`` events."""
    from adapters import audit  # here and below: a client that only checks heads (cli.witness) loads less

    digests = stakes.app.recorder.leaves(campaign_id.hex)
    size = len(digests) if second is None else second
    if size > len(digests):
        raise RuleViolation(f"the log of this campaign holds {len(digests)} events, so it cannot extend a head "
                            f"of {size}: keep the head you hold, it proves the log was cut", ruling="C-2")
    if not 0 <= first <= size:
        raise RuleViolation(f"a head of {first} events cannot extend one of {size}: ask with the smaller size "
                            "first" if second is not None else
                            f"the log of this campaign holds {len(digests)} events, so it cannot extend a head "
                            f"of {first}: keep the head you hold, it proves the log was cut", ruling="C-2")
    tree = audit.leaves(digests[:size])
    proof = merkle.consistency_proof(first, tree) if first else []
    return schemas.Consistency(first=first, checkpoint=_signed(stakes, campaign_id, len(tree), merkle.root(tree)),
                               proof=[base64.b64encode(p).decode() for p in proof])


def leaves(stakes: Any, campaign_id: UUID, viewer: Seat) -> schemas.Leaves:
    """Every leaf of the campaign's tree, opened (its JSON and salt) where the viewer may read the whole
    event and only the digest elsewhere (C-5), with the signed head of exactly these leaves."""
    from adapters import audit, ledger

    rows = stakes.app.recorder.read_chain(campaign_id.hex, snapshots=False)["linked"]
    log = {r["notification_id"]: r for r in stakes.views.query(
        "SELECT l.*, c.revealed, c.phase FROM {p}event_log l LEFT JOIN {p}challenges c"
        " ON c.challenge_id = l.challenge_id WHERE l.campaign_id = ?", (campaign_id.hex,))}
    out = []
    for row in rows:
        entry = log.get(row["notification_id"])
        shown = entry is not None and row["e_state"] is not None and ledger.fully_visible(entry, viewer)
        out.append(schemas.Leaf(position=row["position"], digest=row["digest"], **({
            "originator_id": UUID(str(row["e_oid"])).hex, "originator_version": row["e_version"],
            # a state changed in the database may not even be text: shown replaced, its digest then fails the check
            "topic": row["e_topic"], "state": bytes(row["e_state"]).decode(errors="replace"), "salt": row["salt"]}
            if shown else {})))
    tree = audit.leaves([r["digest"] for r in rows])
    return schemas.Leaves(checkpoint=_signed(stakes, campaign_id, len(tree), merkle.root(tree)), leaves=out)


def verify_leaves(answer: schemas.Leaves, vkey: str, origin: str) -> checkpoint.Head:
    """The seat's check: every opened leaf hashes to its digest, and the digests make the signed root."""
    from adapters import audit

    head = checkpoint.verify(answer.checkpoint.note, vkey, origin)
    for leaf in answer.leaves:
        if leaf.state is not None and audit.digest(str(leaf.originator_id), leaf.originator_version or 0,
                                                   leaf.topic or "", leaf.state.encode(), leaf.salt or "") != leaf.digest:
            raise checkpoint.InvalidCheckpoint(f"event {leaf.position} does not hash to its digest (C-2)")
    if head.size != len(answer.leaves) or merkle.root(audit.leaves([x.digest for x in answer.leaves])) != head.root:
        raise checkpoint.InvalidCheckpoint("the leaves do not make the signed root (C-2)")
    return head


def public_key(stakes: Any) -> schemas.PublicKey:
    from cryptography.hazmat.primitives import serialization

    signer = stakes.signer
    pem = signer.key.public_key().public_bytes(serialization.Encoding.PEM,
                                               serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    return schemas.PublicKey(name=signer.name, vkey=signer.vkey, public_key_pem=pem)


def verify_extends(held: checkpoint.Head | None, answer: schemas.Consistency, vkey: str,
                   origin: str) -> checkpoint.Head:
    """The client's check: the new head is signed by ``vkey`` for ``origin`` and extends the held one.
    Raises InvalidCheckpoint otherwise; returns the new head to keep."""
    new = checkpoint.verify(answer.checkpoint.note, vkey, origin)
    if held is None:
        return new
    proof = [base64.b64decode(p) for p in answer.proof]
    if answer.first != held.size or not merkle.verify_consistency(held.size, new.size, held.root, new.root, proof):
        raise checkpoint.InvalidCheckpoint(
            f"the log no longer extends the head you hold ({held.size} events): it was truncated, forked or "
            "rewritten (C-2)")
    return new
