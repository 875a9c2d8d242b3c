"""Import is a command, not a side door (C-2): an export loaded into this store as a new campaign.

What an import must pass before anything is stored:

* a credential (checked by the edge: the operator token of ``STAKES_OPERATOR_TOKEN``; the embedded CLI is
  the operator, since it holds the store itself);
* a size limit (``STAKES_IMPORT_MAX_BYTES``, counted while the lines are read, so a huge body is refused
  without being held) and a depth limit (``MAX_DEPTH`` levels of JSON nesting, in a line and in a state);
* the export's own hash chain (C-2), then that every event belongs to the export's campaign;
* value checks: every number fits what a command accepts (no command records more than
  ``domain.bounds.MAXIMUM``, C-2), every text fits, so the read models never receive an unstorable value;
* a replay in memory of every aggregate (an event that does not apply never reaches the store).

The campaign gets a new id, and every stream a new one: derived ids (a character, the House, an
antagonist, a command's record) are derived again by the aggregate's own ``create_id`` from the new
campaign id, so an import can neither collide with nor reserve another campaign's ids. Events are inserted
in chunks of ``CHUNK`` (psycopg's pipeline does not take one huge insert).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.utils import resolve_topic

from adapters import audit as chain
from adapters import schemas
from domain.bounds import MAXIMUM
from domain.errors import RuleViolation
from domain.kernel.record import NO_CAMPAIGN

#: Events per insert (psycopg's pipeline deadlocks on one huge ``insert_events``).
CHUNK = 5_000
#: A salt as Stakes draws it (``secrets.token_hex(16)``); the store keeps it as 16 bytes.
SALT = re.compile(r"[0-9a-f]{32}")
#: Levels of JSON nesting a line, or an event's state, may have.
MAX_DEPTH = 64
#: The longest text an imported event may hold (no command takes more than a few hundred characters).
MAX_TEXT = 10_000
#: Fields of a created event's state that are not the aggregate's own arguments.
_META = ("originator_topic", "timestamp")


class TooLarge(RuleViolation):
    """The import is larger than this server takes (HTTP 413)."""


def bounded_lines(chunks: Iterable[bytes], limit: int) -> Iterator[str]:
    """The text lines of ``chunks``, refusing as soon as more than ``limit`` bytes have arrived."""
    seen, rest = 0, b""
    for chunk in chunks:
        seen += len(chunk)
        if seen > limit:
            raise TooLarge(f"an import is at most {limit:,} bytes (STAKES_IMPORT_MAX_BYTES); nothing was imported",
                           ruling="C-2")
        *lines, rest = (rest + chunk).split(b"\n")
        for line in lines:
            yield line.decode("utf-8", errors="replace")
    if rest:
        yield rest.decode("utf-8", errors="replace")


def import_campaign(stakes: Any, lines: Iterable[str], issue: Callable[[UUID, list[str]], dict[str, str]],
                    progress: Callable[[int, int], None] | None = None) -> schemas.ImportReport:
    """Load an exported campaign as a new campaign; ``issue`` hands out the new seats' credentials."""
    limit = stakes.settings.import_max_bytes
    header, events = _read_export(_bounded(lines, limit))
    campaign_id = UUID(header["campaign_id"])
    previous, stored = chain.GENESIS, []
    streams: dict[Any, Any] = {}
    for i, line in enumerate(events, 1):
        state = line["state"].encode()
        d = chain.digest(line["originator_id"], line["originator_version"], line["topic"], state, line["salt"])
        previous = chain.link(previous, d)
        if line.get("position") != i or d != line["digest"] or previous != line["chain"]:
            raise RuleViolation(f"the export's chain breaks at event {i}; nothing was imported", ruling="C-2")
        if not line["topic"].startswith("domain."):
            raise RuleViolation(f"event {i} has a topic from outside Stakes; nothing was imported", ruling="C-2")
        fields = _decode(stakes, i, state)
        _belongs(i, line, fields, campaign_id, streams)
        _verify_values(i, fields)
        stored.append((line, fields))
        if progress:
            progress(i, len(events))
    if previous != header["head"] or len(events) != header["events"]:
        raise RuleViolation("the export is incomplete: its head does not match its events", ruling="C-2")
    new_id, renamed = _renamed(stakes, campaign_id, stored)
    _replayable(stakes, renamed)
    for start in range(0, len(renamed), CHUNK):
        try:
            stakes.app.recorder.insert_events(renamed[start:start + CHUNK])
        except IntegrityError:  # pragma: no cover - new ids do not collide
            raise RuleViolation("this store already holds one of the imported streams", ruling="C-2") from None
    stakes.catch_up()
    seats = [p.seat for p in stakes.campaign_row(new_id).players]
    return schemas.ImportReport(campaign_id=new_id, imported_from=campaign_id, events=len(renamed),
                                head=previous, **issue(new_id, seats))  # type: ignore[arg-type]


def _bounded(lines: Iterable[str], limit: int) -> Iterator[str]:
    seen = 0
    for line in lines:
        seen += len(line) + 1
        if seen > limit:
            raise TooLarge(f"an import is at most {limit:,} bytes (STAKES_IMPORT_MAX_BYTES); nothing was imported",
                           ruling="C-2")
        yield line


def _depth(value: Any) -> int:
    """How deeply ``value`` nests (iteratively: a deep value never exhausts the stack)."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            if level > MAX_DEPTH:
                return level
            todo.extend((v, level + 1) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


def _loads(text: str, what: str) -> Any:
    """JSON, refused (never a crash) when malformed or nested deeper than ``MAX_DEPTH``."""
    depth = 0
    for ch in text:  # a cheap upper bound first: the parser recurses per level
        if ch in "[{":
            depth += 1
            if depth > MAX_DEPTH * 4:
                raise RuleViolation(f"{what} nests deeper than {MAX_DEPTH} levels; nothing was imported", ruling="C-2")
        elif ch in "]}":
            depth -= 1
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        raise RuleViolation(f"{what} is not JSON; nothing was imported", ruling="C-2") from None
    if _depth(value) > MAX_DEPTH:
        raise RuleViolation(f"{what} nests deeper than {MAX_DEPTH} levels; nothing was imported", ruling="C-2")
    return value


def _decode(stakes: Any, i: int, state: bytes) -> dict[str, Any]:
    _loads(state.decode(), f"the state of event {i}")
    try:
        fields = stakes.app.mapper.transcoder.decode(state)
    except Exception:
        raise RuleViolation(f"event {i} of the export is not readable; nothing was imported", ruling="C-2") from None
    if not isinstance(fields, dict):
        raise RuleViolation(f"event {i} of the export is not an event", ruling="C-2")
    return fields


def _verify_values(i: int, fields: dict[str, Any]) -> None:
    """The value checks of the commands: no number beyond what a command accepts, no text beyond any limit."""
    todo: list[tuple[Any, str]] = [(fields, "")]
    while todo:
        value, path = todo.pop()
        if isinstance(value, dict):
            todo.extend((v, f"{path}.{k}" if path else str(k)) for k, v in value.items())
        elif isinstance(value, list | tuple):
            todo.extend((v, f"{path}[{n}]") for n, v in enumerate(value))
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAXIMUM:
            raise RuleViolation(f"event {i} of the export records {value:.3g} at {path}: no command takes a number "
                                f"beyond {MAXIMUM:,} (PA-1); nothing was imported", ruling="C-2")
        elif isinstance(value, float) and not -MAXIMUM <= value <= MAXIMUM:
            raise RuleViolation(f"event {i} of the export records {value} at {path}; nothing was imported",
                                ruling="C-2")
        elif isinstance(value, str) and len(value) > MAX_TEXT:
            raise RuleViolation(f"event {i} of the export holds a text of {len(value):,} characters at {path}; "
                                "nothing was imported", ruling="C-2")


def _belongs(i: int, line: dict[str, Any], fields: dict[str, Any], campaign_id: UUID, streams: dict[str, int]) -> None:
    """Every event of an export belongs to its campaign: each stream starts in the file, with the
    campaign's id, and its versions follow one another (C-2). Nothing reaches another campaign."""
    stream, version = UUID(str(line["originator_id"])).hex, line["originator_version"]
    if version == 1:
        owner = stream if line["topic"].startswith("domain.campaign:") else fields.get("campaign_id")
        owner = owner.hex if isinstance(owner, UUID) else str(owner)
        if owner != campaign_id.hex or (i == 1) != line["topic"].startswith("domain.campaign:"):
            raise RuleViolation(f"event {i} does not belong to campaign {campaign_id}", ruling="C-2")
    elif streams.get(stream) != version - 1:
        raise RuleViolation(f"event {i} continues a stream the export did not start", ruling="C-2")
    streams[stream] = version


def _renamed(stakes: Any, campaign_id: UUID, events: list[tuple[dict[str, Any], dict[str, Any]]]
             ) -> tuple[UUID, list[StoredEvent]]:
    """Every stream under a new id: the campaign's is new, the others derived from it as the aggregate
    derives them (or new where the aggregate draws them). A command record of the campaign's creation is
    scoped to the new campaign, so its key reserves nothing outside it."""
    new_id = uuid4()
    ids: dict[UUID, UUID] = {campaign_id: new_id, NO_CAMPAIGN: new_id}
    for line, fields in events:
        old = UUID(line["originator_id"])
        if line["originator_version"] != 1 or old in ids:
            continue
        try:
            cls = resolve_topic(fields["originator_topic"])
            arguments = {k: v for k, v in _swap(fields, ids).items() if k not in _META}
            ids[old] = cls.create_id(**arguments)
        except Exception:
            raise RuleViolation("an event of the export does not name its aggregate", ruling="C-2") from None
    encode, mapper = stakes.app.mapper.transcoder.encode, stakes.app.mapper
    stored = mapper.compressor.compress if mapper.compressor else bytes  # stored as the store keeps states
    return new_id, [StoredEvent(originator_id=ids[UUID(line["originator_id"])],
                                originator_version=line["originator_version"], topic=line["topic"],
                                state=stored(encode(_swap(fields, ids)))) for line, fields in events]


def _swap(value: Any, ids: dict[UUID, UUID]) -> Any:
    """``value`` with every stream id replaced (as a UUID, or as its text in either spelling)."""
    if isinstance(value, UUID):
        return ids.get(value, value)
    if isinstance(value, str) and len(value) in (32, 36):
        try:
            found = ids.get(UUID(value))
        except ValueError:
            return value
        return value if found is None else (found.hex if len(value) == 32 else str(found))
    if isinstance(value, dict):
        return {k: _swap(v, ids) for k, v in value.items()}
    if isinstance(value, list):
        return [_swap(v, ids) for v in value]
    if isinstance(value, tuple):
        return tuple(_swap(v, ids) for v in value)
    return value


def _replayable(stakes: Any, stored: list[StoredEvent]) -> None:
    """Rebuild every aggregate of the export in memory first: an event that does not apply never
    reaches the store (C-2)."""
    streams: dict[Any, Any] = {}
    for i, event in enumerate(stored, 1):
        try:
            domain_event = stakes.app.mapper.to_domain_event(event)
            streams[event.originator_id] = domain_event.mutate(streams.get(event.originator_id))
            if not hasattr(domain_event, "actor"):
                raise ValueError("no acting seat")
        except Exception as exc:
            raise RuleViolation(f"event {i} of the export does not apply ({type(exc).__name__}); "
                                "nothing was imported", ruling="C-2") from None


def _read_export(lines: Iterable[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    records = []
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        record = _loads(text, f"line {number} of the export")
        if not isinstance(record, dict):
            raise RuleViolation(f"line {number} of the export is not an object", ruling="C-2")
        records.append(record)
    if not records or records[0].get("format") != chain.FORMAT:
        raise RuleViolation(f"this is not a Stakes export (its first line names format {chain.FORMAT}, "
                            f"version {chain.FORMAT_VERSION})", ruling="C-2")
    if records[0].get("version") != chain.FORMAT_VERSION:
        raise RuleViolation(f"this export is of version {records[0].get('version')!r}; this release reads version "
                            f"{chain.FORMAT_VERSION}", ruling="C-2")
    header, events = records[0], records[1:]
    if not (isinstance(header.get("campaign_id"), str) and isinstance(header.get("head"), str)
            and isinstance(header.get("events"), int) and not isinstance(header.get("events"), bool)):
        raise RuleViolation("the export's header needs campaign_id, head and events", ruling="C-2")
    try:
        UUID(header["campaign_id"])
    except ValueError:
        raise RuleViolation("the export's campaign_id is not an id", ruling="C-2") from None
    types = {"position": int, "originator_id": str, "originator_version": int, "topic": str, "state": str,
             "salt": str, "digest": str, "chain": str}
    for i, event in enumerate(events, 1):
        for field, kind in types.items():
            value = event.get(field)
            if not isinstance(value, kind) or isinstance(value, bool):
                raise RuleViolation(f"event {i} of the export has no proper {field}", ruling="C-2")
        try:
            UUID(event["originator_id"])
        except ValueError:
            raise RuleViolation(f"event {i} of the export has a malformed id", ruling="C-2") from None
        if not SALT.fullmatch(event["salt"]):
            raise RuleViolation(f"event {i} of the export has a malformed salt (32 lowercase hex digits)",
                                ruling="C-2")
    return header, events
