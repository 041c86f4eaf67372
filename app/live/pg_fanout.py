"""Cross-process fan-out over PostgreSQL LISTEN/NOTIFY (several `osaka serve` on one database).

Every process LISTENs on the channel `osaka_rooms` on one dedicated asyncpg connection
(`asyncpg.Connection.add_listener`, https://magicstack.github.io/asyncpg/current/api/index.html).
A process that changes a room sends `pg_notify('osaka_rooms', payload)`:

- an action: inside the action's own transaction (the version UPDATE's RETURNING), so the
  notification is delivered only if, and when, the action commits
  (https://www.postgresql.org/docs/current/sql-notify.html);
- a room change (created, joined, a computer player added, the start, a seat handed to a
  computer player) and a presence change: right after that change committed.

Payload: ``"<origin> <kind> <room code> [<seats>]"``; `origin` is a random id of the sending
process (a process ignores its own notifications: it has told its connections already), `kind`
is `g` (game: an action was committed), `r` (room changed) or `p` (presence: `<seats>` lists the
seats with a live connection in the sending process, comma-separated, possibly empty).

On a notification, the receiving process syncs that room's table from the database (the action
log is the truth: a missed notification only delays a catch-up until the next one) and sends
the new events/state and room summary to its own connections; room changes also refresh its
lobby feed. What was heard meanwhile is handed over at once, coalesced per room
(app/live/remote.py: the rooms whose game alone moved are read together). The listener
reconnects with backoff when its connection drops, and then re-syncs every room it has
connections for. SQLite has no such channel: there, one process only.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from typing import Callable

from sqlalchemy import bindparam, func, literal, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from .fanout import BUMP_VERSION, Fanout, RemoteBatch

log = logging.getLogger("osaka.fanout")
CHANNEL = "osaka_rooms"
KEEPALIVE_S = 10.0        # the listener checks its connection this often
RECONNECT_MAX_S = 10.0    # backoff cap between reconnect attempts
LISTEN_APP_NAME = "osaka-listen"  # application_name of the LISTEN connection (pg_stat_activity)

# An action's version UPDATE with `pg_notify` in its RETURNING: one row when the version moved,
# and the notification is sent only when the action commits.
_BUMP_VERSION_NOTIFY = BUMP_VERSION.returning(func.pg_notify(literal(CHANNEL), bindparam("notify_payload")))
_NOTIFY = select(func.pg_notify(literal(CHANNEL), bindparam("payload")))


def asyncpg_dsn(database_url: str) -> str:
    """``postgresql+asyncpg://…`` (SQLAlchemy URL) → ``postgresql://…`` (asyncpg DSN)."""
    return database_url.replace("postgresql+asyncpg://", "postgresql://", 1)


class PgFanout(Fanout):
    """LISTEN/NOTIFY for one process: `bump_version` / `notify` to send, `run` to listen,
    `process` to catch up with what was heard (`on_remote`)."""

    shared = True

    def __init__(self, database_url: str, sessions: async_sessionmaker[AsyncSession],
                 on_remote: RemoteBatch, watched: Callable[[], set[str]], presence_ttl_s: float):
        self.sessions = sessions
        self.on_remote = on_remote
        self.watched = watched
        self.presence_ttl_s = presence_ttl_s
        self.dsn = asyncpg_dsn(database_url)
        self.origin = secrets.token_hex(6)
        self.connected = asyncio.Event()   # set while LISTEN is active (tests, readiness)
        self._pending: dict[str, set[str]] = {}
        self._wake = asyncio.Event()
        # Presence in the other processes: code → origin → (seats, monotonic time heard).
        self._remote: dict[str, dict[str, tuple[frozenset[int], float]]] = {}
        self._tasks: list[asyncio.Task] = []

    async def start(self, listen_timeout_s: float = 5.0) -> None:
        """LISTEN in the background (waited for up to `listen_timeout_s`, so a fresh process
        misses nothing; it keeps retrying if the database is not reachable yet)."""
        loop = asyncio.get_running_loop()
        self._tasks += [loop.create_task(self.run(), name="fanout-listen"),
                        loop.create_task(self.process(), name="fanout-process")]
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.connected.wait(), listen_timeout_s)

    async def close(self) -> None:
        """Stop listening and processing."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()

    # ---------------------------------------------------------------- sending
    def payload(self, kind: str, code: str, seats: set[int] | frozenset[int] | None = None) -> str:
        """The payload of a notification from this process (see the module docstring)."""
        text = f"{self.origin} {kind} {code}"
        if seats is not None:
            text += " " + ",".join(str(s) for s in sorted(seats))
        return text

    def action_notice(self, code: str) -> str:
        """The payload an action of room `code` notifies on commit (kind `g`)."""
        return self.payload("g", code)

    async def bump_version(self, session: AsyncSession, code: str, params: dict) -> bool:
        """The version UPDATE with the action's notification in its RETURNING (Fanout)."""
        params = {**params, "notify_payload": self.action_notice(code)}
        return len((await session.execute(_BUMP_VERSION_NOTIFY, params)).all()) == 1

    async def notify(self, kind: str, code: str, seats: set[int] | frozenset[int] | None = None) -> None:
        """Send one notification in its own (committed) transaction; never raises."""
        try:
            async with self.sessions() as session:
                await session.execute(_NOTIFY, {"payload": self.payload(kind, code, seats)})
                await session.commit()
        except Exception:  # the others catch up on the next notification anyway
            log.warning("could not notify %s of room %s", kind, code, exc_info=True)

    # -------------------------------------------------------------- presence
    def remote_codes(self) -> set[str]:
        return set(self._remote)

    def remote_seats(self, code: str) -> set[int]:
        """Seats of `code` with a live connection in another process (heard within the expiry)."""
        per_origin = self._remote.get(code)
        if not per_origin:
            return set()
        horizon = time.monotonic() - self.presence_ttl_s
        out: set[int] = set()
        for origin, (seats, heard) in list(per_origin.items()):
            if heard < horizon:  # that process died without saying goodbye
                del per_origin[origin]
            else:
                out |= seats
        if not per_origin:
            self._remote.pop(code, None)
        return out

    # -------------------------------------------------------------- receiving
    def _on_notify(self, _conn, _pid: int, _channel: str, payload: str) -> None:
        parts = payload.split(" ")
        if len(parts) < 3 or parts[0] == self.origin:
            return
        origin, kind, code = parts[0], parts[1], parts[2]
        if kind == "p":
            seats = frozenset(int(s) for s in parts[3].split(",") if s.isdigit()) if len(parts) > 3 else frozenset()
            per_origin = self._remote.setdefault(code, {})
            if seats:
                per_origin[origin] = (seats, time.monotonic())
            else:
                per_origin.pop(origin, None)
        self._pending.setdefault(code, set()).add(kind)
        self._wake.set()

    async def process(self) -> None:
        """Apply the notifications heard, coalesced per room, until cancelled: all that was
        heard since the last round goes to `on_remote` at once (it may read many rooms together)."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._pending = self._pending, {}
            try:
                await self.on_remote(batch)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("catching up with %d rooms failed", len(batch))

    async def run(self) -> None:
        """LISTEN on a dedicated connection until cancelled; reconnect with backoff if it drops."""
        import asyncpg  # noqa: PLC0415 - only with PostgreSQL
        delay = 0.5
        while True:
            conn = None
            try:
                conn = await asyncpg.connect(self.dsn, server_settings={"application_name": LISTEN_APP_NAME})
                lost = asyncio.Event()
                conn.add_termination_listener(lambda _c: lost.set())
                await conn.add_listener(CHANNEL, self._on_notify)
                self.connected.set()
                delay = 0.5
                # Anything may have happened while nobody listened: catch up every watched room.
                for code in self.watched():
                    self._pending.setdefault(code, set()).update(("r", "g"))
                self._wake.set()
                while not lost.is_set():
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(lost.wait(), KEEPALIVE_S)
                    if not lost.is_set():
                        await asyncio.wait_for(conn.execute("SELECT 1"), KEEPALIVE_S)
                log.warning("the LISTEN connection was closed; reconnecting")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("LISTEN connection failed (%s); retrying in %.1f s", type(exc).__name__, delay)
            finally:
                self.connected.clear()
                if conn is not None:
                    with contextlib.suppress(Exception):
                        conn.terminate()
            await asyncio.sleep(delay)
            delay = min(delay * 2, RECONNECT_MAX_S)
