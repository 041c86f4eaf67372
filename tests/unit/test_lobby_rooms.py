"""The lobby list (`app/lobby.py` `lobby_rooms`) on a real SQLite database, in process: only
public waiting rooms with a free seat and a seated person connected, ranked by people present
and the latest join, every creating address's best room first, at most `per_creator` of one."""
from __future__ import annotations

import asyncio
from datetime import timedelta

from sqlalchemy import update

from app import lobby as L
from app import rooms as R
from app.db import make_engine, make_sessionmaker
from app.models import Room, Seat, utcnow


async def lobby_of(sqlite_url: str, setup, per_creator: int = 0) -> list[dict]:
    """Run `setup(session)` (creates rooms; committed here; returns code → people present),
    then the lobby list."""
    engine = make_engine(sqlite_url)
    sessions = make_sessionmaker(engine)
    try:
        async with sessions() as session:
            present = await setup(session)
            await session.commit()
        async with sessions() as session:
            return await L.lobby_rooms(session, present, per_creator)
    finally:
        await engine.dispose()


async def room(session, name: str, *, public: bool = True, players: int = 1, joined_s_ago: float = 0,
               creator: str | None = None) -> Room:
    """A room of `players` people whose last one joined `joined_s_ago` seconds ago."""
    made, _ = await R.create_room(session, name, public, creator)
    for i in range(1, players):
        await R.join_room(session, made, f"{name}{i}")
    await session.flush()
    await session.execute(update(Seat).where(Seat.room_id == made.id).values(
        created_at=utcnow() - timedelta(seconds=joined_s_ago)))
    return made


def test_only_open_public_rooms_with_people_present_are_listed(sqlite_url):
    async def setup(session):
        rooms = {
            "Two": await room(session, "Two", players=2, joined_s_ago=50),
            "Old": await room(session, "Old", joined_s_ago=40),
            "New": await room(session, "New", joined_s_ago=10),
            "Private": await room(session, "Private", public=False),
            "Full": await room(session, "Full", players=4),
            "Started": await room(session, "Started", players=2),
        }
        await R.start_game(session, rooms["Started"])
        await room(session, "Alone")  # nobody connected: never listed
        present = {name: 1 for name in rooms}
        present["Two"] = 2
        return {rooms[name].code: n for name, n in present.items()}
    listed = asyncio.run(lobby_of(sqlite_url, setup))
    # More people present first, then the latest join.
    assert [r["players"][0] for r in listed] == ["Two", "New", "Old"]
    assert [(r["present"], r["seats_free"]) for r in listed] == [(2, 2), (1, 3), (1, 3)]
    assert all(r["status"] == "waiting" and r["url"] == f"/r/{r['code']}" for r in listed)


def test_one_address_cannot_fill_the_lobby(sqlite_url):
    async def setup(session):
        present = {}
        for i in range(6):  # the spammer's rooms are newer and fuller
            made = await room(session, f"Spam{i}", players=3, joined_s_ago=i, creator="spammer")
            present[made.code] = 3
        for name, creator, ago in (("Ann", "a", 100), ("Ben", "b", 110)):
            made = await room(session, name, joined_s_ago=ago, creator=creator)
            present[made.code] = 1
        return present
    listed = asyncio.run(lobby_of(sqlite_url, setup, per_creator=2))
    # Every address's best room first (by the ranking), then the second ones: at most 2 of one.
    assert [r["players"][0] for r in listed] == ["Spam0", "Ann", "Ben", "Spam1"]


def test_the_list_is_limited_after_filtering(sqlite_url):
    async def setup(session):
        present = {}
        for i in range(L.LOBBY_LIMIT):
            full = await room(session, f"Full{i}", players=4)   # fuller and newer, but never listed
            present[full.code] = 4
        for i in range(3):
            made = await room(session, f"Open{i}", joined_s_ago=100 + i)
            present[made.code] = 1
        return present
    listed = asyncio.run(lobby_of(sqlite_url, setup))
    assert [r["players"][0] for r in listed] == ["Open0", "Open1", "Open2"]
