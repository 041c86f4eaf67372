"""What storing the game's snapshot with every action costs: the action transaction
of `Actions._commit` (INSERT the action with its events, UPDATE the room's version, COMMIT) timed with
and without the state JSON in that UPDATE, alternating per action so drift hits both alike.

    python bench/snapshot_cost.py [--games 20] [--db sqlite|postgres|both]
        [--pg-admin-url postgresql+asyncpg://postgres@127.0.0.1:5432/postgres]

Uses a fresh SQLite file / PostgreSQL database `osaka_bench_snapshot` (dropped afterwards),
migrated to the head; real random games of 4 players played through the engine. Prints the
median and p95 of both variants in microseconds, the difference, and the snapshot's size.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from app.db import make_engine  # noqa: E402
from app.store import games as store  # noqa: E402
from app.store.actions import BUMP_VERSION  # noqa: E402
from app.migrate import upgrade  # noqa: E402
from app.models import ActionRow, utcnow  # noqa: E402
from sqlalchemy import bindparam, insert, text, update  # noqa: E402

PG_DB = "osaka_bench_snapshot"
_INSERT_ACTION = insert(ActionRow.__table__)
_PLAIN = (update(store.ROOMS).where(store.ROOMS.c.id == bindparam("room_id"),
                                    store.ROOMS.c.version == bindparam("old_version"))
          .values(version=bindparam("new_version"), status=bindparam("new_status")))


async def _room(sessions_engine, seed: int) -> int:
    async with sessions_engine.begin() as conn:
        state = engine.new_game(4, seed)
        return (await conn.execute(insert(store.ROOMS).values(
            code=uuid.uuid4().hex[:16], public=False, status="playing", created_at=utcnow(),
            active_at=utcnow(), num_players=4, seed=seed, version=0, started_at=utcnow(),
            **store.start_values(state)))).inserted_primary_key[0]


async def measure(url: str, games: int) -> dict:
    """Play `games` games; every other action with the snapshot. Returns the timings (µs)."""
    db = make_engine(url)
    times = {"with": [], "without": []}
    sizes = []
    try:
        for g in range(games):
            rng, room_id = random.Random(g), await _room(db, g)
            state, version = engine.new_game(4, g), 0
            while not engine.is_over(state):
                seat = state.to_act
                action = rng.choice(engine.legal_actions(state, seat))
                state, events = engine.play(state, seat, action)
                snap = version % 2 == 0
                t0 = time.perf_counter()
                async with db.begin() as conn:
                    await conn.execute(_INSERT_ACTION, {
                        "room_id": room_id, "version": version + 1, "action_id": uuid.uuid4().hex,
                        "seat": seat, "action": action.to_json(), "events": events, "created_at": utcnow()})
                    bump = {"room_id": room_id, "old_version": version, "new_version": version + 1,
                            "new_status": "playing"}
                    if snap:
                        await conn.execute(BUMP_VERSION, {**bump, **store.snapshot_values(state)})
                    else:
                        await conn.execute(_PLAIN, bump)
                times["with" if snap else "without"].append((time.perf_counter() - t0) * 1e6)
                sizes.append(len(json.dumps(state.to_json())))
                version += 1
    finally:
        await db.dispose()
    return {k: (statistics.median(v), statistics.quantiles(v, n=20)[-1], len(v)) for k, v in times.items()} | {
        "size": (statistics.mean(sizes), max(sizes))}


def report(name: str, r: dict) -> None:
    (m1, p1, n1), (m0, p0, n0) = r["with"], r["without"]
    print(f"{name:9} with snapshot: median {m1:7.0f} µs  p95 {p1:7.0f} µs  ({n1} actions)")
    print(f"{'':9} without:       median {m0:7.0f} µs  p95 {p0:7.0f} µs  ({n0} actions)")
    print(f"{'':9} extra per action: median {m1 - m0:+.0f} µs, p95 {p1 - p0:+.0f} µs; "
          f"snapshot {r['size'][0]:.0f} bytes on average, {r['size'][1]} at most")


async def _pg_admin(admin_url: str, sql: str) -> None:
    db = make_engine(admin_url)
    try:
        async with db.connect() as conn:
            await conn.execution_options(isolation_level="AUTOCOMMIT")
            await conn.execute(text(sql))
    finally:
        await db.dispose()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    ap.add_argument("--pg-admin-url", default="postgresql+asyncpg://postgres@127.0.0.1:5432/postgres")
    args = ap.parse_args()
    if args.db in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as tmp:
            url = f"sqlite+aiosqlite:///{tmp}/bench.db"
            upgrade(url)
            report("SQLite", asyncio.run(measure(url, args.games)))
    if args.db in ("postgres", "both"):
        url = args.pg_admin_url.rsplit("/", 1)[0] + "/" + PG_DB
        asyncio.run(_pg_admin(args.pg_admin_url, f'DROP DATABASE IF EXISTS "{PG_DB}" WITH (FORCE)'))
        asyncio.run(_pg_admin(args.pg_admin_url, f'CREATE DATABASE "{PG_DB}"'))
        try:
            upgrade(url)
            report("PostgreSQL", asyncio.run(measure(url, args.games)))
        finally:
            asyncio.run(_pg_admin(args.pg_admin_url, f'DROP DATABASE IF EXISTS "{PG_DB}" WITH (FORCE)'))


if __name__ == "__main__":
    main()
