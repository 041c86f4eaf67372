"""Chat names after a seat changed hands (issue 28): a message is shown under the name it was
sent with (the `name` of the chat frame), not under the seat's current player. Gus chats from
seat 2, leaves his seat in the waiting room, Ida joins into it and chats too: on the host's page
(live and after a reload) and on a page opened afterwards, Gus's message stays Gus's; both
lines keep seat 2's colour, each with its own initial."""
from __future__ import annotations

import json

import httpx
from playwright.sync_api import expect
from websockets.sync.client import connect

from .helpers import create_room, goto

# A name tag's text as read out: without the swatch's marker (aria-hidden).
_SPOKEN = "e => { const c = e.cloneNode(true); c.querySelectorAll('[aria-hidden=true]').forEach(x => x.remove()); return c.textContent; }"


def _chat_as(base: str, code: str, token: str, text: str) -> None:
    """Send a chat message from the seat of `token` over its own WebSocket; wait until the
    server sent it back (stored)."""
    ws_url = base.replace("http", "ws", 1) + f"/ws/rooms/{code}"
    with connect(ws_url, additional_headers={"Authorization": f"Bearer {token}"}) as ws:
        ws.send(json.dumps({"type": "chat", "id": "c-" + text, "text": text}))
        while True:
            msg = json.loads(ws.recv(timeout=10))
            assert msg["type"] != "error", msg
            if msg["type"] == "chat" and not msg.get("history") and any(m["text"] == text for m in msg["messages"]):
                return


def _line(page, text: str) -> dict:
    """The shown author of the chat line with `text`: its name (read out), marker and colour."""
    tag = page.locator("#chat-list .chat-msg", has_text=text).locator(".lname")
    expect(tag).to_have_count(1)
    swatch = tag.locator(".swatch")
    return {"name": tag.evaluate(_SPOKEN), "marker": swatch.text_content(), "cls": swatch.get_attribute("class")}


def _assert_names(page) -> None:
    expect(page.locator("#chat-list .chat-msg", has_text="Ida here")).to_have_count(1)
    gus, ida = _line(page, "Gus here"), _line(page, "Ida here")
    assert gus["name"] == "Gus", gus
    assert ida["name"] == "Ida", ida
    assert gus["marker"] == "G" and ida["marker"] == "I", (gus, ida)
    assert "pc-pink" in gus["cls"] and "pc-pink" in ida["cls"], (gus, ida)   # seat 2's colour
    # The host's own line is drawn as everywhere (the seat still holds that name).
    assert _line(page, "Hana here")["name"] == "Hana"


def test_chat_keeps_the_name_a_message_was_sent_with(e2e_server, new_page, shots):
    base = e2e_server.base_url
    host = new_page()
    code = create_room(host, base, "Hana", public=False)
    host.wait_for_selector("#chat-input")
    host.fill("#chat-input", "Hana here")
    host.press("#chat-input", "Enter")
    expect(host.locator("#chat-list .chat-msg", has_text="Hana here")).to_have_count(1)

    gus = httpx.post(f"{base}/api/rooms/{code}/join", json={"name": "Gus"})
    assert gus.status_code == 200, gus.text
    assert gus.json()["seat"] == 1
    _chat_as(base, code, gus.json()["token"], "Gus here")
    expect(host.locator("#chat-list .chat-msg", has_text="Gus here")).to_have_count(1)
    assert _line(host, "Gus here")["name"] == "Gus"

    # Gus leaves his seat; Ida joins into it and chats.
    left = httpx.post(f"{base}/api/rooms/{code}/leave", headers={"Authorization": f"Bearer {gus.json()['token']}"})
    assert left.status_code == 200, left.text
    expect(host.locator(".seat:not(.empty)")).to_have_count(1)
    ida = httpx.post(f"{base}/api/rooms/{code}/join", json={"name": "Ida"})
    assert ida.status_code == 200, ida.text
    assert ida.json()["seat"] == 1
    expect(host.locator(".seat:not(.empty)", has_text="Ida")).to_have_count(1)
    _chat_as(base, code, ida.json()["token"], "Ida here")

    _assert_names(host)                      # live
    host.locator(".chatbox").screenshot(path=str(shots / "chat-names-after-seat-change.png"))
    host.reload()                            # from the history
    host.wait_for_selector("#chat-list .chat-msg")
    _assert_names(host)
    watcher = new_page()                     # a page that never saw Gus seated
    goto(watcher, f"{base}/r/{code}")
    watcher.wait_for_selector("#chat-list .chat-msg")
    _assert_names(watcher)
    # Ida's own page (seat 2 is hers now) shows Gus's message under his name too.
    ida_page = new_page()
    ida_page.context.add_cookies([{"name": f"osaka_{code}", "value": ida.json()["token"], "url": base}])
    goto(ida_page, f"{base}/r/{code}")
    ida_page.wait_for_selector("#chat-list .chat-msg")
    _assert_names(ida_page)
    # ... and as someone else's: Gus's line can be muted, Ida's own cannot; muting Gus leaves
    # Ida's lines of the same seat shown.
    gus_line = ida_page.locator("#chat-list .chat-msg", has_text="Gus here")
    own_line = ida_page.locator("#chat-list .chat-msg", has_text="Ida here")
    expect(gus_line.locator("button.mute")).to_have_count(1)
    expect(own_line.locator("button.mute")).to_have_count(0)
    gus_line.locator("button.mute").click()
    expect(ida_page.locator("#chat-list .chat-msg", has_text="Gus here")).to_have_count(0)
    expect(ida_page.locator("#chat-list .chat-msg", has_text="Ida here")).to_have_count(1)
