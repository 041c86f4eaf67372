"""A hidden tab keeps its healthy socket (issue 28). Chrome wakes the timers of a tab hidden
for five minutes about once a minute; the heartbeat (static/js/net.js) must not read such a
late check as a dead connection. An init script emulates that tab: `document.visibilityState`
"hidden" / `document.hidden` true, and every timer of the page (setTimeout, setInterval) runs
only when Date.now() crosses a whole minute. Over 150 s the page's seat never goes offline for
the other player and the page never opens a second socket; then a real outage (a proxy that
drops every byte, no close ever arrives) is still noticed while the tab stays hidden, and the
page comes back at once when it is shown again.

Long (about 4–5 minutes of real time, whole minutes of the wall clock): marked `slow`."""
from __future__ import annotations

import json
import socket
import threading
import time

import httpx
import pytest
from websockets.sync.client import connect

from .helpers import goto
from .netproxy import DeadLinkProxy

# Timers of a hidden tab under Chrome's intensive throttling: every setTimeout/setInterval of
# the page is kept here and run by one real 20 ms poller; while "hidden", only at a wake-up,
# i.e. when Date.now() has crossed a whole minute since the last one (then every timer due by
# then runs once, an interval is due again `ms` after it ran). __hide() / __show() switch.
HIDDEN_TAB = """(() => {
  const realInterval = window.setInterval.bind(window);
  const timers = new Map();
  let next = 1, hidden = false, wakeMinute = 0;
  const stats = window.__throttle = { wakeups: 0, hidden: false };
  const add = (fn, ms, args, repeat) => {
    const id = next++, wait = Math.max(0, Number(ms) || 0);
    timers.set(id, { fn, wait, due: Date.now() + wait, args, repeat });
    return id;
  };
  window.setTimeout = (fn, ms, ...args) => add(fn, ms, args, false);
  window.setInterval = (fn, ms, ...args) => add(fn, ms, args, true);
  window.clearTimeout = window.clearInterval = (id) => { timers.delete(id); };
  realInterval(() => {
    const now = Date.now();
    if (hidden) {
      const minute = Math.floor(now / 60000);
      if (minute === wakeMinute) return;
      wakeMinute = minute;
      stats.wakeups++;
    }
    for (const [id, t] of [...timers]) {
      if (t.due > now || timers.get(id) !== t) continue;
      if (t.repeat) t.due = now + Math.max(t.wait, 1); else timers.delete(id);
      try { typeof t.fn === "function" ? t.fn(...t.args) : (0, eval)(String(t.fn)); }
      catch (e) { queueMicrotask(() => { throw e; }); }
    }
  }, 20);
  Object.defineProperty(Document.prototype, "visibilityState", { configurable: true, get: () => (hidden ? "hidden" : "visible") });
  Object.defineProperty(Document.prototype, "hidden", { configurable: true, get: () => hidden });
  const flip = (h) => {
    hidden = stats.hidden = h;
    wakeMinute = Math.floor(Date.now() / 60000);
    document.dispatchEvent(new Event("visibilitychange"));
  };
  window.__hide = () => flip(true);
  window.__show = () => flip(false);
})();"""

HIDDEN_FOR_S = 150


class SilentDeadLink(DeadLinkProxy):
    """DeadLinkProxy whose cut drops the server's close too: the server gives up on the silent
    socket after its own pings (WS_PING_INTERVAL_S + WS_PING_TIMEOUT_S) and closes it, and that
    must not reach the page either (a network that is gone carries no FIN), or the page would
    learn of the outage from a close event instead of its heartbeat. restore() closes them."""

    def _pump(self, src, dst, way: str) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                if getattr(self, way):
                    dst.sendall(data)
        except OSError:
            pass
        if not (self.up and self.down):
            return
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


class Observer:
    """The host's own WebSocket (straight to the server): every `room` summary it gets, with
    the time, read by a thread (the client answers the server's pings by itself)."""

    def __init__(self, base: str, code: str, token: str):
        self.ws = connect(base.replace("http", "ws", 1) + f"/ws/rooms/{code}",
                          additional_headers={"Authorization": f"Bearer {token}"}).__enter__()
        self.rooms: list[tuple[float, dict]] = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for raw in self.ws:
                msg = json.loads(raw)
                if msg["type"] == "room":
                    self.rooms.append((time.time(), msg["room"]))
        except Exception:  # closed
            pass

    def connected(self, seat: int, since: float = 0.0) -> list[bool]:
        """Whether `seat` was connected in each summary received after `since`."""
        return [next(p["connected"] for p in room["players"] if p["seat"] == seat)
                for at, room in list(self.rooms) if at >= since]

    def close(self) -> None:
        self.ws.close()
        self.thread.join(5)


def _banner(page) -> str:
    """The connection banner's text ('' while hidden): read with evaluate, which needs none of
    the page's (throttled) timers."""
    return page.evaluate("(() => { const b = document.getElementById('banner'); return b && !b.hidden ? b.textContent : ''; })()")


@pytest.mark.slow
def test_hidden_tab_keeps_a_healthy_socket_and_still_notices_an_outage(e2e_server, new_page):
    server = e2e_server.base_url
    proxy = SilentDeadLink(e2e_server.port)
    observer = None
    try:
        base = f"http://127.0.0.1:{proxy.port}"
        made = httpx.post(server + "/api/rooms", json={"name": "Hana", "public": False})
        assert made.status_code == 201, made.text
        code, host_token = made.json()["code"], made.json()["token"]
        joined = httpx.post(f"{server}/api/rooms/{code}/join", json={"name": "Pia"})
        assert joined.status_code == 200, joined.text
        seat = joined.json()["seat"]
        started = httpx.post(f"{server}/api/rooms/{code}/start", headers={"Authorization": f"Bearer {host_token}"})
        assert started.status_code == 200, started.text
        observer = Observer(server, code, host_token)

        page = new_page()
        page.context.add_cookies([{"name": f"osaka_{code}", "value": joined.json()["token"], "url": base}])
        page.add_init_script(HIDDEN_TAB)
        sockets, pings = [], []
        page.on("websocket", lambda ws: (sockets.append(ws.url), ws.on(
            "framesent", lambda f: pings.append(time.time()) if '"ping"' in str(f) else None)))
        goto(page, f"{base}/r/{code}")
        page.wait_for_selector("#players .player")
        deadline = time.monotonic() + 10
        while not (observer.connected(seat) and observer.connected(seat)[-1]):
            assert time.monotonic() < deadline, "the page's seat never showed as connected"
            time.sleep(0.1)
        assert [u for u in sockets if "/ws/rooms/" in u] and len(sockets) == 1, sockets

        # Hidden, timers waking once a minute: the healthy socket is kept the whole time.
        page.evaluate("__hide()")
        hidden_at = time.time()
        pings_before = len(pings)
        # Stay at least HIDDEN_FOR_S, then until 8 s before a whole minute, so that the outage
        # below starts just before a wake-up (the shortest wait for its verdict).
        while time.time() < hidden_at + HIDDEN_FOR_S or time.time() % 60 < 52:
            seen = observer.connected(seat, since=hidden_at)
            assert all(seen), f"the seat went offline for the others {time.time() - hidden_at:.0f} s after hiding"
            assert len(sockets) == 1, f"the page opened a new socket {time.time() - hidden_at:.0f} s after hiding"
            assert _banner(page) == "", _banner(page)
            time.sleep(1)
        stats = page.evaluate("window.__throttle")
        assert stats["hidden"] and stats["wakeups"] >= 2, stats
        hidden_pings = len(pings) - pings_before
        print(f"hidden {time.time() - hidden_at:.0f} s: {stats['wakeups']} wake-ups, {hidden_pings} pings sent")
        # The timers really slept: a visible page would have pinged every few seconds.
        assert hidden_pings <= stats["wakeups"] + 1, (hidden_pings, stats)
        assert httpx.get(f"{server}/api/rooms/{code}").json()["players"][seat]["connected"]

        # A real outage while still hidden: nothing gets through, no close arrives. Noticed
        # at a wake-up by the unanswered probe sent at the wake-up before (about 68 s here).
        proxy.cut()
        cut_at = time.time()
        while _banner(page) == "":
            assert time.time() < cut_at + 135, "a dead connection went unnoticed in the hidden tab"
            time.sleep(1)
        noticed = time.time() - cut_at
        print(f"outage noticed while hidden after {noticed:.0f} s: {_banner(page)!r}")
        assert "Connection lost" in _banner(page)

        # Shown again with the network back: connected again at once, not at the next minute.
        proxy.restore()
        shown_at = time.time()
        page.evaluate("__show()")
        page.wait_for_function("() => { const b = document.getElementById('banner'); return !b || b.hidden; }", timeout=15000)
        deadline = time.monotonic() + 10
        while not observer.connected(seat, since=shown_at) or not observer.connected(seat, since=shown_at)[-1]:
            assert time.monotonic() < deadline, "the seat did not come back after the page was shown"
            time.sleep(0.2)
        assert time.time() - shown_at < 15
    finally:
        if observer:
            observer.close()
        proxy.close()
