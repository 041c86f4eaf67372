"""The group commit's short ways: a batch of actions straight to the database driver.

`Committer` (commits.py) tries these first; what they cannot store goes its SQLAlchemy way.

SQLite in one process (`SqliteDirect`): the batch goes to the driver directly
(`_DriverStatement`: the same Core statements, compiled once, with SQLAlchemy's own bind
processors for the JSON and DATETIME columns): BEGIN IMMEDIATE, one executemany per statement,
COMMIT (`_store_batch`). It runs on the event loop's thread, on a sqlite3 connection of the
writer's own (`SqliteWriter`), which never waits: its busy timeout is 0, so when another
connection holds the write lock (a session of the pool, an `osaka` command) the batch goes the
pool's way instead: the same statements on the pool's one connection in ONE hand-off to
aiosqlite's thread, where the busy timeout waits off the loop. Without the hand-off and the
pool's checkout a batch of one action costs about 0.15 ms less of the server's CPU (the
thread's wake-ups and its GIL round trips; docs/performance.md), and SQLite's own work for it
is ~20 µs. The writer's
connection checkpoints nothing itself (`wal_autocheckpoint=0`, so no fsync ever runs on the
loop): every `CHECKPOINT_EVERY` actions it stores, a passive checkpoint runs in a worker
thread on a connection of its own. Anything unusual (a lost version check, an error) rolls back
and goes `Committer`'s SQLAlchemy way, which raises SQLAlchemy's exceptions.

PostgreSQL (asyncpg): the batch is ONE statement on a connection the writer keeps
(`_PG_STORE`, autocommit: the statement is its own transaction): the rooms whose version check
holds move (with the action's notification in the UPDATE's RETURNING, as `PgFanout.bump_version`
sends it) and their action rows are inserted; the others store nothing and lose, as they would
alone. One round trip instead of four (BEGIN, UPDATE, INSERT, COMMIT; five while the pool
still pinged at checkout). A computer player's action (`bot`), a row of an unusual shape, a unique-constraint
violation or a broken connection (dropped, then taken again from the pool next time; logged as
one line) go the SQLAlchemy way of `Committer`. One operation at a time uses the kept
connection (`PostgresDirect._lock`: the statement, a new connection, a drop, the close).
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import operator
import sqlite3
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.util import greenlet_spawn

from ..db import SQLITE_PRAGMAS, json_text
from ..models import ActionRow
from .fanout import BUMP_VERSION, Fanout, describe_error
from .pg_fanout import CHANNEL

log = logging.getLogger("osaka.commits")
#: `_store_batch`'s answer when the write lock is held elsewhere (nothing was stored).
BUSY = object()
#: The SQLite writer checkpoints the WAL (in a worker thread) after this many actions (~4 pages each).
CHECKPOINT_EVERY = 256
#: The action row's INSERT (the same statement on every way).
INSERT_ACTION = insert(ActionRow.__table__)
# The shapes of `Pending.row` and `Pending.bump` the statements below store (Actions._rows).
_ROW_KEYS = ("room_id", "version", "action_id", "seat", "action", "events", "created_at")
_BUMP_KEYS = ("room_id", "old_version", "new_version", "new_status", "state", "to_act", "turn_at", "deadline_at")
# PostgreSQL: a whole batch in one statement (arrays, one element per action; JSON as text). The
# UPDATE is BUMP_VERSION's, with `pg_notify` in its RETURNING (pg_fanout.py); only the rooms it
# moved get their action row. → the room ids stored.
_PG_STORE = f"""
WITH w AS (
  SELECT * FROM unnest($1::integer[], $2::integer[], $3::integer[], $4::varchar[], $5::text[], $6::integer[],
                       $7::timestamp[], $8::timestamp[], $9::varchar[], $10::integer[], $11::text[], $12::text[],
                       $13::timestamp[], $14::text[])
    AS w(room_id, old_version, new_version, new_status, state, to_act, turn_at, deadline_at,
         action_id, seat, action, events, created_at, notice)
), moved AS (
  UPDATE rooms SET version = w.new_version, status = w.new_status, state = w.state::json, to_act = w.to_act,
                   turn_at = w.turn_at, deadline_at = w.deadline_at
  FROM w WHERE rooms.id = w.room_id AND rooms.version = w.old_version
  RETURNING rooms.id, pg_notify('{CHANNEL}', w.notice)
)
INSERT INTO actions (room_id, version, action_id, seat, action, events, created_at)
SELECT w.room_id, w.new_version, w.action_id, w.seat, w.action::json, w.events::json, w.created_at
FROM w JOIN moved ON moved.id = w.room_id
RETURNING room_id
"""


@dataclass
class Pending:
    """One action to store: `code` (for the fan-out's notification), `row` (the actions row's
    columns) and `bump` (the parameters of the version move: room_id, old_version, new_version,
    new_status and whatever else the room row gets with it); `bot`: (seat, level) when the
    action is a computer player's that may be stored only while that seat is still played by
    that level (checked in the storing transaction: commits.py)."""
    code: str
    row: dict
    bump: dict
    bot: tuple[int, str] | None = None
    done: asyncio.Future = field(default=None)  # type: ignore[assignment]
    not_a_bot: bool = False  # set when refused because the seat is no longer that computer player's


class SqliteDirect:
    """SQLite in one process: a batch in one transaction on the writer's own connection, on the
    event loop's thread, or in one hand-off to aiosqlite's thread when the write lock is held
    elsewhere (above)."""

    def __init__(self, engine: AsyncEngine):
        self.engine = engine
        self.writer = SqliteWriter(sqlite_file(engine))
        self._compiled: dict[tuple, _DriverStatement] = {}

    async def store(self, batch: list[Pending]) -> bool:
        """The batch in one transaction; False (rolled back, nothing stored) when an action lost
        its version check or anything went wrong."""
        keys = tuple(batch[0].row)
        if any(tuple(p.row) != keys or p.bot is not None for p in batch):
            return False  # (a seat check goes the SQLAlchemy way)
        bump = self._statement(("bump",), BUMP_VERSION, None)
        add = self._statement(("insert",) + keys, INSERT_ACTION, list(keys))
        bumps, adds = bump.rows([p.bump for p in batch]), add.rows([p.row for p in batch])
        stored = self.writer.store(bump.sql, bumps, add.sql, adds)
        if stored is not BUSY:
            return stored
        # The write lock is held elsewhere: the pool's connection itself (without a SQLAlchemy
        # Connection around it: half the cost of `engine.connect()` + `get_raw_connection()`),
        # where the pool's FIFO queue and then the busy timeout wait off the loop.
        raw = await self.engine.raw_connection()
        try:
            db = raw.driver_connection  # aiosqlite.Connection
            # One hand-off: the whole transaction runs in aiosqlite's thread, where every call
            # of this connection runs (its private `_execute`, what each of its public methods
            # does once per statement: https://github.com/omnilib/aiosqlite, core.py).
            return await db._execute(_store_batch, db._conn, bump.sql, bumps, add.sql, adds) is True
        finally:
            await greenlet_spawn(raw.close)  # back to the pool (app/db.py: no ROLLBACK when none is open)

    def _statement(self, key: tuple, stmt: Any, column_keys: list[str] | None) -> _DriverStatement:
        found = self._compiled.get(key)
        if found is None:
            found = self._compiled[key] = _DriverStatement(stmt, self.engine.dialect, column_keys)
        return found

    async def close(self) -> None:
        """Close the writer's connections (after its last checkpoint)."""
        await self.writer.close()


def sqlite_file(engine: AsyncEngine) -> str | None:
    """The database file of a SQLite engine, or None when it is not a plain file (in memory, a
    `file:` URI): a second connection would not see the same database."""
    url = engine.url
    path = url.database
    if not path or path == ":memory:" or path.startswith("file:") or url.query.get("uri"):
        return None
    return path


class SqliteWriter:
    """The group commit's own connection to the SQLite file `path`, used on the event loop's
    thread only (sqlite3 refuses any other: `check_same_thread`). Busy timeout 0: `store` never
    waits for a lock. Opened at the first batch; None of it when `path` is None or the database
    is not in WAL mode (then every batch goes the pool's way)."""

    def __init__(self, path: str | None):
        self.path = path
        self.db: sqlite3.Connection | None = None
        self.checkpoints = 0  # checkpoints done, and PRAGMA wal_checkpoint's answer to the last:
        self.last_checkpoint: tuple[int, int, int] | None = None  # (busy, WAL pages, pages copied)
        self._usable = path is not None
        self._since_checkpoint = 0
        self._checkpointing: asyncio.Task | None = None
        self._checkpoint_db: sqlite3.Connection | None = None

    def connection(self) -> sqlite3.Connection | None:
        """The writer's connection (opened now if need be), or None when there is none."""
        if self.db is None and self._usable:
            try:
                db = sqlite3.connect(self.path, timeout=0, isolation_level=None)
            except sqlite3.Error:
                return None  # (the pool's way says what is wrong)
            try:
                if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                    self._usable = False  # app/db.py sets WAL on every connection of the pool
                    db.close()
                    return None
                for pragma in (*SQLITE_PRAGMAS, "wal_autocheckpoint=0"):  # the pool's, but no checkpoint on the loop
                    db.execute(f"PRAGMA {pragma}")
            except sqlite3.Error:
                db.close()
                return None
            self.db = db
        return self.db

    def store(self, bump_sql: str, bumps: list[list], add_sql: str, adds: list[list]) -> bool | object:
        """`_store_batch` on the writer's connection, on the loop's thread → True, False, or
        BUSY (nothing stored: the write lock is held elsewhere, or there is no connection)."""
        db = self.connection()
        if db is None:
            return BUSY
        stored = _store_batch(db, bump_sql, bumps, add_sql, adds)
        if stored is True:
            self._since_checkpoint += len(bumps)
            if self._since_checkpoint >= CHECKPOINT_EVERY and (
                    self._checkpointing is None or self._checkpointing.done()):
                self._since_checkpoint = 0
                self._checkpointing = asyncio.get_running_loop().create_task(
                    asyncio.to_thread(self._checkpoint), name="sqlite-checkpoint")
        return stored

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
        """Wait for a checkpoint under way, then close both connections."""
        if self._checkpointing is not None:
            with contextlib.suppress(Exception):
                await self._checkpointing
            self._checkpointing = None
        for db in (self._checkpoint_db, self.db):
            if db is not None:
                db.close()
        self._checkpoint_db = self.db = None


class PostgresDirect:
    """PostgreSQL with asyncpg: a batch as one statement on a kept connection (above).

    The kept connection is used by one operation at a time, whoever calls: every use of it (the
    statement, taking a new one, dropping it, closing it) runs under `_lock`, so a second batch,
    a close or a reconnect waits for the statement under way instead of meeting it on the same
    connection. A statement that did not end normally (the connection broke, the batch was
    cancelled while its statement ran, anything but a unique-constraint refusal) drops the
    connection before the lock is released: no later batch meets one in an unknown state.
    After `close` it keeps no connection and stores nothing (`store` → None)."""

    def __init__(self, engine: AsyncEngine, fanout: Fanout):
        self.engine = engine
        self.fanout = fanout
        self.conn: Any = None  # the pool's connection (PoolProxiedConnection) kept for the batches
        self.broken = 0        # kept connections found broken (a restart, pg_terminate_backend, ...)
        self._lock = asyncio.Lock()
        self._closed = False

    async def store(self, batch: list[Pending]) -> set[int] | None:
        """The batch as `_PG_STORE` → the room ids whose action was stored (the others lost
        their version check; nothing of theirs was stored), or None (nothing stored, as far as
        this way knows) when the batch must go the SQLAlchemy way: a computer player's action,
        a row of another shape, a unique-constraint violation, a connection that is broken or
        broke during the statement (dropped: the next batch takes a new one from the pool)."""
        if any(p.bot is not None or tuple(p.row) != _ROW_KEYS or tuple(p.bump) != _BUMP_KEYS for p in batch):
            return None
        columns = self._columns(batch)
        import asyncpg  # noqa: PLC0415 - only with PostgreSQL
        async with self._lock:
            conn = await self._connection()
            if conn is None:
                return None
            try:
                stored = await conn.driver_connection.fetch(_PG_STORE, *columns)
            except asyncpg.UniqueViolationError:
                return None  # a (seat, id) or version stored meanwhile: one transaction each decides
            except BaseException as exc:
                self._drop()  # in whatever state the statement left it: never used again
                if not isinstance(exc, Exception):
                    raise  # cancelled (shutdown): the connection is gone already
                self._log_failure(exc)
                return None
        return {r[0] for r in stored}

    def _columns(self, batch: list[Pending]) -> list[list]:
        """`_PG_STORE`'s 14 arrays, one element per action of the batch."""
        columns: list[list] = [[] for _ in range(14)]
        (room_id, old_version, new_version, new_status, state, to_act, turn_at, deadline_at,
         action_id, seat, action, events, created_at, notice) = columns
        for p in batch:
            bump, row = p.bump, p.row
            room_id.append(bump["room_id"])
            old_version.append(bump["old_version"])
            new_version.append(bump["new_version"])
            new_status.append(bump["new_status"])
            state.append(json_text(bump["state"]))
            to_act.append(bump["to_act"])
            turn_at.append(bump["turn_at"])
            deadline_at.append(bump["deadline_at"])
            action_id.append(row["action_id"])
            seat.append(row["seat"])
            action.append(json_text(row["action"]))
            events.append(json_text(row["events"]))
            created_at.append(row["created_at"])
            notice.append(self.fanout.action_notice(p.code))
        return columns

    async def _connection(self) -> Any:
        """Under `_lock`: the kept connection, or a new one from the pool (which replaces one
        its server closed, app/db.py) when there is none or the server closed it meanwhile, or None (closed, or the database
        cannot be reached: the SQLAlchemy way says so)."""
        if self._closed:
            return None
        if self.conn is not None and self.conn.driver_connection.is_closed():
            self.broken += 1  # its server closed it while it was idle (a restart, pg_terminate_backend)
            log.warning("the group commit's kept connection was closed by the server; taking a new one")
            self._drop()
        if self.conn is None:
            try:
                self.conn = await self.engine.raw_connection()
            except Exception:
                return None
        return self.conn

    def _log_failure(self, exc: Exception) -> None:
        """A broken connection is one warning line; anything else (a bug) keeps its traceback."""
        if isinstance(exc, _broken_connection_errors()):
            self.broken += 1
            log.warning("the group commit's kept connection broke (%s); this batch goes the pool's way, "
                        "the next takes a new connection", describe_error(exc))
        else:
            log.warning("storing a batch on the kept connection failed; going the pool's way", exc_info=exc)

    def _drop(self) -> None:
        """Forget the kept connection: invalidated (closed at once, never handed out again)."""
        conn, self.conn = self.conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.invalidate()

    async def close(self) -> None:
        """After the statement under way (if any): give the kept connection back to the pool
        (which rolls back nothing: none is open); no batch takes one afterwards."""
        async with self._lock:
            self._closed = True
            conn, self.conn = self.conn, None
            if conn is None:
                return
            try:
                await greenlet_spawn(conn.close)
            except Exception:
                with contextlib.suppress(Exception):
                    conn.invalidate()


def _broken_connection_errors() -> tuple[type, ...]:
    """What asyncpg raises for a connection that cannot be used any more: closed or cut by the
    server (`ConnectionDoesNotExistError`, SQLSTATE class 08, 57P01 "terminating connection due
    to administrator command"), closed on this side (`InterfaceError`), or left by such a cut in
    a state where no statement can start (`InternalClientError`: asyncpg cannot take the
    server's goodbye, an ErrorResponse on an idle connection, and says "cannot switch to state
    12; another operation (2) is in progress" until it sees the socket close); and the
    socket's own errors."""
    import asyncpg  # noqa: PLC0415 - only with PostgreSQL
    return (asyncpg.PostgresConnectionError, asyncpg.exceptions.OperatorInterventionError,
            asyncpg.InterfaceError, asyncpg.exceptions.InternalClientError, OSError, asyncio.TimeoutError)


class _DriverStatement:
    """A Core statement compiled once for the DB-API driver: SQL text with positional
    parameters, their names in order, and SQLAlchemy's bind processor of each (JSON through the
    engine's serializer, DATETIME as SQLAlchemy stores it), so rows are stored exactly as the ORM
    would store them."""

    def __init__(self, stmt: Any, dialect: Any, column_keys: list[str] | None):
        compiled = stmt.compile(dialect=dialect, column_keys=column_keys)
        self.sql = str(compiled)
        names = list(compiled.positiontup)
        procs = [compiled.binds[n].type.dialect_impl(dialect).bind_processor(dialect) for n in names]
        # a row's parameters in order, as a tuple (itemgetter of one name gives the value alone)
        getter = operator.itemgetter(*names)
        self._values = getter if len(names) > 1 else (lambda p: (getter(p),))
        self._processed = [(i, proc) for i, proc in enumerate(procs) if proc is not None]

    def rows(self, params: list[dict]) -> list[list]:
        """Positional parameter rows for `executemany` (KeyError for a missing parameter)."""
        values, processed = self._values, self._processed
        out: list[list] = []
        for p in params:
            row = list(values(p))
            for i, proc in processed:
                row[i] = proc(row[i])
            out.append(row)
        return out


def _store_batch(db: sqlite3.Connection, bump_sql: str, bumps: list[list], add_sql: str,
                 adds: list[list]) -> bool | object:
    """BEGIN IMMEDIATE (waiting up to `db`'s busy timeout for a lock held elsewhere), the
    version moves, the action rows, COMMIT. True when committed; BUSY (nothing stored) when the
    lock could not be had in time; False, rolled back, when a version check failed or SQLite
    raised anything else (the caller then goes the SQLAlchemy way, which raises what it must).
    Whatever else is raised (a parameter sqlite3 cannot bind, say) is raised after the ROLLBACK:
    `db` never keeps a transaction, and with it the database's write lock, open."""
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as exc:
        busy = (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF == sqlite3.SQLITE_BUSY
        return BUSY if busy else False
    try:
        if db.executemany(bump_sql, bumps).rowcount != len(bumps):
            db.execute("ROLLBACK")
            return False
        db.executemany(add_sql, adds)
        db.execute("COMMIT")
        return True
    except BaseException as exc:
        if db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            return False
        raise
