"""A seat's rights end in the browser the moment the seat changes hands (issue 28): Bob has the
waiting room after "Play again" open in two tabs and clicks "Leave my seat" in one; both tabs
stop showing him as seated at once; Carol takes seat 1 and the game starts: neither of Bob's
tabs shows a hand, "(you)", or Carol's private view; after a reload they watch as spectators
(the stale seat cookie is gone, the socket is not refused)."""
from __future__ import annotations

import time

import httpx
from playwright.sync_api import expect

from .helpers import goto


def _auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def _finished_room(base: str) -> tuple[str, list[str]]:
    """Host and Bob, their seats played by easy computer players to the end → (code, tokens)."""
    host = httpx.post(base + "/api/rooms", json={"name": "Host", "public": False}).json()
    code = host["code"]
    bob = httpx.post(f"{base}/api/rooms/{code}/join", json={"name": "Bob"}).json()
    tokens = [host["token"], bob["token"]]
    assert httpx.post(f"{base}/api/rooms/{code}/start", headers=_auth(tokens[0])).status_code == 200
    for seat in (0, 1):
        r = httpx.post(f"{base}/api/rooms/{code}/seats/{seat}/bot", json={"level": "easy"}, headers=_auth(tokens[0]))
        assert r.status_code == 200, r.text
    deadline = time.monotonic() + 120
    while httpx.get(f"{base}/api/rooms/{code}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the computer players did not finish"
        time.sleep(0.2)
    return code, tokens


def test_leaving_a_seat_ends_it_in_every_tab_at_once(e2e_server, new_page, shots):
    base = e2e_server.base_url
    code, tokens = _finished_room(base)
    r = httpx.post(f"{base}/api/rooms/{code}/again", json={"game": 1}, headers=_auth(tokens[0]))
    assert r.status_code == 200, r.text
    tab_a = new_page()
    tab_a.context.add_cookies([{"name": f"osaka_{code}", "value": tokens[1], "url": base}])
    tab_b = tab_a.context.new_page()  # the same browser: the same cookie
    for tab in (tab_a, tab_b):
        goto(tab, f"{base}/r/{code}")
        expect(tab.locator("#leave-btn")).to_be_visible()
        expect(tab.locator(".badge.you")).to_have_count(1)

    tab_a.click("#leave-btn")
    for tab in (tab_a, tab_b):  # "at once": well within a second or two, without a reload
        expect(tab.locator(".badge.you")).to_have_count(0, timeout=3000)
        expect(tab.locator("#leave-btn")).to_have_count(0, timeout=3000)
    # The leave's answer deleted the browser's seat cookie (both tabs share it).
    assert [c for c in tab_a.context.cookies() if c["name"] == f"osaka_{code}"] == []

    carol = httpx.post(f"{base}/api/rooms/{code}/join", json={"name": "Carol"}).json()
    assert carol["seat"] == 1
    assert httpx.post(f"{base}/api/rooms/{code}/start", headers=_auth(tokens[0])).status_code == 200
    for tab in (tab_a, tab_b):
        tab.wait_for_selector("#players .player")
        expect(tab.locator(".player.mine")).to_have_count(0)
        expect(tab.locator(".badge.you")).to_have_count(0)
        expect(tab.locator("#hand .card")).to_have_count(0)
    tab_b.screenshot(path=str(shots / "seat-lost-spectator.png"), full_page=True)

    # A reload: the page reads the room as nobody's (the stale cookie is deleted) and watches.
    tab_b.reload()
    tab_b.wait_for_selector("html[data-ready]", state="attached")
    tab_b.wait_for_selector("#players .player")
    expect(tab_b.locator(".player.mine")).to_have_count(0)
    expect(tab_b.locator("#hand .card")).to_have_count(0)
    expect(tab_b.locator("body")).to_have_attribute("data-version", "0", timeout=10000)
