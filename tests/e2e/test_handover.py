"""The offer to let a computer player take over follows presence (issue 30): while a player is
away the host's page offers it with a note saying why and for whom, in English and German,
also once the wait is over; the moment the player is back (its presence frame), the offer goes,
even on that player's own decision, which is not idle from before it left."""
from __future__ import annotations

import time

from playwright.sync_api import expect

from .helpers import choose_token, create_room, goto, join_room, my_seat


def test_the_offer_names_the_player_and_goes_the_moment_they_are_back(e2e_server_quick_handover, new_page, shots):
    base = e2e_server_quick_handover.base_url  # HANDOVER_AFTER_S=5, no turn timer
    hal = new_page()
    code = create_room(hal, base, "Hal")
    ivy = new_page()
    join_room(ivy, base, code, "Ivy")
    hal.click("#start-btn")
    for p in (hal, ivy):
        p.wait_for_selector(".player.mine")
    seat = my_seat(ivy)
    # The draft reaches Ivy's decision (Hal chooses when it is his).
    deadline = time.monotonic() + 30
    while "Ivy" not in hal.inner_text("#turn"):
        assert time.monotonic() < deadline, "the draft never reached Ivy"
        if hal.locator("dialog[open] .token-btn").count():
            choose_token(hal, 0)
        time.sleep(0.1)
    panel = hal.locator(f'.player[data-seat="{seat}"]')
    ivy_ctx = ivy.context
    ivy.close()  # the tab is closed; the browser keeps her seat cookie
    button = panel.get_by_role("button", name="Let a computer player take over for Ivy")
    expect(button).to_be_visible()
    expect(panel.locator(".handover-note")).to_have_text(
        "Not connected. As the host you can let a computer player take over now.")
    # After HANDOVER_AFTER_S the control still says what it is for.
    expect(panel.locator(".handover-note")).to_have_text(
        "Ivy has not been connected for 5 s or more: anyone at the table can let a computer player take over.",
        timeout=15000)
    expect(panel.get_by_label("Level")).to_have_value("normal")
    hal.screenshot(path=str(shots / "handover-offer-after-wait.png"))
    hal.click(".lang-btn[data-lang=de]")
    expect(panel.get_by_role("button", name="Computerspieler für Ivy übernehmen lassen")).to_be_visible()
    expect(panel.locator(".handover-note")).to_have_text(
        "Ivy ist seit 5 s oder länger nicht verbunden: jeder am Tisch kann einen Computerspieler übernehmen lassen.")
    expect(panel.get_by_label("Stufe")).to_be_visible()
    hal.screenshot(path=str(shots / "handover-offer-after-wait-de.png"))
    hal.click(".lang-btn[data-lang=en]")
    time.sleep(1)  # away well past HANDOVER_AFTER_S on her own decision
    # Ivy opens the room again: her decision is back, and the host's offer goes at once.
    back = ivy_ctx.new_page()
    goto(back, f"{base}/r/{code}")
    expect(back.locator("body")).to_have_attribute("data-decision", "token_draft")
    expect(panel.locator(".dot.on")).to_have_count(1)
    expect(panel.locator(".handover")).to_have_count(0, timeout=1000)
    hal.screenshot(path=str(shots / "handover-gone-on-return.png"))
    # It stays gone while she has been back less than HANDOVER_AFTER_S.
    time.sleep(2)
    assert panel.locator(".handover").count() == 0
