"""A turn-based room in two real browsers (issue 31): the host picks the turn-based pace with
the server's short test time in the waiting room, a second player joins and sees the pace; in
the game the second player says they are away (the dialog), the host pauses and resumes, and
each sees what the other did: the away seat ("away until Tue 14:00" in their time zone), the
paused banner, the clock standing still."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import E2EServer
from .helpers import create_room, goto, join_room, resize

TEST_S = 7200  # TURN_BASED_TEST_S: two hours, so the clock shows the long form ("1 hr 59 min", the same words as My games)


@pytest.fixture
def turn_server(tmp_path):
    srv = E2EServer(tmp_path, env={"TURN_BASED_TEST_S": str(TEST_S), "TIMER_POLL_S": "0.2", "BOT_DELAY_S": "0"})
    yield srv
    srv.stop()


def test_turn_based_room_with_away_and_pause(turn_server, new_page, shots):
    base = turn_server.base_url
    host = new_page(timezone_id="Europe/Berlin")
    code = create_room(host, base, "Hana", public=True)
    options = host.eval_on_selector_all("#timer-select optgroup", "gs => gs.map(g => g.label)")
    assert options == ["Live", "Turn-based"]
    with host.expect_response(lambda r: r.url.endswith("/timer")) as resp:
        host.select_option("#timer-select", f"turn:{TEST_S}")
    assert resp.value.status == 200, resp.value.text()
    expect(host.locator("#pace-text")).to_contain_text("Turn-based")  # the pace band came (pace.js)
    # The long choices read as words
    labels = host.eval_on_selector_all("#timer-select optgroup[label='Turn-based'] option", "os => os.map(o => o.text)")
    assert labels[-4:] == ["1 hour", "8 hours", "1 day", "3 days"]

    bob = new_page(timezone_id="Asia/Tokyo", locale="de-DE")
    # The lobby says which pace the room has
    goto(bob, base + "/")
    expect(bob.locator(".room-item", has_text=code).locator(".room-pace")).to_have_text("Rundenbasiert · 2 Stunden")
    join_room(bob, base, code, "Bob")
    expect(bob.locator("#timer-text")).to_contain_text("Rundenbasiert")
    expect(bob.locator("#pace-text")).to_contain_text("2 Stunden")
    host.click("#start-btn")
    for page in (host, bob):
        page.wait_for_selector("#players .player")
    # The clock of a long limit reads in hours and minutes (whoever is to act: it is shown to all)
    expect(host.locator("#clock")).to_have_text(re.compile(r"^[12] hr \d+ min$"))
    # On a phone the table's top bar is two rows, also in German with the widest room code: the
    # room and the page's buttons, then the turn line, the clock, Chat and the bell.
    resize(bob, {"width": 360, "height": 640})
    rows = bob.evaluate("""() => {
      const code = document.querySelector('#room-code'), was = code.textContent;
      code.textContent = 'WMWMWMWMWM';
      const boxes = [...document.querySelector('.topbar').children].map(e => [e.className, e.getBoundingClientRect()])
        .filter(([, r]) => r.width > 0).sort((x, y) => x[1].top - y[1].top);
      const rows = [];  // a row starts at a box below every box of the row before
      for (const [name, r] of boxes) {
        const last = rows[rows.length - 1];
        if (last && r.top < last.bottom) { last.names.push(name); last.bottom = Math.max(last.bottom, r.bottom); }
        else rows.push({ names: [name], bottom: r.bottom });
      }
      code.textContent = was;
      return rows.map(r => r.names);
    }""")
    assert len(rows) == 2, rows
    assert "topnav" in " ".join(rows[0]) and "turn" in " ".join(rows[1]) and "chat-jump" in " ".join(rows[1]), rows
    bob.set_viewport_size({"width": 1366, "height": 768})

    # Bob: away until a time in the dialog (his local time, Tokyo)
    if bob.locator("#decision[open]").count():
        bob.keyboard.press("Escape")
    bob.click("#away-btn")
    dialog = bob.locator("#away-dialog")
    expect(dialog).to_be_visible()
    assert bob.get_attribute("#away-input", "max") is not None
    value = bob.evaluate("""() => {  // two days from now at 14:00, Bob's local time
      const d = new Date(Date.now() + 2 * 86400000); d.setHours(14, 0, 0, 0);
      const two = (n) => String(n).padStart(2, '0');
      return d.getFullYear() + '-' + two(d.getMonth() + 1) + '-' + two(d.getDate()) + 'T14:00'; }""")
    bob.fill("#away-input", value)
    with bob.expect_response(lambda r: r.url.endswith("/away")) as resp:
        bob.click("#away-save")
    assert resp.value.status == 200, resp.value.text()
    expect(dialog).to_be_hidden()
    # Shown to the host in her language and time zone: 14:00 in Tokyo is 06:00 in Berlin
    away = host.locator("#pace .away[data-seat='1']")
    expect(away).to_contain_text(re.compile(r"Bob: away until \w{3} 06:00"))
    expect(bob.locator("#pace .away[data-seat='1']")).to_contain_text(re.compile(r"abwesend bis \w{2}\.?,? 14:00"))
    host.screenshot(path=str(shots / "pace-away.png"))

    # The host pauses: both see the banner, the clock stands still; then she resumes
    drafter = host if host.locator(".actionbar.deciding").count() else bob  # the token draft's seat to act
    assert drafter.locator(".actionbar.deciding").count() == 1
    if host.locator("#decision[open]").count():  # her token draft's dialog: put aside (Escape)
        host.keyboard.press("Escape")
        expect(host.locator("#decision[open]")).to_have_count(0)
    with host.expect_response(lambda r: r.url.endswith("/pause")) as resp:
        host.click("#pause-btn")
    assert resp.value.status == 200, resp.value.text()
    expect(bob.locator("#paused-banner")).to_contain_text("pausiert")
    expect(host.locator("#paused-banner")).to_be_visible()
    expect(host.locator("#resume-btn")).to_be_visible()
    assert bob.locator("#pause-btn").count() == 0 and bob.locator("#resume-btn").count() == 0  # host only
    # No move counts while paused: the action bar's buttons say why, in each one's language.
    expect(host.locator("#btn-take")).to_have_attribute("title", "The host has paused the game.")
    expect(bob.locator("#btn-take")).to_have_attribute("title", "Das Spiel ist pausiert.")
    expect(host.locator("#btn-take")).to_have_attribute("aria-disabled", "true")
    stood = host.locator("#clock").inner_text()
    host.wait_for_timeout(1200)  # the countdown would tick meanwhile
    assert host.locator("#clock").inner_text() == stood
    bob.screenshot(path=str(shots / "pace-paused.png"))
    # "My games" says the game is paused, its time standing still; Bob's away is shown.
    mine = host.context.new_page()
    goto(mine, base + "/mine")
    expect(mine.locator(f".mine-item[data-code='{code}'] .mine-left.paused")).to_contain_text("Paused")
    expect(mine.locator(f".mine-item[data-code='{code}'] .mine-away")).to_contain_text(re.compile(r"Bob: away until \w{3} 06:00"))
    shown = mine.inner_text(f".mine-item[data-code='{code}'] .mine-left")
    # the same words as the table's clock (one formatter, duration.js): "Paused · 1 hr 59 min left"
    assert host.locator("#clock").inner_text() in shown, (shown, host.locator("#clock").inner_text())
    mine.wait_for_timeout(1200)
    assert mine.inner_text(f".mine-item[data-code='{code}'] .mine-left") == shown
    mine.screenshot(path=str(shots / "mine-paused.png"))
    mine.close()
    # Paused, nothing urges a choice: the seat to act, opening the page afresh, gets no dialog.
    drafter.reload()
    expect(drafter.locator("#paused-banner")).to_be_visible()
    drafter.wait_for_timeout(500)
    assert drafter.locator("#decision[open]").count() == 0 and drafter.locator(".actionbar.deciding").count() == 0
    with host.expect_response(lambda r: r.url.endswith("/resume")) as resp:
        host.click("#resume-btn")
    assert resp.value.status == 200, resp.value.text()
    expect(bob.locator("#paused-banner")).to_have_count(0)
    expect(host.locator("#pause-btn")).to_be_visible()
    expect(drafter.locator("#decision[open] .token-btn").first).to_be_visible()  # its decision again

    # Bob is back early: the away goes for both
    if bob.locator("#decision[open]").count():
        bob.keyboard.press("Escape")
    bob.click("#away-btn")
    bob.click("#away-clear")
    expect(host.locator("#pace .away")).to_have_count(0)
    # Bob closes his page: in a turn-based room that is how it is played. Only the host may let
    # a computer player take over, and the note says so (not "anyone at the table").
    bob.close()
    note = host.locator(".player[data-seat='1'] .handover-note")
    expect(note).to_have_text(re.compile(r"^Not connected, as is usual in a turn-based game\. As the host"))


def test_the_home_page_creates_a_turn_based_room(turn_server, new_page, shots):
    """The create form offers the turn-based times beside the live ones (in the page's
    language); a room made with one is turn-based from the start."""
    base = turn_server.base_url
    page = new_page(locale="de-DE")
    goto(page, base + "/")
    groups = page.eval_on_selector_all("#create-timer optgroup", "gs => gs.map(g => g.label)")
    assert groups == ["Live", "Rundenbasiert"]
    turn = page.eval_on_selector_all("#create-timer optgroup[data-pace='turn'] option", "os => os.map(o => o.text)")
    assert turn[-4:] == [f"{n} · Rundenbasiert" for n in ("1 Stunde", "8 Stunden", "1 Tag", "3 Tage")], turn
    page.fill("#create-name", "Hana")
    page.select_option("#create-timer", "turn:86400")
    page.screenshot(path=str(shots / "home-turn-based-de.png"))
    with page.expect_response(lambda r: r.url.endswith("/api/rooms") and r.request.method == "POST") as resp:
        page.click("#create-btn")
    assert resp.value.status == 201, resp.value.text()
    page.wait_for_url(re.compile(r"/r/\w+$"))
    code = page.url.rsplit("/", 1)[-1]
    room = page.evaluate(f"async () => (await fetch('/api/rooms/{code}')).json()")
    assert (room["pace"], room["turn_limit_s"]) == ("turn", 86400)
    expect(page.locator("#timer-select")).to_have_value("turn:86400")
