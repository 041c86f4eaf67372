"""Restart time with many stored games: how soon a freshly started `osaka serve`
answers a player's first action when the database holds N games, M of them in progress.

    python bench/restart.py [--games 10000] [--playing 1000] [--db sqlite|postgres|both]
        [--pg-admin-url postgresql+asyncpg://postgres@127.0.0.1:5432/postgres] [--runs 3]

1. A fresh database (SQLite file / PostgreSQL database `osaka_bench_restart`) at the head
   migration is filled with bulk inserts (sqlite3 `executemany`, asyncpg `COPY`): N - M games
   over and M in progress, taken round-robin from real random games played through the engine,
   each with its snapshot, its action log with events and 3 seats; seat 1 of every game in
   progress is a computer player ("easy"), and in half of them it is that seat's turn.
2. `osaka serve` is started (defaults; LOG_LEVEL=warning) and, from the moment the process is
   spawned, a client keeps trying to open the WebSocket of a game where it is seat 0's turn;
   once in, it sends a legal action. Times printed, from the spawn: the first `state` frame and
   the answer to the action (the `state` frame of the next version). Each run starts a new
   process on the same database; the same is done on an empty database for comparison (what
   the interpreter, imports and migrations check cost alone).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import sys
import tempfile
import threading
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from app.migrate import upgrade  # noqa: E402
from app.security import hash_token  # noqa: E402
from app.testing.launcher import ServerProcess  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

PG_DB = "osaka_bench_restart"
TOKEN = "bench-restart-token-"  # + the seat number, in every game (a bench, not a deployment)
POOL = 40  # distinct games of each kind


def _play(seed: int, steps: int | None, want_to_act: int | None = None):
    """A random 3-player game: `steps` actions (None: to the end); with `want_to_act`, played on
    (up to 20 more) until that seat is to decide. → (state, [(seat, action, events)])."""
    rng, state, log = random.Random(seed), engine.new_game(3, seed), []
    while not engine.is_over(state) and (steps is None or len(log) < steps
                                     or (want_to_act is not None and state.to_act != want_to_act
                                         and len(log) < steps + 20)):
        seat = state.to_act
        action = rng.choice(engine.legal_actions(state, seat))
        state, events = engine.play(state, seat, action)
        log.append((seat, action.to_json(), events))
    return state, log


def pools():
    """(finished games, games in progress with seat 0 to act, ... with seat 1 to act)."""
    over = [_play(s, None) for s in range(POOL)]
    human = [g for g in (_play(1000 + s, 40, 0) for s in range(POOL)) if g[0].to_act == 0]
    bot = [g for g in (_play(2000 + s, 40, 1) for s in range(POOL)) if g[0].to_act == 1]
    return over, human, bot


def rows(games: int, playing: int):
    """Rows of rooms, seats and actions as tuples (ids from 1), JSON as text; and the games where
    seat 0 is to act, as (code, state, version)."""
    over, human, bot = pools()
    now = datetime.utcnow().replace(microsecond=0)
    rooms, seats, actions, targets = [], [], [], []
    for i in range(games):
        in_progress = i < playing
        pool = (human if i % 2 == 0 else bot) if in_progress else over
        state, log = pool[(i // 2) % len(pool)] if in_progress else pool[i % len(pool)]
        rid, code = i + 1, f"B{i:09d}"
        if in_progress and i % 2 == 0:
            targets.append((code, state, len(log)))
        snap = state.to_json()
        rooms.append((rid, code, False, "playing" if in_progress else "over", now, now, 3, snap["seed"],
                      len(log), now, state.rules_version, json.dumps(snap), state.to_act))
        for s in range(3):
            bot_seat = in_progress and s == 1
            seats.append((len(seats) + 1, rid, s, f"P{s}", None if bot_seat else hash_token(f"{TOKEN}{s}"),
                          "easy" if bot_seat else None, now))
        for v, (seat, action, events) in enumerate(log, start=1):
            actions.append((len(actions) + 1, rid, v, f"a{v}", seat, json.dumps(action),
                            json.dumps(events), now))
    return (rooms, seats, actions), targets


ROOM_COLS = ("id", "code", "public", "status", "created_at", "active_at", "num_players", "seed",
             "version", "started_at", "rules_version", "state", "to_act")
SEAT_COLS = ("id", "room_id", "seat", "name", "token_hash", "bot_level", "created_at")
ACTION_COLS = ("id", "room_id", "version", "action_id", "seat", "action", "events", "created_at")


def fill_sqlite(path: str, data) -> None:
    con = sqlite3.connect(path)
    with con:
        for table, cols, values in zip(("rooms", "seats", "actions"), (ROOM_COLS, SEAT_COLS, ACTION_COLS), data):
            con.executemany(f"INSERT INTO {table} ({','.join(cols)}) VALUES ({','.join('?' * len(cols))})",
                            [tuple(str(v) if isinstance(v, datetime) else v for v in row) for row in values])
    con.close()


async def fill_postgres(dsn: str, data) -> None:
    import asyncpg
    con = await asyncpg.connect(dsn)
    try:
        for table, cols, values in zip(("rooms", "seats", "actions"), (ROOM_COLS, SEAT_COLS, ACTION_COLS), data):
            await con.copy_records_to_table(table, records=values, columns=list(cols))
            await con.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))")
        await con.execute("ANALYZE")
    finally:
        await con.close()


async def first_action(port: int, target, spawned: float, timeout_s: float = 60) -> tuple[float, ...]:
    """Keep trying the room's WebSocket; act once in. → seconds from the spawn to: the socket
    open (the server listens), the first state, the answer."""
    code, state, version = target
    action = engine.legal_actions(state, 0)[0].to_json()
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            ws = await connect(f"ws://127.0.0.1:{port}/ws/rooms/{code}", max_size=None, open_timeout=5,
                               additional_headers={"Authorization": f"Bearer {TOKEN}0"})
            t_open = time.monotonic() - spawned
            break
        except (OSError, asyncio.TimeoutError):
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.01)
    async with ws:
        t_state = None
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), timeout_s))
            if msg["type"] == "state" and msg["version"] == version and t_state is None:
                t_state = time.monotonic() - spawned
                await ws.send(json.dumps({"type": "act", "id": "first", "version": version, "action": action}))
            elif msg["type"] == "state" and msg["version"] == version + 1:
                return t_open, t_state, time.monotonic() - spawned
            elif msg["type"] == "error":
                raise RuntimeError(f"refused: {msg}")


def run_server(url: str, target) -> tuple[float, ...]:
    """Start `osaka serve` (the shared launcher, in a thread: it waits for /healthz) and time
    the first action from the spawn."""
    with tempfile.NamedTemporaryFile(prefix="osaka-restart-", suffix=".log") as log:
        srv = ServerProcess(url, Path(log.name), env={"LOG_LEVEL": "warning"})
        spawned = time.monotonic()
        starter = threading.Thread(target=srv.start, kwargs={"timeout_s": 120})
        starter.start()
        try:
            return asyncio.run(first_action(srv.port, target, spawned))
        finally:
            starter.join()
            srv.stop()


def bench(name: str, url: str, fill, args) -> None:
    t = time.monotonic()
    data, targets = rows(args.games, args.playing)
    fill(data)
    print(f"{name}: {args.games} games ({args.playing} in progress), {len(data[2])} actions stored "
          f"in {time.monotonic() - t:.0f} s")
    for run in range(args.runs):  # every run acts in another game (seat 0's turn there)
        t_open, t_state, t_answer = run_server(url, targets[run])
        print(f"  run {run + 1}: from the spawn: socket open {t_open:.2f} s, first state {t_state:.2f} s, "
              f"first action answered {t_answer:.2f} s ({(t_answer - t_open) * 1000:.0f} ms after the socket opened)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--playing", type=int, default=1_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    ap.add_argument("--pg-admin-url", default="postgresql+asyncpg://postgres@127.0.0.1:5432/postgres")
    args = ap.parse_args()
    if args.db in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as tmp:
            for n, (games, playing) in enumerate(((2 * args.runs, 2 * args.runs), (args.games, args.playing))):
                path = f"{tmp}/bench{n}.db"
                url = f"sqlite+aiosqlite:///{path}"
                upgrade(url)
                bench("SQLite" if n else "SQLite, nearly empty", url, lambda d, p=path: fill_sqlite(p, d),
                      argparse.Namespace(**{**vars(args), "games": games, "playing": playing}))
    if args.db in ("postgres", "both"):
        from bench.snapshot_cost import _pg_admin
        url = args.pg_admin_url.rsplit("/", 1)[0] + "/" + PG_DB
        dsn = url.replace("postgresql+asyncpg://", "postgresql://", 1)
        for n, (games, playing) in enumerate(((2 * args.runs, 2 * args.runs), (args.games, args.playing))):
            asyncio.run(_pg_admin(args.pg_admin_url, f'DROP DATABASE IF EXISTS "{PG_DB}" WITH (FORCE)'))
            asyncio.run(_pg_admin(args.pg_admin_url, f'CREATE DATABASE "{PG_DB}"'))
            try:
                upgrade(url)
                bench("PostgreSQL" if n else "PostgreSQL, nearly empty", url,
                      lambda d: asyncio.run(fill_postgres(dsn, d)),
                      argparse.Namespace(**{**vars(args), "games": games, "playing": playing}))
            finally:
                asyncio.run(_pg_admin(args.pg_admin_url, f'DROP DATABASE IF EXISTS "{PG_DB}" WITH (FORCE)'))


if __name__ == "__main__":
    main()
