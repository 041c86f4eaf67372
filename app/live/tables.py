"""The tables of this process and the one way into a room: `Tables.hold` (and `Tables.change`).

The room-lock rule: no database transaction may wait on a room's lock. With SQLite's one pooled
connection (app/db.py), a transaction waiting for the lock keeps the connection the lock's
holder needs, and both wait forever. `hold` enforces the rule instead of a comment asking for
it: the session a caller used before is ended first (`release`, committed; it may not hold
changes), the lock is taken, and only then is a fresh session opened for the work under the
lock. Holding two room locks in one task (which could deadlock) raises `RoomLockMisuse`.

`hold` also re-reads the room and catches the table up (what other processes committed goes
out to the connections first); `change` is `hold` for the HTTP room changes: it commits, sends
the new room summary (history and state too when the game started) and, after the lock is
released, publishes `RoomChanged` (the lobby, the other processes and the bots react).
"""
from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import selectinload

from ..refusals import Refusal
from ..models import Room, Seat
from ..security import normalize_code
from .broadcast import Broadcaster
from .events import Events, PresenceChanged, RoomChanged
from .table import Table


# The seats' computer players and holders of a room, and its turn timer (Held.know_seats).
_SEAT_LEVELS = select(Seat.__table__.c.seat, Seat.__table__.c.bot_level, Seat.__table__.c.token_hash).where(
    Seat.__table__.c.room_id == bindparam("room_id"))
_TURN_LIMIT = select(Room.__table__.c.turn_limit_s).where(Room.__table__.c.id == bindparam("room_id"))


class RoomLockMisuse(RuntimeError):
    """A room lock was asked for in a way that could deadlock (see the module docstring)."""


class RoomGone(Refusal):
    """The refusal `room_not_found` (404): there is no room with this code, or it was deleted
    meanwhile; its own class only so that the live parts can catch exactly this refusal."""

    def __init__(self) -> None:
        super().__init__("room_not_found")


class Held:
    """One room under its lock: `session` (opened after the lock was taken, on first use: the
    action path often needs none), `table`, and `room` once `read_room` has read it."""

    def __init__(self, tables: Tables, table: Table):
        self._session: AsyncSession | None = None
        self.table = table
        self.room: Room | None = None
        self.started = False        # the last catch-up found the game just started
        self.caught: list = []      # ... and these actions committed elsewhere
        self._tables = tables
        self._changed = False
        self.unseated: list[int] = []  # seats whose connections here lost them under this lock

    @property
    def session(self) -> AsyncSession:
        """The session of the work under the lock (created on first use)."""
        if self._session is None:
            self._session = self._tables.sessions()
        return self._session

    async def end_transaction(self) -> None:
        """Commit what the session did so far and give its connection back (before waiting for
        the group commit, which needs one: SQLite has a single connection, app/db.py)."""
        if self._session is not None and self._session.in_transaction():
            await self._session.commit()

    async def know_seats(self) -> None:
        """Make sure the table knows its computer players (`Table.bot_levels`), its seats'
        holders (`Table.holders`) and its turn timer (`Table.turn_limit_s`): read them now,
        under the lock, if it does not (connections that lost their seat are told:
        `seats_read`)."""
        if not self.table.seats_known():
            rows = (await self.session.execute(_SEAT_LEVELS, {"room_id": self.table.room_id})).all()
            limit = await self.session.scalar(_TURN_LIMIT, {"room_id": self.table.room_id})
            self.table.note_seat_rows(rows, limit)
            self.seats_read()

    def seats_read(self, room: Room | None = None) -> None:
        """The table's seats were just read under the lock: every connection here whose seat
        changed hands loses it now (`Broadcaster.unseat_stale`; `room`: the room read with
        them, for the summary those connections get); `PresenceChanged` follows the lock."""
        self.unseated += self._tables.broadcaster.unseat_stale(self.table, room)

    async def read_room(self, *, catch_up: bool = True) -> Room | None:
        """The room with its seats as committed now (None if deleted); unless `catch_up` is
        False, the table is caught up with it (`catch_up`)."""
        self.room = await self.session.scalar(
            select(Room).where(Room.id == self.table.room_id).options(selectinload(Room.seats))
            .execution_options(populate_existing=True))
        if self.room is not None:
            self.table.note_seats(self.room)
            self.seats_read(self.room)
        if self.room is not None and catch_up:
            await self.catch_up(self.room)
        return self.room

    async def catch_up(self, row: Any) -> None:
        """Sync the table to `row` (any row with seed, num_players, version) and tell the room
        (Broadcaster.catch_up); sets `started` and `caught`."""
        self.started, self.caught = await self._tables.broadcaster.catch_up(self.session, self.table, row)

    def changed(self) -> None:
        """The room's seats or status change here: on leaving, commit, send the room summary
        (and history and state if the game started), then publish `RoomChanged`."""
        self._changed = True


class Tables:
    """code → `Table` of the rooms this process serves, and their locks."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], broadcaster: Broadcaster, events: Events):
        self.sessions = sessions
        self.broadcaster = broadcaster
        self.events = events
        self._tables: dict[str, Table] = {}
        self._holders: dict[asyncio.Task, str] = {}   # task → the room whose lock it holds
        self._users: dict[str, int] = {}               # code → tasks holding or awaiting its lock

    # ------------------------------------------------------------- registry
    def of(self, room: Room) -> Table:
        """The table of a room (created empty; `Table.sync` fills it)."""
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
                held = Held(self, table)
                try:
                    yield held
                    if held._session is not None:
                        await held._session.commit()
                    if held._changed:
                        event = await self._announce(held)
                finally:
                    if held.unseated:  # a seat's connections here went: the other processes hear it
                        presence = PresenceChanged(code, frozenset(self.broadcaster.hub.connected_seats(code)))
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

    async def _announce(self, held: Held) -> RoomChanged | None:
        """After a committed change, under the lock: the summary to the room, then history and
        state if the game just started; → the event to publish once the lock is released."""
        room = await held.session.scalar(
            select(Room).where(Room.id == held.table.room_id).options(selectinload(Room.seats))
            .execution_options(populate_existing=True))
        if room is None:
            return None
        held.table.note_seats(room)
        held.seats_read(room)
        self.broadcaster.send_room(room)
        await held.catch_up(room)
        return RoomChanged(room.code, room.status, room.public, started=held.started)

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
            if await held.read_room() is None:
                raise RoomGone()
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
