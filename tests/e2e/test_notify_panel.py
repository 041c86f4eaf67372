"""Turn notifications in a real browser (issue 31, docs/ui.md "Notifications"): the room socket
says whether the page is in view; the panel behind "Notify me" asks for the permission only
when "In this browser" is turned on, sends the subscription to the server, which sends the
turn to a real local push service (RFC 8030, tests/app/notify_receivers.py) encrypted for the
subscription (RFC 8291): it decrypts to the room's link and nothing hidden; the same turn goes
to a local json:// receiver given as the Apprise URL; the push's "turn off" link and "Turn off"
end them; a private address is refused in the catalogue's words; the real service worker shows
a push it gets. Headless Chromium reaches no real push service, so an init script replaces
PushManager's subscribe with one that returns the test's subscription (its endpoint the local
service, its keys the test's). Screenshots of the panel: desktop and a 360 px phone, en and de."""
from __future__ import annotations

import json
import time

import httpx
import pytest
from playwright.sync_api import expect

from tests.app.notify_receivers import HookReceiver, PushService

from .conftest import DESKTOP, E2EServer
from .driver import Seat, Table, greedy
from .helpers import HIDE, PUSH, audit, create_room, goto

PHONE_360 = {"width": 360, "height": 740}

@pytest.fixture(scope="module")
def notify_server(tmp_path_factory):
    """A server that may send to addresses on this machine (NOTIFY_ALLOW_PRIVATE), where the
    test's receivers listen."""
    srv = E2EServer(tmp_path_factory.mktemp("e2e-notify"), env={"NOTIFY_ALLOW_PRIVATE": "true"})
    yield srv
    srv.stop()


def _bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def _visible_frames(page) -> list:
    """[(socket number, visible)] of every `visible` frame the page sends, from now on."""
    out, sockets = [], []

    def on_socket(ws):
        sockets.append(ws.url)
        n = len(sockets)

        def sent(payload):
            try:
                msg = json.loads(payload)
            except (TypeError, ValueError):
                return
            if msg.get("type") == "visible":
                out.append((n, ws.url.rsplit("/", 1)[1], msg["visible"]))
        ws.on("framesent", sent)
    page.on("websocket", on_socket)
    return out


def _wait(cond, what: str, timeout: float = 20, page=None) -> None:
    """Until cond() (AssertionError `what` after `timeout` s); with `page`, Playwright's events
    (a CDP session's, a socket's frames) are handled meanwhile: the sync API delivers them only
    while it is called, so a condition on them needs `page`."""
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(what)
        if page is not None:
            page.wait_for_timeout(50)
        else:
            time.sleep(0.05)


def test_the_room_socket_says_whether_the_page_is_in_view(e2e_server, new_page):
    """After each (re)connect and each visibilitychange, `{"type": "visible", "visible": …}` on
    the room's socket (docs/protocol.md); the lobby's socket never sends one."""
    page = new_page()
    page.context.add_init_script(script=HIDE)
    frames = _visible_frames(page)
    code = create_room(page, e2e_server.base_url, "Vera")  # from the home page, with the lobby's socket
    _wait(lambda: frames and frames[-1][1] == code, "no visible frame on the room's socket", page=page)
    assert frames == [(2, code, True)], frames  # the lobby's (socket 1) sent none
    page.evaluate("__hide(true)")
    _wait(lambda: frames[-1][2] is False, "no visible false", page=page)
    # A reconnect while in the background says so on the new socket.
    page.context.set_offline(True)
    expect(page.locator("#banner")).to_be_visible(timeout=5000)
    page.context.set_offline(False)
    expect(page.locator("#banner")).to_be_hidden(timeout=15000)
    _wait(lambda: frames[-1][0] > 2, f"no visible frame after the reconnect: {frames}", page=page)
    assert frames[-1][2] is False, frames
    page.evaluate("__hide(false)")
    _wait(lambda: frames[-1][2] is True, "no visible true", page=page)
    assert [f[2] for f in frames] == [True, False, False, True], frames


def _open_panel(page):
    page.click("#notify-btn")
    dlg = page.locator("#notify-dlg[open]")
    expect(dlg).to_be_visible()
    expect(page.locator("#notify-save")).to_be_enabled()
    return dlg


def test_a_browser_that_refuses_the_permission_says_how_to_allow_it(e2e_server, new_page):
    """Nothing asks for the permission before "In this browser" is turned on; refused (headless
    Chromium dismisses the prompt of a context that granted nothing), the switch goes off and
    the panel says why. Escape closes it and the focus is back on "Notify me"."""
    page = new_page()
    page.context.add_init_script(script=f"{PUSH}({json.dumps({'endpoint': 'https://x.invalid/p', 'keys': {}})})")
    create_room(page, e2e_server.base_url, "Pia")
    assert page.evaluate("window.__asked") == 0
    _open_panel(page)
    assert page.evaluate("window.__asked") == 0
    expect(page.locator("#notify-push")).to_be_focused()
    page.click("#notify-push")
    expect(page.locator("#notify-push-why")).to_contain_text("blocked for this site")
    expect(page.locator("#notify-push")).not_to_be_checked()
    assert page.evaluate("[window.__asked, window.__keys.length]") == [1, 0]
    # Tab stays inside the dialog.
    for _ in range(12):
        page.keyboard.press("Tab")
        assert page.evaluate("!!document.activeElement.closest('#notify-dlg')")
    page.keyboard.press("Escape")
    expect(page.locator("#notify-dlg[open]")).to_have_count(0)
    expect(page.locator("#notify-btn")).to_be_focused()


def test_a_private_address_is_refused_in_the_page_language(e2e_server, new_page, shots):
    """Without NOTIFY_ALLOW_PRIVATE the server refuses an address on this machine
    (`notify_private_url`): said under the field, in English and then in German."""
    page = new_page()
    create_room(page, e2e_server.base_url, "Rita")
    _open_panel(page)
    page.fill("#notify-apprise", "json://127.0.0.1:9/hook")
    page.click("#notify-save")
    err = page.locator("#notify-err-apprise")
    expect(err).to_contain_text("private network")
    expect(page.locator("#notify-apprise")).to_have_attribute("aria-invalid", "true")
    page.keyboard.press("Escape")
    page.click(".lang-btn[data-lang=de]")
    _open_panel(page)
    page.fill("#notify-apprise", "json://127.0.0.1:9/hook")
    page.click("#notify-save")
    expect(err).to_contain_text("privaten Netz")
    page.screenshot(path=str(shots / "notify-refused-de.png"))
    # Not a URL at all.
    page.fill("#notify-apprise", "not an address")
    page.click("#notify-save")
    expect(err).to_contain_text("Dorthin können wir nicht senden")


def _play_until_seat_acts(table: Table, seat: int) -> None:
    """Start the game with only seat 0 connected (over its own WebSocket) and play it until
    `seat`'s decision starts; the seats of the browser pages stay as they are."""
    r = httpx.post(f"{table.base}/api/rooms/{table.code}/start", headers=_bearer(table.tokens[0]))
    assert r.status_code == 200, r.text
    table.seats = [Seat(table.base.replace("http", "ws", 1), table.code, table.tokens[0])]
    table.seats[0].pump(0)
    for _ in range(20):
        if table.acting() == seat:
            return
        table.step(greedy)
    raise AssertionError("the seat's decision did not come")


def test_web_push_and_apprise_the_whole_way(notify_server, new_page, shots):
    base = notify_server.base_url
    key = httpx.get(base + "/api/push/key").json()["public_key"]
    with PushService(key) as push, HookReceiver() as hook:
        sub = push.subscribe("bob")
        table = Table(base, ["Ann", "Bob"])
        code, bob = table.code, table.tokens[1]
        page = new_page()
        ctx = page.context
        ctx.add_init_script(script=HIDE)
        ctx.add_init_script(script=f"{PUSH}({json.dumps(sub)})")
        ctx.add_cookies([table.cookie(1)])
        goto(page, f"{base}/r/{code}")
        _open_panel(page)
        assert page.evaluate("window.__asked") == 0  # not on load, not on opening the panel
        expect(page.locator("#notify-push")).not_to_be_checked()

        # Turned on: the permission is asked now (granted), the server's key subscribes.
        ctx.grant_permissions(["notifications"], origin=base)
        page.click("#notify-push")
        page.wait_for_function("window.__keys.length === 1")  # subscribed
        expect(page.locator("#notify-push")).to_be_checked()
        assert page.evaluate("[window.__asked, window.__keys]") == [1, [key]]
        assert page.evaluate("navigator.serviceWorker.getRegistration().then(r => r && r.scope)") == base + "/"
        page.fill("#notify-apprise", f"json://127.0.0.1:{hook.port}/hook")
        page.check("#notify-quiet")
        page.fill("#notify-from", "03:00")
        page.fill("#notify-to", "03:01")
        page.uncheck("#notify-quiet")
        with page.expect_request(lambda r: r.url.endswith(f"/api/rooms/{code}/notify") and r.method == "PUT") as req:
            page.click("#notify-save")
        assert req.value.post_data_json == {"webpush": sub, "apprise": f"json://127.0.0.1:{hook.port}/hook",
                                            "quiet": None, "lang": "en"}
        expect(page.locator("#notify-status")).to_have_text("Saved.")
        expect(page.locator("#notify-save")).to_be_focused()  # the focus stays where it was
        audit(page, "notify panel")
        got = httpx.get(f"{base}/api/rooms/{code}/notify", headers=_bearer(bob)).json()
        assert got["webpush"] is True and got["apprise"].startswith("json://") and got["failed"] is None, got
        assert str(hook.port) not in got["apprise"] or got["apprise"].endswith("…"), got  # redacted
        expect(page.locator("#notify-apprise-now")).to_contain_text("Now: json://")
        page.click("#notify-close")

        # The tab goes to the background; a chat message after it says the server read that.
        page.evaluate("__hide(true)")
        page.fill("#chat-input", "brb")
        page.keyboard.press("Enter")
        expect(page.locator(".chat-msg", has_text="brb")).to_have_count(1)
        _play_until_seat_acts(table, 1)

        # The push service checked the encoding, the TTL and the VAPID signature by the served
        # key (RFC 8292), and decrypted the body with the subscription's keys (RFC 8291).
        msg = push.wait(1)[0]
        assert msg["error"] is None and msg["path"] == "/push/bob", msg
        assert msg["headers"].get("Topic"), msg["headers"]
        payload = msg["payload"]
        assert set(payload) == {"title", "body", "url", "off_url", "off_title", "room", "lang"}, payload
        assert payload["url"] == f"{base}/r/{code}" and payload["room"] == code and payload["lang"] == "en"
        text = json.dumps(payload)
        assert bob not in text and table.tokens[0] not in text
        assert "hand" not in text.lower() and " VP" not in text, payload
        # The same turn through Apprise's json:// to the hook, with the room's link.
        got_hook = hook.wait(1)[0]
        path, said = got_hook["path"], got_hook["payload"]
        assert path == "/hook" and isinstance(said, dict), said
        assert f"/r/{code}" in json.dumps(said), said

        # The real service worker shows such a push: its title, the room as tag, the link.
        _deliver_to_service_worker(page, base, payload)
        shown = page.evaluate("""async () => (await (await navigator.serviceWorker.getRegistration())
          .getNotifications()).map(n => ({title: n.title, tag: n.tag, data: n.data, actions: n.actions.map(a => a.action)}))""")
        assert shown == [{"title": payload["title"], "tag": code,
                          "data": {"url": payload["url"], "off_url": payload["off_url"]}, "actions": ["off"]}], shown

        # The push's own "turn off" (what its action POSTs) ends the push, not the other service.
        assert httpx.post(payload["off_url"]).status_code == 204
        got = httpx.get(f"{base}/api/rooms/{code}/notify", headers=_bearer(bob)).json()
        assert got["webpush"] is False and got["apprise"], got

        # "Turn off" in the panel ends the rest.
        page.evaluate("__hide(false)")
        _open_panel(page)
        expect(page.locator("#notify-push")).not_to_be_checked()
        for size, name in ((DESKTOP, "desktop"), (PHONE_360, "phone")):
            page.set_viewport_size(size)
            page.screenshot(path=str(shots / f"notify-panel-en-{name}.png"))
        page.set_viewport_size(DESKTOP)
        with page.expect_request(lambda r: r.url.endswith(f"/api/rooms/{code}/notify") and r.method == "DELETE"):
            page.click("#notify-off")
        expect(page.locator("#notify-status")).to_have_text("Notifications for this room are off.")
        expect(page.locator("#notify-save")).to_be_focused()  # "Turn off" is gone
        got = httpx.get(f"{base}/api/rooms/{code}/notify", headers=_bearer(bob)).json()
        assert (got["webpush"], got["apprise"], got["quiet"]) == (False, None, None), got
        table.close()


def _deliver_to_service_worker(page, base: str, payload: dict) -> None:
    """Hand `payload` to the page's service worker as a push (DevTools ServiceWorker domain)."""
    page.evaluate("navigator.serviceWorker.ready.then(() => 1)")  # its worker active
    cdp = page.context.new_cdp_session(page)
    regs: list = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: regs.extend(e["registrations"]))
    cdp.send("ServiceWorker.enable")

    def live() -> list[dict]:
        """The page's registrations as last reported (an id's newest update counts), not deleted."""
        latest = {r["registrationId"]: r for r in regs}  # in the order reported: the newest wins
        return [r for r in latest.values() if r["scopeURL"] == base + "/" and not r["isDeleted"]]

    _wait(lambda: bool(live()), "no registration", page=page)
    shown = ("navigator.serviceWorker.getRegistration().then(r => r.getNotifications()).then(n => n.length)")
    # The newest live registration's worker gets the push. In one clean-clone run under load the
    # worker showed nothing within 20 s of a single delivery (alone the test passes; the cause was
    # not found), so the push is delivered again every 5 s until shown: the room's tag makes a
    # repeat replace the first, and a worker that never shows one still fails the test.
    end = time.monotonic() + 20
    while time.monotonic() < end:
        cdp.send("ServiceWorker.deliverPushMessage", {"origin": base, "registrationId": live()[-1]["registrationId"],
                                                      "data": json.dumps(payload)})
        try:
            _wait(lambda: page.evaluate(shown) > 0, "", timeout=5, page=page)
            return
        except AssertionError:
            continue
    raise AssertionError(f"the service worker showed nothing (registrations seen: {regs})")


def test_the_host_sets_the_room_webhook_and_the_panel_in_german(notify_server, new_page, shots):
    """The host's panel has the room's webhook (PUT /api/rooms/{code}/webhook); a guest's has none.
    Screenshots in German, desktop and phone."""
    base = notify_server.base_url
    with HookReceiver() as hook:
        host = new_page(locale="de-DE")
        code = create_room(host, base, "Greta")
        _open_panel(host)
        expect(host.locator("#notify-webhook")).to_be_visible()
        host.fill("#notify-webhook", f"json://127.0.0.1:{hook.port}/room")
        with host.expect_request(lambda r: r.url.endswith(f"/api/rooms/{code}/webhook") and r.method == "PUT") as req:
            host.click("#notify-save")
        assert req.value.post_data_json == {"url": f"json://127.0.0.1:{hook.port}/room", "lang": "de"}
        expect(host.locator("#notify-status")).to_have_text("Gespeichert, mit dem Webhook des Raums.")
        expect(host.locator("#notify-dlg")).to_contain_text("Jetzt: json://")
        for size, name in ((DESKTOP, "desktop"), (PHONE_360, "phone")):
            host.set_viewport_size(size)
            host.screenshot(path=str(shots / f"notify-panel-de-{name}.png"))
        guest = new_page()
        goto(guest, f"{base}/r/{code}")
        guest.fill("#join-name", "Gus")
        guest.click("#join-btn")
        guest.wait_for_selector(".seat.mine")
        _open_panel(guest)
        expect(guest.locator("#notify-webhook")).to_have_count(0)
