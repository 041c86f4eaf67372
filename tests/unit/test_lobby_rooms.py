"""The lobby list (`app/rooms.py` `lobby_rooms`) on a real SQLite database, in process:
only public waiting rooms with a free seat and someone around recently, newest first."""
from __future__ import annotations

import asyncio
from datetime import timedelta

from sqlalchemy import update

from app import rooms as R
from app.db import make_engine, make_sessionmaker
from app.models import Room, utcnow

IDLE_S = 600


async def lobby_of(sqlite_url: str, setup) -> list[dict]:
    """Run `setup(session)` (which creates rooms; committed here), then the lobby list."""
    engine = make_engine(sqlite_url)
    sessions = make_sessionmaker(engine)
    try:
        async with sessions() as session:
            busy = await setup(session)
            await session.commit()
        async with sessions() as session:
            return await R.lobby_rooms(session, IDLE_S, busy or set())
    finally:
        await engine.dispose()


async def room(session, name: str, *, public: bool = True, players: int = 1, age_s: float = 0,
               idle_s: float = 0) -> Room:
    made, _ = await R.create_room(session, name, public)
    for i in range(1, players):
        await R.join_room(session, made, f"{name}{i}")
    at = utcnow()
    await session.execute(update(Room).where(Room.id == made.id).values(
        created_at=at - timedelta(seconds=age_s), active_at=at - timedelta(seconds=idle_s)))
    return made


def test_only_open_public_rooms_are_listed_newest_first(sqlite_url):
    async def setup(session):
        await room(session, "Old", age_s=30, players=2)
        await room(session, "New", age_s=10)
        await room(session, "Private", public=False)
        await room(session, "Full", players=4)
        started = await room(session, "Started", players=2)
        await R.start_game(session, started)
        await room(session, "Idle", idle_s=IDLE_S + 60)
    listed = asyncio.run(lobby_of(sqlite_url, setup))
    assert [r["players"] for r in listed] == [["New"], ["Old", "Old1"]]
    assert [r["seats_free"] for r in listed] == [3, 2]
    assert all(r["status"] == "waiting" and r["url"] == f"/r/{r['code']}" for r in listed)


def test_an_idle_room_with_a_live_connection_stays_listed(sqlite_url):
    async def setup(session):
        idle = await room(session, "Watched", idle_s=IDLE_S * 10)
        await room(session, "Gone", idle_s=IDLE_S * 10)
        return {idle.code}
    listed = asyncio.run(lobby_of(sqlite_url, setup))
    assert [r["players"] for r in listed] == [["Watched"]]


def test_the_list_is_limited_after_filtering(sqlite_url):
    async def setup(session):
        for i in range(R.LOBBY_LIMIT):
            await room(session, f"Full{i}", players=4, age_s=0)   # newest, but never listed
        for i in range(3):
            await room(session, f"Open{i}", age_s=100 + i)
    listed = asyncio.run(lobby_of(sqlite_url, setup))
    assert [r["players"][0] for r in listed] == ["Open0", "Open1", "Open2"]
