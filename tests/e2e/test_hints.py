"""Hints in the browser (docs/ui.md "Hints"): a host creates a room with hints allowed against a
computer player, asks "What would the computer do?" with the keyboard, sees the suggestion
marked and its reason (read out too), plays it, and the log (and, once, the end screen) shows
that a hint was used. English and German, a desktop and a 360 px phone; real server, real
Chromium."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP
from .helpers import decide, goto, log_count, play_to_the_end, wait_acting, wait_log_grows

SMALL_PHONE = {"width": 360, "height": 740}
WORDS = {
    "en": {"ask": "What would the computer do?", "says": "The computer would", "log": "asked the computer for a hint",
           "assisted": "assisted: 2 hints", "allowed": "Hints allowed"},
    "de": {"ask": "Was würde der Computer tun?", "says": "Der Computer würde",
           "log": "hat den Computer um einen Tipp gebeten", "assisted": "mit Hilfe: 2 Tipps", "allowed": "Tipps erlaubt"},
}
CASES = [("en", DESKTOP, "desktop", True), ("de", SMALL_PHONE, "phone", False), ("en", SMALL_PHONE, "phone", False)]


@pytest.mark.parametrize("lang,viewport,size,to_the_end", CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_a_hint_is_asked_marked_played_and_shown_to_all(e2e_server, new_page, shots, lang, viewport, size,
                                                         to_the_end):
    w = WORDS[lang]
    locale = "de-DE" if lang == "de" else "en-US"
    page = new_page(viewport=viewport, locale=locale, has_touch=size == "phone", is_mobile=size == "phone")
    goto(page, e2e_server.base_url + "/")
    page.fill("#create-name", "Ann")
    page.check("input[name=vis][value=private]")
    page.check("#create-hints")
    page.click("#create-btn")
    page.wait_for_selector(".seat.mine")
    expect(page.locator("#hints-check")).to_be_checked()
    page.select_option("#bot-level", "easy")
    page.click("#add-bot")
    expect(page.locator("#seats .seat:not(.empty)")).to_have_count(2)
    page.click("#start-btn")

    acting = wait_acting([page])
    assert acting is not None
    _, phase = acting
    where = "dlg" if phase in ("draft", "insurance") else "bar"
    ask = page.locator(f"#btn-hint-{where}")
    expect(ask).to_have_text(re.compile(re.escape(w["ask"])))
    before = log_count(page)
    ask.focus()
    page.keyboard.press("Enter")  # keyboard accessible
    box = page.locator(f"#hint-{where}")
    expect(box).to_contain_text(w["says"], timeout=15000)
    expect(box).to_have_attribute("role", "status")
    assert page.locator(".hinted").count() >= 1, "the suggestion is marked on the table"
    expect(page.locator("#announce")).to_contain_text(w["says"])
    wait_log_grows(page, before)
    expect(page.locator("#log")).to_contain_text(w["log"])
    page.screenshot(path=str(shots / f"hints-{lang}-{size}.png"))

    played = log_count(page)
    page.locator(f"#btn-hint-play-{where}").click()
    wait_log_grows(page, played)
    expect(page.locator(f"#hint-{where}")).to_have_count(0)  # the decision is made: its hint is gone
    if to_the_end:  # a second hint, on a turn: marked on the Market or the hand, played from the bar
        for step in range(40):
            _, phase = wait_acting([page])
            if phase == "turn":
                break
            decide(page, phase, step)
        before = log_count(page)
        page.click("#btn-hint-bar")
        expect(page.locator("#hint-bar")).to_contain_text(w["says"], timeout=15000)
        assert page.locator("#market .card.hinted, #hand .card.hinted, #farm .card.hinted").count() >= 1 \
            or page.locator("#btn-pass").count()
        wait_log_grows(page, before)
        page.screenshot(path=str(shots / f"hints-turn-{lang}-{size}.png"))
        played = log_count(page)
        page.click("#btn-hint-play-bar")
        wait_log_grows(page, played)
        play_to_the_end([page])
        expect(page.locator(".result .badge.assisted")).to_have_text(w["assisted"])
        page.screenshot(path=str(shots / f"hints-result-{lang}-{size}.png"))


def test_the_lobby_and_the_waiting_room_say_hints_allowed(e2e_server, new_page):
    host, guest = new_page(locale="de-DE"), new_page(locale="de-DE")
    goto(host, e2e_server.base_url + "/")
    host.fill("#create-name", "Ann")
    host.check("#create-hints")
    host.click("#create-btn")
    host.wait_for_selector(".seat.mine")
    code = host.url.rsplit("/", 1)[1]
    goto(guest, e2e_server.base_url + "/")
    item = guest.locator(".room-item", has_text=code)
    expect(item.locator(".room-hints")).to_have_text(WORDS["de"]["allowed"])
    goto(guest, f"{e2e_server.base_url}/r/{code}")
    expect(guest.locator("#hints-text")).to_have_text(WORDS["de"]["allowed"])
    host.uncheck("#hints-check")  # the host changes it in the waiting room: everyone sees it
    expect(guest.locator("#hints-text")).to_have_text("Keine Tipps")
