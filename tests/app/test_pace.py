"""Turn-based rooms, "away until" and the host's pause (issue 31; app/pace.py, docs/protocol.md
"Pace, away and pause"), with real `osaka serve` processes on SQLite and PostgreSQL.

The stored clock is read from the database itself: `deadline_at` must move by exactly the away
or paused time (the server stamps whole seconds for the away, so the test bounds the moment it
was set between its own clock readings before and after the request)."""
from __future__ import annotations

import asyncio
import random
import time
from datetime import datetime, timedelta, timezone

import httpx
import pytest
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import create_async_engine

from app.models import Room, Seat
from tests.conftest import Server

from .helpers import Client, auth, create_room, join_room, pick_action, start

TURN = {"TURN_BASED_TEST_S": "3", "TIMER_POLL_S": "0.2", "BOT_DELAY_S": "0", "BOT_TIME_BUDGET_S": "0.05",
        "CLEANUP_INTERVAL_S": "3600"}


def utc() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


def iso(ts: datetime) -> str:
    return ts.replace(microsecond=0).isoformat() + "Z"


def db(url: str, fn):
    """Run `fn(conn)` (async) on a connection of the test's own to `url` → its result."""
    async def go():
        engine = create_async_engine(url)
        try:
            async with engine.begin() as conn:
                return await fn(conn)
        finally:
            await engine.dispose()
    return asyncio.run(go())


def clock_of(url: str, code: str):
    """(version, to_act, turn_at, deadline_at, paused_at) of room `code` as stored."""
    return db(url, lambda c: _clock(c, code))


async def _clock(conn, code):
    r = (await conn.execute(select(Room.version, Room.to_act, Room.turn_at, Room.deadline_at, Room.paused_at)
                            .where(Room.code == code))).first()
    return r


def turn_room(base: str, limit: int = 3, players: int = 2) -> tuple[str, list[str]]:
    r = httpx.post(base + "/api/rooms", json={"name": "Hana", "public": False, "pace": "turn", "turn_limit_s": limit})
    assert r.status_code == 201, r.text
    host = r.json()
    tokens = [host["token"]] + [join_room(base, host["code"], f"P{i}")["token"] for i in range(1, players)]
    return host["code"], tokens


def summary(base: str, code: str, token: str | None = None) -> dict:
    r = httpx.get(f"{base}/api/rooms/{code}", headers=auth(token) if token else None)
    assert r.status_code == 200, r.text
    return r.json()


def code_of(r: httpx.Response) -> str:
    return r.json()["error"]["code"]


# --------------------------------------------------------------------- pace at creation

def test_create_and_change_the_pace(server_factory):
    srv = server_factory(**TURN)
    base = srv.base_url
    code, tokens = turn_room(base, 3600)
    room = summary(base, code)
    assert room["pace"] == "turn" and room["turn_limit_s"] == 3600
    assert room["turn_based_limits"] == [3, 3600, 28800, 86400, 259200]
    assert room["turn_limits"][-4:] == [30, 60, 120, 300]  # the live choices as before
    assert room["paused_at"] is None
    assert all(p["away_until"] is None and p["away_left_s"] == 7 * 86400 for p in room["players"])
    for body, want in [({"pace": "turn"}, "bad_pace_limit"), ({"pace": "turn", "turn_limit_s": 60}, "bad_pace_limit"),
                       ({"pace": "live", "turn_limit_s": 3600}, "bad_pace_limit"),
                       ({"pace": "live", "turn_limit_s": 45}, "bad_turn_limit"),
                       ({"pace": "slow", "turn_limit_s": 3600}, "bad_pace")]:
        r = httpx.post(base + "/api/rooms", json={"name": "Ann", **body})
        assert r.status_code == 422 and code_of(r) == want, (body, r.text)
        r = httpx.post(f"{base}/api/rooms/{code}/timer", json=body, headers=auth(tokens[0]))
        assert r.status_code == 422 and code_of(r) == want, (body, r.text)
    # Before the game: to live with a live timer and back; a body without pace keeps the room's.
    r = httpx.post(f"{base}/api/rooms/{code}/timer", json={"pace": "live", "turn_limit_s": 60}, headers=auth(tokens[0]))
    assert r.status_code == 200 and r.json()["pace"] == "live" and r.json()["turn_limit_s"] == 60
    r = httpx.post(f"{base}/api/rooms/{code}/timer", json={"turn_limit_s": 3600}, headers=auth(tokens[0]))
    assert r.status_code == 422 and code_of(r) == "bad_pace_limit"
    r = httpx.post(f"{base}/api/rooms/{code}/timer", json={"pace": "turn", "turn_limit_s": 86400}, headers=auth(tokens[0]))
    assert r.status_code == 200 and r.json()["pace"] == "turn" and r.json()["turn_limit_s"] == 86400
    r = httpx.post(f"{base}/api/rooms/{code}/timer", json={"turn_limit_s": 28800}, headers=auth(tokens[0]))
    assert r.status_code == 200 and r.json()["pace"] == "turn" and r.json()["turn_limit_s"] == 28800
    r = httpx.post(f"{base}/api/rooms/{code}/timer", json={"pace": "turn", "turn_limit_s": 3600}, headers=auth(tokens[1]))
    assert r.status_code == 403 and code_of(r) == "not_host"
    # A live room as before: no pace given
    live = create_room(base, "Lou")
    assert summary(base, live["code"])["pace"] == "live"
    start(base, code, tokens[0])
    r = httpx.post(f"{base}/api/rooms/{code}/timer", json={"pace": "live"}, headers=auth(tokens[0]))
    assert r.status_code == 409 and code_of(r) == "game_started"


def test_the_lobby_says_the_pace(server_factory):
    srv = server_factory(**TURN)
    r = httpx.post(srv.base_url + "/api/rooms", json={"name": "Hana", "pace": "turn", "turn_limit_s": 86400})
    host = r.json()
    code = host["code"]

    async def listed():
        c = await Client.open(srv.ws_url, code, host["token"], seat=0)  # a seated person present: listed
        try:
            await c.wait(lambda m: m["type"] == "room")
            return await asyncio.to_thread(_lobby_entry, srv.base_url, code)
        finally:
            await c.close()
    entry = asyncio.run(listed())
    assert entry is not None and entry["pace"] == "turn" and entry["turn_limit_s"] == 86400


def _lobby_entry(base, code):
    """The lobby's entry of room `code` (None if the lobby has none within 5 s)."""
    for _ in range(50):
        hit = next((r for r in httpx.get(base + "/api/rooms").json() if r["code"] == code), None)
        if hit is not None:
            return hit
        time.sleep(0.1)
    return None


# --------------------------------------------------------------------- away

def test_away_moves_the_running_deadline_by_exactly_the_away_time(server_factory, migrated_url):
    srv = server_factory(**TURN)
    base = srv.base_url
    code, tokens = turn_room(base, 3600)
    start(base, code, tokens[0])
    v, to_act, turn0, dead0, _ = clock_of(migrated_url, code)
    assert dead0 - turn0 == timedelta(seconds=3600)
    other = 1 - to_act
    until = (utc() + timedelta(hours=5)).replace(microsecond=0)
    before = utc().replace(microsecond=0)
    r = httpx.put(f"{base}/api/rooms/{code}/away", json={"until": iso(until)}, headers=auth(tokens[to_act]))
    after = utc()
    assert r.status_code == 200, r.text
    me = r.json()["players"][to_act]
    assert me["away_until"] == iso(until)
    _, _, turn1, dead1, _ = clock_of(migrated_url, code)
    set_at = until - (dead1 - dead0)  # the moment the server counted the away from
    assert before <= set_at <= after, (before, set_at, after)
    assert dead1 - turn1 == timedelta(seconds=3600)  # turn_at moves with it
    # What may still be set from now: the budget less what has passed of the away (not its rest)
    assert 7 * 86400 - 5 <= me["away_left_s"] <= 7 * 86400
    # Shown to the others
    assert summary(base, code, tokens[other])["players"][to_act]["away_until"] == iso(until)
    # Clearing early gives the rest back and shortens the deadline again
    before = utc().replace(microsecond=0)
    r = httpx.put(f"{base}/api/rooms/{code}/away", json={"until": None}, headers=auth(tokens[to_act]))
    after = utc()
    assert r.status_code == 200, r.text
    _, _, _, dead2, _ = clock_of(migrated_url, code)
    cleared_at = until - (dead1 - dead2)
    assert before <= cleared_at <= after
    me = r.json()["players"][to_act]
    assert me["away_until"] is None
    assert me["away_left_s"] == 7 * 86400 - int((cleared_at - set_at).total_seconds())
    # The other seat's away does not move this decision's clock
    r = httpx.put(f"{base}/api/rooms/{code}/away", json={"until": iso(until)}, headers=auth(tokens[other]))
    assert r.status_code == 200
    assert clock_of(migrated_url, code)[3] == dead2


def test_away_refusals(server_factory):
    srv = server_factory(**TURN)
    base = srv.base_url
    code, tokens = turn_room(base, 3600)
    put = lambda body, token=tokens[1]: httpx.put(f"{base}/api/rooms/{code}/away", json=body,  # noqa: E731
                                                  headers=auth(token) if token else None)
    r = put({"until": iso(utc() + timedelta(days=7, minutes=5))})
    assert r.status_code == 422 and code_of(r) == "away_too_long" and r.json()["error"]["left_s"] == 7 * 86400
    r = put({"until": iso(utc() - timedelta(minutes=1))})
    assert r.status_code == 422 and code_of(r) == "bad_away_time"
    r = put({"until": "next tuesday"})
    assert r.status_code == 422 and code_of(r) == "bad_request"
    r = put({"until": None}, token=None)
    assert r.status_code == 401 and code_of(r) == "unauthorized"
    # Counted as used: 6 days now, then only about one more day
    assert put({"until": iso(utc() + timedelta(days=6))}).status_code == 200
    r = put({"until": iso(utc() + timedelta(days=6, hours=1))})  # changing it: the 6 days are not counted twice
    assert r.status_code == 200
    r = put({"until": iso(utc() + timedelta(days=7, hours=1))})
    assert r.status_code == 422 and code_of(r) == "away_too_long"
    live = create_room(base, "Lou")
    r = httpx.put(f"{base}/api/rooms/{live['code']}/away", json={"until": None}, headers=auth(live["token"]))
    assert r.status_code == 409 and code_of(r) == "not_turn_based"


def test_a_decision_starting_while_away_gets_its_deadline_after_the_away(server_factory, migrated_url):
    srv = server_factory(**TURN)
    base = srv.base_url
    code, tokens = turn_room(base, 3)
    until = (utc() + timedelta(seconds=6)).replace(microsecond=0)
    for token in tokens:  # both away (before the start): whoever begins
        assert httpx.put(f"{base}/api/rooms/{code}/away", json={"until": iso(until)},
                         headers=auth(token)).status_code == 200
    start(base, code, tokens[0])
    v, to_act, turn_at, deadline, _ = clock_of(migrated_url, code)
    assert turn_at == until and deadline == until + timedelta(seconds=3)
    # No time-out before the shifted deadline, one after it
    while utc() < until + timedelta(seconds=2):
        assert clock_of(migrated_url, code)[0] == 0
        time.sleep(0.3)
    limit = time.monotonic() + 15
    while clock_of(migrated_url, code)[0] == 0 and time.monotonic() < limit:
        time.sleep(0.2)
    assert clock_of(migrated_url, code)[0] >= 1
    assert utc() >= deadline


# --------------------------------------------------------------------- pause

def test_pause_and_resume(server_factory, migrated_url):
    srv = server_factory(**TURN)
    base = srv.base_url
    code, tokens = turn_room(base, 3)
    r = httpx.post(f"{base}/api/rooms/{code}/pause", headers=auth(tokens[0]))
    assert r.status_code == 409 and code_of(r) == "game_not_started"
    start(base, code, tokens[0])
    r = httpx.post(f"{base}/api/rooms/{code}/pause", headers=auth(tokens[1]))
    assert r.status_code == 403 and code_of(r) == "not_host"
    r = httpx.post(f"{base}/api/rooms/{code}/resume", headers=auth(tokens[0]))
    assert r.status_code == 409 and code_of(r) == "not_paused"

    async def paused_game():
        c = [await Client.open(srv.ws_url, code, t, seat=i) for i, t in enumerate(tokens)]
        first = await c[0].state(0)
        to_act = first["view"]["to_act"]
        r = httpx.post(f"{base}/api/rooms/{code}/pause", headers=auth(tokens[0]))
        assert r.status_code == 200 and r.json()["paused_at"] is not None, r.text
        room = await c[1].wait(lambda m: m["type"] == "room" and m["room"]["paused_at"] is not None)
        assert room["room"]["paused_at"] == r.json()["paused_at"]
        state = await c[1].wait(lambda m: m["type"] == "state" and (m.get("clock") or {}).get("paused"))
        assert state["clock"]["left_ms"] <= 3000
        r2 = httpx.post(f"{base}/api/rooms/{code}/pause", headers=auth(tokens[0]))
        assert r2.status_code == 409 and code_of(r2) == "game_paused"
        # No action counts while paused: a person's is refused with game_paused
        own = await c[to_act].state(0)
        n = len(c[to_act].msgs)
        await c[to_act].act(0, pick_action(own["view"], random.Random(1)))
        err = await c[to_act].wait(lambda m: m["type"] == "error", start=n)
        assert err["code"] == "game_paused"
        # Chat still works
        await c[0].send({"type": "chat", "text": "back soon"})
        await c[1].wait(lambda m: m["type"] == "chat" and any(x["text"] == "back soon" for x in m["messages"]))
        for x in c:
            await x.close()
        return to_act
    asyncio.run(paused_game())
    _, _, turn0, dead0, paused_at = clock_of(migrated_url, code)
    assert paused_at is not None
    time.sleep(4.5)  # past the 3 s deadline: no time-out fires for a paused game
    assert clock_of(migrated_url, code)[0] == 0
    before = utc()
    r = httpx.post(f"{base}/api/rooms/{code}/resume", headers=auth(tokens[0]))
    after = utc()
    assert r.status_code == 200 and r.json()["paused_at"] is None, r.text
    v, _, turn1, dead1, p = clock_of(migrated_url, code)
    assert p is None and v == 0
    assert before - paused_at <= dead1 - dead0 <= after - paused_at  # moved by exactly the paused time
    assert turn1 - turn0 == dead1 - dead0
    limit = time.monotonic() + 15
    while clock_of(migrated_url, code)[0] == 0 and time.monotonic() < limit:
        time.sleep(0.2)
    assert clock_of(migrated_url, code)[0] >= 1 and utc() >= dead1  # the time-out after the moved deadline


def test_a_paused_game_stays_paused_over_a_restart(private_migrated_url, tmp_path):
    url = private_migrated_url
    a = Server(url, tmp_path / "a.log", **TURN).start()
    try:
        code, tokens = turn_room(a.base_url, 3, players=2)
        httpx.post(f"{a.base_url}/api/rooms/{code}/bots", json={"level": "easy"}, headers=auth(tokens[0]))
        start(a.base_url, code, tokens[0])
        r = httpx.post(f"{a.base_url}/api/rooms/{code}/pause", headers=auth(tokens[0]))
        assert r.status_code == 200, r.text
        v0, _, turn0, dead0, paused_at = clock_of(url, code)
        a.stop()
        time.sleep(6)  # down longer than downtime.PAUSE_AFTER_S: the restart's shift must skip this room
        b = Server(url, tmp_path / "b.log", **TURN).start()
        try:
            time.sleep(4)  # past the 3 s deadline, with the computer player in the game
            room = summary(b.base_url, code)
            assert room["paused_at"] is not None and room["version"] == v0
            assert clock_of(url, code)[2:] == (turn0, dead0, paused_at)  # no downtime shift while paused
            before = utc()
            r = httpx.post(f"{b.base_url}/api/rooms/{code}/resume", headers=auth(tokens[0]))
            after = utc()
            assert r.status_code == 200, r.text
            _, _, _, dead1, _ = clock_of(url, code)
            assert before - paused_at <= dead1 - dead0 <= after - paused_at  # once, not twice
            limit = time.monotonic() + 20
            while summary(b.base_url, code)["version"] == v0 and time.monotonic() < limit:
                time.sleep(0.2)
            assert summary(b.base_url, code)["version"] > v0  # the game goes on (time-out or computer)
        finally:
            b.stop()
    finally:
        a.stop()


# --------------------------------------------------------------------- turn-based upkeep

def test_no_idle_handover_in_a_turn_based_room(server_factory):
    srv = server_factory(**TURN, HANDOVER_AFTER_S="0")
    base = srv.base_url
    code, tokens = turn_room(base, 3600, players=3)
    start(base, code, tokens[0])

    async def go():
        c = await Client.open(srv.ws_url, code, tokens[1], seat=1)  # seat 1 connected, seat 2 offline
        await c.state(0)
        r = await asyncio.to_thread(httpx.post, f"{base}/api/rooms/{code}/seats/2/bot", json={"level": "easy"},
                                    headers=auth(tokens[1]))
        await c.close()
        return r
    r = asyncio.run(go())
    assert r.status_code == 409 and code_of(r) == "turn_based_room", r.text
    # The host may still decide to hand a seat over
    r = httpx.post(f"{base}/api/rooms/{code}/seats/2/bot", json={"level": "easy"}, headers=auth(tokens[0]))
    assert r.status_code == 200, r.text


def test_the_cleanup_keeps_turn_based_rooms(private_migrated_url, tmp_path):
    url = private_migrated_url
    env = {**TURN, "ROOM_TTL_S": "1", "UNUSED_ROOM_TTL_S": "1", "CLEANUP_INTERVAL_S": "0.5"}
    a = Server(url, tmp_path / "a.log", **env).start()
    try:
        waiting, _ = turn_room(a.base_url, 86400)
        playing, tokens = turn_room(a.base_url, 86400)
        start(a.base_url, playing, tokens[0])
        never = httpx.post(a.base_url + "/api/rooms", json={"name": "Solo", "pace": "turn",
                                                            "turn_limit_s": 86400}).json()["code"]
        r = httpx.post(a.base_url + "/api/rooms", json={"name": "Solo"}).json()
        live = r["code"]
        long_ago = utc() - timedelta(days=3)

        async def age(conn):  # days without anyone connected; the started one never connected at all
            await conn.execute(update(Room).where(Room.code.in_([waiting, live])).values(active_at=long_ago))
            await conn.execute(update(Room).where(Room.code == playing).values(active_at=long_ago, created_at=long_ago))
            await conn.execute(update(Room).where(Room.code == never).values(active_at=long_ago, created_at=long_ago))
        db(url, age)
        limit = time.monotonic() + 10
        while httpx.get(f"{a.base_url}/api/rooms/{live}").status_code != 404 and time.monotonic() < limit:
            time.sleep(0.2)
        assert httpx.get(f"{a.base_url}/api/rooms/{live}").status_code == 404  # the live one went
        assert httpx.get(f"{a.base_url}/api/rooms/{never}").status_code == 404  # never joined nor connected
        assert httpx.get(f"{a.base_url}/api/rooms/{waiting}").status_code == 200
        assert httpx.get(f"{a.base_url}/api/rooms/{playing}").status_code == 200

        async def older(conn):  # past TURN_ROOM_TTL_S (30 days) the waiting one goes too
            await conn.execute(update(Room).where(Room.code == waiting).values(active_at=utc() - timedelta(days=31)))
        db(url, older)
        limit = time.monotonic() + 10
        while httpx.get(f"{a.base_url}/api/rooms/{waiting}").status_code != 404 and time.monotonic() < limit:
            time.sleep(0.2)
        assert httpx.get(f"{a.base_url}/api/rooms/{waiting}").status_code == 404
        assert httpx.get(f"{a.base_url}/api/rooms/{playing}").status_code == 200
    finally:
        a.stop()


def test_play_again_gives_the_away_time_back(server_factory):
    """The away budget is per game: a new game (play again) starts it afresh (app/rematch.py)."""
    srv = server_factory(**TURN)
    base = srv.base_url
    code, tokens = turn_room(base, 3600)
    start(base, code, tokens[0])
    r = httpx.put(f"{base}/api/rooms/{code}/away", json={"until": iso(utc() + timedelta(days=5))},
                  headers=auth(tokens[1]))
    assert r.status_code == 200

    async def later(conn):  # five days on: the away is over and used; then the game ended
        await conn.execute(update(Seat).where(Seat.room_id == select(Room.id).where(Room.code == code)
                                              .scalar_subquery(), Seat.seat == 1)
                           .values(away_until=utc() - timedelta(minutes=1)))
        await conn.execute(update(Room).where(Room.code == code).values(status="over"))
    db(srv.database_url, later)
    p = summary(base, code)["players"][1]
    assert p["away_until"] is None and 2 * 86400 - 5 <= p["away_left_s"] <= 2 * 86400
    r = httpx.put(f"{base}/api/rooms/{code}/away", json={"until": iso(utc() + timedelta(days=3))},
                  headers=auth(tokens[1]))
    assert r.status_code == 409 and code_of(r) == "game_over"
    r = httpx.post(f"{base}/api/rooms/{code}/again", json={}, headers=auth(tokens[0]))
    assert r.status_code == 200, r.text
    p = summary(base, code)["players"][1]
    assert p["away_until"] is None and p["away_left_s"] == 7 * 86400
    r = httpx.put(f"{base}/api/rooms/{code}/away", json={"until": iso(utc() + timedelta(days=3))},
                  headers=auth(tokens[1]))
    assert r.status_code == 200, r.text


# --------------------------------------------------------------------- two processes

@pytest.mark.postgresql_only
def test_a_pause_in_one_process_holds_in_the_other(server_factory, migrated_url):
    """PostgreSQL, two server processes: the host pauses through A; a move sent through B is
    refused (`game_paused`), B's connections get the standing clock and, after the resume
    through A, the moved one."""
    assert migrated_url.startswith("postgresql"), "several processes need PostgreSQL"
    a, b = server_factory(**TURN), server_factory(**TURN)
    code, tokens = turn_room(a.base_url, 3600)
    start(a.base_url, code, tokens[0])

    async def go():
        c = [await Client.open(b.ws_url, code, t, seat=i) for i, t in enumerate(tokens)]
        first = await c[0].state(0)
        to_act = first["view"]["to_act"]
        r = await asyncio.to_thread(httpx.post, f"{a.base_url}/api/rooms/{code}/pause", headers=auth(tokens[0]))
        assert r.status_code == 200, r.text
        stood = await c[1].wait(lambda m: m["type"] == "state" and (m.get("clock") or {}).get("paused"))
        own = await c[to_act].state(0)
        n = len(c[to_act].msgs)
        await c[to_act].act(0, pick_action(own["view"], random.Random(2)))
        err = await c[to_act].wait(lambda m: m["type"] == "error", start=n)
        assert err["code"] == "game_paused"
        await asyncio.sleep(1.0)
        n = len(c[1].msgs)
        r = await asyncio.to_thread(httpx.post, f"{a.base_url}/api/rooms/{code}/resume", headers=auth(tokens[0]))
        assert r.status_code == 200, r.text
        going = await c[1].wait(lambda m: m["type"] == "state" and m.get("clock") and not m["clock"].get("paused"),
                                start=n)
        # It stood still for the paused time: nearly as much left as at the pause
        assert stood["clock"]["left_ms"] - going["clock"]["left_ms"] < 900
        n = len(c[to_act].msgs)
        await c[to_act].act(0, pick_action(own["view"], random.Random(2)))
        await c[to_act].state(1)
        for x in c:
            await x.close()
    asyncio.run(go())
    assert clock_of(migrated_url, code)[0] == 1
