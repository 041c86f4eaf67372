"""A seat's run of decisions is told once whichever moment of it the notification loop sees
(app/notify/triggers.py, outbox.run_start; docs/protocol.md "Notifications").

The fault: the scan enqueued a `turn` only when it saw the run's FIRST decision (the previous
action another seat's). A seat that acted again within one round of the loop (at most one
round per 0.5 s, later on a busy machine) was never told of the rest of its run, nor was the
room's webhook. (Found while looking into a CI failure of test_metrics, whose cause was another:
a second server on its database.) Here the loop sees only
the run's middle, by construction: the server is stopped, the outbox emptied, and the scan run
on the database as it stands."""
from __future__ import annotations

import asyncio
import random
from datetime import timedelta

import httpx
from sqlalchemy import text
from sqlalchemy.ext.asyncio import async_sessionmaker, create_async_engine

from app.models import utcnow
from app.notify import outbox, triggers
from tests.app.helpers import Client, auth, create_room, join_room, pick_action, start


#: Actions played looking for a run before the game is given up (a game ends well before).
MAX_ACTIONS = 400
#: Games tried: a random two-player game has no run at all about once in fifty (engine
#: self-play with `pick_action`), and one in nine had none in its first 60 actions, which made
#: this test fail by the deal alone; five games leave that at about 1 in 3·10⁸.
GAMES = 5


async def _play_into_a_run(srv, code: str, tokens: list[str], seed: int) -> tuple[int, int, int] | None:
    """Play until the seat to act made the last action too (the middle of its run) →
    (the version the run began at, the seat, the version now); None when the game ended
    without one."""
    clients = [await Client.open(srv.ws_url, code, t, seat=i) for i, t in enumerate(tokens)]
    rng = random.Random(seed)
    version = (await clients[0].state())["version"]
    began, last_actor = version, None
    try:
        for _ in range(MAX_ACTIONS):
            view = (await clients[0].state(version))["view"]
            seat = view["to_act"]
            if seat is None:  # the game ended before a seat acted twice in a row
                return None
            if seat == last_actor:
                return began, seat, version
            began = version
            own = await clients[seat].state(version)
            await clients[seat].act(version, pick_action(own["view"], rng))
            version += 1
            last_actor = seat
        raise AssertionError(f"the game neither ended nor had a run in {MAX_ACTIONS} actions")
    finally:
        for c in clients:
            await c.close()


def _room_in_a_run(srv, seed: int) -> tuple[str, int, int, int] | None:
    """A new two-player room with a webhook, started and played into the middle of a run →
    (code, the version the run began at, the seat, the version now); None when its game
    ended without a run."""
    host = create_room(srv.base_url, "Ann", public=False)
    code = host["code"]
    tokens = [host["token"], join_room(srv.base_url, code, "Ben")["token"]]
    r = httpx.put(f"{srv.base_url}/api/rooms/{code}/webhook", json={"url": "json://127.0.0.1:9/room"},
                  headers=auth(tokens[0]))
    assert r.status_code == 200, r.text
    start(srv.base_url, code, tokens[0])
    found = asyncio.run(_play_into_a_run(srv, code, tokens, seed))
    return None if found is None else (code, *found)


async def _rows(sessions, code: str) -> list[tuple]:
    async with sessions() as s:
        return list((await s.execute(text(
            "SELECT o.key, o.kind, o.seat, o.version, o.state FROM notify_outbox o JOIN rooms r ON r.id = o.room_id "
            "WHERE r.code = :c ORDER BY o.id"), {"c": code})).all())


def test_the_middle_of_a_run_is_told_and_kept_by_the_pruning(own_servers):
    srv = own_servers(NOTIFY_ALLOW_PRIVATE="true", NOTIFY_POLL_S="0.3")
    found = None
    for game in range(GAMES):
        found = _room_in_a_run(srv, seed=3 + game)
        if found is not None:
            break
    assert found is not None, f"none of {GAMES} games had a seat act twice in a row"
    code, began, seat, now_version = found
    assert now_version > began
    srv.stop()

    async def go() -> tuple[list, list, list, int]:
        engine = create_async_engine(srv.database_url)
        sessions = async_sessionmaker(engine, expire_on_commit=False)
        try:
            async with sessions() as s:
                await s.execute(text("DELETE FROM notify_outbox"))
                await s.commit()
            async with sessions() as s:
                await triggers.scan(s, utcnow())
            scanned = await _rows(sessions, code)
            async with sessions() as s:  # delivered long ago, then a week's pruning
                await s.execute(text("UPDATE notify_outbox SET state = 'sent', created_at = :at"),
                                {"at": utcnow() - timedelta(days=30)})
                gone = await outbox.prune(s, utcnow() - timedelta(seconds=outbox.KEEP_S))
                await s.commit()
            kept = await _rows(sessions, code)
            async with sessions() as s:
                await triggers.scan(s, utcnow())
            return scanned, kept, await _rows(sessions, code), gone
        finally:
            await engine.dispose()
    scanned, kept, rescanned, gone = asyncio.run(go())
    # The run's turn, to the room's webhook: keyed and versioned by the run's start.
    assert [(k, kind, s, v) for k, kind, s, v, _ in scanned] == [(f"turn:1:{began}", "turn", seat, began)], scanned
    # A month-old row of the decision still to be made stays, and the scan adds nothing again
    # (a pruned row would have been enqueued anew: the seat told twice).
    assert gone == 0 and [r[0] for r in kept] == [f"turn:1:{began}"] and kept[0][4] == "sent", kept
    assert rescanned == kept
