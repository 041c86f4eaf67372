"""A table brought up to date while another process moves the room on (app/live/room/held.py
`Held._load`): the snapshot and the log are two reads, and on PostgreSQL another process may
commit between them. Found by the full run: in `tests/app/test_rematch.py`'s crossed "play
again" over two processes, one process read the finished game's snapshot, the other then
played again (archiving that game, whose packed log is found only while it is the room's game),
and the first one's log read found nothing: a 500 (RuntimeError "the action log does not hold
versions 1..113"). SQLite cannot interleave so: every session holds its write lock."""
from __future__ import annotations

import asyncio

import pytest

import engine
from app.config import Settings
from app.store import games as store
from inprocess import auth, running
from test_remote_catch_up import _move
from test_timers import started_room


async def _finish(live, code: str) -> int:
    """Play the room's game to its end through `live` (legal moves) → its last version."""
    async with live.tables.hold(code) as held:
        held.publish(await held.sync())
    table = live.tables.get(code)
    while not engine.is_over(table.state):
        await _move(live, code)
    return table.version


@pytest.mark.postgresql_only
def test_a_room_played_again_elsewhere_between_the_snapshot_and_the_log_is_loaded_as_it_is_now(
        private_migrated_url, monkeypatch):
    settings = Settings(database_url=private_migrated_url, bot_delay_s=0, log_level="warning", timer_poll_s=3600)

    async def scenario():
        async with running(settings) as (a, http), running(settings) as (b, _):
            code, tokens = await started_room(http, 2, None)
            last = await _finish(a, code)   # over, and compacted into its `games` row
            read_log = store.read_log
            moved = []

            async def read_log_after_a_plays_again(session, room_id, after, upto):
                if not moved:  # B has read the finished game's snapshot; A plays again now
                    r = await http.post(f"/api/rooms/{code}/again", json={"game": 1}, headers=auth(tokens[1]))
                    assert r.status_code == 200 and r.json()["new"] is True, r.text
                    moved.append(upto)
                return await read_log(session, room_id, after, upto)

            monkeypatch.setattr(store, "read_log", read_log_after_a_plays_again)
            async with b.tables.hold(code) as held:   # B has no table of the room yet
                news = await held.sync()
            assert moved == [last]  # the log read came after the snapshot of the finished game
            # B holds the room as it is now: waiting for its second game, no game loaded.
            assert held.table.state is None and held.table.seed is None and not news.caught
            monkeypatch.setattr(store, "read_log", read_log)
            async with b.tables.hold(code) as held:
                room = (await held.sync()).room
            assert room.status == "waiting" and room.game_no == 2

    asyncio.run(scenario())
