"""A real browser through a graceful restart: the room page (static/js/net.js) receives
`server_restarting` and the 1012 close, says the server is restarting, reconnects by itself with backoff to the server
restarted on the same address, and is present there again (Debian's Chromium via Playwright)."""
from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import httpx
import pytest

from tests.conftest import Server

from .support import proto

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
NOTICE = '{"type":"server_restarting"}'
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-gpu",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def _host_connected(base_url: str, code: str) -> bool:
    return httpx.get(f"{base_url}/api/rooms/{code}").json()["players"][0]["connected"]


def _wait_for(page, pred, timeout_s: float, what: str) -> None:
    """Poll `pred` while letting Playwright deliver the page's events (sync API)."""
    deadline = time.monotonic() + timeout_s
    while not pred():
        assert time.monotonic() < deadline, what
        page.wait_for_timeout(200)


def test_the_room_page_reconnects_after_a_graceful_restart(migrated_url, tmp_path):
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium")
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    a = Server(migrated_url, tmp_path / "a.log").start()
    b = None
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            context = browser.new_context()
            # record the close codes the page's sockets see
            context.add_init_script("""
                window.__closeCodes = [];
                const Native = window.WebSocket;
                window.WebSocket = class extends Native {
                  constructor(...args) {
                    super(...args);
                    this.addEventListener("close", (e) => window.__closeCodes.push(e.code));
                  }
                };""")
            page = context.new_page()
            errors: list[str] = []
            frames: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
            # the browser creates the room (its context keeps the seat cookie), Bob joins, start
            host = context.request.post(a.base_url + "/api/rooms", data={"name": "Alice", "public": False}).json()
            code = host["code"]
            proto.join_room(a.base_url, code, "Bob")
            proto.start(a.base_url, code, host["token"])
            page.goto(f"{a.base_url}/r/{code}")
            page.wait_for_selector('body[data-version="0"]', state="attached", timeout=20000)
            _wait_for(page, lambda: _host_connected(a.base_url, code), 10, "the page never connected")

            a.proc.send_signal(signal.SIGTERM)
            _wait_for(page, lambda: NOTICE in frames, 10, "no server_restarting frame")
            assert a.proc.wait(10) == 0
            _wait_for(page, lambda: page.evaluate("window.__closeCodes.length") > 0, 10, "no close")
            assert page.evaluate("window.__closeCodes[0]") == 1012
            # the banner says the server is restarting, not that the connection was lost
            _wait_for(page, lambda: page.evaluate("!document.getElementById('banner').hidden"), 10, "no banner")
            assert "restarting" in page.inner_text("#banner"), page.inner_text("#banner")

            # the same address, the same database: what `docker compose restart` does
            b = Server(migrated_url, tmp_path / "b.log")
            b.port, b.base_url, b.ws_url = a.port, a.base_url, a.ws_url
            b.start()
            # backoff 0.5 s doubling to 10 s: back within a few retries
            _wait_for(page, lambda: _host_connected(b.base_url, code), 30, "the page did not reconnect")
            assert page.evaluate("document.body.dataset.version") == "0"
            _wait_for(page, lambda: page.evaluate("document.getElementById('banner').hidden"), 10,
                      "the banner stayed after the reconnect")
            assert frames.count(NOTICE) == 1
            assert not errors, errors
            context.close()
            browser.close()
    finally:
        a.stop()
        if b is not None:
            b.stop()
