"""Screenshots of every screen a player meets, for docs/ui.md: home, waiting room, the table
at five window sizes, both dialogs (token draft, insurance), a payment, a Black Tide and the
end screen. The game is played by tests/e2e/driver.py over the WebSocket protocol; one
browser page sits in seat 0 (Ann) and shows each moment.

`make screenshots` runs this with OSAKA_SHOTS_DIR=docs/screenshots and optimizes the PNGs;
in the normal suite the pictures land in test-artifacts/screenshots/. Either way the test
checks that each moment is on screen (the summaries after a payment and a Black Tide, the
dialogs, the result), so a picture of the wrong state fails."""
from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import expect

from .conftest import SHOTS
from .driver import Table, table_at
from .helpers import goto

OUT = Path(os.environ.get("OSAKA_SHOTS_DIR") or SHOTS)
SIZES = [(1366, 768), (1920, 1080), (2560, 1440), (390, 844), (360, 640)]
NAMES = ["Ann", "Ben", "Cleo"]


def _shot(page, name: str, full: bool = False) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUT / f"{name}.png"), full_page=full)


def _sync(page, table: Table) -> None:
    """Wait until the page drew the table's latest state and the ships stopped moving."""
    page.wait_for_function("v => +(document.body.dataset.version || -1) >= v", arg=table.seats[0].version)
    page.wait_for_timeout(500)


def _seat_ann(new_page, table: Table, viewport=None):
    page = new_page(viewport=viewport or {"width": 1366, "height": 768})
    page.context.add_cookies([table.cookie(0)])
    goto(page, f"{table.base}/r/{table.code}")
    return page


def _asked_to_insure(events, view) -> bool:
    return view["phase"] == "insurance" and view["to_act"] == 0


def _game_with_insurance(base: str):
    """A started game played until Ann must decide on insurance (a Black Tide threatens her
    goods and she holds a card to insure them); a new game when one ends without that."""
    return table_at(base, NAMES, _asked_to_insure)


def test_screenshots_of_every_screen(e2e_server, new_page):
    base = e2e_server.base_url
    home = new_page()
    goto(home, base + "/")
    home.wait_for_selector("#create-form")
    _shot(home, "home")
    home.set_viewport_size({"width": 390, "height": 844})
    _shot(home, "home-390x844", full=True)

    # The waiting room as the host sees it, three seats taken.
    table = Table(base, NAMES)
    ann = _seat_ann(new_page, table)
    ann.wait_for_function("document.querySelectorAll('.seat:not(.empty)').length === 3")
    _shot(ann, "waiting-room")
    ann.set_viewport_size({"width": 390, "height": 844})
    _shot(ann, "waiting-room-390x844", full=True)
    ann.set_viewport_size({"width": 1366, "height": 768})

    # The token draft dialog, when it is Ann's choice.
    table.start()
    table.play_until(lambda ev, v: v["phase"] == "token_draft" and v["to_act"] == 0)
    _sync(ann, table)
    expect(ann.locator("dialog[open] .token-btn")).to_have_count(4)
    _shot(ann, "dialog-token-draft")

    # A payment: the summary says who sold what for how many VPs.
    events = table.play_until(lambda ev, v: any(e["type"] == "payment" for e in ev))
    sales = [e for e in events if e["type"] == "sale"]
    table.play_until(lambda ev, v: v["phase"] != "insurance")
    _sync(ann, table)
    summary = ann.locator("#summary")
    expect(summary).to_be_visible()
    for s in sales:
        expect(summary).to_contain_text(NAMES[s["seat"]])
        expect(summary).to_contain_text(f"{s['vp']} VP")
    summary.scroll_into_view_if_needed()  # under the hand and the action bar
    _shot(ann, "payment")

    # The table at every size, on Ann's turn, some turns later (what changed is marked).
    table.play_until(lambda ev, v: v["phase"] == "turn" and v["to_act"] == 0 and table.steps > 18
                     and len(v["players"][0]["hand"]) >= 2
                     and any(p["goods"] for p in v["players"][1:]))
    _sync(ann, table)
    for w, h in SIZES:
        ann.set_viewport_size({"width": w, "height": h})
        ann.evaluate("window.scrollTo(0, 0)")
        ann.wait_for_timeout(200)
        _shot(ann, f"table-{w}x{h}")
    ann.set_viewport_size({"width": 1366, "height": 768})

    # The end screen.
    table.play_until(lambda ev, v: v["phase"] == "over")
    _sync(ann, table)
    expect(ann.locator(".result")).to_be_visible()
    _shot(ann, "end")
    ann.set_viewport_size({"width": 390, "height": 844})
    _shot(ann, "end-390x844", full=True)
    table.close()

    # A Black Tide: Ann's insurance dialog, then the summary of what sank and what was insured.
    table = _game_with_insurance(base)
    ann = _seat_ann(new_page, table)
    _sync(ann, table)
    expect(ann.locator("dialog[open] #insure-none")).to_be_visible()
    _shot(ann, "dialog-insurance")
    ann.set_viewport_size({"width": 390, "height": 844})
    _shot(ann, "dialog-insurance-390x844")
    ann.set_viewport_size({"width": 1366, "height": 768})
    table.play_until(lambda ev, v: v["phase"] != "insurance")
    _sync(ann, table)
    tide = ann.locator("#summary .sum-tide")
    expect(tide).to_contain_text("Black Tide")
    seen = table.seats[0].events
    since = max(i for i, e in enumerate(seen) if e["type"] == "payment")
    for e in seen[since:]:
        if e["type"] == "sunk" or (e["type"] == "insure" and e["goods"]):
            expect(tide).to_contain_text(NAMES[e["seat"]] + ":")
            expect(tide).to_contain_text("lost" if e["type"] == "sunk" else "insured")
    tide.scroll_into_view_if_needed()
    _shot(ann, "black-tide")
    table.close()
