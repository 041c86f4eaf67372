"""A game cannot stall on a player whose browser lost its seat: besides the host (at once),
any connected seated player may hand a seat to a computer player once it has been offline
HANDOVER_AFTER_S seconds (docs/protocol.md, `POST /api/rooms/{code}/seats/{seat}/bot`)."""
from __future__ import annotations

import asyncio
import time

import httpx

from .helpers import Client, auth, create_room, join_room, start

FAST = {"BOT_DELAY_S": "0", "BOT_TIME_BUDGET_S": "0.05", "BOT_WORKERS": "1", "HANDOVER_AFTER_S": "3"}
RESTART_HANDOVER_S = 600
DOWN_S = 5


# Long enough that the "too early" step comes before it runs out on a busy machine.
DELAY_S = 10


def test_any_player_hands_an_offline_seat_to_a_bot_after_the_delay(server_factory):
    srv = server_factory(**{**FAST, "HANDOVER_AFTER_S": str(DELAY_S)})
    host = create_room(srv.base_url, "Host", public=False)
    code = host["code"]
    bob = join_room(srv.base_url, code, "Bob")
    carol = join_room(srv.base_url, code, "Carol")
    start(srv.base_url, code, host["token"])
    def post(token, seat=1):
        return httpx.post(f"{srv.base_url}/api/rooms/{code}/seats/{seat}/bot", json={"level": "easy"},
                          headers=auth(token))

    async def scenario():
        b = await Client.open(srv.ws_url, code, bob["token"], seat=1)
        await b.state(0)
        # Carol has no live connection herself: she may not hand the (offline) host's seat over.
        r = await asyncio.to_thread(post, carol["token"], 0)
        assert r.status_code == 403 and r.json()["error"]["code"] == "not_connected"
        c = await Client.open(srv.ws_url, code, carol["token"], seat=2)
        await c.state(0)
        # Bob is connected: nobody may take his seat.
        r = await asyncio.to_thread(post, carol["token"])
        assert r.status_code == 409 and r.json()["error"]["code"] == "seat_connected"
        await b.close()
        gone = await c.wait(lambda m: m["type"] == "room" and not m["room"]["players"][1]["connected"])
        assert gone["room"]["handover_after_s"] == DELAY_S
        assert gone["room"]["players"][1]["offline_s"] is not None
        assert gone["room"]["players"][2]["offline_s"] is None  # Carol herself is connected
        # Too early for Carol: 403 not_yet, the field retry_after_s says how many seconds are left.
        r = await asyncio.to_thread(post, carol["token"])
        assert r.status_code == 403 and r.json()["error"]["code"] == "not_yet"
        left = r.json()["error"]["retry_after_s"]
        assert isinstance(left, int) and 1 <= left <= DELAY_S
        # The server's own count, not a guess: wait until the summary says the delay is over.
        while True:
            room = (await asyncio.to_thread(httpx.get, f"{srv.base_url}/api/rooms/{code}")).json()
            if room["players"][1]["offline_s"] >= DELAY_S:
                break
            await asyncio.sleep(0.25)
        r = await asyncio.to_thread(post, carol["token"])
        assert r.status_code == 200 and r.json() == {"seat": 1}
        await c.wait(lambda m: m["type"] == "room" and m["room"]["players"][1]["bot"]
                     and m["room"]["players"][1]["bot_level"] == "easy")
        # Bob's stand-in plays on: Carol may not change its level (409 bot_plays_seat: an
        # opponent could make an absent player's computer easy; a break test found it allowed);
        # the host may.
        r = await asyncio.to_thread(lambda: httpx.post(f"{srv.base_url}/api/rooms/{code}/seats/1/bot",
                                                       json={"level": "hard"}, headers=auth(carol["token"])))
        assert r.status_code == 409 and r.json()["error"]["code"] == "bot_plays_seat", r.text
        room = (await asyncio.to_thread(httpx.get, f"{srv.base_url}/api/rooms/{code}")).json()
        assert room["players"][1]["bot_level"] == "easy"
        r = await asyncio.to_thread(lambda: httpx.post(f"{srv.base_url}/api/rooms/{code}/seats/1/bot",
                                                       json={"level": "hard"}, headers=auth(host["token"])))
        assert r.status_code == 200, r.text
        await c.wait(lambda m: m["type"] == "room" and m["room"]["players"][1]["bot_level"] == "hard")
        await c.close()

    asyncio.run(scenario())


def test_host_removes_a_computer_player_before_the_start_only(server):
    base = server.base_url
    host = create_room(base, "Host", public=False)
    code = host["code"]
    bob = join_room(base, code, "Bob")
    r = httpx.post(f"{base}/api/rooms/{code}/bots", json={"level": "hard"}, headers=auth(host["token"]))
    assert r.status_code == 200 and r.json() == {"seat": 2}
    url = f"{base}/api/rooms/{code}/seats"

    def err(r, status, code_):
        assert r.status_code == status and r.json()["error"]["code"] == code_, r.text

    err(httpx.delete(f"{url}/2", headers=auth(bob["token"])), 403, "not_host")
    err(httpx.delete(f"{url}/0", headers=auth(host["token"])), 409, "host_cannot_leave")
    err(httpx.delete(f"{url}/3", headers=auth(host["token"])), 404, "seat_not_found")
    r = httpx.delete(f"{url}/2", headers=auth(host["token"]))
    assert r.status_code == 200 and r.json() == {"seat": 2}
    players = httpx.get(f"{base}/api/rooms/{code}").json()["players"]
    assert [(p["seat"], p["name"], p["bot"]) for p in players] == [(0, "Host", False), (1, "Bob", False)]
    # The freed seat is taken again by the next computer player; after the start, no removal.
    r = httpx.post(f"{base}/api/rooms/{code}/bots", json={"level": "easy"}, headers=auth(host["token"]))
    assert r.json() == {"seat": 2}
    start(base, code, host["token"])
    err(httpx.delete(f"{url}/2", headers=auth(host["token"])), 409, "game_started")


def test_after_a_restart_even_the_host_waits_for_a_seat_not_back_yet(server_factory):
    """A restart is not a player leaving: a seat without a connection since the server started
    counts as offline from the start only (`since_start`), and the host too waits
    HANDOVER_AFTER_S for it; once it was seen leaving, the host may hand it over at once.
    HANDOVER_AFTER_S is long here, so that a slow start of the new server on a busy machine
    does not use it up; DOWN_S apart is the time no server ran."""
    slow = {**FAST, "HANDOVER_AFTER_S": str(RESTART_HANDOVER_S)}
    a = server_factory(**slow)
    host = create_room(a.base_url, "Host", public=False)
    code = host["code"]
    bob = join_room(a.base_url, code, "Bob")
    start(a.base_url, code, host["token"])

    async def both_there():
        clients = [await Client.open(a.ws_url, code, t, seat=i) for i, t in enumerate((host["token"], bob["token"]))]
        for c in clients:
            await c.state(0)
        a.kill()  # the server goes away while both are connected

    asyncio.run(both_there())
    time.sleep(DOWN_S)  # no server runs: this time is not Bob's to be counted offline
    spawned = time.monotonic()
    b = server_factory(**slow)

    def post():
        return httpx.post(f"{b.base_url}/api/rooms/{code}/seats/1/bot", json={"level": "easy"},
                          headers=auth(host["token"]))

    async def after_restart():
        h = await Client.open(b.ws_url, code, host["token"], seat=0)
        await h.state(0)
        bob_seat = (await asyncio.to_thread(httpx.get, f"{b.base_url}/api/rooms/{code}")).json()["players"][1]
        since_spawn = time.monotonic() - spawned
        assert not bob_seat["connected"] and bob_seat["since_start"] is True
        # Counted from the restart, not from before it (that would be DOWN_S more).
        assert bob_seat["offline_s"] <= since_spawn + 1, (bob_seat, since_spawn)
        r = await asyncio.to_thread(post)
        assert r.status_code == 403 and r.json()["error"]["code"] == "not_yet", r.text
        since_spawn = time.monotonic() - spawned
        assert RESTART_HANDOVER_S - since_spawn - 1 <= r.json()["error"]["retry_after_s"] <= RESTART_HANDOVER_S
        # Bob comes back and leaves again: now his leaving was seen, the host may act at once.
        n = len(h.msgs)
        c = await Client.open(b.ws_url, code, bob["token"], seat=1)
        await c.state(0)
        await c.close()
        gone = await h.wait(lambda m: m["type"] == "room" and not m["room"]["players"][1]["connected"]
                            and m["room"]["players"][1]["offline_s"] is not None, start=n)
        assert gone["room"]["players"][1]["since_start"] is False
        assert gone["room"]["players"][0]["since_start"] is False  # the host is connected
        r = await asyncio.to_thread(post)
        assert r.status_code == 200 and r.json() == {"seat": 1}, r.text
        await h.close()

    asyncio.run(after_restart())
