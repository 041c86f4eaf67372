"""The host's maintenance notice in this process (the admin page; docs/protocol.md `notice`):
"the server restarts in 5 minutes" and/or a short free text, shown on every table and the
home page.

Stored durably (`server_notice`, one row: app/models.py `ServerNotice`), so every process and a
process started later shows it: each reads it at start and every CLEANUP_INTERVAL_S (`run`),
and at once when another process says it changed (the fan-out's kind `n` for the room code
NOTICE_CODE: `on_remote`). This process's room and lobby connections get the `notice` frame on
connect while one is set (`greet`) and whenever it changes (`push`). Nothing here takes a room
lock: the notice is no room's state.
"""
from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..config import Settings
from ..models import ServerNotice, utcnow
from ..rooms import iso
from .fanout.base import Fanout
from .outages import OutageLog
from .sockets.connection import Connection, Hub, dumps

log = logging.getLogger("osaka.live")
#: The fan-out's room code of a notice change (no room has it: codes are letters and digits).
NOTICE_CODE = "*"


class Shown(NamedTuple):
    """A notice as stored: the restart it announces (UTC, naive) and its text, each or None."""
    restart_at: datetime | None
    text: str | None


class Notice:
    """`current` (a `Shown` or None), `frame`, `greet`, `push`, `save`, `on_remote`, `run`."""

    def __init__(self, settings: Settings, sessions: async_sessionmaker[AsyncSession], hub: Hub, fanout: Fanout):
        self.settings = settings
        self.sessions = sessions
        self.hub = hub
        self.fanout = fanout
        self.current: Shown | None = None
        self._outage = OutageLog(log, "reading the maintenance notice")

    def out(self, now: datetime | None = None) -> dict | None:
        """The notice as the API and the frame say it: {"restart_at": ISO 8601 UTC or null,
        "restart_in_s": whole seconds from `now` to it (≥ 0) or null, "text": str or null}; None
        when there is none."""
        n = self.current
        if n is None:
            return None
        left = None if n.restart_at is None else max(0, round((n.restart_at - (now or utcnow())).total_seconds()))
        return {"restart_at": None if n.restart_at is None else iso(n.restart_at), "restart_in_s": left,
                "text": n.text}

    def frame(self) -> dict:
        """`{"type": "notice", "notice": out() or null}`."""
        return {"type": "notice", "notice": self.out()}

    def greet(self, conn: Connection) -> None:
        """A new connection (room or lobby) gets the notice when one is set."""
        if self.current is not None:
            conn.send(self.frame())

    def connections(self) -> list[Connection]:
        """This process's room and lobby connections."""
        return [c for conns in self.hub.rooms.values() for c in conns if not c.closed] + \
            [c for c in self.hub.lobby if not c.closed]

    def push(self) -> int:
        """Send the notice (or its clearing) to every room and lobby connection here → how many."""
        text = dumps(self.frame())
        conns = self.connections()
        for conn in conns:
            conn.send(text)
        return len(conns)

    async def load(self) -> bool:
        """Read the stored notice → whether it differs from `current` (now replaced)."""
        async with self.sessions() as session:
            row = (await session.execute(select(ServerNotice.restart_at, ServerNotice.text)
                                         .where(ServerNotice.id == 1))).first()
        shown = None if row is None else Shown(row.restart_at, row.text)
        changed, self.current = shown != self.current, shown
        return changed

    async def save(self, shown: Shown | None) -> None:
        """Store `shown` (None: clear it), show it here and tell the other processes."""
        async with self.sessions() as session:
            await session.execute(delete(ServerNotice))
            if shown is not None:
                session.add(ServerNotice(id=1, restart_at=shown.restart_at, text=shown.text, set_at=utcnow()))
            await session.commit()
        self.current = shown
        self.push()
        await self.fanout.notify("n", NOTICE_CODE)

    async def on_remote(self) -> None:
        """Another process changed the notice: read it and tell the connections here."""
        try:
            if await self.load():
                self.push()
            self._outage.succeeded()
        except Exception as exc:
            self._outage.failed(exc, "reading the maintenance notice")

    async def run(self) -> None:
        """Read the notice at start and every `cleanup_interval_s` (a missed notification, a
        notice set while this process's listener was away) until cancelled."""
        while True:
            await self.on_remote()
            await asyncio.sleep(self.settings.cleanup_interval_s)
