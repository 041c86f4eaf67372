"""The table's top bar on one line from a small laptop up (docs/ui.md "The top bar"), in a real
browser on a real server, in English and German: while another player (a long name) is to act,
the bar's items do not wrap at 1024, 1280, 1366 and 1920 px; it gives up words step by step
(static/js/fit.js `fitTopBar`: "My games" as its glyph, then the bell's and the speaker's words,
then the brand's name), only as many as the width needs (none at 1920, the glyph at 1366 in
German), and every control keeps its name for screen readers. A German full run had found the
bar on two lines at 1366×768 (85 px instead of 48). Screenshots: topbar-<lang>-<width>.png."""
from __future__ import annotations

import pytest

from .driver import Table
from .helpers import goto

NAMES = ["Bartholomäus", "Friederike", "Maximiliane", "Gus"]
LOCALES = {"en": "en-GB", "de": "de-DE"}
WORDS = {"en": {"notify": "Notify me", "sound": "Sound: off", "mine": "My games"},
         "de": {"notify": "Benachrichtigen", "sound": "Ton: aus", "mine": "Meine Spiele"}}
# Lines of the bar's items: the item tops that lie below the first item's bottom.
LINES = """() => { const bar = document.querySelector('.topbar');
  const items = [...bar.children].filter(e => e.getClientRects().length && !e.matches('#banner, #notice, .banner'));
  const line = items[0].getBoundingClientRect().bottom;
  return {wrapped: items.filter(e => e.getBoundingClientRect().top >= line - 2).map(e => e.className || e.id),
          step: +(bar.dataset.compact || 0), height: Math.round(bar.getBoundingClientRect().height)}; }"""


def _settled(page) -> dict:
    """LINES once the bar has stopped changing (the ResizeObserver's check runs after a layout;
    a loaded machine may take a few frames)."""
    last = None
    for _ in range(40):
        got = page.evaluate(LINES)
        if got == last and not got["wrapped"]:
            return got
        last = got
        page.wait_for_timeout(50)
    return last


@pytest.fixture(scope="module")
def others_turn(e2e_server):
    """A four-player game where seat 2 (Maximiliane) is to act."""
    table = Table(e2e_server.base_url, NAMES)
    table.start()
    table.play_until(lambda ev, v: v["phase"] == "turn" and v["to_act"] == 2)
    yield table
    table.close()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_top_bar_stays_on_one_line_and_gives_up_only_the_words_it_must(others_turn, new_page, shots, lang):
    page = new_page(viewport={"width": 1920, "height": 900}, locale=LOCALES[lang])
    page.context.add_cookies([others_turn.cookie(0)])
    goto(page, f"{others_turn.base}/r/{others_turn.code}")
    page.wait_for_selector("#players .player.mine")
    steps = {}
    for width in (1920, 1366, 1280, 1024):
        page.set_viewport_size({"width": width, "height": 800})
        got = _settled(page)
        assert got["wrapped"] == [], (width, got)
        steps[width] = got["step"]
        # the words that are not shown are still the controls' names
        assert page.get_by_role("button", name=WORDS[lang]["notify"]).is_visible()
        assert page.get_by_role("button", name=WORDS[lang]["sound"]).is_visible()
        assert page.get_by_role("link", name=WORDS[lang]["mine"]).is_visible()
        page.screenshot(path=str(shots / f"topbar-{lang}-{width}.png"), clip={"x": 0, "y": 0, "width": width, "height": 80})
    # only as many steps as the width needs: none on a wide screen, more as it narrows
    assert steps[1920] == 0 and page.locator(".topbar .mine-text").count() == 1
    assert steps[1920] <= steps[1366] <= steps[1280] <= steps[1024] and steps[1024] >= 1, steps
    page.set_viewport_size({"width": 1920, "height": 900})
    assert _settled(page)["step"] == 0
    assert page.locator(".topbar .mine-text").is_visible() and page.locator("#notify-btn .btn-text").is_visible()
