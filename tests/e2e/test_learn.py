""""Learn to play" in the browser (issue 32; docs/ui.md "Learn to play"): from the home page the
person starts the tutorial, sees the guide's first tips — the token draft, buying the Market,
taking a coin, reserving (in the order the prepared deal brings them) — each with the right
elements ringed, follows the suggestions ("Play it"), reloads (the shown tips are not shown
again), and skips the rest (the game goes on without tips). English and German, a desktop and a
360 px phone; real server, real Chromium. Screenshots: test-artifacts/screenshots/learn-*.png."""
from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP
from .helpers import goto, log_count, wait_log_grows

SMALL_PHONE = {"width": 360, "height": 740}
WORDS = {"en": {"title": "Learn to play", "draft": "The token draft", "buy": "Buy the whole Market",
                "take": "Take a coin", "reserve": "Reserve a card",
                "guide_hint": "the computer's move", "asked": "asked the computer for a hint"},
         "de": {"title": "Spielen lernen", "draft": "Die Plättchenwahl", "buy": "Den ganzen Markt kaufen",
                "take": "Eine Münze nehmen", "reserve": "Eine Karte reservieren",
                "guide_hint": "den Zug des Computers",
                "asked": "hat den Computer um einen Tipp gebeten"}}
# What each decision tip rings (learn.js RING), at least these.
RINGED = {"draft": ["#btn-hint-play-dlg", ".token-btn.hinted"],
          "take": ["#btn-take", "#btn-hint-play-bar", ".market-row .card.hinted"],
          "reserve": ["#btn-reserve", "#btn-hint-play-bar", ".card.hinted"],
          "buy": ["#btn-buy", "#btn-suggest", "#btn-hint-play-bar", ".market-row"],
          "insure": ["#btn-hint-play-dlg"]}
FIRST = ("draft", "take", "reserve", "buy")
ALL = ("draft", "take", "reserve", "buy", "ships", "payment", "tide", "insure", "refresh", "end", "done")
# (language, screen, its name, played to the end: every tip seen, else the rest skipped)
CASES = [("en", DESKTOP, "desktop", True), ("de", SMALL_PHONE, "phone", False), ("en", SMALL_PHONE, "phone", False)]


def _tip(page) -> str | None:
    el = page.locator("#learn")
    return el.get_attribute("data-tip") if el.count() else None


def _shown(page, code: str) -> dict:
    return page.evaluate(f"JSON.parse(localStorage.getItem('osaka_learn_{code}') || '{{}}')")


def _play_hint(page) -> None:
    """Play the suggested move of this decision (the hint's "Play it", in the bar or the dialog)."""
    before = log_count(page)
    page.locator("#btn-hint-play-dlg:visible, #btn-hint-play-bar:visible").first.click()
    wait_log_grows(page, before)


def _next(page, tip: str) -> None:
    """Press "Next" on tip `tip` — checked and pressed in one task of the page, so a tip that came
    meanwhile is not the one dismissed (a person sees which tip they dismiss)."""
    if not page.evaluate("""(tip) => {
      const a = document.getElementById("learn"), b = document.getElementById("learn-next");
      if (!a || a.dataset.tip !== tip || !b || b.closest("[inert]") || document.querySelector("dialog[open]")) {
        return false;
      }
      b.click();
      return true;
    }""", tip):
        time.sleep(0.1)


def _follow(page, shots, lang: str, size: str, want: set[str], seen: list[str], deadline_s: float = 120) -> None:
    """Follow the guide until every tip of `want` was seen: a decision tip's rings are checked and
    its suggestion played; any other tip is read and dismissed with Next; a decision without a new
    tip is played as suggested too."""
    end = time.monotonic() + deadline_s
    while not want <= set(seen):
        assert time.monotonic() < end, f"tips seen: {seen}"
        tip = _tip(page)
        mine = page.locator('body:not([data-decision=""])[data-pending="0"]').count()
        play = page.locator("#btn-hint-play-dlg:visible, #btn-hint-play-bar:visible")
        if tip and tip not in RINGED and page.locator("dialog[open]").count():
            if play.count():  # the decision's modal dialog first: the tip beside the table waits
                _play_hint(page)
            else:
                time.sleep(0.1)
            continue
        if tip and tip not in seen:
            seen.append(tip)
            head = page.locator("#learn-tip-h")
            if tip in ("draft", "insure") and page.locator("dialog[open]").count():
                # In the modal dialog, where it can be read and pressed; the page copy behind the
                # dialog is not shown a second time beside it.
                expect(page.locator(f"#learn-dlg[data-tip={tip}] #learn-next-dlg")).to_be_visible()
                expect(page.locator("#learn")).to_be_hidden()
                head = page.locator("#learn-tip-h-dlg")
            expect(head).to_be_visible()
            if tip in RINGED:
                expect(play.first).to_be_visible()
                for sel in RINGED[tip]:
                    expect(page.locator(sel + ".learn-ring").first).to_be_attached()
                if lang in WORDS and tip in WORDS[lang]:
                    expect(head).to_have_text(WORDS[lang][tip])
                expect(page.locator("#announce")).to_contain_text(head.inner_text())
                page.screenshot(path=str(shots / f"learn-{tip}-{lang}-{size}.png"))
                _play_hint(page)
            else:
                page.screenshot(path=str(shots / f"learn-{tip}-{lang}-{size}.png"))
                _next(page, tip)
            continue
        if tip and tip not in RINGED and tip in seen:
            _next(page, tip)
            continue
        if mine and play.count() and _tip(page) == tip:  # (the hint and its tip come in one drawing)
            _play_hint(page)
            continue
        time.sleep(0.1)


@pytest.mark.parametrize("lang,viewport,size,to_the_end", CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_learn_to_play_from_the_home_page(e2e_server, new_page, shots, lang, viewport, size, to_the_end):
    locale = "de-DE" if lang == "de" else "en-US"
    page = new_page(viewport=viewport, locale=locale, has_touch=size == "phone", is_mobile=size == "phone")
    goto(page, e2e_server.base_url + "/")
    learn = page.locator("#learn-btn")
    expect(learn).to_have_text(WORDS[lang]["title"])
    if size == "phone":
        page.screenshot(path=str(shots / f"learn-home-{lang}-{size}.png"), full_page=True)
    page.fill("#create-name", "Ann")
    learn.click()
    page.wait_for_url("**/r/*")
    code = page.url.rsplit("/", 1)[1]
    # The room: the person and two computer players, the game already running.
    room = page.evaluate(f"fetch('/api/rooms/{code}').then((r) => r.json())")
    assert room["tutorial"] is True and room["status"] == "playing" and room["public"] is False
    assert [p["bot"] for p in room["players"]] == [False, True, True]
    assert room["players"][0]["name"] == "Ann"

    # The first tip is the token draft, in a labelled region (not a dialog), read out.
    expect(page.locator("#learn[data-tip=draft]")).to_be_attached(timeout=30000)  # (after the computers' tokens)
    expect(page.locator("#learn-dlg[data-tip=draft], #learn[data-tip=draft]:visible")).to_have_count(1)
    expect(page.locator("#learn-h")).to_contain_text(WORDS[lang]["title"])
    assert page.locator("#learn").get_attribute("role") is None and page.locator("#learn").evaluate(
        "(el) => el.tagName") == "ASIDE"
    seen: list[str] = []
    _follow(page, shots, lang, size, set(FIRST), seen)
    assert seen[:1] == ["draft"] and set(FIRST) <= set(seen), seen
    # The guide asks for the hints itself: the log says the guide showed the move, not that the
    # person asked for a hint.
    expect(page.locator("#log")).to_contain_text(WORDS[lang]["guide_hint"])
    expect(page.locator("#log")).not_to_contain_text(WORDS[lang]["asked"])
    stored = _shown(page, code)
    assert set(FIRST) <= set(stored["shown"]) | {stored.get("current")}, stored

    # A reload shows no tip again that was shown before.
    before = set(stored["shown"])
    page.reload()
    page.wait_for_selector("html[data-ready]", state="attached")
    page.wait_for_selector("#market", state="attached")
    time.sleep(0.5)
    tip = _tip(page)
    assert tip is None or tip not in before, (tip, before)

    if to_the_end:  # every rule's tip comes once, then "That was every rule"; the game ends by tokens
        _follow(page, shots, lang, size, set(ALL), seen, deadline_s=400)
        assert len(seen) == len(set(seen)) == len(ALL), seen
        end = time.monotonic() + 120
        while not page.locator(".result:not([hidden])").count():  # on to the end, as suggested
            assert time.monotonic() < end, "the game did not end"
            if page.locator('body:not([data-decision=""])[data-pending="0"]').count() and \
                    page.locator("#btn-hint-play-dlg:visible, #btn-hint-play-bar:visible").count():
                _play_hint(page)
            time.sleep(0.1)
        expect(page.locator("#learn, #learn-dlg")).to_have_count(0)
        page.screenshot(path=str(shots / f"learn-result-{lang}-{size}.png"))
        return

    # Keyboard: Skip is a button in the tab order; skipping ends the guidance, the game goes on.
    end = time.monotonic() + 60
    # The next tip beside the table comes (playing as suggested meanwhile; a decision's dialog is
    # modal, so the tip beside the table is skipped when no dialog is open).
    while _tip(page) is None or page.locator("dialog[open]").count():
        assert time.monotonic() < end, "no further tip came"
        if page.locator('body:not([data-decision=""])[data-pending="0"]').count() and \
                page.locator("#btn-hint-play-dlg:visible, #btn-hint-play-bar:visible").count():
            _play_hint(page)
        time.sleep(0.1)
    skip = page.locator("#learn-skip")
    skip.focus()
    expect(skip).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#learn, #learn-dlg")).to_have_count(0)
    expect(page.locator(".learn-ring")).to_have_count(0)
    assert _shown(page, code)["skipped"] is True
    v = int(page.get_attribute("body", "data-version"))
    end = time.monotonic() + 60
    while int(page.get_attribute("body", "data-version")) < v + 4:  # the game goes on, without tips
        assert time.monotonic() < end
        if page.locator('body:not([data-decision=""])[data-pending="0"]').count():
            ask = page.locator("#btn-hint-bar:visible, #btn-hint-dlg:visible")
            if ask.count():  # no hint is asked by itself any more: the person asks
                ask.first.click()
            page.locator("#btn-hint-play-dlg:visible, #btn-hint-play-bar:visible").first.wait_for()
            _play_hint(page)
        expect(page.locator("#learn")).to_have_count(0)
        time.sleep(0.1)
    page.reload()
    page.wait_for_selector("#market", state="attached")
    time.sleep(0.5)
    expect(page.locator("#learn")).to_have_count(0)
