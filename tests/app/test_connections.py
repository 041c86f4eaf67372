"""A stalled connection never delays the others and is cleaned up; idle waiting rooms leave
the lobby and are deleted, while started games are kept."""
from __future__ import annotations

import asyncio
import base64
import os
import random
import socket
import time

import httpx

from .helpers import Client, auth, create_room, join_room, new_game, start
from .test_games import play_to_end


def _stalled_socket(server, code: str) -> socket.socket:
    """A spectator WebSocket that completes the handshake and then never reads again."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", server.port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /ws/rooms/{code} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
               f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
               "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    assert s.recv(12) == b"HTTP/1.1 101"
    return s


def test_stalled_connection_does_not_delay_others_and_is_dropped(server_factory):
    srv = server_factory(WS_PING_INTERVAL_S="1", WS_PING_TIMEOUT_S="1")
    code, tokens = new_game(srv.base_url, 2)
    stalled = _stalled_socket(srv, code)

    async def scenario():
        clients = [await Client.open(srv.ws_url, code, t, seat=i) for i, t in enumerate(tokens)]
        for c in clients:
            await c.state(0)
        final = await play_to_end(clients, random.Random(9))
        for c in clients:
            await c.close()
        return final

    final = asyncio.run(scenario())
    assert final["view"]["phase"] == "over"
    # The server closed the stalled socket (queue overflow or missed pongs): EOF after its backlog.
    stalled.settimeout(60)
    got = 0
    while chunk := stalled.recv(65536):
        got += len(chunk)
    stalled.close()
    assert got < 200_000  # far less than a whole game's frames


def test_idle_waiting_rooms_leave_lobby_and_are_deleted(server_factory):
    srv = server_factory(ROOM_TTL_S="3", CLEANUP_INTERVAL_S="0.2")
    idle = create_room(srv.base_url, "Idle")
    kept_code, _ = new_game(srv.base_url, 2)   # a started game is kept however long
    watched = create_room(srv.base_url, "Watched")

    async def scenario():
        c = await Client.open(srv.ws_url, watched["code"], watched["token"], seat=0)
        await c.wait(lambda m: m["type"] == "room")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            codes = {r["code"] for r in (await asyncio.to_thread(httpx.get, srv.base_url + "/api/rooms")).json()}
            if idle["code"] not in codes:
                break
            await asyncio.sleep(0.2)
        assert idle["code"] not in codes and watched["code"] in codes   # connected: stays listed
        while time.monotonic() < deadline:
            r = await asyncio.to_thread(httpx.get, f"{srv.base_url}/api/rooms/{idle['code']}")
            if r.status_code == 404:
                break
            await asyncio.sleep(0.2)
        assert r.status_code == 404 and r.json()["error"]["code"] == "room_not_found"
        r = await asyncio.to_thread(httpx.get, f"{srv.base_url}/api/rooms/{watched['code']}")
        assert r.status_code == 200
        await c.close()

    asyncio.run(scenario())
    assert httpx.get(f"{srv.base_url}/api/rooms/{kept_code}").json()["status"] == "playing"
