"""SQLite's `ActionStore`: one writer connection, one transaction per batch.

The batch goes to the sqlite3 driver directly (`_DriverStatement`: the Core statements of
actions.py compiled once, with SQLAlchemy's own bind processors for the JSON and DATETIME
columns, so rows are stored exactly as the ORM stores them): BEGIN IMMEDIATE, a computer
player's seat check if any, one executemany per statement, COMMIT (`_store_batch`). A batch in
which an action conflicts (a lost version check, a unique constraint, a seat no longer that
computer player's) is rolled back and its actions are stored one transaction each with the same
statements.

It runs on the event loop's thread, on the writer's own connection (`SqliteWriter`), which never
waits: its busy timeout is 0. Without a hand-off to a thread a batch of one action costs about
0.15 ms less of the server's CPU (docs/performance.md); SQLite's own work for it is ~20 µs. When
another connection holds the write lock (a session of the pool, an `osaka` command) the same
transaction runs in a worker thread on the writer's waiting connection, whose busy timeout is
the pool's, once the pool's one connection is checked out (its queue, not SQLite's polling busy
handler, waits for this process's sessions), so the loop never waits for a lock. The writer's
connection checkpoints nothing itself (`wal_autocheckpoint=0`: no fsync on the loop): every
`CHECKPOINT_EVERY` actions a passive checkpoint runs in a worker thread.

A database that is not a plain file (in memory, a `file:` URI) cannot have a second connection
that sees it: there the same statements run through SQLAlchemy on the pool's connection.
sqlite3's errors other than a conflict are raised as SQLAlchemy's (`DBAPIError.instance`), as
the pool's way would raise them.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import operator
import sqlite3
from typing import Any

from sqlalchemy import bindparam, exc, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlalchemy.util import greenlet_spawn

from ..db import SQLITE_BUSY_TIMEOUT_MS, SQLITE_PRAGMAS
from ..models import Seat
from .actions import BUMP_VERSION, INSERT_ACTION, ROW_KEYS, ActionStore, Pending, check_shapes

log = logging.getLogger("osaka.commits")
#: `_store_batch`'s answer when the write lock is held elsewhere (nothing was stored).
BUSY = object()
#: The writer checkpoints the WAL (in a worker thread) after this many actions (~4 pages each).
CHECKPOINT_EVERY = 256
_SEATS = Seat.__table__
#: A computer player's seat's controller, as committed (inside BEGIN IMMEDIATE: nobody else writes).
_BOT_LEVEL_SQL = "SELECT bot_level FROM seats WHERE room_id = ? AND seat = ?"
_BOT_LEVEL = select(_SEATS.c.bot_level).where(_SEATS.c.room_id == bindparam("room_id"),
                                               _SEATS.c.seat == bindparam("seat"))


def sqlite_file(engine: AsyncEngine) -> str | None:
    """The database file of a SQLite engine, or None when it is not a plain file (in memory, a
    `file:` URI): a second connection would not see the same database."""
    url = engine.url
    path = url.database
    if not path or path == ":memory:" or path.startswith("file:") or url.query.get("uri"):
        return None
    return path


class SqliteStore(ActionStore):
    """SQLite's `ActionStore` (module docstring). `own_connection=False`: every batch through
    SQLAlchemy on the pool's connection, as for a database that is not a plain file."""

    def __init__(self, engine: AsyncEngine, own_connection: bool = True):
        self.engine = engine
        self.writer = SqliteWriter(sqlite_file(engine) if own_connection else None)
        self.transactions = 0
        self._bump = _DriverStatement(BUMP_VERSION, engine.dialect, None)
        self._add = _DriverStatement(INSERT_ACTION, engine.dialect, list(ROW_KEYS))
        self._closed = False

    async def store(self, batch: list[Pending]) -> list[bool]:
        if self._closed:
            raise RuntimeError("the action store is closed")
        check_shapes(batch)
        batch.sort(key=lambda p: p.row["room_id"])
        try:
            if await self._transaction(batch):
                return [True] * len(batch)
            return [await self._transaction([p]) for p in batch]
        except sqlite3.Error as e:
            raise exc.DBAPIError.instance(None, None, e, sqlite3.Error) from e

    async def _transaction(self, batch: list[Pending]) -> bool:
        """`batch` in one transaction → True committed, False rolled back (a conflict)."""
        if self.writer.connection() is None:
            return await self._through_pool(batch)
        add = self._add
        args = (_bot_checks(batch), self._bump.sql, self._bump.rows([p.bump for p in batch]),
                add.sql, add.rows([p.row for p in batch]))
        stored = self.writer.store(*args)
        if stored is BUSY:
            # Held first: the pool's one connection (its FIFO queue hands it over the moment the
            # session holding the lock is done; SQLite's busy handler would poll, sleeping up to
            # 100 ms between tries: app/db.py). Then only another process can hold the lock.
            raw = await self.engine.raw_connection()
            try:
                stored = await asyncio.to_thread(self.writer.store_waiting, *args)
            finally:
                await greenlet_spawn(raw.close)  # back to the pool (app/db.py: no ROLLBACK when none is open)
        if stored is True:
            self.transactions += 1
            self.writer.stored(len(batch))
        return stored is True

    async def _through_pool(self, batch: list[Pending]) -> bool:
        """The same statements through SQLAlchemy on the pool's connection (no plain file)."""
        try:
            async with self.engine.begin() as conn:
                if not await _seats_still_bots(conn, batch):
                    raise _Conflict()
                if (await conn.execute(BUMP_VERSION, [p.bump for p in batch])).rowcount != len(batch):
                    raise _Conflict()
                await conn.execute(INSERT_ACTION, [p.row for p in batch])
        except (_Conflict, exc.IntegrityError):
            return False
        self.transactions += 1
        return True

    async def close(self) -> None:
        self._closed = True
        await self.writer.close()


class _Conflict(Exception):
    """A batch conflicts: roll it back (its actions are then stored one by one)."""


def _bot_checks(batch: list[Pending]) -> list[tuple[Pending, tuple[int, int], str]]:
    return [(p, (p.row["room_id"], p.bot[0]), p.bot[1]) for p in batch if p.bot is not None]


async def _seats_still_bots(conn: AsyncConnection, batch: list[Pending]) -> bool:
    for p in batch:
        if p.bot is not None:
            now = await conn.scalar(_BOT_LEVEL, {"room_id": p.row["room_id"], "seat": p.bot[0]})
            p.not_a_bot = now != p.bot[1]
            if p.not_a_bot:
                return False
    return True


class SqliteWriter:
    """The action store's own connections to the SQLite file `path`: `db`, used on the event
    loop's thread only (sqlite3 refuses any other: `check_same_thread`), busy timeout 0, so
    `store` never waits for a lock; and the waiting connection, used in a worker thread only
    when `db` found the lock taken (`store_waiting`: the pool's busy timeout). Opened at the
    first batch; none when `path` is None or the database is not in WAL mode."""

    def __init__(self, path: str | None):
        self.path = path
        self.db: sqlite3.Connection | None = None
        self.checkpoints = 0  # checkpoints done, and PRAGMA wal_checkpoint's answer to the last:
        self.last_checkpoint: tuple[int, int, int] | None = None  # (busy, WAL pages, pages copied)
        self._usable = path is not None
        self._since_checkpoint = 0
        self._checkpointing: asyncio.Task | None = None
        self._checkpoint_db: sqlite3.Connection | None = None
        self._waiting_db: sqlite3.Connection | None = None

    def _open(self, timeout_s: float, **kwargs: Any) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=timeout_s, isolation_level=None, **kwargs)
        try:
            _set_pragmas(db)
        except BaseException:
            db.close()
            raise
        return db

    def connection(self) -> sqlite3.Connection | None:
        """The writer's connection (opened now if need be), or None when there is none."""
        if self.db is None and self._usable:
            try:
                db = sqlite3.connect(self.path, timeout=0, isolation_level=None)
            except sqlite3.Error:
                self._usable = False
                return None
            try:
                if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                    self._usable = False  # app/db.py sets WAL on every connection of the pool
                    db.close()
                    return None
                _set_pragmas(db)
            except sqlite3.Error:
                db.close()
                self._usable = False
                return None
            self.db = db
        return self.db

    def store(self, checks: list, bump_sql: str, bumps: list[list], add_sql: str,
              adds: list[list]) -> bool | object:
        """`_store_batch` on the writer's connection, on the loop's thread → True, False, or
        BUSY (nothing stored: the write lock is held elsewhere)."""
        return _store_batch(self.connection(), checks, bump_sql, bumps, add_sql, adds)

    def store_waiting(self, checks: list, bump_sql: str, bumps: list[list], add_sql: str,
                      adds: list[list]) -> bool | object:
        """In a worker thread: `_store_batch` on the waiting connection (busy timeout: the
        pool's) → True or False; sqlite3's "database is locked" after the timeout is raised."""
        if self._waiting_db is None:
            self._waiting_db = self._open(SQLITE_BUSY_TIMEOUT_MS / 1000, check_same_thread=False)
        stored = _store_batch(self._waiting_db, checks, bump_sql, bumps, add_sql, adds)
        if stored is BUSY:
            raise sqlite3.OperationalError("database is locked")
        return stored

    def stored(self, actions: int) -> None:
        """Count `actions` stored; start a checkpoint in a worker thread every CHECKPOINT_EVERY."""
        self._since_checkpoint += actions
        if self._since_checkpoint >= CHECKPOINT_EVERY and (
                self._checkpointing is None or self._checkpointing.done()):
            self._since_checkpoint = 0
            self._checkpointing = asyncio.get_running_loop().create_task(
                asyncio.to_thread(self._checkpoint), name="sqlite-checkpoint")

    def _checkpoint(self) -> None:
        """In a worker thread: copy the WAL's committed pages back into the database file
        (PASSIVE: it waits for no one and nobody waits for it). Errors are logged."""
        try:
            if self._checkpoint_db is None:
                self._checkpoint_db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.last_checkpoint = self._checkpoint_db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            self.checkpoints += 1
        except sqlite3.Error:
            log.warning("a checkpoint of the SQLite database failed", exc_info=True)

    async def close(self) -> None:
        """Wait for a checkpoint under way, then close the connections."""
        if self._checkpointing is not None:
            with contextlib.suppress(Exception):
                await self._checkpointing
            self._checkpointing = None
        for db in (self._checkpoint_db, self._waiting_db, self.db):
            if db is not None:
                db.close()
        self._checkpoint_db = self._waiting_db = self.db = None


def _set_pragmas(db: sqlite3.Connection) -> None:
    """The pool's pragmas (app/db.py), but no checkpoint on the writer's connections."""
    for pragma in (*SQLITE_PRAGMAS, "wal_autocheckpoint=0"):
        db.execute(f"PRAGMA {pragma}")


class _DriverStatement:
    """A Core statement compiled once for the DB-API driver: SQL text with positional
    parameters, their names in order, and SQLAlchemy's bind processor of each (JSON through the
    engine's serializer, DATETIME as SQLAlchemy stores it), so rows are stored exactly as the ORM
    would store them. A parameter the statement uses twice (`BUMP_VERSION`'s `state`) is
    processed once and its value repeated: the JSON of a state is not written twice."""

    def __init__(self, stmt: Any, dialect: Any, column_keys: list[str] | None):
        compiled = stmt.compile(dialect=dialect, column_keys=column_keys)
        self.sql = str(compiled)
        names = list(compiled.positiontup)
        procs = [compiled.binds[n].type.dialect_impl(dialect).bind_processor(dialect) for n in names]
        # a row's parameters in order, as a tuple (itemgetter of one name gives the value alone)
        getter = operator.itemgetter(*names)
        self._values = getter if len(names) > 1 else (lambda p: (getter(p),))
        first = {name: names.index(name) for name in names}
        self._processed = [(i, proc) for i, proc in enumerate(procs) if proc is not None and first[names[i]] == i]
        self._repeats = [(i, first[name]) for i, name in enumerate(names) if first[name] != i]

    def rows(self, params: list[dict]) -> list[list]:
        """Positional parameter rows for `executemany` (KeyError for a missing parameter)."""
        values, processed, repeats = self._values, self._processed, self._repeats
        out: list[list] = []
        for p in params:
            row = list(values(p))
            for i, proc in processed:
                row[i] = proc(row[i])
            for i, source in repeats:
                row[i] = row[source]
            out.append(row)
        return out


def _store_batch(db: sqlite3.Connection, checks: list, bump_sql: str, bumps: list[list], add_sql: str,
                 adds: list[list]) -> bool | object:
    """BEGIN IMMEDIATE (waiting up to `db`'s busy timeout for a lock held elsewhere), the
    computer players' seat checks (`checks`: (pending, (room id, seat), level)), the version
    moves, the action rows, COMMIT. True when committed; BUSY (nothing stored) when the lock
    could not be had in time; False, rolled back, on a conflict (a seat check, a version check,
    a unique constraint). Anything else is raised after the ROLLBACK: `db` never keeps a
    transaction, and with it the database's write lock, open."""
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as e:
        if (getattr(e, "sqlite_errorcode", None) or 0) & 0xFF == sqlite3.SQLITE_BUSY:
            return BUSY
        raise
    try:
        for pending, key, level in checks:
            row = db.execute(_BOT_LEVEL_SQL, key).fetchone()
            pending.not_a_bot = (row[0] if row else None) != level
            if pending.not_a_bot:
                db.execute("ROLLBACK")
                return False
        if db.executemany(bump_sql, bumps).rowcount != len(bumps):
            db.execute("ROLLBACK")
            return False
        db.executemany(add_sql, adds)
        db.execute("COMMIT")
        return True
    except BaseException as e:
        if db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
        if isinstance(e, sqlite3.IntegrityError):
            return False
        raise
