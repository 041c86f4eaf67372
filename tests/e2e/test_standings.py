"""The standings of a room's series in real browsers (issue 32): three games in a row, Ann's
page in English and Bob's in German, both at phone size (360 × 740): the end screen of each
game and the waiting room between them show the standings so far, a table that fits the phone
(no horizontal scroll), one row per name, as the server added them up."""
from __future__ import annotations

import httpx
from playwright.sync_api import expect

from .driver import Table
from .helpers import goto

PHONE = {"width": 360, "height": 740}
CAPTION = {"en": ("Standings after 1 game", "Standings after {n} games"),
           "de": ("Stand nach 1 Spiel", "Stand nach {n} Spielen")}


def _caption(lang: str, n: int) -> str:
    one, many = CAPTION[lang]
    return one if n == 1 else many.format(n=n)


def _no_sideways_scroll(page) -> None:
    wide = page.evaluate("""() => [...document.querySelectorAll('#standings, #standings *')].filter((e) => e.getBoundingClientRect().right
      > document.documentElement.clientWidth).slice(0, 8).map((e) => e.tagName + '.' + e.className + ' '
      + Math.round(e.getBoundingClientRect().right))""")
    assert not wide, wide
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth"), \
        "the page scrolls sideways"


def _check(page, lang: str, base: str, code: str, n: int) -> None:
    box = page.locator("#standings:visible")
    expect(box.locator("caption")).to_have_text(_caption(lang, n), timeout=30000)
    api = httpx.get(f"{base}/api/rooms/{code}").json()["standings"]
    assert api["games"] == n
    rows = box.locator("tbody tr")
    expect(rows).to_have_count(len(api["players"]))
    for i, p in enumerate(api["players"]):
        expect(rows.nth(i).locator("th")).to_contain_text(p["name"])
        expect(rows.nth(i).locator("th")).to_contain_text(str(p["played"]))
        cells = rows.nth(i).locator("td")
        expect(cells.nth(0)).to_have_text(str(p["wins"]))
        expect(cells.nth(1)).to_have_text(str(p["shared_wins"]))
        expect(cells.nth(2)).to_contain_text(" · ".join("–" if v is None else str(v) for v in p["by_game"]))
    expect(box.locator("thead th[scope=col]")).to_have_count(5)
    expect(box.locator("tbody th[scope=row]")).to_have_count(len(api["players"]))
    _no_sideways_scroll(page)


def test_three_games_of_standings_en_and_de_on_a_phone(e2e_server, new_page, shots):
    base = e2e_server.base_url
    table = Table(base, ["Ann", "Bob"])
    table.start()
    table.play_until(lambda ev, v: v["phase"] == "over")
    ann, bob = new_page(viewport=PHONE), new_page(viewport=PHONE, locale="de-DE")
    for seat, page in ((0, ann), (1, bob)):
        page.context.add_cookies([table.cookie(seat)])
        goto(page, f"{base}/r/{table.code}")
    for n in (1, 2, 3):
        for page, lang in ((ann, "en"), (bob, "de")):
            expect(page.locator("#again-btn")).to_be_visible(timeout=30000)
            _check(page, lang, base, table.code, n)
            page.locator("#standings").scroll_into_view_if_needed()
            page.screenshot(path=str(shots / f"standings-end-{n}-{lang}-360.png"), full_page=True)
            page.locator("#standings:visible").screenshot(path=str(shots / f"standings-table-end-{n}-{lang}-360.png"))
        table.close()
        if n == 3:
            break
        # Play again: Ann from the end screen, Bob from the notice it gives his page.
        ann.click("#again-btn")
        bob.click("#notice-in")
        for page, lang in ((ann, "en"), (bob, "de")):
            expect(page.locator("#rematch li.in")).to_have_count(2)
            _check(page, lang, base, table.code, n)  # the waiting room of game n + 1
            page.screenshot(path=str(shots / f"standings-waiting-{n + 1}-{lang}-360.png"), full_page=True)
            page.locator("#rematch").screenshot(path=str(shots / f"standings-rematch-{n + 1}-{lang}-360.png"))
        table.start()
        for page in (ann, bob):
            page.wait_for_selector("#players .player")
            expect(page.locator("#standings:visible")).to_have_count(0)  # not on the table of a game in play
        table.play_until(lambda ev, v: v["phase"] == "over")
    ann.set_viewport_size({"width": 1280, "height": 900})
    ann.screenshot(path=str(shots / "standings-end-3-en-desktop.png"), full_page=True)
