"""One client churning spectator WebSocket connections (connect, close, again) does not stall
everyone else: room creation goes on, the churned room's players keep their presence, and the
lobby feed, recomputed at most every 0.5 s, still follows changes."""
from __future__ import annotations

import asyncio
import json
import time

import httpx
from websockets.asyncio.client import connect

from .helpers import Client, create_room, join_room

CHURNERS = 10
CHURN_S = 4.0


def test_connection_churn_does_not_stall_room_creation(server):
    host = create_room(server.base_url, "Churned", public=True)
    code = host["code"]
    join_room(server.base_url, code, "Second")

    async def scenario():
        seated = await Client.open(server.ws_url, code, host["token"], seat=0)
        await seated.wait(lambda m: m["type"] == "room")
        lobby = await connect(server.ws_url + "/ws/lobby")
        json.loads(await lobby.recv())
        stop = time.monotonic() + CHURN_S

        async def churner() -> int:
            n = 0
            while time.monotonic() < stop:
                async with connect(f"{server.ws_url}/ws/rooms/{code}"):
                    n += 1
            return n

        hosts: list[Client] = []

        async def creator() -> list[tuple[int, float, str]]:
            out = []
            async with httpx.AsyncClient(timeout=60) as http:
                while time.monotonic() < stop:
                    t = time.monotonic()
                    r = await http.post(server.base_url + "/api/rooms", json={"name": "P", "public": True})
                    out.append((r.status_code, time.monotonic() - t, r.json()["code"]))
                    # The lobby lists a room while its host is connected (docs/protocol.md).
                    hosts.append(await Client.open(server.ws_url, r.json()["code"], r.json()["token"], seat=0))
                    await asyncio.sleep(0.2)
            return out

        created, *counts = await asyncio.gather(creator(), *(churner() for _ in range(CHURNERS)))
        print(f"churned {sum(counts)} connections; {len(created)} creates, "
              f"max {max(s for _, s, _ in created):.2f} s")
        assert sum(counts) > CHURNERS and created
        assert all(status == 201 for status, _, _ in created)
        # The lobby feed (coalesced) ends up listing the rooms created during the churn.
        want = {c for _, _, c in created}
        while True:
            msg = json.loads(await asyncio.wait_for(lobby.recv(), 10))
            listed = {r["code"] for r in msg["rooms"]}
            if want <= listed:
                break
        assert code in listed
        # The seated player's presence survived all that: still connected, seen by a newcomer.
        newcomer = await Client.open(server.ws_url, code)
        room = await newcomer.wait(lambda m: m["type"] == "room")
        assert room["room"]["players"][0]["connected"] and not room["room"]["players"][1]["connected"]
        for c in (seated, newcomer, *hosts):
            await c.close()
        await lobby.close()

    asyncio.run(scenario())
