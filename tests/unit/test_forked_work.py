"""Work beside the caller in a forked child (``adapters/forked.py``, ADR 0043): the answer is the child's when it
gives one, and the caller's own run of the work otherwise, so the audit never checks less for it."""

from __future__ import annotations

import os
import time

import pytest

from adapters import forked


def test_the_answer_comes_from_a_child_process_that_saw_what_the_caller_held() -> None:
    held = {"rows": list(range(1000))}
    answer = forked.beside(lambda: (os.getpid(), sum(held["rows"])))
    pid, total = answer()
    assert pid != os.getpid()
    assert total == sum(range(1000))


def test_a_large_answer_crosses_the_pipe_whole_while_the_caller_works() -> None:
    answer = forked.beside(lambda: "x" * 1_000_000)
    time.sleep(0.05)  # the child blocks on a full pipe until the caller asks
    assert answer() == "x" * 1_000_000


def test_work_that_raises_in_the_child_raises_the_same_error_in_the_caller() -> None:
    calls: list[int] = []

    def work() -> int:
        calls.append(os.getpid())
        raise LookupError("no such link")

    answer = forked.beside(work)
    with pytest.raises(LookupError, match="no such link"):
        answer()
    assert calls == [os.getpid()]  # the child's run is not the caller's list: only the caller's run shows


def test_a_child_that_hangs_is_killed_and_the_work_done_by_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forked, "WAIT", 0.3)
    parent = os.getpid()

    def work() -> str:
        if os.getpid() != parent:
            time.sleep(60)
        return "done here"

    started = time.monotonic()
    assert forked.beside(work)() == "done here"
    assert time.monotonic() - started < 10


def test_a_child_that_dies_without_answering_leaves_the_work_to_the_caller() -> None:
    parent = os.getpid()

    def work() -> int:
        if os.getpid() != parent:
            os._exit(3)
        return 42

    assert forked.beside(work)() == 42


def test_where_fork_is_missing_the_work_runs_in_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forked.sys, "platform", "darwin")
    answer = forked.beside(os.getpid)
    assert answer() == os.getpid()
