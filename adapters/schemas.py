"""Read-model schemas: what every view returns, over HTTP and in the CLI alike.

They are separate from the domain classes; the API uses them as response
models and the CLI's HTTP client parses server answers back into them. A
system's own schemas are in its adapter module (``adapters/systems/<package>``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, TypeVar
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field


class SeatRef(BaseModel):
    seat: str
    character: str
    character_id: UUID | None = Field(default=None, description=(
        "The character's own stream: the log names it `<kind>:<id as 32 hex digits>`."))


class Invitation(BaseModel):
    """Whose seat an unclaimed invite opens (the sign-in page says it before the player takes the seat)."""

    campaign: str
    character: str


#: What every face calls the House's seat (names, not handles).
HOUSE_NAME = "the House"


class CampaignView(BaseModel):
    id: UUID
    name: str
    system: str
    settings: dict[str, Any]
    created_at: datetime
    adventure: int = Field(description="Number of the current or last adventure (0: none yet).")
    adventure_running: bool
    players: list[SeatRef]

    def names(self) -> dict[str, str]:
        """Seat -> the name the table knows it by: its character's, or "the House" (names, not handles)."""
        return {"house": HOUSE_NAME, **{p.seat: p.character for p in self.players if p.character}}

    def characters(self) -> dict[str, str]:
        """A player character's stream id (32 hex digits, as the log's streams end) -> its name."""
        return {p.character_id.hex: p.character for p in self.players if p.character_id and p.character}


class CampaignCreated(BaseModel):
    campaign: CampaignView
    house_token: str | None = Field(description=(
        "The House seat's bearer token. Shown once, to the request that created the campaign; store it. A "
        "creation sent again under the same Idempotency-Key answers null here and says why in `note` "
        "(issue 29, ADR 0028)."))
    note: str | None = Field(default=None, description=(
        "Only when `house_token` is null: why, and what the creator can do (create a new campaign)."))


class Session(BaseModel):
    campaign_id: UUID
    seat: str
    system: str | None = Field(default=None, description="The campaign's rule system (C-1; it never changes): a "
                               "client learns it here, with no request of its own (issue 30).")


class PlayerAdded(BaseModel):
    """A seated player's sheet (its schema is the campaign's system's, told by ``sheet.system``) and token."""

    sheet: Any
    invite: str = Field(description="A one-time invite code for the player: he claims his seat with it "
                                    "(``POST /invites`` or ``stakes claim CODE``) and alone receives his token. "
                                    "The House never holds a player's token.")


class LogEntry(BaseModel):
    position: int
    at: datetime
    actor: str
    stream: str
    event: str
    detail: dict[str, Any]
    hidden: list[str] = Field(description="Fields withheld from this seat (C-5).")


class EventLog(BaseModel):
    campaign_id: UUID
    entries: list[LogEntry]
    next_after: int | None = Field(description="Pass as ?after= to read the next page; null at the end.")


class Commitment(BaseModel):
    seat: str
    nonce: int = Field(description="Numbers the seat's commitments: the next one-shot draw uses this one (C-10).")
    seed_hash: str = Field(description="SHA-256 of the seat's next secret; the secret stays hidden until used.")
    position: int = Field(description="The log position where this hash was published.")


class Commitments(BaseModel):
    campaign_id: UUID
    seats: list[Commitment] = Field(description="Each seat's current commitment (C-10), in the order seated.")


class RebuildReport(BaseModel):
    events: int
    position: int


WAITING_FOR = "The seats the table waits for: those of its sides with a move to make now (empty once settled)."


class LegalAction(BaseModel):
    """One move the viewing seat may make now, with its limits: the fields every system shares (issue 30,
    ADR 0033). A system whose moves carry limits of their own subclasses it in its adapter module (its
    ``LegalAction`` there) and types its units' views with it, so the OpenAPI describes each system's own
    fields and no field is shared that only one system fills. A field no class declares is refused
    (``extra="forbid"``): a system cannot list a limit its schema does not describe."""

    model_config = ConfigDict(extra="forbid")

    action: str
    min: int | None = None
    max: int | None = None
    step: int | None = None
    choices: list[Any] | None = Field(None, description="The values this move may take: of the body field named "
                                                      "by `field` (several for a list field, within `min`/`max`). "
                                                      "Without `field`, the system's own schema says what they "
                                                      "are (each field's range as an object; names of flags).")
    field: str | None = Field(None, description="The body field `choices` fill; or, for a move with several "
                                                "numbers, the one `min`/`max` bound (each value of a map field).")
    required: list[Any] | None = Field(None, description="What this move must repeat after a rewind (C-7), or the "
                                                      "body fields it must include (the kernel's `abandon`: its "
                                                      "`reason`, C-10).")
    fixed: list[Any] | None = Field(None, description="Table entries a rewind fixed (C-7): one value or null per "
                                                    "entry to make, or the system's own shape (its schema says).")
    fresh: bool | None = Field(None, description="A `seed` owed after the House's choices (C-9, C-10): the draw "
                                                 "they lead to waits for it and is made with it; it has text (no "
                                                 "pass), best drawn at random by the player's own client.")


L = TypeVar("L", bound=LegalAction)


def limits(model: type[LegalAction]) -> frozenset[str]:
    """A legal action's own limits (its class's fields but the move's name, choices and field): a command field
    of one of these names is never the field its choices fill."""
    return frozenset(model.model_fields) - {"action", "choices", "field"}


#: The limits every system's legal actions share (a system's own class adds its own: ``limits``).
LIMITS = limits(LegalAction)


def with_choice_fields(legal: Sequence[L], action_class: Any) -> list[L]:
    """Each legal action that has ``choices`` with the body field they fill (``Command.choice_field``);
    ``action_class(name)``: the command class of the unit's action ``name``, or None."""
    out = []
    for a in legal:
        cls = action_class(a.action) if a.choices is not None and a.field is None else None
        field = cls.choice_field(a.choices, limits(type(a))) if cls is not None else None
        out.append(a.model_copy(update={"field": field}) if field else a)
    return out


class ChallengeSummary(BaseModel):
    id: UUID
    position: int = Field(description="Its announcement's place in the log; pass the last one as `after` for the"
                                      " next page.")
    kind: str = Field(description="The unit's kind, as its system names it.")
    phase: str
    announced_at: datetime
    summary: dict[str, Any] = Field(default_factory=dict, description=(
        "The unit's own figures, named as its system names them (each system's adapter declares them: "
        "`Projection.summarises`); empty for a system that shows none."))
    challenger: list[str]
    opponent: list[str]
    sides: list[list[str]] = Field(default_factory=list, description=(
        "Every side's seats, in order: ``challenger`` and ``opponent`` are the first two (a Twenty-one conflict "
        "has a side a seat)."))


class Verification(BaseModel):
    challenge_id: UUID
    verifiable: bool
    reason: str | None = None
    commitment_matches: bool | None = None
    checked: int
    entered: int
    mismatches: list[dict[str, Any]]
    secret_seed: str | None = None
    side_seeds: list[str] | None = None
    results: list[dict[str, Any]] | None = Field(None, description="Once revealed, every result with its slot, "
                                                 "so a client can derive it again itself (C-4, C-7).")


class Waiting(BaseModel):
    challenge_id: UUID
    seats: dict[str, list[str]] = Field(description="Each seat that may act now; the names of its moves for "
                                              "the reader's own seat only, empty for another seat (C-5).")


class ReplayStep(BaseModel):
    step: int = Field(description="The challenge's version after this event (1: the announcement).")
    event: str
    actor: str
    at: datetime
    detail: dict[str, Any]
    hidden: list[str] = Field(description="Fields withheld from this seat (C-5); ['*'] for a hidden entry.")
    changes: list[str] = Field(description="Which parts of the state this step changed.")
    state: dict[str, Any] = Field(description="The whole challenge after this step, as this seat may see it.")
    rewindable: bool | None = Field(None, description="The House's replay only: whether an undo to this step "
                                                      "(`rewind` with `to_step`) is accepted now by the unit's rules "
                                                      "(C-6: not the last step, not inside one move, not a settled "
                                                      "unit …); null for the other seats.")


class Replay(BaseModel):
    challenge_id: UUID
    kind: str = Field("", description="The unit's kind, as the challenge list names it (PoolRoll, Conflict …).")
    revealed: bool = Field(description="True once the challenge was revealed: every hidden value is shown.")
    total: int
    steps: list[ReplayStep]


class BrokenLink(BaseModel):
    position: int = Field(description="The event's place in the campaign's chain (1 is the first).")
    notification_id: int | None
    kind: str = Field(description="altered, deleted, reordered, chain-altered, unchained, snapshot-altered or "
                                  "read-model-altered (position 0: a row of the read models, not an event)")
    detail: str


class ReadModelDifference(BaseModel):
    """Rows of one read-model table that differ from what the campaign's events project to (issue 29). The
    House is told each row: its key and the columns found and expected. Any other seat is told only the
    table, the kind and how many rows, since a row may hold what only another seat may see (C-5)."""

    table: str
    kind: str = Field(description="altered (same key, other values), missing (the events make a row the table "
                                  "lacks) or foreign (a row no event made)")
    rows: int = Field(description="How many rows of the table differ this way (1 for each row shown to the House).")
    key: dict[str, Any] | None = Field(None, description="The row's primary key (House only).")
    columns: list[str] = Field(default_factory=list, description="The columns that differ (House only).")
    found: dict[str, Any] | None = Field(None, description="What the table holds (House only).")
    expected: dict[str, Any] | None = Field(None, description="What the events make of it (House only).")


class AuditReport(BaseModel):
    campaign_id: UUID
    events: int
    head: str = Field(description="The last link of the chain; keep it to check later exports against.")
    root: str | None = Field(None, description="The RFC 9162 Merkle tree hash of the campaign's log (hex), as "
                                               "its signed checkpoint states it.")
    intact: bool
    first_broken: BrokenLink | None
    read_models: str = Field("not checked", description="intact: every projected row of the campaign equals what "
                             "its events project to; altered: some differ (read_model_differences); not checked: "
                             "the log itself is broken, so its events cannot vouch for any row.")
    read_model_rows: int = Field(0, description="How many rows of the campaign's read models differ in all.")
    read_model_differences: list[ReadModelDifference] = Field(
        default_factory=list, description="The rows that differ (the House: the first 50 rows; another seat: "
                                          "each table and kind, counted).")


class Checkpoint(BaseModel):
    """A signed head of the campaign's log (C2SP tlog-checkpoint): keep it, and check later ones extend it."""

    origin: str
    size: int = Field(description="How many events the log holds.")
    root: str = Field(description="Base64 RFC 9162 Merkle tree hash of those events.")
    note: str = Field(description="The signed note: origin, size and root lines, a blank line, the signature.")


class Consistency(BaseModel):
    """RFC 9162 consistency proof that the log at ``checkpoint`` extends the log of ``first`` events."""

    first: int
    checkpoint: Checkpoint
    proof: list[str] = Field(description="Base64 node hashes, in RFC 9162 order.")


class Leaf(BaseModel):
    """One event of the log as a seat may check it: its digest always; its stored JSON and salt only when
    nothing in it is hidden from this seat (C-5), so the seat can recompute the digest itself."""

    position: int
    digest: str
    originator_id: str | None = None
    originator_version: int | None = None
    topic: str | None = None
    state: str | None = None
    salt: str | None = None


class Leaves(BaseModel):
    """Every leaf of the campaign's tree with the signed head they make: a seat recomputes the root."""

    checkpoint: Checkpoint
    leaves: list[Leaf]


class PublicKey(BaseModel):
    name: str
    vkey: str = Field(description="The verifier key: <name>+<hex key id>+<base64 0x01 || Ed25519 public key>.")
    public_key_pem: str


class ImportReport(BaseModel):
    campaign_id: UUID = Field(description="The new campaign's id (an import never keeps the exported ids).")
    imported_from: UUID = Field(description="The campaign id in the export.")
    events: int
    head: str = Field(description="The export's chain head, verified on the way in.")
    house_token: str = Field(description="The House seat's bearer token. Shown once; store it.")
    invites: dict[str, str] = Field(description="One-time invite codes per player seat; the old tokens are not "
                                                "imported, and the House never holds a player's token.")


class InviteClaim(BaseModel):
    code: str = Field(max_length=200, description="The one-time invite code the House handed over.")


class SeatClaimed(BaseModel):
    campaign_id: UUID
    seat: str
    token: str = Field(description="Your seat's bearer token. Shown once, to you alone; store it.")
    system: str | None = Field(default=None, description="The campaign's rule system (C-1; it never changes): a "
                               "client learns it here, with no request of its own (issue 30).")


class ResolutionView(BaseModel):
    """A unit of resolution as the viewing seat sees it: its state, shaped by its system, and what the seat may do."""

    id: UUID
    campaign_id: UUID
    kind: str
    phase: str
    state: dict[str, Any]
    #: A system's view narrows it to its own ``LegalAction`` subclass (a read-only sequence, so a subclass may).
    legal_actions: Sequence[LegalAction]
    waiting_for: list[str] = Field(default_factory=list, description=WAITING_FOR)
