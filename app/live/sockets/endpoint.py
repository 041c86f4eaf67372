"""The room WebSocket (`/ws/rooms/{code}`) from handshake to close (docs/protocol.md).

Handshake: `Admission` (handshake.py) bounds the connections per seat and client address (in
the ASGI middleware `AdmissionGate`, before this runs) and per room (here); refused:
`too_many_connections`, close 4429. The seat comes from the Bearer header or the room's cookie
(never a cross-site cookie: handshake.py); the handshake is accepted only after the room was
read. Then `Presence.arrive`, then every message (`next_message`: frames.py) goes where it
belongs until the peer leaves: an action to `Actions.act` (the action path), a chat message to
`Chat.on_frame`.
"""
from __future__ import annotations

import socket
from collections.abc import Callable

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from starlette.websockets import WebSocket

from ... import rooms as R
from ...config import Settings
from ...db import database_unavailable
from ...ratelimit import parse_limits
from ...refusals import Refusal
from ...security import normalize_code
from ..actions.path import Actions
from ..chat import Chat
from ..hints import Hints
from ..room.lock import Tables
from ..room.presence import Presence, SeatChangedHands
from .connection import Connection, Hub
from .frames import GONE, next_message
from .handshake import REFUSED_CLOSE_CODE, Admission, refuse_socket, same_origin, token_of

#: This process's host name (a container's, with several replicas): the `X-Osaka-Instance`
#: header of every accepted room WebSocket, and `instance` in `/healthz` (docs/protocol.md).
INSTANCE = socket.gethostname()
_INSTANCE_HEADER = [(b"x-osaka-instance", INSTANCE.encode("ascii", "replace"))]


class RoomSockets:
    """Serves room WebSockets: handshake, arrival, the read loop, departure."""

    def __init__(self, settings: Settings, sessions: async_sessionmaker[AsyncSession], hub: Hub,
                 tables: Tables, presence: Presence, actions: Actions, chat: Chat | None = None,
                 hints: Hints | None = None):
        self.settings = settings
        self.sessions = sessions
        self.hub = hub
        self.tables = tables
        self.presence = presence
        self.actions = actions
        self.chat = chat
        self.hints = hints
        self.admission = Admission(settings.connect_seat_limit, settings.connect_address_limit)
        self.flood = parse_limits(settings.flood_limit)  # FLOOD_LIMIT, per connection
        self.greet: Callable[[Connection], None] = lambda conn: None  # the host's notice (notice.py)

    async def serve(self, ws: WebSocket, raw_code: str) -> None:
        """Run one room WebSocket from handshake to close."""
        token, from_cookie = token_of(ws, normalize_code(raw_code))
        try:  # (over the connection limits it never came here: admission.AdmissionGate)
            found = await self._identify(ws, raw_code, token, from_cookie)
            if found is None:
                return
            room, seat = found
            with self.admission.arriving(room.code) as admitted:  # bounded: see handshake.py
                if not admitted:
                    return await refuse_socket(ws, Refusal("too_many_connections", "Too many connections to this "
                                                                "room at once; try again later."),
                                               REFUSED_CLOSE_CODE)
                conn = await self._arrive(ws, room, seat)
        except Exception as exc:
            if not database_unavailable(exc):
                raise
            # Try again later (the browser reconnects with backoff); the others play on.
            return await refuse_socket(ws, Refusal("unavailable"), close_code=1013)
        if conn is None:
            return
        try:
            while (msg := await next_message(conn)) is not GONE:
                await self._on_message(conn, msg)
        finally:
            conn.stop_writer()
            self.hub.remove(conn)
            await self.presence.departed(conn)

    async def _on_message(self, conn: Connection, msg: dict) -> None:
        """One checked message of a room connection: `ping` → `pong`; `visible` → its flag;
        `chat` → `Chat.on_frame`;
        `act` → `Actions.act`, the action path, `hint` → `Hints.on_frame` (a spectator's are
        refused: `not_seated`)."""
        if msg["type"] == "ping":
            conn.send({"type": "pong"})
        elif msg["type"] == "visible":  # no answer: only notifications care (app/notify/watch.py)
            self.hub.set_visible(conn, msg["visible"])
        elif msg["type"] == "chat" and self.chat is not None:
            await self.chat.on_frame(conn, msg)
        elif msg["type"] == "chat":
            conn.send(Refusal("bad_message", "There is no chat here.").frame())
        elif conn.seat is None:
            conn.send(Refusal("not_seated", "Spectators cannot act.").frame(msg.get("id")))
        elif msg["type"] == "hint" and self.hints is not None:
            await self.hints.on_frame(conn, msg)
        elif msg["type"] == "hint":
            conn.send(Refusal("hints_off").frame(msg.get("id")))
        else:
            await self.actions.act(conn.room, conn.seat, msg["id"], msg["version"], msg["action"], reply=conn)

    async def _identify(self, ws: WebSocket, raw_code: str, token: str | None, from_cookie: bool):
        """The room and the caller's seat (None: a spectator) → (room, seat); None when refused."""
        async with self.sessions() as session:
            try:
                room = await R.load_room(session, raw_code)
            except Refusal as exc:
                return await refuse_socket(ws, exc)
            seat = None
            if token is not None:
                if from_cookie and not same_origin(ws):
                    return await refuse_socket(ws, Refusal("bad_origin"))
                seat = R.seat_of(room, token)
                if seat is None:
                    # a token of no seat of the room (never, or its seat changed hands: "Who holds a seat")
                    return await refuse_socket(ws, Refusal("bad_token"))
            await session.commit()  # nothing is held while the client answers the handshake
        return room, seat

    async def _arrive(self, ws: WebSocket, room, seat) -> Connection | None:
        """Accept, register the connection and send it the room (`Presence.arrive`); None when
        the room was deleted meanwhile. Whatever fails, nothing stays registered."""
        await ws.accept(headers=_INSTANCE_HEADER)
        conn = Connection(ws, room=room.code, seat=None if seat is None else seat.seat,
                          holder=None if seat is None else seat.token_hash, flood=self.flood)
        conn.on_drop = self.presence.dropped
        # Only a public waiting room's comings and goings can change the lobby list.
        conn.lobby_relevant = room.public and room.status == "waiting"
        arrived = False
        try:
            arrived = await self.presence.arrive(conn, self.tables.of(room), room, seat)
        except SeatChangedHands:
            await refuse_socket(ws, Refusal("bad_token"))
            return None
        finally:
            if not arrived:
                conn.stop_writer()
                self.hub.remove(conn)
        if not arrived:
            await refuse_socket(ws, Refusal("room_not_found"))
            return None
        self.greet(conn)
        return conn
