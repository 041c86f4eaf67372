"""Per-address limits on creating and joining rooms (docs/protocol.md "Limits").

- The address is the client's as the server sees it: the peer, or the `X-Forwarded-For`
  address uvicorn took from a proxy in FORWARDED_ALLOW_IPS (`request.client.host`). An IPv6
  address counts by its /64 network (one household, one customer of a provider, gets a whole
  /64), an IPv4-mapped IPv6 address as the IPv4 address.
- Request rates are counted in this process's memory with the `limits` library
  (https://limits.readthedocs.io), in fixed windows that start at an address's first request:
  `Retry-After` is exact, and at most twice the amount fits in one window's length across a
  window's end. A rate limit protects the process that serves the requests, so per-process
  counting is what it needs; with N processes behind a proxy an address gets at most N times
  the rate. What one address may keep — its waiting rooms, its places in the lobby — is counted
  in the database (`rooms.creator_hash`; `check_waiting_rooms`, app/lobby.py), so it holds
  across every process sharing it.
- The database stores only `address_hash`: 128 bits of a sha256 of the address key, kept while
  the room waits (cleared at the start, or deleted with the room). It is pseudonymous, not
  anonymous: IPv4 addresses are few enough to hash them all.
"""
from __future__ import annotations

import hashlib
import ipaddress
import math
import time
from datetime import timedelta

from limits import RateLimitItem, parse_many, storage, strategies
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from .refusals import Refusal
from .models import Room, utcnow

IPV6_PREFIX = 64


def address_key(host: str | None) -> str:
    """The key an address is counted under: ``'203.0.113.9'``, ``'2001:db8:1:2::/64'``; the
    raw text for something that is no IP address (a test client, a Unix socket: ``'-'``)."""
    if not host:
        return "-"
    try:
        ip = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return host[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, IPV6_PREFIX), strict=False))
    return str(ip)


def address_hash(host: str | None) -> str:
    """What the rooms table stores of the creator's address: 32 hex digits of sha256 of its key."""
    return hashlib.sha256(("osaka-address " + address_key(host)).encode()).hexdigest()[:32]


def parse_limits(text: str) -> list[RateLimitItem]:
    """``"10/minute;60/hour"`` → the `limits` items (empty text or ``"off"``: none). ValueError
    for anything `limits.parse_many` cannot read."""
    text = text.strip()
    if not text or text.lower() == "off":
        return []
    return parse_many(text)


def rate_limited(retry_after_s: float, code: str = "rate_limited", **params: int | str) -> Refusal:
    """429 `rate_limited` (or `too_many_rooms`, with its `held`) with the field `retry_after_s`
    (whole seconds, >= 1), which app/errors.py also sends as the `Retry-After` header."""
    return Refusal(code, retry_after_s=max(1, math.ceil(retry_after_s)), **params)


class Limiter:
    """Named rate limits per address, e.g. ``Limiter({"create": "10/minute;60/hour"})``."""

    def __init__(self, rules: dict[str, str]):
        self._rules = {name: parse_limits(text) for name, text in rules.items()}
        self._limiter = strategies.FixedWindowRateLimiter(storage.MemoryStorage())

    def hit(self, name: str, host: str | None) -> None:
        """Count one `name` request from `host`, or raise 429 `rate_limited` (nothing counted then)."""
        key = address_key(host)
        if self.allow(name, key):
            return
        for item in self._rules.get(name) or []:
            if not self._limiter.test(item, name, key):
                reset = self._limiter.get_window_stats(item, name, key).reset_time
                wait = math.ceil(reset - time.time())
                raise rate_limited(wait)

    def check(self, name: str, host: str | None) -> None:
        """Raise 429 `rate_limited` while `host` is at one of `name`'s limits; counts nothing (with
        `allow`, for limits that count only some outcomes, e.g. lookups of unknown codes)."""
        key = address_key(host)
        items = self._rules.get(name) or []
        if not all(self._limiter.test(item, name, key) for item in items):
            raise rate_limited(self.retry_after_s(name, key))

    def retry_after_s(self, name: str, key: str) -> int:
        """Whole seconds (≥ 1) until `key` may do `name` again, after `allow` said no."""
        wait = 1
        for item in self._rules.get(name) or []:
            if not self._limiter.test(item, name, key):
                reset = self._limiter.get_window_stats(item, name, key).reset_time
                wait = max(wait, math.ceil(reset - time.time()))
        return wait

    def allow(self, name: str, key: str) -> bool:
        """Count one `name` event of `key` (an `address_key`, or any other string) unless one
        of its limits is reached; → whether it was counted."""
        items = self._rules.get(name) or []
        if not all(self._limiter.test(item, name, key) for item in items):
            return False
        for item in items:
            self._limiter.hit(item, name, key)
        return True


class OwnWindows:
    """The fixed windows of `limits` items (``parse_limits("60/3seconds")``) for one owner
    that counts its own events (one connection's incoming frames, FLOOD_LIMIT), held in the
    object itself: `Limiter`'s rule in the same notation, without its shared storage, whose
    walk over every key to expire it cost 3-4 % of a busy server's CPU with one key per socket
    (bench/load.py, 1000 rooms; docs/performance.md). A window starts at the first event after
    the last one ended; an event refused is not counted.

    >>> w = OwnWindows(parse_limits("2/second"))
    >>> [w.allow(now=0.0), w.allow(now=0.1), w.allow(now=0.2), w.allow(now=1.0)]
    [True, True, False, True]
    """

    __slots__ = ("_rules", "_ends", "_counts")

    def __init__(self, items: list[RateLimitItem]):
        self._rules = [(item.amount, float(item.get_expiry())) for item in items]
        self._ends = [0.0] * len(self._rules)
        self._counts = [0] * len(self._rules)

    def allow(self, now: float | None = None) -> bool:
        """Count one event (at `now`, time.monotonic() seconds by default) unless one of the
        windows is full; → whether it was counted."""
        if now is None:
            now = time.monotonic()
        ends, counts = self._ends, self._counts
        for k, (amount, length) in enumerate(self._rules):
            if now >= ends[k]:
                ends[k], counts[k] = now + length, 0
            if counts[k] >= amount:
                return False
        for k in range(len(counts)):
            counts[k] += 1
        return True


async def check_waiting_rooms(session: AsyncSession, creator_hash: str, cap: int,
                              unused_ttl_s: float) -> None:
    """429 `too_many_rooms` when the address `creator_hash` already holds `cap` waiting rooms
    (0 = no cap). Counted in the database, so across every process; two requests of one
    address at the same moment may both pass. `retry_after_s`: when its oldest room that nobody
    ever joined or connected to is deleted, else 60 (a hint)."""
    if cap <= 0:
        return
    mine = (Room.creator_hash == creator_hash) & (Room.status == "waiting")
    held = await session.scalar(select(func.count(Room.id)).where(mine))
    if held < cap:
        return
    oldest_unused = await session.scalar(select(func.min(Room.created_at))
                                         .where(mine, Room.active_at == Room.created_at))
    wait = 60.0
    if oldest_unused is not None:
        wait = (oldest_unused + timedelta(seconds=unused_ttl_s) - utcnow()).total_seconds()
    raise rate_limited(wait, "too_many_rooms", held=held)
