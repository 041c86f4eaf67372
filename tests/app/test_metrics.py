"""`GET /metrics` of a real server process (app/metrics.py; docs/deploy.md "Metrics"): off without
METRICS_TOKEN, refused without the token, and with it the Prometheus text format whose figures
follow what really happened: the actions applied and refused by code, their latency, the group
commit's batches, the rooms by state, the sockets, a computer player's decisions and a sent
notification. The tests that count use a database of their own (`own_servers`): no other
process takes up their rooms' work."""
from __future__ import annotations

import asyncio
import random
import time

import httpx
from prometheus_client.parser import text_string_to_metric_families

from tests.app.helpers import Client, auth, create_room, join_room, play, start
from tests.app.notify_receivers import HookReceiver

TOKEN = "scrape-" + "x" * 24


def scrape(base: str) -> dict[tuple[str, tuple], float]:
    """{(sample name, sorted labels): value} of one scrape."""
    r = httpx.get(base + "/metrics", headers=auth(TOKEN))
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain; version=")  # the text exposition format
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for fam in text_string_to_metric_families(r.text) for s in fam.samples}


def value(figures: dict, name: str, **labels: str) -> float:
    return figures.get((name, tuple(sorted(labels.items()))), 0.0)


def test_metrics_are_off_without_a_token_and_refused_without_the_right_one(server_factory):
    off = server_factory()
    r = httpx.get(off.base_url + "/metrics")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    on = server_factory(METRICS_TOKEN=TOKEN)
    for headers in ({}, auth("wrong"), {"Authorization": TOKEN}):
        r = httpx.get(on.base_url + "/metrics", headers=headers)
        assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized", headers
    assert "osaka_actions_total" not in r.text


def test_the_figures_follow_what_happened(own_servers):
    # A database of its own: on the session's shared one the session's server (no
    # NOTIFY_ALLOW_PRIVATE) claimed the webhook's row too and failed it as a private address,
    # backing off 2 + 4 + 8 + 16 s: nothing came within 30 s (a CI failure, twice).
    srv = own_servers(METRICS_TOKEN=TOKEN, NOTIFY_ALLOW_PRIVATE="true", NOTIFY_POLL_S="0.3", NOTIFY_BACKOFF_S="0.3",
                      BOT_DELAY_S="0")
    base = srv.base_url
    host = create_room(base, "Ann", public=False)
    code = host["code"]
    guest = join_room(base, code, "Ben")
    with HookReceiver() as hook:
        r = httpx.put(f"{base}/api/rooms/{code}/webhook", json={"url": hook.url("room")}, headers=auth(host["token"]))
        assert r.status_code == 200, r.text
        start(base, code, host["token"])
        before = scrape(base)

        async def go() -> tuple[dict, int]:
            clients = [await Client.open(srv.ws_url, code, t, seat=i) for i, t in enumerate([host["token"], guest["token"]])]
            version = await play(clients, 6, random.Random(3))
            # One stale action: refused with its code.
            await clients[0].act(version - 1, {"type": "take"})
            await clients[0].wait(lambda m: m["type"] == "error" and m["code"] == "stale_version")
            during = scrape(base)
            for c in clients:
                await c.close()
            return during, version
        during, version = asyncio.run(go())
        hook.wait(1)
        end = time.monotonic() + 10
        while value(scrape(base), "osaka_notifications_total", target="webhook", outcome="sent") < 1:
            assert time.monotonic() < end, "the webhook's delivery was not counted"
            time.sleep(0.1)

    def delta(name: str, **labels: str) -> float:
        return value(during, name, **labels) - value(before, name, **labels)

    assert delta("osaka_actions_total", outcome="applied", by="player") == 6
    assert delta("osaka_actions_total", outcome="stale_version", by="player") == 1
    assert delta("osaka_action_seconds_count", stage="committed") == 6
    assert delta("osaka_action_seconds_count", stage="sent") == 6
    assert 0 < delta("osaka_action_seconds_sum", stage="committed") <= delta("osaka_action_seconds_sum", stage="sent")
    assert delta("osaka_commit_batch_actions_sum") == 6 and 1 <= delta("osaka_commit_batch_actions_count") <= 6
    assert value(during, "osaka_rooms", state="playing") >= 1
    assert value(during, "osaka_sockets", kind="seat") == 2 and value(during, "osaka_sockets", kind="spectator") == 0
    assert value(during, "osaka_db_pool_in_use") >= 0
    assert version == 6


def test_a_computer_players_decisions_are_counted(own_servers):
    srv = own_servers(METRICS_TOKEN=TOKEN, BOT_DELAY_S="0", BOT_TIME_BUDGET_S="0.05")
    base = srv.base_url
    host = create_room(base, "Ann", public=False)
    code = host["code"]
    r = httpx.post(f"{base}/api/rooms/{code}/bots", json={"level": "easy"}, headers=auth(host["token"]))
    assert r.status_code in (200, 201), r.text
    before = value(scrape(base), "osaka_bot_decisions_total", level="easy")
    start(base, code, host["token"])

    async def go() -> None:
        ann = await Client.open(srv.ws_url, code, host["token"], seat=0)
        rng = random.Random(1)
        await play_while_bot_moves(ann, rng)
        await ann.close()
    asyncio.run(go())
    after = scrape(base)
    assert value(after, "osaka_bot_decisions_total", level="easy") > before
    assert value(after, "osaka_bot_decision_seconds_count", level="easy") == value(after, "osaka_bot_decisions_total", level="easy")
    assert value(after, "osaka_actions_total", outcome="applied", by="bot") >= 1


async def play_while_bot_moves(ann: Client, rng: random.Random) -> None:
    """Ann plays her decisions until the computer player has moved at least twice."""
    from tests.app.helpers import pick_action
    bot_moves = 0
    version = (await ann.state())["version"]
    while bot_moves < 2:
        state = await ann.state(version)
        if state["version"] > version:
            version = state["version"]
        view = state["view"]
        if view["to_act"] == 0:
            await ann.act(version, pick_action(view, rng))
            await ann.state(version + 1)
            version += 1
        else:
            await ann.state(version + 1, timeout=30)
            version += 1
            bot_moves += 1
