"""Play again does not pull anyone off the result (issue 30 item 3): two of three players click
"Play again"; the third player, a second tab of one of them and a spectator keep the result (the
VP table) and get a notice naming who wants to play again, in English and in German, with "I'm
in" / "Watch game 2" right there. The third says "I'm in" from the notice and lands in the
waiting room; when the host starts game 2, the pages still on the result say so and go to the
table only when their person asks (docs/ui.md "Play again"). A game 2 played to its end
meanwhile is said to be over, with the way to its result."""
from __future__ import annotations

import httpx
from playwright.sync_api import expect

from .driver import Table
from .helpers import goto

# The notice's text as read, without the name tags' markers (the swatch before each name).
SAID = """() => { const n = document.getElementById('again-notice').cloneNode(true);
  n.querySelectorAll('.swatch').forEach((s) => s.remove());
  return n.textContent.replace(/\\s+/g, ' ').trim(); }"""


def _notice(page) -> str:
    expect(page.locator("#again-notice")).to_be_visible()
    return page.evaluate(SAID)


def _on_the_result(page, players: int = 3) -> None:
    """The result is still on the page: its score table with the VPs, and no waiting room."""
    expect(page.locator(".result > table.score tbody tr")).to_have_count(players)
    expect(page.locator(".result > table.score")).to_be_visible()
    expect(page.locator("#rematch")).to_have_count(0)


def test_play_again_leaves_the_others_on_the_result_with_a_notice(e2e_server, new_page, shots):
    base = e2e_server.base_url
    table = Table(base, ["Ann", "Bob", "Cy"])
    table.start()
    table.play_until(lambda ev, v: v["phase"] == "over")
    table.close()

    def seated(seat):
        page = new_page()
        page.context.add_cookies([table.cookie(seat)])
        goto(page, f"{base}/r/{table.code}")
        return page

    ann, bob, cy, bob2 = seated(0), seated(1), seated(2), seated(1)  # Bob reads on in a second tab
    watcher = new_page()
    goto(watcher, f"{base}/r/{table.code}")
    for page in (ann, bob, cy, bob2, watcher):
        expect(page.locator(".result > table.score")).to_be_visible()
        expect(page.locator("#result-how")).to_be_visible()  # games.js is there
    expect(watcher.locator("#again-btn")).to_have_count(0)

    ann.click("#again-btn")
    expect(ann.locator("#rematch")).to_be_visible()
    _on_the_result(bob)  # Ann's click moved only Ann on
    bob.click("#again-btn")
    expect(bob.locator("#rematch")).to_be_visible()
    expect(ann.locator("#rematch li.in")).to_have_count(2)

    # Cy, Bob's other tab and the spectator still read the result, with a notice.
    for page in (cy, bob2, watcher):
        _on_the_result(page)
    expect(cy.locator("#again-notice")).to_contain_text("want to play again")
    assert _notice(cy) == "Ann and Bob want to play again. ✓ I'm in Go to game 2"
    expect(bob2.locator("#again-notice")).to_contain_text("You are in")
    assert _notice(bob2) == "Ann wants to play again. You are in. Go to game 2"
    expect(watcher.locator("#again-notice")).to_contain_text("playing again")
    assert _notice(watcher) == "Ann and Bob are playing again. Watch game 2"
    cy.screenshot(path=str(shots / "rematch-notice.png"), full_page=True)

    for page in (cy, watcher):
        page.click(".lang-btn[data-lang=de]")
    expect(cy.locator("#again-notice")).to_contain_text("möchten")
    assert _notice(cy) == "Ann und Bob möchten noch einmal spielen. ✓ Ich bin dabei Weiter zu Spiel 2"
    expect(watcher.locator("#again-notice")).to_contain_text("spielen noch einmal")
    assert _notice(watcher) == "Ann und Bob spielen noch einmal. Spiel 2 ansehen"
    for page in (cy, watcher):
        _on_the_result(page)
    watcher.set_viewport_size({"width": 390, "height": 844})
    watcher.screenshot(path=str(shots / "rematch-notice-de-390x844.png"), full_page=True)

    # Cy says "I'm in" from the notice: the waiting room of game 2, everyone in.
    cy.click("#notice-in")
    expect(cy.locator("#rematch")).to_be_visible()
    expect(cy.locator("#rematch li.in")).to_have_count(3)
    expect(cy.locator("#rematch")).to_contain_text("Spiel 2: wer ist dabei?")
    expect(ann.locator("#rematch li.in")).to_have_count(3)
    for page in (bob2, watcher):
        _on_the_result(page)
    assert _notice(bob2) == "Ann and Cy want to play again. You are in. Go to game 2"

    # The host starts game 2: the pages on the result stay there, told so.
    ann.click("#start-btn")
    for page in (ann, bob, cy):
        page.wait_for_selector("#players .player")
        expect(page.locator(".result")).to_be_hidden()
    expect(bob2.locator("#again-notice")).to_contain_text("Game 2 has started")
    expect(watcher.locator("#again-notice")).to_contain_text("Spiel 2 hat begonnen")
    for page in (bob2, watcher):
        _on_the_result(page)
    expect(bob2.locator("#again-btn")).to_have_count(0)  # game 1 can no longer be played again
    expect(bob2.locator("#notice-go")).to_have_text("Go to the table")
    expect(watcher.locator("#notice-go")).to_have_text("Spiel 2 ansehen")
    bob2.screenshot(path=str(shots / "rematch-started-notice.png"), full_page=True)

    # Going on: Bob's tab sits at game 2's table with his hand; the spectator watches it.
    bob2.click("#notice-go")
    bob2.wait_for_selector("#players .player")
    expect(bob2.locator(".result")).to_be_hidden()
    expect(bob2.locator("#hand .card").first).to_be_visible()
    assert bob2.get_attribute("body", "data-version") == bob.get_attribute("body", "data-version")
    watcher.click("#notice-go")
    watcher.wait_for_selector("#players .player")
    for page in (bob2, watcher):  # a new table: nothing of game 1 (its last payment, its log) is left on it
        expect(page.locator(".result")).to_be_hidden()
        expect(page.locator("#summary")).to_be_hidden()
        expect(page.locator("#log")).not_to_contain_text("Game over")
    expect(watcher.locator("#spectator-note")).to_be_visible()
    expect(watcher.locator("#earlier a")).to_have_attribute("href", f"/r/{table.code}/games/1")


def test_a_next_game_played_to_its_end_while_the_result_is_read_says_it_is_over(e2e_server, new_page, shots):
    """Game 2 is started and played to its end while a seated player's tab and a spectator
    still read game 1's result: the notice says game 2 is over (not "has started"), in English
    and German, and its button opens game 2's result."""
    base = e2e_server.base_url
    table = Table(base, ["Ann", "Bob"])
    table.start()
    table.play_until(lambda ev, v: v["phase"] == "over")
    table.close()
    bob, watcher = new_page(), new_page()
    bob.context.add_cookies([table.cookie(1)])
    for page in (bob, watcher):
        goto(page, f"{base}/r/{table.code}")
        expect(page.locator("#result-how")).to_be_visible()
    r = httpx.post(f"{base}/api/rooms/{table.code}/again", json={"game": 1},
                   headers={"Authorization": f"Bearer {table.tokens[0]}"})
    assert r.status_code == 200, r.text
    expect(watcher.locator("#again-notice")).to_contain_text("Ann is playing again.")
    table.start()  # game 2, played to its end by both seats' sockets
    table.play_until(lambda ev, v: v["phase"] == "over")
    table.close()
    for page in (bob, watcher):
        expect(page.locator("#again-notice")).to_contain_text("is over")
        assert _notice(page) == "Game 2 is over. See its result"
        _on_the_result(page, 2)
        expect(page.locator("#replay-link")).to_have_attribute("href", f"/r/{table.code}/games/1")
    watcher.click(".lang-btn[data-lang=de]")
    expect(watcher.locator("#again-notice")).to_contain_text("zu Ende")
    assert _notice(watcher) == "Spiel 2 ist zu Ende. Zum Ergebnis"
    watcher.screenshot(path=str(shots / "rematch-next-over-notice-de.png"), full_page=True)
    for page in (bob, watcher):
        page.click("#notice-go")
        expect(page.locator("#replay-link")).to_have_attribute("href", f"/r/{table.code}/games/2")
        expect(page.locator(".result > table.score")).to_be_visible()
        expect(page.locator("#again-notice")).to_be_empty()
    expect(bob.locator("#again-btn")).to_be_visible()  # game 2's result: Bob may play again
