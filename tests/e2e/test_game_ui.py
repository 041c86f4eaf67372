"""Whole games through the real server and a real browser (Playwright + Debian Chromium):
create a room, join from other browser contexts, start, play turns with clicks only, reload
mid-game, watch as a spectator, and check that each page shows only its own hand (R-info)
and that names are shown as text, never as HTML."""
from __future__ import annotations

import re

from .conftest import DESKTOP, PHONE
from .helpers import (goto, EVIL_NAME, card_value, choose_token, cost_of, create_room, do_buy_suggest,
                      do_reserve, do_take, can_reserve, hand, insure_something, is_minimal,
                      join_room, log_count, market, minimal_payment, my_seat, play_to_the_end,
                      wait_acting, wait_log_grows)


def _check_hands(pages) -> None:
    """Each seat's page shows its own hand; the hands are disjoint and their sizes agree with
    the public hand size every other page shows for that seat (R-info-1/2)."""
    seen: set[int] = set()
    for p in pages:
        ids = hand(p)
        assert not seen & set(ids), "a card shows in two hands"
        seen |= set(ids)
        seat = my_seat(p)
        for other in pages:
            if other is p:
                continue
            text = other.locator(f'.player[data-seat="{seat}"] .handsize').inner_text()
            shown = int(re.search(r"(\d+) cards? in hand", text).group(1))
            assert shown == len(ids), (seat, text, ids)
            assert other.locator("#hand").count() == 1
        assert p.locator(".player.mine").count() == 1


def _buy_manually(page) -> list[int]:
    """Select payment cards by hand: first an over-payment and a payment short of the cost
    (each refused with its reason), then a minimal one (cost against selection shown, Buy
    enabled)."""
    cost = cost_of(page)
    ids = hand(page)
    total = sum(map(card_value, ids))
    if total - min(map(card_value, ids)) >= cost:
        for cid in ids:
            page.click(f'#hand .card[data-card="{cid}"]')
        assert page.is_disabled("#btn-buy")
        assert "Too much" in page.inner_text("#buy-why")
        page.click("#btn-clear")
    pay = minimal_payment(ids, cost)
    if len(pay) > 1:                 # a minimal payment without any of its cards is short
        for cid in pay[1:]:
            page.click(f'#hand .card[data-card="{cid}"]')
        assert page.is_disabled("#btn-buy")
        assert "does not cover the cost" in page.inner_text("#buy-why")
        page.click("#btn-clear")
    for cid in pay:
        page.click(f'#hand .card[data-card="{cid}"]')
    sel = sum(map(card_value, pay))
    assert page.inner_text("#paycount") == f"selected {sel} / cost {cost}"
    assert page.is_enabled("#btn-buy")
    before = log_count(page)
    page.click("#btn-buy")
    wait_log_grows(page, before)
    return pay


def test_three_players_play_through_the_ui(e2e_server, new_page, shots):
    base = e2e_server.base_url
    alice = new_page()
    home = alice
    goto(home, base + "/")
    home.wait_for_selector("#create-form")
    home.screenshot(path=str(shots / "home-desktop.png"))
    home.set_viewport_size(PHONE)
    home.screenshot(path=str(shots / "home-phone.png"), full_page=True)
    home.set_viewport_size(DESKTOP)

    code = create_room(alice, base, "Alice")
    bob = new_page()
    join_room(bob, base, code, "Bob")
    carol = new_page()
    join_room(carol, base, code, EVIL_NAME)

    # The waiting room: seats with names, connected dots, the QR code, Start for the host only.
    alice.wait_for_function("document.querySelectorAll('.seat:not(.empty)').length === 3")
    assert alice.locator(".seat .dot.on").count() == 3
    assert alice.locator("img.qr").evaluate("i => i.complete && i.naturalWidth > 0")
    assert bob.locator("#start-btn").count() == 0
    assert alice.is_enabled("#start-btn")
    alice.screenshot(path=str(shots / "room-desktop.png"))
    alice.set_viewport_size(PHONE)
    alice.screenshot(path=str(shots / "room-phone.png"), full_page=True)
    alice.set_viewport_size(DESKTOP)

    # A visitor who does not join watches as a spectator.
    spectator = new_page()
    goto(spectator, f"{base}/r/{code}")
    spectator.wait_for_selector("#join-name")

    alice.click("#start-btn")
    players = [alice, bob, carol]
    for p in players + [spectator]:
        p.wait_for_selector("#players .player")

    # Token draft, then turns: take, reserve, buy by hand, buy with the suggest button.
    goals = ["take", "reserve", "buy_manual", "buy_suggest"]
    done: list[str] = []
    reloaded = False
    for step in range(80):
        acting = wait_acting(players)
        assert acting is not None, "the game ended before the UI checks were done"
        page, phase = acting
        if phase == "draft":
            choose_token(page, step)
            continue
        if phase == "insurance":
            insure_something(page, shot=str(shots / ("insurance-3p-%s" % page.viewport_size["width"])))
            continue
        affordable = sum(map(card_value, hand(page))) >= cost_of(page) and any(not m["other"] for m in market(page))
        todo = [g for g in goals if g not in done]
        if not todo:
            break
        if "buy_manual" in todo and affordable:
            _buy_manually(page); done.append("buy_manual")
        elif "buy_suggest" in todo and "buy_manual" in done and affordable:
            do_buy_suggest(page); done.append("buy_suggest")
        elif "reserve" in todo and "take" in done and can_reserve(page):
            cid = do_reserve(page); done.append("reserve")
            # Every page sees the Reservation piece on that Farm card.
            for p in players + [spectator]:
                p.wait_for_selector(f'#farm .card[data-card="{cid}"] .piece, #market .card[data-card="{cid}"] .piece')
        else:
            do_take(page)
            if "take" not in done:
                done.append("take")
        if not reloaded and len(done) >= 2:
            _check_hands(players)
            # A reload lands back in the same seat with the same hand (the cookie does it).
            seat, ids = my_seat(bob), sorted(hand(bob))
            bob.reload()
            bob.wait_for_selector(".player.mine")
            bob.wait_for_function("document.querySelectorAll('#log li').length > 3")
            assert my_seat(bob) == seat
            assert sorted(hand(bob)) == ids
            reloaded = True
    assert set(done) == set(goals), done
    assert reloaded
    for p in players + [spectator]:
        p.wait_for_function("document.querySelectorAll('#log li').length > 10")
    _check_hands(players)

    # The log tells what happened, in words.
    log = alice.inner_text("#log")
    for words in ("took", "reserved", "bought", "Achievement token", "starts with"):
        assert words in log, words

    # The spectator sees the table but no hand and no buttons to act: where the players'
    # buttons are, a note says they are watching.
    assert spectator.locator("#hand").count() == 0
    assert spectator.locator(".player.mine").count() == 0
    assert spectator.locator("#players .player").count() == 3
    assert spectator.locator("#actionbar .btn").count() == 0
    assert spectator.inner_text("#actionbar") == "You are watching as a spectator."

    # The HTML-looking name is shown as typed, on every page, and never runs.
    for p in players + [spectator]:
        names = p.eval_on_selector_all(".pl-name", "els => els.map(e => e.textContent)")
        assert EVIL_NAME in names
        assert p.locator(".pl-name svg, .pl-name b, .lname svg, .lname b").count() == 0
        assert not p.dialogs

    # Screenshots of the table: the player whose turn it is, desktop and phone.
    page, _ = wait_acting(players)
    page.screenshot(path=str(shots / "table-desktop.png"))
    page.screenshot(path=str(shots / "table-desktop-full.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(shots / "table-phone.png"))
    page.screenshot(path=str(shots / "table-phone-full.png"), full_page=True)
    spectator.set_viewport_size(PHONE)
    spectator.screenshot(path=str(shots / "table-spectator-phone.png"), full_page=True)


def test_a_game_against_a_bot_reaches_the_result_screen(e2e_server, new_page, shots):
    """One person against an easy bot, playing with the suggest button, until the winners."""
    base = e2e_server.base_url
    me = new_page()
    create_room(me, base, "Solo", public=False)
    me.select_option("#bot-level", "easy")
    me.click("#add-bot")
    me.wait_for_function("document.querySelectorAll('.seat:not(.empty)').length === 2")
    # A computer player is named by its level in the page's language, once (no doubled badge).
    assert "Computer (easy)" in me.inner_text("#seats")
    assert me.locator("#seats .badge.bot").count() == 0
    me.click("#start-btn")
    me.wait_for_selector("#players .player")
    play_to_the_end([me], insurance_shot=str(shots / "insurance-desktop"))
    result = me.locator(".result")
    result.wait_for()
    text = result.inner_text()
    assert "Game over" in text and ("Winner" in text)
    assert me.locator(".result > .score tbody tr").count() == 2
    log = me.inner_text("#log")
    assert "Game over" in log
    # Sales read as sentences: "Solo sold 2 ◆ red goods ◆3 ◆2: price 3 × 2 = 6 → 10 → 2 VP."
    lines = me.eval_on_selector_all("#log .turn-lines > li", "els => els.map(e => e.textContent)")
    sales = [line for line in lines if " sold " in line]
    assert sales, log
    for line in sales:
        m = re.search(r"sold (\d+) . \w+ goods? .*: price (\d+) × (\d+) = (\d+) → (\d+) → (\d+) VP", line)
        assert m, line
        count, price, times, raw, value, vp = map(int, m.groups())
        assert count == times and raw == price * count and value >= raw and value % 5 == 0 and vp == value // 5, line
    me.screenshot(path=str(shots / "result-desktop.png"))
    me.set_viewport_size(PHONE)
    me.screenshot(path=str(shots / "result-phone.png"), full_page=True)
