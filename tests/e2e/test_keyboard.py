"""Keyboard and screen-reader play in a real browser: a whole game against a computer player
with the keyboard alone (Tab, arrows, Space, Enter, Escape and the listed shortcuts), focus
never falling back to <body> after an action or a server update, the decision dialogs taking,
keeping and returning focus, and an axe-core audit (no serious or critical violations) of
home, room, table, each dialog and the end screen."""
from __future__ import annotations

import contextlib
import re
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from .conftest import PHONE
from .helpers import (FOCUS_WATCH, audit, choose_token, create_room, do_buy_suggest, do_take, farm,
                      focus_on_body, goto, join_room, log_count, market, wait_acting, wait_log_grows)


class Keys:
    """Presses keys on a page and counts them (Tab presses separately)."""

    def __init__(self, page):
        self.page, self.tabs, self.other = page, 0, 0

    def press(self, key: str, times: int = 1) -> None:
        for _ in range(times):
            self.page.keyboard.press(key)
            if key in ("Tab", "Shift+Tab"):
                self.tabs += 1
            else:
                self.other += 1

    def tab_to(self, selector: str, limit: int = 40) -> None:
        """Tab until the element matching `selector` has the focus."""
        for _ in range(limit):
            if self.page.evaluate("s => document.activeElement && document.activeElement.matches(s)", selector):
                return
            self.press("Tab")
        raise AssertionError(f"Tab never reached {selector}")


def _focused(page) -> str:
    return page.evaluate("""() => { const a = document.activeElement;
      return a ? a.tagName.toLowerCase() + (a.id ? '#' + a.id : '') + (a.dataset.card ? '[card=' + a.dataset.card + ']' : '') : 'none'; }""")


def _focus_comes_to(page, selector: str, timeout_ms: float = 5000) -> str:
    """Wait until the focus is on `selector` (the <dialog>'s `close` event, where the page moves
    the focus to "Decide…", is a task queued after the dialog closed: reading the focus at once
    can see the element the browser restored first); → `_focused(page)` then (or at the timeout)."""
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function("(sel) => document.activeElement && document.activeElement.matches(sel)",
                               arg=selector, timeout=timeout_ms)
    return _focused(page)


def _decision(page, timeout_s: float = 30.0) -> str | None:
    """What the page must decide once it is its turn ("turn", "token_draft", "insurance"),
    None at the end."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if page.locator(".result:not([hidden])").count():
            return None
        d = page.evaluate("document.body.dataset.pending === '0' && document.body.dataset.decision || ''")
        if d:
            return d
        time.sleep(0.05)
    raise AssertionError("no decision came")


def _wait_answer(page, version: int) -> None:
    page.wait_for_function("v => +document.body.dataset.version > v && document.body.dataset.pending === '0'", arg=version)


def _version(page) -> int:
    return int(page.evaluate("+document.body.dataset.version"))


def _move_in_row(keys, page, row: str, target: int) -> None:
    """Focus the row by its shortcut, then arrow keys to card `target`; Space selects it."""
    keys.press({"market": "m", "farm": "f"}[row])
    ids = page.eval_on_selector_all(f"#{row} .card", "els => els.map(e => +e.dataset.card)")
    at = ids.index(int(page.evaluate("+document.activeElement.dataset.card")))
    goal = ids.index(target)
    keys.press("ArrowRight" if goal > at else "ArrowLeft", abs(goal - at))
    assert page.evaluate("+document.activeElement.dataset.card") == target
    keys.press("Space")
    expect(page.locator(f'#{row} .card[data-card="{target}"]')).to_have_attribute("aria-pressed", "true")


def _turn(keys, page) -> str:
    """One turn by keyboard; returns what was done."""
    if page.locator("#btn-pass").count():
        keys.press("p")
        return "pass"
    if page.get_attribute("#btn-suggest", "aria-disabled") is None and any(not m["other"] for m in market(page)):
        keys.press("s")
        expect(page.locator("#btn-buy")).not_to_have_attribute("aria-disabled", "true")
        keys.press("b")
        return "buy"
    takeable = [m["card"] for m in market(page) if not m["other"]]
    if takeable:
        _move_in_row(keys, page, "market", takeable[-1])
        keys.press("t")
        return "take"
    free = [f["card"] for f in farm(page) if not f["reserved"]]
    _move_in_row(keys, page, "farm", free[0])
    keys.press("r")
    return "reserve"


def _stays_in(keys, page) -> None:
    """Tab and Shift+Tab keep the focus inside the open dialog (they wrap around). A probe,
    not play: these presses are not counted."""
    for key in ["Tab"] * 7 + ["Shift+Tab"] * 7:
        page.keyboard.press(key)
        assert page.evaluate("document.getElementById('decision').contains(document.activeElement)"), _focused(page)


def _dialog_by_keyboard(keys, page, kind: str, first: bool, shots) -> None:
    """Answer a decision dialog: focus is inside it; the first time, Escape puts it aside
    (focus on "Decide…") and D brings it back."""
    dlg = page.locator("dialog#decision[open]")
    expect(dlg).to_have_count(1)
    assert page.evaluate("document.getElementById('decision').contains(document.activeElement)"), _focused(page)
    _stays_in(keys, page)
    if first:
        shots(f"kbd-{kind}-dialog")
        audit(page, f"{kind} dialog")
        keys.press("Escape")
        expect(dlg).to_have_count(0)
        assert _focus_comes_to(page, "button#btn-decide") == "button#btn-decide"
        # One's own decision is waiting: the bar does not say it is someone else's turn.
        expect(page.locator("#turn-hint")).not_to_contain_text("not your turn")
        keys.press("d")
        expect(dlg).to_have_count(1)
        assert page.evaluate("document.getElementById('decision').contains(document.activeElement)")
    if kind == "token_draft":
        keys.press("Enter")  # the focused (first) colour
    else:
        keys.tab_to("#insure-none")
        keys.press("Enter")


def _draft_until_my_turn(page) -> None:
    """Take the first token offered (its dialog opened with D) until the decision is the turn."""
    while (d := _decision(page)) != "turn":
        assert d == "token_draft", d
        if not page.locator("dialog[open]").count():
            page.keyboard.press("d")
        before = _version(page)
        page.locator("dialog[open] .token-btn").first.click()
        _wait_answer(page, before)


def test_a_whole_game_by_keyboard_alone_with_audits(e2e_server, new_page, shots):
    base = e2e_server.base_url
    page = new_page()
    keys = Keys(page)
    snap = lambda name: page.screenshot(path=str(shots / f"{name}.png"))  # noqa: E731
    goto(page, base + "/")
    audit(page, "home")
    # Create a room: Tab to the name field, type, Enter.
    keys.tab_to("#create-name")
    page.keyboard.type("Kim")
    keys.press("Enter")
    page.wait_for_url(re.compile(r".*/r/[^/]+$"))
    page.wait_for_selector(".seat.mine")
    audit(page, "room")
    keys.tab_to("#add-bot")
    keys.press("Enter")
    page.wait_for_function("document.querySelectorAll('.seat:not(.empty)').length === 2")
    assert _focused(page) == "button#add-bot"
    keys.tab_to("#start-btn")
    page.evaluate(FOCUS_WATCH)
    keys.press("Enter")
    page.wait_for_selector("#players .player")
    done: dict[str, int] = {}
    tabs_for: dict[str, int] = {}  # Tab presses spent on each kind of action
    dialog_stops = 0  # the focus stops in the insurance dialogs answered
    audited_table = first_draft = first_insure = False
    for _ in range(400):
        kind = _decision(page)
        if kind is None:
            break
        before, tabs_before = _version(page), keys.tabs
        if kind == "turn":
            if not audited_table:
                snap("kbd-table")
                audit(page, "table")
                audited_table = True
            what = _turn(keys, page)
        else:
            if kind == "insurance":  # Tab walks its cards, then its two buttons: never more than that
                dialog_stops += page.locator("dialog#decision .card").count() + 2
            first = not (first_draft if kind == "token_draft" else first_insure)
            _dialog_by_keyboard(keys, page, kind, first, snap)
            first_draft = first_draft or kind == "token_draft"
            first_insure = first_insure or kind == "insurance"
            what = kind
        done[what] = done.get(what, 0) + 1
        tabs_for[what] = tabs_for.get(what, 0) + keys.tabs - tabs_before
        _wait_answer(page, before)
        assert not focus_on_body(page), f"focus fell to <body> after {what}"
    result = page.locator(".result")
    expect(result).to_be_visible()
    assert _focused(page) == "h2#result-h"
    # Its focus ring goes round the words "Game over", not across the whole panel.
    box, words = page.evaluate("""() => { const h = document.getElementById('result-h'), r = document.createRange();
      r.selectNodeContents(h); return [h.getBoundingClientRect().width, r.getBoundingClientRect().width]; }""")
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") == "solid"
    assert box <= words + 1, (box, words)
    snap("kbd-result")
    audit(page, "end screen")
    lost, updates, lost_at = page.evaluate("[window.__focusLost, window.__updates, window.__lostAt]")
    actions = sum(done.values())
    print(f"keyboard game: {actions} actions {done}, {updates} updates, {keys.tabs} Tab presses "
          f"{tabs_for}, {keys.other} other keys, focus lost to <body> {lost} times {lost_at}")
    assert done.get("buy") and done.get("take") and done.get("token_draft")
    assert lost == 0
    # A turn takes no Tab at all (shortcuts and arrow keys); a dialog's answer a few at most.
    assert sum(tabs_for.get(k, 0) for k in ("buy", "take", "reserve")) == 0, tabs_for
    assert tabs_for.get("token_draft", 0) == 0, tabs_for
    assert tabs_for.get("insurance", 0) <= dialog_stops, (tabs_for, dialog_stops)


def test_screen_reader_names_of_cards_tokens_and_the_log(e2e_server, new_page):
    """Cards say colour, value, insurance icons and who reserved them; tokens and hand sizes
    read as sentences; the log is a live region; disabled actions say why."""
    base = e2e_server.base_url
    page = new_page(viewport=PHONE)
    goto(page, base + "/")
    page.fill("#create-name", "Sam")
    page.click("#create-btn")
    page.wait_for_selector(".seat.mine")
    page.click("#add-bot")
    page.wait_for_function("document.querySelectorAll('.seat:not(.empty)').length === 2")
    page.click("#start-btn")
    page.wait_for_selector("#players .player")
    live = page.locator("#log-live")
    assert live.get_attribute("role") == "log" and live.get_attribute("aria-live") == "polite"
    expect(live.locator("#log li").nth(1)).to_be_attached()  # the starting hands
    name = page.locator("#market .card").first.get_attribute("aria-label")
    assert re.fullmatch(r"(red|blue|yellow|green) [235], (2 insurance icons|1 insurance icon|no insurance icons)", name), name
    tokens = page.locator(".player.mine .tokens").get_attribute("aria-label")
    assert re.fullmatch(r"Achievement tokens: \d red, \d blue, \d yellow, and \d green", tokens), tokens
    assert re.search(r"\d+ cards? in hand", page.locator(".player.mine .handsize").inner_text())
    # A Take without a selected card: aria-disabled, still focusable, the reason linked.
    if page.locator("dialog[open]").count():
        page.keyboard.press("Escape")
    take = page.locator("#btn-take")
    assert take.get_attribute("aria-disabled") == "true"
    why = page.locator("#" + take.get_attribute("aria-describedby"))
    assert why.text_content()
    # My turn is announced; a card I reserve says so by my name, in every row it is in.
    _draft_until_my_turn(page)
    expect(page.locator("#announce")).to_have_text("Your turn!")
    cid = next(f["card"] for f in farm(page) if not f["reserved"])
    page.click(f'#farm .card[data-card="{cid}"]')
    page.click("#btn-reserve")
    card = page.locator(f'.card[data-card="{cid}"]').first
    expect(card).to_have_attribute("aria-label", re.compile(r", reserved by Sam$"))


def test_the_insurance_dialog_by_keyboard_and_its_audit(e2e_server, new_page, shots):
    """Games against a computer player (buying whenever possible, which sends ships onto the
    wave spaces) until this player must decide on insurance; the dialog takes the focus,
    keeps it, passes the audit, Escape puts it aside and D brings it back."""
    base = e2e_server.base_url
    page = new_page()
    keys = Keys(page)
    for game in range(6):
        create_room(page, base, "Ines", public=False)
        page.click("#add-bot")
        page.wait_for_function("document.querySelectorAll('.seat:not(.empty)').length === 2")
        page.click("#start-btn")
        page.wait_for_selector("#players .player")
        for step in range(300):
            acting = wait_acting([page], timeout_s=30)
            if acting is None or acting[1] == "insurance":
                break
            if acting[1] == "draft":
                choose_token(page, step)
            elif page.locator("#btn-pass").count():
                before = log_count(page)
                page.click("#btn-pass")
                wait_log_grows(page, before)
            elif page.get_attribute("#btn-suggest", "aria-disabled") is None and any(not m["other"] for m in market(page)):
                do_buy_suggest(page)
            else:
                do_take(page)
        if acting is not None:
            break
    else:
        raise AssertionError("no insurance decision in 6 games")
    print(f"insurance dialog in game {game + 1}")
    assert page.evaluate("document.getElementById('decision').contains(document.activeElement)"), _focused(page)
    _stays_in(keys, page)
    page.screenshot(path=str(shots / "kbd-insurance-dialog.png"))
    audit(page, "insurance dialog")
    keys.press("Escape")
    expect(page.locator("dialog[open]")).to_have_count(0)
    assert _focus_comes_to(page, "button#btn-decide") == "button#btn-decide"
    keys.press("d")
    expect(page.locator("dialog[open]")).to_have_count(1)
    # Choose a good at risk by keyboard: it stays selected and focused after the redraw.
    keys.tab_to("#insure-goods .card")
    first = page.evaluate("+document.activeElement.dataset.card")
    keys.press("Space")
    expect(page.locator(f'#insure-goods .card[data-card="{first}"]')).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("+document.activeElement.dataset.card") == first
    audit(page, "insurance dialog, a good chosen")
    keys.tab_to("#insure-none")
    before = int(page.evaluate("+document.body.dataset.version"))
    keys.press("Enter")
    _wait_answer(page, before)
    expect(page.locator("dialog[open]")).to_have_count(0)
    assert not focus_on_body(page)


# The focused element as the player sees it: where it is, and whether a ring is drawn round it
# (an outline, or a box-shadow the card does not have without the focus).
RING = """() => { const a = document.activeElement, st = getComputedStyle(a);
  return {where: a.closest('#market') ? 'market' : a.closest('#actionbar') ? 'bar' : a.tagName.toLowerCase(),
          card: a.dataset.card ? +a.dataset.card : null, outline: st.outlineStyle,
          width: parseFloat(st.outlineWidth)}; }"""


def _two_at_the_table(new_page, base):
    """Hana and Gus at a started table, the token draft done: → (the page whose turn it is,
    the other page)."""
    host, guest = new_page(), new_page()
    code = create_room(host, base, "Hana")
    join_room(guest, base, code, "Gus")
    host.wait_for_function("document.querySelectorAll('.seat:not(.empty)').length === 2")
    host.click("#start-btn")
    while True:
        who, phase = wait_acting([host, guest])
        if phase == "turn":
            return who, guest if who is host else host
        choose_token(who, 0)


def _has_ring(ring: dict) -> bool:
    return ring["outline"] not in ("none", "") and ring["width"] >= 2


def test_after_a_move_the_focus_shows_its_ring(e2e_server, new_page, shots):
    """A Market card taken by keyboard alone (M, arrows, T): the focus moves to its neighbour
    in the Market and a focus ring is drawn there. A card clicked with the mouse and taken with
    T: the same (the browser's own :focus-visible may not apply to a focus the page moves after
    a click). Taken with the mouse alone (the card, then Take): the focus stays on
    Take, with its ring. Each time the other player's turn follows (the Market is not the
    player's to use then, but the focus is still there)."""
    who, other = _two_at_the_table(new_page, e2e_server.base_url)
    keys = Keys(who)
    target = market(who)[0]["card"]
    _move_in_row(keys, who, "market", target)
    before = log_count(who)
    keys.press("t")
    wait_log_grows(who, before)
    ring = who.evaluate(RING)
    assert ring["where"] == "market" and ring["card"] != target, ring
    assert _has_ring(ring), ring
    who.locator(".market-row").screenshot(path=str(shots / "focus-after-keyboard-move.png"))

    # The mouse: the other player clicks a Market card, then presses T.
    who, other = other, who
    wait_acting([who])
    target = market(who)[0]["card"]
    before = log_count(who)
    who.click(f'#market .card[data-card="{target}"]')
    who.keyboard.press("t")
    wait_log_grows(who, before)
    ring = who.evaluate(RING)
    assert ring["where"] == "market" and ring["card"] != target, ring
    assert _has_ring(ring), ring
    who.locator(".market-row").screenshot(path=str(shots / "focus-after-mouse-move.png"))

    # The mouse alone: the card, then the Take button.
    who, other = other, who
    wait_acting([who])
    target = market(who)[0]["card"]
    before = log_count(who)
    who.click(f'#market .card[data-card="{target}"]')
    who.click("#btn-take")
    wait_log_grows(who, before)
    ring = who.evaluate(RING)
    assert ring["where"] == "bar" and _has_ring(ring), ring
    who.locator("#actionbar").screenshot(path=str(shots / "focus-after-mouse-take.png"))
    # The arrow keys go on from the focused card as before.
    who.keyboard.press("m")
    who.keyboard.press("ArrowRight")
    assert _has_ring(who.evaluate(RING))


@pytest.mark.parametrize("locale, take_why, reserve_why", [
    ("en-US", "Select a Market card first.", "Select a Market or Farm card first."),
    ("de-DE", "Wähle zuerst eine Marktkarte.", "Wähle zuerst eine Markt- oder Bauernhofkarte."),
], ids=["en", "de"])
def test_a_disabled_button_pressed_by_keyboard_shows_its_reason(e2e_server, new_page, shots, locale, take_why,
                                                                 reserve_why):
    """Enter on a disabled Take (no card selected) shows Take's reason in the bar, not only to
    screen readers; the shortcut R then shows Reserve's; selecting a card ends it."""
    page = new_page(locale=locale)
    create_room(page, e2e_server.base_url, "Sam", public=False)
    page.click("#add-bot")
    page.wait_for_function("document.querySelectorAll('.seat:not(.empty)').length === 2")
    page.click("#start-btn")
    page.wait_for_selector("#players .player")
    _draft_until_my_turn(page)
    hint = page.locator("#turn-hint")
    page.focus("#btn-take")
    page.keyboard.press("Enter")
    expect(hint).to_have_text(take_why)
    expect(hint).to_be_visible()
    expect(page.locator("#announce")).to_have_text(take_why)
    page.screenshot(path=str(shots / f"bar-pressed-take-{locale[:2]}.png"))
    page.keyboard.press("r")
    expect(hint).to_have_text(reserve_why)
    page.click(f'#market .card[data-card="{market(page)[0]["card"]}"]')
    expect(hint).not_to_have_text(reserve_why)
