"""Turn timers in the browser (issue 12): the host picks a (test-only, TURN_LIMIT_TEST_S) 2-second
timer, the countdown shows in the top bar and the tab title, a computer player decides at the
time-out and the log says so; after two time-outs in a row it keeps playing the seat until
the player takes it back."""
from __future__ import annotations

from playwright.sync_api import expect

from .helpers import create_room


def test_a_time_out_is_decided_by_the_computer_and_the_seat_taken_back(e2e_server_quick_timer, new_page, shots):
    base = e2e_server_quick_timer.base_url
    page = new_page()
    # This server compresses WebSocket frames (WS_COMPRESSION=true): the browser's handshake
    # answers, as Chromium's DevTools protocol reports them, show it negotiated.
    handshakes: list[dict] = []
    cdp = page.context.new_cdp_session(page)
    cdp.on("Network.webSocketHandshakeResponseReceived",
           lambda e: handshakes.append({k.lower(): v for k, v in e["response"]["headers"].items()}))
    cdp.send("Network.enable")
    create_room(page, base, "Hana", public=False)
    # The host's choices come from the room (2 s is offered by this server only).
    options = page.eval_on_selector_all("#timer-select option", "os => os.map(o => o.value)")
    assert options[:6] == ["live:0", "live:2", "live:30", "live:60", "live:120", "live:300"]
    assert options[-4:] == ["turn:3600", "turn:28800", "turn:86400", "turn:259200"]  # turn-based (issue 31)
    page.select_option("#timer-select", "live:2")
    expect(page.locator("#timer-select")).to_have_value("live:2")
    page.click("#add-bot")
    page.wait_for_function("document.querySelectorAll('.seat:not(.empty)').length === 2")
    page.click("#start-btn")
    page.wait_for_selector("#players .player")
    # Hana's own decision: the countdown runs in the top bar and in the tab title.
    page.wait_for_function("document.body.dataset.decision !== ''")
    expect(page.locator("#clock")).to_be_visible()
    expect(page.locator("#clock")).to_have_attribute("role", "timer")
    page.wait_for_function("/^\\(0:0[0-2]\\) /.test(document.title)")
    page.screenshot(path=str(shots / "timer-countdown.png"))
    # Nobody clicks: the computer decides, and the log says whose time ran out.
    line = page.locator("#log .log-timed_out").first
    expect(line).to_contain_text("Hana's time ran out: a computer player decided for them.", timeout=15000)
    # Twice in a row: the computer keeps the seat until Hana takes it back.
    expect(page.locator("#take-back")).to_be_visible(timeout=20000)
    expect(page.locator("#taken-over")).to_contain_text("your time ran out twice in a row")
    page.screenshot(path=str(shots / "timer-taken-over.png"))
    page.click("#take-back")
    expect(page.locator("#take-back")).to_have_count(0)
    expect(page.locator(".player.mine .badge.bot")).to_have_count(0)
    assert handshakes and all(h.get("sec-websocket-extensions", "").startswith("permessage-deflate")
                              for h in handshakes), handshakes
