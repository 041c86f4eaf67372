""""My games" and the seat link in a real browser (issue 31): the page lists the player's rooms,
your decision first, and follows a move of another player live; a seat link opened in a second
browser context signs it in to the seat; after "Sign out other devices" that context watches."""
from __future__ import annotations

from playwright.sync_api import expect

from .helpers import choose_token, create_room, goto, join_room, my_seat, resize


def _started_seat_link(alice, base: str, code: str) -> str:
    """Alice (the host) starts the game and opens "Other device" → the seat link shown."""
    alice.click("#start-btn")
    alice.wait_for_selector("#players .player")
    if alice.locator("dialog#decision[open]").count():
        alice.keyboard.press("Escape")
    alice.click("#seat-link")
    alice.wait_for_selector("#seat-link-qr svg")
    url = alice.input_value("#seat-link-url")
    assert url.startswith(f"{base}/r/{code}#seat=")
    return url


def _mine_api(page) -> list[dict]:
    return page.evaluate("async () => (await fetch('/api/mine')).json()")


def _codes(page, group: str) -> list[str]:
    return page.eval_on_selector_all(f"#mine-{group} .mine-item", "els => els.map(e => e.dataset.code)")


def test_my_games_your_turn_first_and_live(e2e_server, new_page):
    base = e2e_server.base_url
    alice, bob = new_page(), new_page()
    code = create_room(alice, base, "Alice", public=False)
    join_room(bob, base, code, "Bob")
    alice.click("#start-btn")
    alice.wait_for_selector("#players .player")
    bob.wait_for_selector("#players .player")
    waiting = create_room(alice.context.new_page(), base, "Alice", public=False)
    mine = alice.context.new_page()
    goto(mine, base + "/mine")
    mine.wait_for_selector(".mine-item")
    entry = next(r for r in _mine_api(mine) if r["code"] == code)
    assert _codes(mine, "waiting") == [waiting]
    if entry["your_turn"]:
        # Alice's decision: her room is first, under "Your turn"; she chooses a token and it moves on.
        assert mine.eval_on_selector(".mine-item", "e => e.dataset.code") == code
        assert _codes(mine, "turn") == [code]
        mover, group = alice, "playing"
    else:
        assert _codes(mine, "playing") == [code] and not _codes(mine, "turn")
        mover, group = bob, "turn"
    mover.wait_for_selector("dialog[open] .token-btn")
    choose_token(mover, 0)
    # Live: the list follows the move without a reload, with the move's log line.
    mine.wait_for_function(f"[...document.querySelectorAll('#mine-{group} .mine-item')].some(e => e.dataset.code === {code!r})")
    assert mine.locator(f".mine-item[data-code=\"{code}\"] .mine-lastline").count() == 1
    if group == "turn":
        assert mine.eval_on_selector(".mine-item", "e => e.dataset.code") == code
    assert mine.locator("#mine-h").count() == 1 and mine.locator("section.mine-group h2").count() >= 2


def test_seat_link_signs_in_another_device_until_signed_out(e2e_server, new_page):
    base = e2e_server.base_url
    alice, bob = new_page(), new_page()
    code = create_room(alice, base, "Alice", public=False)
    join_room(bob, base, code, "Bob")
    # Already in the waiting room: "Other device" on one's own seat.
    bob.click("#seats .seat.mine #seat-link")
    bob.wait_for_selector("#seat-link-qr svg")
    assert bob.input_value("#seat-link-url").startswith(f"{base}/r/{code}#seat=")
    bob.keyboard.press("Escape")
    bob.wait_for_selector("#seat-link-dialog", state="detached")
    url = _started_seat_link(alice, base, code)
    for key in ["Tab"] * 7 + ["Shift+Tab"] * 7:  # the focus stays in the dialog both ways
        alice.keyboard.press(key)
        assert alice.evaluate("document.getElementById('seat-link-dialog').contains(document.activeElement)"), key
    # The second device: a fresh context with no cookie opens the link.
    phone = new_page()
    phone.goto(url)
    phone.wait_for_selector("#players .player.mine")
    assert my_seat(phone) == 0
    assert "#" not in phone.url, "the token stayed in the address bar"
    assert phone.evaluate("document.cookie") == ""  # HttpOnly: no script reads the token
    # Alice's second tab in the same browser shares the cookie jar.
    tab = alice.context.new_page()
    goto(tab, f"{base}/r/{code}")
    tab.wait_for_selector("#players .player.mine")
    sockets: list = []
    tab.on("websocket", lambda ws: sockets.append(ws.url))
    # Sign out other devices: the phone watches, Alice keeps her seat on this device.
    alice.click("#seat-signout")
    phone.wait_for_selector("#players .player.mine", state="detached")
    alice.wait_for_selector("#seat-link-dialog", state="hidden")
    alice.wait_for_selector("#players .player.mine")
    assert my_seat(alice) == 0
    # The other tab lost the old token's seat, then found the new cookie and connected again as it.
    tab.wait_for_selector(".toast.error")
    for _ in range(100):  # a new room socket (with the new cookie), not the old one's spectator view
        if any("/ws/rooms/" in u for u in sockets):
            break
        tab.wait_for_timeout(100)
    assert any("/ws/rooms/" in u for u in sockets), sockets
    tab.wait_for_selector("#players .player.mine")
    assert my_seat(tab) == 0
    phone.reload()
    phone.wait_for_selector("#players .player")
    assert phone.locator("#players .player.mine").count() == 0
    # The old link no longer works: opened again, it says so and watches.
    stale = new_page()
    stale.goto(url)
    stale.wait_for_selector(".toast.error")
    assert "no longer" in stale.inner_text(".toast.error")
    stale.wait_for_selector("#players .player")
    assert stale.locator("#players .player.mine").count() == 0


def test_my_games_reads_on_a_phone_and_in_german(e2e_server, new_page, shots):
    """At 360 px and at 1366 px, English and German: no sideways scrolling, the headings a screen
    reader jumps by (h1, one h2 per group, an h3 per room), unread chat marked until the room
    page showed it. Screenshots: my-games-{en,de}-{phone,desktop}.png."""
    base = e2e_server.base_url
    for locale, heading, unread in (("en-US", "My games", "New chat messages"),
                                    ("de-DE", "Meine Spiele", "Neue Chatnachrichten")):
        for name, viewport in (("phone", {"width": 360, "height": 740}), ("desktop", {"width": 1366, "height": 768})):
            alice, bob = new_page(viewport=viewport, locale=locale), new_page()
            code = create_room(alice, base, "Alice", public=False)
            join_room(bob, base, code, "Bartholomew Longname")
            bob.wait_for_selector("#chat-input")
            bob.fill("#chat-input", "see you tomorrow")
            bob.press("#chat-input", "Enter")
            bob.wait_for_selector(".chat-msg")
            alice.click("#start-btn")
            alice.wait_for_selector("#players .player")
            mine = alice.context.new_page()
            goto(mine, base + "/mine")
            mine.wait_for_selector(".mine-item")
            mine.wait_for_function("document.querySelector('#mine-h').textContent.includes(%r)" % heading)
            item = mine.locator(f'.mine-item[data-code="{code}"]')
            # Alice's room page showed the message (it is open in her context): not unread.
            alice.wait_for_function("() => localStorage.getItem('osaka_chat_' + document.body.dataset.code) !== null")
            mine.reload()
            mine.wait_for_selector(f'.mine-item[data-code="{code}"]')
            assert item.locator(".unread").count() == 0
            mine.evaluate(f"() => localStorage.removeItem('osaka_chat_{code}')")
            mine.reload()
            mine.wait_for_selector(f'.mine-item[data-code="{code}"] .unread')
            assert unread in item.inner_text()
            sw, iw = mine.evaluate("[document.documentElement.scrollWidth, innerWidth]")
            assert sw <= iw, (name, locale, sw, iw)
            assert mine.locator("h1").count() == 1 and mine.locator("h2").count() >= 1
            assert mine.locator(f'.mine-item[data-code="{code}"] h3').count() == 1
            mine.screenshot(path=str(shots / f"my-games-{locale[:2]}-{name}.png"), full_page=True)


def test_a_seat_link_never_takes_this_browsers_other_seat_without_asking(e2e_server, new_page, shots):
    """Bob's browser holds seat 1; he opens Alice's seat link in it. The page asks first
    (seat_link_other_seat) in its own dialog (ask.js, not the browser's confirm), German too:
    "Keep Bob" (the focused answer) and Escape keep his seat, "Take the link's seat" takes it."""
    base = e2e_server.base_url
    alice, bob = new_page(), new_page(locale="de-DE")
    code = create_room(alice, base, "Alice", public=False)
    join_room(bob, base, code, "Bob")
    url = _started_seat_link(alice, base, code)
    native: list[str] = []

    def opened():
        tab = bob.context.new_page()
        tab.on("dialog", lambda d: (native.append(d.message), d.dismiss()))
        tab.goto(url)
        expect(tab.locator("#claim-ask")).to_be_visible()
        return tab

    tab = opened()
    expect(tab.locator("#claim-ask-text")).to_contain_text("schon als Bob")
    expect(tab.locator("#claim-ask-no")).to_have_text("Bob behalten")
    expect(tab.locator("#claim-ask-no")).to_be_focused()
    tab.screenshot(path=str(shots / "seat-link-ask-de.png"))
    tab.click("#claim-ask-no")
    tab.wait_for_selector("#players .player.mine")
    expect(tab.locator("#claim-ask")).to_have_count(0)
    assert my_seat(tab) == 1 and "#" not in tab.url
    esc = opened()
    esc.keyboard.press("Escape")
    esc.wait_for_selector("#players .player.mine")
    assert my_seat(esc) == 1
    again = opened()
    again.click("#claim-ask-yes")
    for _ in range(50):
        if again.locator("#players .player.mine").count() and my_seat(again) == 0:
            break
        again.wait_for_timeout(100)
    assert my_seat(again) == 0, "the link's seat, after he said yes"
    assert native == [], native


def test_my_games_is_reachable_from_the_table_on_a_laptop(e2e_server, new_page, shots):
    """At 1280 px the table's top bar shows "My games" as a round glyph with its name for
    screen readers and as a tooltip; wide, the words; on a phone it is left out."""
    base = e2e_server.base_url
    page = new_page()
    create_room(page, base, "Alice", public=False)
    link = page.locator(".topbar .mine-link")
    for width, words in ((1280, False), (1024, False), (1440, True)):
        resize(page, {"width": width, "height": 800})  # the top bar's steps (fit.js) taken
        assert link.is_visible(), width
        assert link.get_attribute("aria-label") == "My games" and link.get_attribute("title") == "My games"
        assert page.locator(".topbar .mine-text").is_visible() == words, width
        assert page.locator(".topbar .mine-q").is_visible() == (not words), width
    page.set_viewport_size({"width": 1280, "height": 800})
    page.screenshot(path=str(shots / "room-topbar-1280.png"))
    resize(page, {"width": 360, "height": 740})
    assert not link.is_visible()
    page.set_viewport_size({"width": 1280, "height": 800})
    link.click()
    page.wait_for_url(f"{base}/mine")
