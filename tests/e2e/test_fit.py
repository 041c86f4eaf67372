"""Phone fit and finish in a real browser, in English and German: no screen is wider than a
360 or 390 px wide phone (home, how to play, rules, waiting room, table, end screen with its
"Where the VPs came from" table), the end screen's headers keep their words whole, and the
"connection lost" banner stays in view on a scrolled page (the browser going offline shows it
at once: static/js/room.js). The game is played by tests/e2e/driver.py; a browser page sits
in seat 0. Screenshots land in test-artifacts/screenshots/."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .driver import Table
from .helpers import goto

PHONES = [{"width": 360, "height": 640}, {"width": 390, "height": 844}]
LANGS = ["en", "de"]
LOCALES = {"en": "en-GB", "de": "de-DE"}
# The longest name allowed is 24 characters; names this long, and German, are the hard case.
NAMES = ["Bartholomäus", "Friederike", "Maximiliane", "Gus"]


def _fits(page, vp: dict, where: str) -> None:
    """Fail unless the page's scrollWidth and innerWidth are within the window's width. Both
    count: a mobile browser widens its layout viewport (innerWidth) to a page that overflows,
    so scrollWidth <= innerWidth alone would pass a page cut off at the edge."""
    w = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    if max(w) > vp["width"]:
        wide = page.evaluate("w => [...document.querySelectorAll('main *')].filter(e =>"
                             " e.getBoundingClientRect().right > w).slice(-3).map(e => [e.tagName, e.className,"
                             " Math.round(e.getBoundingClientRect().right), e.textContent.slice(0, 40)])", vp["width"])
        raise AssertionError((where, vp, page.evaluate("document.documentElement.lang"), w, wide))


def _seat(new_page, table: Table, viewport: dict, lang: str):
    page = new_page(viewport=viewport, locale=LOCALES[lang], has_touch=True, is_mobile=True)
    page.context.add_cookies([table.cookie(0)])
    goto(page, f"{table.base}/r/{table.code}")
    page.wait_for_function("v => +(document.body.dataset.version || -1) >= v", arg=table.seats[0].version)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    return page


@pytest.fixture(scope="module")
def finished(e2e_server):
    """A four-player game played to its end."""
    table = Table(e2e_server.base_url, NAMES)
    table.start()
    table.play_until(lambda ev, v: v["phase"] == "over")
    yield table
    table.close()


@pytest.fixture(scope="module")
def midgame(e2e_server):
    """A four-player game some turns in, seat 0 holding cards."""
    table = Table(e2e_server.base_url, NAMES)
    table.start()
    table.play_until(lambda ev, v: v["phase"] == "turn" and table.steps > 16 and len(v["players"][0]["hand"]) >= 2)
    yield table
    table.close()


@pytest.mark.parametrize("lang", LANGS)
def test_end_screen_fits_the_phone(finished, new_page, shots, lang):
    for vp in PHONES:
        page = _seat(new_page, finished, vp, lang)
        table = page.locator(".breakdown")
        expect(table).to_be_visible()
        expect(page.locator(".breakdown tbody tr")).to_have_count(len(NAMES))
        page.screenshot(path=str(shots / f"fit-end-{lang}-{vp['width']}x{vp['height']}.png"))
        page.locator(".result").screenshot(path=str(shots / f"fit-end-result-{lang}-{vp['width']}x{vp['height']}.png"))
        _fits(page, vp, "end screen")
        # Every column of both tables is inside the window: the last colour and the VP total too.
        right = page.eval_on_selector_all(".score th, .score td", "els => Math.max(...els.map("
                                          "e => e.getBoundingClientRect().right))")
        assert right <= vp["width"], (lang, vp, right)
        # A header is one line: no word broken ("Platz" one letter a line, "SP", "Plättchen").
        lines = ("els => els.map(e => { const r = document.createRange(); r.selectNodeContents(e);"
                 " const tops = new Set([...r.getClientRects()].map(x => Math.round(x.top)));"
                 " return [e.textContent, tops.size]; })")
        heads = page.eval_on_selector_all(".score:not(.standings) th", lines)
        assert [h for h in heads if h[1] > 1] == [], (lang, vp, heads)
        # The standings under it (standings.js): a column's title at most two lines ("Best sale"),
        # a name's row with its games count under it, long names wrapping within the window.
        heads = page.eval_on_selector_all(".standings thead th", lines)
        assert heads and [h for h in heads if h[1] > 2] == [], (lang, vp, heads)
        # The widest a game can make it: two-digit VPs in every colour, every name this long (24 characters at most).
        page.evaluate("""() => {
            document.querySelectorAll('.breakdown td.num').forEach(td => { td.textContent = '12'; });
            document.querySelectorAll('.score .nametag, .score .who').forEach(n => {
              n.lastChild.textContent = 'Bartholomäus Friederike'; });
        }""")
        _fits(page, vp, "end screen, widest")
        size = f"{vp['width']}x{vp['height']}"
        page.locator(".breakdown").screenshot(path=str(shots / f"fit-end-widest-{lang}-{size}.png"))


@pytest.mark.parametrize("lang", LANGS)
def test_no_screen_is_wider_than_a_phone(e2e_server, midgame, new_page, lang):
    base = e2e_server.base_url
    waiting = Table(base, NAMES[:2])
    try:
        for vp in PHONES:
            page = new_page(viewport=vp, locale=LOCALES[lang], has_touch=True, is_mobile=True)
            for path, ready in (("/", "#create-form"), ("/how-to-play", "main h1"), ("/rules", "#rules")):
                goto(page, base + path)
                page.wait_for_selector(ready)
                _fits(page, vp, path)
            page.context.add_cookies([waiting.cookie(0)])
            goto(page, f"{base}/r/{waiting.code}")
            page.wait_for_selector(".seat.mine")
            _fits(page, vp, "waiting room")
            table = _seat(new_page, midgame, vp, lang)
            table.wait_for_selector("#players .player")
            _fits(table, vp, "table")
    finally:
        waiting.close()


@pytest.mark.parametrize("lang", LANGS)
def test_connection_lost_banner_stays_in_view_when_scrolled(midgame, new_page, shots, lang):
    for vp in PHONES:
        page = _seat(new_page, midgame, vp, lang)
        page.wait_for_selector("#players .player")
        page.evaluate("window.scrollTo(0, 300)")
        assert page.evaluate("window.scrollY") >= 200
        page.context.set_offline(True)
        banner = page.locator("#banner")
        expect(banner).to_be_visible()
        expect(banner).not_to_be_empty()
        page.screenshot(path=str(shots / f"fit-banner-{lang}-{vp['width']}x{vp['height']}.png"))
        # Its whole box is on screen and nothing (the sticky top bar) lies over it.
        seen = page.evaluate("""() => {
            const b = document.getElementById('banner'), r = b.getBoundingClientRect();
            const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return {top: r.top, bottom: r.bottom, h: r.height, on_top: b.contains(at)};
        }""")
        assert seen["h"] > 0 and seen["top"] >= 0 and seen["bottom"] <= vp["height"], (lang, vp, seen)
        assert seen["on_top"], (lang, vp, seen)
        # Still there after more scrolling.
        page.evaluate("window.scrollBy(0, 400)")
        top = page.evaluate("document.getElementById('banner').getBoundingClientRect().top")
        assert 0 <= top < vp["height"] / 2, (lang, vp, top)
        page.context.set_offline(False)
        expect(banner).to_be_hidden(timeout=20000)
        _fits(page, vp, "table, back online")
