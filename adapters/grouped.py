"""Group commit (issue 32, ADR 0042): commands that arrive together are decided one after another by one
thread, stored in one write, projected in one catch-up and answered together.

A command's thread (a server's worker thread, or the CLI's only one) hands its command to ``Leader.submit``.
If no group is being decided, that thread leads: it takes every command waiting (its own first), decides them
in turn on the cache's aggregates (``domain.application.Group``), stores what they decided in one transaction,
catches the read models up once and builds each command's answer; then it hands the lead to a thread still
waiting, if any, and returns its own answer. A thread that finds a leader at work waits for its answer (or
for the lead). So a busy process pays one commit, one catch-up and one trip through the projection's lock for
a group, not for each command, and its commands never contend for the interpreter with each other's writes.

What stays as it was, command by command: exactly once (each command stores its own record, checked under its
key), its read set (checked in the group's transaction; ``Group``), its refusal (a refused command stores
nothing and leaves the others alone), its answer (built after the write it belongs to, before anything else
changes the aggregates it changed). A group whose write fails (another process won a race, a read set moved,
the store went down) stores nothing: its commands are decided again, each alone, as before group commit.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from domain.application import Group, GroupLost, Regroup, StakesApplication

#: Commands one group decides at most: enough to share a commit among every client of a busy table, few
#: enough that the first command of a group is not kept waiting for the last one's answer.
MOST = 32


class Job:
    """One command: ``decide`` runs it in the domain (answers what the command returns), ``answer`` builds its
    answer from the read models once its write is stored and projected."""

    __slots__ = ("answer", "decide", "decided", "error", "finished", "heads", "value", "wake")

    def __init__(self, decide: Callable[[], Any], answer: Callable[[Any], Any]) -> None:
        self.decide, self.answer = decide, answer
        self.decided: Any = None
        self.value: Any = None
        self.error: BaseException | None = None
        #: The campaigns' heads as the write that stored the command left them (``ChainMixin.written``).
        self.heads: dict[str, Any] = {}
        self.finished = False
        self.wake = threading.Event()  # set when the job is finished, or when its thread is to lead

    def finish(self) -> None:
        self.finished = True
        self.wake.set()

    def outcome(self) -> Any:
        if self.error is not None:
            raise self.error
        return self.value


class Leader:
    """The process's one group at a time (see the module's docstring). ``alone`` runs a command as a process
    without group commit does (its own write, catch-up and answer)."""

    def __init__(self, app: StakesApplication, catch_up: Callable[[], Any], alone: Callable[[Job], Any],
                 handing_in: Callable[[], Any], written: Callable[[], dict[str, Any]]) -> None:
        self.app, self.catch_up, self.alone, self.handing_in = app, catch_up, alone, handing_in
        self.written = written
        self._lock = threading.Lock()
        self._waiting: list[Job] = []
        self._leading = False
        self._here = threading.local()

    def submit(self, job: Job) -> Any:
        if getattr(self._here, "leading", False):  # a command run from inside another's: never wait for oneself
            return self.alone(job)
        with self._lock:
            self._waiting.append(job)
            lead = not self._leading
            self._leading = True
        if not lead:
            job.wake.wait()
            if job.finished:
                return job.outcome()
        # this thread leads: its job is the first waiting (the lead passes only to the first)
        with self._lock:
            jobs, self._waiting = self._waiting[:MOST], self._waiting[MOST:]
        self._here.leading = True
        try:
            with self.handing_in():
                group, decided, lost = self._decide(jobs)
                # projected and answered before the next group is decided: the same thread, so the next group
                # finds this one's aggregates in the cache and nothing contends for the interpreter (ADR 0042)
                self._finish(group, decided, lost)
        finally:
            self._here.leading = False
            with self._lock:
                if self._waiting:
                    self._waiting[0].wake.set()  # not finished: told to lead the next group
                else:
                    self._leading = False
        return job.outcome()

    def _decide(self, jobs: list[Job]) -> tuple[Group, list[Job], bool]:
        """Decide each command in turn and store the group; answers the group, the commands stored (or lost)
        in its last write, and whether that write was lost. A refused command is finished here."""
        group = self.app.group()
        decided: list[Job] = []
        try:
            for job in jobs:
                while True:
                    try:
                        with self.app.in_group(group), self.app.taking():
                            job.decided = job.decide()
                    except Regroup:  # wants what an earlier command of the group changed: store that first
                        with self.handing_in():
                            self._finish(group, decided, self._write(group, decided))
                        decided = []
                        continue
                    except BaseException as exc:  # refused: stores nothing, leaves the others alone
                        job.error = exc
                        job.finish()
                    else:
                        decided.append(job)
                    break
            return group, decided, self._write(group, decided)
        except BaseException as exc:
            for job in jobs:
                if not job.finished:  # the leader itself failed: nobody waits forever
                    job.error = job.error or exc
                    job.finish()
            raise

    def _write(self, group: Group, jobs: list[Job]) -> bool:
        """Store what the group decided, in one write; answers whether it was lost (nothing stored). Each
        command stored gets the heads that write left (its answer's signed head, C-2)."""
        if not jobs:
            return False
        self.written()  # what an earlier write of this thread left untaken
        try:
            group.flush()
        except GroupLost:
            return True
        heads = self.written()
        for job in jobs:
            job.heads = heads
        return False

    def _finish(self, group: Group, jobs: list[Job], lost: bool) -> None:
        """After a group's write: catch the read models up and answer each command; or, the write lost, decide
        each command again alone, as without group commit."""
        if not jobs:
            return
        try:
            if lost:
                for job in jobs:
                    try:
                        job.value = self.alone(job)
                    except Exception as exc:
                        job.error = exc
            else:
                self.catch_up()
                for job in jobs:
                    try:
                        job.value = job.answer(job.decided)
                    except Exception as exc:
                        job.error = exc
                group.give_back()
        except Exception as exc:  # the catch-up failed: the commands are stored, their answers are not
            group.drop()
            for job in jobs:
                job.error = job.error or exc
        finally:
            for job in jobs:
                job.finish()
