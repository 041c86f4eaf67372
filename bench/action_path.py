"""CPU of the server's action path in one process, without sockets: where `osaka serve`'s own
work per action goes (issue 33, "One process, close to its floor"; docs/performance.md).

    python bench/action_path.py [--rooms 250] [--actions 5000] [--profile out.pstats] [--top 30]

The real app (`create_app`, its `Live` started, SQLite WAL on a fresh file, `LOG_LEVEL=info`
with the log lines written to /dev/null) gets `--rooms` started four-player rooms, each seat with
one registered connection whose socket is a stand-in that takes every frame at once (the
server's `send_text_now` path, so the frames are built, serialized and handed over as under
load, but no bytes are written). Then `--actions` random legal actions, one per room in turn,
go through `Live.actions.act` (the room lock, the engine, the group commit, every seat's frames,
the log line, the metrics), several rooms at a time as under load (`--concurrency`, default
16), and the script prints the process's CPU time per action (`time.process_time`: this
thread and SQLite's). With `--profile` it runs under cProfile and prints the functions with
the most own time per action, so the share of each part is measured, not sampled.

Only the sockets' own work (uvicorn, websockets framing, the system calls) is left out: what
`bench/floor.py` shares with the floor.
"""
from __future__ import annotations

import argparse
import asyncio
import cProfile
import logging
import os
import pstats
import random
import sys
import tempfile
import time
from http.cookiejar import DefaultCookiePolicy
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402
from app import gc_tuning  # noqa: E402
from app.config import Settings  # noqa: E402
from app.logs import configure  # noqa: E402
from app.live.sockets.connection import Connection  # noqa: E402
from app.main import create_app  # noqa: E402
from app.migrate import upgrade  # noqa: E402
from app.testing.launcher import NO_ADDRESS_LIMITS  # noqa: E402
from app.ws_protocol import SEND_NOW  # noqa: E402


class StandInSocket:
    """What `Connection` needs of a WebSocket: a scope whose `send_text_now` takes every frame."""

    def __init__(self) -> None:
        self.frames = 0
        self.bytes = 0
        self.scope = {"type": "websocket", "path": "/ws", "root_path": "", "headers": [],
                      "extensions": {SEND_NOW: self.send_text_now}}

    def send_text_now(self, text: str) -> bool:
        self.frames += 1
        self.bytes += len(text.encode())  # as the protocol encodes it
        return True


async def setup(live, http, rooms: int) -> list[dict]:
    """`rooms` started four-player rooms, each seat with a stand-in connection → per room
    {code, tokens, conns}."""
    out = []
    for _ in range(rooms):
        host = (await http.post("/api/rooms", json={"name": "P0", "public": False})).json()
        tokens = [host["token"]]
        for i in range(1, 4):
            tokens.append((await http.post(f"/api/rooms/{host['code']}/join", json={"name": f"P{i}"})).json()["token"])
        r = await http.post(f"/api/rooms/{host['code']}/start", headers={"Authorization": f"Bearer {tokens[0]}"})
        assert r.status_code == 200, r.text
        table = live.tables.get(host["code"])
        async with live.tables.hold(host["code"]) as held:
            await held.sync()
            await held.know_seats()
        conns = []
        for seat in range(4):
            conn = Connection(StandInSocket(), room=host["code"], seat=seat, holder=table.holders[seat])
            live.hub.add(conn)
            conns.append(conn)
        out.append({"code": host["code"], "conns": conns, "n": 0})
    return out


async def play(live, rooms: list[dict], actions: int, concurrency: int, rng: random.Random) -> int:
    """Apply `actions` random legal actions (a finished game's room is skipped) → applied."""
    applied = 0
    queue = list(range(len(rooms)))
    sem = asyncio.Semaphore(concurrency)

    async def one(room: dict) -> bool:
        async with sem:
            table = live.tables.get(room["code"])
            state = table.state
            if state is None or engine.is_over(state):
                return False
            seat = state.to_act
            action = rng.choice(engine.legal_actions(state, seat))
            room["n"] += 1
            return await live.actions.act(room["code"], seat, f"a{room['n']}", table.version, action.to_json(),
                                          reply=room["conns"][seat])

    while applied < actions:
        batch = [rooms[i] for i in queue[:concurrency * 4]]
        queue = queue[concurrency * 4:] + queue[:concurrency * 4]
        results = await asyncio.gather(*(one(r) for r in batch))
        applied += sum(results)
        if not any(results):
            break
    return applied


async def main_async(args) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="osaka-action-path-"))
    url = f"sqlite+aiosqlite:///{tmp / 'bench.db'}"
    await asyncio.to_thread(upgrade, url)
    # All requests come from one address: the per-address limits on rooms and joins are off.
    settings = Settings(database_url=url, bot_delay_s=0, **{k.lower(): v for k, v in NO_ADDRESS_LIMITS.items()})
    app = create_app(settings)
    live = app.state.live
    await live.start()
    import httpx
    transport = httpx.ASGITransport(app=app)
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://osaka.test") as http:
            http.cookies.jar.set_policy(DefaultCookiePolicy(allowed_domains=[]))  # each request its own token
            rooms = await setup(live, http, args.rooms)
            gc_tuning.tune()  # as a serving process (app/cli.py): frozen, larger thresholds
            rng = random.Random(args.seed)
            await play(live, rooms, min(500, args.actions), args.concurrency, rng)  # warm up
            profiler = cProfile.Profile() if args.profile else None
            cpu0, wall0 = time.process_time(), time.perf_counter()
            if profiler:
                profiler.enable()
            applied = await play(live, rooms, args.actions, args.concurrency, rng)
            if profiler:
                profiler.disable()
            cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        frames = sum(c.ws.frames for r in rooms for c in r["conns"])
        print(f"{applied} actions in {args.rooms} rooms: {1000 * cpu / applied:.3f} ms CPU per action "
              f"({wall:.1f} s wall{', under cProfile' if profiler else ''}); "
              f"{frames / max(1, applied + 500):.1f} frames per action")
        if profiler:
            profiler.dump_stats(args.profile)
            stats = pstats.Stats(args.profile)
            rows = sorted(stats.stats.items(), key=lambda kv: -kv[1][2])[:args.top]
            total = sum(v[2] for v in stats.stats.values())
            print(f"own time per action (of {1e6 * total / applied:.0f} µs under the profiler):")
            for (path, line, name), (_cc, calls, own, cum, _callers) in rows:
                where = path.split("site-packages/")[-1].replace(str(Path(__file__).resolve().parents[1]) + "/", "")
                print(f"  {1e6 * own / applied:7.1f} µs  {1e6 * cum / applied:8.1f} µs cum  "
                      f"{calls / applied:6.2f}/action  {name}  {where}:{line}")
    finally:
        await live.close()
        await app.state.db_engine.dispose()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=250)
    parser.add_argument("--actions", type=int, default=5000)
    parser.add_argument("--concurrency", type=int, default=16, help="actions in flight at once")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", metavar="PSTATS", help="run under cProfile, write the stats here")
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    configure("info")  # as `osaka serve` (app/logs.py), the lines to /dev/null
    logging.getLogger().handlers[0].setStream(open(os.devnull, "w"))  # noqa: SIM115
    asyncio.run(main_async(args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
