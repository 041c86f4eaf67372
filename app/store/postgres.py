"""PostgreSQL's `ActionStore` (asyncpg): a batch is ONE statement on a connection it keeps.

`_STORE` (autocommit: the statement is its own transaction): the rooms whose version check
holds move, with the action's notification in the UPDATE's RETURNING when there is anyone to
tell (`pg_notify`, sent only on commit; https://www.postgresql.org/docs/current/sql-notify.html),
and exactly their action rows are inserted; the others store nothing and lose, as they would
alone. One round trip instead of four (BEGIN, UPDATE, INSERT, COMMIT). A unique-constraint
violation fails the statement as a whole: then each action is stored alone, by the same
statement, and only the one that conflicts loses. A computer player's action is stored alone in
a transaction that first reads its seat's controller `FOR SHARE` (a take-back by another
process updates that row, so the two serialize on it).

One operation at a time uses the kept connection (`_lock`: the statement, a new connection, a
drop, the close). A statement that did not end normally (the connection broke, the batch was
cancelled, anything but a conflict) drops the connection before the lock is released: no later
batch meets it in an unknown state. The batch is then tried once more on a connection of the
pool's, returned at once (the next batch keeps a new one); a connection that broke is one
warning line. A database that cannot be reached raises (SQLAlchemy's errors, or asyncpg's
connection errors: app/db.py `database_unavailable` knows both).
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from sqlalchemy import exc
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.util import greenlet_spawn

from ..db import describe_error, json_text
from .actions import ActionStore, Notice, Pending, check_shapes

log = logging.getLogger("osaka.commits")
#: The notification channel (app/live/fanout/postgres.py listens on it).
CHANNEL = "osaka_rooms"
_ARGS = ("$1::integer[], $2::integer[], $3::integer[], $4::varchar[], $5::text[], $6::integer[],"
         " $7::timestamp[], $8::timestamp[], $9::varchar[], $10::integer[], $11::text[], $12::text[],"
         " $13::timestamp[], $14::text[]")


def _store_sql(notify: bool) -> str:
    """The batch in one statement (arrays, one element per action; JSON as text); the UPDATE is
    `BUMP_VERSION`'s (actions.py). → the room ids stored."""
    returning = f"rooms.id, pg_notify('{CHANNEL}', w.notice)" if notify else "rooms.id"
    return f"""
WITH w AS (
  SELECT * FROM unnest({_ARGS})
    AS w(room_id, old_version, new_version, new_status, state, to_act, turn_at, deadline_at,
         action_id, seat, action, events, created_at, notice)
), moved AS (
  UPDATE rooms SET version = w.new_version, status = w.new_status, state = COALESCE(w.state::json, rooms.state),
                   state_version = CASE WHEN w.state IS NULL THEN COALESCE(rooms.state_version, rooms.version) END,
                   to_act = w.to_act, turn_at = w.turn_at, deadline_at = w.deadline_at
  FROM w WHERE rooms.id = w.room_id AND rooms.version = w.old_version AND rooms.paused_at IS NULL
  RETURNING {returning}
)
INSERT INTO actions (room_id, version, action_id, seat, action, events, created_at)
SELECT w.room_id, w.new_version, w.action_id, w.seat, w.action::json, w.events::json, w.created_at
FROM w JOIN moved ON moved.id = w.room_id
RETURNING room_id
"""


_BOT_LEVEL = "SELECT bot_level FROM seats WHERE room_id = $1 AND seat = $2 FOR SHARE"


class PostgresStore(ActionStore):
    """PostgreSQL's `ActionStore` (module docstring)."""

    def __init__(self, engine: AsyncEngine, notice: Notice):
        self.engine = engine
        self.notice = notice
        self.conn: Any = None  # the pool's connection (PoolProxiedConnection) kept for the batches
        self.broken = 0        # kept connections found broken (a restart, pg_terminate_backend, ...)
        self.transactions = 0
        self._sql = {True: _store_sql(True), False: _store_sql(False)}
        self._lock = asyncio.Lock()
        self._closed = False

    async def store(self, batch: list[Pending]) -> list[bool]:
        import asyncpg  # noqa: PLC0415 - only with PostgreSQL
        batch.sort(key=lambda p: p.row["room_id"])
        check_shapes(batch)
        if not any(p.bot is not None for p in batch):
            try:
                stored = await self._run(batch)
            except asyncpg.UniqueViolationError:
                pass  # a (seat, id) or version stored meanwhile: one statement each decides
            else:
                return [p.row["room_id"] in stored for p in batch]
        results = []
        for p in batch:
            try:
                results.append(p.row["room_id"] in await self._run([p]))
            except asyncpg.UniqueViolationError:
                results.append(False)
        return results

    async def _run(self, batch: list[Pending]) -> set[int]:
        """`batch` in one transaction, on the kept connection (or, when it broke, once more on
        one of the pool's) → the room ids stored. UniqueViolationError for a conflict."""
        columns = self._columns(batch)
        async with self._lock:
            conn = await self._connection()
            try:
                stored = await self._statement(conn.driver_connection, batch, columns)
            except BaseException as e:
                if _is_conflict(e):
                    raise
                self._drop()  # in whatever state the statement left it: never used again
                if not isinstance(e, Exception):
                    raise  # cancelled (shutdown): the connection is gone already
                self._log_failure(e)
            else:
                self.transactions += 1
                return stored
        raw = await self.engine.raw_connection()  # once more, on a connection of the pool's
        try:
            stored = await self._statement(raw.driver_connection, batch, columns)
        except BaseException as e:
            if not _is_conflict(e):
                raw.invalidate()
                if isinstance(e, _broken_connection_errors()):
                    raise exc.OperationalError("storing a batch of actions", None, e,
                                               connection_invalidated=True) from e
            raise
        finally:
            await greenlet_spawn(raw.close)  # back to the pool (invalidated: closed)
        self.transactions += 1
        return stored

    async def _statement(self, conn: Any, batch: list[Pending], columns: list[list]) -> set[int]:
        """On the asyncpg connection `conn`: the seat checks (if any) and the statement."""
        sql = self._sql[columns[13][0] is not None]
        bots = [p for p in batch if p.bot is not None]
        if not bots:
            return {r[0] for r in await conn.fetch(sql, *columns)}
        async with conn.transaction():
            for p in bots:
                level = await conn.fetchval(_BOT_LEVEL, p.row["room_id"], p.bot[0])
                p.not_a_bot = level != p.bot[1]
                if p.not_a_bot:
                    return set()
            return {r[0] for r in await conn.fetch(sql, *columns)}

    def _columns(self, batch: list[Pending]) -> list[list]:
        """`_STORE`'s 14 arrays, one element per action of the batch."""
        columns: list[list] = [[] for _ in range(14)]
        (room_id, old_version, new_version, new_status, state, to_act, turn_at, deadline_at,
         action_id, seat, action, events, created_at, notice) = columns
        for p in batch:
            bump, row = p.bump, p.row
            room_id.append(bump["room_id"])
            old_version.append(bump["old_version"])
            new_version.append(bump["new_version"])
            new_status.append(bump["new_status"])
            state.append(None if bump["state"] is None else json_text(bump["state"]))
            to_act.append(bump["to_act"])
            turn_at.append(bump["turn_at"])
            deadline_at.append(bump["deadline_at"])
            action_id.append(row["action_id"])
            seat.append(row["seat"])
            action.append(json_text(row["action"]))
            events.append(json_text(row["events"]))
            created_at.append(row["created_at"])
            notice.append(self.notice(p.code))
        return columns

    async def _connection(self) -> Any:
        """Under `_lock`: the kept connection, or a new one from the pool (which replaces one
        its server closed, app/db.py) when there is none or the server closed it meanwhile.
        RuntimeError after `close`; the pool's errors when the database cannot be reached."""
        if self._closed:
            raise RuntimeError("the action store is closed")
        if self.conn is not None and self.conn.driver_connection.is_closed():
            self.broken += 1  # its server closed it while it was idle (a restart, pg_terminate_backend)
            log.warning("the group commit's kept connection was closed by the server; taking a new one")
            self._drop()
        if self.conn is None:
            self.conn = await self.engine.raw_connection()
        return self.conn

    def _log_failure(self, e: Exception) -> None:
        """A broken connection is one warning line; anything else (a bug) keeps its traceback."""
        if isinstance(e, _broken_connection_errors()):
            self.broken += 1
            log.warning("the group commit's kept connection broke (%s); this batch goes the pool's way, "
                        "the next takes a new connection", describe_error(e))
        else:
            log.warning("storing a batch on the kept connection failed; going the pool's way", exc_info=e)

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


def _is_conflict(e: BaseException) -> bool:
    import asyncpg  # noqa: PLC0415 - only with PostgreSQL
    return isinstance(e, asyncpg.UniqueViolationError)


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
