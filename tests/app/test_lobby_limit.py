"""The lobby lists open rooms even when more than LOBBY_LIMIT (200) newer public rooms are full:
full and idle rooms are filtered out before the limit."""
from __future__ import annotations

import asyncio

import httpx

from .helpers import auth, create_room

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
                    return room["code"]
            return await asyncio.gather(*(full_room(i) for i in range(FULL_ROOMS)))

    full = set(asyncio.run(fill()))
    lobby = httpx.get(server.base_url + "/api/rooms").json()
    codes = [r["code"] for r in lobby]
    assert victim["code"] in codes
    assert not full & set(codes)
    assert all(r["seats_free"] > 0 and r["status"] == "waiting" for r in lobby)
