"""Health endpoints and the container's health check against a real server; behaviour behind a
reverse proxy: X-Forwarded-Proto/-For honoured from FORWARDED_ALLOW_IPS only, Secure cookies on
https or with COOKIE_SECURE, the same-origin WebSocket check through the proxy's Host."""
from __future__ import annotations

import asyncio
import json
import os
import secrets
import socket
import subprocess
import sys

import httpx
from websockets.asyncio.client import connect

from .support import ROOT, proto


def _healthcheck(port: int, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "app.healthcheck", *args], cwd=ROOT, timeout=15,
                          env={**os.environ, "PORT": str(port)}, capture_output=True, text=True)


def test_health_endpoints_and_the_healthcheck_command(server):
    live = httpx.get(server.base_url + "/healthz")
    assert live.status_code == 200 and live.json() == {"status": "ok", "instance": socket.gethostname()}
    assert live.headers["content-type"] == "application/json"
    ready = httpx.get(server.base_url + "/readyz")
    assert ready.status_code == 200 and ready.json() == {"status": "ready"}
    ok = _healthcheck(server.port)
    assert ok.returncode == 0 and json.loads(ok.stdout.split(" ", 1)[1]) == {"status": "ready"}
    assert _healthcheck(server.port, "/healthz").returncode == 0
    assert _healthcheck(server.port, "/no-such-page").returncode == 1
    from tests.conftest import free_port  # noqa: PLC0415
    down = _healthcheck(free_port())
    assert down.returncode == 1 and "refused" in down.stdout.lower()


if os.environ.get("TEST_DATABASE_URL"):  # a database that can be taken away under the server
    def test_readyz_reports_an_unreachable_database(tmp_path):
        from tests.conftest import Server, _pg_admin, migrate  # noqa: PLC0415
        base = os.environ["TEST_DATABASE_URL"]
        name = f"osaka_gone_{secrets.token_hex(4)}"
        asyncio.run(_pg_admin(base, f'CREATE DATABASE "{name}"'))
        srv = None
        try:
            url = base.rsplit("/", 1)[0] + "/" + name
            migrate(url)
            srv = Server(url, tmp_path / "server.log").start()
            assert httpx.get(srv.base_url + "/readyz").status_code == 200
            asyncio.run(_pg_admin(base, f'DROP DATABASE "{name}" WITH (FORCE)'))
            gone = httpx.get(srv.base_url + "/readyz")
            assert gone.status_code == 503
            assert gone.json() == {"status": "not_ready", "reason": "database unreachable"}
            assert _healthcheck(srv.port).returncode == 1
            assert httpx.get(srv.base_url + "/healthz").status_code == 200  # the process is up
        finally:
            if srv is not None:
                srv.stop()
            asyncio.run(_pg_admin(base, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def _create(base: str, headers: dict | None = None) -> tuple[httpx.Response, str]:
    r = httpx.post(base + "/api/rooms", json={"name": "Alice", "public": False}, headers=headers)
    assert r.status_code == 201
    return r, r.headers["set-cookie"]


def _clients(server) -> list[str]:
    lines = [json.loads(x) for x in server.log_path.read_text().splitlines() if x.strip()]
    return [ln["client"] for ln in lines if ln.get("msg") == "http" and ln["path"] == "/api/rooms"]


FORWARDED = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7"}


def test_forwarded_headers_from_a_trusted_proxy(server_factory):
    srv = server_factory(LOG_LEVEL="info")  # FORWARDED_ALLOW_IPS defaults to 127.0.0.1,::1
    _, plain = _create(srv.base_url)
    assert "secure" not in plain.lower()
    room, proxied = _create(srv.base_url, FORWARDED)
    assert "; secure" in proxied.lower() and "httponly" in proxied.lower()

    async def through_the_proxy():
        # the browser's handshake as nginx/Caddy pass it on: public Host, https Origin, the cookie
        code, token = room.json()["code"], room.json()["token"]
        # (the URI gives the Host header; host/port only say where the TCP connection goes)
        ws = await connect(f"ws://games.example.org/ws/rooms/{code}", host="127.0.0.1", port=srv.port,
                           additional_headers={"Origin": "https://games.example.org",
                                               "Cookie": f"osaka_{code}={token}", **FORWARDED})
        client = proto.Client(ws, 0)
        first = await client.wait(lambda m: m["type"] in ("room", "error"))
        await client.close()
        return first

    first = asyncio.run(through_the_proxy())
    assert first["type"] == "room" and first["room"]["you"] == 0
    srv.stop()
    assert _clients(srv) == ["127.0.0.1", "203.0.113.7"]


def test_forwarded_headers_from_anyone_else_are_ignored(server_factory):
    srv = server_factory(LOG_LEVEL="info", FORWARDED_ALLOW_IPS="192.0.2.1")
    _, cookie = _create(srv.base_url, FORWARDED)
    assert "secure" not in cookie.lower()
    srv.stop()
    assert _clients(srv) == ["127.0.0.1"]


def test_cookie_secure_setting(server_factory):
    srv = server_factory(COOKIE_SECURE="true")
    _, cookie = _create(srv.base_url)
    assert "; secure" in cookie.lower()
