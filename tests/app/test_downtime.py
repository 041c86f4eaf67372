"""A server outage does not eat a player's turn time (issue 28, app/live/computer/downtime.py).

Issue 28: a 30 s turn timer, SIGTERM four seconds into the first decision, the server down 40 s,
started again: within 5 s of the restart the decision had timed out and a computer player had
made it for the seat (the page showed 0:00 the whole time). Here with real `osaka serve`
processes on a database of this test alone (the session's server would be "a server alive"
all along, and its time-outs would rightly go on): a 20 s timer, the server stopped 4 s into
the first decision — cleanly (SIGTERM, it stores when it stopped) or killed (SIGKILL, it cannot
say) — 20 s with no server, then a new one: the decision still has about the time it had left
at the stop, nobody's time ran out, the person makes the decision, and the next one has its
full time. SQLite and PostgreSQL.
"""
from __future__ import annotations

import asyncio
import json
import random
import time

import httpx
import pytest

from tests.conftest import Server

from .helpers import Client, auth, create_room, join_room, pick_action, start

LIMIT_S = 20          # the room's turn timer
INTO_S = 4            # the stop comes this far into the first decision
DOWN_S = 20           # no server runs this long
QUIET_AFTER_S = 5     # issue 28's time-out came within this of the restart
#: How far the time left after the restart may be from the time left at the stop: SIGTERM
#: stores the stop time after the drain (well under a second after the last frame seen);
#: SIGKILL leaves the last "alive" stamp, at most downtime.BEAT_S (1 s) before the kill, so the
#: person may get up to that much more; plus the new server's start until its first frame.
SLACK_MS = 3500
TIMER = {"TURN_LIMIT_TEST_S": str(LIMIT_S), "TIMER_POLL_S": "0.2", "BOT_DELAY_S": "0",
         "BOT_TIME_BUDGET_S": "0.05", "LOG_LEVEL": "info", "CLEANUP_INTERVAL_S": "3600"}


async def _clock(srv: Server, code: str, tokens: list[str]) -> tuple[dict, list[Client]]:
    """Both seats connected to `srv` → (the first `state` frame seen, the clients)."""
    clients = [await Client.open(srv.ws_url, code, t, seat=i) for i, t in enumerate(tokens)]
    first = await clients[0].state(0)
    return first, clients


@pytest.mark.parametrize("how", ["sigterm", "sigkill"])
def test_time_while_no_server_ran_does_not_count(private_migrated_url, tmp_path, how):
    url = private_migrated_url
    a = Server(url, tmp_path / "a.log", **TIMER).start()
    try:
        host = create_room(a.base_url, "Hana", public=False)
        code = host["code"]
        bob = join_room(a.base_url, code, "Bob")
        tokens = [host["token"], bob["token"]]
        r = httpx.post(f"{a.base_url}/api/rooms/{code}/timer", json={"turn_limit_s": LIMIT_S},
                       headers=auth(host["token"]))
        assert r.status_code == 200 and r.json()["turn_limit_s"] == LIMIT_S
        start(a.base_url, code, host["token"])
        time.sleep(INTO_S)

        async def before_stop():
            state, clients = await _clock(a, code, tokens)
            for c in clients:
                await c.close()
            return state

        state = asyncio.run(before_stop())
        assert state["version"] == 0
        seat, left_at_stop = state["clock"]["seat"], state["clock"]["left_ms"]
        assert (LIMIT_S - INTO_S - 2) * 1000 <= left_at_stop <= (LIMIT_S - INTO_S) * 1000, state["clock"]
        if how == "sigterm":
            assert a.stop() == 0
        else:
            a.kill()
    finally:
        a.stop()
    time.sleep(DOWN_S)

    b = Server(url, tmp_path / "b.log", **TIMER).start()
    try:
        asyncio.run(_after_restart(b, code, tokens, seat, left_at_stop))
    finally:
        b.stop()
    # The new server says what it did: one game's clock moved on by the time nobody served.
    lines = [json.loads(x) for x in (tmp_path / "b.log").read_text().splitlines() if x.startswith("{")]
    paused = [x for x in lines if x.get("msg") == "turn_clocks_paused"]
    assert len(paused) == 1 and paused[0]["games"] == 1, paused
    assert DOWN_S <= paused[0]["downtime_s"] <= DOWN_S + 15
    assert not [x for x in lines if x.get("level") == "error"], lines


async def _after_restart(b: Server, code: str, tokens: list[str], seat: int, left_at_stop: int) -> None:
    restarted = time.monotonic()
    state, clients = await _clock(b, code, tokens)
    try:
        assert state["version"] == 0 and state["clock"]["seat"] == seat  # still that seat's decision
        left = state["clock"]["left_ms"]
        assert abs(left - left_at_stop) <= SLACK_MS, (left, left_at_stop)  # not 0:00
        # Issue 28's time-out came within 5 s of the restart: none comes now.
        await asyncio.sleep(max(0.0, QUIET_AFTER_S - (time.monotonic() - restarted)))
        for c in clients:
            assert not [m for m in c.msgs if m["type"] == "event" or m.get("version", 0) > 0], c.msgs[-3:]
        async with httpx.AsyncClient() as http:
            room = (await http.get(f"{b.base_url}/api/rooms/{code}")).json()
        assert room["version"] == 0 and room["status"] == "playing"
        # The person makes the decision themselves, and the next one has its full time.
        mover = clients[seat]
        view = (await mover.state(0))["view"]
        await mover.act(0, pick_action(view, random.Random(3)))
        event = await clients[0].wait(lambda m: m["type"] == "event" and m["version"] == 1)
        assert event["events"] and event["events"][0]["type"] != "timed_out", event
        after = await clients[0].state(1)
        assert after["clock"]["left_ms"] >= (LIMIT_S - 3) * 1000, after["clock"]
    finally:
        for c in clients:
            await c.close()
