"""German all the way: in German pages, every refusal a person can cause through the page is
shown in German, worded from its code and the fields the server sent (never its English
message). Races a person can run into (the room filled or the game started while the join
form was open, a player came back just before the host's click, a second tab behind) are
made certain by holding back WebSocket frames with Playwright's WebSocket routing; the
server and its answers are real."""
from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from .helpers import create_room, goto, join_room, market

RLO = "Eve\u202egnirts"  # a right-to-left override: refused by the server (bad_name)


class FrameGate:
    """Routes a page's room WebSocket through the test: frames whose `type` is in `held`
    are dropped, `edit(msg)` may change room summaries, `refuse` closes new sockets."""

    def __init__(self, page):
        self.held: set[str] = set()
        self.edit = None
        self.refuse = False
        self.routes = []
        page.route_web_socket(re.compile(r"/ws/rooms/"), self._route)

    def _route(self, ws) -> None:
        if self.refuse:
            ws.close()
            return
        self.routes.append(ws)
        server = ws.connect_to_server()

        def down(message) -> None:
            msg = json.loads(message)
            if msg.get("type") in self.held:
                return
            if self.edit and msg.get("type") == "room":
                msg = self.edit(msg)
            ws.send(json.dumps(msg))
        server.on_message(down)

    def cut(self) -> None:
        """Close the page's sockets and refuse new ones (the page is offline for the server)."""
        self.refuse = True
        for ws in self.routes:
            ws.close()


def _de(page) -> dict:
    return page.evaluate("async () => (await import('/static/js/i18n/de.js')).default")


def _expect_toast(page, text: str) -> None:
    expect(page.locator(".toast.error").last).to_have_text(text)


def test_every_refusal_a_person_can_cause_is_shown_in_german(e2e_server, new_page, shots):
    base = e2e_server.base_url
    host = new_page(locale="de-DE")
    goto(host, base + "/")
    de = _de(host)
    # bad_name: the page lets a right-to-left override through; the server refuses it.
    host.fill("#create-name", RLO)
    host.click("#create-btn")
    expect(host.locator("#create-error")).to_have_text(de["err.bad_name"])
    code = create_room(host, base, "Hana")
    # not_enough_players (min_players=2): Start alone says why, and the server refuses.
    assert host.get_attribute("#start-btn", "aria-disabled") == "true"
    host.click("#start-btn", force=True)
    _expect_toast(host, de["err.not_enough_players"].replace("{min_players}", "2"))
    host.screenshot(path=str(shots / "de-refusal-not-enough-players.png"))

    # room_full (max_seats=4): a visitor's join form stays open while the room fills up.
    late = new_page(locale="de-DE")
    gate = FrameGate(late)
    goto(late, f"{base}/r/{code}")
    late.wait_for_selector("#join-name")
    gate.held.add("room")
    for n in (2, 3, 4):
        with host.expect_response(lambda r: r.url.endswith("/bots")):
            host.click("#add-bot")
        host.wait_for_function("n => document.querySelectorAll('.seat:not(.empty)').length === n", arg=n)
    # The host's own Add button says the room is full; pressed anyway, the server says so.
    host.click("#add-bot", force=True)
    _expect_toast(host, de["err.room_full"].replace("{max_seats}", "4"))
    late.fill("#join-name", "Lotte")
    late.click("#join-btn")
    expect(late.locator(".join .form-error")).to_have_text(de["err.room_full"].replace("{max_seats}", "4"))
    late.screenshot(path=str(shots / "de-refusal-room-full.png"))

    # game_started: a free seat again, a visitor's form open, the host starts meanwhile.
    host.locator('.seat[data-seat="3"] .remove-bot').click()
    host.wait_for_function("document.querySelectorAll('.seat:not(.empty)').length === 3")
    gate.held.discard("room")
    goto(late, f"{base}/r/{code}")
    late.wait_for_selector("#join-name")
    gate.held |= {"room", "history", "state", "event"}
    host.click("#start-btn")
    host.wait_for_selector("#players .player")
    late.fill("#join-name", "Lotte")
    late.click("#join-btn")
    expect(late.locator(".join .form-error")).to_have_text(de["err.game_started"])


def test_in_game_refusals_are_shown_in_german(e2e_server, new_page, shots):
    base = e2e_server.base_url
    hana, gus, kai = (new_page(locale="de-DE") for _ in range(3))
    gates = {p: FrameGate(p) for p in (hana, gus, kai)}
    code = create_room(hana, base, "Hana")
    join_room(gus, base, code, "Gus")
    join_room(kai, base, code, "Kai")
    de = _de(hana)
    hana.click("#start-btn")
    for p in (hana, gus, kai):
        p.wait_for_selector(".player.mine")
        if p.locator("dialog[open]").count():
            p.keyboard.press("Escape")  # the decision can wait; the table is what matters here
    gus_seat = int(gus.get_attribute(".player.mine", "data-seat"))
    panel = lambda p: p.locator(f'.player[data-seat="{gus_seat}"]')  # noqa: E731
    take_over = "Computerspieler für Gus übernehmen lassen"

    # seat_connected: Gus is gone, the host sees the button; Gus comes back, but the host's
    # page has not heard it yet when the host clicks.
    gus.goto("about:blank")
    expect(panel(hana).get_by_role("button", name=take_over)).to_be_visible()
    gates[hana].held.add("room")
    goto(gus, f"{base}/r/{code}")
    gus.wait_for_selector(".player.mine")
    panel(hana).get_by_role("button", name=take_over).click()
    _expect_toast(hana, de["err.seat_connected"])
    hana.screenshot(path=str(shots / "de-refusal-seat-connected.png"))
    gates[hana].held.discard("room")

    # not_yet (retry_after_s): Gus is gone again; Kai's clock runs ahead (his page believes
    # the handover delay is over), the server counts the seconds left and sends them.
    def older(msg):
        for pl in msg["room"]["players"]:
            if pl["offline_s"] is not None:
                pl["offline_s"] += 3600
        return msg
    gates[kai].edit = older
    gus.goto("about:blank")
    button = panel(kai).get_by_role("button", name=take_over)
    expect(button).to_be_visible()
    button.click()
    toast = kai.locator(".toast.error").last
    expect(toast).to_have_text(re.compile(r"^Noch nicht: möglich in \d+ Sekunden\.$"))
    kai.screenshot(path=str(shots / "de-refusal-not-yet.png"))

    # Kai's own connection is gone: while his page reconnects it offers no handover at all
    # (it cannot know who is there: every dot says so), so the server's `not_connected`
    # refusal is not reached from this page (docs/ui.md).
    gates[kai].cut()
    expect(kai.locator("#banner")).to_have_text(de["conn.lost"])
    expect(panel(kai).get_by_role("button", name=take_over)).to_have_count(0)
    expect(panel(kai).locator(".dot")).to_have_attribute("aria-label", de["dot.unk"])
    kai.screenshot(path=str(shots / "de-no-handover-while-reconnecting.png"))


def test_a_second_tab_behind_the_game_gets_stale_version_in_german(e2e_server, new_page, shots):
    base = e2e_server.base_url
    tab = new_page(locale="de-DE")
    create_room(tab, base, "Tina")
    tab.click("#add-bot")
    tab.wait_for_function("document.querySelectorAll('.seat:not(.empty)').length === 2")
    other = tab.context.new_page()  # the same player in a second tab
    other.errors, other.dialogs = [], []
    gate = FrameGate(other)
    goto(other, tab.url)
    de = _de(tab)
    tab.click("#start-btn")
    for p in (tab, other):
        p.wait_for_selector(".player.mine")
    # Wait for Tina's decision in both tabs, then hold the second tab's news back.
    for p in (tab, other):
        p.wait_for_function("document.body.dataset.decision && document.body.dataset.pending === '0'")
    gate.held |= {"state", "event", "room", "history"}
    first = tab.evaluate("document.body.dataset.decision")

    def act(p):
        if first == "token_draft":
            if not p.locator("dialog[open]").count():
                p.keyboard.press("d")
            p.locator("dialog[open] .token-btn").first.click()
        else:
            cid = next(m["card"] for m in market(p) if not m["other"])
            p.click(f'#market .card[data-card="{cid}"]')
            p.click("#btn-take")
    act(tab)
    tab.wait_for_function("document.body.dataset.pending === '0'")
    act(other)
    _expect_toast(other, de["err.stale_version"])
    other.screenshot(path=str(shots / "de-refusal-stale-version.png"))
