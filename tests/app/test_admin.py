"""The host's admin API against real server processes (app/routes/admin.py; docs/protocol.md
"Admin"): off without ADMIN_TOKEN, refused with a wrong token and rate limited per address;
the room list as stored, with its players; closing a room tells its sockets and deletes it; the
maintenance notice reaches the sockets' frames, a later socket's too, the lobby, and (on
PostgreSQL) the sockets of another process and a process started later."""
from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from websockets.asyncio.client import connect

from .helpers import Client, auth, create_room, join_room, start

TOKEN = "admin-" + "y" * 24
PROPAGATION_S = 5


def admin(base: str, method: str, path: str, **kw) -> httpx.Response:
    return httpx.request(method, base + path, headers=auth(TOKEN), timeout=10, **kw)


def test_off_without_a_token_refused_with_a_wrong_one_and_limited(server_factory):
    off = server_factory()
    for method, path in (("GET", "/admin"), ("GET", "/api/admin/rooms"), ("PUT", "/api/admin/notice"),
                         ("DELETE", "/api/admin/notice"), ("POST", "/api/admin/rooms/ABCDEFGHJK/close")):
        r = httpx.request(method, off.base_url + path, headers=auth(TOKEN), json={"text": "x"})
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found", (path, r.text)
    on = server_factory(ADMIN_TOKEN=TOKEN, ADMIN_LIMIT="3/minute")
    page = httpx.get(on.base_url + "/admin")  # the page asks for the token itself
    assert page.status_code == 200 and 'data-page="admin"' in page.text
    for headers in ({}, auth("wrong"), {"Authorization": TOKEN}):
        r = httpx.get(on.base_url + "/api/admin/rooms", headers=headers)
        assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized", headers
    # Three wrong tokens: the fourth try, even with the right token, waits.
    r = admin(on.base_url, "GET", "/api/admin/rooms")
    assert r.status_code == 429, r.text
    err = r.json()["error"]
    assert err["code"] == "rate_limited" and 1 <= err["retry_after_s"] <= 60
    assert int(r.headers["retry-after"]) == err["retry_after_s"]


def test_the_list_shows_rooms_with_their_players(server_factory):
    srv = server_factory(ADMIN_TOKEN=TOKEN)
    base = srv.base_url
    host = create_room(base, "Ann", public=False)
    code = host["code"]
    join_room(base, code, "Ben")
    r = httpx.post(f"{base}/api/rooms/{code}/bots", json={"level": "easy"}, headers=auth(host["token"]))
    assert r.status_code == 200, r.text
    waiting = create_room(base, "Cleo")

    async def go():
        ann = await Client.open(srv.ws_url, code, host["token"], seat=0)
        await ann.wait(lambda m: m["type"] == "room")
        start(base, code, host["token"])
        await ann.state()
        r = admin(base, "GET", "/api/admin/rooms")
        await ann.close()
        return r

    r = asyncio.run(go())
    assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
    body = r.json()
    rooms = {x["code"]: x for x in body["rooms"]}
    assert body["notice"] is None
    room = rooms[code]
    assert (room["status"], room["paused"], room["pace"], room["game"], room["public"]) == ("playing", False, "live", 1,
                                                                                           False)
    assert [(p["seat"], p["name"], p["bot"], p["connected"]) for p in room["players"]] == [
        (0, "Ann", False, True), (1, "Ben", False, False), (2, room["players"][2]["name"], True, False)]
    assert room["players"][2]["bot_level"] == "easy"
    assert room["created_at"].endswith("Z") and room["active_at"].endswith("Z")
    assert rooms[waiting["code"]]["status"] == "waiting"
    assert [p["name"] for p in rooms[waiting["code"]]["players"]] == ["Cleo"]


def test_closing_a_room_tells_its_sockets_and_deletes_it(server_factory):
    srv = server_factory(ADMIN_TOKEN=TOKEN)
    base = srv.base_url
    host = create_room(base, "Ann", public=False)
    code = host["code"]
    guest = join_room(base, code, "Ben")
    start(base, code, host["token"])
    assert admin(base, "POST", "/api/admin/rooms/ABCDEFGHJK/close").json()["error"]["code"] == "room_not_found"

    async def go():
        ann = await Client.open(srv.ws_url, code, host["token"], seat=0)
        watcher = await Client.open(srv.ws_url, code)
        await ann.state()
        await watcher.state()
        r = await asyncio.to_thread(admin, base, "POST", f"/api/admin/rooms/{code}/close")
        assert r.status_code == 204, r.text
        for c in (ann, watcher):
            await c.wait(lambda m: m["type"] == "room_closed")
            await asyncio.wait_for(c.closed.wait(), PROPAGATION_S)
            assert c.msgs[-1] == {"type": "room_closed"}
            assert c.ws.close_code == 1000
        # The room is gone: a new socket is refused, the API says so.
        late = await Client.open(srv.ws_url, code, guest["token"], seat=1)
        refused = await late.wait(lambda m: m["type"] == "error")
        assert refused["code"] == "room_not_found"

    asyncio.run(go())
    assert httpx.get(f"{base}/api/rooms/{code}").status_code == 404
    assert code not in {x["code"] for x in admin(base, "GET", "/api/admin/rooms").json()["rooms"]}
    assert admin(base, "POST", f"/api/admin/rooms/{code}/close").status_code == 404


def test_the_notice_reaches_sockets_and_its_refusals(own_servers):
    srv = own_servers(ADMIN_TOKEN=TOKEN)
    base = srv.base_url
    host = create_room(base, "Ann", public=False)
    code = host["code"]
    for body, code_, field in (({}, "notice_empty", None), ({"text": "   "}, "notice_empty", None),
                               ({"restart_in_min": 0}, "notice_bad_minutes", ("max_minutes", 1440)),
                               ({"text": "x" * 201}, "notice_too_long", ("max_chars", 200)),
                               ({"text": "a\u202eb"}, "notice_bad_char", None)):
        r = admin(base, "PUT", "/api/admin/notice", json=body)
        assert r.status_code == 422 and r.json()["error"]["code"] == code_, (body, r.text)
        if field:
            assert r.json()["error"][field[0]] == field[1]
    for minutes in (True, "5", 5.5):  # no minutes (the break test: `true` set a restart in 1 minute)
        r = admin(base, "PUT", "/api/admin/notice", json={"restart_in_min": minutes})
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_request", (minutes, r.text)

    async def go():
        ann = await Client.open(srv.ws_url, code, host["token"], seat=0)
        await ann.wait(lambda m: m["type"] == "room")
        assert not [m for m in ann.msgs if m["type"] == "notice"]  # none while none is set
        async with connect(srv.ws_url + "/ws/lobby") as lobby:
            assert json.loads(await lobby.recv())["type"] == "rooms"
            r = await asyncio.to_thread(admin, base, "PUT", "/api/admin/notice",
                                        json={"restart_in_min": 5, "text": "  Back at 11:00 ✓ "})
            assert r.status_code == 200, r.text
            shown = r.json()["notice"]
            assert shown["text"] == "Back at 11:00 ✓" and 295 <= shown["restart_in_s"] <= 300
            frame = await ann.wait(lambda m: m["type"] == "notice")
            assert frame["notice"]["text"] == "Back at 11:00 ✓" and 290 <= frame["notice"]["restart_in_s"] <= 300
            assert frame["notice"]["restart_at"] == shown["restart_at"]
            lobby_frame = json.loads(await asyncio.wait_for(lobby.recv(), PROPAGATION_S))
            assert lobby_frame["type"] == "notice" and lobby_frame["notice"]["text"] == "Back at 11:00 ✓"
        # A socket that connects later gets it after the room (and its game, when there is one).
        later = await Client.open(srv.ws_url, code)
        frame = await later.wait(lambda m: m["type"] == "notice")
        assert later.msgs[0]["type"] == "room" and frame["notice"]["text"] == "Back at 11:00 ✓"
        n = len(ann.msgs)
        r = await asyncio.to_thread(admin, base, "DELETE", "/api/admin/notice")
        assert r.status_code == 200 and r.json() == {"notice": None}
        cleared = await ann.wait(lambda m: m["type"] == "notice", start=n)
        assert cleared == {"type": "notice", "notice": None}
        await ann.close()
        await later.close()

    asyncio.run(go())
    assert admin(base, "GET", "/api/admin/rooms").json()["notice"] is None


@pytest.mark.postgresql_only
def test_across_two_processes_and_a_later_one(private_migrated_url, own_servers):
    assert private_migrated_url.startswith("postgresql"), "several processes need PostgreSQL"
    a, b = own_servers(ADMIN_TOKEN=TOKEN), own_servers(ADMIN_TOKEN=TOKEN)
    host = create_room(a.base_url, "Ann", public=False)
    code = host["code"]
    guest = join_room(a.base_url, code, "Ben")
    start(a.base_url, code, host["token"])

    async def go():
        ben = await Client.open(b.ws_url, code, guest["token"], seat=1)  # at B
        await ben.state()
        # The list at A knows Ben is connected to B.
        for _ in range(50):
            listed = {x["code"]: x for x in admin(a.base_url, "GET", "/api/admin/rooms").json()["rooms"]}[code]
            if listed["players"][1]["connected"]:
                break
            await asyncio.sleep(0.1)
        assert [p["connected"] for p in listed["players"]] == [False, True]
        r = await asyncio.to_thread(admin, a.base_url, "PUT", "/api/admin/notice", json={"text": "Maintenance"})
        assert r.status_code == 200, r.text
        frame = await ben.wait(lambda m: m["type"] == "notice", timeout=PROPAGATION_S)
        assert frame["notice"] == {"restart_at": None, "restart_in_s": None, "text": "Maintenance"}
        # A process started now shows it too.
        c = await asyncio.to_thread(own_servers, ADMIN_TOKEN=TOKEN)
        assert admin(c.base_url, "GET", "/api/admin/rooms").json()["notice"]["text"] == "Maintenance"
        watcher = await Client.open(c.ws_url, code)
        await watcher.wait(lambda m: m["type"] == "notice" and m["notice"]["text"] == "Maintenance")
        # Closed through A: Ben at B and the watcher at C are told.
        r = await asyncio.to_thread(admin, a.base_url, "POST", f"/api/admin/rooms/{code}/close")
        assert r.status_code == 204, r.text
        for client in (ben, watcher):
            await client.wait(lambda m: m["type"] == "room_closed", timeout=PROPAGATION_S)
            await asyncio.wait_for(client.closed.wait(), PROPAGATION_S)

    asyncio.run(go())
    assert httpx.get(f"{b.base_url}/api/rooms/{code}").status_code == 404
