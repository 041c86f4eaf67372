"""The turn clock and the reconnect across a server restart (docs/ui.md "Turn timer", "Live
data"): while the connection is down the countdown stands still, greyed and titled "waiting
for the server" (time no server ran does not count, protocol.md "Turn timers"), and after the
reconnect it shows the server's time; after a `server_restarting` notice the page asks again
about every second for a while (the restart takes seconds), then backs off to 10 s as usual."""
from __future__ import annotations

import json
import re
import time

from playwright.sync_api import expect
from websockets.sync.client import connect

from app.live.computer.downtime import PAUSE_AFTER_S

from .conftest import E2EServer
from .helpers import create_room


def _server_left_s(srv: E2EServer, code: str) -> float:
    """The seconds left of the decision under way, as the server says it (a spectator's socket)."""
    with connect(f"ws://127.0.0.1:{srv.port}/ws/rooms/{code}") as ws:
        while (msg := json.loads(ws.recv(timeout=10)))["type"] != "state":
            pass
    return msg["clock"]["left_ms"] / 1000


def _secs(shown: str) -> int:
    """Seconds of a clock's "m:ss"."""
    m, s = shown.split(":")
    return int(m) * 60 + int(s)


def test_the_turn_clock_stands_still_while_the_server_is_away(new_page, tmp_path, shots):
    srv = E2EServer(tmp_path)
    try:
        page = new_page()
        code = create_room(page, srv.base_url, "Rita")
        page.select_option("#timer-select", "live:60")
        expect(page.locator("#timer-select")).to_have_value("live:60")
        page.click("#add-bot")
        page.wait_for_function("document.querySelectorAll('.seat:not(.empty)').length === 2")
        page.click("#start-btn")
        started = time.monotonic()  # the clock runs from about now (a little later: the token draft)
        page.wait_for_function("document.body.dataset.decision !== ''")  # Rita's decision: her clock runs
        page.keyboard.press("Escape")  # the token draft's dialog put aside: the top bar is in reach
        expect(page.locator("#decision")).to_be_hidden()
        for lang in ("de", "en"):  # the German catalogue is in the page before the server goes away
            page.click(f".lang-btn[data-lang={lang}]")
            expect(page.locator(f".lang-btn[data-lang={lang}]")).to_have_attribute("aria-pressed", "true")
        clock = page.locator("#clock")
        expect(clock).to_be_visible()
        expect(clock).not_to_have_class(re.compile(r"\bpaused\b"))
        srv.stop()
        stopped = time.monotonic()
        expect(page.locator("#banner")).to_contain_text("The server is restarting")
        expect(clock).to_have_class(re.compile(r"\bpaused\b"))
        expect(clock).to_have_attribute("title", "waiting for the server")
        expect(clock).to_have_attribute("aria-label", re.compile(r"^Time left: \d:\d\d \(waiting for the server\)$"))
        frozen = clock.inner_text()
        page.wait_for_timeout(2500)  # long enough for a running countdown to show it
        assert clock.inner_text() == frozen
        page.click(".lang-btn[data-lang=de]")
        expect(clock).to_have_attribute("title", "wartet auf den Server")
        expect(clock).to_have_attribute("aria-label", f"Verbleibende Zeit: {frozen} (wartet auf den Server)")
        assert clock.inner_text() == frozen
        page.locator("header.topbar").screenshot(path=str(shots / "clock-paused-de.png"))
        # Down longer than a restart takes: no server ran for PAUSE_AFTER_S or more, so none of
        # that time may count (app/live/computer/downtime.py).
        time.sleep(max(0.0, stopped + PAUSE_AFTER_S + 1 - time.monotonic()))
        restarted = time.monotonic()
        srv = E2EServer(tmp_path, port=srv.port)
        expect(page.locator("#banner")).to_be_hidden(timeout=20000)
        expect(clock).not_to_have_class(re.compile(r"\bpaused\b"))
        expect(clock).not_to_have_attribute("title", re.compile("."))
        # The page shows the server's time (within the second it rounds up to, and the ~2 s
        # protocol.md allows a restart), and only the time a server ran came off the 60 s (a
        # second of slack for the rounding); the frozen clock shows at most 60 s, so this holds
        # for it too.
        server = _server_left_s(srv, code)
        ran = (stopped - started) + (time.monotonic() - restarted)  # the seconds a server ran, at most
        assert abs(_secs(clock.inner_text()) - server) <= 2, (clock.inner_text(), server)
        assert server >= 60 - ran - 1, (frozen, server, ran)
    finally:
        srv.stop()


# Every WebSocket the page makes, with the page's (fake) time it was made at.
COUNT_SOCKETS = """(() => {
  const Real = window.WebSocket;
  window.__ws = { at: [], last: null };
  window.WebSocket = class extends Real {
    constructor(...args) { super(...args); window.__ws.at.push(performance.now()); window.__ws.last = this; }
  };
})();"""


def test_after_a_restart_notice_the_page_asks_again_every_second_then_backs_off(new_page, tmp_path):
    """The page's own timers run on Playwright's clock, moved on by the test, so the waits
    between its attempts are read in the page's time, whatever the machine's load."""
    srv = E2EServer(tmp_path)
    page = new_page()
    page.add_init_script(COUNT_SOCKETS)
    page.clock.install()
    try:
        create_room(page, srv.base_url, "Rita")
        page.wait_for_function("window.__ws.last && window.__ws.last.readyState === 1")
        page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    finally:
        srv.stop()  # the notice and the close 1012; nothing listens on the port from now on
    expect(page.locator("#banner")).to_contain_text("The server is restarting")
    start = page.evaluate("performance.now()")
    made = page.evaluate("window.__ws.at.length")
    for step in [100] * 320 + [500] * 56:  # 60 s of the page's time, in steps of 0.1 s, later 0.5 s
        page.clock.run_for(step)
        deadline = time.monotonic() + 10
        # An attempt to the closed port fails at once: wait for it before time moves on.
        while page.evaluate("window.__ws.last.readyState") != 3:
            assert time.monotonic() < deadline, "a connection attempt hangs"
            time.sleep(0.01)
    at = [t - start for t in page.evaluate("window.__ws.at")[made:]]
    gaps = [b - a for a, b in zip(at, at[1:])]
    quick = [g for a, g in zip(at[2:], gaps[2:]) if a < 28000]
    late = [g for a, g in zip(at, gaps) if a > 32000]
    # First after about 0.15 s (another replica may serve at once: net.js RESTART_FIRST_MS), then
    # 0.3 s and 0.6 s, then about every second (jitter ±20 %, 0.1 s of the test's steps).
    assert 100 <= at[0] <= 300, at
    assert 200 <= gaps[0] <= 460 and 450 <= gaps[1] <= 820, at
    assert len(quick) >= 20 and all(700 <= g <= 1300 for g in quick), at
    # Then the usual backoff, doubling to its cap: no more every second.
    assert late and all(g >= 1500 for g in late) and max(late) <= 12500, at
    assert len([a for a in at if a > 40000]) <= 4, at
