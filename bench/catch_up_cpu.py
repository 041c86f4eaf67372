"""CPU of the cross-process catch-up per room and action, in one process, on PostgreSQL.

    python bench/catch_up_cpu.py [--rooms 60] [--rounds 5] [--root DIR] [--profile]

Two `Live`s (the app of app/main.py, in this event loop: tests/unit/inprocess.py's `running`)
on a fresh database `osaka_catch_up` next to `--pg-admin-url`: A and B. `--rooms` started
4-player rooms, each with 4 stand-in connections in A's hub and loaded in both. Per round B
makes one move in every room; once they are committed, A's catch-up of all of them is run
directly (`RemoteChanges.on_changes` with every room's {"g"}, what its fan-out would hand it;
its own listener is muted). Printed: A's process CPU time (`time.process_time`, this process
only: PostgreSQL's own work is not in it) per room caught up, and the SQL statements A ran in
the last round (a SQLAlchemy `before_cursor_execute` listener). `--root`: the checkout whose
`app` is measured (default: this one), e.g. main's for a "before" figure (a checkout without
`on_changes` is driven room by room through `on_change`). `--profile`: cProfile of the
catch-ups. Figures: docs/performance.md ("Two replicas behind Caddy"); the first measurement:
docs/history/performance-log.md ("Two replicas: cheaper catch-up").
"""
from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import sys
import time
import uuid

DB = "osaka_catch_up"


class Stand:
    """A stand-in room connection of its seat's holder (`holds` its own seat): counts what it is sent."""

    def __init__(self, room: str, seat: int):
        self.room, self.seat, self.closed, self.root, self.sent = room, seat, False, "", 0
        self.visible = True

    def holds(self, seat: int, _holders) -> bool:
        return seat == self.seat

    def send(self, _msg) -> None:
        self.sent += 1

    def drop(self, *_args) -> None:
        self.closed = True


async def main(args) -> None:
    import asyncpg
    from sqlalchemy import event

    import engine
    from app.config import Settings
    from app.migrate import upgrade
    from inprocess import auth, running

    async def admin(sql: str) -> None:
        conn = await asyncpg.connect(args.pg_admin_url)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    async def started_room(http) -> str:
        host = (await http.post("/api/rooms", json={"name": "P0", "public": False})).json()
        for i in range(1, 4):
            await http.post(f"/api/rooms/{host['code']}/join", json={"name": f"P{i}"})
        assert (await http.post(f"/api/rooms/{host['code']}/start", headers=auth(host["token"]))).status_code == 200
        return host["code"]

    await admin(f'DROP DATABASE IF EXISTS "{DB}" WITH (FORCE)')
    await admin(f'CREATE DATABASE "{DB}"')
    url = "postgresql+asyncpg://" + args.pg_admin_url.split("://", 1)[1].rsplit("/", 1)[0] + "/" + DB
    try:
        await asyncio.to_thread(upgrade, url)
        settings = Settings(database_url=url, bot_delay_s=0, log_level="warning", timer_poll_s=3600,
                            room_create_limit="off", room_join_limit="off", rooms_per_address=0,
                            lobby_rooms_per_address=0, connect_address_limit="off")
        async with running(settings) as (a, http), running(settings) as (b, _):
            codes = [await started_room(http) for _ in range(args.rooms)]

            async def mute(*_args) -> None:
                return None
            a.fanout.on_remote = mute
            for code in codes:
                for seat in range(4):
                    a.hub.add(Stand(code, seat))
                for live in (a, b):
                    async with live.tables.hold(code) as held:
                        held.publish(await held.sync())
            statements = [0]

            def count(*_args) -> None:
                statements[0] += 1
            event.listen(a.sessions.kw["bind"].sync_engine, "before_cursor_execute", count)
            prof, cpu = cProfile.Profile(), 0.0
            for _ in range(args.rounds):
                for code in codes:
                    table = b.tables.get(code)
                    seat = table.state.to_act
                    action = engine.legal_actions(table.state, seat)[0].to_json()
                    assert await b.actions.act(code, seat, uuid.uuid4().hex, table.version, action)
                await asyncio.sleep(0.3)  # B's notifications heard (and ignored) by A
                statements[0] = 0
                start = time.process_time()
                if args.profile:
                    prof.enable()
                if hasattr(a.remote, "on_changes"):
                    await a.remote.on_changes({code: {"g"} for code in codes})
                else:
                    for code in codes:
                        await a.remote.on_change(code, {"g"})
                if args.profile:
                    prof.disable()
                cpu += time.process_time() - start
                for code in codes:
                    assert a.tables.get(code).version == b.tables.get(code).version, code
            per = cpu / (args.rooms * args.rounds) * 1000
            print(f"{args.rooms} rooms x {args.rounds} rounds: A's CPU {per:.3f} ms per room caught up, "
                  f"{statements[0]} SQL statements in the last round")
            if args.profile:
                pstats.Stats(prof).sort_stats("cumulative").print_stats(30)
    finally:
        await admin(f'DROP DATABASE IF EXISTS "{DB}" WITH (FORCE)')


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        help="the checkout whose app is measured")
    parser.add_argument("--pg-admin-url", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    sys.path[:0] = [root, os.path.join(root, "tests", "unit")]
    asyncio.run(main(args))
