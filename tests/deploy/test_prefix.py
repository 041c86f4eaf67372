"""Serving under a URL path prefix (issue 16, app/prefix.py) against a real server: with
ROOT_PATH=/osaka every URL the app writes carries the prefix (page links, scripts and styles,
the `url` of API answers and WebSocket frames, redirects, the QR code, OpenAPI) and the seat
cookie is scoped to it, whether the proxy strips the prefix or passes the path on whole; a
trusted proxy's X-Forwarded-Prefix wins, an untrusted one's is ignored. Through a real Caddy
and a browser: tests/e2e/test_prefix_proxy.py."""
from __future__ import annotations

import asyncio
import io
import json
import re

import httpx
import segno
from websockets.asyncio.client import connect

from .support import proto

URL_ATTRS = re.compile(r'(?:href|src)="([^"]*)"')
IMPORT_MAP = re.compile(r'<script type="importmap">(.*?)</script>', re.S)


def _page_urls(html: str) -> list[str]:
    return [u for u in URL_ATTRS.findall(html) if not u.startswith("#")]


def _qr(url: str) -> bytes:
    """The QR code pages.room_qr makes for `url` (the same segno settings)."""
    buf = io.BytesIO()
    segno.make(url, error="m").save(buf, kind="svg", scale=4, border=4, dark="#000", light="#fff",
                                    xmldecl=False, svgns=True, title="QR code of the room link")
    return buf.getvalue()


def test_everything_the_app_writes_carries_root_path(server_factory):
    srv = server_factory(ROOT_PATH="/osaka/")  # the trailing slash is dropped
    # The proxy may strip the prefix (Caddy handle_path) or pass the path on whole (handle).
    for base in (srv.base_url, srv.base_url + "/osaka"):
        for path in ("/", "/how-to-play", "/rules", "/r/ABCDEFGHJK"):
            page = httpx.get(base + path)
            assert page.status_code in (200, 404), (base, path)
            assert 'data-root="/osaka"' in page.text
            urls = _page_urls(page.text)
            assert urls and all(u.startswith("/osaka/") or not u.startswith("/") for u in urls), urls
            assert "/osaka/static/css/app.css?v=" in page.text and "/osaka/manifest.webmanifest" in page.text
            # the import map sends the modules' imports to their versioned URLs under the prefix
            imports = json.loads(IMPORT_MAP.search(page.text).group(1))["imports"]
            assert imports["/osaka/static/js/dom.js"].startswith("/osaka/static/js/dom.js?v=")
            assert all(k.startswith("/osaka/static/") and v.startswith(k + "?v=") for k, v in imports.items())
        created = httpx.post(base + "/api/rooms", json={"name": "Ann", "public": True})
        assert created.status_code == 201
        code = created.json()["code"]
        assert created.json()["url"] == f"/osaka/r/{code}"
        cookie = created.headers["set-cookie"]
        assert "path=/osaka;" in cookie.lower(), cookie
        assert httpx.get(f"{base}/api/rooms/{code}").json()["url"] == f"/osaka/r/{code}"
        joined = httpx.post(f"{base}/api/rooms/{code}/join", json={"name": "Bo"})
        assert joined.json()["url"] == f"/osaka/r/{code}"
        assert "path=/osaka;" in joined.headers["set-cookie"].lower()
        # another spelling of the code: redirected under the prefix
        moved = httpx.get(f"{base}/r/{code.lower()[:5]}-{code.lower()[5:]}")
        assert moved.status_code == 301 and moved.headers["location"] == f"/osaka/r/{code}"
        # the QR code holds the public URL: scheme, host and port as the proxy forwarded them
        qr = httpx.get(f"{base}/r/{code}/qr.svg", headers={"Host": "games.example:8443",
                                                            "X-Forwarded-Proto": "https"})
        assert qr.status_code == 200 and qr.content == _qr(f"https://games.example:8443/osaka/r/{code}")
        # static files and the manifest are served under the prefix
        assert httpx.get(base + "/static/js/net.js").status_code == 200
        manifest = httpx.get(base + "/manifest.webmanifest").json()
        assert manifest["start_url"] == "./" and manifest["icons"][0]["src"].startswith("static/")
        api = httpx.get(base + "/openapi.json").json()
        assert api["servers"] == [{"url": "/osaka"}]
        assert "/osaka/openapi.json" in httpx.get(base + "/docs").text

        async def sockets():
            # the room's WebSocket and the lobby feed, under the prefix: `url` carries it
            ws = await connect(f"{srv.ws_url}/osaka/ws/rooms/{code}",
                               additional_headers=proto.auth(created.json()["token"]))
            room = proto.Client(ws, 0)
            first = await room.wait(lambda m: m["type"] == "room")
            lobby = proto.Client(await connect(f"{srv.ws_url}/osaka/ws/lobby"), None)
            listed = await lobby.wait(lambda m: m["type"] == "rooms" and any(r["code"] == code for r in m["rooms"]))
            await lobby.close()
            await room.close()
            return first["room"], next(r for r in listed["rooms"] if r["code"] == code)

        room, entry = asyncio.run(sockets())
        assert room["url"] == f"/osaka/r/{code}" and entry["url"] == f"/osaka/r/{code}"
    # a bare prefix leads to the home page under it
    assert httpx.get(srv.base_url + "/osaka", follow_redirects=True).url.path == "/osaka/"


def test_x_forwarded_prefix_from_a_trusted_proxy_only(server_factory):
    trusting = server_factory()  # FORWARDED_ALLOW_IPS defaults to 127.0.0.1,::1
    prefixed = {"X-Forwarded-Prefix": "/games/osaka/"}
    page = httpx.get(trusting.base_url + "/", headers=prefixed)
    assert 'data-root="/games/osaka"' in page.text and "/games/osaka/static/css/app.css" in page.text
    created = httpx.post(trusting.base_url + "/api/rooms", json={"name": "Ann"}, headers=prefixed)
    code = created.json()["code"]
    assert created.json()["url"] == f"/games/osaka/r/{code}"
    assert "path=/games/osaka;" in created.headers["set-cookie"].lower()
    # a prefix that could be one of the app's own paths, or no path at all, is not taken
    for bad in ("/api", "osaka", "/a/../b", "/%2e%2e"):
        assert 'data-root=""' in httpx.get(trusting.base_url + "/", headers={"X-Forwarded-Prefix": bad}).text
    plain = httpx.post(trusting.base_url + "/api/rooms", json={"name": "Ann"})
    assert plain.json()["url"].startswith("/r/") and "path=/;" in plain.headers["set-cookie"].lower()

    elsewhere = server_factory(FORWARDED_ALLOW_IPS="192.0.2.1")
    page = httpx.get(elsewhere.base_url + "/", headers=prefixed)
    assert 'data-root=""' in page.text and '"/static/css/app.css?v=' in page.text
    created = httpx.post(elsewhere.base_url + "/api/rooms", json={"name": "Ann"}, headers=prefixed)
    assert created.json()["url"] == "/r/" + created.json()["code"]
