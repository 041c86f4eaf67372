"""Turn timers (issue 12, app/live/computer/timers.py): a decision past its deadline is made by a computer
player, the log says so, two time-outs in a row hand the seat over until its player takes it
back; and a person's decision racing its time-out in the same millisecond counts exactly once,
decided by the room's version UPDATE, in one process and across two (SQLite and PostgreSQL)."""
from __future__ import annotations

import asyncio
import random
import time
import uuid

import pytest
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, create_async_engine

import engine
from app.config import Settings
from app.store import games as store
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


def test_in_a_turn_based_room_time_outs_never_hand_the_seat_over(settings):
    """The same as above in a turn-based room: every decision made at its deadline, several of
    each seat in a row, and still no seat is a computer player's (docs/rules.md "Play across
    days")."""
    fast = settings.model_copy(update={"turn_based_test_s": 1, "timer_poll_s": 0.1})

    async def scenario():
        async with running(fast) as (live, http):
            host = (await http.post("/api/rooms", json={"name": "P0", "public": False, "pace": "turn",
                                                        "turn_limit_s": 1})).json()
            code = host["code"]
            await http.post(f"/api/rooms/{code}/join", json={"name": "P1"})
            assert (await http.post(f"/api/rooms/{code}/start", headers=auth(host["token"]))).status_code == 200

            async def rows():
                async with live.sessions() as s:
                    return (await s.execute(select(ActionRow.seat, ActionRow.events).join(Room)
                                            .where(Room.code == code).order_by(ActionRow.version))).all()
            got = await wait_for(lambda: _timed_out_in_a_row(rows, 3), timeout_s=40)
            assert all(r.events[0]["type"] == "timed_out" for r in got)
            async with live.sessions() as s:
                levels = (await s.execute(select(Seat.bot_level).join(Room).where(Room.code == code))).scalars().all()
            assert levels == [None, None], "the seats stay their people's"
    asyncio.run(scenario())


async def _timed_out_in_a_row(rows, n):
    """The log once some seat has had `n` of its decisions in a row timed out, else None."""
    got = await rows()
    run: dict[int, int] = {}
    for r in got:
        run[r.seat] = run.get(r.seat, 0) + 1 if r.events[0]["type"] == "timed_out" else 0
        if run[r.seat] >= n:
            return got
    return None


async def _at_least(rows, n):
    got = await rows()
    return got if len(got) >= n else None


async def _handed(seats):
    return any(level == "normal" for level in (await seats()).values())


async def _two_connected(live, http) -> tuple[str, list[str], int, int]:
    """A started 3-seat room without a timer whose seat to act and the next seat count as
    connected (the seat to act idles with its page open): → (code, tokens, seat, other)."""
    code, tokens = await started_room(http, 3, None)
    table = live.tables.get(code)
    async with live.tables.hold(code) as held:
        held.publish(await held.sync())
    seat = table.state.to_act
    other = (seat + 1) % 3
    live.hub.connected_seats = lambda c: {seat, other}
    return code, tokens, seat, other


def test_idle_connected_seat_may_be_handed_over_without_a_timer(settings):
    quick = settings.model_copy(update={"handover_after_s": 1})

    async def scenario():
        async with running(quick) as (live, http):
            code, tokens, seat, other = await _two_connected(live, http)
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


def test_a_seat_back_on_its_decision_is_idle_only_from_its_return(settings):
    """Without a timer, a seat that was away through its decision and came back is not handed
    over as idle until it has been back HANDOVER_AFTER_S (its page shows the decision again)."""
    quick = settings.model_copy(update={"handover_after_s": 1})

    async def scenario():
        async with running(quick) as (live, http):
            code, tokens, seat, other = await _two_connected(live, http)
            await asyncio.sleep(1.1)  # its decision has waited past the delay…
            live.hub.seat_came[(code, seat)] = time.monotonic()  # …and its player just came back
            url = f"/api/rooms/{code}/seats/{seat}/bot"
            r = await http.post(url, json={"level": "easy"}, headers=auth(tokens[other]))
            assert r.status_code == 409 and r.json()["error"]["code"] == "seat_connected"
            await asyncio.sleep(1.1)
            r = await http.post(url, json={"level": "easy"}, headers=auth(tokens[other]))
            assert r.status_code == 200, r.text
    asyncio.run(scenario())


class _Reply:
    """Stands in for the connection of the seat's own player: keeps the frames sent to it."""

    def __init__(self):
        self.frames = []

    def send(self, frame):
        self.frames.append(frame)

    def holds(self, seat, holders):
        """It connected with the token of the person holding the seat (`Connection.holds`)."""
        return True


@pytest.mark.parametrize("races", [RACES])
def test_decision_and_its_time_out_in_the_same_millisecond_count_once(private_migrated_url, races, monkeypatch):
    """Two `Live`s on one database (two server processes): each race sets the deadline to now,
    then the person's decision (through A) and the time-out's (through A or B: the same room
    lock, or only the database's version check between them) are submitted together. (Seats
    are not handed over here, so that no computer player moves between the races.)
    The database is this test's alone: on the session's (`migrated_url`) the session's server
    process looks for due decisions too, and its time-out is a third contender that may commit
    first, so that neither of these two counts (as it should: see the test below)."""
    url = private_migrated_url
    base = _race_settings(url, monkeypatch)

    async def scenario():
        db = create_async_engine(url)
        rng = random.Random(12)
        wins = {"person": 0, "timeout": 0}
        try:
            async with running(base) as (a, http), running(base) as (b, _):
                done, code = 0, None
                while done < races:
                    if code is None:
                        code, _tokens = await started_room(http, 2, 1)
                        await _load_tables(code, a, b)  # (`submit` needs its process's table)
                    table = a.tables.get(code)
                    if engine.is_over(table.state):
                        code = None
                        continue
                    v, seat = table.version, table.state.to_act
                    legal = engine.legal_actions(table.state, seat)
                    mine, auto = rng.choice(legal).to_json(), rng.choice(legal).to_json()
                    await _deadline_now(db, code)
                    timer = (a if done % 2 else b).timers
                    said = _Reply()
                    person = a.actions.act(code, seat, uuid.uuid4().hex, v, mine, reply=said)
                    timeout = timer.submit(code, v, seat, auto)
                    pair = [person, timeout] if rng.random() < 0.5 else [timeout, person]
                    res = await asyncio.gather(*pair)
                    ok_person, ok_timeout = (res if pair[0] is person else res[::-1])
                    assert ok_person != ok_timeout, (done, ok_person, ok_timeout, said.frames)
                    room, log = await _stored(db, code)
                    assert room.version == v + 1 and [r.version for r in log] == list(range(1, v + 2))
                    assert (log[-1].events[0]["type"] == "timed_out") == ok_timeout
                    wins["timeout" if ok_timeout else "person"] += 1
                    done += 1
                    # The process that lost catches up with the next read; both agree.
                    await _load_tables(code, b)
                    assert b.tables.get(code).version == v + 1 == a.tables.get(code).version
        finally:
            await db.dispose()
        print(f"{races} races: {wins}")
        assert wins["person"] and wins["timeout"]

    asyncio.run(scenario())


def test_a_time_out_another_process_committed_first_leaves_the_decision_and_this_time_out_refused(
        private_migrated_url, monkeypatch):
    """The interleaving of issue 12's failure, made on purpose: the decision is past its
    deadline, another process (B) commits its time-out first, and only then do the person's
    decision and A's own time-out of the same decision reach A, whose table is still at that
    version. Both are refused (the person gets `stale_version` with the new version, the
    time-out is dropped), the log holds B's time-out once, and A catches up. Both orders in
    A's room lock: the time-out first (it reads the room: A's table moves to the new version
    before the person's turn) and the person first (the commit's version check refuses it)."""
    url = private_migrated_url
    base = _race_settings(url, monkeypatch)

    async def scenario():
        db = create_async_engine(url)
        try:
            async with running(base) as (a, http), running(base) as (b, _):
                code, _tokens = await started_room(http, 2, 1)

                async def not_yet(_changes):  # A hears of B's commits only later (PostgreSQL's NOTIFY)
                    return None
                a.remote.on_changes = not_yet
                for person_first in (False, True):
                    await _load_tables(code, a, b)  # A's table at the version before B's time-out
                    table = a.tables.get(code)
                    v, seat = table.version, table.state.to_act
                    legal = engine.legal_actions(table.state, seat)
                    await _deadline_now(db, code)
                    assert await b.timers.submit(code, v, seat, legal[0].to_json())  # B's time-out counts
                    assert a.tables.get(code).version == v  # A has not heard of it
                    said = _Reply()
                    person = a.actions.act(code, seat, uuid.uuid4().hex, v, legal[-1].to_json(), reply=said)
                    timeout = a.timers.submit(code, v, seat, legal[-1].to_json())
                    if person_first:
                        ok_person, ok_timeout = await asyncio.gather(person, timeout)
                    else:
                        ok_timeout, ok_person = await asyncio.gather(timeout, person)
                    assert (ok_person, ok_timeout) == (False, False)
                    assert [(f["type"], f["code"]) for f in said.frames] == [("error", "stale_version")]
                    # Person first: refused by the commit's version check, then caught up
                    # (`_lost_race`); time-out first: A's table was caught up by its read.
                    assert said.frames[0]["message"] == (f"The game is at version {v + 1}." if person_first
                                                         else f"The game is at version {v + 1}, not {v}.")
                    room, log = await _stored(db, code)
                    assert room.version == v + 1 and [r.version for r in log] == list(range(1, v + 2))
                    assert log[-1].events[0] == {"type": "timed_out", "seat": seat, "visible_to": None}
                    assert a.tables.get(code).version == v + 1
                assert (a.timers.fired, b.timers.fired) == (0, 2)
        finally:
            await db.dispose()

    asyncio.run(scenario())


def _race_settings(url: str, monkeypatch) -> Settings:
    """The settings of the two processes of a race: a short turn limit, no polling for due
    decisions (each time-out is submitted by the test), and no handover after repeated
    time-outs (no computer player moves between the races)."""
    monkeypatch.setattr("app.live.actions.timeouts.TIMEOUTS_BEFORE_HANDOVER", 10**9)
    return Settings(database_url=url, bot_delay_s=0, bot_time_budget_s=0.05, log_level="warning",
                    turn_limit_test_s=1, timer_poll_s=3600)


async def _load_tables(code: str, *lives) -> None:
    """Each process's table of room `code` caught up with the database."""
    for live in lives:
        async with live.tables.hold(code) as held:
            held.publish(await held.sync())


async def _deadline_now(db, code: str) -> None:
    """The deadline of the decision of room `code` is this very moment."""
    async with db.begin() as conn:
        await conn.execute(update(Room).where(Room.code == code).values(deadline_at=utcnow()))


async def _stored(db, code: str):
    """(the room's version and id, its stored actions' versions and events in order: the action
    rows, or a finished game's packed log once the server compacted it, `store.read_log`)."""
    async with AsyncSession(db) as session:
        room = (await session.execute(select(Room.version, Room.id).where(Room.code == code))).one()
        log = await store.read_log(session, room.id, 0, room.version)
    return room, log


def test_one_process_rests_until_the_next_deadline_and_wakes_for_a_new_one(settings, monkeypatch):
    """One process (SQLite): the turn timers do not look every `timer_poll_s` for nothing, yet
    every deadline still fires on time: the start of a timed game (a room change) and each
    action's next deadline wake them (app/live/computer/timers.py `_rest`)."""
    from app.live.computer import timers as timers_module
    monkeypatch.setattr(timers_module, "IDLE_POLL_S", 600.0)  # only a wake-up can make them look
    fast = settings.model_copy(update={"turn_limit_test_s": 1, "timer_poll_s": 0.1})

    async def scenario():
        async with running(fast) as (live, http):
            assert not live.timers.shared
            looks = 0
            due = live.timers.due

            async def counted():
                nonlocal looks
                looks += 1
                return await due()
            live.timers.due = counted
            # A game without a time limit: nothing to wait for, nothing asked of the database.
            await started_room(http, 2, None)
            await asyncio.sleep(0.3)
            quiet = looks
            await asyncio.sleep(2.0)
            assert looks <= quiet + 1, (quiet, looks)  # not 20 looks (every 0.1 s)

            # A timed game: its first deadline (set at the start) and the next ones (set by each
            # time-out's action) fire about a second apart, not after IDLE_POLL_S.
            code, _tokens = await started_room(http, 2, 1)

            async def timed_out():
                async with live.sessions() as s:
                    rows = (await s.execute(select(ActionRow.events).join(Room).where(Room.code == code))).all()
                return len([r for r in rows if r.events and r.events[0]["type"] == "timed_out"]) >= 3 or None
            began = time.monotonic()
            await wait_for(timed_out, timeout_s=15)
            assert time.monotonic() - began < 10
    asyncio.run(scenario())
