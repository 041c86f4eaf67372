"""Upkeep every CLEANUP_INTERVAL_S: store when rooms were last watched, delete long-idle
waiting rooms and rooms nobody ever joined or connected to, forget tables nobody needs, refresh the lobby and this process's presence
elsewhere. A game in play or over is never deleted here; a turn-based room waits for its
players TURN_ROOM_TTL_S (30 days) rather than ROOM_TTL_S, and one started is never "unused"
(docs/rules.md "Play across days").

The cleanup never waits for a room row either: it stamps `active_at` only on the rows nobody
has locked (`models.unlocked`: `FOR UPDATE SKIP LOCKED` on PostgreSQL), so it cannot deadlock with
the group commit of another process (which held a row it needed while waiting for one the
cleanup held: bench/proxy_load.py at 1,000 rooms); a skipped room is in play, stamped next time.

The cleanup never waits for a room lock: its database work is one short transaction of its
own (no room's lock is needed: a join commits the seat and `active_at` in one transaction, so
a room being joined is never "long idle"), and a table is forgotten only while nobody holds or
awaits its lock (`Tables.forget_idle`).
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import timedelta

from sqlalchemy import and_, delete, or_, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ...config import Settings
from ...models import Room, unlocked, utcnow
from ...pace import TURN
from ..fanout.base import Fanout
from ..lobby import LobbyFeed
from ..outages import OutageLog
from ..sockets.connection import Hub
from .lock import Tables
from .presence import Presence

log = logging.getLogger("osaka.live")


class Cleanup:
    """`once` (one round) and `loop` (every `cleanup_interval_s` seconds)."""

    def __init__(self, settings: Settings, sessions: async_sessionmaker[AsyncSession], hub: Hub,
                 tables: Tables, presence: Presence, lobby: LobbyFeed, bot_rooms: Callable[[], set[str]],
                 fanout: Fanout):
        self.settings = settings
        self.fanout = fanout  # rooms watched in other processes are not deleted here
        self.sessions = sessions
        self.hub = hub
        self.tables = tables
        self.presence = presence
        self.lobby = lobby
        self.bot_rooms = bot_rooms  # rooms a computer player is busy with (their tables are kept)

    async def once(self) -> None:
        """Mark rooms with live connections as active, delete long-idle waiting rooms and rooms
        nobody ever joined or connected to (UNUSED_ROOM_TTL_S), forget tables nobody watches,
        and refresh the lobby feed."""
        busy = self.hub.busy_rooms()
        now = utcnow()
        async with self.sessions() as session:
            if busy:
                await session.execute(update(Room).where(Room.id.in_(unlocked(Room.code.in_(busy))))
                                      .values(active_at=now))
            await self.presence.store_idle(session, keep=busy)
            # A room waiting after "play again" (game_no > 1) holds finished games: kept like them.
            # A turn-based one waits for its players for days: TURN_ROOM_TTL_S (docs/rules.md).
            idle_live = now - timedelta(seconds=self.settings.room_ttl_s)
            idle_turn = now - timedelta(seconds=self.settings.turn_room_ttl_s)
            stale = delete(Room).where(Room.status == "waiting", Room.game_no == 1, or_(
                and_(Room.pace != TURN, Room.active_at < idle_live), and_(Room.pace == TURN, Room.active_at < idle_turn)))
            # Nobody ever joined or connected (active_at = created_at): gone within minutes; but
            # never a turn-based game once started (its people come by now and then).
            unused = delete(Room).where(Room.active_at == Room.created_at,
                                        Room.created_at < now - timedelta(seconds=self.settings.unused_room_ttl_s),
                                        or_(Room.pace != TURN, Room.status == "waiting"))
            watched = busy | self.fanout.remote_codes()
            for query in (stale, unused):
                await session.execute(query.where(Room.code.not_in(watched)) if watched else query)
            await session.commit()
        self.tables.forget_idle(keep=busy | self.bot_rooms())
        for conn in list(self.hub.lobby):
            if conn.closed:
                self.hub.lobby.discard(conn)
        self.lobby.mark_dirty()
        await self.presence.announce()

    async def loop(self) -> None:
        """Run `once` every `cleanup_interval_s` seconds until cancelled."""
        outage = OutageLog(log, "the cleanup")
        while True:
            await asyncio.sleep(self.settings.cleanup_interval_s)
            try:
                await self.once()
                outage.succeeded()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # an outage: one warning line; anything else: its traceback
                outage.failed(exc, "cleaning up")
