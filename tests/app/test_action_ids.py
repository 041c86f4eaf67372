"""Action ids are per seat: a player cannot plant ids that make another seat's (or a computer
player's) actions come back as duplicates; ids in the computer players' `bot:` prefix are
refused, and so are ids that are not Unicode text; a seat reusing its own id gets the current
state and nothing is applied."""
from __future__ import annotations

import asyncio
import random

import httpx

from .helpers import Client, auth, create_room, join_room, new_game, pick_action, start

FAST = {"BOT_DELAY_S": "0", "BOT_TIME_BUDGET_S": "0.05", "BOT_WORKERS": "1"}


def _version(server, code):
    return httpx.get(f"{server.base_url}/api/rooms/{code}").json()["version"]


def test_same_id_in_two_seats_is_applied_for_both(server):
    code, tokens = new_game(server.base_url, 2)

    async def scenario():
        clients = [await Client.open(server.ws_url, code, t, seat=i) for i, t in enumerate(tokens)]
        rng = random.Random(4)
        used: set[int] = set()
        version = 0
        while used != {0, 1}:  # each seat plays one action with the id "shared-id"
            st = await clients[0].state(version)
            actor = clients[st["view"]["to_act"]]
            mine = await actor.state(version)
            action_id = None if actor.seat in used else "shared-id"
            mark = len(actor.msgs)
            await actor.act(version, pick_action(mine["view"], rng), action_id=action_id)
            reply = await actor.wait(lambda m: m["type"] in ("event", "error"), start=mark)
            assert reply["type"] == "event" and reply["version"] == version + 1, reply
            used.add(actor.seat)
            version += 1
        # A seat reusing its own id, even for another action, gets the current state back and
        # nothing is applied (at most once per seat).
        st = await clients[0].state(version)
        actor = clients[st["view"]["to_act"]]
        view = (await actor.state(version))["view"]  # (its frames of the last action may come later than seat 0's)
        mark = len(actor.msgs)
        await actor.act(version, pick_action(view, rng), action_id="shared-id")
        first = await actor.wait(lambda m: m["type"] in ("state", "event", "error"), start=mark)
        assert first["type"] == "state" and first["version"] == version, first
        await asyncio.sleep(0.2)
        assert not [m for m in actor.msgs[mark:] if m["type"] in ("event", "error")]
        for c in clients:
            await c.close()
        return version

    version = asyncio.run(scenario())
    assert _version(server, code) == version


def test_client_ids_in_the_bot_prefix_are_refused(server):
    code, tokens = new_game(server.base_url, 2)

    async def scenario():
        c = await Client.open(server.ws_url, code, tokens[0], seat=0)
        st = await c.state(0)
        for action_id in ("bot:1:1", "bot:0:1:fallback", "bot:" + "0" * 32):
            mark = len(c.msgs)
            await c.act(0, pick_action(st["view"], random.Random(1)) if st["view"]["to_act"] == 0
                        else {"type": "pass"}, action_id=action_id)
            err = await c.wait(lambda m: m["type"] == "error", start=mark)
            assert err["code"] == "bad_message" and err["id"] == action_id, err
        await c.close()

    asyncio.run(scenario())
    assert _version(server, code) == 0


def test_an_id_that_is_not_unicode_text_is_refused_and_the_game_goes_on(server):
    """An `id` whose JSON escape decodes to a lone surrogate (`"\\ud800"`) cannot be stored
    (UTF-8 has no encoding for it): it is refused as `bad_message` before anything is stored,
    and the same move with a proper id is then applied at once (a stored-and-failed batch once
    left SQLite's write lock held: every later write waited 30 s and failed)."""
    code, tokens = new_game(server.base_url, 2)

    async def scenario():
        clients = [await Client.open(server.ws_url, code, t, seat=i) for i, t in enumerate(tokens)]
        st = await clients[0].state(0)
        actor = clients[st["view"]["to_act"]]
        action = pick_action((await actor.state(0))["view"], random.Random(3))
        for bad in ("\ud800", "a\udfffb", "\udc80" * 3):
            mark = len(actor.msgs)
            await actor.act(0, action, action_id=bad)
            err = await actor.wait(lambda m: m["type"] == "error", start=mark)
            assert err["code"] == "bad_message" and err["id"] == bad, err
        mark = len(actor.msgs)
        await actor.act(0, action, action_id="fine-id")
        reply = await asyncio.wait_for(actor.wait(lambda m: m["type"] in ("event", "error"), start=mark), 5)
        assert reply["type"] == "event" and reply["version"] == 1, reply
        for c in clients:
            await c.close()

    asyncio.run(scenario())
    assert _version(server, code) == 1
    created = httpx.post(f"{server.base_url}/api/rooms", json={"name": "Ann", "public": False}, timeout=5)
    assert created.status_code == 201, created.text


def test_a_player_cannot_freeze_a_computer_player(server_factory):
    """The tester's attack: the human plants ids the bot would use (old scheme
    `bot:{version}:{seat}`, `…:fallback`, and the same ids without the prefix). The bot keeps
    moving and the game goes on."""
    srv = server_factory(**FAST)
    host = create_room(srv.base_url, "Human", public=False)
    code = host["code"]
    r = httpx.post(f"{srv.base_url}/api/rooms/{code}/bots", json={"level": "easy"},
                   headers=auth(host["token"]))
    assert r.status_code == 200
    start(srv.base_url, code, host["token"])

    async def scenario():
        c = await Client.open(srv.ws_url, code, host["token"], seat=0)
        rng = random.Random(9)
        planted: set[str] = set()
        version = -1
        for _ in range(30):
            st = await c.state(version + 1, timeout=15)
            version, view = st["version"], st["view"]
            if view["phase"] == "over":
                break
            if view["to_act"] != 0:
                continue
            # The ids the old driver would use next for seat 1 (hijack.py's schedule).
            if f"bot:{version + 1}:1:fallback" in planted:
                planted_id = f"bot:{version + 1}:1"
            else:
                planted_id = f"bot:{version + 3}:1:fallback"
            planted.add(planted_id)
            action = pick_action(view, rng)
            mark = len(c.msgs)
            await c.act(version, action, action_id=planted_id)
            reply = await c.wait(lambda m: m["type"] in ("event", "error"), start=mark)
            assert reply["type"] == "error" and reply["code"] == "bad_message", reply
            await c.act(version, action)  # a client id: applied
        await c.close()
        return version

    version = asyncio.run(scenario())
    assert version >= 20  # the computer player answered every one of its turns
    assert _version(srv, code) >= version
