"""One marker per seat everywhere (issue 30): a person, a person's seat a computer player took
over and a computer player added by the host carry the same marker at the table, on the end
screen and in the replay (common.js `markerOf`), in English and German."""
from __future__ import annotations


import httpx
import pytest
from playwright.sync_api import expect

from .conftest import E2EServer
from .driver import Seat
from .helpers import goto


@pytest.fixture(scope="module")
def quick_bots_server(tmp_path_factory):
    """A real server whose computer players move at once, so a whole game ends in seconds."""
    srv = E2EServer(tmp_path_factory.mktemp("e2e-markers"), env={"BOT_DELAY_S": "0", "BOT_TIME_BUDGET_S": "0.05"})
    yield srv
    srv.stop()


def _markers(page, where: str) -> dict[str, str]:
    """Seat (data-seat of the row or box) → the text of its swatch inside `where`."""
    return page.eval_on_selector_all(f"{where} [data-seat]", """els => Object.fromEntries(els.map(e =>
        [e.dataset.seat, e.querySelector('.swatch').textContent]))""")


def test_a_seat_has_one_marker_at_the_table_on_the_end_screen_and_in_the_replay(quick_bots_server, new_page, shots):
    base = quick_bots_server.base_url
    ann = httpx.post(base + "/api/rooms", json={"name": "Ann", "public": False}).json()
    code, auth = ann["code"], {"Authorization": f"Bearer {ann['token']}"}
    cleo = httpx.post(f"{base}/api/rooms/{code}/join", json={"name": "Cleo"}).json()
    assert httpx.post(f"{base}/api/rooms/{code}/bots", json={"level": "easy"}, headers=auth).status_code == 200
    assert httpx.post(f"{base}/api/rooms/{code}/start", headers=auth).status_code == 200
    ws_base = base.replace("http", "ws", 1)
    me = Seat(ws_base, code, ann["token"])
    me.pump(0)
    # Cleo never connects: the host hands her seat to a computer player at once.
    r = httpx.post(f"{base}/api/rooms/{code}/seats/1/bot", json={"level": "normal"}, headers=auth)
    assert r.status_code == 200, r.text
    me.play_to_end(0)  # Ann plays; the computer players answer on their own
    me.close()
    assert cleo["seat"] == 1

    page = new_page()
    page.context.add_cookies([{"name": f"osaka_{code}", "value": ann["token"], "url": base}])
    goto(page, f"{base}/r/{code}")
    expect(page.locator("#result-how")).to_be_visible()
    table = _markers(page, "#players")
    end = _markers(page, ".breakdown")
    assert table == {"0": "A", "1": "C", "2": "⚙"}, table
    assert end == table
    page.screenshot(path=str(shots / "markers-end.png"), full_page=True)
    for lang, computer in (("en", "Computer (easy)"), ("de", "Computer (leicht)")):
        rp = new_page()
        goto(rp, f"{base}/r/{code}/games/1")
        if lang == "de":
            rp.click(".lang-btn[data-lang=de]")
        expect(rp.locator(".rp-player")).to_have_count(3)
        assert _markers(rp, ".rp-players") == table, lang
        expect(rp.locator(".rp-player[data-seat='2'] .nametag")).to_have_text("⚙" + computer)
        rp.screenshot(path=str(shots / f"markers-replay-{lang}.png"), full_page=True)
