"""What a server's work costs PostgreSQL in connections and transactions (issue 28), measured
on PostgreSQL itself (`pg_stat_activity`, `pg_stat_database`) around a real `osaka serve` on a
database of the test's own (the session's server would add its own backends and transactions).

- A hundred sockets that each send an action and go away at once (TCP RST: SO_LINGER 0, closed
  right after the send). Issue 28: 6-12 connections sat "idle in transaction" for 2-4 s and
  the pool grew to its ceiling (15, + the LISTEN connection = 16). Each socket that went cost
  two transactions of its own on a pool connection: its presence notification (`PgFanout.notify`:
  BEGIN, `SELECT pg_notify`, COMMIT) and, before it, the pool's ping at checkout (BEGIN, `;`,
  ROLLBACK). A hundred at once held up to 11 of the 15 connections open in transaction, each
  idle between its statements while the event loop served the others. Now the notifications
  asked for meanwhile go in one statement on the LISTEN connection, and a checkout asks nothing.
- Ten rooms of computer players: the server opened ~7-18 PostgreSQL backends a second. The pool
  kept 5 connections and closed any further one as soon as it came back (SQLAlchemy's
  overflow), and ten bot rooms need more than five at once now and then. Now it keeps up to 15.
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import struct
import time
import uuid

import asyncpg
import httpx
import pytest
from websockets.asyncio.client import connect

from tests.conftest import Server

from .helpers import auth, create_room, join_room, pick_action, start

pytestmark = pytest.mark.postgresql_only

ROOMS = 25                # rooms of four seats: 100 sockets
STATS_FLUSH_S = 11.5      # PostgreSQL's backends report their counts within 10 s of going idle
BOT_ROOMS = 10
BOT_WINDOW_S = 8.0


def _admin_dsn() -> str:
    """The base database of TEST_DATABASE_URL: the test's queries are no backends of its database."""
    return os.environ["TEST_DATABASE_URL"].replace("postgresql+asyncpg://", "postgresql://", 1)


def _name(url: str) -> str:
    return url.rsplit("/", 1)[1]


async def _reset_after_sending(srv: Server, code: str, token: str, ready: asyncio.Event,
                               go: asyncio.Event, rng: random.Random) -> None:
    """One seat's socket: connect, wait for the state, then (at `go`) send an action and close
    with a TCP RST at once."""
    sock = socket.create_connection(("127.0.0.1", srv.port))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    ws = await connect(f"{srv.ws_url}/ws/rooms/{code}", sock=sock, additional_headers=auth(token), max_size=None)
    try:
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 20))
            if msg["type"] == "state":
                break
        ready.set()
        await go.wait()
        await ws.send(json.dumps({"type": "act", "id": uuid.uuid4().hex, "version": msg["version"],
                                  "action": pick_action(msg["view"], rng)}))
    finally:
        ws.transport.abort()  # SO_LINGER 0: RST, whatever was still unsent is dropped


async def _transactions(admin: asyncpg.Connection, name: str) -> int:
    row = await admin.fetchrow("SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1", name)
    return row["n"]


def test_sockets_that_go_at_once_hold_no_transactions(private_migrated_url, tmp_path):
    url, name = private_migrated_url, _name(private_migrated_url)
    srv = Server(url, tmp_path / "server.log", CONNECT_SEAT_LIMIT="off", CLEANUP_INTERVAL_S="3600").start()
    try:
        games = []
        for _ in range(ROOMS):
            host = create_room(srv.base_url, "Host", public=False)
            tokens = [host["token"]] + [join_room(srv.base_url, host["code"], f"P{i}")["token"] for i in range(1, 4)]
            start(srv.base_url, host["code"], host["token"])
            games.append((host["code"], tokens))

        async def scenario():
            admin = await asyncpg.connect(_admin_dsn())
            try:
                go, rng = asyncio.Event(), random.Random(28)
                readies = [asyncio.Event() for _ in range(4 * ROOMS)]
                sockets = [asyncio.create_task(_reset_after_sending(srv, code, token, readies[4 * g + s], go, rng))
                           for g, (code, tokens) in enumerate(games) for s, token in enumerate(tokens)]
                await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 60)
                await asyncio.sleep(STATS_FLUSH_S)  # the arrivals' transactions are all counted now
                before = await _transactions(admin, name)
                seen: dict[str, int] = {}   # query → times a backend was seen idle in transaction after it
                go.set()
                deadline = time.monotonic() + 3.0
                while time.monotonic() < deadline:
                    for r in await admin.fetch("SELECT query FROM pg_stat_activity WHERE datname = $1"
                                               " AND state = 'idle in transaction'", name):
                        seen[r["query"]] = seen.get(r["query"], 0) + 1
                    await asyncio.sleep(0.01)
                await asyncio.gather(*sockets)
                assert srv.stop() == 0     # its backends end, and count what they did
                await asyncio.sleep(0.5)
                return await _transactions(admin, name) - before, seen
            finally:
                await admin.close()

        spent, seen = asyncio.run(scenario())
    finally:
        srv.stop()
    # No socket's departure opens a transaction of its own: no presence notification in one
    # (`SELECT pg_notify($1::VARCHAR, $2)`), no ping at checkout (`;`). Before: both, for each
    # of the hundred (about 3.4 transactions per socket; now about 0.4: the 25 actions, a few
    # batches of notifications, the turn-timer checks and the shutdown).
    assert not [q for q in seen if "pg_notify" in q or q.strip() == ";"], seen
    assert spent <= 1.5 * 4 * ROOMS, spent


def _bot_room(base: str) -> str:
    """A started room of four computer players (the host hands its own seat over too)."""
    host = create_room(base, "Host", public=False)
    code, headers = host["code"], auth(host["token"])
    for _ in range(3):
        assert httpx.post(f"{base}/api/rooms/{code}/bots", json={"level": "easy"}, headers=headers).status_code == 200
    start(base, code, host["token"])
    r = httpx.post(f"{base}/api/rooms/{code}/seats/0/bot", json={"level": "easy"}, headers=headers)
    assert r.status_code == 200, r.text
    return code


def test_computer_players_reuse_the_pools_connections(private_migrated_url, tmp_path):
    url, name = private_migrated_url, _name(private_migrated_url)
    srv = Server(url, tmp_path / "server.log", BOT_DELAY_S="0", BOT_TIME_BUDGET_S="0.05", BOT_WORKERS="1",
                 CLEANUP_INTERVAL_S="3600").start()
    try:
        for _ in range(BOT_ROOMS):
            _bot_room(srv.base_url)

        async def scenario():
            admin = await asyncpg.connect(_admin_dsn())
            moves = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://", 1))  # (before t0)
            try:
                # Moves made: the rooms' versions (a finished game's action rows are compacted away).
                count = "SELECT coalesce(sum(version), 0) FROM rooms"
                while await moves.fetchval(count) < 100:  # warmed up: the pool has what play needs
                    await asyncio.sleep(0.2)
                await asyncio.sleep(1.0)
                t0 = await admin.fetchval("SELECT now()")
                s0 = await admin.fetchval("SELECT sessions FROM pg_stat_database WHERE datname = $1", name)
                m0 = await moves.fetchval(count)
                await asyncio.sleep(BOT_WINDOW_S)
                m1 = await moves.fetchval(count)
                # Backends that came and went are in `sessions` (each reports at its exit); the
                # ones started in the window and still there may not have reported yet: both
                # counted (an upper bound).
                alive_new = await admin.fetchval("SELECT count(*) FROM pg_stat_activity WHERE datname = $1"
                                                 " AND backend_start > $2", name, t0)
                await asyncio.sleep(1.5)
                s1 = await admin.fetchval("SELECT sessions FROM pg_stat_database WHERE datname = $1", name)
                return m1 - m0, s1 - s0, alive_new
            finally:
                await moves.close()
                await admin.close()

        played, ended, alive_new = asyncio.run(scenario())
    finally:
        srv.stop()
    assert played >= 50, played                 # the computer players played all along
    # Before: ~7-18 new backends a second (140 in this window), each closed as soon as it came
    # back: churn. The pool keeps what it opens: on a quiet machine none starts or ends in the
    # window (0, 0); on a loaded one (a full CI run beside a tournament: 4 together, when both
    # were one bound of 3) a new peak of sessions at once may add a few, and a rare overflow
    # one go. Both bounds stay far below the fault's 140.
    assert ended <= 5, (ended, alive_new, played)
    assert alive_new <= 8, (ended, alive_new, played)
