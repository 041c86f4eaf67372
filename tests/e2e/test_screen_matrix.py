"""Every screen at every supported window size, in English and German: home, how to play,
rules, the waiting room, the token draft dialog, a payment summary, the table mid-game, the
insurance dialog, a Black Tide summary, the end screen, the end screen once others chose to
play again, and the replay. Each is taken at 360×640, 390×844, 1366×768 and 1920×1080
(docs/ui.md "Supported sizes") and must not be wider than the window; the pictures land in
test-artifacts/screenshots/matrix/<lang>/<screen>-<w>x<h>.png for a person to look at.

The game is played by tests/e2e/driver.py over the WebSocket protocol; one browser page sits
in seat 0 (Ann) and shows each moment; the page checks which moment it shows, so a picture of
the wrong state fails."""
from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import expect

from .conftest import SHOTS
from .driver import Table
from .helpers import goto
from .test_fit import LOCALES, _fits
from .test_screenshots import _asked_to_insure

SIZES = [(360, 640), (390, 844), (1366, 768), (1920, 1080)]
NAMES = ["Ann", "Bartholomäus", "Friederike"]


class Matrix:
    """Takes one screen at every size: fit check, then a picture, back to 1366×768 after."""

    def __init__(self, lang: str):
        self.lang = lang
        self.out = SHOTS / "matrix" / lang
        self.out.mkdir(parents=True, exist_ok=True)
        self.taken: list[str] = []

    def snap(self, page, name: str) -> None:
        for w, h in SIZES:
            vp = {"width": w, "height": h}
            page.set_viewport_size(vp)
            page.evaluate("window.scrollTo(0, 0)")
            page.wait_for_timeout(250)
            _fits(page, vp, name)
            page.screenshot(path=str(self.out / f"{name}-{w}x{h}.png"))
            self.taken.append(f"{name}-{w}x{h}")
        page.set_viewport_size({"width": 1366, "height": 768})


def _seat_ann(new_page, table: Table, lang: str):
    page = new_page(viewport={"width": 1366, "height": 768}, locale=LOCALES[lang])
    page.context.add_cookies([table.cookie(0)])
    goto(page, f"{table.base}/r/{table.code}")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    return page


def _sync(page, table: Table) -> None:
    """Wait until the page drew the table's latest state and the ships stopped moving."""
    page.wait_for_function("v => +(document.body.dataset.version || -1) >= v", arg=table.seats[0].version)
    page.wait_for_timeout(500)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_screen_at_every_size(e2e_server, new_page, lang):
    base = e2e_server.base_url
    m = Matrix(lang)
    page = new_page(viewport={"width": 1366, "height": 768}, locale=LOCALES[lang])
    for path, ready, name in (("/", "#create-form", "home"), ("/how-to-play", "main h1", "how-to-play"),
                              ("/rules", "#rules", "rules")):
        goto(page, base + path)
        page.wait_for_selector(ready)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        m.snap(page, name)

    table = Table(base, NAMES)
    ann = _seat_ann(new_page, table, lang)
    ann.wait_for_function("document.querySelectorAll('.seat:not(.empty)').length === 3")
    m.snap(ann, "waiting-room")

    table.start()
    table.play_until(lambda ev, v: v["phase"] == "token_draft" and v["to_act"] == 0)
    _sync(ann, table)
    expect(ann.locator("dialog[open] .token-btn")).to_have_count(4)
    m.snap(ann, "dialog-token-draft")

    table.play_until(lambda ev, v: any(e["type"] == "payment" for e in ev))
    table.play_until(lambda ev, v: v["phase"] != "insurance")
    _sync(ann, table)
    expect(ann.locator("#summary")).to_be_visible()
    m.snap(ann, "payment")

    table.play_until(lambda ev, v: v["phase"] == "turn" and v["to_act"] == 0 and table.steps > 18
                     and len(v["players"][0]["hand"]) >= 2)
    _sync(ann, table)
    expect(ann.locator("#players .player")).to_have_count(3)
    m.snap(ann, "table")

    table.play_until(lambda ev, v: v["phase"] == "over")
    _sync(ann, table)
    expect(ann.locator(".result")).to_be_visible()
    m.snap(ann, "end")

    # Ben and Friederike choose to play again; Ann is still reading the result.
    for seat in (1, 2):
        r = httpx.post(f"{base}/api/rooms/{table.code}/again", json={"game": 1},
                       headers={"Authorization": f"Bearer {table.tokens[seat]}"})
        assert r.status_code == 200, r.text
    ann.wait_for_timeout(800)
    m.snap(ann, "end-others-play-again")
    code = table.code
    table.close()

    goto(ann, f"{base}/r/{code}/games/1")
    expect(ann.locator(".rp-player")).to_have_count(3)
    m.snap(ann, "replay")

    # A Black Tide: Ann's insurance dialog, then the summary of what sank and what was insured.
    for _ in range(6):
        table = Table(base, NAMES)
        table.start()
        try:
            table.play_until(_asked_to_insure)
            break
        except AssertionError:
            table.close()
    else:
        raise AssertionError("six games without an insurance decision for seat 0")
    ann = _seat_ann(new_page, table, lang)
    _sync(ann, table)
    expect(ann.locator("dialog[open] #insure-none")).to_be_visible()
    m.snap(ann, "dialog-insurance")
    table.play_until(lambda ev, v: v["phase"] != "insurance")
    _sync(ann, table)
    expect(ann.locator("#summary .sum-tide")).to_be_visible()
    m.snap(ann, "black-tide")
    table.close()
    assert len(m.taken) == 12 * len(SIZES)
