"""Group commit: one writer task stores the actions of many rooms in one transaction.

`Committer.commit(pending)` is awaited by the action path while it holds its room's lock (and no
database session: the room-lock rule, tables.py). The writer takes every action waiting at that
moment, and in ONE transaction moves each room's version (the optimistic check of
`Fanout.bump_version`: only from the version the table was at) and inserts the action rows, then
COMMITs; only then is each caller answered — an action is durable before anyone hears of it.
While one batch commits, the next one gathers: under load a commit (one WAL write, one fsync
with PostgreSQL) carries dozens of actions, and on SQLite the whole batch costs no hand-off to
the driver's thread at all instead of about fifteen per action (docs/performance.md).

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

Most batches take a shorter way, straight to the database driver (direct_commits.py: on
SQLite a connection of the writer's own on the event loop's thread, which never waits for a
lock, or else one hand-off to aiosqlite's thread; one statement on PostgreSQL); what those cannot
store (a computer player's seat check, an unusual row, a lost version check on SQLite, a
unique constraint, a broken connection) goes the SQLAlchemy way described here, which raises
SQLAlchemy's exceptions.
"""
from __future__ import annotations

import asyncio

from sqlalchemy import bindparam, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ..models import Seat
from .direct_commits import INSERT_ACTION, Pending, PostgresDirect, SqliteDirect  # (Pending: for actions.py)
from .fanout import Fanout

MAX_BATCH = 256  # actions per transaction at most
_SEATS = Seat.__table__
# The controller of a computer player's seat, as committed now, locked until the commit.
_BOT_LEVEL_LOCKED = (select(_SEATS.c.bot_level)
                     .where(_SEATS.c.room_id == bindparam("room_id"), _SEATS.c.seat == bindparam("seat"))
                     .with_for_update(read=True))


class Committer:
    """The one writer of action rows of this process (see the module docstring)."""

    def __init__(self, engine: AsyncEngine, fanout: Fanout, max_batch: int = MAX_BATCH):
        self.engine = engine
        self.fanout = fanout
        self.max_batch = max_batch
        self._queue: list[Pending] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._closed = False  # after `close`: no writer starts again
        self.batches = 0     # transactions committed (for the benchmark's figures)
        self.stored = 0      # actions stored
        # The batch straight to the driver (direct_commits.py): SQLite in one process; PostgreSQL
        # with asyncpg (several processes: the fan-out's notification goes in the statement).
        dialect = engine.dialect
        self._sqlite = SqliteDirect(engine) if dialect.name == "sqlite" and not fanout.shared else None
        self._pg = (PostgresDirect(engine, fanout)
                    if dialect.name == "postgresql" and dialect.driver == "asyncpg" and fanout.shared else None)

    async def commit(self, pending: Pending) -> bool:
        """Store one action; True once committed, False (nothing stored) when another process
        committed that version or that (seat, id) first. Database errors are raised; after
        `close`, RuntimeError (nothing stored)."""
        if self._closed:
            raise RuntimeError("the server is shutting down")
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
        if self._sqlite is not None and await self._sqlite.store(batch):
            for pending in batch:
                _answer(pending, True)
            self.batches += 1
            self.stored += len(batch)
            return
        if self._pg is not None:
            stored = await self._pg.store(batch)
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
                await conn.execute(INSERT_ACTION, [p.row for p in batch])
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
            await conn.execute(INSERT_ACTION, pending.row)
            return True
        except IntegrityError:
            return False

    @staticmethod
    def _fail(batch: list[Pending], exc: BaseException) -> None:
        for pending in batch:
            if not pending.done.done():
                pending.done.set_exception(exc)

    async def close(self) -> None:
        """Stop the writer (after the last action was answered: shutdown drains first). For
        good: a later `commit` raises instead of starting a writer that would take a kept
        connection nobody closes."""
        self._closed = True
        self._fail(self._queue, RuntimeError("the server is shutting down"))
        self._queue = []
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
            self._task = None
        if self._pg is not None:
            await self._pg.close()
        if self._sqlite is not None:
            await self._sqlite.close()


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
