""""My games" and the seat link (issue 31) through the real server, on SQLite and PostgreSQL:
`GET /api/mine` lists only the rooms whose seat cookie holds a seat, in its order, with the last
move as a spectator saw it; `/ws/mine` sends the list again when a room changes (here and in
another process); a seat link signs another device in (`claim`); a new token (`seat-token`)
takes the seat from every other device's socket at once and stops every earlier link."""
from __future__ import annotations

import asyncio
import json
import random
import time
from datetime import datetime, timedelta, timezone

import httpx
import pytest
from websockets.asyncio.client import connect

from .helpers import Client, auth, check_no_secrets, create_room, join_room, pick_action, start
from .rematch_helpers import finished_room


def _cookies(pairs: list[tuple[str, str]]) -> dict:
    return {f"osaka_{code}": token for code, token in pairs}


def _timer(base: str, code: str, token: str, seconds: int) -> None:
    r = httpx.post(f"{base}/api/rooms/{code}/timer", json={"turn_limit_s": seconds}, headers=auth(token))
    assert r.status_code == 200, r.text


def _started(base: str, limit: int | None = None) -> tuple[str, list[str]]:
    """A started two-person room → (code, tokens by seat)."""
    host = create_room(base, "Host", public=False)
    code = host["code"]
    bob = join_room(base, code, "Bob")
    if limit:
        _timer(base, code, host["token"], limit)
    start(base, code, host["token"])
    return code, [host["token"], bob["token"]]


async def _to_act(ws_base: str, code: str) -> int:
    c = await Client.open(ws_base, code)
    state = await c.state(0)
    await c.close()
    return state["view"]["to_act"]


def _mine(base: str, pairs: list[tuple[str, str]]) -> list[dict]:
    r = httpx.get(f"{base}/api/mine", cookies=_cookies(pairs))
    assert r.status_code == 200, r.text
    return r.json()


def test_mine_lists_the_rooms_whose_cookie_holds_a_seat_your_turn_first(server):
    base, ws = server.base_url, server.ws_url
    assert _mine(base, []) == []
    slow, slow_tokens = _started(base, 300)
    soon, soon_tokens = _started(base, 30)
    mid, mid_tokens = _started(base)   # no timer
    waiting = create_room(base, "Wanda", public=False)
    over, over_tokens = finished_room(base, people=2, bots=0)
    left = create_room(base, "Lea", public=False)
    gone = join_room(base, left["code"], "Gone")
    r = httpx.post(f"{base}/api/rooms/{left['code']}/leave", headers=auth(gone["token"]))
    assert r.status_code == 200
    turn = {code: asyncio.run(_to_act(ws, code)) for code in (slow, soon, mid)}
    pairs = [
        (over, over_tokens[1]),
        (waiting["code"], waiting["token"]),
        (mid, mid_tokens[1 - turn[mid]]),          # not this seat's decision
        (slow, slow_tokens[turn[slow]]),           # its decision, deadline in 5 min
        (soon, soon_tokens[turn[soon]]),           # its decision, deadline in 30 s
        (left["code"], gone["token"]),             # the seat was given up: left out
        ("0000000000", "x" * 43),                  # no such room: left out
    ]
    rooms = _mine(base, pairs)
    assert [r["code"] for r in rooms] == [soon, slow, mid, waiting["code"], over]
    assert [r["your_turn"] for r in rooms] == [True, True, False, False, False]
    assert [r["status"] for r in rooms] == ["playing", "playing", "playing", "waiting", "over"]
    assert rooms[0]["deadline"] < rooms[1]["deadline"] and rooms[2]["deadline"] is None
    assert rooms[0]["turn_limit_s"] == 30 and rooms[1]["turn_limit_s"] == 300
    assert rooms[3]["you"] == 0 and rooms[3]["name"] == "Wanda" and rooms[3]["last"] is None
    assert rooms[4]["you"] == 1 and rooms[4]["to_act"] is None and rooms[4]["deadline"] is None
    assert rooms[2]["you"] == 1 - turn[mid] and rooms[2]["to_act"] == turn[mid]
    assert [p["name"] for p in rooms[2]["players"]] == ["Host", "Bob"] and rooms[2]["host"] == "Host"
    tokens = [t for _, t in pairs]
    raw = json.dumps(rooms)
    assert not any(t in raw for t in tokens), "a seat token in the list"
    # A cookie alone is not a seat: another room's token under this room's name lists nothing.
    assert _mine(base, [(soon, mid_tokens[0])]) == []


def test_the_last_move_is_what_a_spectator_saw(server):
    """The last move's events are exactly the spectator's `event` frame of that version: no
    card drawn into a hand, no VP card, nothing `visible_to` a seat (R-info)."""
    base, ws = server.base_url, server.ws_url
    code, tokens = _started(base)
    rng = random.Random(31)

    async def run() -> None:
        seats = [await Client.open(ws, code, t, seat=i) for i, t in enumerate(tokens)]
        watcher = await Client.open(ws, code)
        version, private = 0, 0
        while private < 2 and version < 400:  # until a payment's private `vp_total` came twice
            view = (await seats[0].state(version))["view"]
            actor = seats[view["to_act"]]
            own = (await actor.state(version))["view"]
            await actor.act(version, pick_action(own, rng))
            version += 1
            await watcher.state(version)
            frame = await watcher.wait(lambda m: m["type"] == "event" and m["version"] == version)
            for seat, token in enumerate(tokens):
                entry = _mine(base, [(code, token)])[0]
                assert entry["version"] == version and entry["last"]["version"] == version
                assert entry["last"]["events"] == frame["events"], (entry["last"], frame)
                check_no_secrets({"type": "event", "events": entry["last"]["events"]}, json.dumps(entry), None, tokens)
            own_frame = await actor.wait(lambda m: m["type"] == "event" and m["version"] == version)
            private += any(e["visible_to"] is not None for e in own_frame["events"])
        assert private, "the game had no private event: the check saw nothing hidden"
        for c in (*seats, watcher):
            await c.close()
    asyncio.run(run())


async def _mine_socket(ws_base: str, pairs: list[tuple[str, str]], **headers: str):
    cookie = "; ".join(f"{k}={v}" for k, v in _cookies(pairs).items())
    return await connect(f"{ws_base}/ws/mine", additional_headers={"Cookie": cookie, **headers})


async def _next_mine(sock, pred, timeout: float = 20) -> list[dict]:
    async def find():
        while True:
            msg = json.loads(await sock.recv())
            if msg["type"] == "mine" and pred(msg["rooms"]):
                return msg["rooms"]
    return await asyncio.wait_for(find(), timeout)


def _ws_mine_follows(action_base: str, ws_base: str, mine_ws: str) -> None:
    code, tokens = _started(action_base)
    waiting = create_room(action_base, "Wendy", public=False)
    rng = random.Random(7)

    async def run() -> None:
        sock = await _mine_socket(mine_ws, [(code, tokens[0]), (waiting["code"], waiting["token"])])
        rooms = await _next_mine(sock, lambda rooms: True)
        assert {r["code"] for r in rooms} == {code, waiting["code"]}
        seats = [await Client.open(ws_base, code, t, seat=i) for i, t in enumerate(tokens)]
        view = (await seats[0].state(0))["view"]
        actor = seats[view["to_act"]]
        await actor.act(0, pick_action((await actor.state(0))["view"], rng))
        rooms = await _next_mine(sock, lambda rooms: any(r["code"] == code and r["version"] == 1 for r in rooms))
        assert next(r for r in rooms if r["code"] == code)["last"]["version"] == 1
        await seats[1].send({"type": "chat", "id": "c1", "text": "your move"})
        rooms = await _next_mine(sock, lambda rooms: any(r["code"] == code and r["chat_id"] for r in rooms))
        # A room change: someone joins the waiting room.
        join_room(action_base, waiting["code"], "Joiner")
        rooms = await _next_mine(sock, lambda rooms: any(
            r["code"] == waiting["code"] and len(r["players"]) == 2 for r in rooms))
        await sock.send(json.dumps({"type": "ping"}))
        assert json.loads(await sock.recv()) == {"type": "pong"}
        await sock.close()
        for c in seats:
            await c.close()
    asyncio.run(run())


def test_ws_mine_sends_the_list_again_when_a_room_changes(server):
    _ws_mine_follows(server.base_url, server.ws_url, server.ws_url)


@pytest.mark.postgresql_only
def test_ws_mine_hears_changes_made_by_another_process(server_factory):
    a, b = server_factory(), server_factory()
    _ws_mine_follows(a.base_url, a.ws_url, b.ws_url)


def test_ws_mine_refuses_another_sites_handshake_with_cookies(server):
    host = create_room(server.base_url, "Host", public=False)

    async def run() -> dict:
        sock = await _mine_socket(server.ws_url, [(host["code"], host["token"])], Origin="https://evil.example")
        msg = json.loads(await sock.recv())
        with pytest.raises(Exception):
            await sock.recv()
        return msg
    assert asyncio.run(run())["code"] == "bad_origin"


def test_seat_link_and_claim(server):
    base = server.base_url
    host = create_room(base, "Host", public=False)
    code = host["code"]
    assert httpx.post(f"{base}/api/rooms/{code}/seat-link").json()["error"]["code"] == "unauthorized"
    r = httpx.post(f"{base}/api/rooms/{code}/seat-link", cookies=_cookies([(code, host["token"])]))
    assert r.status_code == 200, r.text
    link = r.json()
    assert link["url"] == f"{base}/r/{code}#seat={host['token']}"
    assert link["qr_svg"].startswith("<svg") and "</svg>" in link["qr_svg"]
    # The other device: no cookie yet; the claim sets the join's cookie.
    claimed = httpx.post(f"{base}/api/rooms/{code}/claim", json={"token": host["token"]})
    assert claimed.status_code == 200, claimed.text
    assert claimed.json()["seat"] == 0 and claimed.json()["token"] is None
    cookie = claimed.headers["set-cookie"]
    assert cookie.startswith(f"osaka_{code}={host['token']};") and "HttpOnly" in cookie
    assert "Path=/" in cookie and "SameSite=lax" in cookie and "Max-Age=2592000" in cookie
    bad = httpx.post(f"{base}/api/rooms/{code}/claim", json={"token": "nope" * 10})
    assert bad.status_code == 403 and bad.json()["error"]["code"] == "seat_link_invalid" and "set-cookie" not in bad.headers
    assert httpx.post(f"{base}/api/rooms/{code}/claim", json={}).status_code == 422
    # A browser that holds another seat of the room keeps it unless it says to replace it.
    guest = join_room(base, code, "Guest")
    mine = _cookies([(code, guest["token"])])
    other = httpx.post(f"{base}/api/rooms/{code}/claim", json={"token": host["token"]}, cookies=mine)
    assert other.status_code == 409 and other.json()["error"]["code"] == "seat_link_other_seat", other.text
    assert other.json()["error"]["name"] == "Guest" and "set-cookie" not in other.headers
    same = httpx.post(f"{base}/api/rooms/{code}/claim", json={"token": guest["token"]}, cookies=mine)
    assert same.status_code == 200 and same.json()["seat"] == 1, "its own seat's link: nothing to ask"
    taken = httpx.post(f"{base}/api/rooms/{code}/claim", json={"token": host["token"], "replace": True}, cookies=mine)
    assert taken.status_code == 200 and taken.json()["seat"] == 0
    assert taken.headers["set-cookie"].startswith(f"osaka_{code}={host['token']};")
    assert httpx.post(f"{base}/api/rooms/0000000000/claim", json={"token": host["token"]}).status_code == 404


async def _rotation(base: str, old_ws: str, code: str, tokens: list[str]) -> None:
    """Seat 0 is open on an old device (socket on `old_ws`); this device signs out the others
    through `base`: the old socket loses the seat at once and watches; the new token plays."""
    old = await Client.open(old_ws, code, tokens[0], seat=0)
    await old.state(0)
    r = httpx.post(f"{base}/api/rooms/{code}/seat-token", cookies=_cookies([(code, tokens[0])]))
    assert r.status_code == 200, r.text
    new = r.json()["token"]
    assert new != tokens[0] and r.json()["seat"] == 0
    assert r.headers["set-cookie"].startswith(f"osaka_{code}={new};") and "HttpOnly" in r.headers["set-cookie"]
    await old.wait(lambda m: m["type"] == "seat_lost" and m["seat"] == 0)
    mark = next(i for i, m in enumerate(old.msgs) if m["type"] == "seat_lost")
    await old.wait(lambda m: m["type"] == "state", start=mark)
    for msg, raw in zip(old.msgs[mark:], old.raw[mark:]):
        check_no_secrets(msg, raw, None, [*tokens, new])
    # The old token and every earlier link stop; the new one holds the seat.
    assert httpx.post(f"{base}/api/rooms/{code}/seat-link", headers=auth(tokens[0])).status_code == 401
    assert httpx.post(f"{base}/api/rooms/{code}/claim", json={"token": tokens[0]}).json()["error"]["code"] == "seat_link_invalid"
    assert _mine(base, [(code, tokens[0])]) == []
    assert _mine(base, [(code, new)])[0]["you"] == 0
    fresh = await Client.open(old_ws, code, new, seat=0)
    assert (await fresh.state(0))["view"]["seat"] == 0
    for c in (old, fresh):
        await c.close()


def test_a_new_token_signs_out_the_other_devices(server):
    code, tokens = _started(server.base_url)
    asyncio.run(_rotation(server.base_url, server.ws_url, code, tokens))
    assert httpx.post(f"{server.base_url}/api/rooms/{code}/seat-token").json()["error"]["code"] == "unauthorized"


@pytest.mark.postgresql_only
def test_a_new_token_signs_out_a_device_on_another_process(server_factory):
    a, b = server_factory(), server_factory()
    code, tokens = _started(a.base_url)
    asyncio.run(_rotation(a.base_url, b.ws_url, code, tokens))


def test_a_paused_game_stands_still_in_my_games_and_the_away_is_shown(server_factory):
    """Turn-based: the host pauses; "My games" says so, with the time left as it stood at the
    pause (not running down past the deadline) and last in "your turn"; an away seat shows
    until when. Resumed, the time runs again."""
    srv = server_factory(TURN_BASED_TEST_S="600")
    base = srv.base_url
    host = create_room(base, "Ann", public=False)
    code = host["code"]
    ben = join_room(base, code, "Ben")
    r = httpx.post(f"{base}/api/rooms/{code}/timer", json={"pace": "turn", "turn_limit_s": 600}, headers=auth(host["token"]))
    assert r.status_code == 200, r.text
    start(base, code, host["token"])
    until = (datetime.now(timezone.utc) + timedelta(days=1)).replace(microsecond=0)
    r = httpx.put(f"{base}/api/rooms/{code}/away", json={"until": until.isoformat()}, headers=auth(ben["token"]))
    assert r.status_code == 200, r.text
    r = httpx.post(f"{base}/api/rooms/{code}/pause", headers=auth(host["token"]))
    assert r.status_code == 200, r.text
    pairs = [(code, host["token"])]
    first = _mine(base, pairs)[0]
    assert first["paused"] is True and 0 < first["left_s"] <= 600 * 2 + 86400
    time.sleep(1.5)
    assert _mine(base, pairs)[0]["left_s"] == first["left_s"], "the time stands still while paused"
    away = {p["name"]: p["away_until"] for p in first["players"]}
    assert away["Ann"] is None and away["Ben"] == until.isoformat().replace("+00:00", "Z")
    r = httpx.post(f"{base}/api/rooms/{code}/resume", headers=auth(host["token"]))
    assert r.status_code == 200, r.text
    after = _mine(base, pairs)[0]
    assert after["paused"] is False and after["left_s"] is None and after["deadline"]
