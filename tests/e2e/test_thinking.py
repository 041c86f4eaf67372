"""A computer player's thinking time on the table (issue 32, docs/ui.md "A computer player
thinks"): while it is a computer player's decision, its row among the players says "thinking…
N s" (de "denkt nach… N s") on the line under its name, counting up in the browser from the
decision's start (the state frame's `clock`), not read out every second (no live region), and
gone once it has moved. The server
here makes its computer players wait 3 s before each move (BOT_DELAY_S), so the count is seen
to run. English and German; the screenshot is kept (and copied to /tmp/thinking-<lang>.png)."""
from __future__ import annotations

import re
import shutil

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE, E2EServer
from .helpers import decide, goto, phase_of

WORDS = {"en": "thinking…", "de": "denkt nach…"}


@pytest.fixture(scope="module")
def slow_bots_server(tmp_path_factory):
    """A server whose computer players wait 3 s before each move (the thinking time to see)."""
    srv = E2EServer(tmp_path_factory.mktemp("e2e-thinking"), env={"BOT_DELAY_S": "3"})
    yield srv
    srv.stop()


def _no_live_region_around(page, selector: str) -> bool:
    """Whether neither the element nor any of its ancestors is a live region (a screen reader
    would read every tick of one)."""
    return page.eval_on_selector(selector, """el => { for (let e = el; e; e = e.parentElement) {
        if (e.getAttribute('aria-live') || ['log', 'status', 'timer', 'alert'].includes(e.getAttribute('role')))
          return false; } return true; }""")


@pytest.mark.parametrize("lang,viewport", [("en", DESKTOP), ("de", PHONE)], ids=["en-desktop", "de-phone"])
def test_a_computer_players_thinking_time_counts_beside_its_seat(slow_bots_server, new_page, shots, lang,
                                                                   viewport):
    page = new_page(viewport=viewport, locale="de-DE" if lang == "de" else "en-US")
    goto(page, slow_bots_server.base_url + "/")
    page.fill("#create-name", "Ann")
    page.check("input[name=vis][value=private]")
    page.click("#create-btn")
    page.wait_for_selector(".seat.mine")
    page.select_option("#bot-level", "hard")
    page.click("#add-bot")
    expect(page.locator("#seats .seat:not(.empty)")).to_have_count(2)
    page.click("#start-btn")
    page.wait_for_selector("#players .player")
    bot = page.locator("#players .player:not(.mine)")
    thinking = bot.locator(".badge.thinking")
    # Ann decides when it is hers, until it is the computer player's
    for step in range(4):
        page.wait_for_function("() => document.body.dataset.pending !== '1'")
        phase = phase_of(page)
        if phase is None and bot.locator(".acting-badge").count():
            break
        if phase:
            decide(page, phase, step)
        else:
            page.wait_for_timeout(200)
    expect(thinking).to_be_visible()
    count = re.compile(re.escape(WORDS[lang]) + r" ([0-9]) s")
    expect(thinking).to_have_text(count)
    # it counts up in the browser (the computer player moves after 3 s here)
    expect(thinking).to_have_text(re.compile(re.escape(WORDS[lang]) + r" [2-9] s"), timeout=5000)
    assert _no_live_region_around(page, "#players .player:not(.mine) .badge.thinking")
    assert not page.locator("#players .player.mine .badge.thinking").count()
    path = shots / f"thinking-{lang}.png"
    page.screenshot(path=str(path))
    shutil.copyfile(path, f"/tmp/thinking-{lang}.png")
    # once it has moved and it is Ann's decision again, the count is gone
    page.wait_for_selector("#players .player.mine .acting-badge", timeout=20000)
    expect(thinking).to_have_count(0)
