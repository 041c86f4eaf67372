"""No hint leaks hidden information (R-info; docs/protocol.md "Hints"): the hint is computed from
exactly the asking seat's player view and the events that seat may see (what a computer player
in that seat gets), never the full state, and it reaches that seat's connections only: the
other seat and a spectator see that a hint was used, never what it said. In process (the real
app served by uvicorn, real WebSockets, SQLite, the decider's real worker process); the
decider's `suggest` is wrapped only to record what it was handed."""
from __future__ import annotations

import asyncio
import json
import random
import uuid

import httpx
import pytest
from websockets.asyncio.client import connect

import engine
from bots.hint import suggest
from inprocess import auth, serving

HIDDEN = {"deck", "seed", "shuffles", "vp_cards", "token", "token_hash"}


def _keys(obj, path=""):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            yield from _keys(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for v in obj:
            yield from _keys(v, path)


async def _frames(ws, into: list[dict]) -> None:
    async for text in ws:
        into.append(json.loads(text))


async def _until(msgs: list[dict], pred, timeout_s: float = 20) -> dict:
    async with asyncio.timeout(timeout_s):
        while True:
            for m in msgs:
                if pred(m):
                    return m
            await asyncio.sleep(0.02)


def test_the_hint_sees_only_the_seat_s_view_and_goes_to_that_seat_alone(settings):
    async def scenario():
        async with serving(settings) as (live, addr), httpx.AsyncClient(base_url=f"http://{addr}") as http:
            host = (await http.post("/api/rooms", json={"name": "Ann", "public": False, "hints": True})).json()
            code = host["code"]
            http.cookies.clear()
            ben = (await http.post(f"/api/rooms/{code}/join", json={"name": "Ben"})).json()
            tokens = [host["token"], ben["token"]]
            assert (await http.post(f"/api/rooms/{code}/start", headers=auth(tokens[0]))).status_code == 200
            rng = random.Random(5)
            async with live.tables.hold(code) as held:
                held.publish(await held.sync())
            table = live.tables.get(code)
            for _ in range(400):  # into the game, until the seat to act has private events (its own VPs)
                seat = table.state.to_act
                if any(e["visible_to"] == seat for e in table.history(seat)):
                    break
                action = rng.choice(engine.legal_actions(table.state, seat)).to_json()
                assert await live.act(code, seat, uuid.uuid4().hex, table.version, action)
            table = live.tables.get(code)
            seat, version = table.state.to_act, table.version
            expected = (engine.player_view(table.state, seat), table.history(seat))  # before the hint
            handed: list[tuple[dict, list[dict]]] = []
            real = live.decider.suggest

            async def recording(view, history, budget_s):
                handed.append((view, history))
                return await real(view, history, budget_s)
            live.decider.suggest = recording
            url = f"ws://{addr}/ws/rooms/{code}"
            msgs: dict[str, list[dict]] = {"me": [], "other": [], "spectator": []}
            async with connect(url, additional_headers=auth(tokens[seat])) as me, \
                    connect(url, additional_headers=auth(tokens[1 - seat])) as other, connect(url) as watcher:
                readers = [asyncio.create_task(_frames(ws, msgs[k]))
                           for k, ws in (("me", me), ("other", other), ("spectator", watcher))]
                for k in msgs:
                    await _until(msgs[k], lambda m: m["type"] == "state")
                await me.send(json.dumps({"type": "hint", "version": version}))
                hint = await _until(msgs["me"], lambda m: m["type"] == "hint")
                for k in ("other", "spectator"):
                    await _until(msgs[k], lambda m: m["type"] == "state" and m.get("hints"))
                await asyncio.sleep(0.3)
                for task in readers:
                    task.cancel()
            # What the search was handed is exactly the seat's player view and its own events.
            assert len(handed) == 1
            view, history = handed[0]
            assert view == expected[0]
            assert not HIDDEN & set(_keys(view))
            assert all("hand" not in p for i, p in enumerate(view["players"]) if i != seat)
            assert history == expected[1]
            assert all(e["visible_to"] in (None, seat) for e in history)
            assert any(e["visible_to"] == seat for e in history), "no private event: the check saw nothing"
            with pytest.raises(ValueError):  # the hint's search refuses the full state, as a bot does
                suggest(table.state.to_json())
            # The hint goes to the seat's connection alone; the others hear only that it was used.
            assert hint["seat"] == seat and hint["version"] == version
            for k in ("other", "spectator"):
                assert not [m for m in msgs[k] if m["type"] == "hint"], f"the {k} got the hint"
                used = [e for m in msgs[k] if m["type"] == "event" for e in m["events"]]
                assert used == [{"type": "hint_used", "seat": seat, "visible_to": None}]
                assert not HIDDEN & set(_keys(msgs[k]))
                assert json.dumps(hint["why"]) not in json.dumps(msgs[k])
    asyncio.run(scenario())
