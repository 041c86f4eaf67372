"""Who is connected: a room connection's arrival (under the room lock) and departure, and when
a room was last watched (`active_at`, stored by the cleanup in batches, not per connection).

Presence changes go to the room's connections (the room summary) and, as `PresenceChanged`,
to whoever listens (the other processes); a public waiting room's comings and goings refresh
the lobby feed.
"""
from __future__ import annotations

import asyncio
import logging
from datetime import datetime

from sqlalchemy import bindparam, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from ... import rooms as R
from ...models import Room, Seat, unlocked, utcnow
from ..chat import Chat
from ..events import Events, PresenceChanged
from ..lobby import LobbyFeed
from ..sockets.connection import Connection, Hub
from .lock import Tables
from .publish import Update
from .table import Table

log = logging.getLogger("osaka.live")
_ROOMS = Room.__table__
# The room row as a connecting client needs it (read after taking the room lock).
_ROOM_NOW = select(_ROOMS.c.id, _ROOMS.c.seed, _ROOMS.c.num_players, _ROOMS.c.version,
                   _ROOMS.c.status, _ROOMS.c.turn_at, _ROOMS.c.deadline_at).where(_ROOMS.c.id == bindparam("room_id"))
# When a room's last connection left (executemany from the cleanup).
# A row someone has locked is skipped (cleanup.py: the cleanup never waits for a room row).
_SET_ACTIVE_AT = (update(_ROOMS).where(_ROOMS.c.id.in_(unlocked(_ROOMS.c.code == bindparam("c"))))
                  .values(active_at=bindparam("t")))


class SeatChangedHands(Exception):
    """The seat whose token a connection arrived with changed hands before it was registered
    (the handshake read the room before taking its lock): refused like an unknown token."""


class Presence:
    """Arrivals and departures of room connections in this process."""

    def __init__(self, hub: Hub, tables: Tables, lobby: LobbyFeed, events: Events, chat: Chat | None = None):
        self.hub = hub
        self.tables = tables
        self.lobby = lobby
        self.events = events
        self.chat = chat
        self.idle_since: dict[str, datetime] = {}  # code → when its last connection left (not yet stored)

    async def arrive(self, conn: Connection, table: Table, room: Room, seat: Seat | None) -> bool:
        """Under the room lock: a player coming back takes the seat from the computer, the table
        is caught up, the connection registered and sent the room summary, history and state, and
        the chat's latest messages.
        False (nothing registered) if the room was deleted meanwhile; raises `SeatChangedHands`
        (nothing registered) when `conn`'s token no longer holds its seat."""
        took_back = seat is not None and seat.bot_level is not None and seat.token_hash is not None
        code = room.code
        async with self.tables.hold(table) as held:
            if conn.seat is not None:  # the handshake read the seat before this lock: is it still this token's?
                await held.know_seats()
                if not conn.holds(conn.seat, table.holders):
                    if (await held.session.execute(_ROOM_NOW, {"room_id": room.id})).first() is None:
                        return False
                    raise SeatChangedHands(conn.seat)
            if took_back:  # the player takes the seat back from the computer
                await R.take_seat_back(held.session, room.id, seat.seat)  # its clock starts again
                table.forget_seats()
                await held.session.commit()
            was_busy = bool(self.hub.of(code))
            self.idle_since.pop(code, None)
            now = (await held.session.execute(_ROOM_NOW, {"room_id": room.id})).first()
            if now is None:  # deleted meanwhile (an idle waiting room)
                return False
            held.publish(await held.sync(now))  # what was committed elsewhere, to the others
            await held.know_seats()  # the action path then needs no read (actions/path.py)
            seat_arrived = conn.seat is not None and conn.seat not in self.hub.connected_seats(code)
            self.hub.add(conn)
            if seat_arrived or took_back:  # presence changed: the summary to everyone
                held.publish(await held.sync(), summary=True)
                held.publish(Update(), game="history", to=[conn])
            else:  # a spectator or another tab: only this connection needs the summary
                held.publish(Update(room, now=now), summary=True, game="history", to=[conn])
            if self.chat is not None:
                await self.chat.send_history(held.session, conn, room.id)
        if (seat_arrived or not was_busy) and conn.lobby_relevant:  # the lobby counts people present
            self.lobby.mark_dirty()
        if seat_arrived or took_back:
            await self.events.publish(PresenceChanged(code, frozenset(self.hub.connected_seats(code))))
        return True

    def dropped(self, conn: Connection) -> None:
        """A laggard was dropped (Connection.on_drop): forget it now and tell the room."""
        self.hub.remove(conn)
        asyncio.get_running_loop().create_task(self.departed(conn))

    async def departed(self, conn: Connection) -> None:
        """Presence after a connection left (once per connection): when its seat has no other
        connection here, tell the room (and other processes); when the room has none at all,
        note the time for `active_at` (written by the cleanup) and refresh the lobby if the
        room can be in it. A spectator leaving costs no database work at all."""
        if conn.departed:
            return
        conn.departed = True
        code = conn.room
        try:
            seat_gone = conn.seat is not None and conn.seat not in self.hub.connected_seats(code)
            room_idle = not self.hub.of(code)
            if not (seat_gone or room_idle):
                return
            if room_idle:
                self.idle_since[code] = utcnow()
            table = self.tables.get(code)
            if seat_gone and table is not None:
                async with self.tables.hold(table) as held:
                    if held.watched():  # the summary as committed now, to the room's other connections
                        held.publish(await held.sync(), summary=True)
            if (room_idle or seat_gone) and conn.lobby_relevant:
                self.lobby.mark_dirty()
            if seat_gone:
                await self.events.publish(PresenceChanged(code, frozenset(self.hub.connected_seats(code))))
        except Exception:  # the server may be shutting down
            log.exception("after disconnect of room %s", code)

    async def announce(self) -> None:
        """Tell again who is connected in every busy room (keeps this process's presence fresh
        in the other processes, whose memory of it expires)."""
        for code in self.hub.busy_rooms():
            seats = self.hub.connected_seats(code)
            if seats:
                await self.events.publish(PresenceChanged(code, frozenset(seats)))

    async def store_idle(self, session: AsyncSession, keep: set[str] = frozenset()) -> None:
        """Write when rooms were last watched (`active_at`), except the rooms in `keep` (busy
        again); the caller commits."""
        idle = [{"c": code, "t": at} for code, at in self.idle_since.items() if code not in keep]
        self.idle_since.clear()
        if idle:
            await session.execute(_SET_ACTIVE_AT, idle)
