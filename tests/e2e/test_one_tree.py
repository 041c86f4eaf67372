"""The room page is one Preact tree (docs/ui.md "The room page's tree"): in the waiting room, at
the table with its decision dialog open, on the result and on the page of a room that does not
exist, one element is a render root (#room-root), and it holds every part the scripts draw:
the top bar's room part, the waiting room or the table, the log, the chat, the dialog, the
result. (tests/js/onetree.test.js checks the same in the modules' sources: only room.js renders.)"""
from __future__ import annotations

from playwright.sync_api import expect

from .driver import Table
from .helpers import goto, create_room

# Preact keeps the tree a render() drew on its container, as the property `__k` (its
# `_children`, so named in the vendored build): every element that has one is a render root.
ROOTS = """() => [...document.querySelectorAll('*')]
  .filter((e) => Object.prototype.hasOwnProperty.call(e, '__k')).map((e) => e.id || e.tagName)"""


def _one_root(page, *inside: str) -> None:
    assert page.evaluate(ROOTS) == ["room-root"]
    for sel in inside:
        expect(page.locator("#room-root " + sel).first).to_be_attached()


def test_the_room_page_draws_one_tree_from_the_waiting_room_to_the_result(e2e_server, new_page):
    base = e2e_server.base_url
    page = new_page()
    create_room(page, base, "Hana", public=False)
    page.wait_for_selector("#chat-input")
    _one_root(page, ".topbar #turn", "#clock", "#chat-jump", "#sound-btn", "#copy-top", "main .waiting",
              "main .chatbox")
    page.click("#add-bot")
    page.wait_for_function("document.querySelectorAll('.seat:not(.empty)').length === 2")
    page.click("#start-btn")
    page.wait_for_selector("#players .player")
    _one_root(page, ".table-side .chatbox", "#log", "#market .card", "#actionbar", "#players .player",
              "dialog#decision", "#keys")
    # the outside of the tree: the toasts and the live region of announcements (dom.js, keys.js)
    assert page.evaluate("document.getElementById('toasts').closest('#room-root')") is None

    table = Table(base, ["Ann", "Bob"])
    table.start()
    table.play_until(lambda ev, v: v["phase"] == "over")
    table.close()
    seated = new_page()
    seated.context.add_cookies([table.cookie(0)])
    goto(seated, f"{base}/r/{table.code}")
    expect(seated.locator("#result-how")).to_be_visible()  # the end screen's module is there
    _one_root(seated, ".result #result-h", "#result-more #again-btn", "#again-notice", "#log li")

    missing = new_page()
    goto(missing, base + "/r/NOSUCHROOM")
    missing.wait_for_selector("text=There is no room with this code.")
    _one_root(missing, ".topbar .brand", "main .panel")
