"""The server's logs, captured from a real `osaka serve` at LOG_LEVEL=debug while a game is
played: one JSON line per request, connection and action outcome, and no seat token, cookie,
Authorization header or card of an action anywhere (app/logs.py)."""
from __future__ import annotations

import asyncio
import json
import random

import httpx

from .support import proto

ACTION_KEYS = {"ts", "level", "logger", "msg", "room", "seat", "action", "version", "outcome", "by", "ms"}


def _lines(server) -> list[dict]:
    out = []
    for raw in server.log_path.read_text().splitlines():
        if raw.strip():
            line = json.loads(raw)  # every line is one JSON object
            assert isinstance(line, dict) and {"ts", "level", "logger", "msg"} <= set(line), raw
            out.append(line)
    return out


def test_logs_are_json_lines_without_tokens_cookies_or_cards(server_factory):
    srv = server_factory(LOG_LEVEL="debug")
    base = srv.base_url
    with httpx.Client(base_url=base) as browser:  # keeps the seat cookie like a browser
        host = browser.post("/api/rooms", json={"name": "Alice", "public": False}).json()
        code = host["code"]
        assert browser.get(f"/api/rooms/{code}").json()["you"] == 0  # the cookie is sent
        cookie = browser.cookies[f"osaka_{code}"]
    guest = proto.join_room(base, code, "Bob")
    tokens = [host["token"], guest["token"]]
    assert cookie == tokens[0]
    proto.start(base, code, tokens[0])
    rng = random.Random(2)
    sent: list[tuple[str, str]] = []     # (action type, expected outcome)
    payloads: list[dict] = []

    async def play():
        seat0 = await proto.Client.open(srv.ws_url, code, tokens[0], seat=0)
        # seat 1 connects the way a browser does: the seat cookie, from the same origin
        ws1 = await proto.connect(f"{srv.ws_url}/ws/rooms/{code}", max_size=None,
                                  additional_headers={"Cookie": f"osaka_{code}={tokens[1]}",
                                                      "Origin": base})
        seats = [seat0, proto.Client(ws1, 1)]
        version = 0
        while version < 12 or not any(set(p) & {"payment", "discard"} and (p.get("payment") or p.get("discard"))
                                       for p in payloads):
            assert version < 150, "no action with cards of a hand was played"
            view = (await seats[0].state(version))["view"]
            actor = seats[view["to_act"]]
            action = proto.pick_action((await actor.state(version))["view"], rng)
            action_id = await actor.act(version, action)
            last_actor = actor  # ids are per seat: only this seat's resend is a duplicate
            payloads.append(action)
            sent.append((action["type"], "applied"))
            version += 1
            await asyncio.gather(*(c.state(version) for c in seats))
        # a stale one and a duplicate id
        actor = seats[(await seats[0].state(version))["view"]["to_act"]]
        start = len(actor.msgs)
        await actor.act(version - 1, payloads[-1])
        await actor.wait(lambda m: m["type"] == "error" and m["code"] == "stale_version", start=start)
        sent.append((payloads[-1]["type"], "stale_version"))
        start = len(last_actor.msgs)
        await last_actor.act(version - 1, payloads[-1], action_id=action_id)
        await last_actor.wait(lambda m: m["type"] == "state", start=start)
        sent.append((payloads[-1]["type"], "duplicate"))
        for c in seats:
            await c.close()

    asyncio.run(play())
    srv.stop()  # SIGTERM: everything is flushed
    text = srv.log_path.read_text()
    lines = _lines(srv)

    for token in tokens:
        assert token not in text
    lowered = text.lower()
    for word in ("bearer", "authorization", "cookie", f"osaka_{code}".lower(), "payment", "discard"):
        assert word not in lowered, word
    for line in lines:
        for key, value in line.items():
            # no lists or objects: a hand, a payment or a frame can only hide in one of those
            assert value is None or isinstance(value, (str, int, float, bool)), (key, line)

    actions = [ln for ln in lines if ln["logger"] == "osaka.live" and ln["msg"] == "action"]
    assert [(ln["action"], ln["outcome"]) for ln in actions] == sent
    for ln in actions:
        assert set(ln) <= ACTION_KEYS and ln["room"] == code and ln["by"] == "player"
    applied = [ln["version"] for ln in actions if ln["outcome"] == "applied"]
    assert applied == list(range(1, len(applied) + 1))

    http = [(ln["method"], ln["path"], ln["status"]) for ln in lines if ln["msg"] == "http"]
    for request in [("POST", "/api/rooms", 201), ("GET", f"/api/rooms/{code}", 200),
                    ("POST", f"/api/rooms/{code}/join", 200), ("POST", f"/api/rooms/{code}/start", 200)]:
        assert request in http
    sockets = [ln for ln in lines if ln["msg"] == "ws" and ln["path"] == f"/ws/rooms/{code}"]
    assert len(sockets) == 2 and all(s["accepted"] and s["close_code"] == 1000 for s in sockets)
    # third-party debug output (handshake headers, frames, SQL) is not there
    assert not [ln for ln in lines if ln["level"] == "debug" and not ln["logger"].startswith(("osaka", "alembic"))]


def test_log_level_comes_from_the_environment(server_factory):
    srv = server_factory(LOG_LEVEL="warning")
    assert httpx.get(srv.base_url + "/api/rooms").status_code == 200
    assert httpx.get(srv.base_url + "/api/rooms/NOPE").status_code == 404
    srv.stop()
    assert {ln["level"] for ln in _lines(srv)} <= {"warning", "error", "critical"}

    srv = server_factory(LOG_LEVEL="info")
    assert httpx.get(srv.base_url + "/api/rooms").status_code == 200
    srv.stop()
    lines = _lines(srv)
    assert {ln["level"] for ln in lines} <= {"info", "warning", "error", "critical"}
    assert any(ln["msg"] == "http" and ln["path"] == "/api/rooms" and ln["status"] == 200 for ln in lines)
