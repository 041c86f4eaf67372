"""Durability: a server killed with SIGKILL and restarted has every game exactly as the last
committed action left it (seed + action log replayed through the engine)."""
from __future__ import annotations

import asyncio
import random

import httpx

from .helpers import Client, new_game, pick_action


async def _open_all(server, code, tokens):
    clients = [await Client.open(server.ws_url, code, t, seat=i) for i, t in enumerate(tokens)]
    states = [await c.state(0) for c in clients]
    return clients, states


def test_sigkill_mid_game_loses_nothing(server_factory):
    a = server_factory()
    code, tokens = new_game(a.base_url, 3)
    rng = random.Random(11)

    async def before_kill():
        clients, _ = await _open_all(a, code, tokens)
        version = 0
        for _ in range(25):
            view = (await clients[0].state(version))["view"]
            actor = clients[view["to_act"]]
            await actor.act(version, pick_action((await actor.state(version))["view"], rng))
            version += 1
            await asyncio.gather(*(c.state(version) for c in clients))
        views = [(await c.state(version))["view"] for c in clients]
        # One more action sent, and the server is killed at once: it may or may not be in.
        view = (await clients[0].state(version))["view"]
        actor = clients[view["to_act"]]
        await actor.act(version, pick_action((await actor.state(version))["view"], rng))
        a.kill()
        seen = max(m["version"] for c in clients for m in c.msgs if m["type"] == "state")
        return version, views, seen

    version, views, seen = asyncio.run(before_kill())
    b = server_factory()
    room = httpx.get(f"{b.base_url}/api/rooms/{code}").json()
    assert room["status"] == "playing"
    assert room["version"] in (version, version + 1) and room["version"] >= seen

    async def after_restart():
        clients, states = await _open_all(b, code, tokens)
        for c in clients:
            await c.close()
        return states

    states = asyncio.run(after_restart())
    assert all(s["version"] == room["version"] for s in states)
    if room["version"] == version:
        assert [s["view"] for s in states] == views
    else:
        # The last action was committed: the game went on from the same position.
        assert [s["view"]["starting_hands"] for s in states] == [v["starting_hands"] for v in views]


def test_restart_twice_is_identical(server_factory):
    a = server_factory()
    code, tokens = new_game(a.base_url, 2)
    rng = random.Random(5)

    async def play_some(server, n):
        clients, states = await _open_all(server, code, tokens)
        version = states[0]["version"]
        for _ in range(n):
            view = (await clients[0].state(version))["view"]
            actor = clients[view["to_act"]]
            await actor.act(version, pick_action((await actor.state(version))["view"], rng))
            version += 1
        final = [await c.state(version) for c in clients]
        for c in clients:
            await c.close()
        return final

    before = asyncio.run(play_some(a, 15))
    a.kill()
    b = server_factory()
    after = asyncio.run(play_some(b, 0))
    assert [s["view"] for s in after] == [s["view"] for s in before]
    assert [s["version"] for s in after] == [15, 15]
    b.kill()
    c = server_factory()
    again = asyncio.run(play_some(c, 10))
    assert [s["version"] for s in again] == [25, 25]


async def _stored(url: str, code: str) -> tuple:
    """The room's stored (seed, num_players, version, state_version, state) and its log's
    (seat, action) in order."""
    from sqlalchemy import select

    from app.db import make_engine
    from app.models import ActionRow, Room
    db = make_engine(url)
    try:
        async with db.connect() as conn:
            room = (await conn.execute(select(Room.id, Room.seed, Room.num_players, Room.version, Room.state_version,
                                              Room.state).where(Room.code == code))).one()
            log = (await conn.execute(select(ActionRow.seat, ActionRow.action).where(ActionRow.room_id == room.id)
                                      .order_by(ActionRow.version))).all()
        return room, log
    finally:
        await db.dispose()


def _played(room, log, upto: int) -> dict:
    """The engine's state JSON after the first `upto` actions of the stored log, from the seed."""
    import engine
    state = engine.new_game(room.num_players, room.seed)
    for seat, action in log[:upto]:
        state, _ = engine.play(state, seat, engine.action_from_json(action))
    return state.to_json()


def test_a_restart_between_two_snapshots_plays_the_actions_after_the_last_one_again(server_factory):
    """The snapshot is stored every eighth action (app/store/games.py `snapshot_due`): killed
    at version 13, the room holds the state of version 8 and says so; the next server plays
    9..13 again, every seat sees exactly what it saw before, and the game goes on; at 16 the
    stored state is the one the whole log reaches from the seed."""
    a = server_factory()
    code, tokens = new_game(a.base_url, 2)
    rng = random.Random(5)

    async def moves(server, start: int, upto: int):
        clients, _ = await _open_all(server, code, tokens)
        for version in range(start, upto):
            view = (await clients[0].state(version))["view"]
            actor = clients[view["to_act"]]
            await actor.act(version, pick_action((await actor.state(version))["view"], rng))
            await asyncio.gather(*(c.state(version + 1) for c in clients))
        views = [(await c.state(upto))["view"] for c in clients]
        for c in clients:
            await c.close()
        return views

    views = asyncio.run(moves(a, 0, 13))
    room, log = asyncio.run(_stored(a.database_url, code))
    assert (room.version, room.state_version) == (13, 8)
    assert room.state == _played(room, log, 8) != _played(room, log, 13)
    a.kill()

    b = server_factory()

    async def arrive():
        clients, states = await _open_all(b, code, tokens)
        for c in clients:
            await c.close()
        return [s["view"] for s in states]

    assert asyncio.run(arrive()) == views
    asyncio.run(moves(b, 13, 16))
    room, log = asyncio.run(_stored(b.database_url, code))
    assert (room.version, room.state_version) == (16, None)
    assert room.state == _played(room, log, 16)
