"""Time while no server ran does not count on the turn clocks (issue 28, app/live/computer/downtime.py),
and a database outage is one warning line (app/live/outages.py), in process on SQLite and
PostgreSQL: the running decisions' clocks move on by the downtime exactly once however many
processes start together, games whose clock does not run are not touched, a short gap moves
nothing."""
from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

import asyncpg
from sqlalchemy import delete, exc, insert, select, update
from sqlalchemy.ext.asyncio import create_async_engine

from app.db import database_unavailable, make_engine, make_sessionmaker
from app.live.computer.downtime import BEAT_S, PAUSE_AFTER_S, Downtime
from app.live.outages import OutageLog, unavailable
from app.models import Room, Seat, ServerClock, utcnow

DOWN = timedelta(seconds=60)


async def _room(conn, code: str, *, status: str = "playing", limit_s: int | None = 30,
                bot_to_act: bool = False, at=None) -> None:
    """A room row with two seats (seat 0 to act), as the server stores it, at `at`'s clock:
    its decision began 4 s before `at` (the server stopped at `at`)."""
    started = status != "waiting"
    over = status == "over"
    turn_at = None if (over or not started) else at - timedelta(seconds=4)
    deadline = turn_at + timedelta(seconds=limit_s) if (turn_at is not None and limit_s) else None
    rid = (await conn.execute(insert(Room).values(
        code=code, public=False, status=status, seed=7 if started else None, version=3 if started else 0,
        state={"x": 1} if started else None, rules_version=1 if started else None,
        to_act=0 if (started and not over) else None, num_players=2,
        turn_limit_s=limit_s, turn_at=turn_at, deadline_at=deadline).returning(Room.id))).scalar_one()
    for n in (0, 1):
        await conn.execute(insert(Seat).values(room_id=rid, seat=n, name=f"P{n}", token_hash=f"h{n}",
                                               bot_level="normal" if (bot_to_act and n == 0) else None))


async def _clocks(conn) -> dict[str, tuple]:
    rows = (await conn.execute(select(Room.code, Room.turn_at, Room.deadline_at))).all()
    return {r.code: (r.turn_at, r.deadline_at) for r in rows}


def test_the_downtime_moves_running_clocks_once_and_nothing_else(private_migrated_url):
    url = private_migrated_url

    async def scenario():
        db = create_async_engine(url)
        stopped = utcnow() - DOWN
        async with db.begin() as conn:
            await _room(conn, "RUN", at=stopped)                    # a person's running decision
            await _room(conn, "NOTIMER", limit_s=None, at=stopped)  # no timer: not timed
            await _room(conn, "BOT", bot_to_act=True, at=stopped)   # a computer player's decision
            await _room(conn, "WAIT", status="waiting", at=stopped)
            await _room(conn, "OVER", status="over", at=stopped)
            await conn.execute(update(ServerClock).values(alive_at=stopped))
            before = await _clocks(conn)
        # Three processes start at once: each its own engine (connection pool), as in
        # `docker compose --scale app=3`. To make them cross for sure, another transaction
        # holds the clock's row (a no-op UPDATE) while they start: on PostgreSQL each reads the
        # old stamp, then waits for the row; SQLite lets them in one at a time.
        engines = [make_engine(url) for _ in range(3)]
        clocks = [Downtime(make_sessionmaker(e)) for e in engines]
        try:
            for e in engines:  # connected beforehand, as a starting process is
                async with e.connect() as conn:
                    await conn.execute(select(1))
            async with db.connect() as holder:
                await holder.begin()
                await holder.execute(update(ServerClock).values(alive_at=ServerClock.alive_at))
                racing = asyncio.gather(*(c.settle() for c in clocks))
                await asyncio.sleep(1.0)
                assert not racing.done()
                await holder.commit()
            gaps = await racing
            moved = [g for g in gaps if g is not None]
            assert len(moved) == 1, gaps
            gap = moved[0]
            assert DOWN <= gap < DOWN + timedelta(seconds=5)
            async with db.connect() as conn:
                after = await _clocks(conn)
                alive = await conn.scalar(select(ServerClock.alive_at))
            assert after["RUN"] == (before["RUN"][0] + gap, before["RUN"][1] + gap)
            left = (after["RUN"][1] - utcnow()).total_seconds()
            assert 24 < left <= 26  # the 26 s it had left when the server stopped
            for code in ("NOTIMER", "BOT", "WAIT", "OVER"):
                assert after[code] == before[code], code
            assert (utcnow() - alive).total_seconds() < 5
            assert [m[0] for c in clocks for m in c.moved] == ["RUN"]
            assert all(c.settled for c in clocks)
            # Started again at once: nobody was away long, nothing moves.
            again = Downtime(make_sessionmaker(engines[0]))
            assert await again.settle() is None
            async with db.connect() as conn:
                assert await _clocks(conn) == after
        finally:
            for e in engines:
                await e.dispose()
            await db.dispose()

    asyncio.run(scenario())


def test_a_quick_restart_gives_the_time_back_too(private_migrated_url):
    """A clean stop and a start 3 s later (under the 5 s the clocks once needed to be moved):
    the running decision gets those 3 s back, to within a beat."""
    url = private_migrated_url

    async def scenario():
        db = create_async_engine(url)
        engine = make_engine(url)
        try:
            stopped = utcnow() - timedelta(seconds=3)
            async with db.begin() as conn:
                await _room(conn, "QUICK", at=stopped)
                await conn.execute(update(ServerClock).values(alive_at=stopped))
                before = await _clocks(conn)
            gap = await Downtime(make_sessionmaker(engine)).settle()
            assert gap is not None and timedelta(seconds=3) <= gap < timedelta(seconds=3 + BEAT_S), gap
            async with db.connect() as conn:
                after = await _clocks(conn)
            assert after["QUICK"] == (before["QUICK"][0] + gap, before["QUICK"][1] + gap)
        finally:
            await engine.dispose()
            await db.dispose()

    asyncio.run(scenario())


def test_a_short_gap_or_a_first_start_moves_nothing(private_migrated_url):
    url = private_migrated_url

    async def scenario():
        db = create_async_engine(url)
        engine = make_engine(url)
        clock = Downtime(make_sessionmaker(engine))
        try:
            stopped = utcnow() - timedelta(seconds=PAUSE_AFTER_S / 2)
            async with db.begin() as conn:
                await _room(conn, "SHORT", at=stopped)
                assert await conn.scalar(select(ServerClock.alive_at)) is None  # as migrated
                before = await _clocks(conn)
            assert await clock.settle() is None  # never stamped: nothing to measure
            async with db.begin() as conn:
                await conn.execute(update(ServerClock).values(alive_at=stopped))
            assert await Downtime(make_sessionmaker(engine)).settle() is None
            async with db.begin() as conn:
                assert await _clocks(conn) == before
                await conn.execute(delete(ServerClock))  # a database without the row gets it
            assert await Downtime(make_sessionmaker(engine)).settle() is None
            async with db.connect() as conn:
                assert (utcnow() - await conn.scalar(select(ServerClock.alive_at))).total_seconds() < 5
            await clock.beat()
            await clock.stop()
        finally:
            await engine.dispose()
            await db.dispose()

    asyncio.run(scenario())


def _shutting_down() -> exc.DBAPIError:
    """What SQLAlchemy 2.1 raises when asyncpg's connect is refused while PostgreSQL shuts down:
    a plain DBAPIError around the adapter's Error, the asyncpg error its cause."""
    cause = asyncpg.exceptions.CannotConnectNowError("the database system is shutting down")

    class AdapterError(Exception):
        sqlstate = "57P03"

    orig = AdapterError(f"{type(cause)}: {cause}")
    orig.__cause__ = cause
    return exc.DBAPIError(None, None, orig)


def test_a_refused_connection_while_postgres_shuts_down_is_an_outage():
    err = _shutting_down()
    # app/db.py's check (used by HTTP, the action path and every loop) sees it: once it did
    # not, and the turn timers logged a 146-line traceback each look.
    assert database_unavailable(err)
    assert unavailable(err)
    assert unavailable(ConnectionRefusedError())

    class Unique(Exception):
        sqlstate = "23505"

    assert not unavailable(exc.DBAPIError(None, None, Unique("duplicate key")))
    assert not unavailable(ValueError("a bug"))


def test_an_outage_is_one_warning_line_and_a_bug_its_traceback(caplog):
    logger = logging.getLogger("osaka.test_outage")
    outage = OutageLog(logger, "the turn timer", repeat_s=3600)
    with caplog.at_level(logging.INFO, logger="osaka.test_outage"):
        for _ in range(20):
            outage.failed(_shutting_down(), "looking for time-outs")
        outage.failed(ConnectionRefusedError(111, "Connect call failed"), "looking for time-outs")
        outage.succeeded()
        outage.succeeded()
        outage.failed(ValueError("a bug"), "looking for time-outs")
    records = [(r.levelname, r.getMessage(), r.exc_info is not None) for r in caplog.records]
    assert [(level, tb) for level, _msg, tb in records] == [("WARNING", False), ("INFO", False), ("ERROR", True)]
    warning = records[0][1]
    assert "\n" not in warning and "CannotConnectNowError: the database system is shutting down" in warning
    assert warning.startswith("looking for time-outs: the database is unavailable")
    # A long outage: one more line every `repeat_s`, still of one line.
    caplog.clear()
    long = OutageLog(logger, "the turn timer", repeat_s=0)
    with caplog.at_level(logging.INFO, logger="osaka.test_outage"):
        long.failed(ConnectionRefusedError(111, "Connect call failed"), "looking for time-outs")
        long.failed(ConnectionRefusedError(111, "Connect call failed"), "looking for time-outs")
    assert [r.levelname for r in caplog.records] == ["WARNING", "WARNING"]
    assert "still unavailable after" in caplog.records[1].getMessage()


def test_beats_never_move_the_stamp_back(private_migrated_url):
    url = private_migrated_url

    async def scenario():
        engine = make_engine(url)
        clock = Downtime(make_sessionmaker(engine))
        try:
            later = utcnow() + timedelta(seconds=30)
            await clock.beat(later)
            await clock.beat()
            async with engine.connect() as conn:
                assert await conn.scalar(select(ServerClock.alive_at)) == later
        finally:
            await engine.dispose()

    asyncio.run(scenario())


def test_the_migration_goes_back_and_forth(fresh_database_url):
    """0008 is reversible: down to 0007 drops `server_clock` (the rest untouched), up makes it
    again with its one row."""
    from alembic import command
    from sqlalchemy import inspect

    from app.migrate import alembic_config, upgrade
    url = fresh_database_url
    upgrade(url)
    command.downgrade(alembic_config(url), "0007")

    async def tables():
        db = create_async_engine(url)
        try:
            async with db.connect() as conn:
                names = await conn.run_sync(lambda c: inspect(c).get_table_names())
                rows = (await conn.execute(select(ServerClock.id, ServerClock.alive_at))).all() \
                    if "server_clock" in names else None
            return set(names), rows
        finally:
            await db.dispose()

    names, _ = asyncio.run(tables())
    assert "server_clock" not in names and {"rooms", "seats", "actions", "chat_messages"} <= names
    upgrade(url)
    names, rows = asyncio.run(tables())
    assert "server_clock" in names and [tuple(r) for r in rows] == [(1, None)]
