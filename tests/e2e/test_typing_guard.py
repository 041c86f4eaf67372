"""Keys typed into the chat never act in the game (found by trying to break the one-tree room
page): when the game starts under a person typing in the chat, the chat's box keeps the focus
(a new box, beside the log) and the text; a decision that comes while they type waits, put
aside as with Escape ("Decide…", key D), so a space meant for the text never picks a token.
And the host's Start says, before the click, which free seat must be filled first."""
from __future__ import annotations

import time

from playwright.sync_api import expect

from .helpers import choose_token, create_room, join_room


def _decision(page) -> str:
    return page.evaluate("document.body.dataset.decision || ''")


def test_a_decision_that_comes_while_typing_waits_and_the_chat_keeps_the_focus(e2e_server, new_page):
    base = e2e_server.base_url
    host = new_page()
    code = create_room(host, base, "Hana", public=False)
    guest = new_page()
    join_room(guest, base, code, "Gus")
    host.click("#chat-input")
    host.keyboard.type("good ", delay=10)
    # The host's other device starts the game: this page's focus stays in the chat.
    assert host.request.post(f"{base}/api/rooms/{code}/start").status == 200
    host.wait_for_selector("#hand")
    expect(host.locator("#chat-input")).to_be_focused()
    expect(host.locator("#chat-input")).to_have_value("good ")
    # Whoever drafts first: the guest's token, then the host's decision comes while typing.
    deadline = time.monotonic() + 20
    while _decision(host) != "token_draft":
        assert time.monotonic() < deadline, "the host's token draft never came"
        if _decision(guest) == "token_draft":
            choose_token(guest, 0)
        time.sleep(0.1)
    host.keyboard.type(" luck all", delay=10)
    expect(host.locator("#chat-input")).to_have_value("good  luck all")
    expect(host.locator("#chat-input")).to_be_focused()
    assert host.locator("dialog[open]").count() == 0
    assert _decision(host) == "token_draft"  # the spaces picked no token
    # "Decide…" opens the decision put aside; a token is then chosen as usual.
    host.click("#btn-decide")
    expect(host.locator("dialog[open] .token-btn")).to_have_count(4)
    choose_token(host, 1)
    assert _decision(host) != "token_draft"


def test_start_names_the_free_seat_to_fill_first(e2e_server, new_page):
    base = e2e_server.base_url
    host = new_page()
    code = create_room(host, base, "Hana", public=False)
    for _ in range(3):
        before = host.locator("#seats .seat:not(.empty)").count()
        host.click("#add-bot")
        expect(host.locator("#seats .seat:not(.empty)")).to_have_count(before + 1)
    start = host.locator("#start-btn")
    expect(start).not_to_have_attribute("aria-disabled", "true")
    # The computer player of the second seat goes: seat 2 must be filled before the start.
    assert host.request.delete(f"{base}/api/rooms/{code}/seats/1").status in (200, 204)
    expect(start).to_have_attribute("aria-disabled", "true")
    expect(host.locator("#start-hint")).to_have_text(
        "Seat 2 is free: the next player who joins or a computer player takes it.")
    host.click("button.lang-btn[data-lang=de]")
    expect(host.locator("#start-hint")).to_have_text(
        "Platz 2 ist frei: Wer als Nächstes beitritt oder ein Computerspieler setzt sich dorthin.")
    # A computer player takes the lowest free seat; then the game may start.
    host.click("#add-bot")
    expect(start).not_to_have_attribute("aria-disabled", "true")
