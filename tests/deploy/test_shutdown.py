"""Graceful shutdown of a real `osaka serve`: SIGTERM to the server process alone, the way
`docker stop` signals PID 1. Every client hears of the action that was in flight, then gets
`{"type": "server_restarting"}` and a close with 1012; the process exits 0 within 10 s; the
action is in the database when the server comes back (app/shutdown.py)."""
from __future__ import annotations

import asyncio
import random
import signal
import time

import httpx
from websockets.asyncio.client import connect

from app.shutdown import SHUTDOWN_BUDGET_S

from .support import proto

NOTICE = {"type": "server_restarting"}


def _sigterm(server) -> None:
    server.proc.send_signal(signal.SIGTERM)


def _assert_told_to_reconnect(client) -> None:
    assert client.closed.is_set()
    assert client.msgs[-1] == NOTICE, client.msgs[-3:]
    assert client.ws.close_code == 1012 and client.ws.close_reason == "service restart"


def test_sigterm_finishes_the_action_in_flight_tells_everyone_and_exits_0(server_factory):
    a = server_factory()
    code, tokens = proto.new_game(a.base_url, 2)
    rng = random.Random(7)

    async def play_then_stop():
        seats = [await proto.Client.open(a.ws_url, code, t, seat=i) for i, t in enumerate(tokens)]
        spectator = await proto.Client.open(a.ws_url, code)
        lobby = proto.Client(await connect(f"{a.ws_url}/ws/lobby"), None)
        version = 0
        for _ in range(4):
            view = (await seats[0].state(version))["view"]
            actor = seats[view["to_act"]]
            await actor.act(version, proto.pick_action((await actor.state(version))["view"], rng))
            version += 1
            await asyncio.gather(*(c.state(version) for c in seats + [spectator]))
        await lobby.wait(lambda m: m["type"] == "rooms")
        # One more action, and SIGTERM right behind it, without waiting for its answer.
        view = (await seats[0].state(version))["view"]
        actor = seats[view["to_act"]]
        action_id = await actor.act(version, proto.pick_action((await actor.state(version))["view"], rng))
        _sigterm(a)
        start = time.monotonic()
        everyone = seats + [spectator, lobby]
        await asyncio.wait_for(asyncio.gather(*(c.closed.wait() for c in everyone)), SHUTDOWN_BUDGET_S)
        status = await asyncio.to_thread(a.proc.wait, SHUTDOWN_BUDGET_S - (time.monotonic() - start))
        return seats, spectator, lobby, version, action_id, actor, status

    seats, spectator, lobby, version, action_id, actor, status = asyncio.run(play_then_stop())
    assert status == 0
    for client in seats + [spectator, lobby]:
        _assert_told_to_reconnect(client)
    for client in seats + [spectator]:
        # the action in flight was committed and told before the notice
        states = [m for m in client.msgs if m["type"] == "state"]
        assert states[-1]["version"] == version + 1
        assert client.msgs.index(states[-1]) < len(client.msgs) - 1
        assert not any(m["type"] == "error" for m in client.msgs)

    b = server_factory()
    assert httpx.get(f"{b.base_url}/api/rooms/{code}").json()["version"] == version + 1

    async def resend():
        again = await proto.Client.open(b.ws_url, code, tokens[actor.seat], seat=actor.seat)
        await again.state(version + 1)
        start = len(again.msgs)
        await again.act(version, {"type": "pass"}, action_id=action_id)  # the same id: a duplicate
        answer = await again.wait(lambda m: m["type"] in ("state", "error"), start=start)
        await again.close()
        return answer

    answer = asyncio.run(resend())
    assert answer["type"] == "state" and answer["version"] == version + 1, answer


def test_sigterm_while_computer_players_play(server_factory):
    """A game of two computer players runs on by itself; SIGTERM lets the bot action in progress
    finish, stops the bots, and nothing is committed after the spectator was told to reconnect."""
    a = server_factory(BOT_TIME_BUDGET_S="0.05")
    host = proto.create_room(a.base_url, "Host", public=False)
    code, token = host["code"], host["token"]
    assert httpx.post(f"{a.base_url}/api/rooms/{code}/bots", json={"level": "easy"},
                      headers=proto.auth(token)).status_code == 200
    proto.start(a.base_url, code, token)
    assert httpx.post(f"{a.base_url}/api/rooms/{code}/seats/0/bot", json={"level": "easy"},
                      headers=proto.auth(token)).status_code == 200

    async def watch_then_stop():
        spectator = await proto.Client.open(a.ws_url, code)
        await spectator.state(6)  # the bots are playing
        _sigterm(a)
        await asyncio.wait_for(spectator.closed.wait(), SHUTDOWN_BUDGET_S)
        status = await asyncio.to_thread(a.proc.wait, SHUTDOWN_BUDGET_S)
        return spectator, status

    spectator, status = asyncio.run(watch_then_stop())
    assert status == 0
    _assert_told_to_reconnect(spectator)
    seen = max(m["version"] for m in spectator.msgs if m["type"] == "state")
    # the restarted server's bots wait: the version read is the one stored at shutdown
    b = server_factory(BOT_DELAY_S="60")
    room = httpx.get(f"{b.base_url}/api/rooms/{code}").json()
    assert room["status"] in ("playing", "over")
    assert room["version"] == seen
