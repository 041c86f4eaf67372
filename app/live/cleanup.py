"""Upkeep every CLEANUP_INTERVAL_S: store when rooms were last watched, delete long-idle
waiting rooms, forget tables nobody needs, refresh the lobby and this process's presence
elsewhere.

The cleanup never waits for a room lock: its database work is one short transaction of its
own (no room's lock is needed: a join commits the seat and `active_at` in one transaction, so
a room being joined is never "long idle"), and a table is forgotten only while nobody holds or
awaits its lock (`Tables.forget_idle`).
"""
from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

from sqlalchemy import delete, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..config import Settings
from ..models import Room, utcnow
from .bots import BotDriver
from .hub import Hub
from .lobby import LobbyFeed
from .presence import Presence
from .tables import Tables

log = logging.getLogger("osaka.live")


class Cleanup:
    """`once` (one round) and `loop` (every `cleanup_interval_s` seconds)."""

    def __init__(self, settings: Settings, sessions: async_sessionmaker[AsyncSession], hub: Hub,
                 tables: Tables, presence: Presence, lobby: LobbyFeed, bots: BotDriver):
        self.settings = settings
        self.sessions = sessions
        self.hub = hub
        self.tables = tables
        self.presence = presence
        self.lobby = lobby
        self.bots = bots

    async def once(self) -> None:
        """Mark rooms with live connections as active, delete long-idle waiting rooms,
        forget tables nobody watches, and refresh the lobby feed."""
        busy = self.hub.busy_rooms()
        now = utcnow()
        async with self.sessions() as session:
            if busy:
                await session.execute(update(Room).where(Room.code.in_(busy)).values(active_at=now))
            await self.presence.store_idle(session, keep=busy)
            stale = delete(Room).where(Room.status == "waiting",
                                       Room.active_at < now - timedelta(seconds=self.settings.room_ttl_s))
            if busy:
                stale = stale.where(Room.code.not_in(busy))
            await session.execute(stale)
            await session.commit()
        self.tables.forget_idle(keep=busy | self.bots.busy_rooms())
        for conn in list(self.hub.lobby):
            if conn.closed:
                self.hub.lobby.discard(conn)
        self.lobby.mark_dirty()
        await self.presence.announce()

    async def loop(self) -> None:
        """Run `once` every `cleanup_interval_s` seconds until cancelled."""
        while True:
            await asyncio.sleep(self.settings.cleanup_interval_s)
            try:
                await self.once()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cleanup failed")
