"""The insurance dialog at a Black Tide (R-pay-6), in a real browser, English and German: only
the insurance icons on the hand cards offered for discard are drawn (the goods to save show
none: their own icons insure nothing), a running total per colour says how many icons the
chosen hand cards bring for how many goods to save, and the sentence about the sinking ships
is singular for one ship and plural for several. The game is played by tests/e2e/driver.py
until seat 0 must decide; a browser page sits in seat 0."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from engine import CARD_COLORS, CARD_ICONS, COLORS

from .driver import table_at
from .helpers import goto

WORDS = {
    "en-US": {"one": "The {} ship sinks. Your uninsured goods of this colour will be lost.",
              "many": "The {} ships sink. Your uninsured goods of these colours will be lost.",
              "and": ", and ", "icons": {1: "1 insurance icon", 2: "2 insurance icons"}, "for": " for ",
              "goods": "1 good to save", "colors": {"red": "red", "blue": "blue", "yellow": "yellow",
                                                    "green": "green"}},
    "de-DE": {"one": "Das Schiff {} sinkt. Deine unversicherten Waren dieser Farbe gehen verloren.",
              "many": "Die Schiffe {} sinken. Deine unversicherten Waren dieser Farben gehen verloren.",
              "and": " und ", "icons": {1: "1 Versicherungssymbol", 2: "2 Versicherungssymbole"}, "for": " für ",
              "goods": "1 zu rettende Ware", "colors": {"red": "rot", "blue": "blau", "yellow": "gelb",
                                                        "green": "grün"}},
}
SYMBOLS = {"red": "◆", "blue": "■", "yellow": "▲", "green": "●"}


@pytest.fixture(scope="module")
def asked(e2e_server):
    """A three-player game at the moment seat 0 must decide on insurance."""
    table = table_at(e2e_server.base_url, ["Ann", "Ben", "Cleo"],
                     lambda ev, v: v["phase"] == "insurance" and v["to_act"] == 0)
    yield table
    table.close()


def _ships(words: dict, colours: list[str]) -> str:
    chips = [f"{SYMBOLS[c]} {words['colors'][c]}" for c in colours]
    if len(chips) == 1:
        return chips[0]
    return ", ".join(chips[:-1]) + (words["and"] if len(chips) > 2 else words["and"].lstrip(",")) + chips[-1]


@pytest.mark.parametrize("locale", ["en-US", "de-DE"], ids=["en", "de"])
def test_the_insurance_dialog_shows_the_icons_that_count(asked, new_page, shots, locale):
    words = WORDS[locale]
    view = asked.view
    me, sinking = view["players"][0], view["sinking"]
    page = new_page(locale=locale)
    page.context.add_cookies([asked.cookie(0)])
    goto(page, f"{asked.base}/r/{asked.code}")
    dialog = page.locator("dialog[open]")
    expect(dialog.locator("#insure-none")).to_be_visible()

    # One ship or several: the sentence agrees (and the catalogue has both forms).
    said = page.inner_text("dialog[open] h2 + p")
    assert said == words["one" if len(sinking) == 1 else "many"].format(_ships(words, sinking)), said
    forms = page.evaluate("""async () => { const i = await import('/static/js/i18n.js');
      return [i.t('insure.sinking', {n: 1, ships: 'X'}), i.t('insure.sinking', {n: 2, ships: 'X'})]; }""")
    assert forms == [words["one"].format("X"), words["many"].format("X")]

    # The goods to save: no insurance icons drawn or named.
    goods = page.locator("#insure-goods .card")
    at_risk = [g["card"] for g in me["goods"] if not g["insured"] and COLORS[CARD_COLORS[g["card"]]] in sinking]
    expect(goods).to_have_count(len(at_risk))
    assert page.locator("#insure-goods .shield").count() == 0
    for name in goods.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))"):
        assert "nsurance" not in name and "Versicherung" not in name, name
    # The hand cards offered: of a colour with goods at risk, each with its icons drawn.
    risky = {CARD_COLORS[g] for g in at_risk}
    offered = page.eval_on_selector_all("#insure-hand .card", "els => els.map(e => +e.dataset.card)")
    assert offered and sorted(offered) == sorted(h for h in me["hand"] if CARD_COLORS[h] in risky and CARD_ICONS[h])
    for cid in offered:
        assert page.locator(f'#insure-hand .card[data-card="{cid}"] .shield').count() == CARD_ICONS[cid]
    page.screenshot(path=str(shots / f"insurance-dialog-{locale[:2]}.png"))

    # A good and a hand card of its colour: the running total counts the card's icons for it.
    card = offered[0]
    good = next(g for g in at_risk if CARD_COLORS[g] == CARD_COLORS[card])
    colour = COLORS[CARD_COLORS[card]]
    page.click(f'#insure-goods .card[data-card="{good}"]')
    tally = page.locator(f'#insure-count [data-color="{colour}"]')
    expect(tally).to_have_text(f"{SYMBOLS[colour]} " + ("no insurance icons" if locale == "en-US"
                                                      else "keine Versicherungssymbole") + words["for"] + words["goods"])
    expect(tally).to_have_class("bad")
    page.click(f'#insure-hand .card[data-card="{card}"]')
    expect(tally).to_have_text(f"{SYMBOLS[colour]} {words['icons'][CARD_ICONS[card]]}{words['for']}{words['goods']}")
    expect(tally).to_have_class("ok")
    expect(page.locator("#insure-confirm")).not_to_have_attribute("aria-disabled", "true")
    page.screenshot(path=str(shots / f"insurance-dialog-{locale[:2]}-chosen.png"))
