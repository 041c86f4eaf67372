"""The group commit on PostgreSQL (app/store/postgres.py): a batch is one statement on
a connection the writer keeps. It must store exactly what SQLAlchemy's statements store, send each
stored action's notification and no other, answer a lost version check with False without
touching the winners, store one action at a time on a unique-constraint violation and go on
on another connection when the kept one broke."""
from __future__ import annotations

import asyncio
import secrets
from datetime import datetime

import asyncpg
import pytest
from sqlalchemy import insert, select, text

from app.db import make_engine, make_sessionmaker
from app.live.actions.commits import Committer
from app.live.fanout.postgres import PgFanout, asyncpg_dsn
from app.store.actions import BUMP_VERSION, INSERT_ACTION
from app.store.postgres import CHANNEL
from app.models import ActionRow, Room
from commit_rows import pending

pytestmark = pytest.mark.postgresql_only



async def _nothing(_batch) -> None:
    return None


def _fanout(url: str, db) -> PgFanout:
    """The fan-out of a process, not listening (the tests listen themselves)."""
    return PgFanout(url, make_sessionmaker(db), _nothing, set, presence_ttl_s=60)


async def _rooms(db, n: int) -> dict[int, str]:
    """n new rooms in play → {id: code}."""
    async with db.begin() as conn:
        codes = [f"P{secrets.token_hex(6)}" for _ in range(n)]
        for code in codes:
            await conn.execute(insert(Room).values(code=code, status="playing", version=0))
        rows = (await conn.execute(select(Room.id, Room.code).where(Room.code.in_(codes)))).all()
    return {r.id: r.code for r in rows}


async def _stored(db, ids) -> list[tuple]:
    """Every column the commit writes, as PostgreSQL holds it (JSON as its stored text)."""
    async with db.connect() as conn:
        rooms = (await conn.execute(text(
            "SELECT version, status, state::text, to_act, turn_at, deadline_at FROM rooms"
            " WHERE id = ANY(:ids) ORDER BY id"), {"ids": list(ids)})).all()
        actions = (await conn.execute(text(
            "SELECT version, action_id, seat, action::text, events::text, created_at FROM actions"
            " WHERE room_id = ANY(:ids) ORDER BY room_id, version"), {"ids": list(ids)})).all()
    return [tuple(r) for r in rooms] + [tuple(a) for a in actions]


async def _listen(url: str) -> tuple[asyncpg.Connection, list[str]]:
    conn = await asyncpg.connect(asyncpg_dsn(url))
    heard: list[str] = []
    await conn.add_listener(CHANNEL, lambda _c, _p, _ch, payload: heard.append(payload))
    return conn, heard


def test_one_statement_stores_what_the_sqlalchemy_way_stores(private_migrated_url):
    url = private_migrated_url

    async def scenario():
        db = make_engine(url)
        try:
            stored = []
            for one_statement in (True, False):
                rooms = await _rooms(db, 3)
                at = datetime(2026, 11, 30, 21, 5, 7, 120)
                if not one_statement:  # SQLAlchemy's own statements (the reference)
                    for version in range(2):
                        batch = [pending(i, version, at, code=c) for i, c in rooms.items()]
                        async with db.begin() as conn:
                            await conn.execute(BUMP_VERSION, [p.bump for p in batch])
                            await conn.execute(INSERT_ACTION, [p.row for p in batch])
                    stored.append(await _stored(db, rooms))
                    continue
                committer = Committer(db, _fanout(url, db))
                kept = []
                for version in range(2):  # one batch of three rooms, twice
                    ok = await asyncio.gather(*(committer.commit(pending(i, version, at, code=c))
                                                for i, c in rooms.items()))
                    assert ok == [True, True, True]
                    kept.append(committer.store.conn)
                assert committer.batches == 2 and committer.stored == 6  # one statement per batch
                assert kept[0] is not None and kept[0] is kept[1]      # on one kept connection
                await committer.close()
                assert committer.store.conn is None
                stored.append(await _stored(db, rooms))
            assert stored[0] == stored[1]
            assert stored[0][0][:2] == (2, "playing") and len(stored[0]) == 3 + 6
            assert stored[0][0][4] == datetime(2026, 11, 30, 21, 5, 7, 120)
        finally:
            await db.dispose()

    asyncio.run(scenario())


def test_a_lost_version_check_stores_nothing_of_it_and_the_winners_notify(private_migrated_url):
    url = private_migrated_url

    async def scenario():
        db = make_engine(url)
        listener, heard = await _listen(url)
        try:
            rooms = await _rooms(db, 3)
            (a, ca), (b, cb), (c, cc) = sorted(rooms.items())
            fanout = _fanout(url, db)
            committer = Committer(db, fanout)
            at = datetime(2026, 1, 1)
            ok = await asyncio.gather(committer.commit(pending(a, 0, at, code=ca)),
                                      committer.commit(pending(b, 5, at, code=cb)),   # b is at 0, not 5
                                      committer.commit(pending(c, 0, at, code=cc)))
            assert ok == [True, False, True]
            assert committer.batches == 1 and committer.stored == 2
            await committer.close()
            async with db.connect() as conn:
                versions = dict((await conn.execute(select(Room.id, Room.version).where(Room.id.in_(rooms)))).all())
                assert versions == {a: 1, b: 0, c: 1}
                assert sorted((await conn.execute(select(ActionRow.room_id))).scalars()) == [a, c]
            for _ in range(50):
                if len(heard) >= 2:
                    break
                await asyncio.sleep(0.02)
            await asyncio.sleep(0.1)  # and nothing more comes
            assert sorted(heard) == sorted([fanout.action_notice(ca), fanout.action_notice(cc)])
        finally:
            await listener.close()
            await db.dispose()

    asyncio.run(scenario())


def test_a_unique_violation_is_decided_one_by_one_and_a_broken_connection_is_replaced(private_migrated_url):
    url = private_migrated_url

    async def scenario():
        db = make_engine(url)
        try:
            rooms = await _rooms(db, 2)
            (a, ca), (b, cb) = sorted(rooms.items())
            committer = Committer(db, _fanout(url, db))
            at = datetime(2026, 1, 1)
            assert await committer.commit(pending(a, 0, at, code=ca, action_id="same")) is True
            first = committer.store.conn
            # Room a's next action reuses that (seat, id): the statement fails as a whole, and
            # one transaction per action stores b's and refuses a's.
            ok = await asyncio.gather(committer.commit(pending(a, 1, at, code=ca, action_id="same")),
                                      committer.commit(pending(b, 0, at, code=cb)))
            assert ok == [False, True]
            assert committer.store.conn is first  # a refusal is no reason to drop the connection
            # The kept connection is cut (a database restart, an idle timeout): the batch is
            # stored the pool's way (or, when the cut was seen before, on a new kept
            # connection), and the next one goes on a new kept connection.
            pid = first.driver_connection.get_server_pid()
            async with db.connect() as conn:
                await conn.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid})
            assert await committer.commit(pending(b, 1, at, code=cb)) is True
            assert committer.store.conn is not first and committer.store.broken == 1
            assert await committer.commit(pending(b, 2, at, code=cb)) is True
            assert committer.store.conn is not None and committer.store.conn.driver_connection.get_server_pid() != pid
            await committer.close()
            async with db.connect() as conn:
                versions = dict((await conn.execute(select(Room.id, Room.version).where(Room.id.in_(rooms)))).all())
                assert versions == {a: 1, b: 3}
                assert await conn.scalar(select(ActionRow.action_id).where(
                    ActionRow.room_id == a, ActionRow.version == 1)) == "same"
        finally:
            await db.dispose()

    asyncio.run(scenario())


# ------------------------------------------------------------------ issue 28: the kept connection
# With PostgreSQL's backends killed mid-game (`pg_terminate_backend`) the server logged "storing
# a batch on the kept connection failed" with a full traceback, once as asyncpg's
# `InternalClientError: cannot switch to state 12; another operation (2) is in progress`. It was
# not two tasks on one connection: state 2 is asyncpg's ERROR_CONSUME, where an idle connection
# stays after PostgreSQL's goodbye (an ErrorResponse, 57P01) until the socket's close is seen;
# the next statement fails at once. The tests below: a kept connection closed while idle is
# replaced before it is used, one cut during its statement is one warning line, the kept
# connection serves one operation at a time whoever asks, and nothing uses it after `close`.

def _kept_warnings(caplog) -> list:
    return [r for r in caplog.records if r.name == "osaka.commits" and r.levelname == "WARNING"]


async def _wait_for(predicate, timeout_s: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout_s
    while not await predicate():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.01)


def test_a_kept_connection_closed_while_idle_is_replaced_before_use(private_migrated_url, caplog):
    url = private_migrated_url

    async def scenario():
        db = make_engine(url)
        try:
            (a, ca), = (await _rooms(db, 1)).items()
            committer = Committer(db, _fanout(url, db))
            at = datetime(2026, 1, 1)
            assert await committer.commit(pending(a, 0, at, code=ca)) is True
            kept = committer.store.conn.driver_connection
            pid = kept.get_server_pid()
            async with db.connect() as conn:
                await conn.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid})

            async def seen_closed() -> bool:
                return kept.is_closed()
            await _wait_for(seen_closed)
            caplog.clear()
            assert await committer.commit(pending(a, 1, at, code=ca)) is True
            # Stored on a new kept connection, with one line saying why, no traceback.
            assert committer.batches == 2 and committer.store.conn.driver_connection.get_server_pid() != pid
            assert [r.exc_info for r in _kept_warnings(caplog)] == [None]
            assert committer.store.broken == 1
            await committer.close()
        finally:
            await db.dispose()

    asyncio.run(scenario())


def test_a_kept_connection_cut_during_its_statement_is_one_line(private_migrated_url, caplog):
    url = private_migrated_url

    async def scenario():
        db = make_engine(url)
        admin = await asyncpg.connect(asyncpg_dsn(url))
        try:
            (a, ca), = (await _rooms(db, 1)).items()
            committer = Committer(db, _fanout(url, db))
            at = datetime(2026, 1, 1)
            assert await committer.commit(pending(a, 0, at, code=ca)) is True
            pid = committer.store.conn.driver_connection.get_server_pid()
            # The room's row is locked elsewhere: the batch's statement waits on the server ...
            locker = await asyncpg.connect(asyncpg_dsn(url))
            tx = locker.transaction()
            await tx.start()
            await locker.execute("SELECT 1 FROM rooms WHERE id = $1 FOR UPDATE", a)
            storing = asyncio.get_running_loop().create_task(committer.commit(pending(a, 1, at, code=ca)))

            async def waiting() -> bool:
                return await admin.fetchval("SELECT wait_event_type = 'Lock' FROM pg_stat_activity"
                                            " WHERE pid = $1", pid) is True
            await _wait_for(waiting)
            caplog.clear()
            # ... when PostgreSQL cuts the connection (57P01): the batch goes the pool's way,
            # which waits for the lock too and stores it once the lock is gone.
            assert await admin.fetchval("SELECT pg_terminate_backend($1)", pid) is True
            await _wait_for(lambda: _true(committer.store.conn is None))
            await tx.commit()
            await locker.close()
            assert await asyncio.wait_for(storing, 10) is True
            warnings = _kept_warnings(caplog)
            assert len(warnings) == 1 and warnings[0].exc_info is None
            assert "broke (ConnectionDoesNotExistError" in warnings[0].getMessage()
            assert await committer.commit(pending(a, 2, at, code=ca)) is True  # a new kept connection
            assert committer.store.conn.driver_connection.get_server_pid() != pid
            await committer.close()
        finally:
            await admin.close()
            await db.dispose()

    asyncio.run(scenario())


async def _true(value: bool) -> bool:
    return value


def test_the_kept_connection_serves_one_operation_at_a_time(private_migrated_url, caplog):
    url = private_migrated_url

    async def scenario():
        db = make_engine(url)
        try:
            rooms = await _rooms(db, 4)
            committer = Committer(db, _fanout(url, db))
            direct = committer.store
            at = datetime(2026, 1, 1)
            # Four callers at once on one PostgresDirect (the writer is one, but nothing else
            # may meet its statement on the connection either): each statement runs alone.
            answers = await asyncio.gather(*(direct.store([pending(i, 0, at, code=c)]) for i, c in rooms.items()))
            assert answers == [[True] for _ in rooms]
            assert not _kept_warnings(caplog) and direct.broken == 0
            # A close asked for while statements run and wait waits for them (in turn); nothing
            # takes a connection after it.
            more = [direct.store([pending(i, 1, at, code=c)]) for i, c in rooms.items()]
            answers = await asyncio.gather(*more, direct.close())
            assert answers == [[True] for _ in rooms] + [None] and direct.conn is None
            with pytest.raises(RuntimeError):
                await direct.store([pending(next(iter(rooms)), 2, at)])
            assert direct.conn is None
            assert db.sync_engine.pool.checkedout() == 0
            await committer.close()
        finally:
            await db.dispose()

    asyncio.run(scenario())


def test_after_close_no_writer_starts_and_no_connection_is_kept(private_migrated_url):
    url = private_migrated_url

    async def scenario():
        db = make_engine(url)
        try:
            (a, ca), = (await _rooms(db, 1)).items()
            committer = Committer(db, _fanout(url, db))
            at = datetime(2026, 1, 1)
            assert await committer.commit(pending(a, 0, at, code=ca)) is True
            await committer.close()
            with pytest.raises(RuntimeError):
                await committer.commit(pending(a, 1, at, code=ca))
            await asyncio.sleep(0.1)
            assert committer.store.conn is None and db.sync_engine.pool.checkedout() == 0
            async with db.connect() as conn:
                assert await conn.scalar(select(Room.version).where(Room.id == a)) == 1
        finally:
            await db.dispose()

    asyncio.run(scenario())
