"""The projection runner: applies the notification log to the read models, in batches, exactly once.

Each batch and its tracking position are written in one transaction (``views.project``). When
another process projected the same batch first, the tracking insert conflicts, the transaction
rolls back, and the runner reads the position again (ADR 0002).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from eventsourcing.domain import OriginatorVersionError
from eventsourcing.persistence import IntegrityError, OperationalError

BATCH = 500
CONFLICTS = 50


class StoreUnavailable(Exception):
    """The event store or the read models cannot be reached or written (HTTP 503, CLI exit 9)."""


class ProjectionRunner:
    def __init__(self, app: Any, views: Any) -> None:
        self.app, self.views = app, views
        self._lock = threading.Lock()

    def position(self) -> int:
        return self.views.max_tracking_id(self.app.name) or 0

    def catch_up(self, progress: Callable[[int, int], None] | None = None) -> int:
        """Apply every event not yet projected; returns how many were applied."""
        applied, conflicts = 0, 0
        with self._lock:
            while True:
                notes = self.app.recorder.select_notifications(start=self.position() + 1, limit=BATCH)
                if not notes:
                    return applied
                batch = [(self.app.mapper.to_domain_event(n), n) for n in notes]
                try:
                    self.views.project(self.app.name, batch)
                except (IntegrityError, OperationalError, OriginatorVersionError) as exc:
                    # Another process projected these first (its rows, or a unit's snapshot already past this
                    # event): this transaction rolled back; read the position again.
                    conflicts += 1
                    if conflicts > CONFLICTS:
                        raise StoreUnavailable(f"the read models cannot catch up: {exc}") from exc
                    time.sleep(0.01 * conflicts)
                    continue
                applied += len(batch)
                if progress:
                    progress(applied, self.app.recorder.max_notification_id() or applied)

    def rebuild(self, progress: Callable[[int, int], None] | None = None) -> int:
        """Empty every read model and project the whole log again; returns the events applied."""
        with self._lock:
            self.views.reset(self.app.name)
        return self.catch_up(progress)
