"""The room's chat (issue 12, app/live/chat.py) with real WebSocket clients in process: seated
players and spectators (marked), text only as sent (HTML stays text), 300 characters, rate
limited, stored with the room and sent again on reconnect, closed to spectators by the host."""
from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from websockets.asyncio.client import connect

from app.config import Settings
from inprocess import auth, serving

WAIT_S = 10
EVIL = '<img src=x onerror="alert(1)"><script>alert(2)</script>'


async def until(ws, pred) -> dict:
    async with asyncio.timeout(WAIT_S):
        while True:
            msg = json.loads(await ws.recv())
            if pred(msg):
                return msg


def chat(ws_msg) -> bool:
    return ws_msg["type"] == "chat"


def test_chat_between_players_and_spectators(settings):
    quick = settings.model_copy(update={"chat_limit": "3/10seconds"})

    async def scenario():
        async with serving(quick) as (live, addr), httpx.AsyncClient(base_url=f"http://{addr}") as http:
            host = (await http.post("/api/rooms", json={"name": "Hana", "public": False})).json()
            code = host["code"]
            http.cookies.clear()
            bob = (await http.post(f"/api/rooms/{code}/join", json={"name": "Bob"})).json()
            url = f"ws://{addr}/ws/rooms/{code}"
            async with connect(url, additional_headers=auth(host["token"])) as h, \
                    connect(url, additional_headers=auth(bob["token"])) as b, connect(url) as w:
                for ws in (h, b, w):
                    first = await until(ws, chat)
                    assert first == {"type": "chat", "history": True, "messages": []}
                await h.send(json.dumps({"type": "chat", "text": "  " + EVIL + "  "}))
                for ws in (h, b, w):
                    got = (await until(ws, chat))["messages"]
                    assert [(m["seat"], m["name"], m["spectator"], m["text"]) for m in got] == [(0, "Hana", False, EVIL)]
                # A spectator needs a name unlike the players'; it is marked as a spectator's.
                await w.send(json.dumps({"type": "chat", "text": "hi"}))
                assert (await until(w, lambda m: m["type"] == "error"))["code"] == "chat_name"
                await w.send(json.dumps({"type": "chat", "text": "hi", "name": "hana"}))
                assert (await until(w, lambda m: m["type"] == "error"))["code"] == "chat_name"
                await w.send(json.dumps({"type": "chat", "text": "hi all", "name": "Zoe"}))
                got = (await until(b, chat))["messages"]
                assert [(m["seat"], m["name"], m["spectator"]) for m in got] == [(None, "Zoe", True)]
                # Limits: empty, too long, rate.
                await b.send(json.dumps({"type": "chat", "text": " \t "}))
                assert (await until(b, lambda m: m["type"] == "error"))["code"] == "chat_empty"
                await b.send(json.dumps({"type": "chat", "text": "x" * 301}))
                assert (await until(b, lambda m: m["type"] == "error"))["code"] == "chat_too_long"
                # Only invisible fillers (they draw as nothing, as in a blank name): empty (issue 28).
                for filler in ("\u3164", "\u2800\u2800", "\u034f", "\ufe0f", "\u115f", "\uffa0", " \u3164 \u2800 "):
                    await b.send(json.dumps({"type": "chat", "text": filler}))
                    assert (await until(b, lambda m: m["type"] == "error"))["code"] == "chat_empty"
                for hidden in ("a\u202eb", "zero\u200bwidth", "line\nbreak"):
                    await b.send(json.dumps({"type": "chat", "text": hidden}))
                    assert (await until(b, lambda m: m["type"] == "error"))["code"] == "chat_bad_char"
                for i in range(4):
                    await b.send(json.dumps({"type": "chat", "text": "é" * 300 if i == 0 else f"m{i}"}))
                err = await until(b, lambda m: m["type"] == "error")
                assert err["code"] == "rate_limited" and 1 <= err["retry_after_s"] <= 10
                # The host closes the chat to spectators: they can no longer send (nor hear).
                r = await http.post(f"/api/rooms/{code}/chat", json={"spectators": False}, headers=auth(host["token"]))
                assert r.status_code == 200 and r.json()["chat_spectators"] is False
                r = await http.post(f"/api/rooms/{code}/chat", json={"spectators": True}, headers=auth(bob["token"]))
                assert r.status_code == 403
                await w.send(json.dumps({"type": "chat", "text": "let me in", "name": "Zoe"}))
                assert (await until(w, lambda m: m["type"] == "error"))["code"] == "chat_closed"
            # Stored with the room: a reconnecting player gets the latest messages again.
            async with connect(url, additional_headers=auth(bob["token"])) as b2:
                got = (await until(b2, chat))
                assert got["history"] is True
                texts = [m["text"] for m in got["messages"]]
                assert texts[:3] == [EVIL, "hi all", "é" * 300] and texts[3:] == ["m1", "m2"]
            async with connect(url) as w2:  # closed to spectators: no history for them
                assert (await until(w2, chat))["messages"] == []
    asyncio.run(scenario())


@pytest.mark.postgresql_only
def test_chat_reaches_the_other_server_process(migrated_url):
    """Two server processes on one PostgreSQL database (two apps served in this loop): a
    message sent through one reaches the connections of the other (NOTIFY "c"), once."""
    base = Settings(database_url=migrated_url, bot_delay_s=0, log_level="warning")

    async def scenario():
        async with serving(base) as (_a, addr_a), serving(base) as (_b, addr_b), \
                httpx.AsyncClient(base_url=f"http://{addr_a}") as http:
            host = (await http.post("/api/rooms", json={"name": "Hana", "public": False})).json()
            http.cookies.clear()
            bob = (await http.post(f"/api/rooms/{host['code']}/join", json={"name": "Bob"})).json()
            path = f"/ws/rooms/{host['code']}"
            async with connect(f"ws://{addr_a}{path}", additional_headers=auth(host["token"])) as h, \
                    connect(f"ws://{addr_b}{path}", additional_headers=auth(bob["token"])) as b:
                await until(h, chat)
                await until(b, chat)
                await h.send(json.dumps({"type": "chat", "text": "over there?"}))
                got = (await until(b, chat))["messages"]
                assert [(m["name"], m["text"]) for m in got] == [("Hana", "over there?")]
                await b.send(json.dumps({"type": "chat", "text": "yes"}))
                got = (await until(h, lambda m: chat(m) and m["messages"][-1]["text"] == "yes"))["messages"]
                assert [m["text"] for m in got] == ["yes"]  # not "over there?" again
    asyncio.run(scenario())
