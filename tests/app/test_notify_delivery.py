"""Notifications delivered for real (docs/protocol.md "Notifications"): a server with
NOTIFY_ALLOW_PRIVATE (the receivers are on 127.0.0.1), a local RFC 8030 push service that
checks VAPID and decrypts, an HTTP receiver for Apprise's json://, aiosmtpd for mail."""
from __future__ import annotations

import asyncio
import random
import re
import time
from datetime import datetime, timedelta

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from tests.app.helpers import Client, auth, create_room, join_room, pick_action, play, start
from tests.app.notify_receivers import HookReceiver, MailReceiver, PushService
from tests.app.rematch_helpers import bots_finish
FAST = {"NOTIFY_ALLOW_PRIVATE": "true", "NOTIFY_POLL_S": "0.3", "NOTIFY_BACKOFF_S": "0.3",
        "NOTIFY_SEAT_LIMIT": "off", "NOTIFY_ROOM_LIMIT": "off", "NOTIFY_CHANGE_LIMIT": "off"}
PAYLOAD_KEYS = {"title", "body", "url", "off_url", "off_title", "room", "lang"}


@pytest.fixture
def receivers():
    hook = HookReceiver()
    made: list = []

    def push(base: str) -> PushService:
        service = PushService(httpx.get(base + "/api/push/key").json()["public_key"])
        made.append(service)
        return service
    yield hook, push
    hook.close()
    for m in made:
        m.close()


def _two_seats(base: str) -> tuple[str, list[str]]:
    host = create_room(base, "Ann", public=False)
    return host["code"], [host["token"], join_room(base, host["code"], "Ben")["token"]]


def _put(base: str, code: str, token: str, **body) -> dict:
    r = httpx.put(f"{base}/api/rooms/{code}/notify", json=body, headers=auth(token))
    assert r.status_code == 200, r.text
    return r.json()


async def _outbox(url: str, code: str) -> list[tuple]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            return list((await conn.execute(text(
                "SELECT o.kind, o.key, o.state, o.attempts, t.kind, t.seat, o.due_at, o.lease_until FROM notify_outbox o "
                "JOIN notify_targets t ON t.id = o.target_id JOIN rooms r ON r.id = o.room_id "
                "WHERE r.code = :c ORDER BY o.id"), {"c": code})).all())
    finally:
        await engine.dispose()


def _new_turns(states: dict[int, dict]) -> list[tuple[int, int]]:
    """(version, seat) of every decision that began a seat's run of decisions."""
    out, previous = [], None
    for v in sorted(states):
        seat = states[v]["view"]["to_act"]
        if seat is not None and seat != previous:
            out.append((v, seat))
        previous = seat
    return out


def _words(raw: str, code: str) -> str:
    """A notification's text without what is random in it: its links (the room's, the
    turn-off link's token) and the room code, in which "VP" or "vp" may stand by chance."""
    text = re.sub(r"https?://[^\s\"\\]+", "", raw)
    return text.replace(f"{code[:5]}-{code[5:]}", "").replace(code, "")


def _wait_until(done, what: str, timeout_s: float = 15) -> None:
    """Until `done()` (the sender works in rounds of at least MIN_ROUND_S, later on a busy
    machine); AssertionError naming `what` after `timeout_s`."""
    end = time.monotonic() + timeout_s
    while not done():
        assert time.monotonic() < end, f"{what} did not come in {timeout_s} s"
        time.sleep(0.05)


def _play_hidden(srv, code: str, tokens: list[str], actions: int, told: dict, seed: int,
                 room_told=None) -> list[tuple[int, int]]:
    """Every seat's page hidden, `actions` actions played as `_play_when_told` does → its turns."""
    async def go():
        clients = await _hidden_clients(srv, code, tokens)
        turns = await _play_when_told(clients, actions, told, seed=seed, room_told=room_told)
        for c in clients:
            await c.close()
        return turns
    return asyncio.run(go())


async def _hidden_clients(srv, code: str, tokens: list[str]) -> list[Client]:
    clients = [await Client.open(srv.ws_url, code, t, seat=i) for i, t in enumerate(tokens)]
    for c in clients:
        await c.state()
        await c.send({"type": "visible", "visible": False})
    return clients


def test_each_turn_once_by_push_apprise_and_webhook_with_public_words_only(own_servers, receivers):
    """Both pages hidden; each player acts only once told (as a person woken by it would): every
    decision that starts a seat's run is told once to that seat and once to the webhook."""
    hook, make_push = receivers
    srv = own_servers(**FAST)
    push = make_push(srv.base_url)
    code, tokens = _two_seats(srv.base_url)
    _put(srv.base_url, code, tokens[1], webpush=push.subscribe("ben"), lang="de")
    _put(srv.base_url, code, tokens[0], apprise=hook.url("ann"))
    r = httpx.put(f"{srv.base_url}/api/rooms/{code}/webhook", json={"url": hook.url("room")}, headers=auth(tokens[0]))
    assert r.status_code == 200, r.text
    start(srv.base_url, code, tokens[0])
    told = {0: lambda: len(hook.to("ann")), 1: lambda: len(push.received)}
    # Each acts once told, and once the room's webhook had that turn too: a turn told to the group
    # after its decision was made is stale and rightly dropped (a person told first and playing
    # at once, before the sender reached the webhook's row, made it so 1 run in 4).
    turns = _play_hidden(srv, code, tokens, 14, told, seed=31, room_told=lambda: len(hook.to("room")))
    bens = [t for t in turns if t[1] == 1]
    anns = [t for t in turns if t[1] == 0]
    assert len(bens) >= 2 and len(anns) >= 2
    _wait_until(lambda: len(hook.to("room")) >= len(turns), "the room's webhook of the last turn")
    time.sleep(1.5)  # several polls later: nothing more came
    assert len(push.received) == len(bens) and len(hook.to("ann")) == len(anns) and len(hook.to("room")) == len(turns)
    for m in push.received:
        assert m["error"] is None, m["error"]
        p = m["payload"]
        assert set(p) == PAYLOAD_KEYS and p["room"] == code and p["lang"] == "de"
        assert p["url"] == f"{srv.base_url}/r/{code}" and p["off_url"].startswith(f"{srv.base_url}/api/notify/off/")
        assert p["title"].startswith("Du bist dran") and m["headers"]["Topic"] == code
        assert ". —" not in p["body"] and (" — " in p["body"] or p["body"].endswith(".")), p["body"]
    hooks = [m["payload"]["title"] for m in hook.to("room")]
    assert hooks == [f"{['Ann', 'Ben'][seat]}'s turn in room {code[:5]}-{code[5:]}" for _, seat in turns]
    for m in push.received + hook.received:
        for secret in tokens:
            assert secret not in m["raw"], (secret, m["raw"])
        words = _words(m["raw"], code)
        for secret in ("hand", "VP", " SP", "vp", "deck", "seed"):
            assert secret not in words, (secret, words)
    rows = asyncio.run(_outbox(srv.database_url, code))
    assert sorted(r[1] for r in rows if r[4] == "webpush") == sorted(f"turn:1:{v}" for v, _ in bens)


def test_not_sent_while_the_page_is_visible_sent_when_hidden_stale_dropped(own_servers, receivers):
    hook, make_push = receivers
    srv = own_servers(**FAST)
    push = make_push(srv.base_url)
    code, tokens = _two_seats(srv.base_url)
    start(srv.base_url, code, tokens[0])

    async def go():
        clients = [await Client.open(srv.ws_url, code, t, seat=i) for i, t in enumerate(tokens)]
        first = (await clients[0].state())["view"]["to_act"]
        ann, ben = clients[first], clients[1 - first]  # "Ann": the seat deciding first, watching
        _put(srv.base_url, code, tokens[first], webpush=push.subscribe("ann"))
        await asyncio.sleep(1.5)  # polls go by: Ann's page is visible, nothing is sent
        assert push.received == []
        rng = random.Random(5)
        await play(clients, 1, rng)  # Ann decides while watching: that turn's row is stale
        v = 1
        while (await ann.state(v))["view"]["to_act"] != first:
            await play(clients, 1, rng)
            v += 1
        await asyncio.sleep(1.0)
        assert push.received == [], "still visible"
        await ann.send({"type": "visible", "visible": False})
        push.wait(1)
        for c in clients:
            await c.close()
        return v
    v = asyncio.run(go())
    rows = asyncio.run(_outbox(srv.database_url, code))
    assert ("turn", "turn:1:0", "dropped") in [r[:3] for r in rows], "the first decision was made: dropped"
    assert [r[:3] for r in rows if r[2] == "sent"] == [("turn", f"turn:1:{v}", "sent")]
    assert len(push.received) == 1


def _first_seat(srv, code: str, token: str) -> int:
    async def go():
        c = await Client.open(srv.ws_url, code, token, seat=0)
        seat = (await c.state())["view"]["to_act"]
        await c.close()
        return seat
    return asyncio.run(go())


def test_reminder_at_80_percent(own_servers, receivers):
    hook, _ = receivers
    srv = own_servers(**FAST, TURN_LIMIT_TEST_S="5")
    host = httpx.post(srv.base_url + "/api/rooms", json={"name": "Ann", "public": False, "turn_limit_s": 5}).json()
    code = host["code"]
    tokens = [host["token"], join_room(srv.base_url, code, "Ben")["token"]]
    for seat, token in enumerate(tokens):
        _put(srv.base_url, code, token, apprise=hook.url(f"s{seat}"))
    start(srv.base_url, code, host["token"])
    began = time.monotonic()
    first = hook.wait(1)[0]
    reminder = hook.wait(2)[1]
    assert first["path"] == reminder["path"], "the same seat's decision"
    assert "Your turn" in first["payload"]["title"]
    assert "running out" in reminder["payload"]["title"] and time.monotonic() - began >= 3.5
    rows = asyncio.run(_outbox(srv.database_url, code))
    assert [r[:3] for r in rows if r[0] == "reminder" and r[2] == "sent"] == [("reminder", "reminder:1:0", "sent")]


def test_quiet_hours_defer(own_servers, receivers):
    hook, _ = receivers
    srv = own_servers(**FAST)
    code, tokens = _two_seats(srv.base_url)
    now = time.gmtime()
    end_hour = (now.tm_hour + 2) % 24
    quiet = {"from": f"{(now.tm_hour - 1) % 24:02d}:00", "to": f"{end_hour:02d}:00", "tz": "UTC"}
    for seat, token in enumerate(tokens):
        _put(srv.base_url, code, token, apprise=hook.url(f"s{seat}"), quiet=quiet)
    start(srv.base_url, code, tokens[0])

    def due_hour(rows):
        return datetime.fromisoformat(str(rows[0][6])).hour if rows else None
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        rows = asyncio.run(_outbox(srv.database_url, code))
        if due_hour(rows) == end_hour:
            break
        time.sleep(0.2)
    assert rows[0][:3] == ("turn", "turn:1:0", "pending") and due_hour(rows) == end_hour, rows
    assert hook.received == []


def test_retries_with_backoff_then_dead_letter_shown(own_servers, receivers):
    hook, _ = receivers
    hook.status = 500
    srv = own_servers(**FAST, NOTIFY_MAX_FAILURES="3")
    code, tokens = _two_seats(srv.base_url)
    for seat, token in enumerate(tokens):
        _put(srv.base_url, code, token, apprise=hook.url(f"s{seat}"))
    start(srv.base_url, code, tokens[0])
    tries = hook.wait(3)
    seat = int(tries[0]["path"].strip("/")[1:])
    got = {}
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        got = httpx.get(f"{srv.base_url}/api/rooms/{code}/notify", headers=auth(tokens[seat])).json()
        if got["failed"]:
            break
        time.sleep(0.1)
    assert got["failed"]["target"] == "apprise" and "500" in got["failed"]["reason"] or got["failed"]["reason"]
    assert got["failed"]["at"].endswith("Z")
    time.sleep(1.5)
    assert len(hook.received) == len(tries) == 3, "no fourth try"
    assert {m["path"] for m in tries} == {f"/s{seat}"}
    rows = asyncio.run(_outbox(srv.database_url, code))
    assert [r[2:4] for r in rows] == [("dead", 2)]
    _put(srv.base_url, code, tokens[seat], apprise=hook.url(f"s{seat}"))  # saved again: no longer failed
    assert httpx.get(f"{srv.base_url}/api/rooms/{code}/notify", headers=auth(tokens[seat])).json()["failed"] is None


def test_turn_off_through_the_token_of_the_notification(own_servers, receivers):
    hook, make_push = receivers
    srv = own_servers(**FAST)
    push = make_push(srv.base_url)
    code, tokens = _two_seats(srv.base_url)
    for seat, token in enumerate(tokens):
        _put(srv.base_url, code, token, webpush=push.subscribe(f"s{seat}"))
    start(srv.base_url, code, tokens[0])
    got = push.wait(1)[0]
    seat = int(got["path"].rsplit("/s", 1)[-1])
    off_url = got["payload"]["off_url"]
    mine = f"{srv.base_url}/api/rooms/{code}/notify"
    page = httpx.get(f"{srv.base_url}/n/off/{off_url.rsplit('/', 1)[-1]}")
    assert page.status_code == 200
    assert f"room {code[:5]}-{code[5:]} to this browser?" in page.text, "it names the room and where they go"
    assert httpx.get(mine, headers=auth(tokens[seat])).json()["webpush"], "GET changes nothing"
    assert httpx.post(off_url).status_code == 204
    assert httpx.get(mine, headers=auth(tokens[seat])).json()["webpush"] is False
    assert httpx.get(mine, headers=auth(tokens[1 - seat])).json()["webpush"] is True, "only that one"


def test_webhook_gets_the_result_and_mail_goes_through_smtp(own_servers, receivers):
    hook, _ = receivers
    mail = MailReceiver()
    try:
        srv = own_servers(**FAST, SMTP_HOST="127.0.0.1", SMTP_PORT=str(mail.port), SMTP_STARTTLS="false",
                             SMTP_FROM="osaka@example.org")
        code, tokens = _two_seats(srv.base_url)
        assert _put(srv.base_url, code, tokens[1], apprise="ben@example.org")["apprise"] == "b…@example.org"
        r = httpx.put(f"{srv.base_url}/api/rooms/{code}/webhook", json={"url": hook.url("room")}, headers=auth(tokens[0]))
        assert r.status_code == 200
        start(srv.base_url, code, tokens[0])
        bots_finish(srv.base_url, code, tokens[0], [0, 1])
        results = []
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not results:
            results = [m for m in hook.to("room") if "Game over" in m["payload"]["title"]]
            time.sleep(0.1)
        assert len(results) == 1 and " won." in results[0]["payload"]["message"] and "VP" in results[0]["payload"]["message"]
        # The group's channel carries no link that would let anyone there turn the webhook off.
        assert hook.to("room") and not [m for m in hook.to("room") if "/n/off/" in m["raw"]]
        rows = asyncio.run(_outbox(srv.database_url, code))
        assert [r[1] for r in rows if r[0] == "result"] == ["result:1"]
        if any(r[4] == "apprise" and r[2] == "sent" for r in rows):
            got = mail.wait(1)
            assert got[0]["to"] == ["ben@example.org"] and "/n/off/" in got[0]["text"]
    finally:
        mail.close()


def test_mail_turn_notification(own_servers):
    mail = MailReceiver()
    try:
        srv = own_servers(**FAST, SMTP_HOST="127.0.0.1", SMTP_PORT=str(mail.port), SMTP_STARTTLS="false",
                             SMTP_FROM="osaka@example.org")
        code, tokens = _two_seats(srv.base_url)
        for seat, token in enumerate(tokens):
            _put(srv.base_url, code, token, apprise=f"seat{seat}@example.org")
        start(srv.base_url, code, tokens[0])
        first = _first_seat(srv, code, tokens[0])
        got = mail.wait(1)
        assert got[0]["to"] == [f"seat{first}@example.org"] and got[0]["from"] == "osaka@example.org"
        assert "Your turn" in got[0]["text"] and "/n/off/" in got[0]["text"]
    finally:
        mail.close()


def test_a_restart_between_enqueue_and_send_loses_nothing(own_servers, receivers):
    hook, make_push = receivers
    srv = own_servers(**{**FAST, "NOTIFY_BACKOFF_S": "2"})
    push = make_push(srv.base_url)
    push.status = 500  # the first try fails: the row waits for its retry
    code, tokens = _two_seats(srv.base_url)
    for seat, token in enumerate(tokens):
        _put(srv.base_url, code, token, webpush=push.subscribe(f"s{seat}"))
    start(srv.base_url, code, tokens[0])
    push.wait(1)
    deadline = time.monotonic() + 10
    while asyncio.run(_outbox(srv.database_url, code))[0][3] != 1:  # the failure recorded, the retry due later
        assert time.monotonic() < deadline
        time.sleep(0.05)
    srv.kill()
    push.status = 201
    again = own_servers(**FAST)
    got = push.wait(2)
    time.sleep(1.0)
    assert len(push.received) == 2 and got[1]["payload"]["room"] == code
    rows = asyncio.run(_outbox(again.database_url, code))
    assert [r[:4] for r in rows] == [("turn", "turn:1:0", "sent", 1)]


def test_a_graceful_stop_gives_back_the_notifications_it_claimed_and_did_not_start(own_servers, receivers):
    """A stop (SIGTERM) during a round of deliveries: the one under way is cut off after the
    grace (app/notify/service.py CLOSE_GRACE_S: it may have arrived, so its lease runs out
    first), the ones claimed and not started are given back at once, and the next process sends
    them now instead of a minute later (outbox.LEASE_S). The fault: test_across_days's
    restart held a turn's webhook back past its 20 s (stop 44's full run)."""
    hook, _ = receivers
    hook.delay = 8.0  # the first delivery is under way when the server stops, and outlasts the grace
    srv = own_servers(**FAST)
    code, tokens = _two_seats(srv.base_url)
    for seat, token in enumerate(tokens):
        _put(srv.base_url, code, token, apprise=hook.url(f"s{seat}"))
    r = httpx.put(f"{srv.base_url}/api/rooms/{code}/webhook", json={"url": hook.url("room")}, headers=auth(tokens[0]))
    assert r.status_code == 200, r.text
    start(srv.base_url, code, tokens[0])  # the first turn: its seat's and the room's, one after the other
    _wait_until(lambda: len(hook.received) == 1, "the first delivery")
    first = hook.received[0]["path"]
    srv.stop()
    rows = asyncio.run(_outbox(srv.database_url, code))
    given_back = [r for r in rows if r[2] == "pending" and r[7] is None and r[3] == 0]  # not leased, never tried
    assert len(rows) == 2 and len(given_back) == 1, rows
    hook.delay = 0.0
    own_servers(**FAST)
    # (the cut-off one may also come again sooner, when its try failed by a timeout first)
    _wait_until(lambda: any(m["path"] != first for m in hook.received[1:]), "the notification given back",
                timeout_s=20)
    paths = {m["path"] for m in hook.received}
    assert len(paths) == 2 and "/room" in paths, paths  # the turn's seat's and the room's


async def _play_when_told(clients: list[Client], actions: int, told: dict, seed: int = 7,
                          room_told=None) -> list[tuple[int, int]]:
    """Play `actions` actions, each seat acting on a new decision only once `told[seat]()`
    counts as many notifications as it had new decisions (and `room_told()`, when given, as
    many as there were new decisions in all) → the (version, seat) of those."""
    turns: list[tuple[int, int]] = []
    rng, version, previous = random.Random(seed), (await clients[0].state())["version"], None
    for _ in range(actions):
        view = (await clients[0].state(version))["view"]
        seat = view["to_act"]
        if seat is None:
            break
        if seat != previous:
            turns.append((version, seat))
            n = sum(1 for t in turns if t[1] == seat)
            end = time.monotonic() + 20
            while told[seat]() < n or (room_told is not None and room_told() < len(turns)):
                assert time.monotonic() < end, f"seat {seat} (or the room) not told of version {version}"
                await asyncio.sleep(0.05)
        previous = seat
        own = await clients[seat].state(version)
        await clients[seat].act(version, pick_action(own["view"], rng))
        version += 1
    last = (await clients[0].state(version))["view"]["to_act"]
    if last is not None and last != previous:  # the decision begun by the last action: told too
        turns.append((version, last))
    return turns


@pytest.mark.postgresql_only
def test_two_processes_send_exactly_one_notification_per_turn(own_servers, receivers):
    """Two server processes on one PostgreSQL database, each running the triggers and a
    sender: Ann's page on A, Ben's on B (both hidden); every decision told exactly once."""
    hook, make_push = receivers
    a, b = own_servers(**FAST), own_servers(**FAST)
    push = make_push(a.base_url)
    assert httpx.get(b.base_url + "/api/push/key").json()["public_key"] == push.public_key, "one key pair"
    code, tokens = _two_seats(a.base_url)
    _put(a.base_url, code, tokens[0], webpush=push.subscribe("s0"))
    _put(b.base_url, code, tokens[1], apprise=hook.url("s1"))
    start(a.base_url, code, tokens[0])
    told = {0: lambda: len(push.received), 1: lambda: len(hook.to("s1"))}

    async def go():
        clients = [await Client.open(srv.ws_url, code, t, seat=i) for i, (srv, t) in enumerate(zip((a, b), tokens))]
        for c in clients:
            await c.state()
            await c.send({"type": "visible", "visible": False})
        turns = await _play_when_told(clients, 30, told)
        for c in clients:
            await c.close()
        return turns
    turns = asyncio.run(go())
    assert sum(1 for t in turns if t[1] == 0) >= 3 and sum(1 for t in turns if t[1] == 1) >= 3
    time.sleep(2)  # several polls of both processes later
    assert len(push.received) == sum(1 for t in turns if t[1] == 0)
    assert len(hook.to("s1")) == sum(1 for t in turns if t[1] == 1)
    assert all(m["error"] is None for m in push.received)
    rows = asyncio.run(_outbox(a.database_url, code))
    sent = sorted((r[5], r[1]) for r in rows if r[2] == "sent")
    assert sent == sorted((seat, f"turn:1:{v}") for v, seat in turns) and len(set(sent)) == len(sent)


@pytest.mark.postgresql_only
def test_a_visible_page_in_another_process_holds_the_notification(own_servers, receivers):
    hook, _ = receivers
    a, b = own_servers(**FAST), own_servers(**FAST)
    code, tokens = _two_seats(a.base_url)
    for seat, token in enumerate(tokens):
        _put(a.base_url, code, token, apprise=hook.url(f"s{seat}"))
    start(a.base_url, code, tokens[0])
    first = _first_seat(b, code, tokens[0])
    hook.wait(1)  # told while nobody watched
    hook.received.clear()

    async def go():
        c = await Client.open(b.ws_url, code, tokens[first], seat=first)  # visible, on B only
        other = await Client.open(a.ws_url, code, tokens[1 - first], seat=1 - first)
        await c.state()
        await asyncio.sleep(1.0)  # B stamps the seat at once
        rng = random.Random(3)
        # the other seat plays until it is `first`'s new decision again
        version = (await c.state())["version"]
        while True:
            view = (await c.state(version))["view"]
            if view["to_act"] == first and version > 0 and (await other.state(version))["view"]["to_act"] == first:
                break
            actor = c if view["to_act"] == first else other
            await actor.act(version, pick_action((await actor.state(version))["view"], rng))
            version += 1
        await asyncio.sleep(2.0)  # A's sender has looked many times
        assert hook.to(f"s{first}") == [], "its page is visible in process B"
        await c.send({"type": "visible", "visible": False})
        end = time.monotonic() + 15
        while not hook.to(f"s{first}"):
            assert time.monotonic() < end, "not sent once hidden"
            await asyncio.sleep(0.05)
        await c.close()
        await other.close()
    asyncio.run(go())


def test_a_gone_push_subscription_is_given_up_at_once(own_servers, receivers):
    """RFC 8030 §7.3: 404/410 = the subscription is gone: no retry, the target shown failed."""
    hook, make_push = receivers
    srv = own_servers(**FAST)
    push = make_push(srv.base_url)
    push.status = 410
    code, tokens = _two_seats(srv.base_url)
    for seat, token in enumerate(tokens):
        _put(srv.base_url, code, token, webpush=push.subscribe(f"s{seat}"))
    start(srv.base_url, code, tokens[0])
    seat = int(push.wait(1)[0]["path"].rsplit("/s", 1)[-1])
    deadline, got = time.monotonic() + 10, {}
    while time.monotonic() < deadline and not got.get("failed"):
        got = httpx.get(f"{srv.base_url}/api/rooms/{code}/notify", headers=auth(tokens[seat])).json()
        time.sleep(0.1)
    assert got["failed"]["target"] == "webpush" and "410" in got["failed"]["reason"]
    time.sleep(1.0)
    assert len(push.received) == 1
    assert [r[2:4] for r in asyncio.run(_outbox(srv.database_url, code))] == [("dead", 0)]


def test_the_room_rate_defers(own_servers, receivers):
    """NOTIFY_ROOM_LIMIT=1/hour: of a decision's two notifications (the seat's, the webhook's)
    one goes, the other waits for the window to end."""
    hook, _ = receivers
    srv = own_servers(**{**FAST, "NOTIFY_ROOM_LIMIT": "1/hour"})
    code, tokens = _two_seats(srv.base_url)
    for seat, token in enumerate(tokens):
        _put(srv.base_url, code, token, apprise=hook.url(f"s{seat}"))
    assert httpx.put(f"{srv.base_url}/api/rooms/{code}/webhook", json={"url": hook.url("room")},
                     headers=auth(tokens[0])).status_code == 200
    start(srv.base_url, code, tokens[0])
    hook.wait(1)
    time.sleep(1.5)
    assert len(hook.received) == 1
    rows = asyncio.run(_outbox(srv.database_url, code))
    states = sorted(r[2] for r in rows)
    assert states == ["pending", "sent"], rows
    waiting = next(r for r in rows if r[2] == "pending")
    assert (datetime.fromisoformat(str(waiting[6])) - datetime.utcnow()).total_seconds() > 3500


def test_the_outbox_forgets_rows_done_with_but_never_what_would_be_sent_again(own_servers, receivers):
    """After some turns, pruning (as if a week had passed) deletes the rows of decisions that
    are over and keeps the current decision's and a finished game's `result`; the scan that
    follows enqueues nothing again, so nobody is told twice."""
    from sqlalchemy.ext.asyncio import async_sessionmaker

    from app.models import utcnow
    from app.notify import outbox, triggers

    hook, _ = receivers
    srv = own_servers(**FAST)
    code, tokens = _two_seats(srv.base_url)
    for seat, token in enumerate(tokens):
        _put(srv.base_url, code, token, apprise=hook.url(f"s{seat}"))
    start(srv.base_url, code, tokens[0])
    told = {s: (lambda s=s: len(hook.to(f"s{s}"))) for s in (0, 1)}

    async def go():
        clients = await _hidden_clients(srv, code, tokens)
        turns = await _play_when_told(clients, 10, told, seed=5)
        version = (await clients[0].state())["version"]
        for c in clients:
            await c.close()
        return turns, version
    turns, version = asyncio.run(go())
    time.sleep(1.0)  # the last decision's notification sent
    srv.stop()

    async def prune_and_scan() -> tuple[int, list[tuple], list[tuple]]:
        engine = create_async_engine(srv.database_url)
        sessions = async_sessionmaker(engine, expire_on_commit=False)
        try:
            async with sessions() as s:  # a told result of an earlier game of this room
                await s.execute(text(
                    "INSERT INTO notify_outbox (target_id, room_id, key, kind, seat, game_no, version, due_at, attempts, "
                    "state, created_at) SELECT t.id, t.room_id, 'result:0', 'result', NULL, 0, 0, :at, 0, 'sent', :at "
                    "FROM notify_targets t JOIN rooms r ON r.id = t.room_id WHERE r.code = :c AND t.seat = 0"),
                    {"c": code, "at": datetime(2026, 1, 1)})
                await s.commit()
            async with sessions() as s:
                gone = await outbox.prune(s, utcnow() + timedelta(days=1))
                await s.commit()
            kept = await _outbox(srv.database_url, code)
            async with sessions() as s:
                await triggers.scan(s, utcnow())
            return gone, kept, await _outbox(srv.database_url, code)
        finally:
            await engine.dispose()
    before = asyncio.run(_outbox(srv.database_url, code))
    gone, kept, rescanned = asyncio.run(prune_and_scan())
    current = f"turn:1:{version}"
    assert len(turns) >= 3 and all(r[2] == "sent" for r in before), before
    assert sorted(r[1] for r in kept) == sorted(["result:0"] + [r[1] for r in before if r[1] == current]), kept
    assert gone == len(before) - (len(kept) - 1) > 0
    assert rescanned == kept, "the scan enqueued nothing again"


def test_signing_out_other_devices_keeps_ones_own_notifications(own_servers, receivers):
    """Ben saves a target, then "Sign out other devices" (a new token for the same person): his
    turns are still told, to the target he saved."""
    hook, _ = receivers
    srv = own_servers(**FAST)
    code, tokens = _two_seats(srv.base_url)
    _put(srv.base_url, code, tokens[1], apprise=hook.url("ben"))
    r = httpx.post(f"{srv.base_url}/api/rooms/{code}/seat-token", headers=auth(tokens[1]))
    assert r.status_code == 200, r.text
    tokens[1] = r.json()["token"]
    got = httpx.get(f"{srv.base_url}/api/rooms/{code}/notify", headers=auth(tokens[1])).json()
    assert got["apprise"] and got["failed"] is None, got
    start(srv.base_url, code, tokens[0])
    told = {0: lambda: 10 ** 6, 1: lambda: len(hook.to("ben"))}
    turns = _play_hidden(srv, code, tokens, 8, told, seed=11)
    bens = [t for t in turns if t[1] == 1]
    assert bens and len(hook.wait(len(bens))) >= len(bens)
    rows = asyncio.run(_outbox(srv.database_url, code))
    assert not [r for r in rows if r[2] == "dropped"], rows
