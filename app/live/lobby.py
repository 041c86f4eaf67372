"""The lobby feed (`/ws/lobby`): the open public rooms, pushed to every lobby connection when
the list changes (docs/protocol.md §Lobby). Recomputed at most every LOBBY_MIN_INTERVAL_S,
and never while nobody watches."""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from starlette.websockets import WebSocket

from ..config import Settings
from ..lobby import lobby_rooms, with_root
from ..ratelimit import parse_limits
from ..refusals import Refusal
from .events import RoomChanged
from .outages import OutageLog
from .sockets.connection import Connection, Hub, dumps
from .sockets.frames import GONE, is_ping, next_frame, refuse

log = logging.getLogger("osaka.live")
LOBBY_MIN_INTERVAL_S = 0.5  # the lobby list is recomputed at most this often


class LobbyFeed:
    """Lobby connections of this process (`hub.lobby`) and the task that keeps them current."""

    def __init__(self, settings: Settings, sessions: async_sessionmaker[AsyncSession], hub: Hub,
                 present: Callable[[], dict[str, int]]):
        self.settings = settings
        self.sessions = sessions
        self.hub = hub
        self.present = present  # room code → seated people connected, in every process
        self._sent: str | None = None
        self._dirty = asyncio.Event()
        self._outage = OutageLog(log, "the lobby feed")
        self.flood = parse_limits(settings.flood_limit)  # FLOOD_LIMIT, per connection
        self.greet: Callable[[Connection], None] = lambda conn: None  # the host's notice (notice.py)

    async def serve(self, ws: WebSocket) -> None:
        """The lobby feed: `{"type": "rooms", "rooms": [...]}` on connect and on every change."""
        await ws.accept()
        conn = Connection(ws, room=None, seat=None, flood=self.flood)
        if not self.hub.lobby:
            self._sent = None  # not kept up to date while nobody listened
        self.hub.lobby.add(conn)
        try:
            conn.send({"type": "rooms", "rooms": with_root(await self.rooms(), conn.root)})
            self.greet(conn)
            while True:
                text = await next_frame(conn)
                if text is GONE:
                    return
                if text is not None and len(text) <= 1024 and is_ping(text):
                    conn.send({"type": "pong"})
                else:
                    refuse(conn, Refusal("bad_message", "The lobby feed only answers pings."))
        finally:
            conn.stop_writer()
            self.hub.lobby.discard(conn)

    async def rooms(self, session: AsyncSession | None = None) -> list[dict]:
        """The open public rooms now (app/lobby.py), in `session` or a session of its own."""
        if session is not None:
            return await lobby_rooms(session, self.present(), self.settings.lobby_rooms_per_address)
        async with self.sessions() as own:
            return await lobby_rooms(own, self.present(), self.settings.lobby_rooms_per_address)

    def mark_dirty(self) -> None:
        """The lobby list may have changed: `run` recomputes it soon (coalesced: at most once
        per LOBBY_MIN_INTERVAL_S, however many changes come in meanwhile)."""
        self._dirty.set()

    def on_room_changed(self, event: RoomChanged) -> None:
        """A public room that is waiting, has just started or was closed may enter or leave the list."""
        if event.public and (event.status in ("waiting", "closed") or event.started):
            self.mark_dirty()

    async def run(self) -> None:
        """Push the list after changes until cancelled (a background task)."""
        while True:
            await self._dirty.wait()
            self._dirty.clear()
            try:
                await self.push()
                self._outage.succeeded()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # an outage: one warning line; anything else: its traceback
                self._outage.failed(exc, "refreshing the lobby")
            await asyncio.sleep(LOBBY_MIN_INTERVAL_S)

    async def push(self) -> None:
        """Recompute the open public rooms and push them to lobby connections if the list
        changed (no query at all while nobody watches the lobby)."""
        if not self.hub.lobby:
            self._sent = None
            return
        rooms = await self.rooms()
        text = dumps({"type": "rooms", "rooms": rooms})
        if text == self._sent:
            return
        self._sent = text
        texts = {"": text}  # by URL prefix: one text for the connections of each (app/prefix.py)
        for conn in list(self.hub.lobby):
            if conn.root not in texts:
                texts[conn.root] = dumps({"type": "rooms", "rooms": with_root(rooms, conn.root)})
            conn.send(texts[conn.root])
