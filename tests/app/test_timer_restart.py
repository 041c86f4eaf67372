"""A turn timer's deadline is stored with the game (issue 12): a server killed with SIGKILL
before the deadline and started again after it still lets the computer player decide for the
seat (the server's clock against the stored deadline), logged as a time-out."""
from __future__ import annotations

import asyncio
import time

import httpx

from .helpers import Client, auth, create_room, join_room, start

TIMER = {"TURN_LIMIT_TEST_S": "2", "TIMER_POLL_S": "0.2", "BOT_DELAY_S": "0", "BOT_TIME_BUDGET_S": "0.05"}


def test_a_deadline_survives_a_restart(server_factory):
    a = server_factory(**TIMER)
    host = create_room(a.base_url, "Hana", public=False)
    code = host["code"]
    join_room(a.base_url, code, "Bob")
    r = httpx.post(f"{a.base_url}/api/rooms/{code}/timer", json={"turn_limit_s": 2}, headers=auth(host["token"]))
    assert r.status_code == 200 and r.json()["turn_limit_s"] == 2
    start(a.base_url, code, host["token"])
    a.kill()  # well before the first deadline (2 s after the start): nobody looks at it now
    time.sleep(2.5)
    b = server_factory(**TIMER)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        room = httpx.get(f"{b.base_url}/api/rooms/{code}").json()
        if room["version"] >= 1:
            break
        time.sleep(0.2)
    assert room["version"] >= 1, room  # two people, no computer player: only a time-out moves
    assert room["turn_limit_s"] == 2

    async def first_events():
        c = await Client.open(b.ws_url, code, host["token"], seat=0)
        history = await c.wait(lambda m: m["type"] == "history")
        await c.close()
        return history["events"]

    events = asyncio.run(first_events())
    assert events[0]["type"] == "timed_out" and events[0]["visible_to"] is None
