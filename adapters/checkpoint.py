"""Signed checkpoints of a campaign's log, in the C2SP tlog-checkpoint and signed-note formats.

A checkpoint is the note text ``<origin>\\n<tree size>\\n<base64 root hash>\\n``, then a blank line and one
signature line ``— <key name> <base64(key id || Ed25519 signature)>``; the key id is the first four bytes of
``SHA-256(key name || "\\n" || 0x01 || public key)``. The root is the RFC 9162 Merkle tree hash over the
campaign's leaves (``adapters/merkle.py``); the origin names the server and the campaign.

The Ed25519 key lives in a file outside the database (``STAKES_SIGNING_KEY``), created on first use with
mode 0600; whoever can read it can sign heads, so it is kept away from the store's backups.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import threading
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

DASH = "\u2014"
ED25519 = b"\x01"


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def key_id(name: str, public: bytes) -> bytes:
    return hashlib.sha256(name.encode() + b"\n" + ED25519 + public).digest()[:4]


def origin(log_name: str, campaign_hex: str) -> str:
    return f"{log_name}/campaigns/{campaign_hex}"


@dataclass(frozen=True)
class Head:
    """A verified checkpoint: the log's origin, its size and its root hash, and the note that signs them."""

    origin: str
    size: int
    root: bytes
    note: str


class InvalidCheckpoint(ValueError):
    """A checkpoint that is malformed, or not signed by the key it should be."""


class Signer:
    """The server's checkpoint key, loaded from its file or created there on first use."""

    def __init__(self, path: Path, name: str) -> None:
        from cryptography.hazmat.primitives import serialization  # the server's side only: a client verifies

        self.path, self.name = path, name
        self.key = _load_or_create(path)
        self.public = self.key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        self.id = key_id(name, self.public)
        secret = self.key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                        serialization.NoEncryption())
        self._seal_key = hashlib.sha256(b"stakes snapshot seal\n" + secret).digest()
        self._token_key = hashlib.sha256(b"stakes seat token\n" + secret).digest()
        self._notes: dict[tuple[str, int, bytes], str] = {}
        self._signing = threading.Lock()

    @property
    def vkey(self) -> str:
        """The verifier key, as the Go ``note`` package and Sigstore's tools spell it."""
        return f"{self.name}+{self.id.hex()}+{_b64(ED25519 + self.public)}"

    def sign(self, log_origin: str, size: int, root: bytes) -> str:
        """A checkpoint note. Ed25519 is deterministic: the notes of the last few heads are kept, so the
        commands of one group (one write, one head) share one signature."""
        key = (log_origin, size, root)
        note = self._notes.get(key)
        if note is not None:
            return note
        with self._signing:  # the commands of a group ask at once: the first signs, the others take its note
            note = self._notes.get(key)
            if note is None:
                body = f"{log_origin}\n{size}\n{_b64(root)}\n"
                signature = self.key.sign(body.encode())
                note = f"{body}\n{DASH} {self.name} {_b64(self.id + signature)}\n"
                if len(self._notes) >= 256:
                    self._notes.clear()
                self._notes[key] = note
        return note

    def seal(self, data: bytes) -> str:
        """A MAC under a key derived from the signing key: what only this server can vouch for (snapshots)."""
        return hmac.new(self._seal_key, data, hashlib.sha256).hexdigest()


    def token(self, label: str) -> str:
        """A bearer token derived from ``label`` under a key derived from the signing key: the same label
        gives the same token, and nobody without the key can compute one (a retried creation's answer)."""
        mac = hmac.new(self._token_key, label.encode(), hashlib.sha256).digest()
        return "stk_" + base64.urlsafe_b64encode(mac).rstrip(b"=").decode()


def _load_or_create(path: Path) -> Ed25519PrivateKey:
    from cryptography.hazmat.primitives import serialization

    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        pem = Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as handle:
                handle.write(pem)
        except FileExistsError:  # another process created it first: use theirs
            pass
    key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError(f"{path} does not hold an Ed25519 private key")
    return key


def verify(note: str, vkey: str, expected_origin: str | None = None) -> Head:
    """Parse a signed checkpoint and check its signature against ``vkey``; raises InvalidCheckpoint."""
    try:
        name, hex_id, encoded = vkey.split("+", 2)
        raw = base64.b64decode(encoded, validate=True)
        if raw[:1] != ED25519 or key_id(name, raw[1:]) != bytes.fromhex(hex_id):
            raise ValueError("the verifier key does not match its id")
        public = Ed25519PublicKey.from_public_bytes(raw[1:])
        if "\n\n" not in note:
            raise ValueError("it has no blank line between its body and its signatures")
        body, signatures = note.split("\n\n", 1)
        body += "\n"
        lines = body.split("\n")
        if len(lines) < 4:
            raise ValueError("its body is not an origin line, a size line and a root line")
        try:
            log_origin, size, root = lines[0], int(lines[1]), base64.b64decode(lines[2], validate=True)
        except ValueError:  # not the number or the base64 a head's lines hold (the parser's own words say less)
            raise ValueError("its size line or root line is malformed") from None
        if size < 0 or len(root) != 32 or str(size) != lines[1]:
            raise ValueError("malformed tree size or root")
    except (ValueError, IndexError) as exc:
        raise InvalidCheckpoint(f"not a checkpoint: {exc}") from None
    for line in signatures.splitlines():
        parts = line.split(" ")
        if len(parts) != 3 or parts[0] != DASH or parts[1] != name:
            continue
        try:
            blob = base64.b64decode(parts[2], validate=True)
            if blob[:4] == key_id(name, raw[1:]):
                public.verify(blob[4:], body.encode())
                break
        except (ValueError, InvalidSignature):
            continue
    else:
        raise InvalidCheckpoint(f"the checkpoint carries no valid signature by {name}")
    if expected_origin is not None and log_origin != expected_origin:
        raise InvalidCheckpoint(f"the checkpoint is for {log_origin}, not {expected_origin}")
    return Head(log_origin, size, root, note)
