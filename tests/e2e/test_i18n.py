"""German all the way, checked in the browser against the real catalogues: both languages
have the same keys (and the same how-to sections and rule ids), every refusal code the server
sends (the registry, app/refusals.py) has a text in both and no refusal text is of a code it
does not have, the how-to page links each section to rule ids that
exist on /rules, and counts use the language's plural rules."""
from __future__ import annotations

import re

import httpx
from playwright.sync_api import expect

from app.refusals import CODES

from .helpers import goto

LOAD = """async () => {
  const m = async (p) => (await import(p)).default;
  return {en: await m('/static/js/i18n/en.js'), de: await m('/static/js/i18n/de.js'),
          gamesEn: await m('/static/js/i18n/games-en.js'), gamesDe: await m('/static/js/i18n/games-de.js'),
          howEn: await m('/static/js/howto/en.js'), howDe: await m('/static/js/howto/de.js')};
}"""


def _catalogues(page):
    return page.evaluate(LOAD)


def test_both_catalogues_have_the_same_keys_and_how_to_sections(e2e_server, new_page):
    page = new_page()
    goto(page, e2e_server.base_url + "/")
    c = _catalogues(page)
    assert len(c["en"]) > 200
    assert set(c["en"]) - set(c["de"]) == set(), "keys only in en.js"
    assert set(c["de"]) - set(c["en"]) == set(), "keys only in de.js"
    # The texts of games.js too.
    assert set(c["gamesEn"]) == set(c["gamesDe"]) and len(c["gamesEn"]) > 20
    assert not set(c["gamesEn"]) & set(c["en"]), "a part key shadows a main key"
    # No placeholder is lost in translation.
    for k, v in list(c["en"].items()) + list(c["gamesEn"].items()):
        assert set(re.findall(r"\{(\w+)\}", v)) == set(re.findall(r"\{(\w+)\}", (c["de"] | c["gamesDe"])[k])), k
    strip = [[(s["id"], tuple(s["rules"]), s["pic"], len(s["text"])) for s in c[h]] for h in ("howEn", "howDe")]
    assert strip[0] == strip[1]
    # One term per thing: the card icons are "insurance icons" / "Versicherungssymbole".
    assert not [v for v in c["en"].values() if "shield" in v.lower()]
    assert not [v for v in c["de"].values() if "schild" in v.lower()]


# The client's own texts under `err.`: no answer, an unknown code, and plural forms.
CLIENT_ONLY = {"network", "unknown"}
PLURAL = re.compile(r"_(one|other)$")


def test_every_refusal_code_has_an_english_and_a_german_text(e2e_server, new_page):
    page = new_page()
    goto(page, e2e_server.base_url + "/")
    c = _catalogues(page)
    codes = {code for code, spec in CODES.items() if spec.sent}
    assert len(codes) > 40
    for lang, part in (("en", "gamesEn"), ("de", "gamesDe")):
        texts = c[lang] | c[part]
        # Codes only the play-again and record paths give have their text with those (games.js).
        missing = sorted(code for code in codes if "err." + code not in texts)
        assert not missing, (lang, missing)
        keyed = {PLURAL.sub("", k[4:]) for k in texts if k.startswith("err.")}
        unknown = sorted(keyed - set(CODES) - CLIENT_ONLY)
        assert not unknown, (lang, "texts of no refusal code", unknown)


def test_how_to_play_links_every_section_to_rule_ids_that_exist(e2e_server, new_page, shots):
    base = e2e_server.base_url
    rules = httpx.get(base + "/rules").text
    anchors = set(re.findall(r'id="(R-[\w-]+)"', rules))
    assert {"R-pay-9", "R-pay-6a", "R-end-2", "R-turn-1"} <= anchors
    for locale, word in (("en-US", "Anori"), ("de-DE", "Versicherungssymbol")):
        page = new_page(locale=locale)
        goto(page, base + "/how-to-play")
        page.wait_for_selector("#howto-body section")
        sections = page.locator("#howto-body section")
        assert sections.count() >= 10
        for i in range(sections.count()):
            hrefs = sections.nth(i).locator(".rule-ids a").evaluate_all("as => as.map(a => a.getAttribute('href'))")
            assert hrefs, sections.nth(i).inner_text()
            for href in hrefs:
                assert href.startswith("rules#") and href.split("#")[1] in anchors, href
        text = page.inner_text("#howto")
        assert word in text
        page.screenshot(path=str(shots / f"howto-{locale[:2]}.png"), full_page=True)
    # What a new player asked for is there (English page).
    page = new_page(locale="en-US")
    goto(page, base + "/how-to-play")
    page.wait_for_selector("#howto-body section")
    text = page.inner_text("#howto-body")
    for fact in ("back to Anori", "back to Osaka", "8 or more Achievement tokens", "share the win",
                 "Farm", "smallest starting hand begins", "score nothing", "stays insured",
                 "refreshed for you"):
        assert fact in text, fact
    # A rule link opens the rules at that rule.
    page.locator('a[href="rules#R-pay-9"]').first.click()
    page.wait_for_url("**/rules#R-pay-9")
    expect(page.locator("#R-pay-9")).to_contain_text("sunk ships go back to Anori")


def test_plurals_follow_the_language(e2e_server, new_page):
    page = new_page(locale="de-DE")
    goto(page, e2e_server.base_url + "/")
    said = page.evaluate("""async () => {
      const i = await import('/static/js/i18n.js');
      const out = [i.t('err.not_yet', {n: 1}), i.t('err.not_yet', {n: 12}), i.listText(['A', 'B', 'C'])];
      await i.setLang('en');
      out.push(i.t('err.not_yet', {n: 1}), i.t('err.not_yet', {n: 12}), i.listText(['A', 'B', 'C']));
      return out; }""")
    assert said == ["Noch nicht: möglich in 1 Sekunde.", "Noch nicht: möglich in 12 Sekunden.", "A, B und C",
                    "Not yet: possible in 1 second.", "Not yet: possible in 12 seconds.", "A, B, and C"]
