"""A seat's rights end when the seat changes hands (issue 28), through the real server on SQLite
and PostgreSQL, with the old holder's socket on the same process and (PostgreSQL) on another.

The old holder's socket must, from the change on: be told `seat_lost`, get the room with
`you: null`, never again a frame with the seat's hand, VPs or private events (every frame is
checked), and have its `act` and `chat` refused with a code. A token of a seat that changed
hands is refused at the handshake (`bad_token`) and over HTTP (`unauthorized`), and the page's
stale seat cookie is deleted when it reads the room (docs/protocol.md "Who holds a seat").
"""
from __future__ import annotations

import asyncio
import random

import httpx
import pytest
from websockets.exceptions import InvalidStatus

from .helpers import Client, auth, check_no_secrets, create_room, join_room, pick_action, start
from .rematch_helpers import finished_room


def _leave(base: str, code: str, token: str) -> None:
    r = httpx.post(f"{base}/api/rooms/{code}/leave", headers=auth(token))
    assert r.status_code == 200, r.text


async def _lost_at(old: Client, seat: int) -> int:
    """Wait for the `seat_lost` frame of `seat` → its index in the socket's frames."""
    await old.wait(lambda m: m["type"] == "seat_lost" and m["seat"] == seat)
    return next(i for i, m in enumerate(old.msgs) if m["type"] == "seat_lost")


def _check_spectator_from(old: Client, start_at: int, tokens: list[str]) -> None:
    """Every frame from `start_at` on is a spectator's: no hand, no VPs, no private event, and
    every room summary says `you: null`."""
    for msg, raw in zip(old.msgs[start_at:], old.raw[start_at:]):
        check_no_secrets(msg, raw, None, tokens)
        if msg["type"] == "room":
            assert msg["room"]["you"] is None, msg
        if msg["type"] == "state":
            assert msg["view"]["seat"] is None and all("hand" not in p for p in msg["view"]["players"]), msg


async def _refused(old: Client, frame: dict, codes: set[str]) -> str:
    mark = len(old.msgs)
    await old.send(frame)
    err = await old.wait(lambda m: m["type"] == "error" and m.get("id") == frame["id"], start=mark)
    assert err["code"] in codes, err
    return err["code"]


def _removed(base: str, code: str, host_token: str) -> None:
    r = httpx.delete(f"{base}/api/rooms/{code}/seats/1", headers=auth(host_token))
    assert r.status_code == 200 and r.json() == {"seat": 1}, r.text


async def _leave_then_taken(leave_base: str, ws_base: str, code: str, tokens: list[str],
                            by_host: bool = False) -> None:
    """Seat 1's person (socket on `ws_base`, two tabs) leaves in the waiting room through
    `leave_base` (or, `by_host`, the host frees the seat: someone filling a listed room's
    seats); Carol joins into seat 1; the host starts; the game is played a little."""
    old_tabs = [await Client.open(ws_base, code, tokens[1], seat=1) for _ in range(2)]
    for tab in old_tabs:
        assert (await tab.wait(lambda m: m["type"] == "room"))["room"]["you"] == 1
    if by_host:
        _removed(leave_base, code, tokens[0])
    else:
        _leave(leave_base, code, tokens[1])
    marks = [await _lost_at(tab, 1) for tab in old_tabs]
    for tab, mark in zip(old_tabs, marks):
        room = await tab.wait(lambda m: m["type"] == "room", start=mark)
        assert room["room"]["you"] is None and all(p["seat"] != 1 for p in room["room"]["players"])
    carol = join_room(leave_base, code, "Carol")
    assert carol["seat"] == 1
    all_tokens = [*tokens, carol["token"]]
    start(leave_base, code, tokens[0])
    host = await Client.open(ws_base, code, tokens[0], seat=0)
    new = await Client.open(ws_base, code, carol["token"], seat=1)
    rng = random.Random(28)
    version = 0
    for _ in range(6):  # the token draft and a few turns: seat 1's private view changes
        view = (await host.state(version))["view"]
        actor = host if view["to_act"] == 0 else new
        own = (await actor.state(version))["view"]
        await actor.act(version, pick_action(own, rng))
        version += 1
        await host.state(version)
    for tab in old_tabs:
        await tab.state(version)  # it still watches, as a spectator
        # Its own act for seat 1 and its chat as seat 1 are refused.
        view = (await new.state(version))["view"]
        await _refused(tab, {"type": "act", "id": f"old-{id(tab)}", "version": version,
                             "action": pick_action(view, rng)}, {"not_seated"})
        await _refused(tab, {"type": "chat", "id": f"chat-{id(tab)}", "text": "still me?"},
                       {"not_seated", "chat_name"})
    for tab, mark in zip(old_tabs, marks):
        _check_spectator_from(tab, mark, all_tokens)
    # Nothing of the refused frames reached the game: it is still at `version`.
    assert (await host.state(version))["version"] == version
    assert httpx.get(f"{leave_base}/api/rooms/{code}").json()["version"] == version
    for c in (*old_tabs, host, new):
        await c.close()
    # The old token is refused everywhere now.
    assert httpx.post(f"{leave_base}/api/rooms/{code}/again", json={}, headers=auth(tokens[1])).status_code == 401
    with pytest.raises(Exception) as refused:
        c = await Client.open(ws_base, code, tokens[1], seat=1)
        await c.wait(lambda m: m["type"] == "room")
    assert "bad_token" in str(refused.value) or isinstance(refused.value, InvalidStatus)


def test_leave_in_the_first_waiting_room_then_taken(server):
    base = server.base_url
    host = create_room(base, "Host", public=False)
    bob = join_room(base, host["code"], "Bob")
    asyncio.run(_leave_then_taken(base, server.ws_url, host["code"], [host["token"], bob["token"]]))


def test_removed_by_the_host_in_the_waiting_room_then_taken(server):
    """A person the host frees the seat of (DELETE /api/rooms/{code}/seats/1, found by a break
    test: a script filled a listed room's seats and the host could not free them) loses the seat
    as one who leaves: `seat_lost`, a spectator's frames, acts refused; the seat is free."""
    base = server.base_url
    host = create_room(base, "Host", public=True)
    bob = join_room(base, host["code"], "Bob")
    asyncio.run(_leave_then_taken(base, server.ws_url, host["code"], [host["token"], bob["token"]], by_host=True))
    r = httpx.delete(f"{base}/api/rooms/{host['code']}/seats/0", headers=auth(host["token"]))
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_started", r.text


def test_leave_after_play_again_then_taken(server):
    """The issue's case: the waiting room after "Play again"."""
    base = server.base_url
    code, tokens = finished_room(base, people=2, bots=0)  # no computer player: the game waits for people
    r = httpx.post(f"{base}/api/rooms/{code}/again", json={"game": 1}, headers=auth(tokens[0]))
    assert r.status_code == 200, r.text
    asyncio.run(_leave_then_taken(base, server.ws_url, code, tokens))


@pytest.mark.postgresql_only
def test_removed_by_the_host_heard_by_another_process(server_factory):
    a, b = server_factory(), server_factory()
    host = create_room(a.base_url, "Host", public=False)
    bob = join_room(a.base_url, host["code"], "Bob")
    asyncio.run(_leave_then_taken(a.base_url, b.ws_url, host["code"], [host["token"], bob["token"]], by_host=True))


@pytest.mark.postgresql_only
def test_leave_heard_by_another_process(server_factory):
    """The old holder's sockets are on process B; the leave, the join and the start go through A."""
    a, b = server_factory(), server_factory()
    host = create_room(a.base_url, "Host", public=False)
    bob = join_room(a.base_url, host["code"], "Bob")
    asyncio.run(_leave_then_taken(a.base_url, b.ws_url, host["code"], [host["token"], bob["token"]]))


def test_a_stale_token_is_refused_at_the_handshake_and_its_cookie_dropped(server):
    base = server.base_url
    host = create_room(base, "Host", public=False)
    code = host["code"]
    bob = join_room(base, code, "Bob")
    _leave(base, code, bob["token"])

    async def handshake() -> dict:
        c = await Client.open(server.ws_url, code, bob["token"])
        err = await c.wait(lambda m: m["type"] == "error")
        await c.closed.wait()
        return err
    assert asyncio.run(handshake())["code"] == "bad_token"
    # The page's cookie: reading the room with it deletes it; a valid one is kept.
    name = f"osaka_{code}"
    stale = httpx.get(f"{base}/api/rooms/{code}", cookies={name: bob["token"]})
    assert stale.status_code == 200 and stale.json()["you"] is None
    assert f"{name}=" in stale.headers.get("set-cookie", "") and "Max-Age=0" in stale.headers["set-cookie"]
    good = httpx.get(f"{base}/api/rooms/{code}", cookies={name: host["token"]})
    assert good.json()["you"] == 0 and "set-cookie" not in good.headers
    # Leaving deletes the leaver's cookie in the same answer.
    carol = join_room(base, code, "Carol")
    left = httpx.post(f"{base}/api/rooms/{code}/leave", cookies={name: carol["token"]})
    assert left.status_code == 200 and "Max-Age=0" in left.headers.get("set-cookie", "")


def test_handover_and_take_back_keep_the_person_the_holder(server):
    """A computer player standing in does not change who holds the seat: the person's socket
    keeps its own view (and only its own), and its next act takes part as before."""
    base = server.base_url
    host = create_room(base, "Host", public=False)
    code = host["code"]
    bob = join_room(base, code, "Bob")
    tokens = [host["token"], bob["token"]]
    start(base, code, host["token"])

    async def run() -> None:
        mine = await Client.open(server.ws_url, code, tokens[0], seat=0)
        await mine.state(0)
        # The host hands Bob's (offline) seat to a computer player and Bob comes back.
        r = httpx.post(f"{base}/api/rooms/{code}/seats/1/bot", json={"level": "easy"}, headers=auth(tokens[0]))
        assert r.status_code == 200, r.text
        bob_ws = await Client.open(server.ws_url, code, tokens[1], seat=1)  # takes it back
        room = await bob_ws.wait(lambda m: m["type"] == "room" and m["room"]["you"] == 1)
        assert room["room"]["players"][1]["bot"] is False
        state = await bob_ws.state(0)
        assert state["view"]["seat"] == 1
        for c in (mine, bob_ws):
            assert not any(m["type"] == "seat_lost" for m in c.msgs)
            for msg, raw in zip(c.msgs, c.raw):
                check_no_secrets(msg, raw, c.seat, tokens)
        await mine.close()
        await bob_ws.close()
    asyncio.run(run())


def test_a_freed_computer_seat_taken_by_a_person(server):
    """The host removes a computer player; a person joins into that seat and the game starts:
    the spectators' and the others' sockets never get that seat's hand."""
    base = server.base_url
    host = create_room(base, "Host", public=False)
    code = host["code"]
    r = httpx.post(f"{base}/api/rooms/{code}/bots", json={"level": "easy"}, headers=auth(host["token"]))
    assert r.status_code == 200 and r.json()["seat"] == 1
    removed = httpx.delete(f"{base}/api/rooms/{code}/seats/1", headers=auth(host["token"]))
    assert removed.status_code == 200, removed.text

    async def run() -> None:
        watcher = await Client.open(server.ws_url, code)
        seat0 = await Client.open(server.ws_url, code, host["token"], seat=0)
        dana = join_room(base, code, "Dana")
        assert dana["seat"] == 1
        start(base, code, host["token"])
        await watcher.state(0)
        await seat0.state(0)
        for c, seat in ((watcher, None), (seat0, 0)):
            for msg, raw in zip(c.msgs, c.raw):
                check_no_secrets(msg, raw, seat, [host["token"], dana["token"]])
        await watcher.close()
        await seat0.close()
    asyncio.run(run())
