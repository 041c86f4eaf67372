"""A connection you can trust, in a real browser through a proxy that plays a dead network:
a dead socket is noticed within about 10 s (application ping/pong), the banner shows, a move
sent into it is marked pending and sent again with the same id once the network is back —
applied exactly once, whether it was lost on the way up or its answer on the way down — and
the browser's offline/online events are acted on at once."""
from __future__ import annotations

import time

import httpx
from playwright.sync_api import expect

from .helpers import choose_token, create_room, market, version, wait_acting
from .netproxy import DeadLinkProxy


def _my_turn(page) -> None:
    """Answer decisions until it is this page's turn."""
    while True:
        acting = wait_acting([page], timeout_s=30)
        assert acting is not None, "the game ended"
        if acting[1] == "turn":
            return
        if acting[1] == "draft":
            choose_token(page, 0)
        else:
            page.click("#insure-none")
            page.wait_for_function("document.body.dataset.pending === '0'")


# A log line's text as read out: without the seat's swatch before a name (aria-hidden).
_SPOKEN = "e => { const c = e.cloneNode(true); c.querySelectorAll('[aria-hidden=true]').forEach(x => x.remove()); return c.textContent; }"


def _took(page, name: str) -> int:
    return sum(1 for line in page.eval_on_selector_all("#log li:not(.turn-entry)", f"els => els.map({_SPOKEN})")
               if line.startswith(name + " took"))


def _take_first(page) -> None:
    cid = next(m["card"] for m in market(page) if not m["other"])
    page.click(f'#market .card[data-card="{cid}"]')
    page.click("#btn-take")
    assert page.evaluate("document.body.dataset.pending") == "1"


def test_dead_connection_is_noticed_and_a_pending_move_is_applied_once(e2e_server, new_page, shots):
    proxy = DeadLinkProxy(e2e_server.port)
    try:
        base = f"http://127.0.0.1:{proxy.port}"
        page = new_page()
        code = create_room(page, base, "Nia")
        page.click("#add-bot")
        page.wait_for_function("document.querySelectorAll('.seat:not(.empty)').length === 2")
        page.click("#start-btn")
        page.wait_for_selector("#players .player")
        banner = page.locator("#banner")

        # 1. The move never reaches the server: noticed, pending, sent again, applied once.
        _my_turn(page)
        took, before = _took(page, "Nia"), version(page)
        proxy.cut()
        _take_first(page)
        # The heartbeat notices it (static/js/net.js HEARTBEAT: ~7-9 s), long before TCP would:
        # a generous deadline, since a busy machine delays the page's timers.
        expect(banner).to_contain_text("your move will be sent again", timeout=30000)
        expect(page.locator("#pending-note")).to_be_visible()
        page.screenshot(path=str(shots / "connection-dead-move-pending.png"))
        assert httpx.get(f"{e2e_server.base_url}/api/rooms/{code}").json()["version"] == before
        proxy.restore()
        expect(banner).to_be_hidden(timeout=20000)
        page.wait_for_function("v => +document.body.dataset.version > v && document.body.dataset.pending === '0'", arg=before)
        expect(page.locator(".toast.ok")).to_contain_text("Connected again")
        assert _took(page, "Nia") == took + 1

        # 2. The move arrives but its answer is lost: the resend with the same id is not
        # applied again (and is not refused either: no error shows).
        _my_turn(page)
        took, before = _took(page, "Nia"), version(page)
        proxy.cut(up=False, down=True)
        _take_first(page)
        expect(banner).to_contain_text("Connection lost", timeout=30000)
        assert httpx.get(f"{e2e_server.base_url}/api/rooms/{code}").json()["version"] > before
        proxy.restore()
        expect(banner).to_be_hidden(timeout=20000)
        page.wait_for_function("document.body.dataset.pending === '0'")
        page.wait_for_function(f"n => [...document.querySelectorAll('#log li:not(.turn-entry)')].map({_SPOKEN}).filter(t => t.startsWith('Nia took')).length >= n", arg=took + 1)
        time.sleep(0.5)
        assert _took(page, "Nia") == took + 1
        assert page.locator(".toast.error").count() == 0

        # 3. The browser says the network is gone / back: acted on at once, not after the
        # heartbeat's ~7 s.
        page.context.set_offline(True)
        expect(banner).to_contain_text("Connection lost", timeout=5000)
        page.screenshot(path=str(shots / "connection-offline.png"))
        page.context.set_offline(False)
        expect(banner).to_be_hidden(timeout=5000)
    finally:
        proxy.close()
