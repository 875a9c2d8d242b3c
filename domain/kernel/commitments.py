"""Per-seat committed secrets for one-shot draws (C-4, C-9, C-10; issue 30).

A one-shot draw (a Pool roll, a Pulp deal, a Beast action: the player's seed and the draw in one request)
cannot commit *at* the request: whoever runs the server would see the seed before choosing the secret. So
each seat holds a secret committed in advance, the casino way:

* at seating (a player), at the campaign's creation (the House), or, for a seat of a campaign stored before
  this scheme, when the House starts an adventure, the seat's ``SeatSecret`` records ``Committed``: nonce 0,
  the SHA-256 of a fresh secret (public in the log) and the secret itself (hidden from every seat);
* a one-shot draw by that seat uses the committed secret, which the draw's unit reveals with its result, and
  in the same write the seat's ``SeatSecret`` records ``Renewed``: the nonce used, the unit that used it, and
  the next commitment (nonce + 1, its hash public, its secret hidden).

The hash of the secret a draw uses was therefore in the log before the player's seed arrived (C-10), and
nobody can choose it after: the next one is fixed before the next request. Each secret serves exactly one
draw; the nonce numbers them. The secret is recorded, so a replay never draws again (C-3), and a rewind of
the unit restores nothing here (C-7).
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any, ClassVar
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate, event

from domain.errors import RuleViolation
from domain.fairness import commitment

#: The log hides a committed secret from every seat, forever: it is revealed by the unit that uses it (C-5).
VISIBILITY: dict[str, dict[str, Any]] = {
    "SeatSecret.Committed": {"fields": {"secret_seed": []}},
    "SeatSecret.Renewed": {"fields": {"secret_seed": []}},
}


def derived_secret(secret: str, label: str) -> str:
    """A secret of its own for ``label``, from one drawn by the adapters (several seats committed by one
    command each get one: HMAC-SHA256 keyed with the drawn secret, 256 bits, as unpredictable)."""
    return hmac.new(secret.encode(), label.encode(), hashlib.sha256).hexdigest()


class SeatSecret(Aggregate):
    """One seat's next committed secret (C-10). Its id is derived from the campaign and the seat."""

    NAMESPACE: ClassVar[UUID] = uuid5(NAMESPACE_URL, "stakes:seat-secret")

    @staticmethod
    def create_id(campaign_id: UUID, seat: str, **_: Any) -> UUID:  # type: ignore[override]
        return uuid5(SeatSecret.NAMESPACE, f"{UUID(str(campaign_id)).hex}:{seat}")

    @event("Committed")
    def __init__(self, campaign_id: UUID, seat: str, nonce: int, seed_hash: str, secret_seed: str,
                 actor: str) -> None:
        self.campaign_id, self.seat = campaign_id, seat
        self.nonce, self.seed_hash, self.secret_seed = nonce, seed_hash, secret_seed
        self.last_used: dict[str, Any] | None = None

    @classmethod
    def commit(cls, campaign_id: UUID, seat: str, secret: str, actor: str) -> SeatSecret:
        """The seat's first commitment (nonce 0)."""
        if not secret:
            raise ValueError("a commitment needs a secret drawn by the adapters")
        return cls(campaign_id=campaign_id, seat=seat, nonce=0, seed_hash=commitment(secret), secret_seed=secret,
                   actor=actor)

    def current(self) -> tuple[int, str, str]:
        """The nonce, hash and secret a draw made now uses."""
        return self.nonce, self.seed_hash, self.secret_seed

    def renew(self, unit: UUID, used_hash: str, next_secret: str, actor: str) -> None:
        """The committed secret was used by the unit ``unit`` (whose ``seed_hash`` is ``used_hash``);
        commit the next one in the same write (C-10)."""
        if used_hash != self.seed_hash:
            raise RuleViolation("a one-shot draw uses the secret its seat committed before the input",
                                ruling="C-10")
        if not next_secret:
            raise ValueError("the next commitment needs a fresh secret from the adapters")
        self._renewed(used_nonce=self.nonce, unit=unit.hex, used_hash=used_hash, nonce=self.nonce + 1,
                      seed_hash=commitment(next_secret), secret_seed=next_secret, actor=actor)

    @event("Renewed")
    def _renewed(self, used_nonce: int, unit: str, used_hash: str, nonce: int, seed_hash: str,
                 secret_seed: str, actor: str) -> None:
        self.last_used = {"nonce": used_nonce, "unit": unit, "seed_hash": used_hash}
        self.nonce, self.seed_hash, self.secret_seed = nonce, seed_hash, secret_seed
