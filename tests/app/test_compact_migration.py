"""Migration 0009 (issue 29) on games a real server stored, on SQLite and PostgreSQL: down to
0008 the stored formats are 0008's again (`games.log` JSON, a compacted room's action rows
back), and up again every finished game is compacted and packed; a server then shows every
game exactly as before and goes on with the game in progress."""
from __future__ import annotations

import asyncio
import json
import random

import httpx
from alembic import command
from sqlalchemy import text

from app.db import make_engine
from app.migrate import alembic_config, upgrade
from app.testing.launcher import NO_ADDRESS_LIMITS, QUIET, ServerProcess

from .helpers import Client, auth, new_game, play
from .rematch_helpers import finished_room
from .test_game_size import _arrival, _seen


async def _rows(url: str, sql: str, **params) -> list:
    db = make_engine(url)
    try:
        async with db.connect() as conn:
            return (await conn.execute(text(sql), params)).all()
    finally:
        await db.dispose()


def rows(url: str, sql: str, **params) -> list:
    return asyncio.run(_rows(url, sql, **params))


async def _compact(url: str, code: str) -> bool:
    from app.db import make_sessionmaker
    from app.records import compact_finished
    db = make_engine(url)
    try:
        async with make_sessionmaker(db)() as session:
            room_id = (await session.execute(text("SELECT id FROM rooms WHERE code = :c"), {"c": code})).scalar()
            done = await compact_finished(session, room_id)
            await session.commit()
            return done
    finally:
        await db.dispose()


def _actions_of(url: str, code: str) -> int:
    return rows(url, "SELECT count(*) FROM actions a JOIN rooms r ON r.id = a.room_id WHERE r.code = :c", c=code)[0][0]


async def _state_of(ws_url: str, code: str, token: str) -> dict:
    """Seat 0's state frame, without its clock (the decision's time runs on)."""
    c = await Client.open(ws_url, code, token, seat=0)
    try:
        return {k: v for k, v in (await c.state()).items() if k != "clock"}
    finally:
        await c.close()


def test_0009_down_and_up_keeps_every_game(fresh_database_url, tmp_path):
    url = fresh_database_url
    upgrade(url)
    srv = ServerProcess(url, tmp_path / "a.log", env={**QUIET, **NO_ADDRESS_LIMITS}).start()
    try:
        base = srv.base_url
        archived, (a_token,) = finished_room(base, people=1, bots=1)
        assert httpx.post(f"{base}/api/rooms/{archived}/again", json={"game": 1},
                          headers=auth(a_token)).json()["new"] is True
        compacted, _ = finished_room(base, people=1, bots=2)
        over, _ = finished_room(base, people=1, bots=3)
        running, tokens = new_game(base, 2)

        async def some_moves():
            clients = [await Client.open(srv.ws_url, running, t, seat=i) for i, t in enumerate(tokens)]
            try:
                return await play(clients, 6, random.Random(3))
            finally:
                for c in clients:
                    await c.close()
        assert asyncio.run(some_moves()) == 6
        seen = {code: _seen(base, srv.ws_url, code) for code in (archived, compacted, over)}
        arrivals = {code: asyncio.run(_arrival(srv.ws_url, code)) for code in (compacted, over)}
        running_state = asyncio.run(_state_of(srv.ws_url, running, tokens[0]))
    finally:
        srv.stop()
    # The server compacted both finished rooms at their end (Actions._compact): nothing is left to do.
    assert asyncio.run(_compact(url, compacted)) is False and asyncio.run(_compact(url, over)) is False
    assert _actions_of(url, compacted) == _actions_of(url, over) == 0

    command.downgrade(alembic_config(url), "0008")
    # 0008's shapes: the archived game's log as JSON, the compacted room's action rows back.
    (log,), = rows(url, "SELECT g.log FROM games g JOIN rooms r ON r.id = g.room_id WHERE r.code = :c", c=archived)
    log = json.loads(log) if isinstance(log, str) else log
    record = seen[archived]["record"]
    assert [{k: a[k] for k in ("version", "seat", "action", "at", "events")} for a in log] == record["actions"]
    assert all(a["action_id"] for a in log)
    assert rows(url, "SELECT count(*) FROM games")[0][0] == 1
    assert _actions_of(url, compacted) == len(seen[compacted]["record"]["actions"])
    assert _actions_of(url, over) == len(seen[over]["record"]["actions"]) and _actions_of(url, running) == 6

    command.upgrade(alembic_config(url), "head")
    # Every finished room compacted (the rooms over), the game in progress untouched.
    assert rows(url, "SELECT count(*) FROM games")[0][0] == 3
    assert _actions_of(url, compacted) == _actions_of(url, over) == 0 and _actions_of(url, running) == 6

    srv = ServerProcess(url, tmp_path / "b.log", env={**QUIET, **NO_ADDRESS_LIMITS}).start()
    try:
        for code in (archived, compacted, over):
            assert _seen(srv.base_url, srv.ws_url, code) == seen[code], code
        for code in (compacted, over):
            assert asyncio.run(_arrival(srv.ws_url, code)) == arrivals[code], code
        assert asyncio.run(_state_of(srv.ws_url, running, tokens[0])) == running_state

        async def go_on():
            clients = [await Client.open(srv.ws_url, running, t, seat=i) for i, t in enumerate(tokens)]
            try:
                return await play(clients, 2, random.Random(4))
            finally:
                for c in clients:
                    await c.close()
        assert asyncio.run(go_on()) == 8
    finally:
        srv.stop()
