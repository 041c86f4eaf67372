"""The cleanup never waits for a room row (app/live/room/cleanup.py, `models.unlocked`): with several
processes on PostgreSQL, another process's group commit may hold a room's row while it waits
for one the cleanup holds; PostgreSQL then aborts one of them (found at 1,000 rooms behind two
replicas, bench/proxy_load.py). A row locked elsewhere is skipped and stamped next time."""
from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import create_async_engine

from app.config import Settings
from app.models import Room, utcnow
from inprocess import running


@pytest.mark.postgresql_only
def test_the_cleanup_skips_a_room_row_another_transaction_holds(private_migrated_url):
    settings = Settings(database_url=private_migrated_url, bot_delay_s=0, log_level="warning")

    async def scenario():
        db = create_async_engine(private_migrated_url)
        try:
            async with running(settings) as (live, http):
                codes = [(await http.post("/api/rooms", json={"name": f"P{i}", "public": False})).json()["code"]
                         for i in range(3)]
                held, free, idle = codes
                live.hub.busy_rooms = lambda: {held, free}   # connections here
                live.presence.idle_since[idle] = utcnow()    # its last connection left
                before = await _active_at(db, codes)
                async with db.connect() as other:  # another process, in the middle of a commit
                    await other.execute(text("BEGIN"))
                    await other.execute(select(Room.id).where(Room.code.in_([held, idle])).with_for_update())
                    await asyncio.wait_for(live.cleanup_once(), 10)  # does not wait for `other`
                    await other.rollback()
                after = await _active_at(db, codes)
                assert after[held] == before[held] and after[idle] == before[idle]  # skipped
                assert after[free] > before[free]
                live.presence.idle_since[idle] = stamp = utcnow()
                await live.cleanup_once()  # nobody holds them now
                again = await _active_at(db, codes)
                assert again[held] > after[held] and again[idle] == stamp
        finally:
            await db.dispose()

    asyncio.run(scenario())


async def _active_at(db, codes: list[str]) -> dict:
    async with db.connect() as conn:
        rows = (await conn.execute(select(Room.code, Room.active_at).where(Room.code.in_(codes)))).all()
    return {r.code: r.active_at for r in rows}
