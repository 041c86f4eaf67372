"""The review of a finished game in a real browser (docs/ui.md "Review"): the end screen's link
with the review's status, then the replay page's review — the win-chance chart with its table,
the swings and the totals — in English, in German and at phone size (360 × 740)."""
from __future__ import annotations

import shutil
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect

from .conftest import E2EServer
from .driver import Seat
from .helpers import goto

OUT = Path("/tmp/shots/review")
PHONE_360 = {"width": 360, "height": 740}
TEXTS = {"en": ("Review of this game", "review ready", "Review", "The biggest swings", "VP totals"),
         "de": ("Auswertung dieses Spiels", "Auswertung fertig", "Auswertung", "Die größten Umschwünge",
                "SP-Summen")}


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A server whose computer players move at once and whose reviews are small, and a room
    whose game Ann played to the end against a computer player (Cleo's seat handed to one)."""
    srv = E2EServer(tmp_path_factory.mktemp("e2e-review"),
                    env={"BOT_DELAY_S": "0", "BOT_TIME_BUDGET_S": "0.05", "REVIEW_SIMULATIONS": "8",
                         "REVIEW_POLL_S": "1"})
    base = srv.base_url
    ann = httpx.post(base + "/api/rooms", json={"name": "Ann", "public": False}).json()
    code, auth = ann["code"], {"Authorization": f"Bearer {ann['token']}"}
    httpx.post(f"{base}/api/rooms/{code}/join", json={"name": "Cleo"}).raise_for_status()
    assert httpx.post(f"{base}/api/rooms/{code}/bots", json={"level": "easy"}, headers=auth).status_code == 200
    assert httpx.post(f"{base}/api/rooms/{code}/start", headers=auth).status_code == 200
    me = Seat(base.replace("http", "ws", 1), code, ann["token"])
    me.pump(0)
    assert httpx.post(f"{base}/api/rooms/{code}/seats/1/bot", json={"level": "normal"},
                      headers=auth).status_code == 200
    me.play_to_end(0)  # Ann plays; the computer players answer on their own
    me.close()
    yield srv, code, ann["token"]
    srv.stop()


@pytest.mark.parametrize("lang,viewport", [("en", None), ("de", None), ("en", PHONE_360), ("de", PHONE_360)])
def test_end_screen_link_leads_to_the_review_with_chart_table_and_swings(finished, new_page, shots, lang, viewport):
    srv, code, token = finished
    base = srv.base_url
    link_text, ready, title, swings_h, totals_h = TEXTS[lang]
    size = "phone" if viewport else "desktop"
    page = new_page(viewport=viewport)
    page.context.add_cookies([{"name": f"osaka_{code}", "value": token, "url": base}])
    goto(page, f"{base}/r/{code}")
    if lang == "de":
        page.click(".lang-btn[data-lang=de]")
    link = page.locator("#review-link")
    expect(link).to_have_text("✎ " + link_text)
    expect(page.locator("#review-status")).to_have_text(ready, timeout=120_000)  # pushed or read once
    page.screenshot(path=str(shots / f"review-end-{lang}-{size}.png"), full_page=True)
    OUT.mkdir(parents=True, exist_ok=True)
    page.locator(".game-links").screenshot(path=str(OUT / f"review-link-{lang}-{size}.png"))
    link.click()
    page.wait_for_url(f"**/r/{code}/games/1#review")
    page.wait_for_selector("html[data-ready]", state="attached")
    review = page.locator("#review")
    expect(review.locator("h2")).to_have_text(title)
    expect(page.locator("#rv-svg polyline")).to_have_count(3)          # one line per seat
    # the chart's table: a caption, a column per seat, a row per reviewed decision
    page.locator(".rv-data summary").click()
    table = page.locator("#rv-table")
    expect(table.locator("caption")).to_be_visible()
    expect(table.locator("thead th[scope=col]")).to_have_count(2 + 3)
    got = httpx.get(f"{base}/api/rooms/{code}/games/1/review").json()["review"]
    expect(table.locator("tbody tr")).to_have_count(len(got["decisions"]))
    expect(page.locator("#rv-swings-h")).to_have_text(swings_h)
    expect(page.locator(".rv-swing")).to_have_count(sum(len(p["items"]) for p in got["swings"]))
    assert sum(len(p["items"]) for p in got["swings"]) >= 1
    first = page.locator(".rv-swing").first
    assert first.inner_text().startswith("Turn " if lang == "en" else "Zug "), first.inner_text()
    expect(page.locator("#rv-totals-h")).to_have_text(totals_h)
    expect(page.locator("#rv-totals tbody th[scope=row]")).to_have_count(3)
    if viewport:  # nothing wider than the phone
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.screenshot(path=str(shots / f"review-replay-{lang}-{size}.png"), full_page=True)
    parts = {"chart": ".rv-chart", "swings": ".rv-swings", "totals": "#rv-totals"}
    for part, sel in parts.items():
        page.locator(sel).screenshot(path=str(OUT / f"review-{part}-{lang}-{size}.png"))
    # "Show" goes to that moment of the replay, by keyboard too
    page.locator(".rv-go").first.focus()
    page.keyboard.press("Enter")
    step = got["swings"][[len(p["items"]) > 0 for p in got["swings"]].index(True)]["items"][0]["index"] + 1
    expect(page.locator("body")).to_have_attribute("data-step", str(step))
    for name in (f"review-end-{lang}-{size}.png", f"review-replay-{lang}-{size}.png"):
        shutil.copy(shots / name, OUT / name)
