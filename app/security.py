"""Room codes and seat tokens.

- Room code: 10 characters of Crockford base32 (50 random bits, `secrets`), shown grouped as
  ``ABCDE-FGHJK``; input is normalized (case, hyphens/spaces, I/L→1, O→0) per Crockford's spec
  (https://www.crockford.com/base32.html).
- Seat token: 32 random bytes, URL-safe base64 (256 bits). Only its sha256 is stored; it is
  compared in constant time (`hmac.compare_digest`).
"""
from __future__ import annotations

import hashlib
import hmac
import secrets

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_LENGTH = 10
_TRANSLATE = str.maketrans({"I": "1", "L": "1", "O": "0", "-": None, " ": None})


def new_room_code() -> str:
    """A fresh random room code, e.g. ``'7KQ2M9XR4T'`` (50 bits)."""
    return "".join(secrets.choice(CROCKFORD) for _ in range(CODE_LENGTH))


def normalize_code(raw: str) -> str | None:
    """The canonical code for user input like ``'7kq2m-9xr4t'``, or None if it cannot be one."""
    code = raw.upper().translate(_TRANSLATE)
    if len(code) != CODE_LENGTH or any(c not in CROCKFORD for c in code):
        return None
    return code


def new_token() -> str:
    """A fresh seat token: 256 random bits as 43 URL-safe characters."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """sha256 hex digest of a token (what the database stores)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str, token_hash: str | None) -> bool:
    """True when `token` hashes to `token_hash`; constant time in the hash comparison."""
    if token_hash is None:
        return False
    return hmac.compare_digest(hash_token(token), token_hash)


def bearer_is(authorization: str, secret: str) -> bool:
    """An `Authorization` header's value is `Bearer <secret>` (the scheme in any case, RFC 9110
    §11.1; the secret compared in constant time): the server's own tokens, METRICS_TOKEN and
    ADMIN_TOKEN."""
    return authorization[:7].lower() == "bearer " and hmac.compare_digest(
        authorization[7:].strip().encode(), secret.encode())


def cookie_name(code: str) -> str:
    """Name of the seat cookie for a room: ``osaka_<code>``."""
    return f"osaka_{code}"
