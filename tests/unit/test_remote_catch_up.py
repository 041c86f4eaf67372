"""Several processes on PostgreSQL (app/live/fanout/remote.py): what one process hears of games moved
in another is caught up for many rooms with one shared read (two statements on one pooled
connection, whatever the number of rooms), each room then under its lock, and every connection
gets each new version exactly once, in order, also when the table moved between the read and
the lock (docs/history/performance-log.md, "Two replicas: cheaper catch-up")."""
from __future__ import annotations

import asyncio
import json
import uuid

import pytest
from sqlalchemy import event

import engine
from app.config import Settings
from app.store import games as store
from inprocess import running
from test_timers import started_room, wait_for

ROOMS = 6


class Recorder:
    """A stand-in for a room connection of process A: keeps the frames sent to it."""

    def __init__(self, room: str, seat: int):
        self.room, self.seat, self.root, self.closed = room, seat, "", False
        self.frames: list[dict] = []

    def send(self, msg) -> None:
        self.frames.append(json.loads(msg) if isinstance(msg, str) else msg)

    def drop(self, *_args) -> None:
        self.closed = True

    def holds(self, seat, holders) -> bool:
        """It connected with the token of the seat's holder (`Connection.holds`)."""
        return seat == self.seat


async def _move(live, code: str) -> None:
    """One legal move in room `code` through `live` (its table is current)."""
    table = live.tables.get(code)
    seat = table.state.to_act
    action = engine.legal_actions(table.state, seat)[0].to_json()
    assert await live.actions.act(code, seat, uuid.uuid4().hex, table.version, action)


@pytest.mark.postgresql_only
def test_games_moved_elsewhere_are_caught_up_with_one_read_and_each_version_sent_once(
        private_migrated_url, monkeypatch):
    settings = Settings(database_url=private_migrated_url, bot_delay_s=0, log_level="warning", timer_poll_s=3600)

    async def scenario():
        async with running(settings) as (a, http), running(settings) as (b, _):
            codes = [(await started_room(http, 2, None))[0] for _ in range(ROOMS)]
            heard: dict[str, set[str]] = {}

            async def hear(changes):  # A's own catch-up is called by the test below
                for code, kinds in changes.items():
                    heard.setdefault(code, set()).update(kinds)
            a.fanout.on_remote = hear
            seen: dict[str, list[Recorder]] = {}
            for code in codes:
                for live in (a, b):
                    async with live.tables.hold(code) as held:
                        held.publish(await held.sync())
                seen[code] = [Recorder(code, seat) for seat in (0, 1)]
                for rec in seen[code]:
                    a.hub.add(rec)
            start = {code: a.tables.get(code).version for code in codes}
            for i, code in enumerate(codes):
                for _ in range(1 + i % 3):  # 1 to 3 moves per room
                    await _move(b, code)
            await wait_for(lambda: asyncio.sleep(0, set(codes) <= set(heard)))
            assert all(heard[code] == {"g"} for code in codes)

            # Between the shared read and the rooms' locks, room 0's table catches up on its own
            # (its connections are told then) and room 1 moves once more elsewhere.
            read_logs = store.read_logs

            async def read_then_race(conn, spans):
                rows = await read_logs(conn, spans)
                async with a.tables.hold(codes[0]) as held:
                    held.publish(await held.sync())
                await _move(b, codes[1])
                return rows
            monkeypatch.setattr(store, "read_logs", read_then_race)

            statements, checkouts = [], []
            db = a.sessions.kw["bind"].sync_engine
            me = asyncio.current_task()  # what A's background tasks read does not count

            def count(*args):
                if asyncio.current_task() is me:
                    statements.append(args[2])

            def take(*_args):
                if asyncio.current_task() is me:
                    checkouts.append(1)
            event.listen(db, "before_cursor_execute", count)
            event.listen(db.pool, "checkout", take)
            await a.remote.on_changes({code: {"g"} for code in codes})
            event.remove(db, "before_cursor_execute", count)
            event.remove(db.pool, "checkout", take)
            # The shared read (2 statements, 1 connection) and room 0's own catch-up in the middle
            # (4: the room, its seats, its snapshot and log; 1 connection; the batch then applies
            # nothing there): no statement per room (one by one: 4 per room, 24 here).
            assert len(checkouts) == 2, statements
            assert len(statements) == 6, statements

            for i, code in enumerate(codes):
                moved = 1 + i % 3
                assert a.tables.get(code).version == start[code] + moved  # room 1: its last move not yet heard
                assert a.tables.get(code).version == b.tables.get(code).version - (1 if i == 1 else 0)
                for rec in seen[code]:
                    events = [f["version"] for f in rec.frames if f["type"] == "event"]
                    assert events == list(range(start[code] + 1, start[code] + moved + 1)), (code, rec.frames)
                    assert rec.frames[-1]["type"] == "state" and rec.frames[-1]["version"] == start[code] + moved

            # Room 1's last move, heard later, is caught up alone and sent once.
            monkeypatch.setattr(store, "read_logs", read_logs)
            await a.remote.on_changes({codes[1]: {"g"}})
            assert a.tables.get(codes[1]).version == b.tables.get(codes[1]).version
            for rec in seen[codes[1]]:
                events = [f["version"] for f in rec.frames if f["type"] == "event"]
                assert events == list(range(start[codes[1]] + 1, b.tables.get(codes[1]).version + 1))

    asyncio.run(scenario())
