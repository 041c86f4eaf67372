"""The "My games" feed (`/ws/mine`, docs/protocol.md "My games"): the rooms of the seat cookies the
browser sent with the handshake, sent on connect and again whenever one of them changes.

A change is whatever the room's own connections would hear of: a room change or an action in this
process (`RoomChanged`, `ActionApplied`: app/live/events.py), a chat message stored here
(`Chat.told`), or any of those in another process (the fan-out's batches, `Live._remote_changes`).
`mark` only notes the room; `run` recomputes, at most every MINE_MIN_INTERVAL_S, the list of every
connection that watches a noted room (app/mine.py `my_rooms`, one session per connection: three
statements) and sends it when it differs from the last one it sent. Nothing is read while nobody
watches; nothing about the browser is stored (its tokens live in this process's memory for as long
as the socket is open).
"""
from __future__ import annotations

import asyncio
import logging

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from starlette.websockets import WebSocket

from ..mine import my_rooms, seat_tokens
from ..config import Settings
from ..ratelimit import parse_limits
from ..refusals import Refusal
from .outages import OutageLog
from .sockets.connection import Connection, dumps
from .sockets.frames import GONE, is_ping, next_frame, refuse
from .sockets.handshake import REFUSED_CLOSE_CODE, refuse_socket, same_origin

log = logging.getLogger("osaka.live")
MINE_MIN_INTERVAL_S = 0.25  # the lists are recomputed at most this often
#: "My games" sockets one process serves at once (more get `too_many_connections`, close 4429).
MAX_MINE_SOCKETS = 2000


class MineFeed:
    """The `/ws/mine` connections of this process, by the rooms they watch."""

    def __init__(self, settings: Settings, sessions: async_sessionmaker[AsyncSession]):
        self.sessions = sessions
        self.flood = parse_limits(settings.flood_limit)  # FLOOD_LIMIT, per connection
        self.conns: dict[Connection, dict[str, str]] = {}   # connection → {room code: token}
        self.watching: dict[str, set[Connection]] = {}      # room code → connections
        self._sent: dict[Connection, str] = {}
        self._dirty: set[str] = set()
        self._wake = asyncio.Event()
        self._outage = OutageLog(log, "the My games feed")

    async def serve(self, ws: WebSocket) -> None:
        """`{"type": "mine", "rooms": [...]}` on connect and after every change of one of them;
        pings answered. A handshake from another site (its seat cookies must not be read for
        it) gets `bad_origin` (1008); over MAX_MINE_SOCKETS, `too_many_connections` (4429)."""
        tokens = seat_tokens(ws.cookies)
        if tokens and not same_origin(ws):
            return await refuse_socket(ws, Refusal("bad_origin"))
        if len(self.conns) >= MAX_MINE_SOCKETS:
            return await refuse_socket(ws, Refusal("too_many_connections"), REFUSED_CLOSE_CODE)
        await ws.accept()
        conn = Connection(ws, room=None, seat=None, flood=self.flood)
        self.conns[conn] = tokens
        for code in tokens:
            self.watching.setdefault(code, set()).add(conn)
        try:
            await self.push(conn)
            while True:
                text = await next_frame(conn)
                if text is GONE:
                    return
                if text is not None and len(text) <= 1024 and is_ping(text):
                    conn.send({"type": "pong"})
                else:
                    refuse(conn, Refusal("bad_message", "The My games feed only answers pings."))
        finally:
            conn.stop_writer()
            self._forget(conn)

    def _forget(self, conn: Connection) -> None:
        for code in self.conns.pop(conn, {}):
            watchers = self.watching.get(code)
            if watchers is not None:
                watchers.discard(conn)
                if not watchers:
                    del self.watching[code]
        self._sent.pop(conn, None)

    def connections(self) -> list[Connection]:
        """Every open `/ws/mine` connection of this process (the shutdown closes them)."""
        return list(self.conns)

    def mark(self, code: str) -> None:
        """Room `code` may have changed: the lists that hold it are sent again soon (coalesced)."""
        if code in self.watching:
            self._dirty.add(code)
            self._wake.set()

    def on_event(self, event) -> None:
        """A `RoomChanged` or `ActionApplied` of this process (app/live/events.py)."""
        self.mark(event.code)

    async def push(self, conn: Connection) -> None:
        """Compute `conn`'s list now and send it if it differs from the last one sent."""
        async with self.sessions() as session:
            rooms = await my_rooms(session, self.conns.get(conn, {}), conn.root)
        text = dumps({"type": "mine", "rooms": rooms})
        if conn in self.conns and self._sent.get(conn) != text:
            self._sent[conn] = text
            conn.send(text)

    async def run(self) -> None:
        """Send the lists of the rooms marked since the last round, until cancelled (a background task)."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            codes, self._dirty = self._dirty, set()
            conns = {c for code in codes for c in self.watching.get(code, ())}
            for conn in conns:
                try:
                    await self.push(conn)
                    self._outage.succeeded()
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # an outage: one warning line; anything else: its traceback
                    self._outage.failed(exc, "refreshing My games")
            await asyncio.sleep(MINE_MIN_INTERVAL_S)
