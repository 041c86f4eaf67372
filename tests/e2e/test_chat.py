"""The room's chat in the browser (issue 12): a hostile message (HTML and script as text) is
shown as text to everyone, a spectator's message is marked, a player mutes another for
themselves (remembered after a reload), and a phone counts the messages not yet seen."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import PHONE
from .helpers import create_room, goto, join_room

EVIL = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script><b>bold</b>'


def aside(page) -> None:
    """Put the decision dialog aside (Escape), if one is open: it is modal."""
    if page.locator("dialog[open]").count():
        page.keyboard.press("Escape")
        expect(page.locator("dialog[open]")).to_have_count(0)


def say(page, text: str) -> None:
    aside(page)
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


def test_chat_shows_hostile_text_as_text_and_mutes(e2e_server, new_page, shots):
    base = e2e_server.base_url
    host = new_page()
    code = create_room(host, base, "Hana", public=False)
    guest = new_page()
    join_room(guest, base, code, "Gus")
    watcher = new_page()
    goto(watcher, f"{base}/r/{code}")
    host.click("#start-btn")
    for p in (host, guest, watcher):
        p.wait_for_selector("#players .player")
        p.wait_for_selector("#chat-list")
    say(host, EVIL)
    for p in (host, guest, watcher):
        msg = p.locator("#chat-list .chat-msg").last
        expect(msg.locator(".chat-text")).to_have_text(EVIL)
        assert p.locator("#chat-list img, #chat-list script, #chat-list .chat-text b").count() == 0
        assert p.evaluate("window.pwned === undefined")
        assert not p.dialogs
    # A spectator chats under a name and is marked as such.
    aside(watcher)
    watcher.fill("#chat-name", "Zoe")
    say(watcher, "Good luck!")
    line = guest.locator("#chat-list .chat-msg.spect").last
    expect(line).to_contain_text("Zoe")
    expect(line.locator(".badge")).to_have_text("spectator")
    # The name is typed once: the next message goes out under it without typing it again, and
    # one's own message offers no Mute.
    expect(watcher.locator("#chat-name")).to_have_value("Zoe")
    say(watcher, "Who leads?")
    expect(guest.locator("#chat-list .chat-msg.spect", has_text="Who leads?")).to_contain_text("Zoe")
    expect(watcher.locator("#chat-list .chat-msg", has_text="Who leads?").get_by_role("button")).to_have_count(0)
    guest.screenshot(path=str(shots / "chat-desktop.png"))
    # Gus mutes Hana: her messages are gone for him only, also after a reload.
    aside(guest)
    guest.locator("#chat-list .chat-msg", has_text=EVIL).get_by_role("button", name="Mute").click()
    expect(guest.locator("#chat-list .chat-msg", has_text=EVIL)).to_have_count(0)
    expect(guest.locator("#chat-muted")).to_contain_text("Hana")
    say(host, "still there?")
    expect(watcher.locator("#chat-list .chat-msg").last).to_contain_text("still there?")
    expect(guest.locator("#chat-list")).not_to_contain_text("still there?")
    expect(host.locator("#chat-list .chat-msg", has_text=EVIL)).to_have_count(1)
    guest.reload()
    guest.wait_for_selector("#chat-list .chat-msg")
    aside(guest)
    expect(guest.locator("#chat-list .chat-msg", has_text="Good luck!")).to_have_count(1)
    expect(guest.locator("#chat-list")).not_to_contain_text("still there?")
    guest.locator("#chat-muted").get_by_role("button").click()
    expect(guest.locator("#chat-list .chat-msg", has_text="still there?")).to_have_count(1)
    # The host closes the chat to spectators.
    aside(host)
    expect(host.locator("#chat-spectators")).to_be_checked()
    host.uncheck("#chat-spectators")
    expect(watcher.locator(".chatbox")).to_contain_text("closed the chat to spectators")
    expect(watcher.locator("#chat-input")).to_have_count(0)


def test_phone_counts_unread_messages(e2e_server, new_page, shots):
    base = e2e_server.base_url
    host = new_page()
    code = create_room(host, base, "Hana", public=False)
    phone = new_page(viewport=PHONE)
    join_room(phone, base, code, "Pia")
    host.click("#start-btn")
    phone.wait_for_selector("#players .player")
    phone.evaluate("window.scrollTo(0, 0)")
    jump = phone.locator("#chat-jump")
    expect(jump).to_be_visible()
    say(host, "one")
    say(host, "two")
    expect(jump).to_have_text("Chat (2)")
    phone.screenshot(path=str(shots / "chat-phone-unread.png"))
    aside(phone)
    phone.evaluate("window.scrollTo(0, 0)")
    jump.click()
    expect(phone.locator("#chat-input")).to_be_focused()
    expect(jump).to_have_text("Chat")


@pytest.mark.parametrize("locale, wait, now", [
    ("en-US", r"Too many messages from your seat .* you can send it in \d+ seconds?\.",
     "You can send your message now."),
    ("de-DE", r"Zu viele Nachrichten von deinem Platz .* Du kannst ihn in \d+ Sekunden? senden\.",
     "Du kannst deine Nachricht jetzt senden."),
], ids=["en", "de"])
def test_the_chat_limit_keeps_the_text_and_says_when(e2e_server, new_page, shots, locale, wait, now):
    """Over CHAT_LIMIT (5 in 10 s per seat): the refused message stays in the box, the line
    under it names the seat's limit and counts down to when it can go, no toast covers the
    chat, and once the wait is over the same text is sent."""
    page = new_page(locale=locale)
    create_room(page, e2e_server.base_url, "Hana", public=False)
    page.wait_for_selector("#chat-input")
    for i in range(5):
        say(page, f"quick {i}")
        expect(page.locator("#chat-list .chat-msg", has_text=f"quick {i}")).to_have_count(1)
        expect(page.locator("#chat-input")).to_have_value("")
    say(page, "the sixth")
    note = page.locator("#chat-note")
    expect(note).to_have_text(re.compile(wait))
    expect(page.locator("#chat-input")).to_have_value("the sixth")
    expect(page.locator("#toasts .toast")).to_have_count(0)
    expect(page.locator("#chat-list .chat-msg", has_text="the sixth")).to_have_count(0)
    page.locator(".chatbox").screenshot(path=str(shots / f"chat-limit-{locale[:2]}.png"))
    expect(note).to_have_text(now, timeout=15000)
    page.press("#chat-input", "Enter")
    expect(page.locator("#chat-list .chat-msg", has_text="the sixth")).to_have_count(1)
    expect(page.locator("#chat-input")).to_have_value("")
    expect(note).to_have_text("")
