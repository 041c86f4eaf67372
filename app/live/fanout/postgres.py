"""Cross-process fan-out over PostgreSQL LISTEN/NOTIFY (several `osaka serve` on one database).

Every process LISTENs on the channel `osaka_rooms` on one dedicated asyncpg connection
(`asyncpg.Connection.add_listener`, https://magicstack.github.io/asyncpg/current/api/index.html).
A process that changes a room sends `pg_notify('osaka_rooms', payload)`:

- an action: inside the action's own statement (the version UPDATE's RETURNING, written by
  app/store/postgres.py with `action_notice`'s payload), so the notification is delivered only
  if, and when, the action commits
  (https://www.postgresql.org/docs/current/sql-notify.html);
- a room change (created, joined, a computer player added, the start, a seat handed to a
  computer player), a presence change and a chat message: right after that change committed,
  all that were asked for meanwhile in ONE statement (`_NOTIFY_MANY`, its own transaction) on
  the LISTEN connection (`notify`): no connection of the pool, no transaction per notification.

Payload: ``"<origin> <kind> <room code> [<seats>]"``; `origin` is a random id of the sending
process (a process ignores its own notifications: it has told its connections already), `kind`
is `g` (game: an action was committed), `r` (room changed) or `p` (presence: `<seats>` lists the
seats with a live connection in the sending process, comma-separated, possibly empty). A
presence that adds a seat the sender did not have is also handed on as kind `a` (arrived:
affinity.py moves this process's routed connections of that room to where it is served now).

On a notification, the receiving process syncs that room's table from the database (the action
log is the truth: a missed notification only delays a catch-up until the next one) and sends
the new events/state and room summary to its own connections; room changes also refresh its
lobby feed. What was heard meanwhile is handed over at once, coalesced per room
(app/live/fanout/remote.py: the rooms whose game alone moved are read together). The listener
reconnects with backoff when its connection drops, and then re-syncs every room it has
connections for. One statement at a time runs on the LISTEN connection (its keepalive or a
batch of notifications: `_on_listen_connection`), and one that does not end normally closes
it (the listener connects again). SQLite has no such channel: there, one process only.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from typing import Callable

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ...db import describe_error
from ...store.postgres import CHANNEL
from ...waits import wait_event
from .base import Fanout, RemoteBatch

log = logging.getLogger("osaka.fanout")
KEEPALIVE_S = 10.0        # the listener checks its connection this often
RECONNECT_MAX_S = 10.0    # backoff cap between reconnect attempts
LISTEN_APP_NAME = "osaka-listen"  # application_name of the LISTEN connection (pg_stat_activity)

# Notifications in one statement, in the order of the array (`notify`): on the LISTEN connection
# (asyncpg, autocommit) and, while it is not connected, in a transaction of the pool's.
_NOTIFY_MANY = f"SELECT pg_notify('{CHANNEL}', p) FROM unnest($1::text[]) AS p"
_NOTIFY_MANY_POOL = text(f"SELECT pg_notify('{CHANNEL}', p) FROM unnest(CAST(:payloads AS text[])) AS p")


def asyncpg_dsn(database_url: str) -> str:
    """``postgresql+asyncpg://…`` (SQLAlchemy URL) → ``postgresql://…`` (asyncpg DSN)."""
    return database_url.replace("postgresql+asyncpg://", "postgresql://", 1)


class PgFanout(Fanout):
    """LISTEN/NOTIFY for one process: `action_notice` / `notify` to send, `run` to listen,
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
        self._listening = None                  # the LISTEN connection (asyncpg) while it listens
        self._listening_lock = asyncio.Lock()   # one statement at a time on it
        # Notifications to send: (kind, code) → payload (the latest of each: a room's presence is
        # what was last said of it), in the order asked; `_sent` is set once they were sent.
        self._outbox: dict[tuple[str, str], str] = {}
        self._sent: asyncio.Future | None = None
        self._outbox_wake = asyncio.Event()
        self._sender: asyncio.Task | None = None
        self._closed = False

    async def start(self, listen_timeout_s: float = 5.0) -> None:
        """LISTEN in the background (waited for up to `listen_timeout_s`, so a fresh process
        misses nothing; it keeps retrying if the database is not reachable yet)."""
        loop = asyncio.get_running_loop()
        self._tasks += [loop.create_task(self.run(), name="fanout-listen"),
                        loop.create_task(self.process(), name="fanout-process")]
        await wait_event(self.connected, listen_timeout_s)

    async def close(self) -> None:
        """Stop listening, processing and sending (a `notify` waiting for its send returns)."""
        self._closed = True
        tasks = self._tasks + ([self._sender] if self._sender is not None else [])
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
        self._sender = None
        self._outbox.clear()
        if self._sent is not None and not self._sent.done():
            self._sent.set_result(None)
        self._sent = None

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

    async def notify(self, kind: str, code: str, seats: set[int] | frozenset[int] | None = None) -> None:
        """Tell the others (after a commit); returns once sent, never raises. Every notification
        asked for while the previous batch was being sent goes in ONE statement (`_send`), the
        latest of each (kind, room) only: no pool connection and no transaction per
        notification (otherwise a hundred sockets that go at once would each send their presence
        in a transaction of its own, with a checkout and a ping, and hold the pool open in
        transaction). After `close` (the listener is gone): in a transaction of the pool's."""
        if self._closed:
            try:
                await self._send_through_pool([self.payload(kind, code, seats)])
            except Exception as exc:
                log.warning("could not notify the other processes (%s)", describe_error(exc))
            return
        key = (kind, code)
        self._outbox.pop(key, None)
        self._outbox[key] = self.payload(kind, code, seats)
        loop = asyncio.get_running_loop()
        if self._sent is None:
            self._sent = loop.create_future()
        sent = self._sent
        self._outbox_wake.set()
        if self._sender is None or self._sender.done():
            self._sender = loop.create_task(self._send_loop(), name="fanout-notify")
        await asyncio.shield(sent)

    async def _send_loop(self) -> None:
        """Send what is in the outbox, one batch at a time, until cancelled (`close`)."""
        while True:
            await self._outbox_wake.wait()
            self._outbox_wake.clear()
            while self._outbox:
                payloads, self._outbox = list(self._outbox.values()), {}
                sent, self._sent = self._sent, None
                try:
                    await self._send(payloads)
                except Exception as exc:  # the others catch up on the next notification anyway
                    log.warning("could not notify the other processes of %d changes (%s)", len(payloads),
                                describe_error(exc))
                finally:
                    if sent is not None and not sent.done():
                        sent.set_result(None)

    async def _send(self, payloads: list[str]) -> None:
        """`payloads` in one statement: on the LISTEN connection, else (not listening now, or
        it broke during the statement: the payloads may go twice, which only costs the others
        a read) in a transaction of the pool's."""
        conn = self._listening
        if conn is not None:
            try:
                await self._on_listen_connection(conn, _NOTIFY_MANY, payloads)
                return
            except Exception as exc:
                log.warning("notifying on the LISTEN connection failed (%s); through the pool instead",
                            describe_error(exc))
        await self._send_through_pool(payloads)

    async def _send_through_pool(self, payloads: list[str]) -> None:
        async with self.sessions() as session:
            await session.execute(_NOTIFY_MANY_POOL, {"payloads": payloads})
            await session.commit()

    async def _on_listen_connection(self, conn, query: str, *args) -> None:
        """Run one statement on the LISTEN connection `conn`, alone on it (`_listening_lock`:
        the keepalive and the notifications never meet there) and within KEEPALIVE_S. A
        statement that did not end normally (failed, timed out, cancelled) closes `conn`, so
        nothing ever runs on it in the state that left it; `run` connects again."""
        async with self._listening_lock:
            if conn.is_closed():
                raise ConnectionError("the LISTEN connection is closed")
            try:
                async with asyncio.timeout(KEEPALIVE_S):
                    await conn.execute(query, *args)
            except BaseException:
                conn.terminate()
                raise

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
            before = per_origin.get(origin, (frozenset(), 0.0))[0]
            if seats:
                per_origin[origin] = (seats, time.monotonic())
            else:
                per_origin.pop(origin, None)
            if seats - before:  # a seat connected there: the proxy routes the room there now
                self._pending.setdefault(code, set()).add("a")
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
                self._listening = conn
                self.connected.set()
                delay = 0.5
                # Anything may have happened while nobody listened: catch up every watched room.
                for code in self.watched():
                    self._pending.setdefault(code, set()).update(("r", "g"))
                self._wake.set()
                while not lost.is_set():
                    await wait_event(lost, KEEPALIVE_S)
                    if not lost.is_set():
                        await self._on_listen_connection(conn, "SELECT 1")
                log.warning("the LISTEN connection was closed; reconnecting")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("LISTEN connection failed (%s); retrying in %.1f s", type(exc).__name__, delay)
            finally:
                self.connected.clear()
                self._listening = None
                if conn is not None:
                    with contextlib.suppress(Exception):
                        conn.terminate()
            await asyncio.sleep(delay)
            delay = min(delay * 2, RECONNECT_MAX_S)
