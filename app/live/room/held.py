"""One room under its lock (`Held`, yielded by `Tables.hold`, lock.py): its session, the one
way its table is brought up to date (`Held.sync`), and the one way anything of it goes to its
connections (`Held.publish` → `Publisher.publish`, publish.py).

`sync` reads what was committed, by this process or another: the room with its seats, or only
the game up to a room row the caller read, or a snapshot and log rows read for many rooms at
once (fanout/remote.py). Seats read under the lock end the rights of the connections whose
seat changed hands (`Publisher.unseat_stale`, docs/architecture.md "The seat rule").
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import selectinload

from ...models import Room, Seat
from ...store import games as store
from ..sockets.connection import Connection
from .publish import Publisher, Update
from .table import Table, hint_event

# The seats' computer players and holders of a room, and its turn timer (Held.know_seats).
_SEAT_LEVELS = select(Seat.__table__.c.seat, Seat.__table__.c.bot_level, Seat.__table__.c.token_hash,
                      Seat.__table__.c.away_until).where(Seat.__table__.c.room_id == bindparam("room_id"))
_TURN_LIMIT = select(Room.__table__.c.turn_limit_s, Room.__table__.c.paused_at, Room.__table__.c.tutorial).where(
    Room.__table__.c.id == bindparam("room_id"))
#: `Held._load` reads a room's snapshot and log again this many times at most when the room moved
#: on between the two reads (another process played again or deleted it).
LOAD_TRIES = 3


class Held:
    """One room under its lock: `session` (opened after the lock was taken, on first use: the
    action path often needs none), `table`, and `room` once `sync` has read it.

    `sync` is the one way the table is brought up to date with what was committed (by this
    process or another), `publish` the one way anything of the room goes to its connections."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], publisher: Publisher, table: Table):
        self._session: AsyncSession | None = None
        self.table = table
        self.room: Room | None = None
        self._sessions = sessions
        self._publisher = publisher
        self._changed = False
        self.unseated: list[int] = []  # seats whose connections here lost them under this lock

    @property
    def session(self) -> AsyncSession:
        """The session of the work under the lock (created on first use)."""
        if self._session is None:
            self._session = self._sessions()
        return self._session

    async def end_transaction(self) -> None:
        """Commit what the session did so far and give its connection back (before waiting for
        the group commit, which needs one: SQLite has a single connection, app/db.py)."""
        if self._session is not None and self._session.in_transaction():
            await self._session.commit()

    def watched(self) -> bool:
        """True when the room has a live connection in this process."""
        return bool(self._publisher.hub.of(self.table.code))

    async def know_seats(self) -> None:
        """Make sure the table knows its computer players (`Table.bot_levels`), its seats'
        holders (`Table.holders`) and its turn timer (`Table.turn_limit_s`): read them now,
        under the lock, if it does not (connections that lost their seat are told:
        `Publisher.unseat_stale`)."""
        if not self.table.seats_known():
            rows = (await self.session.execute(_SEAT_LEVELS, {"room_id": self.table.room_id})).all()
            pace = (await self.session.execute(_TURN_LIMIT, {"room_id": self.table.room_id})).first()
            self.table.note_seat_rows(rows, pace.turn_limit_s if pace else None, pace.paused_at if pace else None)
            self.table.tutorial = bool(pace and pace.tutorial)
            self._seats_read()

    def _seats_read(self, room: Room | None = None) -> None:
        """The table's seats were just read under the lock: every connection here whose seat
        changed hands loses it now (`Publisher.unseat_stale`; `room`: the room read with
        them, for the summary those connections get); `PresenceChanged` follows the lock."""
        self.unseated += self._publisher.unseat_stale(self.table, room)

    async def sync(self, row: Any = None, *, snapshot: Any = None, rows: list | None = None) -> Update:
        """Bring the room up to date with what was committed: the one way a table catches up.
        Tells nobody: the caller publishes what it brought (`publish`) before anything of its own.

        - `sync()`: the room is read now with its seats (`room`, None if it was deleted): the
          seats' computer players, holders and the turn timer are noted (`Table.note_seats`),
          and connections whose seat changed hands lose it (`Publisher.unseat_stale`); then
          the game is brought up to that row.
        - `sync(row)`: the game alone, up to a room row the caller read under this lock (any row
          with `seed`, `version`, `turn_at`, `deadline_at`; a connection's arrival).
        - `sync(snapshot=, rows=)`: the game alone, from the snapshot (seed, version, state,
          state_version, turn_at, deadline_at) and log rows read elsewhere, for many rooms at once
          (fanout/remote.py), of the game this table holds (the caller checks `seed`); nothing is read.
          The table may have moved since: never a version skipped or applied twice.

        The game: nothing is read while the row is at the table's version (the clock is taken
        then); else the stored snapshot (one statement) and the log rows after the table's
        version up to the room's (app/store/games.py), the few actions after the snapshot
        played again (`Table.load`): the table holds exactly what was committed. → `Update`
        (the room read, whether the game has just
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
        caught = await self._load(row)
        hints = await self._new_hints()
        # A hint given elsewhere on the decision now: its public log line, as where it was given.
        caught += [(v, [hint_event(table.hints[v]["seat"])]) for v in hints if v == table.version]
        return Update(self.room, started, caught, hints=hints)

    async def _new_hints(self) -> list[int]:
        """The versions of this game's hints another process gave since the table read them
        (`Table.hints_known` False: fanout kind "h"), now in `Table.hints`."""
        table = self.table
        if table.hints_known or table.state is None or table.seed is None:
            return []
        got = await store.read_hints(self.session, table.room_id, table.seed)
        new = sorted(v for v in got if v not in table.hints)
        table.hints, table.hints_known = got, True
        return new

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
        for _ in range(LOAD_TRIES):
            if snap is None or snap.seed is None:
                table.reset(None)
                return []
            if snap.state is None:
                raise RuntimeError(f"room {table.code}: the game has no stored state")
            if not (table.state is not None and table.seed == snap.seed):
                table.reset(snap.seed)
                table.hints = await store.read_hints(self.session, table.room_id, snap.seed)  # (app/live/hints.py)
            if table.state is not None and snap.version <= table.version:
                return []
            try:
                rows = await store.read_log(self.session, table.room_id, table.version, snap.version)
            except RuntimeError:
                # Another process may have moved the room on between the two reads: "play again"
                # there archives the finished game whose log this was (its packed log belongs to
                # the room's game only while that game is the room's, app/store/games.py), or
                # deletes the room. Read again and load what is there now; the same snapshot
                # again means the log really is short.
                again = await store.read_snapshot(self.session, table.room_id)
                if again is not None and (again.seed, again.version) == (snap.seed, snap.version):
                    raise
                snap = again
                continue
            return table.load(snap, rows)
        raise RuntimeError(f"room {table.code}: the game moved on {LOAD_TRIES} times while it was being read")

    def publish(self, news: Update, *, summary: bool = False,
                game: Literal["news", "history", "state"] = "news", to: Iterable[Connection] | None = None) -> None:
        """Tell the room's connections here what `news` brought (`Publisher.publish`)."""
        self._publisher.publish(self.table, news, summary=summary, game=game, to=to)

    def tell_seat(self, seat: int, frame: dict) -> None:
        """A frame for `seat` alone (a hint: app/live/hints.py) to its connections here that
        hold it now (`Publisher.tell_seat`)."""
        self._publisher.tell_seat(self.table, seat, frame)

    def restate(self, clock: tuple, news: Update) -> None:
        """After `sync`: when the turn clock moved without an action (a pause, a resume, an
        away: app/pace.py), every connection gets the state again with its new `clock`;
        `clock` = `Table.clock_key()` before the sync."""
        if (self.table.state is not None and not news.started and not news.caught
                and self.table.clock_key() != clock):
            self.publish(Update(), game="state")

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
