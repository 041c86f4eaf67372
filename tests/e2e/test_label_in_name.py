"""WCAG 2.5.3 (label in name) in a real browser: on the home page (a public room listed), the
waiting room (the host's, with a computer player to remove) and the table (a Reservation
piece on a card), in English and German, at a desktop's and a phone's width, every control's
accessible name contains its visible text: axe-core's label-content-name-mismatch rule is on
in `audit` (helpers.py), and so is the stricter check that the visible words are words of
the name."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE
from .helpers import audit, create_room, farm, goto, resize
from .test_keyboard import _draft_until_my_turn


def _both_widths(page, where: str) -> None:
    for size in (DESKTOP, PHONE):
        resize(page, size)
        audit(page, f"{where} {size['width']}")
    page.set_viewport_size(DESKTOP)


@pytest.mark.parametrize("locale", ["en-US", "de-DE"], ids=["en", "de"])
def test_accessible_names_contain_the_visible_text(e2e_server, new_page, shots, locale):
    base = e2e_server.base_url
    listed = create_room(new_page(), base, "Lou", public=True)
    page = new_page(locale=locale)
    goto(page, base + "/")
    expect(page.locator(f'#lobby-list a[href$="/r/{listed}"]')).to_have_count(1)
    _both_widths(page, "home")

    create_room(page, base, "Kim", public=False)
    page.click("#add-bot")
    expect(page.locator(".remove-bot")).to_have_count(1)
    _both_widths(page, "waiting room")

    page.click("#start-btn")
    page.wait_for_selector("#players .player")
    _draft_until_my_turn(page)
    cid = next(f["card"] for f in farm(page) if not f["reserved"])
    page.click(f'#farm .card[data-card="{cid}"]')
    page.click("#btn-reserve")
    piece = page.locator(f'.card[data-card="{cid}"] .piece')
    expect(piece).to_be_visible()
    page.locator(".board").screenshot(path=str(shots / f"label-in-name-table-{locale[:2]}.png"))
    _both_widths(page, "table")
    # The piece still shows its player's marker (drawn by CSS, not part of the card's text).
    assert page.evaluate("e => getComputedStyle(e, '::before').content", piece.element_handle()) == '"K"'
