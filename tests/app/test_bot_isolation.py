"""Computer players through the real server (issue "Computer players"): four bots of mixed
levels play a whole game, and a hard bot thinking in one room never holds up another room."""
from __future__ import annotations

import asyncio
import random

import httpx

from .helpers import Client, auth, check_no_secrets, create_room, new_game, pick_action, room_log, start


def _add_bot(base: str, code: str, token: str, level: str) -> int:
    r = httpx.post(f"{base}/api/rooms/{code}/bots", json={"level": level}, headers=auth(token))
    assert r.status_code == 200, r.text
    return r.json()["seat"]


def test_four_bots_of_mixed_levels_play_a_whole_game(server_factory):
    srv = server_factory(BOT_DELAY_S="0", BOT_TIME_BUDGET_S="0.05", BOT_WORKERS="1")
    host = create_room(srv.base_url, "Host", public=False)
    code = host["code"]
    assert [_add_bot(srv.base_url, code, host["token"], lvl) for lvl in ("easy", "normal", "hard")] == [1, 2, 3]
    start(srv.base_url, code, host["token"])
    # The host never connects; they hand their own seat to a bot, so all four seats are bots.
    r = httpx.post(f"{srv.base_url}/api/rooms/{code}/seats/0/bot", json={"level": "normal"},
                   headers=auth(host["token"]))
    assert r.status_code == 200, r.text

    async def watch():
        spectator = await Client.open(srv.ws_url, code)
        final = await spectator.wait(lambda m: m["type"] == "state" and m["view"]["phase"] == "over",
                                     timeout=240)
        await spectator.close()
        return spectator, final

    spectator, final = asyncio.run(watch())
    view = final["view"]
    assert view["winners"] and set(view["winners"]) <= {0, 1, 2, 3}
    assert all("vp" in p for p in view["players"])  # R-info-3: all VPs revealed at the end
    room = httpx.get(f"{srv.base_url}/api/rooms/{code}").json()
    assert room["status"] == "over" and [p["bot_level"] for p in room["players"]] == \
        ["normal", "easy", "normal", "hard"]
    for msg, raw in zip(spectator.msgs, spectator.raw):
        check_no_secrets(msg, raw, None, [host["token"]])
    assert not [x for x in room_log(srv, code) if "random legal action" in x["msg"]]


ATTEMPTS = 5  # decisions of the bot to try for one window (a busy machine may spoil some)


def test_a_hard_bot_thinking_does_not_delay_another_room(server_factory):
    """Room B's three round trips are answered while room A's hard computer player is still
    thinking (its move not yet sent): the decision runs in a worker process, not on the event
    loop. An outcome of ordering, not a duration."""
    budget = 3.0
    srv = server_factory(BOT_DELAY_S="0", BOT_TIME_BUDGET_S=str(budget), BOT_WORKERS="1")
    host = create_room(srv.base_url, "Thinker", public=False)
    code_a = host["code"]
    bot_seat = _add_bot(srv.base_url, code_a, host["token"], "hard")
    start(srv.base_url, code_a, host["token"])
    code_b, tokens_b = new_game(srv.base_url, 2)
    rng = random.Random(7)

    async def scenario() -> int:
        a = await Client.open(srv.ws_url, code_a, host["token"], seat=0)
        bs = [await Client.open(srv.ws_url, code_b, t, seat=i) for i, t in enumerate(tokens_b)]
        windows = 0  # decisions of the bot during which room B made all its round trips
        b_version = 0  # room B's version as last seen by the seat that acted
        for _ in range(ATTEMPTS):
            # Room A: play the human's decisions until the hard bot must decide.
            st = await a.state(0)
            while st["view"]["to_act"] != bot_seat:
                assert st["view"]["phase"] != "over"
                await a.act(st["version"], pick_action(st["view"], rng))
                st = await a.state(st["version"] + 1, timeout=60)
            thinking_from = st["version"]
            # Room B: round trips while the bot in room A is thinking.
            for _ in range(3):
                # Wait for the last action's state on seat 0 too: the server sends it to each
                # socket in turn, so seat 0 may not have it yet when the actor already does.
                b_state = await bs[0].state(b_version)
                seat = b_state["view"]["to_act"]
                b_state = await bs[seat].state(b_version)
                assert b_state["version"] == b_version and b_state["view"]["to_act"] == seat
                await bs[seat].act(b_version, pick_action(b_state["view"], rng))
                await bs[seat].state(b_version + 1, timeout=60)
                b_version += 1
            bot_done = (await a.state(0))["version"] > thinking_from
            await a.state(thinking_from + 1, timeout=60)
            if not bot_done:  # the bot was still thinking during every round trip of the window
                windows += 1
                break
        for c in [a, *bs]:
            await c.close()
        return windows

    # Were the bot thinking on the event loop, no action of room B could be answered before
    # its decision is sent: every window would end with the bot done.
    assert asyncio.run(scenario()) == 1
