"""The live table in process (uvicorn inside the test's event loop, SQLite file, real
WebSocket clients): the frames of docs/protocol.md, every one through the seat's player view,
and the table rebuilt from the action log."""
from __future__ import annotations

import asyncio
import json
import random
import uuid
from collections import Counter

import httpx
from websockets.asyncio.client import connect

import engine
from app.models import Room
from inprocess import auth, serving

WAIT_S = 10


async def frames(ws, until: str) -> list[dict]:
    """Frames received up to and including the first of type `until`."""
    out = []
    async with asyncio.timeout(WAIT_S):
        while True:
            out.append(json.loads(await ws.recv()))
            if out[-1]["type"] == until:
                return out


async def started_room(http: httpx.AsyncClient, players: int) -> tuple[str, list[str]]:
    host = (await http.post("/api/rooms", json={"name": "P0", "public": False})).json()
    tokens = [host["token"]]
    for i in range(1, players):
        http.cookies.clear()
        tokens.append((await http.post(f"/api/rooms/{host['code']}/join", json={"name": f"P{i}"})).json()["token"])
    assert (await http.post(f"/api/rooms/{host['code']}/start", headers=auth(tokens[0]))).status_code == 200
    return host["code"], tokens


def test_an_action_reaches_every_seat_through_its_own_view(settings):
    async def scenario():
        async with serving(settings) as (live, addr), httpx.AsyncClient(base_url=f"http://{addr}") as http:
            code, tokens = await started_room(http, 2)
            url = f"ws://{addr}/ws/rooms/{code}"
            async with connect(url, additional_headers=auth(tokens[0])) as ws0, \
                    connect(url, additional_headers=auth(tokens[1])) as ws1, connect(url) as spectator:
                first = {n: await frames(ws, "state") for n, ws in ((0, ws0), (1, ws1), (None, spectator))}
                for seat, got in first.items():
                    assert [f["type"] for f in got][-3:] == ["room", "history", "state"]
                    assert got[-1]["version"] == 0 and got[-1]["view"]["seat"] == seat
                table = live.tables.get(code)
                seat = table.state.to_act
                action = random.Random(1).choice(engine.legal_actions(table.state, seat)).to_json()
                mover = ws0 if seat == 0 else ws1
                await mover.send(json.dumps({"type": "act", "id": "a1", "version": 0, "action": action}))
                for n, ws in ((0, ws0), (1, ws1), (None, spectator)):
                    got = await frames(ws, "state")
                    assert [f["type"] for f in got if f["type"] not in ("room", "chat")] == ["event", "state"]
                    view = got[-1]["view"]
                    assert got[-1]["version"] == 1 and view == engine.player_view(table.state, n)
                    hands = [p for p in view["players"] if "hand" in p]
                    assert len(hands) == (0 if n is None else 1)  # only the seat's own hand
                # the same id again: the current state, nothing applied; a stale version: refused
                await mover.send(json.dumps({"type": "act", "id": "a1", "version": 0, "action": action}))
                assert (await frames(mover, "state"))[-1]["version"] == 1
                await mover.send(json.dumps({"type": "act", "id": "a2", "version": 0, "action": action}))
                refused = (await frames(mover, "error"))[-1]
                assert refused["code"] == "stale_version" and refused["id"] == "a2"
                await spectator.send(json.dumps({"type": "act", "id": "s1", "version": 1, "action": action}))
                assert (await frames(spectator, "error"))[-1]["code"] == "not_seated"
                await ws0.send("{nope")
                assert (await frames(ws0, "error"))[-1]["code"] == "bad_message"
                assert table.version == 1
    asyncio.run(scenario())


def test_a_table_is_rebuilt_from_the_action_log(settings):
    """A fresh `Table` synced from the database holds the same game as the one that played it."""
    async def scenario():
        async with serving(settings) as (live, addr), httpx.AsyncClient(base_url=f"http://{addr}") as http:
            code, _ = await started_room(http, 3)
            rng = random.Random(5)
            table = None
            for _ in range(12):
                table = live.tables.get(code) or table
                if table is None:  # no connection made it yet: the first action creates it
                    async with live.tables.hold(code) as held:
                        held.publish(await held.sync())
                        table = held.table
                seat = table.state.to_act
                action = rng.choice(engine.legal_actions(table.state, seat)).to_json()
                assert await live.act(code, seat, uuid.uuid4().hex, table.version, action)
            async with live.sessions() as session:
                room = await session.get(Room, table.room_id)
            live.tables.forget_idle(keep=set())  # the next use builds a fresh table from the database
            async with live.tables.hold(code) as held:
                fresh, caught = held.table, (await held.sync()).caught
            assert fresh is not table
            assert fresh.version == table.version == room.version == 12 == len(caught)
            assert fresh.state.to_json() == table.state.to_json()
            assert fresh.action_ids == table.action_ids
            assert fresh.history(1) == table.history(1) and fresh.history(None) == table.history(None)
    asyncio.run(scenario())


def test_an_actions_frames_go_straight_to_the_sockets(settings, monkeypatch):
    """Under the server's protocol every frame (the arrival's and an action's) is written by
    `send_text_now` (app/ws_protocol.py), none by a writer task through the ASGI `send`."""
    from starlette.websockets import WebSocket

    from app.ws_protocol import CoalescingWebSocketProtocol
    direct, through_asgi = [], []
    send_now = CoalescingWebSocketProtocol.send_text_now

    def counted_send_now(self, text):
        sent = send_now(self, text)
        if sent:
            direct.append(json.loads(text)["type"])
        return sent

    async def counted_send_text(self, data):
        through_asgi.append(json.loads(data)["type"])
        await WebSocket.send(self, {"type": "websocket.send", "text": data})

    monkeypatch.setattr(CoalescingWebSocketProtocol, "send_text_now", counted_send_now)
    monkeypatch.setattr(WebSocket, "send_text", counted_send_text)

    async def scenario():
        async with serving(settings) as (live, addr), httpx.AsyncClient(base_url=f"http://{addr}") as http:
            code, tokens = await started_room(http, 2)
            url = f"ws://{addr}/ws/rooms/{code}"
            async with connect(url, additional_headers=auth(tokens[0])) as ws0, \
                    connect(url, additional_headers=auth(tokens[1])) as ws1:
                received = [f["type"] for ws in (ws0, ws1) for f in await frames(ws, "state")]
                table = live.tables.get(code)
                seat = table.state.to_act
                action = engine.legal_actions(table.state, seat)[0].to_json()
                await (ws0 if seat == 0 else ws1).send(
                    json.dumps({"type": "act", "id": "a1", "version": 0, "action": action}))
                received += [f["type"] for ws in (ws0, ws1) for f in await frames(ws, "state")]
        return received

    received = asyncio.run(scenario())
    assert received.count("state") == 4 and Counter(received) <= Counter(direct), (received, direct)
    assert through_asgi == []
