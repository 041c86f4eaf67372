"""Changes heard from other server processes (PostgreSQL, postgres.py): catch the room's table
up from the database (the action log is the truth) and tell this process's connections.

The common case, a room whose game moved and nothing else (kind "g" alone), is caught up for
many rooms at once (`RemoteChanges.catch_up_games`): their snapshots in one statement and their
new log rows in another, on one pooled connection without a transaction (reads only), released
before any room's lock is taken; then each room under its lock. Everything else goes room by
room (`on_change`), as does a game that started or ended, or any room the shared read does not
fit (docs/history/performance-log.md, "Two replicas: cheaper catch-up").
"""
from __future__ import annotations

import asyncio
import logging

from sqlalchemy.ext.asyncio import AsyncEngine

from ...store import games as store
from ..chat import Chat
from ..lobby import LobbyFeed
from ..outages import OutageLog
from ..room.lock import RoomGone, RoomLockMisuse, Tables
from ..room.table import Table, hint_frame
from ..sockets.connection import Hub
from .affinity import Affinity

log = logging.getLogger("osaka.fanout")
#: At most this many rooms are caught up with one shared read (`catch_up_games`).
BATCH_ROOMS = 100
#: ... and applied YIELD_EVERY at a time between passes to the event loop (a free lock is taken
#: without one: the actions of this process wait no longer than that for the catch-up).
YIELD_EVERY = 10


class RemoteChanges:
    """`on_changes` is the fan-out's callback (`RemoteBatch`, base.py)."""

    def __init__(self, db: AsyncEngine, hub: Hub, tables: Tables, lobby: LobbyFeed, chat: Chat | None = None,
                 affinity: Affinity | None = None):
        self.hub = hub
        self.affinity = affinity
        self.chat = chat
        self.tables = tables
        self.lobby = lobby
        self.db = db  # the shared read (catch_up_games) takes a connection of its own
        self._outage = OutageLog(log, "the catch-up with other processes")

    async def on_changes(self, changes: dict[str, set[str]]) -> None:
        """What was heard since the last call: room code → kinds (as in `on_change`). Rooms
        whose game moved and nothing else, in play here and watched here, are caught up
        together (`catch_up_games`, BATCH_ROOMS at a time); the others one by one
        (`on_change`). A failure is logged and ends only that room's (or batch's) catch-up."""
        games: list[Table] = []
        for code, kinds in changes.items():
            table = self.tables.get(code)
            if kinds == {"g"} and table is not None and table.state is not None and self.hub.of(code):
                games.append(table)
                continue
            await self._guarded(self.on_change(code, kinds), code)
        for i in range(0, len(games), BATCH_ROOMS):
            chunk = games[i:i + BATCH_ROOMS]
            await self._guarded(self.catch_up_games(chunk), ",".join(t.code for t in chunk))

    async def _guarded(self, work, what: str) -> None:
        try:
            await work
            self._outage.succeeded()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # an outage: one warning line; anything else: its traceback
            self._outage.failed(exc, f"catching up with room {what}")

    async def catch_up_games(self, tables: list[Table]) -> None:
        """Catch up the tables of rooms whose game moved elsewhere, with one read for all.

        The snapshots of all rooms (`store.read_snapshots`), then the log rows after each
        table's version (as it was before the read) up to its snapshot's (`store.read_logs`),
        on one connection in autocommit (no BEGIN/COMMIT: both statements only read; the log
        only grows, so rows up to a snapshot's version committed with it are there). The
        connection is given back before any lock is taken (the room-lock rule, room/lock.py).
        Then each room under its lock (`Held.sync(snapshot=, rows=)`: never a version skipped or
        applied twice, whatever the table did meanwhile), its connections told. A room whose game
        started or ended, was replaced, or that the rows read do not fit goes through
        `on_change` (its summary and the whole catch-up, read under its lock)."""
        before = {t.room_id: (t.version, t.seed) for t in tables}
        async with self.db.connect() as conn:
            conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
            snaps = await store.read_snapshots(conn, list(before))
            spans = [(rid, version, snaps[rid].version) for rid, (version, seed) in before.items()
                     if rid in snaps and snaps[rid].seed == seed and snaps[rid].version > version]
            logs = await store.read_logs(conn, spans)
        again: list[str] = []
        # Rooms whose lock is free first (one busy here, e.g. waiting for its group commit,
        # delays only those after it); a pass to the event loop every YIELD_EVERY rooms.
        for n, table in enumerate(sorted(tables, key=lambda t: t.lock.locked())):
            if n and not n % YIELD_EVERY:
                await asyncio.sleep(0)
            snap = snaps.get(table.room_id)
            if snap is None or snap.state is None or snap.seed != before[table.room_id][1] \
                    or (snap.status == "over" and snap.version > table.version):
                again.append(table.code)  # gone, another game, or over: the room's summary too
                continue
            try:
                async with self.tables.hold(table) as held:
                    if self.tables.get(table.code) is not table or table.state is None or table.seed != snap.seed:
                        again.append(table.code)
                        continue
                    held.publish(await held.sync(snapshot=snap, rows=logs.get(table.room_id, [])))
            except RoomLockMisuse:
                raise
            except RuntimeError:  # the rows read do not reach the table's version: read it alone
                again.append(table.code)
        for code in again:
            await self._guarded(self.on_change(code, {"g"}), code)

    async def on_change(self, code: str, kinds: set[str]) -> None:
        """Another process changed room `code` (`kinds` ⊆ {"g", "r", "p", "a", "c", "h"}: game, room,
        presence, a seat arrived there (affinity.py), chat, a hint — a chat message goes to this
        process's connections: `Chat.on_remote`):
        refresh the lobby on a room change; catch the table up and tell the room's connections
        here (the summary first when the room or presence changed, the game started or ended)."""
        if "r" in kinds or "p" in kinds:  # the lobby lists rooms with people present
            self.lobby.mark_dirty()
        table = self.tables.get(code)
        if table is not None and kinds & {"r", "p"}:
            table.forget_seats()  # a seat may have gone to or come back from a computer player
        if table is not None and "h" in kinds:
            table.hints_known = False  # a hint given there (app/live/hints.py): read at the catch-up
        if not self.hub.of(code):
            return  # nobody watches it here: the table catches up on its next use
        if "a" in kinds and self.affinity is not None and self.affinity.arrived_elsewhere(code) \
                and not self.hub.of(code):
            return  # its connections here were moved to where the room is served now
        if "c" in kinds and self.chat is not None:
            await self.chat.on_remote(code)
            if not kinds - {"c"}:
                return
        try:
            async with self.tables.hold(code) as held:
                clock = held.table.clock_key()
                news = await held.sync()
                room = news.room
                if room is None:  # deleted there while watched here: closed by the server's host
                    self.tables.publisher.closed(held.table)
                    return
                held.publish(news, summary=news.started or "r" in kinds or "p" in kinds
                             or (bool(news.caught) and room.status == "over"))
                held.restate(clock, news)  # a pause, a resume, an away moved the clock
                for v in news.hints:  # the seat's connections here get the hint given there
                    if v == held.table.version:
                        held.tell_seat(held.table.hints[v]["seat"], hint_frame(v, held.table.hints[v]))
        except RoomGone:
            return
