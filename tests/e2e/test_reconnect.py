"""A lost connection shows a banner and the page reconnects by itself, back in its seat:
the server is stopped mid-game and started again on the same port and database."""
from __future__ import annotations

from playwright.sync_api import expect

from .conftest import E2EServer
from .helpers import create_room, hand, my_seat


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
        expect(banner).to_contain_text("Connection lost")
        srv = E2EServer(tmp_path, port=srv.port)
        expect(banner).to_be_hidden(timeout=20000)
        expect(page.locator(".toast.ok")).to_contain_text("Connected again")
        assert my_seat(page) == seat
        assert sorted(hand(page)) == ids
    finally:
        srv.stop()
