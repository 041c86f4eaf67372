"""The watched stamp (app/notify/watch.py `stamp`) on a real database, SQLite and PostgreSQL:
thousands of seats at once are stamped and cleared exactly, with nothing else touched. With
an OR of one AND per seat, SQLite refused it from about 1,000 seats ("Expression tree is too
large") and the notification loop retried it after every action (half a busy server's CPU)."""
from __future__ import annotations

import asyncio
from datetime import datetime

from sqlalchemy import insert, select

from app.db import make_engine, make_sessionmaker
from app.models import Room, Seat
from app.notify import watch

ROOMS = 1600  # 6,400 seats; 4,800 stamped: more than one STAMP_BATCH, past SQLite's expression depth


def test_thousands_of_seats_are_stamped_and_cleared_exactly(private_migrated_url):
    async def run():
        engine = make_engine(private_migrated_url)
        sessions = make_sessionmaker(engine)
        try:
            async with sessions() as s:
                await s.execute(insert(Room), [{"code": f"W{i:07d}", "status": "playing"} for i in range(ROOMS)])
                ids = dict((await s.execute(select(Room.code, Room.id))).all())
                await s.execute(insert(Seat), [{"room_id": ids[f"W{i:07d}"], "seat": n, "name": f"P{n}"}
                                               for i in range(ROOMS) for n in range(4)])
                await s.commit()
            everyone = {(f"W{i:07d}", n) for i in range(ROOMS) for n in range(4)}
            chosen = {(c, n) for c, n in everyone if (int(c[1:]) + n) % 4 != 0}
            now = datetime(2026, 12, 3, 12, 0, 0)
            async with sessions() as s:
                await watch.stamp(s, chosen, now)
                await s.commit()

            async def stamped() -> set[tuple[str, int]]:
                async with sessions() as s:
                    rows = await s.execute(select(Room.code, Seat.seat).join(Room, Room.id == Seat.room_id)
                                           .where(Seat.watched_at.is_not(None)))
                    return set(rows.all())
            assert await stamped() == chosen and len(chosen) > watch.STAMP_BATCH
            gone = {p for p in chosen if p[1] == 0}
            async with sessions() as s:
                await watch.stamp(s, gone, None)
                await watch.stamp(s, set(), now)  # nothing to do: no statement
                await s.commit()
            assert await stamped() == chosen - gone
        finally:
            await engine.dispose()
    asyncio.run(run())
