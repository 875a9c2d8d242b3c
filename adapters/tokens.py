"""Seat tokens (ADR 0004): 256 random bits per seat, stored only as their SHA-256, never in events,
exports or logs. A reissued token replaces the old one."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from adapters import randomness
from domain.seats import Seat


class Tokens:
    def __init__(self, views: Any) -> None:
        self.views = views

    def issue(self, campaign_id: UUID, seat: str) -> str:
        token = randomness.new_token()
        self.views.store_token(token, campaign_id, seat)
        return token

    def authenticate(self, token: str) -> tuple[UUID, Seat] | None:
        found = self.views.seat_for_token(token)
        return (found[0], Seat(found[1])) if found else None
