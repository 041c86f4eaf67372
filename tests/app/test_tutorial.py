""""Learn to play" on a real server (app/tutorial.py, docs/protocol.md `POST /api/tutorial`),
SQLite and PostgreSQL: the tutorial room is private, the person in seat 0 with two normal
computer players, started at once on the prepared deal; the person following the hints (the
tutorial's moves) plays exactly the game the engine and bots predict (bots/tutorial.py), in which
every rule the guide explains comes up for the person; nothing hidden reaches any socket."""
from __future__ import annotations

import asyncio

import httpx

import engine
from app.tutorial import TUTORIAL_SEED
from bots.tutorial import RULES, play_through, rules_in

from .helpers import Client, check_no_secrets

MOVES = {"choose_token": "draft", "take": "take", "reserve": "reserve", "buy": "buy", "insure": "insure"}


def _tutorial(base: str, name: str = "Ann") -> dict:
    r = httpx.post(base + "/api/tutorial", json={"name": name})
    assert r.status_code == 201, r.text
    assert r.headers.get("set-cookie", "").startswith("osaka_"), "the seat cookie is set, as for a new room"
    return r.json()


def test_the_tutorial_room_is_private_started_with_computer_players_on_the_prepared_deal(server):
    base = server.base_url
    made = _tutorial(base)
    assert made["seat"] == 0 and made["token"]
    room = httpx.get(f"{base}/api/rooms/{made['code']}").json()
    assert room["tutorial"] is True and room["status"] == "playing" and room["public"] is False
    assert room["hints"] is True and room["turn_limit_s"] is None and room["pace"] == "live"
    assert [(p["name"], p["bot"], p["bot_level"]) for p in room["players"]] == [
        ("Ann", False, None), ("Bot (normal)", True, "normal"), ("Bot (normal)", True, "normal")]
    assert made["code"] not in [r["code"] for r in httpx.get(base + "/api/rooms").json()], "never in the lobby"
    # The prepared deal: the public starting hands are those of the tutorial's seed.
    deal = engine.new_game(3, TUTORIAL_SEED)

    async def first_state():
        c = await Client.open(server.ws_url, made["code"], made["token"], seat=0)
        state = await c.state()
        await c.close()
        return state
    assert (asyncio.run(first_state()))["view"]["starting_hands"] == deal.to_json()["starting_hands"]
    # An ordinary room is no tutorial.
    other = httpx.post(base + "/api/rooms", json={"name": "Bo", "public": False}).json()
    assert httpx.get(f"{base}/api/rooms/{other['code']}").json()["tutorial"] is False


def test_a_tutorial_needs_a_name(server):
    for body in ({}, {"name": ""}, {"name": "  "}, {"name": 7}):
        r = httpx.post(server.base_url + "/api/tutorial", json=body)
        assert r.status_code == 422 and r.json()["error"]["code"] in ("bad_name", "bad_request"), (body, r.text)
    r = httpx.post(server.base_url + "/api/tutorial", json={"name": "Bot (normal)"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "name_reserved", r.text


def test_following_the_hints_plays_the_prepared_game_and_every_rule_comes_up(server):
    """The person asks for the hint at each decision and plays it: the game is the predicted
    one (the same events for seat 0, hint_used aside), every rule of RULES comes up, and no
    frame to the person or to a spectator holds anything hidden."""
    made = _tutorial(server.base_url)
    expected = play_through(TUTORIAL_SEED, 3)

    async def scenario():
        me = await Client.open(server.ws_url, made["code"], made["token"], seat=0)
        spectator = await Client.open(server.ws_url, made["code"])
        seen: set[str] = set()
        hints = 0
        state = await me.state()
        while state["view"]["phase"] != "over":
            view = state["view"]
            if view["to_act"] != 0:
                state = await me.state(state["version"] + 1, timeout=30)
                continue
            n = len(me.msgs)
            await me.send({"type": "hint", "id": f"h{state['version']}", "version": state["version"]})
            hint = await me.wait(lambda m: m["type"] in ("hint", "error"), n)
            assert hint["type"] == "hint", hint
            assert hint["why"] == {"code": "tutorial"} and hint["seat"] == 0
            hints += 1
            seen.add(MOVES[hint["action"]["type"]])
            await me.act(state["version"], hint["action"])
            state = await me.state(state["version"] + 1, timeout=30)
        await asyncio.sleep(0.2)
        events = [e for m in me.msgs if m["type"] in ("history", "event") for e in m["events"]]
        for client, seat in ((me, 0), (spectator, None)):
            for raw, msg in zip(client.raw, client.msgs):
                check_no_secrets(msg, raw, seat, [made["token"]])
        await me.close()
        await spectator.close()
        return seen, events, hints
    seen, events, hints = asyncio.run(scenario())
    plain = [e for e in events if e["type"] != "hint_used"]
    assert plain == expected.events, "the server played another game than the prepared one"
    assert sum(e["type"] == "hint_used" for e in events) == hints == expected.decisions
    assert seen | rules_in(plain) == set(RULES), sorted(set(RULES) - seen - rules_in(plain))
