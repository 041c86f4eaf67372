"""While PostgreSQL shuts down, the turn timers' loop logs one-line warnings, not tracebacks
(issue 28, app/live/outages.py).

Issue 28: while PostgreSQL was shutting down, the turn-timer check logged an error with a
146-line traceback, every time it looked: a connection refused with "the database system is
shutting down" (SQLSTATE 57P03) reaches the server as a plain SQLAlchemy `DBAPIError`, which
app/db.py's `database_unavailable` did not take for an outage.

Here a server runs on a PostgreSQL server of this test alone (tests/own_postgres.py), its timer
looking every 0.1 s. PostgreSQL is stopped in "smart" mode, held in its shutting-down state by
one open session while every connection of the server is cut (`pg_terminate_backend`): the
server's every new connection is refused as "shutting down" for 3 s; then PostgreSQL stops
(connections refused), and starts again. The server's log holds a warning line of the turn
timer and no traceback at all, and the server serves again by itself: a room is created, and a
2 s turn timer times out.
"""
from __future__ import annotations

import asyncio
import json
import time

import asyncpg
import httpx
import pytest

from tests.conftest import Server, migrate
from tests.own_postgres import OwnPostgres, postgres_bin

from .helpers import auth, create_room, join_room, start

SHUTTING_DOWN_S = 3.0


def _dsn(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


@pytest.fixture
def own_postgres():
    """A PostgreSQL server of this test alone, with an empty database `osaka` → the cluster."""
    bin_dir = postgres_bin()
    if bin_dir is None:
        pytest.skip("no PostgreSQL server binaries (initdb, pg_ctl) in /usr/lib/postgresql/*/bin")
    pg = OwnPostgres(bin_dir)
    try:
        pg.start()

        async def create():
            conn = await asyncpg.connect(_dsn(pg.url()))
            try:
                await conn.execute('CREATE DATABASE "osaka"')
            finally:
                await conn.close()
        asyncio.run(create())
        yield pg
    finally:
        pg.remove()


async def _shut_down_slowly(pg: OwnPostgres) -> int:
    """PostgreSQL shutting down for `SHUTTING_DOWN_S` with every server connection cut, then
    stopped → how many of the server's connections were cut."""
    admin = await asyncpg.connect(_dsn(pg.url()))
    try:
        # Smart shutdown: no new connections ("the database system is shutting down"), the
        # sessions there go on; this one keeps PostgreSQL in that state.
        pg._run("pg_ctl", "-D", str(pg.data), "-m", "smart", "-W", "stop")
        cut = await admin.fetchval("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                                   " WHERE datname = 'osaka' AND pid <> pg_backend_pid()")
        await asyncio.sleep(SHUTTING_DOWN_S)
    finally:
        await admin.close()
    return cut


def test_a_database_shutting_down_is_a_warning_line_and_the_server_serves_again(own_postgres, tmp_path):
    url = own_postgres.url("osaka")
    migrate(url)
    log_path = tmp_path / "server.log"
    srv = Server(url, log_path, TIMER_POLL_S="0.1", CLEANUP_INTERVAL_S="0.2", TURN_LIMIT_TEST_S="2",
                 BOT_TIME_BUDGET_S="0.05").start()
    try:
        time.sleep(1.0)  # the timer loop looks a few times
        assert asyncio.run(_shut_down_slowly(own_postgres)) >= 1
        own_postgres.stop()  # (waits until it is down: refused connections now)
        time.sleep(1.0)
        own_postgres.start()
        # The server serves again by itself: a room, a game whose 2 s timer runs out.
        deadline = time.monotonic() + 30
        while True:
            r = httpx.post(f"{srv.base_url}/api/rooms", json={"name": "Hana", "public": False})
            if r.status_code == 201 or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert r.status_code == 201, r.text
        host = r.json()
        code = host["code"]
        join_room(srv.base_url, code, "Bob")
        r = httpx.post(f"{srv.base_url}/api/rooms/{code}/timer", json={"turn_limit_s": 2},
                       headers=auth(host["token"]))
        assert r.status_code == 200
        start(srv.base_url, code, host["token"])
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            room = httpx.get(f"{srv.base_url}/api/rooms/{code}").json()
            if room["version"] >= 1:
                break
            time.sleep(0.2)
        assert room["version"] >= 1, room  # two people, no computer player: a time-out moved it
        assert create_room(srv.base_url, "Later")["code"]
    finally:
        srv.stop()
    text = log_path.read_text()
    lines = [json.loads(x) for x in text.splitlines() if x.startswith("{")]
    assert "Traceback" not in text and not [x for x in lines if "exc" in x], [x for x in lines if "exc" in x][:1]
    timer = [x for x in lines if x.get("logger") == "osaka.timers"]
    assert timer and all(x["level"] == "warning" for x in timer), timer
    assert 1 <= len(timer) <= 3, timer  # one per outage, not one per look (every 0.1 s)
    assert all(": the database is unavailable (" in x["msg"] for x in timer), timer
