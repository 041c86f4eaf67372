"""The HTTP API against a real server: rooms, seats, errors in one shape, cookies, health."""
from __future__ import annotations

import asyncio
import socket

import httpx
import pytest

from .helpers import Client, auth, create_room, join_room, new_game


def _err(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["error"]["code"] == code and body["error"]["message"]


def test_health_and_ready(server):
    assert httpx.get(server.base_url + "/healthz").json() == {"status": "ok", "instance": socket.gethostname()}
    r = httpx.get(server.base_url + "/readyz")
    assert r.status_code == 200 and r.json() == {"status": "ready"}
    assert "/api/rooms" in httpx.get(server.base_url + "/openapi.json").json()["paths"]


def test_create_sets_httponly_cookie_and_summary_knows_you(server):
    r = httpx.post(server.base_url + "/api/rooms", json={"name": "  Alice  ", "public": False})
    assert r.status_code == 201
    body = r.json()
    code, token = body["code"], body["token"]
    assert body["seat"] == 0 and body["url"] == f"/r/{code}" and len(code) == 10
    assert len(token) >= 22  # >= 128 bits
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"osaka_{code}={token}")
    low = cookie.lower()
    assert "httponly" in low and "samesite=lax" in low and "path=/" in low
    # The cookie (browser) and the Bearer header (other clients) both identify the seat.
    with httpx.Client(base_url=server.base_url) as browser:
        browser.cookies.set(f"osaka_{code}", token)
        room = browser.get(f"/api/rooms/{code}").json()
    assert room["you"] == 0
    assert httpx.get(f"{server.base_url}/api/rooms/{code}", headers=auth(token)).json()["you"] == 0
    room = httpx.get(f"{server.base_url}/api/rooms/{code.lower()[:5]}-{code.lower()[5:]}").json()
    assert room["you"] is None and room["code"] == code
    assert room["public"] is False and room["host_seat"] == 0 and room["max_seats"] == 4
    assert room["status"] == "waiting" and room["created_at"].endswith("Z")
    offline = room["players"][0].pop("offline_s")
    assert isinstance(offline, (int, float)) and offline >= 0  # never connected: offline
    assert room["players"][0].pop("since_start") is False  # a room newer than the server: simply away
    assert room["players"] == [{"seat": 0, "name": "Alice", "bot": False, "bot_level": None,
                                "connected": False, "connected_s": None, "ready": True,
                                "away_until": None, "away_left_s": 7 * 86400}]
    assert room["pace"] == "live" and room["paused_at"] is None
    assert token not in str(room)


def test_lobby_lists_public_waiting_rooms_only(server):
    public = create_room(server.base_url, "Pub", public=True)
    private = create_room(server.base_url, "Priv", public=False)
    alone = create_room(server.base_url, "Alone", public=True)  # its host never connects

    def lobby() -> dict:
        return {r["code"]: r for r in httpx.get(server.base_url + "/api/rooms").json()}

    async def scenario():
        hosts = [await Client.open(server.ws_url, r["code"], r["token"], seat=0) for r in (public, private)]
        for c in hosts:
            await c.wait(lambda m: m["type"] == "room")
        listed = await asyncio.to_thread(lobby)
        assert public["code"] in listed and private["code"] not in listed and alone["code"] not in listed
        entry = listed[public["code"]]
        assert entry == {"code": public["code"], "url": f"/r/{public['code']}", "players": ["Pub"],
                         "seats": [{"seat": 0, "name": "Pub", "bot": False, "bot_level": None}],
                         "present": 1, "seats_free": 3, "status": "waiting",
                         "created_at": entry["created_at"], "pace": "live", "turn_limit_s": None,
                         "hints": False}
        # A computer player is listed with its level, so a client names it as the room does.
        r = await asyncio.to_thread(httpx.post, f"{server.base_url}/api/rooms/{public['code']}/bots",
                                    json={"level": "easy"}, headers=auth(public["token"]))
        assert r.status_code == 200
        entry = (await asyncio.to_thread(lobby))[public["code"]]
        assert entry["seats"][1] == {"seat": 1, "name": "Bot (easy)", "bot": True, "bot_level": "easy"}
        await asyncio.to_thread(join_room, server.base_url, public["code"], "Bob")
        r = await asyncio.to_thread(httpx.post, f"{server.base_url}/api/rooms/{public['code']}/start",
                                    headers=auth(public["token"]))
        assert r.status_code == 200
        assert public["code"] not in await asyncio.to_thread(lobby)
        for c in hosts:
            await c.close()

    asyncio.run(scenario())


def test_lobby_feed_pushes_changes(server):
    async def scenario():
        from websockets.asyncio.client import connect
        import json
        async with connect(server.ws_url + "/ws/lobby") as ws:
            first = json.loads(await ws.recv())
            assert first["type"] == "rooms" and isinstance(first["rooms"], list)
            room = await asyncio.to_thread(create_room, server.base_url, "Feed")
            host = await Client.open(server.ws_url, room["code"], room["token"], seat=0)
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if any(r["code"] == room["code"] for r in msg["rooms"]):
                    break
            await asyncio.to_thread(join_room, server.base_url, room["code"], "Joiner")
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                entry = [r for r in msg["rooms"] if r["code"] == room["code"]]
                if entry and entry[0]["players"] == ["Feed", "Joiner"]:
                    break
            await host.close()  # nobody seated connected: the room leaves the list
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if not any(r["code"] == room["code"] for r in msg["rooms"]):
                    break
            await ws.send("junk")
            assert json.loads(await asyncio.wait_for(ws.recv(), 10))["code"] == "bad_message"

    asyncio.run(scenario())


@pytest.mark.parametrize("name", ["", "   ", "x" * 25, "a\x00b", "tab\there", "\u202eevil", 42, None])
def test_bad_names_are_refused(server, name):
    _err(httpx.post(server.base_url + "/api/rooms", json={"name": name}), 422, "bad_name")
    room = create_room(server.base_url)
    _err(httpx.post(f"{server.base_url}/api/rooms/{room['code']}/join", json={"name": name}), 422, "bad_name")
    assert len(httpx.get(f"{server.base_url}/api/rooms/{room['code']}").json()["players"]) == 1


def test_name_is_kept_as_text(server):
    room = create_room(server.base_url, "<b>Ö&Co</b>")
    assert httpx.get(f"{server.base_url}/api/rooms/{room['code']}").json()["players"][0]["name"] == "<b>Ö&Co</b>"


@pytest.mark.parametrize("body", ["{not json", "[]", '{"name": "A", "public": "yes"}'])
def test_bad_bodies_are_refused(server, body):
    r = httpx.post(server.base_url + "/api/rooms", content=body, headers={"content-type": "application/json"})
    _err(r, 422, "bad_request")


@pytest.mark.parametrize("content_type", ["text/xml", "text/plain; charset=utf-8", "application/x-www-form-urlencoded",
                                          "application/xml", None])
def test_a_body_that_is_not_sent_as_json_is_415(server, content_type):
    """docs/protocol.md "HTTP error codes": a JSON body under another Content-Type (or none) is
    refused as such, not as a body of the wrong shape."""
    room = create_room(server.base_url)
    headers = {"content-type": content_type} if content_type else {}
    for path, body in (("/api/rooms", b'{"name": "Ann"}'), (f"/api/rooms/{room['code']}/join", b'{"name": "Bob"}'),
                       (f"/api/rooms/{room['code']}/timer", b'{"turn_limit_s": 60}')):
        r = httpx.post(server.base_url + path, content=body, headers={**headers, **auth(room["token"])})
        _err(r, 415, "unsupported_media_type")
    assert len(httpx.get(f"{server.base_url}/api/rooms/{room['code']}").json()["players"]) == 1


@pytest.mark.parametrize("content_type", ["application/json; charset=utf-8", "application/merge-patch+json",
                                          "Application/JSON"])
def test_json_under_any_json_content_type_is_taken(server, content_type):
    r = httpx.post(server.base_url + "/api/rooms", content=b'{"name": "Ann", "public": false}',
                   headers={"content-type": content_type})
    assert r.status_code == 201, r.text


def test_huge_body_is_refused(server):
    r = httpx.post(server.base_url + "/api/rooms", json={"name": "A", "pad": "x" * 100_000})
    _err(r, 413, "too_large")


def test_unknown_room_and_route(server):
    for path in ("/api/rooms/ZZZZZZZZZZ", "/api/rooms/nope!"):
        _err(httpx.get(server.base_url + path), 404, "room_not_found")
    _err(httpx.post(server.base_url + "/api/rooms/ZZZZZZZZZZ/join", json={"name": "A"}), 404, "room_not_found")
    _err(httpx.get(server.base_url + "/api/nothing"), 404, "not_found")


def test_join_until_full_then_start_rules(server):
    host = create_room(server.base_url)
    code = host["code"]
    r = httpx.post(f"{server.base_url}/api/rooms/{code}/start", headers=auth(host["token"]))
    _err(r, 409, "not_enough_players")
    assert r.json()["error"]["min_players"] == 2  # a parameter is a field, never only in the text
    seats = [join_room(server.base_url, code, f"P{i}") for i in range(1, 4)]
    assert [s["seat"] for s in seats] == [1, 2, 3]
    assert len({s["token"] for s in seats} | {host["token"]}) == 4
    r = httpx.post(f"{server.base_url}/api/rooms/{code}/join", json={"name": "Late"})
    _err(r, 409, "room_full")
    assert r.json()["error"]["max_seats"] == 4
    # Joining again with one's own token gives one's seat back instead of a new one.
    again = httpx.post(f"{server.base_url}/api/rooms/{code}/join", json={"name": "P1"},
                       headers=auth(seats[0]["token"])).json()
    assert again["seat"] == 1
    # Only the host starts: no token 401, another seat's token 403, a wrong token 401.
    _err(httpx.post(f"{server.base_url}/api/rooms/{code}/start"), 401, "unauthorized")
    _err(httpx.post(f"{server.base_url}/api/rooms/{code}/start", headers=auth(seats[0]["token"])),
         403, "not_host")
    _err(httpx.post(f"{server.base_url}/api/rooms/{code}/start", headers=auth("wrong" * 9)),
         401, "unauthorized")
    assert httpx.post(f"{server.base_url}/api/rooms/{code}/start", headers=auth(host["token"])).status_code == 200
    _err(httpx.post(f"{server.base_url}/api/rooms/{code}/start", headers=auth(host["token"])), 409, "game_started")
    room = httpx.get(f"{server.base_url}/api/rooms/{code}").json()
    assert room["status"] == "playing" and len(room["players"]) == 4


def test_join_after_start_is_refused(server):
    code, _ = new_game(server.base_url, 2)
    _err(httpx.post(f"{server.base_url}/api/rooms/{code}/join", json={"name": "Late"}), 409, "game_started")


def test_bots_endpoint(server):
    host = create_room(server.base_url)
    code = host["code"]
    other = join_room(server.base_url, code, "Bob")
    _err(httpx.post(f"{server.base_url}/api/rooms/{code}/bots", json={"level": "easy"},
                    headers=auth(other["token"])), 403, "not_host")
    _err(httpx.post(f"{server.base_url}/api/rooms/{code}/bots", json={"level": "genius"},
                    headers=auth(host["token"])), 422, "bad_level")
    r = httpx.post(f"{server.base_url}/api/rooms/{code}/bots", json={"level": "hard"}, headers=auth(host["token"]))
    assert r.status_code == 200 and r.json() == {"seat": 2}
    players = httpx.get(f"{server.base_url}/api/rooms/{code}").json()["players"]
    assert players[2]["bot"] is True and players[2]["bot_level"] == "hard"
    assert players[1]["bot"] is False and players[1]["bot_level"] is None


def test_seat_to_bot_rules(server):
    code, tokens = new_game(server.base_url, 2)
    url = f"{server.base_url}/api/rooms/{code}/seats"

    async def scenario():
        c = await Client.open(server.ws_url, code, tokens[1], seat=1)
        await c.state(0)
        r = await asyncio.to_thread(httpx.post, f"{url}/1/bot", json={"level": "easy"}, headers=auth(tokens[0]))
        _err(r, 409, "seat_connected")
        await c.close()

    asyncio.run(scenario())
    # A player who is not connected may not hand seats over (only the host may at once).
    _err(httpx.post(f"{url}/1/bot", json={"level": "easy"}, headers=auth(tokens[1])), 403, "not_connected")
    _err(httpx.post(f"{url}/3/bot", json={"level": "easy"}, headers=auth(tokens[0])), 404, "seat_not_found")
    _err(httpx.post(f"{url}/9/bot", json={"level": "easy"}, headers=auth(tokens[0])), 404, "seat_not_found")
    waiting = create_room(server.base_url)
    join_room(server.base_url, waiting["code"], "B")
    _err(httpx.post(f"{server.base_url}/api/rooms/{waiting['code']}/seats/1/bot", json={"level": "easy"},
                    headers=auth(waiting["token"])), 409, "game_not_started")


def test_readyz_is_503_when_migrations_are_missing(tmp_path):
    """A server on a database without the schema is alive but not ready."""
    import sys

    from app.testing.launcher import QUIET, ServerProcess, free_port
    port = free_port()
    srv = ServerProcess(f"sqlite+aiosqlite:///{tmp_path / 'empty.db'}", tmp_path / "server.log", env=QUIET,
                        port=port, command=[sys.executable, "-m", "uvicorn", "--factory", "app.main:create_app",
                                            "--host", "127.0.0.1", "--port", str(port)])
    try:
        srv.start()
        r = httpx.get(f"{srv.base_url}/readyz")
        assert r.status_code == 503 and r.json()["status"] == "not_ready"
    finally:
        srv.kill()
