"""Smaller protocol faults of issue 11: error frames of refused-unread messages carry their `id`;
concurrent joins across two processes see `room_full`, never `conflict`; a computer player's
move refused because its player took the seat back is logged once."""
from __future__ import annotations

import asyncio
import random

import httpx
import pytest

from .helpers import Client, auth, create_room, new_game, pick_action, room_log


def test_oversized_and_rate_limited_errors_carry_the_id(server):
    code, tokens = new_game(server.base_url, 2)

    async def scenario():
        c = await Client.open(server.ws_url, code, tokens[0], seat=0)
        await c.state(0)
        mark = len(c.msgs)
        await c.send({"type": "act", "id": "big-1", "version": 0, "action": {"pad": "x" * 70_000}})
        err = await c.wait(lambda m: m["type"] == "error", start=mark)
        assert (err["code"], err["id"]) == ("bad_message", "big-1")
        # A burst over the flood limit: every refusal names the frame it refused.
        mark = len(c.msgs)
        sent = [f"flood-{i}" for i in range(90)]
        for action_id in sent:
            await c.send({"type": "act", "id": action_id, "version": 999, "action": {"type": "pass"}})
        await c.wait(lambda m: m.get("id") == sent[-1], start=mark)
        errors = [m for m in c.msgs[mark:] if m["type"] == "error"]
        limited = [m for m in errors if m["code"] == "rate_limited"]
        assert limited and all(m["code"] in ("rate_limited", "stale_version") for m in errors)
        assert sorted(m["id"] for m in errors) == sorted(sent)  # one answer per frame, its id
        await c.close()

    asyncio.run(scenario())


@pytest.mark.postgresql_only
def test_concurrent_joins_across_two_processes_get_room_full_not_conflict(server, server_factory):
    """Eight joins at once, four through each of two server processes, into rooms with three
    free seats: three are seated, five get `room_full` (a lost race is retried inside)."""
    other = server_factory()

    async def one_room(http: httpx.AsyncClient) -> list[tuple[int, str | None]]:
        code = create_room(server.base_url, "Host", public=False)["code"]
        bases = [server.base_url, other.base_url] * 4
        answers = await asyncio.gather(*(http.post(f"{base}/api/rooms/{code}/join", json={"name": f"P{i}"})
                                         for i, base in enumerate(bases)))
        return [(a.status_code, a.json().get("error", {}).get("code")) for a in answers]

    async def scenario():
        async with httpx.AsyncClient(timeout=30) as http:
            return [await one_room(http) for _ in range(12)]

    for answers in asyncio.run(scenario()):
        assert sorted(answers, key=str) == sorted([(200, None)] * 3 + [(409, "room_full")] * 5, key=str), answers


def test_a_bot_move_refused_after_the_seat_was_taken_back_is_logged_once(server_factory):
    """The host hands Bob's seat to a computer player, which decides, waits BOT_DELAY_S, starts
    its worker process and thinks; Bob takes the seat back meanwhile. Its move is refused
    (`not_a_bot_seat`, logged once, no warning) and Bob plays on from the same version.

    The take-back must come before the computer player's move for this to test anything: the
    delay is long (BOT_DELAY_S=5) so that it does even on a machine loaded many times over (with
    2 s, Bob's socket at load 10-20 sometimes came after the move, which is a legitimate order:
    the seat was still the computer's; that was this test's intermittent failure). Asserted
    explicitly, so such a failure names its cause."""
    srv = server_factory(BOT_DELAY_S="5", BOT_TIME_BUDGET_S="0.05", LOG_LEVEL="debug")  # applied lines too
    code, (host, bob) = new_game(srv.base_url, 2)

    async def scenario():
        h = await Client.open(srv.ws_url, code, host, seat=0)
        state = await h.state(0)
        while state["view"]["to_act"] != 1:  # play the host's decisions until it is Bob's
            await h.act(state["version"], pick_action(state["view"], random.Random(1)))
            state = await h.state(state["version"] + 1)
        r = await asyncio.to_thread(httpx.post, f"{srv.base_url}/api/rooms/{code}/seats/1/bot",
                                    json={"level": "easy"}, headers=auth(host))
        assert r.status_code == 200, r.text
        await asyncio.sleep(0.5)  # the computer player waits BOT_DELAY_S before it moves
        b = await Client.open(srv.ws_url, code, bob, seat=1)  # Bob takes his seat back
        await b.wait(lambda m: m["type"] == "room" and not m["room"]["players"][1]["bot"])
        assert _bot_outcomes(srv, code) == [], "the computer player moved before Bob was back (machine too slow?)"
        # The computer player's move arrives meanwhile (a worker process starts, then thinks),
        # and is refused.
        for _ in range(600):
            if _bot_outcomes(srv, code):
                break
            await asyncio.sleep(0.1)
        mine = await b.state(state["version"])
        assert mine["version"] == state["version"] and mine["view"]["to_act"] == 1
        await b.act(mine["version"], pick_action(mine["view"], random.Random(2)))
        assert (await b.state(mine["version"] + 1))["version"] == mine["version"] + 1  # Bob plays on
        for c in (h, b):
            await c.close()

    asyncio.run(scenario())
    srv.stop()
    assert _bot_outcomes(srv, code) == ["not_a_bot_seat"]
    assert not [x for x in room_log(srv, code) if x["level"] == "warning" and x["logger"] == "osaka.bots"]


def _bot_outcomes(srv, code: str) -> list[str]:
    """The outcomes of room `code`'s computer players' actions so far (the server's `action`
    log lines; the server also resumes other tests' games: `room_log`)."""
    return [x["outcome"] for x in room_log(srv, code) if x.get("msg") == "action" and x.get("by") == "bot"]


def test_sockets_over_the_address_limit_are_refused_with_4429(server_factory):
    srv = server_factory(CONNECT_ADDRESS_LIMIT="4/minute")
    code, _ = new_game(srv.base_url, 2)

    async def scenario():
        admitted = [await Client.open(srv.ws_url, code) for _ in range(4)]
        for c in admitted:
            assert (await c.state(0))["version"] == 0
        refused = await Client.open(srv.ws_url, code)
        assert (await refused.wait(lambda m: m["type"] == "error"))["code"] == "too_many_connections"
        await asyncio.wait_for(refused.closed.wait(), 10)
        assert refused.ws.close_code == 4429 and not [m for m in refused.msgs if m["type"] == "state"]
        for c in admitted:
            await c.close()

    asyncio.run(scenario())


def test_a_bot_action_is_not_stored_once_another_process_took_the_seat_back(server_factory, migrated_url):
    """Several processes (PostgreSQL): a person may take a computer player's seat back through
    another process at any moment, which no room lock here orders. A computer player's action
    carries its seat and level into the storing transaction (`Pending.bot`, app/store/), which
    reads the seat's row with a share lock: here the take-back is an open transaction of
    "another process" when the action is committed; once it commits, the action is refused
    (`not_a_bot`), nothing is stored and the room stays at its version. (Without the check the
    action would be stored regardless.) Runs on SQLite too, where the take-back's write lock
    holds the writer back the same way."""
    from sqlalchemy import select, update

    import engine as game
    from app.db import make_engine
    from app.store import games as store
    from app.live.actions.commits import Committer, Pending
    from app.live.fanout.base import LocalFanout
    from app.models import ActionRow, Room, Seat, utcnow

    srv = server_factory(BOT_DELAY_S="600")  # the computer player never gets to move by itself
    code, (host, _bob) = new_game(srv.base_url, 2)

    async def scenario():
        db = make_engine(migrated_url)
        try:
            async with db.connect() as conn:
                room = (await conn.execute(select(Room.id, Room.version, Room.state).where(Room.code == code))).one()
            state = store.load_state(room.state)
            seat = state.to_act  # handed to a computer player (nobody is connected: even the host's own)
            r = await asyncio.to_thread(httpx.post, f"{srv.base_url}/api/rooms/{code}/seats/{seat}/bot",
                                        json={"level": "easy"}, headers=auth(host))
            assert r.status_code == 200, r.text
            action = game.legal_actions(state, seat)[0]
            new_state, events = game.play(state, seat, action)
            row = {"room_id": room.id, "version": room.version + 1, "action_id": "bot:race", "seat": seat,
                   "action": action.to_json(), "events": events, "created_at": utcnow()}
            bump = {"room_id": room.id, "old_version": room.version, "new_version": room.version + 1,
                    "new_status": "playing", **store.snapshot_values(new_state)}
            pending = Pending(code, row, bump, bot=(seat, "easy"))
            committer = Committer(db, LocalFanout())
            async with db.connect() as other:  # the other process's take-back, not committed yet
                await other.execute(update(Seat).where(Seat.room_id == room.id, Seat.seat == seat).values(bot_level=None))
                storing = asyncio.get_running_loop().create_task(committer.commit(pending))
                await asyncio.sleep(0.3)  # the writer reaches the seat's row and waits for it
                await other.commit()
            assert await asyncio.wait_for(storing, 30) is False and pending.not_a_bot
            await committer.close()
            async with db.connect() as conn:
                assert await conn.scalar(select(Room.version).where(Room.id == room.id)) == room.version
                assert await conn.scalar(select(ActionRow.id).where(ActionRow.action_id == "bot:race")) is None
        finally:
            await db.dispose()

    asyncio.run(scenario())
