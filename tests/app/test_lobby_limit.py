"""The lobby lists open rooms even when more than LOBBY_LIMIT (200) newer public rooms with their
hosts connected are full: full rooms are filtered out before the limit."""
from __future__ import annotations

import asyncio

import httpx

from .helpers import Client, auth, create_room

FULL_ROOMS = 205


def test_many_full_public_rooms_do_not_hide_an_open_one(server):
    victim = create_room(server.base_url, "Open", public=True)

    async def fill():
        sem = asyncio.Semaphore(8)
        async with httpx.AsyncClient(base_url=server.base_url, timeout=60) as http:
            async def full_room(i: int) -> str:
                async with sem:
                    r = await http.post("/api/rooms", json={"name": f"F{i}", "public": True})
                    assert r.status_code == 201, r.text
                    room = r.json()
                    for _ in range(3):
                        b = await http.post(f"/api/rooms/{room['code']}/bots", json={"level": "easy"},
                                            headers=auth(room["token"]))
                        assert b.status_code == 200, b.text
                    return room
            return await asyncio.gather(*(full_room(i) for i in range(FULL_ROOMS)))

    async def scenario():
        host = await Client.open(server.ws_url, victim["code"], victim["token"], seat=0)
        await host.wait(lambda m: m["type"] == "room")
        rooms = await fill()
        # Their hosts are connected too, so only "full" keeps them out of the lobby.
        hosts = [await Client.open(server.ws_url, r["code"], r["token"], seat=0) for r in rooms]
        for c in hosts:
            await c.wait(lambda m: m["type"] == "room")
        lobby = (await asyncio.to_thread(httpx.get, server.base_url + "/api/rooms")).json()
        for c in [host, *hosts]:
            await c.close()
        return {r["code"] for r in rooms}, lobby

    full, lobby = asyncio.run(scenario())
    codes = [r["code"] for r in lobby]
    assert victim["code"] in codes
    assert not full & set(codes)
    assert all(r["seats_free"] > 0 and r["status"] == "waiting" for r in lobby)
