"""The tables of this process and the one way into a room: `Tables.hold` (and `Tables.change`).

The room-lock rule: no database transaction may wait on a room's lock. With SQLite's one pooled
connection (app/db.py), a transaction waiting for the lock keeps the connection the lock's
holder needs, and both wait forever. `hold` enforces the rule instead of a comment asking for
it: the session a caller used before is ended first (`release`, committed; it may not hold
changes), the lock is taken, and only then is a fresh session opened for the work under the
lock. Holding two room locks in one task (which could deadlock) raises `RoomLockMisuse`.

Under the lock, `Held.sync` brings the table up to date with the database (the one way: the
room read with its seats, a row read by the caller, or a snapshot and log rows read for many
rooms at once) and `Held.publish` tells the room's connections (broadcast.py). `change` is
`hold` for the HTTP room changes: it reads the room, and after the body it commits, syncs,
publishes the new room summary (history and state too when the game started) and, after the
lock is released, publishes `RoomChanged` (the lobby, the other processes and the bots react).
"""
from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterable
from typing import Any, Literal

from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import selectinload

from ..refusals import Refusal
from ..models import Room, Seat
from ..security import normalize_code
from ..store import games as store
from .broadcast import Broadcaster, Update
from .events import Events, PresenceChanged, RoomChanged
from .hub import Connection
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
    action path often needs none), `table`, and `room` once `sync` has read it.

    `sync` is the one way the table is brought up to date with what was committed (by this
    process or another), `publish` the one way anything of the room goes to its connections."""

    def __init__(self, tables: Tables, table: Table):
        self._session: AsyncSession | None = None
        self.table = table
        self.room: Room | None = None
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

    def watched(self) -> bool:
        """True when the room has a live connection in this process."""
        return bool(self._tables.broadcaster.hub.of(self.table.code))

    async def know_seats(self) -> None:
        """Make sure the table knows its computer players (`Table.bot_levels`), its seats'
        holders (`Table.holders`) and its turn timer (`Table.turn_limit_s`): read them now,
        under the lock, if it does not (connections that lost their seat are told:
        `Broadcaster.unseat_stale`)."""
        if not self.table.seats_known():
            rows = (await self.session.execute(_SEAT_LEVELS, {"room_id": self.table.room_id})).all()
            limit = await self.session.scalar(_TURN_LIMIT, {"room_id": self.table.room_id})
            self.table.note_seat_rows(rows, limit)
            self._seats_read()

    def _seats_read(self, room: Room | None = None) -> None:
        """The table's seats were just read under the lock: every connection here whose seat
        changed hands loses it now (`Broadcaster.unseat_stale`; `room`: the room read with
        them, for the summary those connections get); `PresenceChanged` follows the lock."""
        self.unseated += self._tables.broadcaster.unseat_stale(self.table, room)

    async def sync(self, row: Any = None, *, snapshot: Any = None, rows: list | None = None) -> Update:
        """Bring the room up to date with what was committed: the one way a table catches up.
        Tells nobody: the caller publishes what it brought (`publish`) before anything of its own.

        - `sync()`: the room is read now with its seats (`room`, None if it was deleted): the
          seats' computer players, holders and the turn timer are noted (`Table.note_seats`),
          and connections whose seat changed hands lose it (`Broadcaster.unseat_stale`); then
          the game is brought up to that row.
        - `sync(row)`: the game alone, up to a room row the caller read under this lock (any row
          with `seed`, `version`, `turn_at`, `deadline_at`; a connection's arrival).
        - `sync(snapshot=, rows=)`: the game alone, from the snapshot (seed, version, state,
          turn_at, deadline_at) and log rows read elsewhere, for many rooms at once
          (remote.py), of the game this table holds (the caller checks `seed`); nothing is read.
          The table may have moved since: never a version skipped or applied twice.

        The game: nothing is read while the row is at the table's version (the clock is taken
        then); else the stored snapshot (one statement) and the log rows after the table's
        version up to the snapshot's (app/store/games.py): nothing is replayed, the table holds
        exactly what was committed. → `Update` (the room read, whether the game has just
        started, the (version, events) loaded now). Raises RuntimeError when the stored log
        (or `rows`) does not hold every version after the table's up to the snapshot's."""
        table = self.table
        if snapshot is not None:
            return Update(self.room, False, _advance(table, snapshot, rows or []))
        if row is None:
            row = self.room = await self.session.scalar(
                select(Room).where(Room.id == table.room_id).options(selectinload(Room.seats))
                .execution_options(populate_existing=True))
            if row is None:
                return Update()
            table.note_seats(row)
            self._seats_read(row)
        started = table.state is None and row.seed is not None
        return Update(self.room, started, await self._load(row))

    async def _load(self, row: Any) -> list[tuple[int, list[dict]]]:
        """`sync`'s game part from the database, up to `row` as read now (the log only grows: a
        row below the table's version was read before this process's last commit)."""
        table = self.table
        same_game = table.state is not None and table.seed == row.seed
        if same_game and row.version == table.version:
            table.note_clock(row)
        if row.seed is None or (same_game and row.version <= table.version):
            if row.seed is None:
                table.reset(None)
            return []
        snap = await store.read_snapshot(self.session, table.room_id)
        if snap is None or snap.seed is None:
            table.reset(None)
            return []
        if snap.state is None:
            raise RuntimeError(f"room {table.code}: the game has no stored state")
        if not (table.state is not None and table.seed == snap.seed):
            table.reset(snap.seed)
        if table.state is not None and snap.version <= table.version:
            return []
        return table.load(snap, await store.read_log(self.session, table.room_id, table.version, snap.version))

    def publish(self, news: Update, *, summary: bool = False,
                game: Literal["news", "history", "state"] = "news", to: Iterable[Connection] | None = None) -> None:
        """Tell the room's connections here what `news` brought (`Broadcaster.publish`)."""
        self._tables.broadcaster.publish(self.table, news, summary=summary, game=game, to=to)

    def changed(self) -> None:
        """The room's seats or status change here: on leaving, commit, send the room summary
        (and history and state if the game started), then publish `RoomChanged`."""
        self._changed = True


def _advance(table: Table, snap: Any, rows: list) -> list[tuple[int, list[dict]]]:
    """`sync`'s game part from a snapshot and log rows read elsewhere (see `Held.sync`)."""
    if snap.version <= table.version:
        if snap.version == table.version:
            table.note_clock(snap)
        return []
    rows = [r for r in rows if r.version > table.version]
    store.check_log(table.room_id, rows, table.version, snap.version)
    return table.load(snap, rows)


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
                held = Held(self, table)
                try:
                    yield held
                    if held._session is not None:
                        await held._session.commit()
                    if held._changed:  # the room's connections hear of it, then everyone else
                        news = await held.sync()
                        if news.room is not None:
                            held.publish(news, summary=True)
                            event = RoomChanged(news.room.code, news.room.status, news.room.public,
                                                started=news.started)
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
