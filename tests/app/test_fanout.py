"""Several server processes on one PostgreSQL database (LISTEN/NOTIFY, app/live/fanout/base.py):
a move made through one process reaches the players connected to another within a couple of
seconds, and so do joins, the start, presence and the lobby. SQLite is one process only."""
from __future__ import annotations

import asyncio
import json
import random

import httpx
import pytest
from websockets.asyncio.client import connect

from .helpers import Client, auth, create_room, join_room, pick_action, start

PROPAGATION_S = 5  # generous for a loaded test machine; NOTIFY is delivered in milliseconds


pytestmark = pytest.mark.postgresql_only


@pytest.fixture
def two_servers(migrated_url, server_factory):
    assert migrated_url.startswith("postgresql"), "several processes need PostgreSQL"
    return server_factory(), server_factory()


def test_moves_joins_and_start_reach_the_other_process(two_servers):
    a, b = two_servers
    host = create_room(a.base_url, "OnA", public=False)
    code = host["code"]

    async def scenario():
        # A spectator on B of the waiting room hears of a join made through A.
        watcher = await Client.open(b.ws_url, code)
        await watcher.wait(lambda m: m["type"] == "room")
        guest = join_room(a.base_url, code, "OnB")
        room = await watcher.wait(lambda m: m["type"] == "room" and len(m["room"]["players"]) == 2,
                                  timeout=PROPAGATION_S)
        assert [p["name"] for p in room["room"]["players"]] == ["OnA", "OnB"]
        # Seat 1 plays on B, seat 0 on A; B's presence shows on A.
        on_b = await Client.open(b.ws_url, code, guest["token"], seat=1)
        await on_b.wait(lambda m: m["type"] == "room")
        on_a = await Client.open(a.ws_url, code, host["token"], seat=0)
        seen = await on_a.wait(lambda m: m["type"] == "room" and m["room"]["players"][1]["connected"],
                               timeout=PROPAGATION_S)
        assert seen["room"]["players"][0]["connected"]
        # The start through A reaches B: history and state.
        start(a.base_url, code, host["token"])
        await on_b.state(0, timeout=PROPAGATION_S)
        await watcher.state(0, timeout=PROPAGATION_S)
        rng = random.Random(3)
        clients = {0: on_a, 1: on_b}
        for version in range(6):  # alternate whoever must decide; each move reaches the other process
            st = await on_a.state(version, timeout=PROPAGATION_S)
            actor = clients[st["view"]["to_act"]]
            other = clients[1 - actor.seat]
            mine = await actor.state(version, timeout=PROPAGATION_S)
            await actor.act(version, pick_action(mine["view"], rng))
            ev = await other.wait(lambda m: m["type"] == "event" and m["version"] == version + 1,
                                  timeout=PROPAGATION_S)
            assert ev["events"]
            assert (await other.state(version + 1, timeout=PROPAGATION_S))["version"] == version + 1
            await watcher.state(version + 1, timeout=PROPAGATION_S)
        # Every version was told once to each connection, in order.
        for c in (on_a, on_b, watcher):
            assert [m["version"] for m in c.msgs if m["type"] == "event"] == list(range(1, 7))
        # A seat disconnecting on B shows as gone on A.
        await on_b.close()
        await on_a.wait(lambda m: m["type"] == "room" and not m["room"]["players"][1]["connected"],
                        timeout=PROPAGATION_S)
        for c in (on_a, watcher):
            await c.close()

    asyncio.run(scenario())
    assert httpx.get(f"{b.base_url}/api/rooms/{code}").json()["version"] == 6


def test_lobby_of_the_other_process_follows(two_servers):
    a, b = two_servers

    async def scenario():
        async with connect(b.ws_url + "/ws/lobby") as lobby:
            json.loads(await lobby.recv())
            host = create_room(a.base_url, "Listed", public=True)
            # Listed while its host is connected, to A: B hears of the presence (NOTIFY "p").
            seated = await Client.open(a.ws_url, host["code"], host["token"], seat=0)

            async def until(pred):
                while True:
                    msg = json.loads(await asyncio.wait_for(lobby.recv(), PROPAGATION_S))
                    if msg["type"] == "rooms" and pred({r["code"]: r for r in msg["rooms"]}):
                        return msg

            await until(lambda rooms: host["code"] in rooms)
            join_room(a.base_url, host["code"], "Second")
            await until(lambda rooms: rooms.get(host["code"], {}).get("players") == ["Listed", "Second"])
            r = httpx.post(f"{a.base_url}/api/rooms/{host['code']}/bots", json={"level": "easy"},
                           headers=auth(host["token"]))
            assert r.status_code == 200
            start(a.base_url, host["code"], host["token"])
            await until(lambda rooms: host["code"] not in rooms)
            await seated.close()

    asyncio.run(scenario())


def test_listener_reconnects_after_its_connection_is_killed(two_servers):
    a, b = two_servers
    host = create_room(a.base_url, "OnA", public=False)
    code = host["code"]
    guest = join_room(a.base_url, code, "OnB")
    start(a.base_url, code, host["token"])

    async def kill_listeners() -> int:
        import asyncpg
        dsn = a.database_url.replace("postgresql+asyncpg://", "postgresql://", 1)
        conn = await asyncpg.connect(dsn)
        try:
            return len(await conn.fetch(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE application_name = 'osaka-listen' AND datname = current_database()"))
        finally:
            await conn.close()

    async def scenario():
        on_a = await Client.open(a.ws_url, code, host["token"], seat=0)
        on_b = await Client.open(b.ws_url, code, guest["token"], seat=1)
        await on_a.state(0)
        await on_b.state(0)
        assert await kill_listeners() >= 2  # one per process (the session server too)
        # After the reconnect (backoff from 0.5 s), moves on A reach B again.
        rng = random.Random(8)
        clients = {0: on_a, 1: on_b}
        for version in range(2):
            st = await on_a.state(version, timeout=PROPAGATION_S * 3)
            actor = clients[st["view"]["to_act"]]
            mine = await actor.state(version, timeout=PROPAGATION_S * 3)
            await actor.act(version, pick_action(mine["view"], rng))
            await clients[1 - actor.seat].state(version + 1, timeout=PROPAGATION_S * 3)
        for c in (on_a, on_b):
            await c.close()

    asyncio.run(scenario())
