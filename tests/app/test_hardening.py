"""Hardening found by testing: deeply nested JSON on the lobby feed, invisible names, status
codes of odd requests (chunked bodies, seat numbers, room page spellings, QR of no room), and
`bad_message` errors that carry the refused frame's id."""
from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from websockets.asyncio.client import connect

from .helpers import Client, auth, create_room, new_game


def _err(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code, r.text


def test_lobby_feed_answers_deep_nesting_with_bad_message(server):
    async def scenario():
        async with connect(server.ws_url + "/ws/lobby") as ws:
            assert json.loads(await ws.recv())["type"] == "rooms"
            for junk in ("[" * 1000, "{\"a\":" * 400 + "1" + "}" * 400):
                await ws.send(junk)
                while (msg := json.loads(await asyncio.wait_for(ws.recv(), 10)))["type"] == "rooms":
                    pass
                assert msg["type"] == "error" and msg["code"] == "bad_message", msg
            await ws.send(json.dumps({"type": "ping"}))  # still open and answering
            while (msg := json.loads(await asyncio.wait_for(ws.recv(), 10)))["type"] == "rooms":
                pass
            assert msg == {"type": "pong"}

    asyncio.run(scenario())


@pytest.mark.parametrize("name", ["\u200b", "\ufeff", "\u3164", "\u2800", "A\u2029B", "\u115f\u1160",
                                  "\uffa0", " \u3164 ", "\u034f" * 3, "x\u200dy", "A\u2028B"])
def test_invisible_names_are_refused(server, name):
    _err(httpx.post(server.base_url + "/api/rooms", json={"name": name}), 422, "bad_name")
    room = create_room(server.base_url)
    _err(httpx.post(f"{server.base_url}/api/rooms/{room['code']}/join", json={"name": name}), 422, "bad_name")


@pytest.mark.parametrize("name", ["Zoë", "小明", "José 🎲"])
def test_visible_unicode_names_are_kept(server, name):
    room = create_room(server.base_url, name)
    players = httpx.get(f"{server.base_url}/api/rooms/{room['code']}").json()["players"]
    assert players[0]["name"] == name


def test_chunked_body_over_the_limit_is_413(server):
    big = b'{"name": "A", "pad": "' + b"y" * 100_000 + b'"}'
    r = httpx.post(server.base_url + "/api/rooms", content=iter([big[:30_000], big[30_000:]]),
                   headers={"content-type": "application/json"})
    _err(r, 413, "too_large")
    # A chunked body under the limit is read as usual.
    r = httpx.post(server.base_url + "/api/rooms", content=iter([b'{"name": ', b'"Chunky"}']),
                   headers={"content-type": "application/json"})
    assert r.status_code == 201, r.text


@pytest.mark.parametrize("seat", ["7", "-1", "x", "4", "00x"])
def test_handing_a_seat_that_cannot_exist_is_404(server, seat):
    code, tokens = new_game(server.base_url, 2)
    r = httpx.post(f"{server.base_url}/api/rooms/{code}/seats/{seat}/bot", json={"level": "easy"},
                   headers=auth(tokens[0]))
    _err(r, 404, "seat_not_found")


@pytest.mark.parametrize("path", ["/r/%3Cscript%3E", "/r/x", "/r/ABCDEFGHJKMNP", "/r/UUUUUUUUUU"])
def test_room_page_of_garbage_is_an_html_404(server, path):
    r = httpx.get(server.base_url + path)
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/html")
    # The room page, whose script asks the API and says there is no such room.
    assert 'data-page="room"' in r.text and "<script>" not in r.text


def test_room_page_accepts_every_code_spelling(server):
    code = create_room(server.base_url, public=False)["code"]
    lower, dashed, spaced = code.lower(), code[:5] + "-" + code[5:], code[:5] + "%20" + code[5:]
    variants = [lower, dashed, spaced, code.replace("1", "l").replace("0", "o")]
    for variant in variants:
        r = httpx.get(f"{server.base_url}/r/{variant}", follow_redirects=True)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html"), variant
        assert str(r.url).endswith(f"/r/{code}")
    assert httpx.get(f"{server.base_url}/r/{code}").status_code == 200


def test_qr_code_of_no_room_is_404(server):
    code = create_room(server.base_url, public=False)["code"]
    r = httpx.get(f"{server.base_url}/r/{code}/qr.svg")
    assert r.status_code == 200 and r.text.lstrip().startswith("<svg")
    assert httpx.get(f"{server.base_url}/r/ZZZZZZZZZZ/qr.svg").status_code == 404
    assert httpx.get(f"{server.base_url}/r/bad%20code/qr.svg").status_code == 404


def test_404_errors_keep_code_and_message_apart(server):
    r = httpx.get(server.base_url + "/api/nothing")
    _err(r, 404, "not_found")
    assert r.json()["error"]["message"] and r.json()["error"]["message"] != "not_found"


def test_bad_message_carries_the_frame_id(server):
    code, tokens = new_game(server.base_url, 2)

    async def scenario():
        c = await Client.open(server.ws_url, code, tokens[0], seat=0)
        await c.state(0)
        for frame in ({"type": "act", "id": "v-str", "version": "0", "action": {}},
                      {"type": "act", "id": "no-action", "version": 0},
                      {"type": "dance", "id": "odd-type"}):
            mark = len(c.msgs)
            await c.send(frame)
            err = await c.wait(lambda m: m["type"] == "error", start=mark)
            assert err["code"] == "bad_message" and err["id"] == frame["id"], err
        mark = len(c.msgs)
        await c.send({"type": "act", "id": 5, "version": 0, "action": {}})
        err = await c.wait(lambda m: m["type"] == "error", start=mark)
        assert err["code"] == "bad_message" and "id" not in err
        await c.close()

    asyncio.run(scenario())


def test_a_chat_text_of_a_lone_surrogate_is_a_bad_character(server):
    """A JSON escape such as \\ud800 is no Unicode character: `chat_bad_char`, not `chat_empty`
    (docs/protocol.md "WebSocket error codes"); a text of only a zero-width space too."""
    code, tokens = new_game(server.base_url, 2)

    async def scenario():
        c = await Client.open(server.ws_url, code, tokens[0], seat=0)
        await c.state(0)
        for i, text in enumerate(("\ud800", "a\udfffb", " \ud83d ", "\u200b")):
            mark = len(c.msgs)
            await c.send({"type": "chat", "id": f"s{i}", "text": text})
            err = await c.wait(lambda m: m["type"] == "error", start=mark)
            assert (err["code"], err["id"]) == ("chat_bad_char", f"s{i}"), (text, err)
        mark = len(c.msgs)
        await c.send({"type": "chat", "id": "blank", "text": " \u3164 "})  # a filler only: still empty
        err = await c.wait(lambda m: m["type"] == "error", start=mark)
        assert err["code"] == "chat_empty"
        await c.close()

    asyncio.run(scenario())


def test_every_http_answer_has_the_security_headers(server):
    """No page is framed by another site, nothing is sniffed, no address goes on as a referrer
    (app/main.py SECURITY_HEADERS; found missing by a break test): pages, the API, static files,
    errors and a 413 alike."""
    base = server.base_url
    room = create_room(base, "Hana")
    answers = [httpx.get(base + "/"), httpx.get(f"{base}/r/{room['code']}"), httpx.get(f"{base}/api/rooms"),
               httpx.get(f"{base}/api/rooms/{room['code']}"), httpx.get(base + "/healthz"),
               httpx.get(base + "/no/such/page"),
               httpx.post(base + "/api/rooms", content=b"x" * 70_000, headers={"content-type": "application/json"})]
    page = answers[0].text
    asset = next(part.split('"')[0] for part in page.split('src="')[1:] if ".js" in part.split('"')[0])
    answers.append(httpx.get(base + asset if asset.startswith("/") else f"{base}/{asset}"))
    assert [r.status_code for r in answers] == [200, 200, 200, 200, 200, 404, 413, 200]
    for r in answers:
        assert r.headers.get("x-content-type-options") == "nosniff", r.request.url
        assert r.headers.get("x-frame-options") == "DENY", r.request.url
        assert "frame-ancestors 'none'" in r.headers.get("content-security-policy", ""), r.request.url
        assert r.headers.get("referrer-policy") == "same-origin", r.request.url
        assert len(r.headers.get_list("x-content-type-options")) == 1, r.request.url
