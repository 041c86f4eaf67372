"""Computer players driven by the server: whole games, a seat handed to a bot and taken back,
and bots resuming after a restart. Bots act through the same path as people."""
from __future__ import annotations

import asyncio
import random
import time

import httpx

from .helpers import Client, auth, check_no_secrets, create_room, join_room, pick_action, room_log, start

FAST = {"BOT_DELAY_S": "0", "BOT_TIME_BUDGET_S": "0.05", "BOT_WORKERS": "1"}


def _room(server, code):
    return httpx.get(f"{server.base_url}/api/rooms/{code}").json()


async def _human_plays_until_over(server, code, token, seat, rng, limit_s=240):
    """One human plays view-derived legal actions while the bots play theirs."""
    c = await Client.open(server.ws_url, code, token, seat=seat)
    deadline = time.monotonic() + limit_s
    version = -1
    while time.monotonic() < deadline:
        st = await c.state(version + 1, timeout=60)
        version, view = st["version"], st["view"]
        if view["phase"] == "over":
            break
        if view["to_act"] == seat:
            await c.act(version, pick_action(view, rng))
    else:
        raise AssertionError("the game did not end in time")
    await c.close()
    return c, st


def test_game_with_three_bots_is_played_to_the_end(server_factory):
    srv = server_factory(**FAST)
    host = create_room(srv.base_url, "Human")
    code = host["code"]
    for level in ("easy", "normal", "hard"):
        r = httpx.post(f"{srv.base_url}/api/rooms/{code}/bots", json={"level": level}, headers=auth(host["token"]))
        assert r.status_code == 200
    start(srv.base_url, code, host["token"])
    client, final = asyncio.run(_human_plays_until_over(srv, code, host["token"], 0, random.Random(2)))
    assert final["view"]["winners"]
    room = _room(srv, code)
    assert room["status"] == "over" and room["version"] == final["version"]
    assert [p["bot_level"] for p in room["players"]] == [None, "easy", "normal", "hard"]
    for msg, raw in zip(client.msgs, client.raw):
        check_no_secrets(msg, raw, 0, [host["token"]])
    # The bots answered every decision themselves (no server-side fallback was needed).
    assert not [x for x in room_log(srv, code) if "random legal action" in x["msg"]]


def test_disconnected_seat_handed_to_bot_and_taken_back(server_factory):
    srv = server_factory(**FAST)
    host = create_room(srv.base_url, "Host")
    code = host["code"]
    bob = join_room(srv.base_url, code, "Bob")
    start(srv.base_url, code, host["token"])

    async def scenario():
        h = await Client.open(srv.ws_url, code, host["token"], seat=0)
        st = await h.state(0)
        # Bob never connects; the host hands his seat to a bot, which then plays his decisions.
        r = await asyncio.to_thread(httpx.post, f"{srv.base_url}/api/rooms/{code}/seats/1/bot",
                                    json={"level": "easy"}, headers=auth(host["token"]))
        assert r.status_code == 200 and r.json() == {"seat": 1}
        await h.wait(lambda m: m["type"] == "room" and m["room"]["players"][1]["bot"])
        rng = random.Random(4)
        version = st["version"]
        while version < 12:
            st = await h.state(version + 1 if st["view"]["to_act"] != 0 else version, timeout=60)
            version = st["version"]
            if st["view"]["to_act"] == 0:
                await h.act(version, pick_action(st["view"], rng))
                st = await h.state(version + 1, timeout=60)
                version = st["version"]
        # Bob comes back: the bot stops for his seat.
        b = await Client.open(srv.ws_url, code, bob["token"], seat=1)
        room = await b.wait(lambda m: m["type"] == "room")
        assert room["room"]["you"] == 1 and room["room"]["players"][1]["bot"] is False
        await h.wait(lambda m: m["type"] == "room" and not m["room"]["players"][1]["bot"]
                     and m["room"]["players"][1]["connected"])
        # Play on until it is Bob's decision: nobody else moves for him.
        version = (await b.state())["version"]
        while True:
            view = (await b.state(version))["view"]
            if view["to_act"] == 1 or view["phase"] == "over":
                break
            await h.act(version, pick_action((await h.state(version))["view"], rng))
            version += 1
        await asyncio.sleep(0.5)
        assert (await b.state())["version"] == version
        for c in (h, b):
            await c.close()
        return version

    version = asyncio.run(scenario())
    assert _room(srv, code)["version"] == version


def test_bot_turn_resumes_after_restart(server_factory):
    slow = server_factory(BOT_DELAY_S="600", BOT_TIME_BUDGET_S="0.05")
    host = create_room(slow.base_url, "Host")
    code = host["code"]
    httpx.post(f"{slow.base_url}/api/rooms/{code}/bots", json={"level": "normal"}, headers=auth(host["token"]))
    start(slow.base_url, code, host["token"])

    async def host_moves_once(server):
        h = await Client.open(server.ws_url, code, host["token"], seat=0)
        st = await h.state(0)
        version = st["version"]
        if st["view"]["to_act"] == 0:
            await h.act(version, pick_action(st["view"], random.Random(1)))
            version += 1
            st = await h.state(version)
        await h.close()
        return st

    st = asyncio.run(host_moves_once(slow))
    assert st["view"]["to_act"] == 1  # the bot's decision, and its delay is long
    version = st["version"]
    slow.kill()
    fast = server_factory(**FAST)   # nobody connects: the server resumes the bot by itself
    deadline = time.monotonic() + 60
    while _room(fast, code)["version"] == version and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _room(fast, code)["version"] > version


def test_a_dead_bot_worker_is_replaced(server_factory):
    import psutil
    srv = server_factory(**FAST)
    host = create_room(srv.base_url, "Human")
    code = host["code"]
    httpx.post(f"{srv.base_url}/api/rooms/{code}/bots", json={"level": "easy"}, headers=auth(host["token"]))
    start(srv.base_url, code, host["token"])

    async def play(n_versions):
        c = await Client.open(srv.ws_url, code, host["token"], seat=0)
        rng = random.Random(8)
        st = await c.state(0)
        while st["version"] < n_versions and st["view"]["phase"] != "over":
            if st["view"]["to_act"] == 0:
                await c.act(st["version"], pick_action(st["view"], rng))
            st = await c.state(st["version"] + 1, timeout=60)
        await c.close()
        return st

    asyncio.run(play(6))
    workers = [p for p in psutil.Process(srv.proc.pid).children(recursive=True)
               if "multiprocessing" in " ".join(p.cmdline())]
    assert workers, "the bot worker pool should be running"
    for p in workers:
        p.kill()
    psutil.wait_procs(workers, timeout=10)
    st = asyncio.run(play(20))
    assert st["version"] >= 20 or st["view"]["phase"] == "over"
    # the bot itself kept deciding
    assert not [x for x in room_log(srv, code) if "random legal action" in x["msg"]]
