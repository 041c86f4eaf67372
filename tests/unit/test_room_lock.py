"""The room-lock rule is enforced by `Tables.hold`: no transaction waits on a room's lock.

On SQLite (one pooled connection, app/db.py) breaking the rule deadlocks, so these run there:
many concurrent room changes, actions, computer players, presence broadcasts and cleanups
must all finish (bounded by a generous timeout, only there to turn a hang into a failure),
and the misuses that could deadlock raise instead."""
from __future__ import annotations

import asyncio
import random
import uuid

import pytest
from sqlalchemy import func, select

import engine
from app.live.room.lock import RoomLockMisuse
from app.models import ActionRow, Room, Seat
from inprocess import auth, running

HANG_S = 120  # a deadlock never finishes; everything below takes a few seconds


async def make_room(client, players: int, bots: int = 0) -> tuple[str, list[str]]:
    host = (await client.post("/api/rooms", json={"name": "Host", "public": True})).json()
    code, tokens = host["code"], [host["token"]]
    joins = await asyncio.gather(*(client.post(f"/api/rooms/{code}/join", json={"name": f"P{i}"})
                                   for i in range(1, players)))
    tokens += [r.json()["token"] for r in joins]
    for _ in range(bots):
        assert (await client.post(f"/api/rooms/{code}/bots", json={"level": "easy"},
                                  headers=auth(tokens[0]))).status_code == 200
    return code, tokens


async def churn_bots(client, code: str, host: str, rounds: int) -> None:
    """Add a computer player and take it off again, `rounds` times (a waiting room)."""
    for _ in range(rounds):
        seat = (await client.post(f"/api/rooms/{code}/bots", json={"level": "easy"}, headers=auth(host))).json()
        r = await client.delete(f"/api/rooms/{code}/seats/{seat['seat']}", headers=auth(host))
        assert r.status_code == 200, r.text


async def play(live, code: str, human_seats: set[int], actions: int, rng: random.Random) -> int:
    """Submit random legal actions for the human seats until `actions` were applied or the game
    is over (waiting while a computer player is to move); → how many were applied."""
    applied = 0
    table = live.tables.get(code)
    while applied < actions and not engine.is_over(table.state):
        seat = table.state.to_act
        if seat not in human_seats:
            await asyncio.sleep(0.005)  # a computer player's turn
            continue
        action = rng.choice(engine.legal_actions(table.state, seat)).to_json()
        applied += await live.act(code, seat, uuid.uuid4().hex, table.version, action)
    return applied


async def presence_noise(live, code: str, rounds: int) -> None:
    """What a connection's arrival/departure does: the room summary under the lock."""
    for _ in range(rounds):
        async with live.tables.hold(code) as held:
            held.publish(await held.sync(), summary=True)


def test_concurrent_changes_actions_bots_and_cleanup_finish(settings):
    async def scenario():
        async with running(settings) as (live, client):
            rng = random.Random(7)
            games = [await make_room(client, players=3) for _ in range(5)]
            bot_game = await make_room(client, players=2, bots=1)
            waiting = [await make_room(client, players=2) for _ in range(4)]
            starts = await asyncio.gather(*(client.post(f"/api/rooms/{code}/start", headers=auth(tokens[0]))
                                            for code, tokens in games + [bot_game]))
            assert [r.status_code for r in starts] == [200] * len(starts), [r.text for r in starts]
            work = [play(live, code, {0, 1, 2}, 30, rng) for code, _ in games]
            work += [play(live, bot_game[0], {0, 1}, 20, rng)]
            work += [churn_bots(client, code, tokens[0], 5) for code, tokens in waiting]
            work += [presence_noise(live, code, 10) for code, _ in games + waiting]
            work += [live.cleanup_once() for _ in range(3)]
            # refused changes take the lock too: a start twice, a join after the start
            work += [client.post(f"/api/rooms/{code}/start", headers=auth(tokens[0])) for code, tokens in games]
            work += [client.post(f"/api/rooms/{code}/join", json={"name": "Late"}) for code, _ in games]
            results = await asyncio.wait_for(asyncio.gather(*work), HANG_S)
            assert all(n >= 10 for n in results[:len(games)]), results[:len(games)]
            assert [r.status_code for r in results[-2 * len(games):]] == [409] * (2 * len(games))
            # the log and the rooms agree with the tables: every applied action was committed once
            async with live.sessions() as session:
                for code, _ in games + [bot_game]:
                    room = await session.scalar(select(Room).where(Room.code == code))
                    count = await session.scalar(select(func.count(ActionRow.id)).where(ActionRow.room_id == room.id))
                    assert room.version == count == live.tables.get(code).version
                bot_moves = await session.scalar(select(func.count(ActionRow.id)).join(Room).where(
                    Room.code == bot_game[0], ActionRow.seat == 2))
                assert bot_moves > 0  # the computer player (seat 2) played between the people
                for code, _ in waiting:
                    seats = await session.scalar(select(func.count(Seat.id)).join(Room).where(Room.code == code))
                    assert seats == 2
    asyncio.run(scenario())


def test_holding_two_room_locks_in_one_task_raises(settings):
    async def scenario():
        async with running(settings) as (live, client):
            a, _ = await make_room(client, players=1)
            b, _ = await make_room(client, players=1)
            async with live.tables.hold(a):
                with pytest.raises(RoomLockMisuse):
                    async with live.tables.hold(b):
                        pass
                with pytest.raises(RoomLockMisuse):  # the same room again would wait for itself
                    async with live.tables.hold(a):
                        pass
            # both locks are free again
            async with live.tables.hold(b), asyncio.timeout(5):
                pass
            assert not live.tables.get(a).lock.locked() and not live.tables.get(b).lock.locked()
    asyncio.run(scenario())


def test_a_session_with_unsaved_changes_may_not_wait_for_a_lock(settings):
    async def scenario():
        async with running(settings) as (live, client):
            code, _ = await make_room(client, players=1)
            async with live.sessions() as session:
                room = await session.scalar(select(Room).where(Room.code == code))
                room.public = False
                with pytest.raises(RoomLockMisuse):
                    async with live.tables.hold(code, release=session):
                        pass
                await session.rollback()
            async with asyncio.timeout(5), live.tables.hold(code) as held:  # nothing was left held
                assert (await held.sync()).room.public is True
    asyncio.run(scenario())


def test_a_released_read_transaction_is_ended_before_waiting(settings):
    """A caller that read in its session hands it in (`release`): it is committed before the
    wait, so the lock's holder, which needs SQLite's one connection, can finish."""
    async def scenario():
        async with running(settings) as (live, client):
            code, tokens = await make_room(client, players=1)
            holding = asyncio.Event()

            async def holder():
                async with live.tables.hold(code) as held:
                    holding.set()
                    await asyncio.sleep(0.2)  # meanwhile the other task reads and waits for the lock
                    await held.session.execute(select(Room.id))  # needs the connection
            task = asyncio.create_task(holder())
            await holding.wait()
            async with live.sessions() as session:
                await session.scalar(select(Room.id).where(Room.code == code))
                assert session.in_transaction()
                async with asyncio.timeout(HANG_S):
                    async with live.tables.hold(code, release=session) as held:
                        assert not session.in_transaction()
                        assert (await held.sync()).room.code == code
            await task
    asyncio.run(scenario())
