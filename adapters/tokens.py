"""Seat tokens (ADR 0004) and one-time invites (ADR 0011).

A token is 256 random bits per seat (or, for a command retried under its key, 256 bits derived from the key
under the server's secret), stored only as its SHA-256, never in events, exports or logs; a new one
replaces the old. The House's token is shown to the House when it creates (or imports) a campaign. A
player's never passes through the House: seating him (or handing his seat out again) answers a one-time
invite code, also stored only as its hash; the player claims it (``POST /invites``, ``stakes claim``), and
the claim, once, issues his token and shows it to him alone. A second claim of the same code is refused.

A browser signs in with a token (or an invite) and gets a web session (issue 29): a random id in its
cookie, stored only as its hash, standing for the seat until a fixed expiry (``Settings.web_session_seconds``).
A seat keeps at most ``Settings.web_sessions_per_seat`` live sessions (the oldest ends first, as a sign-out
ends it) and expired rows are swept. Signing out deletes it; handing the seat out again (``revoke``) or
claiming it deletes every session of the seat, so an old cookie stops working everywhere at once.
"""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any
from uuid import UUID

from adapters import randomness
from adapters.views import now_iso, token_hash
from domain.errors import NotPermitted
from domain.seats import Seat


class Tokens:
    def __init__(self, views: Any, signer: Any) -> None:
        self.views, self.signer = views, signer

    def issue(self, campaign_id: UUID, seat: str, key: str | None = None) -> str:
        """A new token for ``seat``; it replaces the seat's old one. With ``key`` (the Idempotency-Key of
        the command that hands it out) the token is derived from the key under the server's secret: the
        command retried after a lost answer answers the same token again and revokes nothing."""
        token = randomness.new_token() if key is None else \
            self.signer.token(f"seat token\n{campaign_id.hex}\n{seat}\n{key}")
        self.views.store_token(token, campaign_id, seat)
        return token

    def issue_first(self, campaign_id: UUID, seat: str) -> str | None:
        """A new random token for ``seat`` stored only where the seat has none (issue 29): the House's, when
        its campaign is created. None when the seat already has one (it was answered to someone already)."""
        token = randomness.new_token()
        with self.views.datastore.transaction(commit=True) as c:
            stored = self.views._one(c, "INSERT INTO {p}seat_tokens VALUES (?, ?, ?, ?) ON CONFLICT (campaign_id, seat)"
                                        " DO NOTHING RETURNING seat", (token_hash(token), campaign_id.hex, seat, now_iso()))
        return token if stored is not None else None

    def authenticate(self, token: str) -> tuple[UUID, Seat] | None:
        found = self.views.seat_for_token(token)
        return (found[0], Seat(found[1])) if found else None

    def invite(self, campaign_id: UUID, seat: str, code: str | None = None) -> str:
        """A one-time code for ``seat`` (``code``, or a random one); an earlier unclaimed code for the seat
        stops working."""
        code = code or randomness.new_invite()
        with self.views.datastore.transaction(commit=True) as c:
            self.views._x(c, "INSERT INTO {p}seat_invites VALUES (?, ?, ?, ?) ON CONFLICT (campaign_id, seat) DO "
                             "UPDATE SET code_hash = excluded.code_hash, issued_at = excluded.issued_at",
                          (token_hash(code), campaign_id.hex, seat, now_iso()))
        return code

    def invited(self, code: str) -> tuple[UUID, str] | None:
        """The campaign and seat an unclaimed invite code opens, without spending it (None: unknown or spent)."""
        row = self.views.query_one("SELECT campaign_id, seat FROM {p}seat_invites WHERE code_hash = ?",
                                   (token_hash(code),))
        return (UUID(row["campaign_id"]), row["seat"]) if row else None

    def invite_claimed(self, campaign_id: UUID, seat: str) -> bool:
        """Whether the seat's last invite was claimed (its code is spent, C-1); False while it waits, or when the
        seat has none."""
        row = self.views.query_one("SELECT code_hash FROM {p}seat_invites WHERE campaign_id = ? AND seat = ?",
                                   (campaign_id.hex, seat))
        return row is not None and str(row["code_hash"]).startswith("spent:")

    def invite_once(self, campaign_id: UUID, seat: str, key: str) -> str:
        """The invite code of the command keyed ``key`` that seated ``seat``, derived from the key, so the
        command retried after a lost answer answers the same code. It is stored, in one statement, only while
        the seat has neither a token nor a code row (a claimed code's row stays, spent): a replay after the
        player claimed his seat, or after the House handed it out again (which the log shows), answers a code
        that seats nobody (C-1)."""
        code = self.signer.token(f"invite\n{campaign_id.hex}\n{seat}\n{key}").replace("stk_", "inv_", 1)
        with self.views.datastore.transaction(commit=True) as c:
            self.views._x(c, "INSERT INTO {p}seat_invites SELECT ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM"
                             " {p}seat_tokens WHERE campaign_id = ? AND seat = ?) ON CONFLICT DO NOTHING",
                          (token_hash(code), campaign_id.hex, seat, now_iso(),
                           campaign_id.hex, seat))
        return code

    def reissue_code(self, campaign_id: UUID, seat: str, key: str) -> str:
        """The invite code of the reissue keyed ``key`` (issue 29): derived from the key under the server's
        secret, so the reissue retried after a lost answer answers the same code. ``finish_reissue`` stores it
        while nobody claimed the seat since the reissue; once claimed it is spent and seats nobody (C-1)."""
        return self.signer.token(f"reissue\n{campaign_id.hex}\n{seat}\n{key}").replace("stk_", "inv_", 1)

    def finish_reissue(self, campaign_id: UUID, seat: str, code: str, at: datetime) -> None:
        """Bring the seat to what the reissue stored at ``at`` says (issue 29, ADR 0028), in one transaction,
        as often as asked: its first run and every replay call it, so a replay finishes what a first run that
        failed after its write left undone, and undoes nothing a later step did.

        The seat's token issued before ``at`` (the old holder's) and the web sessions signed in before ``at``
        are deleted; a token issued since (the player claimed a code) stays. ``code`` is stored as the seat's
        invite only while no token was claimed since and the seat's invite row is neither this code (stored,
        or claimed and spent) nor one issued since (a later reissue's); the write is conditional on the row
        read, so a claim racing it is never undone (a spent code never works again, C-1)."""
        hashed = token_hash(code)
        with self.views.datastore.transaction(commit=True) as c:
            token = self.views._one(c, "SELECT token_hash, issued_at FROM {p}seat_tokens WHERE campaign_id = ? AND"
                                       " seat = ?", (campaign_id.hex, seat))
            if token is not None and datetime.fromisoformat(token["issued_at"]) < at:
                self.views._x(c, "DELETE FROM {p}seat_tokens WHERE token_hash = ?", (token["token_hash"],))
                token = None
            self.views._x(c, "SELECT session_hash, created_at FROM {p}web_sessions WHERE campaign_id = ? AND seat = ?",
                          (campaign_id.hex, seat))
            for row in [dict(r) for r in c.fetchall()]:
                if datetime.fromisoformat(row["created_at"]) < at:
                    self.views._x(c, "DELETE FROM {p}web_sessions WHERE session_hash = ?", (row["session_hash"],))
            if token is not None:
                return  # the player claimed his seat since the reissue: its code is spent
            invite = self.views._one(c, "SELECT code_hash, issued_at FROM {p}seat_invites WHERE campaign_id = ? AND"
                                        " seat = ?", (campaign_id.hex, seat))
            if invite is None:
                self.views._x(c, "INSERT INTO {p}seat_invites VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                              (hashed, campaign_id.hex, seat, now_iso()))
            elif invite["code_hash"] not in (hashed, "spent:" + hashed) and \
                    datetime.fromisoformat(invite["issued_at"]) < at:
                self.views._x(c, "UPDATE {p}seat_invites SET code_hash = ?, issued_at = ? WHERE code_hash = ?",
                              (hashed, now_iso(), invite["code_hash"]))

    def revoke(self, campaign_id: UUID, seat: str) -> None:
        """The seat's token and every web session signed in with it stop working (it is being handed out
        again), in one transaction."""
        with self.views.datastore.transaction(commit=True) as c:
            self.views._x(c, "DELETE FROM {p}seat_tokens WHERE campaign_id = ? AND seat = ?", (campaign_id.hex, seat))
            self.views._x(c, "DELETE FROM {p}web_sessions WHERE campaign_id = ? AND seat = ?", (campaign_id.hex, seat))

    # -- web sessions (issue 29) ------------------------------------------------------------------
    def open_session(self, campaign_id: UUID, seat: str, seconds: int, cap: int | None = None
                     ) -> tuple[str, float, int]:
        """A new web session for the seat, its expiry (epoch seconds), and how many of the seat's live sessions
        it ended. Expired sessions (every seat's) are swept; with ``cap`` the seat keeps at most ``cap`` live
        sessions, the oldest ending first (issue 29, ADR 0028): a browser signed in again and again holds no
        unbounded rows. The caller tells the open streams (``Fanout.revoked``) when any ended."""
        session, now = randomness.new_session(), time.time()
        ended = 0
        with self.views.datastore.transaction(commit=True) as c:
            self.views._x(c, "DELETE FROM {p}web_sessions WHERE expires_at <= ?", (now,))
            self.views._x(c, "INSERT INTO {p}web_sessions VALUES (?, ?, ?, ?, ?)",
                          (token_hash(session), campaign_id.hex, seat, now + seconds, now_iso()))
            if cap is not None:
                self.views._x(c, "SELECT session_hash FROM {p}web_sessions WHERE campaign_id = ? AND seat = ?"
                                 " ORDER BY expires_at DESC, created_at DESC", (campaign_id.hex, seat))
                rows = [dict(r) for r in c.fetchall()]
                for row in rows[cap:]:  # the new session is the newest: it always stays
                    if row["session_hash"] != token_hash(session):
                        self.views._x(c, "DELETE FROM {p}web_sessions WHERE session_hash = ?",
                                      (row["session_hash"],))
                        ended += 1
        return session, now + seconds, ended

    def session(self, session: str) -> tuple[UUID, Seat, float] | None:
        """The seat a web session stands for and its expiry; None when unknown, signed out or expired (an
        expired row met here is swept at once, not only at the next sign-in)."""
        row = self.views.query_one("SELECT campaign_id, seat, expires_at FROM {p}web_sessions WHERE session_hash = ?",
                                   (token_hash(session),))
        if row is None:
            return None
        if float(row["expires_at"]) <= time.time():
            with self.views.datastore.transaction(commit=True) as c:
                self.views._x(c, "DELETE FROM {p}web_sessions WHERE expires_at <= ?", (time.time(),))
            return None
        return UUID(row["campaign_id"]), Seat(row["seat"]), float(row["expires_at"])

    def close_session(self, session: str) -> bool:
        """Sign out: the session stops working at once, in every process. True when it existed."""
        with self.views.datastore.transaction(commit=True) as c:
            found = self.views._one(c, "DELETE FROM {p}web_sessions WHERE session_hash = ? RETURNING seat",
                                    (token_hash(session),))
        return found is not None

    def claim(self, code: str) -> tuple[UUID, str, str]:
        """The seat's campaign, name and new token; the code is spent (a second claim is refused). Spending
        the code and storing the token are one transaction, and the spent code's row stays (marked), so no
        moment exists where the seat has neither and a replayed seating could store its code again."""
        token = randomness.new_token()
        with self.views.datastore.transaction(commit=True) as c:
            hashed = token_hash(code)
            found = self.views._one(c, "UPDATE {p}seat_invites SET code_hash = ? WHERE code_hash = ?"
                                       " RETURNING campaign_id, seat", ("spent:" + hashed, hashed))
            if found is not None:
                self.views.store_token(token, UUID(found["campaign_id"]), found["seat"], c)
                # a new holder: no browser signed in before the claim keeps the seat
                self.views._x(c, "DELETE FROM {p}web_sessions WHERE campaign_id = ? AND seat = ?",
                              (found["campaign_id"], found["seat"]))
        if found is None:
            raise NotPermitted("this invite code is unknown or already claimed: ask the House for a new one "
                               "(each code seats its player once)", ruling="C-1")
        return UUID(found["campaign_id"]), found["seat"], token
