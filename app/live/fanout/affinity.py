"""Room affinity: every socket of a room in one server process, when the proxy routes by room.

Several `osaka serve` behind one proxy share a room through PostgreSQL: an action applied in
one process is read back from the database by every other process that has connections of
that room (remote.py). That read-back is what made a second replica cost more than it added
(docs/performance.md, "Replicas"). The proxy therefore sends every request and WebSocket of a
room to one replica, chosen by the room code (deploy/Caddyfile: `lb_policy header
X-Osaka-Room`, the header set from the path `/ws/rooms/{code}`, `/api/rooms/{code}/…`,
`/r/{code}…`), so that in the steady state a room lives in one process and the others never
read it back.

A room can still end up split: its replica went away (killed, restarted) and its players were
routed to another one meanwhile, then the first came back and a new socket (a reload, a new
spectator) is routed to it; or the set of replicas changed. Then the newest arrival is where
the proxy sends the room now. `Affinity.arrived_elsewhere` is called when another process
says a seat of the room connected there (fanout kind "a", postgres.py) and closes this
process's *routed* connections of that room (those that came through a proxy that routes by
room: request header `X-Osaka-Room` equal to the room's code) with the close code
`MOVED_CLOSE_CODE` (4307, private range, like HTTP 307): clients reconnect at once with their
usual backoff (static/js/net.js) and the proxy sends them where the room is now. Connections
that did not come that way (a direct connection, a proxy that does not route by room) are
never moved: for them a split room is merely dearer, never wrong. A room is moved away from a
process at most once per `COOLDOWN_S`, so a proxy that routes unsteadily costs reconnects at a
bounded rate, not a storm.
"""
from __future__ import annotations

import logging
import time

from ...logs import log_event
from ..sockets.connection import Connection, Hub

log = logging.getLogger("osaka.affinity")
#: Request header the proxy sets to the room code of a room's request (deploy/Caddyfile).
ROUTE_HEADER = "x-osaka-room"
#: WebSocket close code of a connection sent on to the process that has its room now.
MOVED_CLOSE_CODE = 4307
#: A room is moved away from this process at most once in this many seconds.
COOLDOWN_S = 30.0


def routed(conn: Connection) -> bool:
    """True when `conn` came through a proxy that routes by room code: its upgrade request
    carries `X-Osaka-Room` equal to its room's code."""
    return conn.room is not None and conn.ws.headers.get(ROUTE_HEADER) == conn.room


class Affinity:
    """Moves a room's routed connections away from this process when the room is served
    elsewhere now (module docstring). `moved` counts the connections moved since the start."""

    def __init__(self, hub: Hub, cooldown_s: float = COOLDOWN_S):
        self.hub = hub
        self.cooldown_s = cooldown_s
        self._last: dict[str, float] = {}  # room code → time.monotonic() of its last move
        self.moved = 0

    def arrived_elsewhere(self, code: str) -> int:
        """A seat of room `code` connected in another process: close this process's routed
        connections of the room with `MOVED_CLOSE_CODE` (none within `cooldown_s` of the
        room's last move) → how many were closed."""
        conns = [c for c in self.hub.of(code) if routed(c)]
        if not conns:
            return 0
        now = time.monotonic()
        if now - self._last.get(code, -self.cooldown_s) < self.cooldown_s:
            return 0
        self._last[code] = now
        for stale in [k for k, t in self._last.items() if now - t >= self.cooldown_s]:
            del self._last[stale]
        for conn in conns:
            conn.drop(MOVED_CLOSE_CODE, "moved")
        self.moved += len(conns)
        log_event(log, "room_moved", room=code, connections=len(conns))
        return len(conns)
