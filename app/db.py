"""Async database engine and session factory (SQLAlchemy 2 asyncio).

SQLite (aiosqlite) runs in WAL mode with a busy timeout and foreign keys on; PostgreSQL
(asyncpg) is used as is. See https://docs.sqlalchemy.org/en/20/dialects/sqlite.html.
"""
from __future__ import annotations

import json
import socket
import sqlite3
from typing import Any

import orjson
from sqlalchemy import event, exc, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

SQLITE_BUSY_TIMEOUT_MS = 30_000
#: The WAL file is cut back to this size when it starts over after a checkpoint (it grows past
#: it while a long read, a backup, say, keeps the pages from being checkpointed).
#: https://www.sqlite.org/pragma.html#pragma_journal_size_limit
SQLITE_WAL_LIMIT_BYTES = 64 * 2 ** 20
#: What every connection to a SQLite file sets (the pool's, below, and the group commit's own,
#: app/store/sqlite.py): foreign keys on; WAL + NORMAL survives a killed process; the WAL
#: size limit above. https://www.sqlite.org/pragma.html
SQLITE_PRAGMAS = ("foreign_keys=ON", "synchronous=NORMAL", f"journal_size_limit={SQLITE_WAL_LIMIT_BYTES}")
RETRY_AFTER_S = 5  # `Retry-After` of a 503 `unavailable` (the database cannot be reached)
#: PostgreSQL: the connections one server process's pool holds at most. Each is opened when the
#: work at that moment needs it and then KEPT (no overflow): SQLAlchemy closes an overflow
#: connection the moment it comes back, so with its default (5 kept, 10 more on demand)
#: every burst above five connections (ten rooms of computer players: each bot turn reads
#: its room and commits on a connection of its own) opened and closed a PostgreSQL backend,
#: ~7-18 a second, each with its own fork, authentication and statement preparations. The
#: ceiling is the same 15 as before; a 16th user waits in the pool's queue (`pool_timeout`,
#: 30 s) as it did. Besides them: the LISTEN connection (app/live/fanout/postgres.py).
#: https://docs.sqlalchemy.org/en/20/core/pooling.html#sqlalchemy.pool.QueuePool
PG_POOL_SIZE = 15


class SqliteConnection(sqlite3.Connection):
    """The pool's sqlite3 connection (`sqlite3.connect(factory=...)`, through aiosqlite): a
    transaction still open when it is closed is rolled back first.

    Why: a task cancelled in a database operation (the shutdown cancels the background loops)
    has SQLAlchemy invalidate and close its connection while a cursor of the cancelled
    statement is still referenced (its traceback). `sqlite3_close_v2` then leaves a zombie that
    keeps its transaction, and with it SQLite's write lock (every session is BEGIN IMMEDIATE),
    until that cursor is freed; every later writer waited the busy timeout (30 s). A shutdown
    hung that way past its budget and was killed (test_downtime, test_dockerfile). ROLLBACK
    with statements pending is allowed (they are aborted) and ends the transaction at once.
    https://www.sqlite.org/c3ref/close.html, https://www.sqlite.org/lang_transaction.html"""

    def close(self) -> None:
        try:
            if self.in_transaction:
                self.rollback()
        finally:
            super().close()


def json_text(value: Any) -> str:
    """A JSON column's stored text (the engine's `json_serializer`): orjson's compact text, or
    `json.dumps`'s for what orjson refuses (a lone surrogate, an integer over 64 bits)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError: what orjson refuses, json.dumps as SQLAlchemy would
        return json.dumps(value)


def make_engine(url: str) -> AsyncEngine:
    """Create the async engine for `url` (``sqlite+aiosqlite://...`` or ``postgresql+asyncpg://...``)."""
    # JSON columns (the action log) are written with orjson: the same text as json.dumps, faster.
    kwargs: dict[str, Any] = {"future": True, "json_serializer": json_text}
    asyncpg = make_url(url).get_driver_name() == "asyncpg"
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000, "factory": SqliteConnection}
        if make_url(url).database not in (None, "", ":memory:"):
            # One connection: every transaction is BEGIN IMMEDIATE (below), so they run one at a
            # time anyway; with several connections the losers poll SQLite's busy handler, which
            # sleeps 1..100 ms between tries (seconds of tail latency under load, see
            # docs/performance.md). The pool's FIFO queue hands the connection over at once.
            # (The action store has a connection of its own that never waits for a lock:
            # app/store/sqlite.py, SqliteWriter.)
            kwargs.update(pool_size=1, max_overflow=0, pool_timeout=SQLITE_BUSY_TIMEOUT_MS / 1000)
        # No ROLLBACK for a connection that comes back without a transaction open (the
        # group commit's, every committed session's): the reset event below rolls back only
        # what is open. https://docs.sqlalchemy.org/en/20/core/pooling.html#custom-reset-on-return-schemes
        kwargs["pool_reset_on_return"] = None
    elif asyncpg:
        # No ping at checkout: SQLAlchemy's for asyncpg (`pool_pre_ping`) is a transaction of
        # its own, BEGIN, `;`, ROLLBACK: three round trips per checkout with the connection
        # idle in transaction between them (the most common state a burst of departures left
        # in pg_stat_activity). A connection its server closed (a restart,
        # pg_terminate_backend, an idle timeout) is known to asyncpg without asking, from its
        # socket; `_replace_closed` swaps it for a new one at checkout instead.
        kwargs.update(pool_size=PG_POOL_SIZE, max_overflow=0)
    else:
        kwargs.update(pool_pre_ping=True, pool_size=PG_POOL_SIZE, max_overflow=0)
    engine = create_async_engine(url, **kwargs)
    if asyncpg:
        @event.listens_for(engine.sync_engine, "checkout")
        def _replace_closed(dbapi_conn, _record, _proxy):
            # SQLAlchemy's pessimistic disconnect handling: the pool invalidates this one and
            # checks out a new connection in its place (up to three tries).
            # https://docs.sqlalchemy.org/en/20/core/pooling.html#disconnect-handling-pessimistic
            if dbapi_conn.driver_connection.is_closed():
                raise exc.DisconnectionError("the server closed this connection")
    if url.startswith("sqlite"):
        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record):  # pragma: no cover - trivial
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
            for pragma in SQLITE_PRAGMAS:
                cur.execute(f"PRAGMA {pragma}")
            cur.close()
            # Let SQLAlchemy, not the driver, delimit transactions: every session is exactly
            # one BEGIN IMMEDIATE ... COMMIT/ROLLBACK: no read snapshot outlives its session, and
            # a transaction that reads then writes never fails to upgrade (SQLITE_BUSY_SNAPSHOT);
            # writers queue on the busy timeout. Callers never hold a session open while waiting
            # for a room's asyncio lock (app/live/room/lock.py enforces it).
            # https://docs.sqlalchemy.org/en/20/dialects/sqlite.html#serializable-isolation-savepoints-transactional-ddl
            dbapi_conn.isolation_level = None

        @event.listens_for(engine.sync_engine, "reset")
        def _sqlite_reset(dbapi_conn, _record, state):
            # SQLAlchemy's own rollback-on-return, except when SQLite says no transaction is open
            # (`in_transaction` reads sqlite3_get_autocommit: no statement, no hand-off to
            # aiosqlite's thread, which is idle while the pool holds the connection).
            if state.terminate_only or state.transaction_was_reset or not state.asyncio_safe:
                return
            if dbapi_conn.driver_connection.in_transaction:
                dbapi_conn.rollback()

        @event.listens_for(engine.sync_engine, "begin")
        def _sqlite_begin(conn):  # pragma: no cover - trivial
            conn.exec_driver_sql("BEGIN IMMEDIATE")
    return engine


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Session factory; sessions do not expire objects on commit."""
    return async_sessionmaker(engine, expire_on_commit=False)


def _asyncpg_unavailable() -> tuple[type, ...]:
    try:
        import asyncpg  # noqa: PLC0415 - only there with PostgreSQL
    except ImportError:  # pragma: no cover - asyncpg is a dependency
        return ()
    return (asyncpg.PostgresConnectionError, asyncpg.exceptions.OperatorInterventionError,
            asyncpg.ConnectionDoesNotExistError)


_ASYNCPG_OUTAGES = _asyncpg_unavailable()
_UNREACHABLE = (ConnectionError, TimeoutError, socket.gaierror, exc.TimeoutError, *_ASYNCPG_OUTAGES)
#: The exception classes for which `database_unavailable` may be True.
UNAVAILABLE_ERRORS = (*_UNREACHABLE, exc.DBAPIError)


def database_unavailable(error: BaseException) -> bool:
    """True when `error` means the database cannot be used right now (stopped, restarting, the
    connection cut, no connection free in time) rather than a bug: the caller answers
    `unavailable` (HTTP 503) and changes nothing; a later try may succeed by itself (new
    connections are made as needed; one the server closed is replaced at checkout).

    Connecting raises the driver's own errors (`ConnectionRefusedError`, asyncpg's
    `CannotConnectNowError` while PostgreSQL starts); a connection lost mid-query raises
    SQLAlchemy's `OperationalError`/`InterfaceError` or an invalidated `DBAPIError`
    (https://docs.sqlalchemy.org/en/20/core/pooling.html#dealing-with-disconnects).
    SQLite's "database is locked" after the busy timeout is an `OperationalError` too.
    SQLAlchemy 2.1 hands some asyncpg errors on as a plain `DBAPIError`, the driver's error only
    as its `orig`/`__cause__`: a connection refused while PostgreSQL shuts down ("the database
    system is shutting down", SQLSTATE 57P03) or cut by it (57P01): those count too, by the
    driver's error class or an SQLSTATE of class 08 (connection exception) or 57P (operator
    intervention; https://www.postgresql.org/docs/current/errcodes-appendix.html)."""
    if isinstance(error, _UNREACHABLE):
        return True
    if not isinstance(error, exc.DBAPIError):
        return False
    if error.connection_invalidated or isinstance(error, (exc.OperationalError, exc.InterfaceError)):
        return True
    for e in error_chain(error):
        if isinstance(e, _ASYNCPG_OUTAGES):
            return True
        state = getattr(e, "sqlstate", None)
        if isinstance(state, str) and state.startswith(_OUTAGE_SQLSTATES):
            return True
    return False


#: SQLSTATE classes of an unreachable database (see `database_unavailable`).
_OUTAGE_SQLSTATES = ("08", "57P")


def describe_error(error: BaseException) -> str:
    """`Type: message` of the driver's error (SQLAlchemy's `orig`, else `error` itself) on one
    line, at most 200 characters of its message: what a warning about a broken or unreachable
    database says instead of a traceback."""
    inner = getattr(error, "orig", None) or error
    text = " ".join(str(inner).split())
    if len(text) > 200:
        text = text[:197] + "..."
    return f"{type(inner).__name__}: {text}" if text else type(inner).__name__


def error_chain(error: BaseException):
    """`error`, the driver error a SQLAlchemy error wraps (`orig`), and their causes (at most 16)."""
    seen: set[int] = set()
    todo = [error]
    while todo and len(seen) < 16:
        e = todo.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        yield e
        todo.extend((getattr(e, "orig", None), e.__cause__))
