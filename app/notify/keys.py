"""The server's VAPID key pair (RFC 8292) and the "turn off" tokens derived from it.

The key pair is made at the first start by whichever process comes first: each process that
finds no row makes a key and inserts it if absent (`INSERT … ON CONFLICT DO NOTHING` on the
one-row table), then reads the row, so every process signs with the same key and a browser's
subscription (made for that `applicationServerKey`) stays valid across restarts.

A notification's "turn off" token = base64url(HMAC-SHA256(the private key's PEM, "off:" +
the target's `off_salt`)): the database stores its sha256 only (`notify_targets.off_hash`),
the sender derives it again for each notification. Whoever reads the database could derive
it too -- and could turn the notification off there anyway.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..models import VapidKey, utcnow
from .outbox import insert_ignore


def b64url(data: bytes) -> str:
    """base64url without padding (RFC 7515 §2)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


@dataclass(frozen=True)
class Keys:
    """The VAPID key pair: `private_pem` (PKCS#8 PEM), `public_key` (base64url of the
    uncompressed P-256 point: the browser's applicationServerKey)."""

    private_pem: str
    public_key: str

    def off_token(self, salt: str) -> str:
        """The "turn off" token of a target with this `off_salt` (43 characters)."""
        mac = hmac.new(self.private_pem.encode(), f"off:{salt}".encode(), hashlib.sha256).digest()
        return b64url(mac)


def off_hash(token: str) -> str:
    """What `notify_targets.off_hash` stores of a "turn off" token: its sha256 hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_pair() -> Keys:
    """A fresh P-256 key pair."""
    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()).decode("ascii")
    point = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return Keys(pem, b64url(point))


class VapidKeys:
    """The key pair of this server, read (or made) once per process: `get()`."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession]):
        self.sessions = sessions
        self._keys: Keys | None = None

    async def get(self) -> Keys:
        """The key pair: cached, else read from `vapid_keys`, else made, inserted if still
        absent, and read back (so two processes starting at once agree). Raises what the
        database raises."""
        if self._keys is not None:
            return self._keys
        async with self.sessions() as session:
            row = await session.get(VapidKey, 1)
            if row is None:
                made = new_pair()
                await session.execute(insert_ignore(VapidKey, {"id": 1, "private_pem": made.private_pem,
                                                               "public_key": made.public_key, "created_at": utcnow()},
                                                    ["id"], session))
                await session.commit()
                row = (await session.execute(select(VapidKey).where(VapidKey.id == 1))).scalar_one()
            self._keys = Keys(row.private_pem, row.public_key)
        return self._keys
