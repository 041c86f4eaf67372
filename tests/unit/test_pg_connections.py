"""The server's connections to PostgreSQL, in process (issue 28; tests/app/test_db_connections.py
measures the same around a real server): the pool keeps what it opened and replaces a
connection its server closed without a ping, and the fan-out's notifications take no pool
connection and no transaction each."""
from __future__ import annotations

import asyncio

import asyncpg
import pytest
from sqlalchemy import event, text

from app.db import PG_POOL_SIZE, make_engine, make_sessionmaker
from app.live.fanout.postgres import CHANNEL, PgFanout, asyncpg_dsn

pytestmark = pytest.mark.postgresql_only


def _checkouts(db) -> list[int]:
    """A list that counts the pool's checkouts from now on."""
    seen: list[int] = []
    event.listen(db.sync_engine, "checkout", lambda *_: seen.append(1))
    return seen


def test_the_pool_keeps_what_it_opened_and_replaces_what_the_server_closed(private_migrated_url):
    url = private_migrated_url

    async def scenario():
        db = make_engine(url)
        try:
            pids = set()

            async def one(hold: asyncio.Event) -> None:
                async with db.connect() as conn:
                    pids.add(await conn.scalar(text("SELECT pg_backend_pid()")))
                    await hold.wait()

            # Ten at once (more than SQLAlchemy's default pool of five): all ten come back to
            # the pool and are used again, none is closed and opened anew.
            hold = asyncio.Event()
            users = [asyncio.create_task(one(hold)) for _ in range(10)]
            while len(pids) < 10:
                await asyncio.sleep(0.01)
            hold.set()
            await asyncio.gather(*users)
            assert db.sync_engine.pool.checkedin() == 10 <= PG_POOL_SIZE
            first = set(pids)
            pids.clear()
            hold = asyncio.Event()
            users = [asyncio.create_task(one(hold)) for _ in range(10)]
            while len(pids) < 10:
                await asyncio.sleep(0.01)
            hold.set()
            await asyncio.gather(*users)
            assert pids == first
            # Their server closes them all (a restart, pg_terminate_backend): each is replaced
            # when it is checked out, and nobody sees an error.
            admin = await asyncpg.connect(asyncpg_dsn(url))
            try:
                await admin.execute("SELECT pg_terminate_backend(p) FROM unnest($1::integer[]) AS p", list(first))
            finally:
                await admin.close()
            await asyncio.sleep(0.2)
            for _ in range(12):
                async with db.connect() as conn:
                    assert await conn.scalar(text("SELECT pg_backend_pid()")) not in first
        finally:
            await db.dispose()

    asyncio.run(scenario())


def test_notifications_asked_at_once_are_one_statement_on_the_listen_connection(private_migrated_url):
    url = private_migrated_url

    async def nothing(_batch) -> None:
        return None

    async def scenario():
        db = make_engine(url)
        fanout = PgFanout(url, make_sessionmaker(db), nothing, set, presence_ttl_s=60)
        listener = await asyncpg.connect(asyncpg_dsn(url))
        heard: list[str] = []
        await listener.add_listener(CHANNEL, lambda _c, _p, _ch, payload: heard.append(payload))
        try:
            await fanout.start()
            assert fanout.connected.is_set()
            checkouts = _checkouts(db)
            # A hundred presence changes of 25 rooms at once (a hundred sockets that went), a
            # room change and a chat message: sent, the latest presence of each room only.
            calls = [fanout.notify("p", f"R{i % 25}", {i % 4, 9}) for i in range(100)]
            calls += [fanout.notify("r", "R1"), fanout.notify("c", "R2")]
            await asyncio.wait_for(asyncio.gather(*calls), 10)
            for _ in range(100):
                if len(heard) >= 27:
                    break
                await asyncio.sleep(0.02)
            await asyncio.sleep(0.1)
            expected = {fanout.payload("p", f"R{i}", {(75 + i) % 4, 9}) for i in range(25)}
            expected |= {fanout.payload("r", "R1"), fanout.payload("c", "R2")}
            assert sorted(heard) == sorted(expected)
            assert checkouts == []  # no pool connection, so no transaction of the pool's either
            # While nobody listens (the LISTEN connection is being made again) the pool sends.
            await fanout.close()
            heard.clear()
            await fanout.notify("r", "R3")
            for _ in range(100):
                if heard:
                    break
                await asyncio.sleep(0.02)
            assert heard == [fanout.payload("r", "R3")] and len(checkouts) == 1
        finally:
            await fanout.close()
            await listener.close()
            await db.dispose()

    asyncio.run(scenario())


def test_the_keepalive_and_the_notifications_never_meet_on_the_listen_connection(private_migrated_url):
    url = private_migrated_url

    async def nothing(_batch) -> None:
        return None

    async def scenario():
        db = make_engine(url)
        fanout = PgFanout(url, make_sessionmaker(db), nothing, set, presence_ttl_s=60)
        try:
            await fanout.start()
            conn = fanout._listening
            # The keepalive's statement and batches of notifications asked for at the same
            # moment: each waits for the one before on that connection, none fails.
            work = [fanout._on_listen_connection(conn, "SELECT pg_sleep(0.05)")]
            work += [fanout.notify("p", f"R{i}", {1}) for i in range(20)]
            work += [fanout._on_listen_connection(conn, "SELECT 1") for _ in range(5)]
            await asyncio.wait_for(asyncio.gather(*work), 10)
            assert fanout._listening is conn and not conn.is_closed()
            # A statement that does not end normally (here: cancelled while it runs) closes
            # the connection rather than leave it to the next one; the listener connects again.
            running = asyncio.create_task(fanout._on_listen_connection(conn, "SELECT pg_sleep(5)"))
            await asyncio.sleep(0.2)
            running.cancel()
            with pytest.raises(asyncio.CancelledError):
                await running
            assert conn.is_closed()
            for _ in range(300):
                if fanout._listening is not None and fanout._listening is not conn:
                    break
                await asyncio.sleep(0.02)
            assert fanout._listening is not None and fanout._listening is not conn
            await asyncio.wait_for(fanout.notify("r", "R1"), 10)
        finally:
            await fanout.close()
            await db.dispose()

    asyncio.run(scenario())
