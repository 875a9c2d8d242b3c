"""The use cases of Stakes: a thin application over the aggregates, the same for every rule system.

Shared use cases (campaigns, seats, adventures, moves, rewinds, overturns) ask
the campaign's :class:`~domain.kernel.registry.RuleSystem`; a system's own
commands are looked up by type among its handlers. Every handler checks what
the acting seat may do, lets the aggregates verify the rules (refusing before
anything changes), and saves all touched aggregates in one atomic ``save``. A
save that loses an optimistic-concurrency race (``IntegrityError``) is retried
from a fresh read; a command that keeps losing raises
:class:`ConcurrencyConflict` (HTTP 409).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace
from datetime import datetime
from typing import Any, ClassVar, TypeVar
from uuid import UUID, uuid4

from eventsourcing.application import (
    AggregateNotFoundError,
    Application,
    ProcessingEvent,
    Repository,
    project_aggregate,
)
from eventsourcing.domain import CollectEventsProtocol, DomainEventProtocol

from domain.campaign import Campaign
from domain.errors import ConcurrencyConflict, NotFound, NotPermitted, RuleViolation, StakesError
from domain.kernel.commands import Command, Context
from domain.kernel.commitments import SeatSecret, derived_secret
from domain.kernel.common import SHARED, AddPlayer, EndAdventure, Overturn, Rewind, StartAdventure
from domain.kernel.record import NO_CAMPAIGN, CommandRecord, digest
from domain.kernel.registry import RuleSystem, rule_system, supported, system_of_unit
from domain.retry import retry_conflicts
from domain.seats import HOUSE, player_handle
from domain.text import clean_text

T = TypeVar("T")


def snapshot_classes() -> tuple[type, ...]:
    return (Campaign, SeatSecret, *(cls for s in supported() for cls in s.aggregates))



#: The aggregates a running command has saved, held back until its record joins them (see ``_deferred``).
_PENDING: ContextVar[list[Any] | None] = ContextVar("pending", default=None)
#: The aggregates a running command has read, at the versions read: its read set (ADR 0012).
_READS: ContextVar[dict[UUID, int] | None] = ContextVar("reads", default=None)


def _replay(aggregate: Any, events: Iterable[Any]) -> Any:
    """The library's ``project_aggregate`` without its check that each event is a ``CanMutateProtocol``:
    on Python 3.11 ``isinstance`` against a runtime protocol costs tens of microseconds an event, about twice
    a command (bringing a cached aggregate forward, and the replay behind each snapshot; issue 15). Every
    event and snapshot this store holds has ``mutate`` (an ``Aggregate.Event``, a ``Snapshot``)."""
    for event in events:
        aggregate = event.mutate(aggregate)
    return aggregate


#: The aggregates a running command took from the cache, by id (see ``TakingRepository``); None outside one.
_TAKEN: ContextVar[dict[UUID, Any] | None] = ContextVar("taken", default=None)


#: The group of commands this thread is deciding (``Group``, issue 32: group commit); None outside one.
_GROUP: ContextVar[Group | None] = ContextVar("group", default=None)


class Regroup(Exception):  # not an error: a signal to the group's leader
    """A command of a group wants an aggregate (or a record) an earlier command of the same group changed and
    has not stored yet: the leader stores the group first, then decides this command again from the store."""


class GroupLost(Exception):
    """A group's one write did not store (a race with another process, a read set that moved, the store
    down): nothing of it was stored, and its commands are decided again, each alone."""


class Group:
    """Commands decided one after another, in one thread, on the cache's aggregates, and stored in ONE write
    (issue 32: group commit; ADR 0042).

    Each command takes its aggregates as a lone command does (``TakingRepository``); what an earlier command of
    the group took and did not change is shared with later ones (one build), and what it changed is not: a
    command that wants it raises ``Regroup``, so the leader stores what the group holds and decides that
    command again from the store. So no two commands of a group change one aggregate, and each command's read
    set holds as it would alone: an aggregate one command read and a later one changed is checked by the
    later one's insert (its next version can only go in where the store still ends at the version read).
    ``flush`` stores every command's events and records in one transaction, with their read sets; nothing of
    it goes to the cache until the caller has answered (``give_back``). A write that fails stores nothing
    (``GroupLost``): the caller decides those commands again, each alone."""

    def __init__(self, app: StakesApplication) -> None:
        self.app = app
        #: each command's collected save: its events, its read set, what it added (``stored``), its ``Once``
        self.writes: list[tuple[Collected, dict[UUID, int], list[tuple[Any, int]], Once]] = []
        #: what the group's commands changed (records included) and have not stored yet
        self.changed: set[UUID] = set()
        #: what the group's commands took and did not change: shared with the group's later commands
        self.held: dict[UUID, Any] = {}
        #: each decided command's aggregates, back to the cache once answered (``give_back``)
        self.taken: list[dict[UUID, Any]] = []

    def add(self, objs: list[Any], reads: dict[UUID, int], added: list[tuple[Any, int]], once: Once) -> None:
        collected = Collected()
        collected.collect_events(*objs)
        self.writes.append((collected, reads, added, once))
        self.changed.update(collected.aggregates)

    def refused(self, taken: dict[UUID, Any]) -> None:
        """A command of the group was refused (or lost): what it changed and never stored is nobody's."""
        for aggregate_id, aggregate in taken.items():
            if getattr(aggregate, "pending_events", None):
                self.held.pop(aggregate_id, None)

    def flush(self) -> None:
        """Store what the group's commands decided, in one write."""
        writes, self.writes = self.writes, []
        changed, self.changed = self.changed, set()
        self.held = {}
        if not writes:
            return
        merged = Collected()
        reads: dict[UUID, int] = {}
        for collected, read, _, _ in writes:
            merged.events.extend(collected.events)
            merged.aggregates.update(collected.aggregates)
            for aggregate_id, version in read.items():
                reads.setdefault(aggregate_id, version)
        reads = {k: v for k, v in reads.items() if k not in changed}
        if reads:
            merged.saved_kwargs["reads"] = reads
        try:
            recordings = self.app._record(merged)
        except Exception as exc:
            first = writes[0][3]
            found = first.stored()  # the library re-sent an insert whose commit acknowledgement was lost
            if found is None or found.created_on != first.at:
                self.drop()
                raise GroupLost(str(exc)) from exc
            return  # stored after all: the projection builds each unit from its row
        self.app._recorded(merged, recordings)
        stored = self.app.stored
        if stored is not None:
            for _, _, added, _ in writes:
                stored(added)

    def give_back(self) -> None:
        taken, self.taken = self.taken, []
        for each in taken:
            self.app.repository.give_back(each)  # type: ignore[attr-defined]  # TakingRepository

    def drop(self) -> None:
        """Nothing the group decided was stored: none of what its commands took goes back to the cache."""
        self.taken, self.held, self.writes, self.changed = [], {}, [], set()


class TakingRepository(Repository[UUID]):
    """The library's repository, but a command takes a cached aggregate instead of copying it (issue 30, one
    pass per command: each aggregate built once).

    Inside a command (``StakesApplication._taking``) an aggregate is taken out of the cache, brought forward
    with one read of the events stored after it, and is the command's alone: no deep copy (about a fifth of a
    command's CPU). When the command is stored, what it took goes back to the cache at the version it saved;
    a command refused or lost to a race puts nothing back (what it took may hold changes it did not store),
    so the next command rebuilds those from the store, as a process that never cached them would. Two commands
    of one process that want the same aggregate at once: the second finds it gone and builds its own from the
    store. An aggregate read twice by one command is the same object while it is unchanged (a copy of the
    stored state once the command has changed it, as before). Outside a command (reads, a past version for a
    rewind) the library's copy from the cache stands."""

    def get(self, aggregate_id: UUID, *, version: int | None = None, projector_func: Any = project_aggregate,
            fastforward_skipping: bool = False, deepcopy_from_cache: bool = True) -> Any:
        if projector_func is project_aggregate:  # a system's own ``repository.get``: the same replay, unchecked
            projector_func = _replay
        taken = _TAKEN.get()
        group = _GROUP.get() if taken is not None else None
        if group is not None and taken is not None:
            if aggregate_id in group.changed:
                raise Regroup(f"{aggregate_id} was changed by an earlier command of this group")
            shared = group.held.get(aggregate_id) if version is None and aggregate_id not in taken else None
            if shared is not None and not getattr(shared, "pending_events", None):
                taken[aggregate_id] = shared  # taken and left unchanged by an earlier command of the group
                return shared
        again = taken.get(aggregate_id) if taken is not None and version is None else None
        if again is not None and not getattr(again, "pending_events", None):
            return again  # read again in the same command, unchanged: the same object, not a second build
        if taken is None or version is not None or self.cache is None or aggregate_id in taken:
            return super().get(aggregate_id, version=version, projector_func=projector_func,
                               fastforward_skipping=fastforward_skipping, deepcopy_from_cache=deepcopy_from_cache)
        try:
            aggregate = self.cache.get(aggregate_id, evict=True)
        except KeyError:
            aggregate = self._reconstruct_aggregate(aggregate_id, None, projector_func)
        else:
            # under the library's own lock: a read outside a command may be bringing the same object forward
            lock = self._use_fastforward_lock(aggregate_id)
            try:
                with lock:
                    aggregate = projector_func(aggregate, self.event_store.get(originator_id=aggregate_id,
                                                                               gt=aggregate.version))
            finally:
                self._disuse_fastforward_lock(aggregate_id)
        taken[aggregate_id] = aggregate
        if group is not None:
            group.held[aggregate_id] = aggregate
        return aggregate

    def give_back(self, taken: dict[UUID, Any]) -> None:
        """A stored command's aggregates go back to the cache: each at the version it read or saved."""
        if self.cache is None:
            return
        for aggregate_id, aggregate in taken.items():
            if not getattr(aggregate, "pending_events", None):  # changed and not stored: never cached
                self.cache.put(aggregate_id, aggregate)


def _read(aggregate: Any) -> Any:
    reads = _READS.get()
    if reads is not None:
        reads.setdefault(aggregate.id, aggregate.version)
    return aggregate


class Collected(ProcessingEvent[UUID]):
    """The library's ``ProcessingEvent``, its two protocol checks answered once per class (an aggregate class
    or an event class answers them alike for every instance of it)."""

    _kinds: ClassVar[dict[type, tuple[bool, bool]]] = {}

    def collect_events(self, *objs: Any, **kwargs: Any) -> None:
        kinds = self._kinds
        for obj in objs:
            if obj is None:
                continue
            kind = kinds.get(type(obj))
            if kind is None:
                kind = kinds[type(obj)] = (isinstance(obj, DomainEventProtocol),
                                           isinstance(obj, CollectEventsProtocol))
            if kind[0]:
                self.events.append(obj)
            else:
                if kind[1]:
                    self.events.extend(obj.collect_events())
                self.aggregates[obj.id] = obj
        self.saved_kwargs.update(kwargs)


class Once:
    """One command run exactly once under its key (``domain/kernel/record.py``).

    Without a key from the client a fresh one is drawn for this attempt: a retry inside the application
    (a lost race, or the library re-sending an insert whose commit acknowledgement was lost) still finds
    the record its first attempt stored, and answers with that result instead of running again.
    """

    def __init__(self, app: StakesApplication, campaign_id: UUID, actor: str, key: str | None, verb: str,
                 inputs: Any) -> None:
        self.app, self.campaign_id, self.actor, self.verb = app, campaign_id, actor, verb
        self.given = key is not None
        self.key = key if key is not None else uuid4().hex
        self.asked = digest(verb, inputs)
        self.record_id = CommandRecord.create_id(campaign_id, actor, self.key)
        self.scope = campaign_id
        #: Whether ``run`` answered a record this call's own save did not store: one stored before it tried
        #: anything (a retry under the client's key) or by a request racing it under the same key (issue 29,
        #: ADR 0028). False when it ran the command, its own lost commit acknowledgement included.
        self.replayed = False
        #: When the answered record was stored (its ``Executed`` event's time), set by ``run``.
        self.at: datetime | None = None
        self._mine: datetime | None = None  # the time of the record this call's last save tried to store

    def stored(self) -> CommandRecord | None:
        """The record stored under this key, if any: read from its events alone (a record is never
        snapshotted, so the repository's look for a snapshot first would be a statement for nothing)."""
        group = _GROUP.get()
        if group is not None and self.record_id in group.changed:
            raise Regroup("a command of this group stored a record under the same key")
        events = list(self.app.repository.event_store.get(self.record_id))
        found = _replay(None, events) if events else None
        return found if isinstance(found, CommandRecord) else None

    def save(self, touched: list[Any], result: Any, campaign_id: UUID | None = None) -> None:
        record = CommandRecord(scope=self.scope, campaign_id=campaign_id or self.campaign_id, actor=self.actor,
                               key=self.key, verb=self.verb, asked=self.asked, result=result)
        unique = list({id(t): t for t in touched}.values())
        # The read set: what the command read but does not change is checked at the versions read, in the
        # same transaction (a rule reading the Campaign for PA-2, or a Loan's adventure for PA-14).
        changed = {t.id for t in unique if getattr(t, "pending_events", None)}
        reads = {k: v for k, v in (_READS.get() or {}).items() if k not in changed}
        self.app.before_save()
        # A campaign's chain starts with its Created event; any other command's record goes first, so
        # the command's own events close its save.
        ordered = [*unique, record] if campaign_id is not None else [record, *unique]
        self._mine = self.at = record.created_on
        # what each aggregate adds, counted before the save collects it (``StakesApplication.stored``)
        added = [(t, len(t.pending_events)) for t in unique if getattr(t, "pending_events", None)]
        group = _GROUP.get()
        if group is not None:  # stored with the group's other commands, by its leader (``Group.flush``)
            group.add(ordered, reads, added, self)
            return
        self.app.store(*ordered, reads=reads)
        stored = self.app.stored
        if stored is not None:
            stored(added)

    def run(self, attempt: Callable[[], Any]) -> Any:
        first = True

        def once() -> Any:
            nonlocal first
            if self.given or not first:
                found = self.stored()
                if found is not None:
                    answer = found.answer(self.verb, self.asked)
                    # a record found on a retry is this call's own only when its save stored it (the library
                    # re-sending an insert whose acknowledgement was lost); else a racing request stored it
                    self.replayed = first or found.created_on != self._mine
                    self.at = found.created_on
                    return answer
            first = False
            token = _READS.set({})
            try:
                return attempt()
            except BaseException as exc:
                taken = _TAKEN.get()
                if taken is not None:
                    group = _GROUP.get()
                    if group is not None:
                        group.refused(taken)
                    taken.clear()  # a refused or lost attempt: what it took may hold changes never stored
                if self.given and isinstance(exc, StakesError):
                    # A copy of this command under the same key may have been stored while this one read (a client
                    # retrying while its first request still runs, on this process or another): its refusal is a
                    # second run against what the first left. The stored answer is the answer (exactly once).
                    found = self.stored()
                    if found is not None:
                        self.replayed, self.at = True, found.created_on
                        return found.answer(self.verb, self.asked)
                raise
            finally:
                _READS.reset(token)

        with self.app.taking():
            return retry_conflicts(once)


class StakesApplication(Application[UUID]):
    name = "Stakes"
    is_snapshotting_enabled = True
    #: Told of every command this process stores, in the thread that stored it, once the write is committed:
    #: each aggregate it changed, as the command left it, with how many events it added (issue 30, item 7: the
    #: projection takes a unit from here instead of building it again). What it is told is the command's
    #: scope's (``taking``): it goes back to the cache when that scope ends, not before.
    stored: Callable[[list[tuple[Any, int]]], None] | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.snapshotting_intervals = {cls: 25 for cls in snapshot_classes()}  # type: ignore[misc]
        self.snapshotting_projectors = {cls: _replay for cls in snapshot_classes()}  # type: ignore[misc]  # the library's knob
        self._systems: dict[UUID, str] = {}
        super().__init__(*args, **kwargs)

    def construct_repository(self) -> Repository[UUID]:
        found = super().construct_repository()
        repository = TakingRepository(event_store=found.event_store, snapshot_store=found.snapshot_store,
                                      fastforward=found.fastforward, fastforward_skipping=found.fastforward_skipping,
                                      deepcopy_from_cache=found.deepcopy_from_cache)
        repository.cache = found.cache
        return repository

    @contextmanager
    def taking(self) -> Iterator[None]:
        """A command's scope: the aggregates it reads are taken from the cache, not copied
        (``TakingRepository``), and go back when it ends stored; nested scopes are the outer one's."""
        if _TAKEN.get() is not None:
            yield
            return
        taken: dict[UUID, Any] = {}
        token = _TAKEN.set(taken)
        group = _GROUP.get()
        try:
            yield
        except BaseException:
            if group is not None:
                group.refused(taken)
            taken.clear()
            raise
        finally:
            _TAKEN.reset(token)
        if group is not None:
            group.taken.append(taken)  # back to the cache once the group is stored and answered
            return
        self.repository.give_back(taken)  # type: ignore[attr-defined]  # TakingRepository

    def group(self) -> Group:
        """A new group of commands (issue 32, group commit): decided with ``in_group``, stored by its
        ``flush``."""
        return Group(self)

    @contextmanager
    def in_group(self, group: Group | None) -> Iterator[None]:
        """The command decided in this scope goes into ``group``: it is stored when the group is (None: alone,
        stored by its own save, whatever scope it is in)."""
        token = _GROUP.set(group)
        try:
            yield
        finally:
            _GROUP.reset(token)

    def before_save(self) -> None:
        """Called between a command's reads and its save: tests pause here to interleave two commands."""

    # -- reading aggregates -------------------------------------------------
    def get(self, cls: type[T], aggregate_id: UUID, what: str) -> T:
        try:
            aggregate = self.repository.get(aggregate_id, projector_func=_replay)
        except AggregateNotFoundError:
            raise NotFound(f"no {what} {aggregate_id}") from None
        if not isinstance(aggregate, cls):
            raise NotFound(f"no {what} {aggregate_id}")
        return _read(aggregate)

    def campaign(self, campaign_id: UUID) -> Campaign:
        return self.get(Campaign, campaign_id, "campaign")

    def system(self, campaign: Campaign) -> RuleSystem:
        return rule_system(campaign.system)

    def system_of(self, campaign_id: UUID) -> RuleSystem:
        """A campaign's rule system, remembered: it is chosen at creation and never changes (C-1)."""
        known = self._systems.get(campaign_id)
        if known is None:
            known = self._systems[campaign_id] = self.campaign(campaign_id).system
        return rule_system(known)

    def unit(self, campaign: Campaign, unit_id: UUID) -> Any:
        """A unit of resolution (C-1) of this campaign: a challenge, a roll, a contest, a conflict …"""
        try:
            found = self.repository.get(unit_id, projector_func=_replay)
        except AggregateNotFoundError:
            found = None
        units = self.system(campaign).resolutions
        if not isinstance(found, units) or getattr(found, "campaign_id", None) != campaign.id:
            raise NotFound(f"no challenge, roll or other unit of resolution {unit_id} in this campaign")
        return _read(found)

    # -- C-1: campaigns -----------------------------------------------------
    def create_campaign(self, name: str, system: str, settings: Mapping[str, Any] | None = None,
                        key: str | None = None, secret: str | None = None) -> UUID:
        """Create a campaign; whoever creates it holds the House seat."""
        return self.create_campaign_once(name, system, settings, key, secret)[0]

    def create_campaign_once(self, name: str, system: str, settings: Mapping[str, Any] | None = None,
                             key: str | None = None, secret: str | None = None) -> tuple[UUID, bool]:
        """Create a campaign, exactly once under ``key``; answers its id and whether this call only answered
        the creation stored before under the same key (a retry), so the edge can tell the two apart."""
        cleaned = clean_text(name, "a campaign's name", max_length=120, ruling="C-1", name=True)
        rules = rule_system(system)
        completed = rules.settings(settings or {})
        once = Once(self, NO_CAMPAIGN, HOUSE, key, "create-campaign", [cleaned, rules.id, completed])

        def run() -> UUID:
            campaign = Campaign(name=cleaned, system=rules.id, settings=completed, actor=HOUSE)
            committed = [SeatSecret.commit(campaign.id, HOUSE, derived_secret(secret, f"commit:{HOUSE}"), HOUSE)
                         ] if secret else []  # C-10: the House's first committed secret
            once.save([campaign, *rules.campaign_created(campaign, HOUSE), *committed], campaign.id, campaign.id)
            return campaign.id

        found = once.run(run)
        return found, once.replayed

    def reissue_seat(self, campaign_id: UUID, seat: str, actor: str, key: str | None = None
                     ) -> tuple[bool, datetime]:
        """Record that the House handed ``seat`` out again (its token is replaced by a new invite), exactly
        once under ``key`` (issue 29): whether this call only answered a reissue stored before or by a racing
        request under the same key (a replay), and when the reissue was stored. The edge finishes, on a
        replay too, what the stored reissue left undone: only what was issued before that time is revoked
        (ADR 0028)."""
        if actor != HOUSE:
            raise NotPermitted("only the House hands a seat out again", ruling="C-1")
        once = Once(self, campaign_id, actor, key, "reissue-seat", [seat])

        def attempt() -> None:
            campaign = self.campaign(campaign_id)
            campaign.reissue_seat(player_handle(seat), actor)
            once.save([campaign], None)

        once.run(attempt)
        assert once.at is not None  # run either saved the record or found it
        return once.replayed, once.at

    # -- commands -------------------------------------------------------------
    def command_class(self, campaign_id: UUID, verb: str) -> type[Command]:
        """The class that validates ``verb`` in this campaign: the system's own, else the shared one."""
        system = self.system_of(campaign_id)
        found = system.command(verb) or next((c for c in SHARED if c.verb == verb), None)
        if found is None:
            hint = system.instead.get(verb)
            raise RuleViolation(f"a {system.id} campaign has no command {verb!r}" + (f": {hint}" if hint else ""),
                                ruling="C-1")
        return found

    def parse(self, campaign_id: UUID, verb: str, payload: Mapping[str, Any]) -> Command:
        """Raw inputs as the campaign's system reads them; inputs only another system takes are refused
        naming what they stand for (C-1)."""
        cls = self.command_class(campaign_id, verb)
        extra = set(payload) - set(cls.model_fields)
        if extra:
            self._foreign(self.campaign(campaign_id), verb, extra)
        return cls.parse(payload)

    def _foreign(self, campaign: Campaign, verb: str, fields: set[str]) -> None:
        """Inputs this campaign's command does not take but another system's does: say what they are."""
        own = self.command_class(campaign.id, verb)
        extra = fields - set(own.model_fields)
        for system in supported():
            other = system.command(verb)
            if other is not None and other is not own and other.elsewhere and extra & set(other.model_fields):
                raise RuleViolation(f"a {campaign.system} campaign has no {other.elsewhere}", ruling=own.ruling)

    def execute(self, ctx: Context, command: Command) -> Any:
        """Run one campaign command; returns what its handler returns (an id, a number …)."""
        cls = type(command)
        cls.authorize(ctx.actor)
        system = self.system_of(ctx.campaign_id)
        if self.command_class(ctx.campaign_id, cls.verb) is not cls:
            self._foreign(self.campaign(ctx.campaign_id), cls.verb, set(command.model_fields_set))
            raise RuleViolation(f"that {cls.verb!r} is another system's; this is a {system.id} campaign",
                                ruling="C-1")
        handler = system.handlers.by_type.get(cls)
        if handler is None:
            shared = next(c for c in cls.__mro__ if c in SHARED)
            method = getattr(self, "_" + shared.verb.replace("-", "_"))
            handler = lambda app, ctx, command: method(ctx, command)  # noqa: E731
        once = Once(self, ctx.campaign_id, ctx.actor.name, ctx.key, cls.verb, command.model_dump(mode="json"))

        seen = ctx.met  # the commitment this request's first attempt met (C-10, across retries)

        def run() -> Any:
            with self._deferred() as pending:
                if cls.one_shot:
                    result = self._one_shot(ctx, command, handler, pending, seen)
                else:
                    result = handler(self, ctx, command)
            once.save(self._units_in_adventure(ctx, system, pending), result)
            return result

        return once.run(run)

    # -- C-10: committed secrets -----------------------------------------------------------------
    def seat_secret(self, campaign_id: UUID, seat: str) -> SeatSecret | None:
        """The seat's committed secret (``domain/kernel/commitments.py``), or None for a seat seated before
        the scheme that has not been committed yet."""
        try:
            found = self.repository.get(SeatSecret.create_id(campaign_id, seat), projector_func=_replay)
        except AggregateNotFoundError:
            return None
        return _read(found) if isinstance(found, SeatSecret) else None

    def commit_secrets(self, campaign_id: UUID, seats: Iterable[str], secret: str | None, actor: str) -> list[Any]:
        """The first commitment of each seat that has none (C-10): at seating, at a campaign's creation, and
        for a campaign stored before the scheme when the House starts an adventure."""
        if not secret:
            return []
        return [SeatSecret.commit(campaign_id, seat, derived_secret(secret, f"commit:{seat}"), actor)
                for seat in seats if self.seat_secret(campaign_id, seat) is None]

    def _one_shot(self, ctx: Context, command: Command, handler: Any, pending: list[Any],
                  seen: dict[str, int] | None = None) -> Any:
        """A one-shot draw (C-10): it draws with the secret the acting seat committed before this request,
        and the seat's next commitment is recorded in the same write. ``ctx.secret``, drawn by the adapters
        for this command, becomes (through ``derived_secret``) that next commitment.

        Two exceptions (review of issue 30):

        * The House's own draw (a Pulp deal for its character) takes no other party's input (C-9: no seed, no
          cut), so a commitment protects nobody; and the House can read its committed secret in its export, so
          drawing with it would let the House foresee its next draw and spend it where it suits (choosing a
          draw, C-9). It draws with the fresh secret of this request instead, which nobody has seen.
        * A draw with a seed whose commitment another draw of the same seat used while this one waited (the
          optimistic retry) is refused (C-10, 409): the commitment it would use now was published after the
          seed arrived, so it is not the one the player was promised."""
        if not ctx.secret:
            raise ValueError("a one-shot draw needs a fresh secret from the adapters for the next commitment")
        if ctx.actor.is_house:
            return handler(self, ctx, command)
        seat = ctx.actor.name
        committed = self.seat_secret(ctx.campaign_id, seat)
        if seen is not None and committed is not None:
            first = seen.setdefault("nonce", committed.nonce)
            if first != committed.nonce and getattr(command, "seed", None):
                raise ConcurrencyConflict(
                    f"another draw of your seat used commitment {first} while this one waited: your seed was "
                    f"sent before commitment {committed.nonce} was published; read it (GET …/commitments) and "
                    "send again", ruling="C-10")
        if committed is None:
            if getattr(command, "seed", None):
                raise RuleViolation("your seat has no committed secret yet, so no hash was published before your "
                                    "seed: draw once without a seed (that commits your next secret), or wait "
                                    "until the House starts the next adventure", ruling="C-10")
            # no player input: the draw trusts the service's secret alone, as a draw without a seed always does
            committed = SeatSecret.commit(ctx.campaign_id, seat, derived_secret(ctx.secret, f"first:{seat}"),
                                          ctx.actor.name)
        result = handler(self, replace(ctx, secret=committed.secret_seed), command)
        committed.renew(result, self._unit_hash(pending, result), derived_secret(ctx.secret, f"next:{seat}:{committed.nonce + 1}"),
                        ctx.actor.name)
        self.save(committed)
        return result

    @staticmethod
    def _unit_hash(pending: list[Any], unit_id: Any) -> str:
        unit = next((a for a in pending if getattr(a, "id", None) == unit_id), None)
        if unit is None or not hasattr(unit, "seed_hash"):
            raise ValueError("a one-shot draw's handler saves its unit and returns its id")
        return unit.seed_hash

    def act(self, ctx: Context, unit_id: UUID, payload: Mapping[str, Any] | Command) -> None:
        """One move in a unit of resolution, whichever system it belongs to."""
        with self.taking():  # the reads below serve the move's first attempt: one scope
            self._act(ctx, unit_id, payload)

    def _act(self, ctx: Context, unit_id: UUID, payload: Mapping[str, Any] | Command) -> None:
        campaign = self.campaign(ctx.campaign_id)
        unit = self.unit(campaign, unit_id)
        system = system_of_unit(unit)
        name = (payload.action_name() or payload.verb) if isinstance(payload, Command) else dict(payload).get("action")
        listed = system.listed_command(unit, name)
        if listed is not None:
            self._listed_move(ctx, system, unit, listed, payload)
            return
        action = system.action(unit, name)
        command = action.parse(payload if isinstance(payload, Command) else dict(payload))
        action.authorize(ctx.actor)

        once = Once(self, ctx.campaign_id, ctx.actor.name, ctx.key, f"act/{unit_id}", command.model_dump(mode="json"))
        # The campaign and the unit read above to find and check the move serve its first attempt (issue 30,
        # one pass per command: each aggregate built once); a retry after a lost race reads them afresh. Read
        # before the attempt's read set began, they join it at the versions read (ADR 0012).
        first = [campaign, unit]

        def run() -> None:
            if first:
                fresh, found = _read(first[0]), _read(first[1])
                first.clear()
            else:
                fresh = self.campaign(ctx.campaign_id)
                found = self.unit(fresh, unit_id)
            touched = system.play(self, ctx, fresh, found, command)
            once.save(self._units_in_adventure(ctx, system, touched, fresh), None)

        once.run(run)

    def _listed_move(self, ctx: Context, system: RuleSystem, unit: Any, listed: type[Command],
                     payload: Mapping[str, Any] | Command) -> None:
        """A move the unit's legal actions list that is a campaign command (issue 31: an answer to something
        offered into the unit): validated and authorized by the command's own class, checked by the system to
        concern this unit, and run exactly once under the request's key, as its own route runs it."""
        if isinstance(payload, Command):
            command = listed.parse(payload)
        else:
            command = self.parse(ctx.campaign_id, listed.verb, {k: v for k, v in dict(payload).items() if k != "action"})
        system.verify_listed(self, unit, command)
        self.execute(ctx, command)

    # -- C-1: units of resolution happen inside an adventure ----------------------------------------------
    def _units_in_adventure(self, ctx: Context, system: RuleSystem, touched: list[Any],
                            campaign: Campaign | None = None) -> list[Any]:
        """One lifecycle rule for every system (C-1, issue 30), checked on what a command is about to save: a
        unit of resolution it opens needs a running adventure (refused otherwise, nothing stored) and is
        registered with the campaign while it stays open (``Campaign.ChallengeOpened``); a registered unit it
        settles is closed (``Campaign.ChallengeClosed``). The adventure cannot end while one is open
        (``Campaign.end_adventure``). A system that does this itself (Penny Ante) is left alone: the campaign it
        saves already says so. Returns ``touched`` with the campaign when it changed."""
        units: list[Any] = [t for t in touched if isinstance(t, system.resolutions)]
        if not units:
            return touched
        found = next((t for t in touched if isinstance(t, Campaign)), None)
        book = found or campaign or self.campaign(ctx.campaign_id)
        changed = False
        for unit in units:
            pending = getattr(unit, "pending_events", None) or []
            opened = bool(pending) and pending[0].originator_version == 1
            key = unit.id.hex
            if opened and key not in book.open_challenges:
                if not book.adventure_running:
                    raise RuleViolation(f"a {type(unit).__name__} happens during an adventure, like every unit of "
                                        "resolution; start one first", ruling="C-1")
                if not unit.settled:
                    book.open_challenge(unit.id, ctx.actor.name)
                    changed = True
            elif unit.settled and key in book.open_challenges:
                book.close_challenge(key, ctx.actor.name)
                changed = True
        return [*touched, book] if changed and found is None else touched

    # -- exactly once ---------------------------------------------------------------
    @contextmanager
    def _deferred(self) -> Iterator[list[Any]]:
        """Handlers save what they touched; inside a command that save is held back, to be stored with the
        command's record in one atomic save."""
        pending: list[Any] = []
        token = _PENDING.set(pending)
        try:
            yield pending
        finally:
            _PENDING.reset(token)

    def save(self, *objs: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        pending = _PENDING.get()
        if pending is not None and not kwargs:
            pending.extend(o for o in objs if o is not None)
            return None
        return self.store(*objs, **kwargs)

    def store(self, *objs: Any, **kwargs: Any) -> Any:
        """The library's ``Application.save``, step for step, collecting with ``Collected``: the library's own
        collection asks two runtime protocols of every object (``isinstance`` against a ``Protocol`` walks its
        members each time), 3 % of a command's CPU in the profile (issue 32)."""
        processing_event = Collected()
        processing_event.collect_events(*objs, **kwargs)
        recordings = self._record(processing_event)
        self._recorded(processing_event, recordings)
        return recordings

    def _recorded(self, processing_event: Collected, recordings: Any) -> None:
        """What the library's save does once a write is recorded (also after a group's write, ``Group.flush``)."""
        self._take_snapshots(processing_event)
        self._notify(recordings)
        self.notify(processing_event.events)  # the library's deprecated hook, as its save calls it

    # -- shared handlers (C-1, C-6) ------------------------------------------------
    def _add_player(self, ctx: Context, command: AddPlayer) -> UUID:
        """Seat a player with one character (C-1), made by the campaign's system."""
        campaign = self.campaign(ctx.campaign_id)
        seat = player_handle(command.seat)
        name = clean_text(command.character, "a character's name", max_length=80, ruling="C-1", name=True)
        character = self.system(campaign).new_character(self, campaign, seat, name, command, ctx.actor.name)
        campaign.seat_player(seat, character.id, ctx.actor.name)
        self.save(campaign, character, *self.commit_secrets(campaign.id, [seat], ctx.secret, ctx.actor.name))
        return character.id

    def _start_adventure(self, ctx: Context, command: StartAdventure) -> int:
        campaign = self.campaign(ctx.campaign_id)
        number = campaign.start_adventure(ctx.actor.name)
        touched = self.system(campaign).adventure_started(self, campaign, number, command, ctx.actor.name)
        seats = [HOUSE, *campaign.players]  # C-10: seats of a campaign stored before the scheme
        self.save(campaign, *touched, *self.commit_secrets(campaign.id, seats, ctx.secret, ctx.actor.name))
        return number

    def _end_adventure(self, ctx: Context, command: EndAdventure) -> int:
        campaign = self.campaign(ctx.campaign_id)
        number = campaign.end_adventure(ctx.actor.name)
        touched = self.system(campaign).adventure_ended(self, campaign, number, ctx.actor.name)
        self.save(campaign, *touched)
        return number

    def _rewind(self, ctx: Context, command: Rewind) -> UUID:
        campaign = self.campaign(ctx.campaign_id)
        unit = self.unit(campaign, command.unit)
        system = system_of_unit(unit)
        shown = [] if command.reveal else unit.revealed_by_rewind(
            lambda: self.repository.get(unit.id, version=command.to_step), command.to_step)
        if shown:  # C-8: what every seat saw stays public where the rewind puts it; the House goes ahead knowingly
            one = len(shown) == 1
            raise RuleViolation(
                f"this rewind puts {', '.join(shown)} back where {'it was' if one else 'they were'} hidden; every "
                f"seat saw {'it' if one else 'them'}, so {'it stays' if one else 'they stay'} shown to all there, "
                "marked as seen before the rewind. Rewind with reveal=true (CLI: --yes, or answer the question) to "
                "go ahead", ruling="C-8")
        self.save(*system.rewind(self, ctx, campaign, unit, command.to_step, command.reason))
        return command.unit

    def _overturn(self, ctx: Context, command: Overturn) -> UUID:
        campaign = self.campaign(ctx.campaign_id)
        unit = self.unit(campaign, command.unit)
        command.verify_ruling()  # C-6: a new winner or void, not both, not neither
        self.save(*system_of_unit(unit).overturn(self, ctx, campaign, unit, command))
        return command.unit

