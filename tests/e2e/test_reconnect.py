"""A lost connection shows a banner and the page reconnects by itself, back in its seat:
the server is stopped mid-game and started again on the same port and database."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import E2EServer
from .helpers import create_room, hand, join_room, my_seat


def test_server_restart_shows_banner_and_the_page_comes_back_to_its_seat(new_page, tmp_path):
    srv = E2EServer(tmp_path)
    try:
        page = new_page()
        create_room(page, srv.base_url, "Rita")
        page.click("#add-bot")
        page.wait_for_function("document.querySelectorAll('.seat:not(.empty)').length === 2")
        page.click("#start-btn")
        page.wait_for_selector(".player.mine")
        seat, ids = my_seat(page), sorted(hand(page))
        srv.stop()
        banner = page.locator("#banner")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("The server is restarting")  # a graceful stop says so
        srv = E2EServer(tmp_path, port=srv.port)
        expect(banner).to_be_hidden(timeout=20000)
        expect(page.locator(".toast.ok")).to_contain_text("Connected again")
        assert my_seat(page) == seat
        assert sorted(hand(page)) == ids
    finally:
        srv.stop()


def test_presence_is_unknown_while_down_and_a_restart_is_not_a_player_leaving(new_page, tmp_path, shots):
    """While its socket is closed the page cannot know who is there: every presence dot is
    grey and says so; the room summary after the reconnect sets them again. A seat whose player
    did not come back after the restart is not offered to the host at once (its absence counts
    from the restart: `since_start`), only after HANDOVER_AFTER_S like anyone's."""
    env = {"HANDOVER_AFTER_S": "12"}  # longer than the page's reconnect after the restart, even on a busy machine
    srv = E2EServer(tmp_path, env=env)
    try:
        host, guest = new_page(), new_page()
        code = create_room(host, srv.base_url, "Rita")
        join_room(guest, srv.base_url, code, "Gus")
        host.wait_for_function("document.querySelectorAll('.seat:not(.empty)').length === 2")
        host.click("#start-btn")
        for page in (host, guest):
            page.wait_for_selector(".player.mine")
        dots = host.locator("#players .dot")
        gus = host.locator('#players .player[data-seat="1"]')
        expect(gus.locator(".dot")).to_have_class(re.compile(r"\bon\b"))
        srv.stop()
        expect(host.locator("#banner")).to_contain_text("The server is restarting")
        expect(dots).to_have_count(2)
        for i in range(2):
            expect(dots.nth(i)).to_have_class(re.compile(r"\bunk\b"))
            expect(dots.nth(i)).to_have_attribute("aria-label", "unknown while reconnecting")
        expect(host.locator(".handover")).to_have_count(0)
        host.locator("#players").screenshot(path=str(shots / "presence-reconnecting.png"))
        guest.context.close()  # Gus does not come back
        srv = E2EServer(tmp_path, port=srv.port, env=env)
        expect(host.locator("#banner")).to_be_hidden(timeout=20000)
        expect(host.locator('#players .player[data-seat="0"] .dot')).to_have_class(re.compile(r"\bon\b"))
        expect(gus.locator(".dot")).to_have_class(re.compile(r"\boff\b"))
        expect(gus.locator(".dot")).to_have_attribute("aria-label", "not connected")
        # Not at once for the host: the restart is not Gus leaving.
        expect(gus.locator(".handover")).to_contain_text(re.compile(r"after \d+ s"))
        expect(gus.locator(".handover button")).to_have_count(0)
        host.locator("#players").screenshot(path=str(shots / "presence-after-restart.png"))
        expect(gus.locator(".handover button")).to_be_visible(timeout=30000)
    finally:
        srv.stop()
