"""Pure work beside the caller, in a forked child (issue 32, ADR 0043): the audit walks the chain and replays
the snapshots (Python, one core) while it projects the campaign into its scratch store (Python and the store,
the other core). A thread would not do: the interpreter's lock lets one of them run at a time.

The child is a copy of this process at the fork: it sees what was read before it without a byte being sent,
and it runs only ``work``, which must touch no connection, file or lock of the parent (the audit's chain walk
reads the rows already in memory). It sends back its answer pickled through a pipe and leaves with
``os._exit``: no ``atexit`` hook, no buffered output and no connection's goodbye runs twice.

Nothing here may check less than the inline call: where ``fork`` is missing (not Linux) or fails, where the
child dies, raises or does not answer in time, ``work`` runs in the caller when its answer is asked for, and
raises there as it would have.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import sys
import time
from collections.abc import Callable
from typing import NoReturn, TypeVar

T = TypeVar("T")

#: Seconds the caller waits for the child's answer once it asks, at least; more if its own part took longer
#: (``PATIENCE`` times that): a child that hangs is killed and its work done in the caller.
WAIT = 60.0
PATIENCE = 4.0


def beside(work: Callable[[], T]) -> Callable[[], T]:
    """Start ``work`` in a forked child now; returns the function that waits for its answer (or runs ``work``
    in the caller, see the module's doc)."""
    if sys.platform != "linux" or not hasattr(os, "fork"):
        return work
    started = time.monotonic()
    read, write = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read)
        os.close(write)
        return work
    if pid == 0:  # the child: the work, its answer, and out
        os.close(read)
        _answer(work, write)
    os.close(write)

    def answer() -> T:
        patience = max(WAIT, PATIENCE * (time.monotonic() - started))
        data = _drain(read, patience)
        if data is None:  # no answer in time: the child is stuck
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        os.waitpid(pid, 0)
        if data:
            try:
                ok, value = pickle.loads(data)
            except Exception:  # a torn answer: the work is done here instead
                ok = False
            if ok:
                return value  # type: ignore[no-any-return]
        return work()  # the child died, raised or hung: the work here, raising here as it would have

    return answer


def _answer(work: Callable[[], T], write: int) -> NoReturn:
    code = 0
    try:
        try:
            data = pickle.dumps((True, work()))
        except BaseException:  # the caller runs the work again and raises the real error
            data, code = pickle.dumps((False, None)), 1
        view = memoryview(data)
        while view:
            view = view[os.write(write, view):]
    finally:
        os._exit(code)


def _drain(read: int, patience: float) -> bytes | None:
    """Everything the child writes until it closes its end; None if it takes longer than ``patience``."""
    chunks: list[bytes] = []
    deadline = time.monotonic() + patience
    waiting = select.poll()  # not select(): a server with a thousand open streams has descriptors past 1,024
    waiting.register(read, select.POLLIN | select.POLLHUP)
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not waiting.poll(left * 1000):
                return None
            chunk = os.read(read, 1 << 16)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    finally:
        os.close(read)
