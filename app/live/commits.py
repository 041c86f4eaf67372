"""Group commit: one writer task stores the actions of many rooms in one transaction.

`Committer.commit(pending)` is awaited by the action path while it holds its room's lock (and no
database session: the room-lock rule, tables.py). The writer takes every action waiting at that
moment, and in ONE transaction moves each room's version (the optimistic check of
`Fanout.bump_version`: only from the version the table was at) and inserts the action rows, then
COMMITs; only then is each caller answered — an action is durable before anyone hears of it.
While one batch commits, the next one gathers: under load a commit (one WAL write, one fsync
with PostgreSQL) carries dozens of actions, and on SQLite the whole batch costs a handful of
hand-offs to the driver's thread instead of about fifteen per action (docs/performance.md).

The rooms of a batch are stored in the order of their ids (a global lock order: two
processes' batches cannot deadlock on PostgreSQL). A batch in which any action fails its
version check or a unique constraint (another process got there first, or the same (seat, id)
was stored meanwhile) is rolled back as a whole and its actions are stored again one
transaction each, so one loser never costs the others.

A computer player's action can carry `Pending.bot`, (seat, level): then the transaction that
stores it first reads that seat's `bot_level` with a share lock (`FOR SHARE` on PostgreSQL)
and stores nothing unless it is still `level` (`Pending.not_a_bot` is then set). A person
taking the seat back in another process updates that row, so the two serialize on it: the
take-back either commits first (the bot's action is refused) or waits until the bot's action
is committed. (Within one process the room lock already orders them: actions.py.)

PostgreSQL (asyncpg): the batch is ONE statement on a connection the writer keeps
(`_PG_STORE`, autocommit: the statement is its own transaction): the rooms whose version check
holds move (with the action's notification in the UPDATE's RETURNING, as `PgFanout.bump_version`
sends it) and their action rows are inserted; the others store nothing and lose, as they would
alone. One round trip instead of five (the pool's ping at checkout, BEGIN, UPDATE, INSERT,
COMMIT). A computer player's action (`bot`), a row of an unusual shape, a unique-constraint
violation or a broken connection (dropped, then taken again from the pool next time) go the
SQLAlchemy way above.

SQLite in one process: the batch goes to the driver directly (`_DriverStatement`: the same Core
statements, compiled once, with SQLAlchemy's own bind processors for the JSON and DATETIME
columns): BEGIN IMMEDIATE, one executemany per statement, COMMIT, all in ONE hand-off to
aiosqlite's thread per batch (`_store_batch`), on the pool's one connection, which goes back to
the pool without a ROLLBACK (app/db.py: none is sent when no transaction is open). Anything
unusual (a lost version check, an error) rolls back and goes the SQLAlchemy way above, which
raises SQLAlchemy's exceptions.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import bindparam, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlalchemy.util import greenlet_spawn

from ..db import json_text

from ..models import ActionRow, Seat
from .fanout import BUMP_VERSION, Fanout
from .pg_fanout import CHANNEL

log = logging.getLogger("osaka.commits")
MAX_BATCH = 256  # actions per transaction at most
_INSERT_ACTION = insert(ActionRow.__table__)
_SEATS = Seat.__table__
# The controller of a computer player's seat, as committed now, locked until the commit.
_BOT_LEVEL_LOCKED = (select(_SEATS.c.bot_level)
                     .where(_SEATS.c.room_id == bindparam("room_id"), _SEATS.c.seat == bindparam("seat"))
                     .with_for_update(read=True))
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
    that level (checked in the storing transaction, see the module docstring)."""
    code: str
    row: dict
    bump: dict
    bot: tuple[int, str] | None = None
    done: asyncio.Future = field(default=None)  # type: ignore[assignment]
    not_a_bot: bool = False  # set when refused because the seat is no longer that computer player's


class Committer:
    """The one writer of action rows of this process (see the module docstring)."""

    def __init__(self, engine: AsyncEngine, fanout: Fanout, max_batch: int = MAX_BATCH):
        self.engine = engine
        self.fanout = fanout
        self.max_batch = max_batch
        self._queue: list[Pending] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None
        self.batches = 0     # transactions committed (for the benchmark's figures)
        self.stored = 0      # actions stored
        # SQLite, one process: the batch straight to the driver (see the module docstring).
        self._driver = engine.dialect.name == "sqlite" and not fanout.shared
        self._compiled: dict[tuple, _DriverStatement] = {}
        # PostgreSQL with asyncpg: the batch in one statement, on a connection kept for it.
        self._pg = engine.dialect.name == "postgresql" and engine.dialect.driver == "asyncpg" and fanout.shared
        self._pg_conn: Any = None  # the pool's connection (PoolProxiedConnection) the writer keeps

    async def _store_on_asyncpg(self, batch: list[Pending]) -> set[int] | None:
        """The batch as `_PG_STORE` → the room ids whose action was stored (the others lost
        their version check; nothing of theirs was stored), or None (nothing stored) when the
        batch must go the SQLAlchemy way: a computer player's action, a row of another shape,
        a unique-constraint violation, a connection that broke (it is invalidated: the pool
        makes a new one)."""
        if any(p.bot is not None or tuple(p.row) != _ROW_KEYS or tuple(p.bump) != _BUMP_KEYS for p in batch):
            return None
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
        import asyncpg  # noqa: PLC0415 - only with PostgreSQL
        try:
            if self._pg_conn is None:
                self._pg_conn = await self.engine.raw_connection()  # (the pool pings it first)
            stored = await self._pg_conn.driver_connection.fetch(_PG_STORE, *columns)
        except asyncpg.UniqueViolationError:
            return None  # a (seat, id) or version stored meanwhile: one transaction each decides
        except asyncio.CancelledError:
            self._drop_pg_conn()
            raise
        except Exception:  # the connection broke (the database restarted, …): a new one next time
            log.warning("storing a batch on the kept connection failed; going the pool's way", exc_info=True)
            self._drop_pg_conn()
            return None
        return {r[0] for r in stored}

    def _drop_pg_conn(self) -> None:
        """Forget the kept connection: invalidated (closed, never handed out again)."""
        conn, self._pg_conn = self._pg_conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.invalidate()

    async def _store_on_driver(self, batch: list[Pending]) -> bool:
        """The batch in one transaction on the driver's connection; False (rolled back, nothing
        stored) when an action lost its version check or anything went wrong."""
        keys = tuple(batch[0].row)
        if any(tuple(p.row) != keys or p.bot is not None for p in batch):
            return False  # (a seat check goes the SQLAlchemy way)
        bump = self._statement(("bump",), BUMP_VERSION, None)
        add = self._statement(("insert",) + keys, _INSERT_ACTION, list(keys))
        bumps, adds = bump.rows([p.bump for p in batch]), add.rows([p.row for p in batch])
        # The pool's connection itself, without a SQLAlchemy Connection around it (half the
        # cost of `engine.connect()` + `get_raw_connection()`: docs/performance.md).
        raw = await self.engine.raw_connection()
        try:
            db = raw.driver_connection  # aiosqlite.Connection
            # One hand-off: the whole transaction runs in aiosqlite's thread, where every call
            # of this connection runs (its private `_execute`, what each of its public methods
            # does once per statement: https://github.com/omnilib/aiosqlite, core.py).
            return await db._execute(_store_batch, db._conn, bump.sql, bumps, add.sql, adds)
        finally:
            await greenlet_spawn(raw.close)  # back to the pool (app/db.py: no ROLLBACK when none is open)

    def _statement(self, key: tuple, stmt: Any, column_keys: list[str] | None) -> _DriverStatement:
        found = self._compiled.get(key)
        if found is None:
            found = self._compiled[key] = _DriverStatement(stmt, self.engine.dialect, column_keys)
        return found

    async def commit(self, pending: Pending) -> bool:
        """Store one action; True once committed, False (nothing stored) when another process
        committed that version or that (seat, id) first. Database errors are raised."""
        pending.done = asyncio.get_running_loop().create_future()
        self._queue.append(pending)
        self._wake.set()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="group-commit")
        return await pending.done

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queue:
                batch, self._queue = self._queue[:self.max_batch], self._queue[self.max_batch:]
                try:
                    await self._store(batch)
                except asyncio.CancelledError:
                    self._fail(batch, asyncio.CancelledError())
                    raise
                except Exception as exc:  # database down or the like: every caller hears it
                    self._fail(batch, exc)

    async def _store(self, batch: list[Pending]) -> None:
        # Room rows are locked in the order of their ids, in every process: two processes'
        # batches over the same rooms cannot deadlock (PostgreSQL aborted one when each had
        # locked a room the other needed; the cleanup never waits for a room row: cleanup.py).
        batch.sort(key=lambda p: p.row["room_id"])
        if self._driver and await self._store_on_driver(batch):
            for pending in batch:
                _answer(pending, True)
            self.batches += 1
            self.stored += len(batch)
            return
        if self._pg:
            stored = await self._store_on_asyncpg(batch)
            if stored is not None:
                for pending in batch:
                    _answer(pending, pending.row["room_id"] in stored)
                self.batches += 1
                self.stored += len(stored)
                return
        try:
            async with self.engine.begin() as conn:
                if not await self._all(conn, batch):
                    raise _Retry()
        except (_Retry, IntegrityError):
            for pending in batch:  # one transaction each: only the losers lose
                async with self.engine.begin() as conn:
                    ok = await self._one(conn, pending)
                    if not ok:
                        await conn.rollback()
                _answer(pending, ok)
            self.batches += len(batch)
        else:
            for pending in batch:
                _answer(pending, True)
            self.batches += 1
        self.stored += len(batch)

    async def _all(self, conn: AsyncConnection, batch: list[Pending]) -> bool:
        """Every action of the batch in `conn`'s transaction; False if any lost its race."""
        for pending in batch:
            if not await _still_the_bot(conn, pending):
                return False
        if len(batch) > 1:
            bumped = await self.fanout.bump_versions(conn, [(p.code, p.bump) for p in batch])
            if bumped is not None:
                if not bumped:
                    return False
                await conn.execute(_INSERT_ACTION, [p.row for p in batch])
                return True
        for pending in batch:
            if not await self._one(conn, pending):
                return False
        return True

    async def _one(self, conn: AsyncConnection, pending: Pending) -> bool:
        """Move the version, then insert the row (a lost version check inserts nothing)."""
        try:
            if not await _still_the_bot(conn, pending):
                return False
            if not await self.fanout.bump_version(conn, pending.code, pending.bump):
                return False
            await conn.execute(_INSERT_ACTION, pending.row)
            return True
        except IntegrityError:
            return False

    @staticmethod
    def _fail(batch: list[Pending], exc: BaseException) -> None:
        for pending in batch:
            if not pending.done.done():
                pending.done.set_exception(exc)

    async def close(self) -> None:
        """Stop the writer (after the last action was answered: shutdown drains first)."""
        self._fail(self._queue, RuntimeError("the server is shutting down"))
        self._queue = []
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
            self._task = None
        if self._pg_conn is not None:  # back to the pool (which rolls back nothing: none is open)
            conn, self._pg_conn = self._pg_conn, None
            try:
                await greenlet_spawn(conn.close)
            except Exception:
                with contextlib.suppress(Exception):
                    conn.invalidate()


class _DriverStatement:
    """A Core statement compiled once for the DB-API driver: SQL text with positional
    parameters, their names in order, and SQLAlchemy's bind processor of each (JSON through the
    engine's serializer, DATETIME as SQLAlchemy stores it), so rows are stored exactly as the ORM
    would store them."""

    def __init__(self, stmt: Any, dialect: Any, column_keys: list[str] | None):
        compiled = stmt.compile(dialect=dialect, column_keys=column_keys)
        self.sql = str(compiled)
        self.names = list(compiled.positiontup)
        self.procs = [compiled.binds[n].type.dialect_impl(dialect).bind_processor(dialect) for n in self.names]

    def rows(self, params: list[dict]) -> list[tuple]:
        """Positional parameter tuples for `executemany`."""
        named = list(zip(self.names, self.procs))
        return [tuple(v if proc is None else proc(v) for n, proc in named for v in (p[n],)) for p in params]


def _store_batch(db: sqlite3.Connection, bump_sql: str, bumps: list[tuple], add_sql: str, adds: list[tuple]) -> bool:
    """In the driver's thread: BEGIN IMMEDIATE (waiting up to the busy timeout for a lock held
    elsewhere), the version moves, the action rows, COMMIT. True when committed; False, rolled
    back, when a version check failed or SQLite raised (the caller then goes the SQLAlchemy way,
    which raises what it must)."""
    try:
        db.execute("BEGIN IMMEDIATE")
        if db.executemany(bump_sql, bumps).rowcount != len(bumps):
            db.execute("ROLLBACK")
            return False
        db.executemany(add_sql, adds)
        db.execute("COMMIT")
        return True
    except sqlite3.Error:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        return False


class _Retry(Exception):
    """A batch lost a version check: roll it back and store its actions one by one."""


async def _still_the_bot(conn: AsyncConnection, pending: Pending) -> bool:
    """A computer player's action (`Pending.bot`): is its seat still played by that level, as
    committed now? The seat's row stays share-locked until the transaction ends. False (and
    `not_a_bot` set) when not; True for any other action."""
    if pending.bot is None:
        return True
    seat, level = pending.bot
    now = await conn.scalar(_BOT_LEVEL_LOCKED, {"room_id": pending.row["room_id"], "seat": seat})
    pending.not_a_bot = now != level
    return not pending.not_a_bot


def _answer(pending: Pending, ok: bool) -> None:
    if not pending.done.done():
        pending.done.set_result(ok)
