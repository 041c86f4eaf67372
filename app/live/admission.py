"""Admission of room WebSockets: bounded work per seat, per client address and per room.

A client that opens and closes sockets in a loop must not grow the server's memory or delay
the other players (issue 11). `AdmissionGate`, the outermost ASGI middleware, refuses a room
WebSocket over the limits before anything else runs (no routing, no database, no room lock,
not even an access-log line: `Admission` logs a count of refusals at most every
`REFUSAL_LOG_S` seconds instead). `Admission.admit` checks two token buckets:

- per seat: the sha256 of the seat token (`CONNECT_SEAT_RATE` per second on average, bursts of
  `CONNECT_SEAT_BURST`);
- per client address, for every connection (`CONNECT_ADDRESS_RATE`, `CONNECT_ADDRESS_BURST`;
  generous, since players behind one NAT or proxy share an address).

And at most `MAX_ARRIVALS_WAITING` new connections of one room wait for its lock at a time
(`Admission.arriving`), so nothing queues without bound behind the lock (actions of the
players already connected wait behind at most that many). A refused handshake gets
`error too_many_connections` and the close code 4429 (docs/protocol.md).
"""
from __future__ import annotations

import contextlib
import hashlib
import logging
import time
from collections.abc import Iterator

from starlette.websockets import WebSocket

from ..logs import log_event
from ..security import normalize_code
from .handshake import refuse_socket, token_of

REFUSED_CLOSE_CODE = 4429          # "too many connections": private range, like HTTP 429
REFUSED_CODE = "too_many_connections"
MAX_BUCKETS = 10_000               # buckets kept at most; full (idle) ones are dropped first
REFUSAL_LOG_S = 10.0               # refusals are logged as one count per this many seconds
ROOM_SOCKET_PREFIX = "/ws/rooms/"
log = logging.getLogger("osaka.live")


class TokenBuckets:
    """One token bucket per key: `rate` tokens a second, at most `burst`. Memory is bounded:
    a bucket that refilled completely is forgotten (`prune`), as if never used."""

    def __init__(self, rate: float, burst: float, max_buckets: int = MAX_BUCKETS):
        self.rate, self.burst, self.max_buckets = rate, float(burst), max_buckets
        self._buckets: dict[object, tuple[float, float]] = {}  # key → (tokens, at monotonic)

    def take(self, key: object) -> bool:
        """Take one token of `key`'s bucket; False (nothing taken) when it is empty."""
        now = time.monotonic()
        tokens, at = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return False
        self._buckets[key] = (tokens - 1.0, now)
        if len(self._buckets) > self.max_buckets:
            self.prune()
        return True

    def prune(self) -> None:
        """Forget buckets that are full again (or, past `max_buckets`, the oldest half)."""
        now = time.monotonic()
        self._buckets = {k: v for k, v in self._buckets.items()
                         if v[0] + (now - v[1]) * self.rate < self.burst}
        if len(self._buckets) > self.max_buckets:
            oldest = sorted(self._buckets.items(), key=lambda kv: kv[1][1])
            self._buckets = dict(oldest[len(oldest) // 2:])

    def __len__(self) -> int:
        return len(self._buckets)


class Admission:
    """Which room WebSockets may start now (see the module docstring)."""

    def __init__(self, seat_rate: float, seat_burst: int, address_rate: float, address_burst: int,
                 max_arrivals_waiting: int):
        self.seats = TokenBuckets(seat_rate, seat_burst)
        self.addresses = TokenBuckets(address_rate, address_burst)
        self.max_arrivals_waiting = max_arrivals_waiting
        self._arriving: dict[str, int] = {}  # room code → new connections waiting for its lock
        self._refused: dict[str, int] = {}   # reason → refusals not logged yet
        self._logged_at = time.monotonic()

    def admit(self, address: str | None, token: str | None) -> bool:
        """May a connection from `address` (None: unknown) with this seat token (None: a
        spectator) start now? Takes a token of each bucket that applies."""
        if token is not None and not self.seats.take(hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()):
            return self.refused("seat")
        return self.addresses.take(address) or self.refused("address")

    def refused(self, reason: str) -> bool:
        """Count one refusal (`seat`, `address`, `room`); log the counts at most every
        REFUSAL_LOG_S seconds (a flood of refusals is one line, not one per socket). → False."""
        self._refused[reason] = self._refused.get(reason, 0) + 1
        now = time.monotonic()
        if now - self._logged_at >= REFUSAL_LOG_S:
            log_event(log, "connections_refused", logging.WARNING, window_s=round(now - self._logged_at),
                      **self._refused)
            self._refused, self._logged_at = {}, now
        return False

    @contextlib.contextmanager
    def arriving(self, code: str) -> Iterator[bool]:
        """Around a new connection's wait for room `code`'s lock: yields False (and counts
        nothing) when `max_arrivals_waiting` already wait."""
        waiting = self._arriving.get(code, 0)
        if waiting >= self.max_arrivals_waiting:
            yield self.refused("room")
            return
        self._arriving[code] = waiting + 1
        try:
            yield True
        finally:
            self._arriving[code] -= 1
            if not self._arriving[code]:
                del self._arriving[code]


class AdmissionGate:
    """Pure ASGI middleware (the outermost): a room WebSocket over the per-seat or per-address
    limit gets `error too_many_connections` and close 4429 before anything else runs."""

    def __init__(self, app, admission: Admission):
        self.app, self.admission = app, admission

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and scope["path"].startswith(ROOM_SOCKET_PREFIX):
            ws = WebSocket(scope, receive, send)
            token, _ = token_of(ws, normalize_code(scope["path"][len(ROOM_SOCKET_PREFIX):]))
            if not self.admission.admit(ws.client.host if ws.client else None, token):
                return await refuse_socket(ws, REFUSED_CODE, "Too many connections; try again later.",
                                           REFUSED_CLOSE_CODE)
        return await self.app(scope, receive, send)
