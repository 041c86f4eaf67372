"""Hints on request (app/live/hints.py, docs/protocol.md "Hints"), against real servers on
SQLite and PostgreSQL: off → refused; on → the seat to decide gets the hard computer player's
move with its reason, the same one when it asks again (counted once, also after a restart);
every other socket sees only that a hint was used; the result and the record count them."""
from __future__ import annotations

import asyncio
import random

import httpx
import pytest

from engine import action_from_json

from .helpers import Client, auth, check_no_secrets, join_room, new_game, pick_action, start

FAST = {"BOT_TIME_BUDGET_S": "0.2"}


def _hint_room(base: str) -> tuple[str, list[str]]:
    """A started two-seat room whose host allowed hints at creation → (code, tokens)."""
    r = httpx.post(base + "/api/rooms", json={"name": "Ann", "public": False, "hints": True})
    assert r.status_code == 201, r.text
    host = r.json()
    assert httpx.get(f"{base}/api/rooms/{host['code']}").json()["hints"] is True
    tokens = [host["token"], join_room(base, host["code"], "Ben")["token"]]
    start(base, host["code"], host["token"])
    return host["code"], tokens


def test_the_host_sets_hints_before_the_game_only(server):
    base = server.base_url
    r = httpx.post(base + "/api/rooms", json={"name": "Ann", "public": True})
    code, token = r.json()["code"], r.json()["token"]
    assert httpx.get(f"{base}/api/rooms/{code}").json()["hints"] is False  # off by default
    other = join_room(base, code, "Ben")["token"]
    assert httpx.post(f"{base}/api/rooms/{code}/hints", json={"allowed": True}, headers=auth(other)).status_code == 403
    r = httpx.post(f"{base}/api/rooms/{code}/hints", json={"allowed": True}, headers=auth(token))
    assert r.status_code == 200 and r.json()["hints"] is True
    start(base, code, token)
    r = httpx.post(f"{base}/api/rooms/{code}/hints", json={"allowed": False}, headers=auth(token))
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_started", r.text


def test_a_room_without_hints_refuses_them(server):
    code, tokens = new_game(server.base_url, 2)

    async def scenario():
        clients = [await Client.open(server.ws_url, code, t, seat=i) for i, t in enumerate(tokens)]
        spectator = await Client.open(server.ws_url, code)
        view = (await clients[0].state())["view"]
        n = len(clients[view["to_act"]].msgs)
        await clients[view["to_act"]].send({"type": "hint", "version": 0})
        err = await clients[view["to_act"]].wait(lambda m: m["type"] == "error", n)
        assert err["code"] == "hints_off"
        await spectator.send({"type": "hint", "version": 0})
        assert (await spectator.wait(lambda m: m["type"] == "error"))["code"] == "not_seated"
        for c in [*clients, spectator]:
            await c.close()
    asyncio.run(scenario())


def test_a_hint_for_the_seat_alone_counted_once_across_a_restart(server_factory):
    a = server_factory(**FAST)
    code, tokens = _hint_room(a.base_url)

    async def first(srv):
        clients = [await Client.open(srv.ws_url, code, t, seat=i) for i, t in enumerate(tokens)]
        spectator = await Client.open(srv.ws_url, code)
        view = (await clients[0].state())["view"]
        me, other = clients[view["to_act"]], clients[1 - view["to_act"]]
        n = len(other.msgs)
        await other.send({"type": "hint", "version": 0})  # not its decision
        assert (await other.wait(lambda m: m["type"] == "error", n))["code"] == "not_your_turn"
        await me.send({"type": "hint", "version": 5})
        assert (await me.wait(lambda m: m["type"] == "error"))["code"] == "stale_version"
        await me.send({"type": "hint", "version": 0})
        hint = await me.wait(lambda m: m["type"] == "hint")
        assert hint["seat"] == me.seat and hint["version"] == 0 and hint["why"]["code"] in ("search", "prior", "only")
        action_from_json(hint["action"])  # an action of the engine
        for c in (other, spectator, me):  # everyone: that a hint was used, and the count
            await c.wait(lambda m: m["type"] == "event" and m["events"] == [
                {"type": "hint_used", "seat": me.seat, "visible_to": None}])
            state = await c.wait(lambda m: m["type"] == "state" and m.get("hints"))
            assert state["hints"][me.seat] == 1 and sum(state["hints"]) == 1
        count = len(me.msgs)
        await me.send({"type": "hint", "version": 0})  # again: the same hint, not counted again
        again = await me.wait(lambda m: m["type"] == "hint", count)
        assert {k: again[k] for k in ("action", "why")} == {k: hint[k] for k in ("action", "why")}
        await asyncio.sleep(0.3)
        for c in (other, spectator):
            assert not [m for m in c.msgs if m["type"] == "hint"], "another socket got the hint"
            for raw, m in zip(c.raw, c.msgs):
                check_no_secrets(m, raw, c.seat, tokens)
            assert hint["action"] not in [m.get("action") for m in c.msgs]
        assert not [m for m in me.msgs[count:] if m["type"] == "event"]  # no second log line
        for c in [*clients, spectator]:
            await c.close()
        return hint

    hint = asyncio.run(first(a))
    a.kill()
    b = server_factory(**FAST, FLOOD_LIMIT="10000/3seconds")  # the test plays ~120 moves at machine speed

    async def after(srv):
        clients = [await Client.open(srv.ws_url, code, t, seat=i) for i, t in enumerate(tokens)]
        history = await clients[0].wait(lambda m: m["type"] == "history")
        assert {"type": "hint_used", "seat": hint["seat"], "visible_to": None} in history["events"]
        state = await clients[0].state()
        assert state["hints"][hint["seat"]] == 1
        me = clients[hint["seat"]]
        await me.send({"type": "hint", "version": 0})
        again = await me.wait(lambda m: m["type"] == "hint")
        assert again["action"] == hint["action"] and again["why"] == hint["why"]
        await me.act(0, hint["action"])  # the suggestion is legal: it is played
        version, rng = 1, random.Random(3)
        while True:
            state = await clients[0].state(version)
            if state["view"]["phase"] == "over":
                break
            actor = clients[state["view"]["to_act"]]
            await actor.act(version, pick_action((await actor.state(version))["view"], rng))
            version += 1
        assert state["result"] and state["hints"] == [1 if s == hint["seat"] else 0 for s in range(2)]
        for c in clients:
            await c.close()

    asyncio.run(after(b))
    record = httpx.get(f"{b.base_url}/api/rooms/{code}/games/1/record.json").json()
    assert [p["hints"] for p in record["players"]] == [1 if s == hint["seat"] else 0 for s in range(2)]
    assert record["hints"] == [{"seat": hint["seat"], "version": 0, "action": hint["action"], "why": hint["why"],
                                "at": record["hints"][0]["at"]}]
    text = httpx.get(f"{b.base_url}/api/rooms/{code}/games/1/record.txt").text
    assert "asked the computer for a hint" in text and "assisted: 1 hint" in text


@pytest.mark.postgresql_only
def test_a_hint_given_in_one_process_is_seen_in_the_other(migrated_url, server_factory):
    """Two processes on one PostgreSQL database: a hint asked through A reaches the seat's
    other tab on B (the hint itself), and B's spectator and the other seat hear that it was
    used and its count, live and after reconnecting (fanout kind "h"). Found by the break
    test: B never knew, not even after a reconnect, so its result said no hints."""
    assert migrated_url.startswith("postgresql"), "several processes need PostgreSQL"
    a, b = server_factory(**FAST), server_factory(**FAST)
    code, tokens = _hint_room(a.base_url)

    async def run():
        view = (await (probe := await Client.open(a.ws_url, code, tokens[0], seat=0)).state())["view"]
        await probe.close()
        seat = view["to_act"]
        me_a = await Client.open(a.ws_url, code, tokens[seat], seat=seat)
        me_b = await Client.open(b.ws_url, code, tokens[seat], seat=seat)  # the same seat's other tab, on B
        other_b = await Client.open(b.ws_url, code, tokens[1 - seat], seat=1 - seat)
        spectator_b = await Client.open(b.ws_url, code)
        await me_b.state()
        await me_a.send({"type": "hint", "version": 0})
        hint = await me_a.wait(lambda m: m["type"] == "hint")
        got = await me_b.wait(lambda m: m["type"] == "hint")
        assert {k: got[k] for k in ("version", "seat", "action", "why")} == \
            {k: hint[k] for k in ("version", "seat", "action", "why")}
        for c in (other_b, spectator_b):
            await c.wait(lambda m: m["type"] == "event" and m["events"] == [
                {"type": "hint_used", "seat": seat, "visible_to": None}])
            state = await c.wait(lambda m: m["type"] == "state" and m.get("hints"))
            assert state["hints"][seat] == 1
            assert not [m for m in c.msgs if m["type"] == "hint"], "another seat got the hint"
        for c in (me_a, me_b, other_b, spectator_b):
            await c.close()
        again = await Client.open(b.ws_url, code)  # a reconnect to B: the history and the count
        history = await again.wait(lambda m: m["type"] == "history")
        assert {"type": "hint_used", "seat": seat, "visible_to": None} in history["events"]
        assert (await again.state())["hints"][seat] == 1
        await again.close()

    asyncio.run(run())
