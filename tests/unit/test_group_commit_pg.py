"""The group commit on PostgreSQL (app/live/commits.py `_PG_STORE`): a batch is one statement on
a connection the writer keeps. It must store exactly what the SQLAlchemy way stores, send each
stored action's notification and no other, answer a lost version check with False without
touching the winners, and fall back to the SQLAlchemy way on a unique-constraint violation and
on a broken connection."""
from __future__ import annotations

import asyncio
import secrets
from datetime import datetime

import asyncpg
import pytest
from sqlalchemy import insert, select, text

from app.db import make_engine, make_sessionmaker
from app.live.commits import Committer
from app.live.pg_fanout import CHANNEL, PgFanout, asyncpg_dsn
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
                committer = Committer(db, _fanout(url, db))
                if not one_statement:
                    committer._pg = None  # the SQLAlchemy way
                at = datetime(2026, 11, 30, 21, 5, 7, 120)
                kept = []
                for version in range(2):  # one batch of three rooms, twice
                    ok = await asyncio.gather(*(committer.commit(pending(i, version, at, code=c))
                                                for i, c in rooms.items()))
                    assert ok == [True, True, True]
                    kept.append(committer._pg.conn if committer._pg else None)
                if one_statement:
                    assert committer.batches == 2 and committer.stored == 6  # one statement per batch
                    assert kept[0] is not None and kept[0] is kept[1]      # on one kept connection
                else:
                    assert kept == [None, None]
                await committer.close()
                assert committer._pg is None or committer._pg.conn is None
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


def test_a_unique_violation_and_a_broken_connection_go_the_sqlalchemy_way(private_migrated_url):
    url = private_migrated_url

    async def scenario():
        db = make_engine(url)
        try:
            rooms = await _rooms(db, 2)
            (a, ca), (b, cb) = sorted(rooms.items())
            committer = Committer(db, _fanout(url, db))
            at = datetime(2026, 1, 1)
            assert await committer.commit(pending(a, 0, at, code=ca, action_id="same")) is True
            first = committer._pg.conn
            # Room a's next action reuses that (seat, id): the statement fails as a whole, and
            # one transaction per action stores b's and refuses a's.
            ok = await asyncio.gather(committer.commit(pending(a, 1, at, code=ca, action_id="same")),
                                      committer.commit(pending(b, 0, at, code=cb)))
            assert ok == [False, True]
            assert committer._pg.conn is first  # a refusal is no reason to drop the connection
            # The kept connection is cut (a database restart, an idle timeout): the batch is
            # stored the pool's way, and the next one goes on a new kept connection.
            pid = first.driver_connection.get_server_pid()
            async with db.connect() as conn:
                await conn.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid})
            assert await committer.commit(pending(b, 1, at, code=cb)) is True
            assert committer._pg.conn is None
            assert await committer.commit(pending(b, 2, at, code=cb)) is True
            assert committer._pg.conn is not None and committer._pg.conn.driver_connection.get_server_pid() != pid
            await committer.close()
            async with db.connect() as conn:
                versions = dict((await conn.execute(select(Room.id, Room.version).where(Room.id.in_(rooms)))).all())
                assert versions == {a: 1, b: 3}
                assert await conn.scalar(select(ActionRow.action_id).where(
                    ActionRow.room_id == a, ActionRow.version == 1)) == "same"
        finally:
            await db.dispose()

    asyncio.run(scenario())
