"""The tables of this process and the one way into a room: `Tables.hold` (and `Tables.change`).

The room-lock rule: no database transaction may wait on a room's lock. With SQLite's one pooled
connection (app/db.py), a transaction waiting for the lock keeps the connection the lock's
holder needs, and both wait forever. `hold` enforces the rule instead of a comment asking for
it: the session a caller used before is ended first (`release`, committed; it may not hold
changes), the lock is taken, and only then is a fresh session opened for the work under the
lock. Holding two room locks in one task (which could deadlock) raises `RoomLockMisuse`.

Under the lock, `Held.sync` brings the table up to date with the database and `Held.publish`
tells the room's connections (held.py, publish.py). `change` is
`hold` for the HTTP room changes: it reads the room, and after the body it commits, syncs,
publishes the new room summary (history and state too when the game started) and, after the
lock is released, publishes `RoomChanged` (the lobby, the other processes and the bots react).
"""
from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ...models import Room
from ...refusals import Refusal
from ...security import normalize_code
from ..events import Events, PresenceChanged, RoomChanged
from .held import Held
from .publish import Publisher
from .table import Table


class RoomLockMisuse(RuntimeError):
    """A room lock was asked for in a way that could deadlock (see the module docstring)."""


class RoomGone(Refusal):
    """The refusal `room_not_found` (404): there is no room with this code, or it was deleted
    meanwhile; its own class only so that the live parts can catch exactly this refusal."""

    def __init__(self) -> None:
        super().__init__("room_not_found")


class Tables:
    """code → `Table` of the rooms this process serves, and their locks."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], publisher: Publisher, events: Events):
        self.sessions = sessions
        self.publisher = publisher
        self.events = events
        self._tables: dict[str, Table] = {}
        self._holders: dict[asyncio.Task, str] = {}   # task → the room whose lock it holds
        self._users: dict[str, int] = {}               # code → tasks holding or awaiting its lock

    # ------------------------------------------------------------- registry
    def of(self, room: Room) -> Table:
        """The table of a room (created empty; `Held.sync` fills it)."""
        table = self._tables.get(room.code)
        if table is None or table.room_id != room.id:
            table = self._tables[room.code] = Table(room.code, room.id)
        return table

    def get(self, code: str) -> Table | None:
        """The table of room `code` if this process has one."""
        return self._tables.get(code)

    def codes(self) -> list[str]:
        """Codes of the rooms with a table here, sorted."""
        return sorted(self._tables)

    def forget_idle(self, keep: set[str]) -> None:
        """Drop the tables not in `keep` whose lock nobody holds or awaits (a later use rebuilds
        them from the database; a lock in use is never replaced by a second one)."""
        for code in list(self._tables):
            if code not in keep and not self._users.get(code):
                del self._tables[code]

    async def _table_for(self, code: str) -> Table | None:
        table = self._tables.get(code)
        if table is not None:
            return table
        async with self.sessions() as session:   # closed before anyone waits for a lock
            room = await session.scalar(select(Room).where(Room.code == code))
        return None if room is None else self.of(room)

    # ---------------------------------------------------------------- locks
    @contextlib.asynccontextmanager
    async def hold(self, target: str | Table, *, release: AsyncSession | None = None) -> AsyncIterator[Held]:
        """Take a room's lock; yield `Held` with a session opened under it.

        `target` is a room code or a table; a code of no room raises `RoomGone`. `release`: a session the caller used before — committed first, and it
        must hold no unsaved changes (RoomLockMisuse). The session under the lock is committed
        on leaving (rolled back on an exception); with `Held.changed()` the room is told."""
        task = asyncio.current_task()
        if task in self._holders:
            raise RoomLockMisuse(f"this task already holds the lock of room {self._holders[task]}")
        if release is not None:
            if release.new or release.dirty or release.deleted:
                raise RoomLockMisuse("a session with unsaved changes may not wait for a room lock")
            await release.commit()
        table = target if isinstance(target, Table) else await self._table_for(target)
        if table is None:
            raise RoomGone()
        code = table.code
        self._users[code] = self._users.get(code, 0) + 1
        event = None
        presence = None
        try:
            async with table.lock:
                self._holders[task] = code
                held = Held(self.sessions, self.publisher, table)
                try:
                    yield held
                    if held._session is not None:
                        await held._session.commit()
                    if held._changed:  # the room's connections hear of it, then everyone else
                        clock = held.table.clock_key()
                        news = await held.sync()
                        if news.room is not None:
                            held.publish(news, summary=True)
                            held.restate(clock, news)
                            event = RoomChanged(news.room.code, news.room.status, news.room.public,
                                                started=news.started)
                        else:  # the change deleted the room (Live.close_room): its sockets hear it
                            self.publisher.closed(table)
                            event = RoomChanged(code, "closed", True)
                finally:
                    if held.unseated:  # a seat's connections here went: the other processes hear it
                        presence = PresenceChanged(code, frozenset(self.publisher.hub.connected_seats(code)))
                    try:
                        if held._session is not None:
                            await held._session.close()
                    finally:
                        del self._holders[task]
        finally:
            self._users[code] -= 1
            if not self._users[code]:
                del self._users[code]
        if presence is not None:
            await self.events.publish(presence)
        if event is not None:
            await self.events.publish(event)

    @contextlib.asynccontextmanager
    async def change(self, raw_code: str, *, release: AsyncSession | None = None) -> AsyncIterator[Held]:
        """`hold` for a change of a room's seats or status (the HTTP routes): yields `Held`
        with `room` read under the lock (404 `room_not_found` if there is none, also
        for a malformed code: `RoomGone`); the body changes it through `held.session` without committing.
        On leaving: commit, room summary to every connection, `RoomChanged` (see `hold`)."""
        code = normalize_code(raw_code)
        if code is None:
            raise RoomGone()
        async with self.hold(code, release=release) as held:
            news = await held.sync()
            if news.room is None:
                raise RoomGone()
            held.publish(news)
            yield held
            held.changed()

    @contextlib.asynccontextmanager
    async def hold_all(self) -> AsyncIterator[None]:
        """Every room's lock, taken one at a time in code order, no session (the shutdown's
        drain, app/shutdown.py): an action being applied finishes — committed and broadcast —
        before this returns. Cannot deadlock with `hold`: each holder takes one lock only."""
        async with contextlib.AsyncExitStack() as stack:
            for code in self.codes():
                table = self._tables.get(code)
                if table is not None:
                    await stack.enter_async_context(table.lock)
            yield
