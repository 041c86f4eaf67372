"""One client churning spectator WebSocket connections (connect, close, again) does not stall
everyone else: room creation goes on, the churned room's players keep their presence, and the
lobby feed, recomputed at most every 0.5 s, still follows changes."""
from __future__ import annotations

import asyncio
import contextlib
import json
import random
import statistics
import subprocess
import sys
import time

import httpx
import psutil
from websockets.asyncio.client import connect

from tests.conftest import ROOT

from .helpers import Client, create_room, join_room, new_game, pick_action, room_log

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


CHURN_SEAT_S = 60.0
WARM_UP_S = 10.0
# Measured 7.4 MB over 60 s and 72,000 refused sockets (was +100 MB in 20 s); issue 11 aims at a
# few MB. What grows is not ours (2026-11-30, refused sockets of one seat, RSS per 7,200 sockets
# after a warm-up of 800): Python objects +97 tuples (gc type counts), tracemalloc +0.35 MB; the
# rest is C-level allocator high water in the socket stack, the same with MALLOC_ARENA_MAX=1, a
# fixed mmap threshold or PYTHONMALLOC=malloc (5.5-6.3 MB), smaller without uvloop (4.95 MB) and
# without uvloop and httptools (2.84 MB), and it levels off (20,000 sockets: +3.1 MB from 5,000
# to 10,000, +0.6 MB from 15,000 to 20,000). Nothing per connection is kept by the server.
MAX_GROWTH_MB = 10.0
MAX_SERVER_P95_MS = 50.0   # an action of another player: read → committed, frames queued
MAX_CLIENT_P95_MS = 1000.0  # ... as its sender sees it: act sent → new state received


def test_a_seat_churning_sockets_keeps_memory_flat_and_moves_prompt(server_factory):
    """One seat's client opens and closes sockets in a tight loop for 60 s (in its own
    process, tests/app/churner.py): it is refused with 4429 `too_many_connections` beyond its
    connection rate, the game goes on, the server's memory stays flat after a warm-up, and
    the other players' moves stay prompt.

    The 50 ms bound is checked where the server measures it (the `ms` of each `action` log
    line: waiting for the room included), so other load on a busy 2-core machine does not
    decide it; as the players' clients see it, the bound is 1 s (the fault took 5.4 s)."""
    srv = server_factory(LOG_LEVEL="info")
    server = psutil.Process(srv.proc.pid)
    code, tokens = new_game(srv.base_url, 4)  # seats 0-2 play on steady sockets, seat 3 churns
    # At the lowest CPU priority: the churning client stands for one on another machine, and a
    # busy loop here must not slow the server or the other players' clients on a 2-core box.
    churner = subprocess.Popen(["nice", "-n", "19", sys.executable, "-m", "tests.app.churner", srv.ws_url,
                                code, tokens[3], str(CHURN_SEAT_S)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        latencies, rss = asyncio.run(_play_during(srv, code, tokens[:3], server, CHURN_SEAT_S))
        counts = json.loads(churner.communicate(timeout=60)[0])
    finally:
        churner.kill()
    srv.stop()
    assert srv.proc.returncode == 0, "a graceful stop, nothing left hanging"
    served = [line["ms"] for line in room_log(srv, code)
              if line.get("msg") == "action" and line["seat"] != 3 and line["outcome"] == "applied"]
    after = [mb for t, mb in rss if t >= WARM_UP_S]
    server_p95 = statistics.quantiles(served, n=20)[-1]
    client_p95 = statistics.quantiles(latencies, n=20)[-1] * 1000
    print(f"churn: {counts}; the others' {len(served)} moves: p95 {server_p95:.1f} ms at the server, "
          f"{client_p95:.1f} ms at the clients (max {max(latencies) * 1000:.0f}); server RSS "
          f"{rss[0][1]:.1f} MB → {after[0]:.1f} (at {WARM_UP_S:.0f} s) → max {max(after):.1f}")
    assert counts["refused"] > 100 and set(counts["close_codes"]) == {"4429"}
    assert counts["acted"] >= 3, "the churning seat still gets its turns in"
    assert len(served) == len(latencies) >= 10
    assert max(after) - after[0] <= MAX_GROWTH_MB
    assert server_p95 <= MAX_SERVER_P95_MS
    assert client_p95 <= MAX_CLIENT_P95_MS


async def _play_during(srv, code: str, tokens: list[str], server: psutil.Process, seconds: float):
    """The first seats play on their own sockets for `seconds`, measuring each of their moves
    (act sent → the new state received); the server's RSS is sampled every second.
    → ([latency s], [(s since start, RSS MB)])."""
    clients = [await Client.open(srv.ws_url, code, t, seat=s) for s, t in enumerate(tokens)]
    start = time.monotonic()
    stop, latencies, rss = start + seconds, [], []

    async def play(c: Client) -> None:
        rng = random.Random(c.seat)
        while time.monotonic() < stop:
            state = await c.state(0)
            if state["view"]["phase"] == "over":
                return
            if state["view"]["to_act"] != c.seat:
                with contextlib.suppress(asyncio.TimeoutError):
                    await c.state(state["version"] + 1, timeout=max(0.01, stop - time.monotonic()))
                continue
            t = time.monotonic()
            await c.act(state["version"], pick_action(state["view"], rng))
            await c.state(state["version"] + 1)
            latencies.append(time.monotonic() - t)

    async def sample() -> None:
        while time.monotonic() < stop:
            rss.append((time.monotonic() - start, server.memory_info().rss / 2**20))
            await asyncio.sleep(1)

    await asyncio.gather(*(play(c) for c in clients), sample())
    for c in clients:
        await c.close()
    return latencies, rss
