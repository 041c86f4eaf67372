"""The database goes away and comes back (issue 11): PostgreSQL is really stopped and started.

Not the machine's shared cluster (other tests use it): this test runs its own throwaway
PostgreSQL (tests/own_postgres.py). While it is down, a move gets an `error unavailable`
frame (with its id) and the sockets stay open, a new socket is refused with `unavailable` and
close 1013, `POST /api/rooms` answers 503 with the error JSON and `Retry-After`; nothing is
half-applied, and once the database is back the same server plays on by itself.
"""
from __future__ import annotations

import asyncio
import random

import asyncpg
import httpx
import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import create_async_engine

from app.models import ActionRow, Room
from tests.conftest import Server, migrate
from tests.own_postgres import OwnPostgres, postgres_bin

from .helpers import Client, new_game, pick_action


@pytest.fixture
def own_postgres():
    """A PostgreSQL server of this test alone, with an empty database `osaka` → the cluster."""
    bin_dir = postgres_bin()
    if bin_dir is None:
        pytest.skip("no PostgreSQL server binaries (initdb, pg_ctl) in /usr/lib/postgresql/*/bin")
    pg = OwnPostgres(bin_dir)
    try:
        pg.start()
        asyncio.run(_admin(pg.url(), 'CREATE DATABASE "osaka"'))
        yield pg
    finally:
        pg.remove()


async def _admin(url: str, sql: str) -> None:
    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://", 1))
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def _stored(url: str, code: str) -> tuple[int, int]:
    """(rooms.version, number of action rows) of room `code`, read directly."""
    db = create_async_engine(url)
    try:
        async with db.connect() as conn:
            room = (await conn.execute(select(Room.id, Room.version).where(Room.code == code))).one()
            count = await conn.scalar(select(func.count()).where(ActionRow.room_id == room.id))
            return room.version, count
    finally:
        await db.dispose()


def test_a_stopped_database_refuses_cleanly_and_play_resumes(own_postgres, tmp_path):
    url = own_postgres.url("osaka")
    migrate(url)
    srv = Server(url, tmp_path / "server.log").start()
    try:
        code, tokens = new_game(srv.base_url, 2)
        asyncio.run(_scenario(srv, own_postgres, url, code, tokens))
    finally:
        srv.stop()


async def _scenario(srv, pg: OwnPostgres, url: str, code: str, tokens: list[str]) -> None:
    clients = [await Client.open(srv.ws_url, code, t, seat=i) for i, t in enumerate(tokens)]
    rng, version = random.Random(4), 0
    for _ in range(4):
        state = await clients[0].state(version)
        mover = clients[state["view"]["to_act"]]
        await mover.act(version, pick_action((await mover.state(version))["view"], rng))
        version += 1
    await asyncio.gather(*(c.state(version) for c in clients))

    pg.stop()
    mover = clients[(await clients[0].state(version))["view"]["to_act"]]
    view = (await mover.state(version))["view"]
    action, mark = pick_action(view, rng), len(mover.msgs)
    action_id = await mover.act(version, action)
    refused = await mover.wait(lambda m: m["type"] == "error", start=mark)
    assert (refused["code"], refused["id"]) == ("unavailable", action_id)
    mark = len(mover.msgs)
    await mover.send({"type": "ping"})  # the socket is still open and served
    assert (await mover.wait(lambda m: m["type"] == "pong", start=mark))["type"] == "pong"
    assert not mover.closed.is_set() and not [m for m in mover.msgs if m.get("version", 0) > version]
    async with httpx.AsyncClient(timeout=30) as http:
        r = await http.post(f"{srv.base_url}/api/rooms", json={"name": "Later"})
        assert r.status_code == 503, r.text
        assert r.json()["error"]["code"] == "unavailable" and int(r.headers["Retry-After"]) > 0
    late = await Client.open(srv.ws_url, code)  # a new socket: refused, try again later
    assert (await late.wait(lambda m: m["type"] == "error"))["code"] == "unavailable"
    await asyncio.wait_for(late.closed.wait(), 10)
    assert late.ws.close_code == 1013

    pg.start()
    assert await _stored(url, code) == (version, version)  # nothing half-applied
    await mover.act(version, action, action_id)  # the same move again, same id: applied once now
    for c in clients:
        assert (await c.state(version + 1))["version"] == version + 1
    version += 1
    other = clients[(await clients[0].state(version))["view"]["to_act"]]
    await other.act(version, pick_action((await other.state(version))["view"], rng))
    await asyncio.gather(*(c.state(version + 1) for c in clients))
    async with httpx.AsyncClient(timeout=30) as http:
        assert (await http.post(f"{srv.base_url}/api/rooms", json={"name": "Back"})).status_code == 201
    assert await _stored(url, code) == (version + 1, version + 1)
    for c in clients:
        await c.close()
