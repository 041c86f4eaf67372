"""A pool connection closed in the middle of a transaction gives SQLite's write lock back at once
(app/db.py `SqliteConnection`).

The fault: a task cancelled in a database operation (the shutdown cancels the background loops)
has SQLAlchemy invalidate and close its connection while a cursor of the cancelled statement is
still referenced. `sqlite3_close_v2` then left a zombie connection that kept its transaction,
BEGIN IMMEDIATE's write lock with it, and every later writer waited the busy timeout (30 s): a
server's graceful stop hung in its "live" step until it was killed (test_downtime,
test_dockerfile). Here the same state is made without timing: a transaction open, a statement
read in part and still referenced, the connection invalidated (what SQLAlchemy does on a
cancellation), and another connection asks for the write lock without waiting."""
from __future__ import annotations

import asyncio
import random
import sqlite3

from sqlalchemy import text

from app.db import make_engine, make_sessionmaker

ROWS = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 50) SELECT x FROM c"


def _write_lock_free(path) -> bool:
    """True when another connection gets the write lock without waiting."""
    db = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        db.execute("BEGIN IMMEDIATE")
        db.execute("ROLLBACK")
        return True
    except sqlite3.OperationalError as exc:
        assert "locked" in str(exc), exc
        return False
    finally:
        db.close()


async def _free_within(path, seconds: float) -> bool:
    """`_write_lock_free` now or within `seconds` (a lock given back a moment later is free)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while not _write_lock_free(path):
        if loop.time() > end:
            return False
        await asyncio.sleep(0.01)
    return True


def test_a_connection_invalidated_in_a_transaction_with_a_statement_half_read_holds_no_lock(tmp_path):
    path = tmp_path / "cancel.db"

    async def scenario():
        engine = make_engine(f"sqlite+aiosqlite:///{path}")
        try:
            conn = await engine.connect()
            await conn.begin()                          # BEGIN IMMEDIATE: the write lock
            await conn.execute(text("CREATE TABLE t (x INTEGER)"))
            result = await conn.stream(text(ROWS))      # a statement read in part
            assert (await result.fetchone())[0] == 1
            held = _write_lock_free(path)
            await conn.invalidate()                     # what a cancellation in it does
            after = _write_lock_free(path)
            del result                                  # (the cursor was kept until now)
            return held, after
        finally:
            await engine.dispose()

    held, after = asyncio.run(scenario())
    assert held is False        # the transaction held the lock while it was open
    assert after is True        # and gave it back when its connection was closed


def test_tasks_cancelled_in_their_sessions_leave_the_write_lock_free(tmp_path):
    """The real path: sessions of the product's engine cancelled at random points (reads and
    writes, as the shutdown cancels the background loops), again and again; after each round
    the write lock is free. Before the fix a round left it held within a few dozen rounds."""
    path = tmp_path / "cancel.db"
    sqlite3.connect(path).execute("CREATE TABLE t (x INTEGER)").connection.close()

    async def worker(sessions, write: bool):
        while True:
            async with sessions() as session:
                if write:
                    await session.execute(text("INSERT INTO t VALUES (1)"))
                else:
                    await session.execute(text("SELECT count(*) FROM t"))
                await session.commit()
            await asyncio.sleep(0)

    async def scenario() -> list[int]:
        engine = make_engine(f"sqlite+aiosqlite:///{path}")
        sessions, rng, held = make_sessionmaker(engine), random.Random(7), []
        try:
            for n in range(300):
                tasks = [asyncio.create_task(worker(sessions, k % 2 == 0)) for k in range(3)]
                await asyncio.sleep(rng.uniform(0.001, 0.01))
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
                if not await _free_within(path, 0.5):  # a close under way may take a moment
                    held.append(n)
                    break
                del tasks
        finally:
            await engine.dispose()
        return held

    assert asyncio.run(scenario()) == []
