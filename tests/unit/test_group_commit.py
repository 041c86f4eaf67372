"""The group commit on SQLite in one process (app/live/actions/commits.py, app/store/sqlite.py): the
batch straight to the driver, on the writer's own connection on the loop's thread. The rows must
be stored exactly as the SQLAlchemy way stores them, a write lock held by another connection must
neither block the loop nor lose an action (the batch waits in a worker thread), a lost version
check must store the winner alone, and the writer's checkpoints run off the loop."""
from __future__ import annotations

import asyncio
import sqlite3
import threading
from datetime import datetime

import pytest

from sqlalchemy import insert, select, text

from app.db import SQLITE_WAL_LIMIT_BYTES, make_engine
from app.live.actions.commits import Committer
from app.store.sqlite import CHECKPOINT_EVERY, SqliteStore, sqlite_file
from app.live.fanout.base import LocalFanout
from app.models import ActionRow, Room
from commit_rows import pending



async def _rooms(db, n: int) -> list[int]:
    async with db.begin() as conn:
        for i in range(n):
            await conn.execute(insert(Room).values(code=f"R{i:04d}", status="playing", version=0))
        return list((await conn.scalars(select(Room.id).order_by(Room.id))).all())


async def _stored(db) -> list[tuple]:
    """The stored text of every column the commit writes (typeof too: text, not blob)."""
    async with db.connect() as conn:
        rooms = (await conn.execute(text(
            "SELECT version, status, state, typeof(state), to_act, turn_at, typeof(turn_at), deadline_at"
            " FROM rooms ORDER BY id"))).all()
        actions = (await conn.execute(text(
            "SELECT room_id, version, action_id, seat, action, events, created_at, typeof(created_at)"
            " FROM actions ORDER BY room_id, version"))).all()
    return [tuple(r) for r in rooms] + [tuple(a) for a in actions]


async def _store_all(url: str, driver: bool) -> tuple[list[tuple], Committer]:
    db = make_engine(url)
    try:
        ids = await _rooms(db, 3)
        committer = Committer(db, LocalFanout())
        if not driver:
            committer.store = SqliteStore(db, own_connection=False)  # the SQLAlchemy way
        at = datetime(2026, 11, 30, 21, 5, 7, 120)
        for version in range(2):  # one batch of three rooms, twice
            ok = await asyncio.gather(*(committer.commit(pending(i, version, at)) for i in ids))
            assert ok == [True, True, True]
        await committer.close()
        return await _stored(db), committer
    finally:
        await db.dispose()


def test_the_driver_stores_the_same_text_as_sqlalchemy(migrated_template, tmp_path):
    import shutil
    urls = []
    for name in ("driver.db", "orm.db"):
        shutil.copyfile(migrated_template, tmp_path / name)
        urls.append(f"sqlite+aiosqlite:///{tmp_path / name}")

    driven, by_driver = asyncio.run(_store_all(urls[0], True))
    orm, by_orm = asyncio.run(_store_all(urls[1], False))
    assert by_driver.batches == 2 and by_driver.stored == 6  # one transaction per batch
    assert driven == orm
    assert driven[0][:2] == (2, "playing") and driven[0][3] == "text" and driven[0][6] == "text"
    assert driven[0][5] == "2026-11-30 21:05:07.000120" and driven[0][7] == "2026-11-30 21:05:07.000000"


def test_a_write_lock_elsewhere_neither_blocks_the_loop_nor_loses_the_action(sqlite_url):
    """Another connection (an `osaka` command, say) holds the write lock: the writer does not
    wait for it on the loop; the batch waits in a worker thread (the pool's busy timeout) while
    the event loop keeps running, and the pool's connection takes no part; the action is stored
    once the lock is gone, in one transaction."""
    path = sqlite_url.split("///", 1)[1]

    async def scenario():
        db = make_engine(sqlite_url)
        try:
            (room,) = await _rooms(db, 1)
            seen: list[str] = []
            async with db.connect() as conn:  # the pool's one connection
                driver = (await conn.get_raw_connection()).driver_connection
                await driver.set_trace_callback(seen.append)
            committer = Committer(db, LocalFanout())
            other = sqlite3.connect(path, isolation_level=None)
            other.execute("BEGIN IMMEDIATE")
            storing = asyncio.get_running_loop().create_task(committer.commit(pending(room, 0, datetime(2026, 1, 1))))
            ticks = 0
            for _ in range(20):  # the loop keeps running while the batch waits
                await asyncio.sleep(0.02)
                ticks += 1
            assert ticks == 20 and not storing.done()
            other.execute("COMMIT")
            other.close()
            assert await asyncio.wait_for(storing, 30) is True
            assert seen == [] and committer.batches == 1
            await committer.close()
            async with db.connect() as conn:
                assert await conn.scalar(select(Room.version).where(Room.id == room)) == 1
                # the pragmas are as app/db.py sets them again
                assert await conn.scalar(text("PRAGMA busy_timeout")) == 30_000
                assert await conn.scalar(text("PRAGMA wal_autocheckpoint")) == 1000
        finally:
            await db.dispose()

    asyncio.run(scenario())


def test_a_lost_version_check_goes_the_sqlalchemy_way(sqlite_url):
    """Two actions of one room from the same version in one batch: the driver's batch rolls
    back, one by one the first is stored and the second refused; nothing half-stored."""
    async def scenario():
        db = make_engine(sqlite_url)
        try:
            (room,) = await _rooms(db, 1)
            committer = Committer(db, LocalFanout())
            at = datetime(2026, 1, 1)
            results = await asyncio.gather(committer.commit(pending(room, 0, at, action_id="a0x")),
                                           committer.commit(pending(room, 0, at, action_id="a0y")))
            assert sorted(results) == [False, True]
            await committer.close()
            async with db.connect() as conn:
                assert await conn.scalar(select(Room.version).where(Room.id == room)) == 1
                assert (await conn.scalars(select(ActionRow.action_id))).all() in (["a0x"], ["a0y"])
                assert await conn.scalar(text("PRAGMA wal_autocheckpoint")) == 1000
        finally:
            await db.dispose()

    asyncio.run(scenario())


def _kinds(statements: list[str]) -> list[str]:
    """The first word of each traced statement, runs of one word counted once (SQLite may trace
    a statement twice when it prepares it again; executemany traces every row)."""
    kinds: list[str] = []
    for statement in statements:
        word = statement.split()[0]
        if not kinds or kinds[-1] != word:
            kinds.append(word)
    return kinds


def test_a_batch_is_one_transaction_and_the_pool_sends_no_rollback_after_it(sqlite_url):
    """What SQLite itself runs (its trace callbacks): a batch of three rooms is BEGIN IMMEDIATE,
    two statements (one `executemany` each), COMMIT, and nothing else, on the writer's own
    connection; the pool's connection runs nothing and nothing is handed to aiosqlite's thread.
    A committed session adds no ROLLBACK when its connection goes back to the pool. A connection
    returned with its transaction still open is rolled back (its write is gone, the lock free)."""
    async def scenario():
        db = make_engine(sqlite_url)
        try:
            ids = await _rooms(db, 3)
            seen: list[str] = []
            async with db.connect() as conn:  # the pool's one connection, for what follows
                driver = (await conn.get_raw_connection()).driver_connection
                await driver.set_trace_callback(seen.append)
            committer = Committer(db, LocalFanout())
            written: list[str] = []
            committer.store.writer.connection().set_trace_callback(written.append)
            at = datetime(2026, 11, 30, 21, 5, 7)
            assert await asyncio.gather(*(committer.commit(pending(i, 0, at)) for i in ids)) == [True] * 3
            assert seen == []  # the pool's connection took no part
            assert committer.batches == 1
            await committer.close()
            assert _kinds(written) == ["BEGIN", "UPDATE", "INSERT", "COMMIT"]
            assert len({s for s in written if s.startswith("UPDATE")}) == 3 and len(written) <= 11
            async with db.begin() as conn:  # a session's transaction, committed
                await conn.execute(text("UPDATE rooms SET status = 'playing' WHERE id = :i"), {"i": ids[0]})
            assert _kinds(seen) == ["BEGIN", "UPDATE", "COMMIT"]
            seen.clear()
            async with db.connect() as conn:  # a transaction on the driver, left open (a cancelled batch)
                driver = (await conn.get_raw_connection()).driver_connection
                await driver.execute("BEGIN IMMEDIATE")
                await driver.execute("UPDATE rooms SET status = 'over' WHERE id = ?", (ids[1],))
            assert _kinds(seen) == ["BEGIN", "UPDATE", "ROLLBACK"]
            other = sqlite3.connect(sqlite_url.split("///", 1)[1], isolation_level=None, timeout=0)
            other.execute("BEGIN IMMEDIATE")  # the lock is free at once
            assert other.execute("SELECT status FROM rooms WHERE id = ?", (ids[1],)).fetchone() == ("playing",)
            other.execute("ROLLBACK")
            other.close()
        finally:
            await db.dispose()

    asyncio.run(scenario())


def test_the_writer_checkpoints_in_a_worker_thread_and_stays_on_the_loops_thread(sqlite_url):
    """The writer's connection never checkpoints by itself (no fsync on the loop); after
    CHECKPOINT_EVERY actions a passive checkpoint runs in another thread and copies the WAL's
    pages back. The connection cannot be used from any thread but the loop's."""
    async def scenario():
        db = make_engine(sqlite_url)
        try:
            ids = await _rooms(db, 8)
            committer = Committer(db, LocalFanout())
            writer = committer.store.writer
            assert writer.connection().execute("PRAGMA wal_autocheckpoint").fetchone() == (0,)
            # the WAL is cut back after it starts over, on this connection as on the pool's
            limit = writer.db.execute("PRAGMA journal_size_limit").fetchone()[0]
            async with db.connect() as conn:
                assert limit == SQLITE_WAL_LIMIT_BYTES == await conn.scalar(text("PRAGMA journal_size_limit"))
            threads: list[int] = []
            checkpoint = writer._checkpoint
            writer._checkpoint = lambda: (threads.append(threading.get_ident()), checkpoint())
            at = datetime(2026, 1, 1)
            for version in range(CHECKPOINT_EVERY // len(ids) + 1):
                assert await asyncio.gather(*(committer.commit(pending(i, version, at)) for i in ids)) == [True] * 8
            await writer._checkpointing
            assert len(threads) == 1 and threads[0] != threading.get_ident()
            assert writer.checkpoints == 1
            busy, wal_pages, copied = writer.last_checkpoint
            assert busy == 0 and wal_pages > 0 and copied > 0
            with pytest.raises(sqlite3.ProgrammingError):  # check_same_thread
                await asyncio.to_thread(writer.db.execute, "SELECT 1")
            await committer.close()
            assert writer.db is None
        finally:
            await db.dispose()

    asyncio.run(scenario())


def test_a_batch_that_sqlite3_cannot_bind_leaves_no_transaction_open(sqlite_url):
    """A parameter sqlite3 refuses (text with a lone surrogate: not UTF-8) raises for the
    batch's callers, and the writer's transaction is rolled back: the lock is free at once and
    the next batch is stored on the writer's connection (this once locked the database until
    the server was restarted)."""
    path = sqlite_url.split("///", 1)[1]

    async def scenario():
        db = make_engine(sqlite_url)
        try:
            (room,) = await _rooms(db, 1)
            committer = Committer(db, LocalFanout())
            at = datetime(2026, 1, 1)
            with pytest.raises(UnicodeEncodeError):
                await committer.commit(pending(room, 0, at, action_id="\ud800"))
            assert not committer.store.writer.db.in_transaction
            other = sqlite3.connect(path, isolation_level=None, timeout=0)
            other.execute("BEGIN IMMEDIATE")  # free at once
            other.execute("ROLLBACK")
            other.close()
            assert await asyncio.wait_for(committer.commit(pending(room, 0, at)), 2) is True
            await committer.close()
            async with db.connect() as conn:
                assert await conn.scalar(select(Room.version).where(Room.id == room)) == 1
                assert (await conn.scalars(select(ActionRow.action_id))).all() == ["a0"]
        finally:
            await db.dispose()

    asyncio.run(scenario())


def test_only_a_plain_database_file_gets_a_writer_of_its_own(tmp_path):
    """In memory or behind a `file:` URI a second connection would see another database: no
    writer there (every batch goes the pool's way)."""
    async def files():
        out = []
        for url in (f"sqlite+aiosqlite:///{tmp_path / 'x.db'}", "sqlite+aiosqlite://",
                    "sqlite+aiosqlite:///:memory:", f"sqlite+aiosqlite:///file:{tmp_path / 'y.db'}?uri=true"):
            db = make_engine(url)
            out.append(sqlite_file(db))
            await db.dispose()
        return out
    assert asyncio.run(files()) == [str(tmp_path / "x.db"), None, None, None]
