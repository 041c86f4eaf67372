"""The room WebSocket (`/ws/rooms/{code}`) from handshake to close (docs/protocol.md).

Handshake: the seat comes from the Bearer header or the room's cookie (never a cross-site
cookie); the handshake is accepted only after the room was read, so a client opening
connections in a loop waits for the server instead of piling up work behind its back. Then
`Presence.arrive`, then every frame goes to `Actions.on_frame` until the peer leaves.
"""
from __future__ import annotations

from urllib.parse import urlsplit

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from starlette.websockets import WebSocket, WebSocketState

from .. import rooms as R
from ..config import Settings
from ..errors import ApiError
from ..security import cookie_name, normalize_code
from .actions import Actions
from .frames import GONE, next_frame
from .hub import Connection, Hub, dumps
from .messages import error_msg
from .presence import Presence
from .tables import Tables


class RoomSockets:
    """Serves room WebSockets: handshake, arrival, the read loop, departure."""

    def __init__(self, settings: Settings, sessions: async_sessionmaker[AsyncSession], hub: Hub,
                 tables: Tables, presence: Presence, actions: Actions):
        self.settings = settings
        self.sessions = sessions
        self.hub = hub
        self.tables = tables
        self.presence = presence
        self.actions = actions

    async def serve(self, ws: WebSocket, raw_code: str) -> None:
        """Run one room WebSocket from handshake to close."""
        code = normalize_code(raw_code)
        token, from_cookie = token_of(ws, code)
        async with self.sessions() as session:
            try:
                room = await R.load_room(session, raw_code)
            except ApiError as exc:
                return await refuse_socket(ws, exc.code, exc.message)
            seat = None
            if token is not None:
                if from_cookie and not same_origin(ws):
                    return await refuse_socket(ws, "bad_origin", "Cross-site connections may not use the seat cookie.")
                seat = R.seat_of(room, token)
                if seat is None:
                    return await refuse_socket(ws, "bad_token", "This token does not belong to a seat of this room.")
            await session.commit()  # nothing is held while the client answers the handshake
        await ws.accept()
        settings = self.settings
        conn = Connection(ws, room=room.code, seat=None if seat is None else seat.seat,
                          queue_size=settings.send_queue_size, flood_rate=settings.flood_rate,
                          flood_burst=settings.flood_burst)
        conn.on_drop = self.presence.dropped
        # Only a public waiting room's comings and goings can change the lobby list.
        conn.lobby_relevant = room.public and room.status == "waiting"
        if not await self.presence.arrive(conn, self.tables.of(room), room, seat):
            await refuse_socket(ws, "room_not_found", "There is no room with this code.")
            conn.stop_writer()
            return
        try:
            while (text := await next_frame(conn, max_bad=settings.max_bad_messages)) is not GONE:
                await self.actions.on_frame(conn, text)
        finally:
            conn.stop_writer()
            self.hub.remove(conn)
            await self.presence.departed(conn)


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


async def refuse_socket(ws: WebSocket, code: str, message: str) -> None:
    """Accept (if not yet), send `error {code}` and close with 1008."""
    try:
        if ws.application_state == WebSocketState.CONNECTING:
            await ws.accept()
        await ws.send_text(dumps(error_msg(code, message)))
        await ws.close(1008, code)
    except Exception:
        pass
