"""The host's admin page in a real browser (static/js/admin.js; docs/ui.md "The admin page"):
the host signs in with ADMIN_TOKEN, sees a room where a player sits, sets a maintenance notice
that appears on that player's table page in another browser context (counting down), closes
the room after the in-page confirmation and the player's page says the host closed it; in
German too, and at 360 px."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import E2EServer
from .helpers import create_room, goto

TOKEN = "host-" + "z" * 24
PHONE_360 = {"width": 360, "height": 740}
OWN_SHOTS = Path("/tmp/shots/admin")


@pytest.fixture(scope="module")
def admin_server(tmp_path_factory) -> E2EServer:
    srv = E2EServer(tmp_path_factory.mktemp("e2e-admin"), env={"ADMIN_TOKEN": TOKEN})
    yield srv
    srv.stop()


def shot(page, shots: Path, name: str) -> None:
    path = shots / f"admin-{name}.png"
    page.screenshot(path=str(path), full_page=True)
    OWN_SHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, OWN_SHOTS / path.name)


def sign_in(page, base: str, token: str = TOKEN) -> None:
    goto(page, base + "/admin")
    page.fill("#admin-token", token)
    page.click("#admin-login button[type=submit]")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_host_sees_a_room_sets_a_notice_and_closes_it(admin_server, new_page, shots, lang):
    base = admin_server.base_url
    words = {"en": {"restarts": "The server restarts in 4:", "closed": "The host of this server closed this room",
                    "close": "Close room", "connected": "connected", "wrong": "That is not the admin token."},
             "de": {"restarts": "Der Server startet in 4:", "closed": "Der Betreiber dieses Servers hat diesen Raum",
                    "close": "Raum schließen", "connected": "verbunden", "wrong": "Das ist nicht das Admin-Token."}}[lang]
    locale = "en-US" if lang == "en" else "de-DE"
    player = new_page(locale=locale)
    code = create_room(player, base, "Ann" if lang == "en" else "Änne", public=False)
    player.click("#add-bot")  # a table in play: against a computer player
    player.wait_for_function("document.querySelectorAll('.seat:not(.empty)').length === 2")
    player.click("#start-btn")
    player.wait_for_selector("#players .player")
    host = new_page(locale=locale)
    # A wrong token is refused and forgotten.
    sign_in(host, base, "not-it")
    expect(host.locator(".adm-err")).to_have_text(words["wrong"])
    expect(host.locator("#admin-token")).to_be_visible()
    sign_in(host, base)
    room = host.locator(f".adm-room[data-code='{code}']")
    expect(room).to_contain_text("Ann" if lang == "en" else "Änne")
    expect(room.locator(".adm-seats li").first).to_contain_text(words["connected"])
    expect(room.locator(".badge.playing")).to_be_visible()
    expect(room.locator(".adm-seats li")).to_have_count(2)
    assert host.evaluate("sessionStorage.getItem('osaka_admin_token')") == TOKEN
    assert host.evaluate("localStorage.getItem('osaka_admin_token')") is None
    # The notice: 5 minutes and a text, on the player's table page at once.
    host.select_option("#notice-minutes", "5")
    host.fill("#notice-text", "Update <b>v2</b> — back soon")
    host.click("#notice-form button[type=submit]")
    notice = player.locator("#notice")
    expect(notice).to_be_visible()
    shown = notice.locator(".notice-now")
    expect(notice).to_contain_text(words["restarts"])
    expect(notice).to_contain_text("Update <b>v2</b> — back soon")  # as typed, never as HTML
    expect(shown).not_to_have_text(shown.inner_text(), timeout=5000)  # it counts down
    # Said once to a screen reader, not every second.
    expect(notice.locator("[role=status]")).to_contain_text("5")
    expect(host.locator("#notice-now")).to_contain_text("Update <b>v2</b>")
    shot(host, shots, f"page-{lang}")
    shot(player, shots, f"table-notice-{lang}")
    # The home page shows it too.
    home = new_page(locale=locale)
    goto(home, base + "/")
    expect(home.locator("#notice")).to_contain_text("back soon")
    # Close: the in-page dialog first (Cancel keeps the room), then for real.
    room.get_by_role("button", name=re.compile(words["close"])).click()
    dialog = host.locator("#close-dlg")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(code)
    shot(host, shots, f"confirm-{lang}")
    dialog.get_by_role("button").first.click()
    expect(dialog).to_be_hidden()
    expect(player.locator("#room-closed")).to_have_count(0)
    room.get_by_role("button", name=re.compile(words["close"])).click()
    host.click("#close-yes")
    expect(player.locator("#room-closed")).to_contain_text(words["closed"])
    expect(host.locator(f".adm-room[data-code='{code}']")).to_have_count(0)
    shot(player, shots, f"table-closed-{lang}")
    # Cleared everywhere.
    host.click("#notice-clear")
    expect(home.locator("#notice")).to_be_hidden()
    assert not player.dialogs and not host.dialogs  # no window.confirm


def test_the_admin_page_fits_a_phone(admin_server, new_page, shots):
    base = admin_server.base_url
    player = new_page(viewport=PHONE_360)
    code = create_room(player, base, "Mia")
    host = new_page(viewport=PHONE_360, locale="de-DE")
    sign_in(host, base)
    expect(host.locator(f".adm-room[data-code='{code}']")).to_be_visible()
    host.fill("#notice-text", "Wartung ab 22 Uhr")
    host.click("#notice-form button[type=submit]")
    expect(player.locator("#notice")).to_contain_text("Wartung ab 22 Uhr")
    assert host.evaluate("document.documentElement.scrollWidth") <= 360
    assert player.evaluate("document.documentElement.scrollWidth") <= 360
    shot(host, shots, "page-de-360")
    shot(player, shots, "waiting-notice-360")
    host.click("#notice-clear")
    expect(player.locator("#notice")).to_be_hidden()
