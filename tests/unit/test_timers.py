"""Turn timers (issue 12, app/live/timers.py): a decision past its deadline is made by a computer
player, the log says so, two time-outs in a row hand the seat over until its player takes it
back; and a person's decision racing its time-out in the same millisecond counts exactly once,
decided by the room's version UPDATE, in one process and across two (SQLite and PostgreSQL)."""
from __future__ import annotations

import asyncio
import random
import uuid

import pytest
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import create_async_engine

import engine
from app.config import Settings
from app.models import ActionRow, Room, Seat, utcnow
from inprocess import auth, running

RACES = 200


async def started_room(http, players: int, limit_s: int | None) -> tuple[str, list[str]]:
    host = (await http.post("/api/rooms", json={"name": "P0", "public": False, "turn_limit_s": limit_s})).json()
    tokens = [host["token"]]
    for i in range(1, players):
        tokens.append((await http.post(f"/api/rooms/{host['code']}/join", json={"name": f"P{i}"})).json()["token"])
    assert (await http.post(f"/api/rooms/{host['code']}/start", headers=auth(tokens[0]))).status_code == 200
    return host["code"], tokens


async def wait_for(check, timeout_s: float = 20):
    async with asyncio.timeout(timeout_s):
        while True:
            got = await check()
            if got:
                return got
            await asyncio.sleep(0.05)


def test_timer_choices_are_checked_and_shown(settings):
    async def scenario():
        async with running(settings.model_copy(update={"turn_limit_test_s": 2})) as (live, http):
            r = await http.post("/api/rooms", json={"name": "Host", "public": False, "turn_limit_s": 45})
            assert r.status_code == 422 and r.json()["error"]["code"] == "bad_turn_limit"
            host = (await http.post("/api/rooms", json={"name": "Host", "public": False, "turn_limit_s": 60})).json()
            room = (await http.get(f"/api/rooms/{host['code']}")).json()
            assert room["turn_limit_s"] == 60 and room["turn_limits"] == [2, 30, 60, 120, 300]
            bob = (await http.post(f"/api/rooms/{host['code']}/join", json={"name": "Bob"})).json()
            r = await http.post(f"/api/rooms/{host['code']}/timer", json={"turn_limit_s": 2}, headers=auth(bob["token"]))
            assert r.status_code == 403 and r.json()["error"]["code"] == "not_host"
            r = await http.post(f"/api/rooms/{host['code']}/timer", json={"turn_limit_s": 0}, headers=auth(host["token"]))
            assert r.status_code == 200 and r.json()["turn_limit_s"] is None
            r = await http.post(f"/api/rooms/{host['code']}/timer", json={"turn_limit_s": 2}, headers=auth(host["token"]))
            assert r.json()["turn_limit_s"] == 2
            await http.post(f"/api/rooms/{host['code']}/start", headers=auth(host["token"]))
            r = await http.post(f"/api/rooms/{host['code']}/timer", json={"turn_limit_s": 30}, headers=auth(host["token"]))
            assert r.status_code == 409 and r.json()["error"]["code"] == "game_started"
            async with live.sessions() as s:
                row = (await s.execute(select(Room.turn_at, Room.deadline_at).where(Room.code == host["code"]))).one()
            assert (row.deadline_at - row.turn_at).total_seconds() == 2
    asyncio.run(scenario())


def test_time_outs_are_decided_by_the_computer_and_hand_the_seat_over(settings):
    fast = settings.model_copy(update={"turn_limit_test_s": 1, "timer_poll_s": 0.1})

    async def scenario():
        async with running(fast) as (live, http):
            code, tokens = await started_room(http, 2, 1)

            async def rows():
                async with live.sessions() as s:
                    return (await s.execute(select(ActionRow.seat, ActionRow.events).join(Room)
                                            .where(Room.code == code).order_by(ActionRow.version))).all()

            async def seats():
                async with live.sessions() as s:
                    return {r.seat: r.bot_level for r in (await s.execute(
                        select(Seat.seat, Seat.bot_level).join(Room).where(Room.code == code))).all()}

            # Nobody acts: the first decisions are made at their deadlines, each logged as such.
            got = await wait_for(lambda: _at_least(rows, 1))
            assert got[0].events[0] == {"type": "timed_out", "seat": got[0].seat, "visible_to": None}
            # Two time-outs of the same seat in a row: a computer player (normal) takes it over.
            await wait_for(lambda: _handed(seats))
            handed = [n for n, level in (await seats()).items() if level == "normal"]
            assert handed
            seat = handed[0]
            log = await rows()
            mine = [r for r in log if r.seat == seat]
            assert sum(1 for r in mine if r.events[0]["type"] == "timed_out") >= 2
            # Its player takes it back (only they can), and the clock starts again.
            other = tokens[1 - seat]
            r = await http.delete(f"/api/rooms/{code}/seats/{seat}/bot", headers=auth(other))
            assert r.status_code == 403 and r.json()["error"]["code"] == "not_your_seat"
            r = await http.delete(f"/api/rooms/{code}/seats/{seat}/bot", headers=auth(tokens[seat]))
            if r.status_code == 409:  # the game ended meanwhile (computer players are fast)
                assert r.json()["error"]["code"] in ("not_a_bot", "game_over")
            else:
                assert r.status_code == 200 and (await seats())[seat] is None
    asyncio.run(scenario())


async def _at_least(rows, n):
    got = await rows()
    return got if len(got) >= n else None


async def _handed(seats):
    return any(level == "normal" for level in (await seats()).values())


def test_idle_connected_seat_may_be_handed_over_without_a_timer(settings):
    quick = settings.model_copy(update={"handover_after_s": 1})

    async def scenario():
        async with running(quick) as (live, http):
            code, tokens = await started_room(http, 3, None)
            table = live.tables.get(code)
            async with live.tables.hold(code) as held:
                await held.read_room()
            seat = table.state.to_act
            other = (seat + 1) % 3
            # Pretend both are connected (the seat to act idles with its page open).
            live.hub.connected_seats = lambda c: {seat, other}
            url = f"/api/rooms/{code}/seats/{seat}/bot"
            r = await http.post(url, json={"level": "easy"}, headers=auth(tokens[other]))
            assert r.status_code == 409 and r.json()["error"]["code"] == "seat_connected"  # not idle long enough
            await asyncio.sleep(1.1)
            r = await http.post(url, json={"level": "easy"}, headers=auth(tokens[seat]))  # not one's own
            assert r.status_code == 409 and r.json()["error"]["code"] == "seat_connected"
            r = await http.post(url, json={"level": "easy"}, headers=auth(tokens[other]))
            assert r.status_code == 200, r.text
            # The other connected seat has not been to act: it stays refused.
            third = (seat + 2) % 3
            r = await http.post(f"/api/rooms/{code}/seats/{other}/bot", json={"level": "easy"},
                                headers=auth(tokens[third]))
            assert r.status_code in (403, 409)
    asyncio.run(scenario())


class _Reply:
    """Stands in for a connection: keeps the frames sent to it."""

    def __init__(self):
        self.frames = []

    def send(self, frame):
        self.frames.append(frame)


@pytest.mark.parametrize("races", [RACES])
def test_decision_and_its_time_out_in_the_same_millisecond_count_once(migrated_url, races, monkeypatch):
    """Two `Live`s on one database (two server processes): each race sets the deadline to now,
    then the person's decision (through A) and the time-out's (through A or B: the same room
    lock, or only the database's version check between them) are submitted together. (Seats
    are not handed over here, so that no computer player moves between the races.)"""
    monkeypatch.setattr("app.live.actions.TIMEOUTS_BEFORE_HANDOVER", 10**9)
    base = Settings(database_url=migrated_url, bot_delay_s=0, bot_time_budget_s=0.05, log_level="warning",
                    turn_limit_test_s=1, timer_poll_s=3600)

    async def scenario():
        db = create_async_engine(migrated_url)
        rng = random.Random(12)
        wins = {"person": 0, "timeout": 0}
        try:
            async with running(base) as (a, http), running(base) as (b, _):
                done, code = 0, None
                while done < races:
                    if code is None:
                        code, _tokens = await started_room(http, 2, 1)
                        async with a.tables.hold(code) as held:
                            await held.read_room()
                    table = a.tables.get(code)
                    if table.state.phase == "over":
                        code = None
                        continue
                    v, seat = table.version, table.state.to_act
                    legal = engine.legal_actions(table.state, seat)
                    mine, auto = rng.choice(legal).to_json(), rng.choice(legal).to_json()
                    async with db.begin() as conn:  # the deadline is this very moment
                        await conn.execute(update(Room).where(Room.code == code).values(deadline_at=utcnow()))
                    timer = (a if done % 2 else b).timers
                    said = _Reply()
                    person = a.actions.act(code, seat, uuid.uuid4().hex, v, mine, reply=said)
                    timeout = timer.submit(code, v, seat, auto)
                    pair = [person, timeout] if rng.random() < 0.5 else [timeout, person]
                    res = await asyncio.gather(*pair)
                    ok_person, ok_timeout = (res if pair[0] is person else res[::-1])
                    assert ok_person != ok_timeout, (done, ok_person, ok_timeout, said.frames)
                    async with db.connect() as conn:
                        room = (await conn.execute(select(Room.version, Room.id).where(Room.code == code))).one()
                        log = (await conn.execute(select(ActionRow.version, ActionRow.events)
                                                  .where(ActionRow.room_id == room.id)
                                                  .order_by(ActionRow.version))).all()
                    assert room.version == v + 1 and [r.version for r in log] == list(range(1, v + 2))
                    assert (log[-1].events[0]["type"] == "timed_out") == ok_timeout
                    wins["timeout" if ok_timeout else "person"] += 1
                    done += 1
                    # The process that lost catches up with the next read; both agree.
                    async with b.tables.hold(code) as held:
                        await held.read_room()
                    assert b.tables.get(code).version == v + 1 == a.tables.get(code).version
        finally:
            await db.dispose()
        print(f"{races} races: {wins}")
        assert wins["person"] and wins["timeout"]

    asyncio.run(scenario())
