"""Exactly-once actions, concurrency, reconnects, spectators and junk over the WebSocket."""
from __future__ import annotations

import asyncio
import json
import random

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from .helpers import Client, check_no_secrets, new_game, pick_action, play


async def _seat_clients(server, code, tokens):
    clients = [await Client.open(server.ws_url, code, t, seat=i) for i, t in enumerate(tokens)]
    for c in clients:
        await c.state(0)
    return clients


def test_same_id_twice_is_applied_once(server):
    code, tokens = new_game(server.base_url, 2)

    async def scenario():
        clients = await _seat_clients(server, code, tokens)
        first = (await clients[0].state())["view"]["to_act"]
        actor = clients[first]
        st = await actor.state(0)
        action = pick_action(st["view"], random.Random(1))
        action_id = await actor.act(0, action)
        await actor.state(1)
        mark = len(actor.msgs)
        await actor.act(0, action, action_id=action_id)  # resent, e.g. after a reconnect
        again = await actor.wait(lambda m: m["type"] in ("state", "error"), start=mark)
        assert again["type"] == "state" and again["version"] == 1
        # Nobody saw a second event for it.
        await asyncio.sleep(0.2)
        for c in clients:
            assert [m["version"] for m in c.msgs if m["type"] == "event"] == [1]
        for c in clients:
            await c.close()

    asyncio.run(scenario())
    assert httpx.get(f"{server.base_url}/api/rooms/{code}").json()["version"] == 1


def test_two_tabs_sending_at_once_apply_exactly_one(server):
    code, tokens = new_game(server.base_url, 2)

    async def scenario():
        clients = await _seat_clients(server, code, tokens)
        seat = (await clients[0].state())["view"]["to_act"]
        tab_a = clients[seat]
        tab_b = await Client.open(server.ws_url, code, tokens[seat], seat=seat)
        await tab_b.state(0)
        # Both tabs choose a (different) token colour for version 0 at the same moment.
        id_a, id_b = "tab-a", "tab-b"
        await asyncio.gather(
            tab_a.send({"type": "act", "id": id_a, "version": 0,
                        "action": {"type": "choose_token", "color": "red"}}),
            tab_b.send({"type": "act", "id": id_b, "version": 0,
                        "action": {"type": "choose_token", "color": "blue"}}))
        await tab_a.state(1)
        await tab_b.state(1)
        await asyncio.sleep(0.3)
        errors = [m for c in (tab_a, tab_b) for m in c.msgs if m["type"] == "error"]
        assert len(errors) == 1 and errors[0]["code"] == "stale_version"
        assert errors[0]["id"] in (id_a, id_b)
        # Both tabs of the seat see the same state.
        sa, sb = await tab_a.state(1), await tab_b.state(1)
        assert sa == sb and sa["version"] == 1
        for c in clients + [tab_b]:
            await c.close()

    asyncio.run(scenario())
    assert httpx.get(f"{server.base_url}/api/rooms/{code}").json()["version"] == 1


def test_stale_version_and_illegal_action_change_nothing(server):
    code, tokens = new_game(server.base_url, 3)

    async def scenario():
        clients = await _seat_clients(server, code, tokens)
        version = await play(clients, 4, random.Random(7))
        before = await clients[0].state(version)
        seat = before["view"]["to_act"]
        other = clients[(seat + 1) % 3]
        mark = len(other.msgs)
        await other.act(version, {"type": "pass"})
        err = await other.wait(lambda m: m["type"] == "error", start=mark)
        assert err["code"] == "not_your_turn"
        actor = clients[seat]
        mark = len(actor.msgs)
        await actor.act(version - 1, pick_action((await actor.state(version))["view"], random.Random(1)))
        err = await actor.wait(lambda m: m["type"] == "error", start=mark)
        assert err["code"] == "stale_version"
        mark = len(actor.msgs)
        await actor.act(version, {"type": "take", "card": 999})
        err = await actor.wait(lambda m: m["type"] == "error", start=mark)
        assert err["code"] == "malformed" or err["code"].startswith("card_")
        await asyncio.sleep(0.2)
        assert (await clients[0].state())["version"] == version
        for c in clients:
            await c.close()
        return version

    version = asyncio.run(scenario())
    assert httpx.get(f"{server.base_url}/api/rooms/{code}").json()["version"] == version


def test_reconnect_gets_everything_at_once_and_presence_follows(server):
    code, tokens = new_game(server.base_url, 2)

    async def scenario():
        clients = await _seat_clients(server, code, tokens)
        version = await play(clients, 6, random.Random(3))
        await clients[1].close()
        gone = await clients[0].wait(lambda m: m["type"] == "room"
                                     and not m["room"]["players"][1]["connected"])
        assert gone["room"]["you"] == 0
        back = await Client.open(server.ws_url, code, tokens[1], seat=1)
        room = await back.wait(lambda m: m["type"] == "room")
        hist = await back.wait(lambda m: m["type"] == "history")
        st = await back.state(version)
        kinds = [m["type"] for m in back.msgs[:3]]
        assert kinds == ["room", "history", "state"]
        assert room["room"]["you"] == 1 and room["room"]["players"][1]["connected"]
        assert hist["version"] == version == st["version"]
        assert "hand" in st["view"]["players"][1]
        # The history holds this seat's private events and nobody else's.
        assert any(e["type"] == "turn_started" for e in hist["events"])
        for msg, raw in zip(back.msgs, back.raw):
            check_no_secrets(msg, raw, 1, tokens)
        await clients[0].wait(lambda m: m["type"] == "room" and m["room"]["players"][1]["connected"])
        for c in (clients[0], back):
            await c.close()

    asyncio.run(scenario())


def test_spectator_sees_public_view_and_cannot_act(server):
    code, tokens = new_game(server.base_url, 2)

    async def scenario():
        spectator = await Client.open(server.ws_url, code)
        room = await spectator.wait(lambda m: m["type"] == "room")
        assert room["room"]["you"] is None
        st = await spectator.state(0)
        assert st["view"]["seat"] is None
        assert all("hand" not in p and "vp" not in p for p in st["view"]["players"])
        await spectator.act(0, {"type": "choose_token", "color": "red"})
        err = await spectator.wait(lambda m: m["type"] == "error")
        assert err["code"] == "not_seated"
        await spectator.close()

    asyncio.run(scenario())
    assert httpx.get(f"{server.base_url}/api/rooms/{code}").json()["version"] == 0


JUNK = [
    "not json",
    "[1, 2, 3]",
    "42",
    json.dumps({"type": "dance"}),
    json.dumps({"no": "type"}),
    json.dumps({"type": "act"}),
    json.dumps({"type": "act", "id": "x", "version": "0", "action": {"type": "pass"}}),
    json.dumps({"type": "act", "id": "x", "version": True, "action": {"type": "pass"}}),
    json.dumps({"type": "act", "id": "x", "version": -1, "action": {"type": "pass"}}),
    json.dumps({"type": "act", "id": 5, "version": 0, "action": {"type": "pass"}}),
    json.dumps({"type": "act", "id": "", "version": 0, "action": {"type": "pass"}}),
    json.dumps({"type": "act", "id": "x" * 500, "version": 0, "action": {"type": "pass"}}),
    json.dumps({"type": "act", "id": "x", "version": 0, "action": "pass"}),
    json.dumps({"type": "act", "id": "big", "version": 0,
                "action": {"type": "choose_token", "color": "red", "pad": "x" * 70_000}}),
    "[" * 100_000,
    b"\x00\x01binary",
]


def test_junk_frames_get_bad_message_and_change_nothing(server):
    code, tokens = new_game(server.base_url, 2)

    async def scenario():
        clients = await _seat_clients(server, code, tokens)
        seat = (await clients[0].state())["view"]["to_act"]
        c = clients[seat]
        for junk in JUNK:
            mark = len(c.msgs)
            await c.send(junk)
            err = await c.wait(lambda m: m["type"] == "error", start=mark)
            assert err["code"] == "bad_message", (junk[:50], err)
            assert err["message"]
        mark = len(c.msgs)
        await c.send({"type": "ping"})
        assert (await c.wait(lambda m: m["type"] in ("pong", "error"), start=mark))["type"] == "pong"
        assert not [m for m in c.msgs if m["type"] == "state" and m["version"] > 0]
        for x in clients:
            await x.close()

    asyncio.run(scenario())
    assert httpx.get(f"{server.base_url}/api/rooms/{code}").json()["version"] == 0


def test_flooding_connection_is_refused_then_closed(server):
    code, tokens = new_game(server.base_url, 2)

    async def scenario():
        c = await Client.open(server.ws_url, code, tokens[0], seat=0)
        await c.state(0)
        try:
            for _ in range(400):
                await c.send({"type": "ping"})
        except ConnectionClosed:
            pass
        await asyncio.wait_for(c.closed.wait(), 20)
        assert any(m["type"] == "error" and m["code"] == "rate_limited" for m in c.msgs)
        assert c.ws.close_code == 1008
        # Others are not affected: a fresh connection works.
        d = await Client.open(server.ws_url, code, tokens[1], seat=1)
        await d.state(0)
        await d.close()

    asyncio.run(scenario())


@pytest.mark.parametrize("token, code", [("not-a-token", "bad_token"), (None, "room_not_found")])
def test_bad_token_or_unknown_room_is_refused(server, token, code):
    room_code, _ = new_game(server.base_url, 2)

    async def scenario():
        target = room_code if code == "bad_token" else "ZZZZZZZZZZ"
        c = await Client.open(server.ws_url, target, token)
        err = await c.wait(lambda m: m["type"] == "error")
        await asyncio.wait_for(c.closed.wait(), 10)
        assert err["code"] == code
        assert c.ws.close_code == 1008
        assert not [m for m in c.msgs if m["type"] == "state"]

    asyncio.run(scenario())


def test_two_servers_racing_on_one_database_apply_exactly_one(server, server_factory):
    """Two processes share the database: the one that loses the race for a version refuses
    with stale_version and catches up from the action log."""
    other = server_factory()
    code, tokens = new_game(server.base_url, 2)

    async def scenario():
        seat_clients = await _seat_clients(server, code, tokens)
        seat = (await seat_clients[0].state())["view"]["to_act"]
        a = seat_clients[seat]
        b = await Client.open(other.ws_url, code, tokens[seat], seat=seat)
        await b.state(0)
        await asyncio.gather(
            a.send({"type": "act", "id": "on-a", "version": 0,
                    "action": {"type": "choose_token", "color": "green"}}),
            b.send({"type": "act", "id": "on-b", "version": 0,
                    "action": {"type": "choose_token", "color": "yellow"}}))
        await a.state(1)
        await b.state(1)
        for _ in range(100):  # the loser's refusal follows its catch-up state
            errors = [m for c in (a, b) for m in c.msgs if m["type"] == "error"]
            if errors:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)
        errors = [m for c in (a, b) for m in c.msgs if m["type"] == "error"]
        assert len(errors) == 1 and errors[0]["code"] == "stale_version", errors
        events = [m for c in (a, b) for m in c.msgs if m["type"] == "event"]
        assert [m["version"] for m in events] == [1, 1]
        # Both processes now agree on version 1 (the loser caught up and told its clients).
        sa, sb = await a.state(1), await b.state(1)
        assert sa["version"] == sb["version"] == 1 and sa["view"] == sb["view"]
        for c in seat_clients + [b]:
            await c.close()

    asyncio.run(scenario())
    assert httpx.get(f"{server.base_url}/api/rooms/{code}").json()["version"] == 1
    assert httpx.get(f"{other.base_url}/api/rooms/{code}").json()["version"] == 1
