"""Play again and the replay in real browsers (issue 12): three players click "Play again"
at the same moment (one twice, and in two tabs), the room waits for exactly one new game with everyone in,
the host starts it; the finished game's replay is stepped through with the arrow keys."""
from __future__ import annotations

import httpx
from playwright.sync_api import expect

from .driver import Table
from .helpers import goto


def _click_together(pages, selector: str, times: list[int], late: str) -> None:
    """Every page clicks `selector` at one shared moment (`times[i]` clicks on page i). A page
    whose timer fires after another click already changed it (a busy page under load) clicks
    `late` instead, as its player would (none: that player is in already, e.g. a second tab)."""
    at = pages[0].evaluate("Date.now() + 700")
    for page, n in zip(pages, times):
        page.evaluate("""([sel, late, at, n]) => {
            let tries = 0;
            const go = () => {
              const b = document.querySelector(sel) || document.querySelector(late);
              if (b) for (let i = 0; i < n; i++) b.click();
              else if (tries++ < 300) setTimeout(go, 100);  // the waiting room is still being drawn (30 s on a busy machine)
            };
            setTimeout(go, Math.max(0, at - Date.now()));
          }""", [selector, late, at, n])


def test_crossed_play_again_then_replay_with_keys(e2e_server, new_page, shots):
    base = e2e_server.base_url
    table = Table(base, ["Ann", "Bob", "Cy"])
    table.start()
    table.play_until(lambda ev, v: v["phase"] == "over")
    pages = []
    for seat in (0, 1, 2, 1):  # the players open the finished game, Bob in two tabs (pages drawing every move would crawl)
        page = new_page()
        page.context.add_cookies([table.cookie(seat)])
        goto(page, f"{base}/r/{table.code}")
        pages.append(page)
    for page in pages:
        expect(page.locator("#again-btn")).to_be_visible()
        expect(page.locator("#result-how")).to_be_visible()
    ann = pages[0]
    how = ann.inner_text("#result-how")
    assert "ended on" in how and ("8 Achievement tokens" in how or "passed" in how)
    assert ann.locator(".breakdown tbody tr").count() == 3
    ann.screenshot(path=str(shots / "rematch-end.png"), full_page=True)
    # German too, after a switch (the explanation's texts come with games.js).
    cy = pages[2]
    cy.click(".lang-btn[data-lang=de]")
    expect(cy.locator("#result-how")).to_contain_text("Das Spiel endete im Zug von")
    expect(cy.locator("#again-btn")).to_contain_text("Noch einmal spielen")
    cy.set_viewport_size({"width": 390, "height": 844})
    cy.screenshot(path=str(shots / "rematch-end-de-390x844.png"), full_page=True)
    table.close()

    # Everyone at once, Bob twice in one tab (a double click) and once in his other tab: one
    # new game, everybody in.
    _click_together(pages, "#again-btn", [1, 2, 1, 1], late="#im-in-btn")
    for page in pages:
        expect(page.locator("#rematch")).to_be_visible()
        expect(page.locator("#rematch li.in")).to_have_count(3)
    games = httpx.get(f"{base}/api/rooms/{table.code}/games").json()
    assert games["current"] == 2 and [g["number"] for g in games["games"]] == [1]
    assert httpx.get(f"{base}/api/rooms/{table.code}").json()["status"] == "waiting"
    ann.screenshot(path=str(shots / "rematch-waiting.png"), full_page=True)

    # The host starts game 2: every page shows the table again, from version 0.
    ann.click("#start-btn")
    for page in pages:
        page.wait_for_selector("#players .player")
        expect(page.locator(".result")).to_be_hidden()
    room = httpx.get(f"{base}/api/rooms/{table.code}").json()
    assert room["status"] == "playing" and room["game"] == 2
    # The room links the finished game's replay while the next one runs.
    expect(pages[1].locator("#earlier a")).to_have_attribute("href", f"/r/{table.code}/games/1")
    pages[1].screenshot(path=str(shots / "rematch-game2.png"))

    # The replay of game 1, linked from the waiting room before; stepped with the keys.
    rp = new_page()
    goto(rp, f"{base}/r/{table.code}/games/1")
    rp.wait_for_selector("#rp-step")
    # The replay offers the game's downloads too (the end screen is gone once game 2 runs).
    for link, kind in (("#rp-json", "record.json"), ("#rp-txt", "record.txt")):
        href = rp.get_attribute(link, "href")
        assert href == f"/api/rooms/{table.code}/games/1/{kind}"
        assert httpx.get(base + href).status_code == 200
    total = httpx.get(f"{base}/api/rooms/{table.code}/games/1/record.json").json()["actions"]
    assert rp.get_attribute("body", "data-step") == "0"
    # The game is over: every player's hand is shown, from the deal on.
    for seat in range(3):
        assert rp.locator(f".rp-player[data-seat='{seat}'] .rp-row").first.locator(".card").count() > 0
    for k in range(1, 4):
        rp.keyboard.press("ArrowRight")
        expect(rp.locator("body")).to_have_attribute("data-step", str(k))
    expect(rp.locator("#rp-step")).to_have_text(f"Action 3 of {len(total)}")
    assert rp.locator("#rp-events li").count() >= 1
    rp.keyboard.press("ArrowLeft")
    expect(rp.locator("body")).to_have_attribute("data-step", "2")
    rp.keyboard.press("End")
    expect(rp.locator("body")).to_have_attribute("data-step", str(len(total)))
    expect(rp.locator("#rp-next")).to_be_disabled()
    assert "Game over" in rp.inner_text("#rp-events")
    rp.screenshot(path=str(shots / "replay-end.png"), full_page=True)
    rp.click("#rp-first")
    expect(rp.locator("body")).to_have_attribute("data-step", "0")
    rp.click("#rp-next")
    expect(rp.locator("body")).to_have_attribute("data-step", "1")

    rp.set_viewport_size({"width": 390, "height": 844})
    rp.click(".lang-btn[data-lang=de]")
    expect(rp.locator("#rp-step")).to_have_text(f"Aktion 1 von {len(total)}")
    rp.keyboard.press("ArrowRight")
    expect(rp.locator("body")).to_have_attribute("data-step", "2")
    rp.screenshot(path=str(shots / "replay-de-390x844.png"), full_page=True)

    # Game 2 is running: its replay page says so and shows nothing of it.
    live = new_page()
    goto(live, f"{base}/r/{table.code}/games/2")
    expect(live.locator("#rp-error")).to_contain_text("not over")
    assert live.locator(".card").count() == 0
