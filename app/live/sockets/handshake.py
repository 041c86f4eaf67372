"""The handshake of a room WebSocket, before the room is read: who may connect now, which seat
token it carries, whether a seat cookie may be used (same origin), how a refused socket is
answered.

Admission: a client that opens and closes sockets in a loop must not grow the server's memory
or delay the other players. `AdmissionGate`, the outermost ASGI middleware (but for
app/prefix.py's `Forwarded`), refuses a room WebSocket over the limits before anything else
runs (no routing, no database, no room lock, not even an access-log line: `Admission` logs a
count of refusals at most every `REFUSAL_LOG_S` seconds instead). `Admission.admit` counts the
socket against two rate limits (app/ratelimit.py: the `limits` library, fixed windows, counted
in this process):

- per seat, keyed by the sha256 of the seat token: `CONNECT_SEAT_LIMIT`;
- per client address (`address_key`: an IPv6 address by its /64), every room socket:
  `CONNECT_ADDRESS_LIMIT`, generous, since players behind one NAT or proxy share an address.

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
from urllib.parse import urlsplit

from starlette.websockets import WebSocket, WebSocketState

from ...logs import log_event
from ...prefix import route_path
from ...ratelimit import Limiter, address_key
from ...refusals import Refusal
from ...security import cookie_name, normalize_code
from .connection import dumps

REFUSED_CLOSE_CODE = 4429          # "too many connections": private range, like HTTP 429
REFUSAL_LOG_S = 10.0               # refusals are logged as one count per this many seconds
ROOM_SOCKET_PREFIX = "/ws/rooms/"
MINE_SOCKET = "/ws/mine"           # "My games" (app/live/mine.py): counted per address only
MAX_ARRIVALS_WAITING = 16          # new connections of one room waiting for its lock at once
log = logging.getLogger("osaka.live")


def token_of(ws: WebSocket, code: str | None) -> tuple[str | None, bool]:
    """(token, came_from_cookie): the Bearer header wins over the room's cookie."""
    auth = ws.headers.get("authorization", "")
    if auth[:7].lower() == "bearer ":
        return auth[7:].strip() or None, False
    if code is not None:
        token = ws.cookies.get(cookie_name(code))
        if token:
            return token, True
    return None, False


def same_origin(ws: WebSocket) -> bool:
    """A browser's handshake from another site must not ride on the seat cookie."""
    origin = ws.headers.get("origin")
    if not origin:
        return True
    return urlsplit(origin).netloc.lower() == ws.headers.get("host", "").lower()


async def refuse_socket(ws: WebSocket, refusal: Refusal, close_code: int = 1008) -> None:
    """Accept (if not yet), send the refusal's `error` frame and close with `close_code`
    (reason: its code)."""
    try:
        if ws.application_state == WebSocketState.CONNECTING:
            await ws.accept()
        await ws.send_text(dumps(refusal.frame()))
        await ws.close(close_code, refusal.code)
    except Exception:
        pass


class Admission:
    """Which room WebSockets may start now (see the module docstring)."""

    def __init__(self, seat_limit: str, address_limit: str,
                 max_arrivals_waiting: int = MAX_ARRIVALS_WAITING):
        self.limiter = Limiter({"seat": seat_limit, "address": address_limit})
        self.max_arrivals_waiting = max_arrivals_waiting
        self._arriving: dict[str, int] = {}  # room code → new connections waiting for its lock
        self._refused: dict[str, int] = {}   # reason → refusals not logged yet
        self._logged_at = time.monotonic()

    def admit(self, address: str | None, token: str | None) -> bool:
        """May a connection from `address` (None: unknown) with this seat token (None: a
        spectator) start now? Takes a token of each bucket that applies."""
        if token is not None and not self.limiter.allow(
                "seat", hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()):
            return self.refused("seat")
        return self.limiter.allow("address", address_key(address)) or self.refused("address")

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
    """Pure ASGI middleware (outermost but for app.prefix.Forwarded): a room WebSocket over the per-seat or per-address
    limit gets `error too_many_connections` and close 4429 before anything else runs."""

    def __init__(self, app, admission: Admission):
        self.app, self.admission = app, admission

    async def __call__(self, scope, receive, send):
        path = route_path(scope) if scope["type"] == "websocket" else ""
        if path == MINE_SOCKET and not self.admission.admit(scope["client"][0] if scope.get("client") else None, None):
            return await refuse_socket(WebSocket(scope, receive, send), Refusal("too_many_connections"),
                                       REFUSED_CLOSE_CODE)
        if path.startswith(ROOM_SOCKET_PREFIX):
            ws = WebSocket(scope, receive, send)
            token, _ = token_of(ws, normalize_code(path[len(ROOM_SOCKET_PREFIX):]))
            if not self.admission.admit(ws.client.host if ws.client else None, token):
                return await refuse_socket(ws, Refusal("too_many_connections"), REFUSED_CLOSE_CODE)
        return await self.app(scope, receive, send)
