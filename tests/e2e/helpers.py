"""Browser helpers for the e2e tests: read the table from the DOM and act through the UI the
way a player would (clicks only). Card values and payments come from the engine's public API."""
from __future__ import annotations

import re
import time

from engine import CARD_COLORS, CARD_VALUES, cheapest_payment

# A name that would run a script and bold text if it were inserted as HTML (24 characters,
# the longest name allowed).
EVIL_NAME = "<svg/onload=alert(1)><b>"


# document.visibilityState as the test says: __hide(true) sends the page to the background
# (a tab behind another one), __hide(false) brings it back; each fires visibilitychange.
HIDE = """(() => {
  let hidden = false;
  Object.defineProperty(document, 'visibilityState', { get: () => (hidden ? 'hidden' : 'visible'), configurable: true });
  Object.defineProperty(document, 'hidden', { get: () => hidden, configurable: true });
  window.__hide = (h) => { hidden = h; document.dispatchEvent(new Event('visibilitychange')); };
})();"""

# Counts Notification.requestPermission calls (the real one answers: the context grants or not);
# PushManager's subscribe returns the test's subscription `sub` (PushSubscription.toJSON()) and
# keeps the applicationServerKey it was given; getSubscription returns it once made.
PUSH = """((sub) => {
  window.__asked = 0;
  window.__keys = [];
  const ask = Notification.requestPermission.bind(Notification);
  Notification.requestPermission = (...a) => { window.__asked++; return ask(...a); };
  let made = null;
  PushManager.prototype.subscribe = async function (o) {
    window.__keys.push(o.applicationServerKey);
    if (!o.userVisibleOnly) throw new DOMException('userVisibleOnly', 'NotAllowedError');
    made = { endpoint: sub.endpoint, options: { userVisibleOnly: true, applicationServerKey: null },
      toJSON: () => sub, unsubscribe: async () => { made = null; return true; } };
    return made;
  };
  PushManager.prototype.getSubscription = async function () { return made; };
})"""


def card_value(cid: int) -> int:
    """Value of a card id (R-comp-1), from the engine's card catalogue."""
    return CARD_VALUES[cid]


def minimal_payment(hand: list[int], cost: int) -> list[int] | None:
    """A legal payment (R-buy-3) from ``hand``: the engine's ``cheapest_payment``; None when
    the hand is too small."""
    return cheapest_payment(hand, cost)


def is_minimal(pay: list[int], cost: int) -> bool:
    total = sum(map(card_value, pay))
    return bool(pay) and total >= cost and total - min(map(card_value, pay)) < cost


def goto(page, url: str) -> None:
    """Open a page and wait until its scripts are wired (html[data-ready])."""
    page.goto(url)
    page.wait_for_selector("html[data-ready]", state="attached")


def rendered(page) -> None:
    """Wait until the page has rendered twice: what its ResizeObservers do (the top bar's steps,
    static/js/fit.js; the log kept at its end, room.js) runs in a frame's rendering step, after
    the change that caused it, so a measure taken in the same task as a resize or a style change
    reads the page before them (test_fit_hand failed so in CI)."""
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


def resize(page, size: dict) -> None:
    """`page.set_viewport_size(size)`, then `rendered`: what is measured next is the page as
    laid out at that size, its ResizeObservers run."""
    page.set_viewport_size(size)
    rendered(page)


def create_room(page, base: str, name: str, public: bool = True) -> str:
    """Create a room from the home page; returns its code (the page is now in the room)."""
    goto(page, base + "/")
    page.fill("#create-name", name)
    page.check("input[name=vis][value=%s]" % ("public" if public else "private"))
    with page.expect_response(lambda r: r.url.endswith("/api/rooms") and r.request.method == "POST") as resp:
        page.click("#create-btn")
    assert resp.value.status == 201, (resp.value.status, resp.value.text())
    page.wait_for_url(re.compile(r".*/r/[^/]+$"))
    page.wait_for_selector(".seat.mine")
    return page.url.rsplit("/", 1)[1]


def join_room(page, base: str, code: str, name: str) -> None:
    """Open the room link and take a seat with the join form."""
    goto(page, f"{base}/r/{code}")
    page.fill("#join-name", name)
    page.click("#join-btn")
    page.wait_for_selector(".seat.mine")


def hand(page) -> list[int]:
    return page.eval_on_selector_all("#hand .card", "els => els.map(e => +e.dataset.card)")


def market(page) -> list[dict]:
    """[{card, mine_or_free (may take/buy), reserved}] in Market order."""
    return page.eval_on_selector_all(
        "#market .card",
        "els => els.map(e => ({card: +e.dataset.card, other: e.classList.contains('dim'),"
        " reserved: !!e.querySelector('.piece')}))")


def farm(page) -> list[dict]:
    return page.eval_on_selector_all(
        "#farm .card", "els => els.map(e => ({card: +e.dataset.card, reserved: !!e.querySelector('.piece')}))")


def my_seat(page) -> int:
    return int(page.get_attribute(".player.mine", "data-seat"))


def log_count(page) -> int:
    return page.locator("#log li").count()


def phase_of(page) -> str | None:
    """What this page must decide now: "draft", "insurance", "turn", or None (not its decision)."""
    if page.locator("dialog[open] .token-btn").count():
        return "draft"
    if page.locator("dialog[open] #insure-none").count():
        return "insurance"
    if page.locator('body[data-decision="turn"][data-pending="0"]').count():
        return "turn"
    return None


def wait_acting(pages, timeout_s: float = 20.0):
    """The page whose decision it is now (polls every page), or None when the game is over."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if len({version(p) for p in pages}) != 1:
            time.sleep(0.05)
            continue
        for p in pages:
            if p.locator(".result:not([hidden])").count():
                return None
            ph = phase_of(p)
            if ph:
                return p, ph
        time.sleep(0.1)
    raise AssertionError("nobody's decision appeared in time")


def version(page) -> int:
    """The game version (actions applied) of the last state this page drew."""
    return int(page.evaluate("document.body.dataset.version || '-1'"))


def wait_log_grows(page, before: int) -> None:
    """Wait until the page's log has more lines than `before` and the state after them came
    (the page is no longer waiting for an answer to its action)."""
    page.wait_for_function("n => document.querySelectorAll('#log li').length > n", arg=before)
    page.wait_for_function("() => document.body.dataset.pending !== '1'")


def cost_of(page) -> int:
    return sum(card_value(m["card"]) for m in market(page) if not m["other"])


def do_take(page) -> int:
    """Take the first Market card this seat may take; returns its id."""
    cand = [m for m in market(page) if not m["other"]]
    cid = cand[0]["card"]
    before = log_count(page)
    page.click(f'#market .card[data-card="{cid}"]')
    page.click("#btn-take")
    wait_log_grows(page, before)
    return cid


def can_reserve(page) -> bool:
    free = not page.locator(".player.mine .piece-mini.used").count()
    return free and any(not f["reserved"] for f in farm(page))


def do_reserve(page) -> int:
    """Reserve the first free Farm card; returns its id."""
    cid = next(f["card"] for f in farm(page) if not f["reserved"])
    before = log_count(page)
    page.click(f'#farm .card[data-card="{cid}"]')
    page.click("#btn-reserve")
    wait_log_grows(page, before)
    return cid


def do_buy_suggest(page) -> list[int]:
    """Buy with the suggest button; returns the payment the page chose."""
    page.click("#btn-suggest")
    pay = page.eval_on_selector_all("#hand .card.selected", "els => els.map(e => +e.dataset.card)")
    assert is_minimal(pay, cost_of(page)), (pay, cost_of(page))
    assert page.is_enabled("#btn-buy")
    before = log_count(page)
    page.click("#btn-buy")
    wait_log_grows(page, before)
    return pay


def insure_something(page, shot=None) -> None:
    """Answer the insurance dialog: save what the shields allow, if anything, else nothing.
    `shot`: a path prefix for screenshots of the dialog (before and while choosing)."""
    before = log_count(page)
    goods = page.eval_on_selector_all("#insure-goods .card", "els => els.map(e => +e.dataset.card)")
    hand_cards = page.eval_on_selector_all("#insure-hand .card", "els => els.map(e => +e.dataset.card)")
    pick = next(((g, c) for g in goods for c in hand_cards if CARD_COLORS[g] == CARD_COLORS[c]), None)
    # Nothing chosen yet: Insure is disabled and says why in visible text; no shield count.
    assert page.is_disabled("#insure-confirm")
    assert page.locator("#insure-why").is_visible()
    assert page.locator("#insure-count").count() == 0
    if shot:
        page.screenshot(path=f"{shot}-open.png")
    if pick:
        page.click(f'#insure-goods .card[data-card="{pick[0]}"]')
        if shot:
            page.screenshot(path=f"{shot}-good-chosen.png")
        assert page.locator(f'#insure-goods .card[data-card="{pick[0]}"] .pick-mark').count() == 1
        assert page.locator("#insure-count").is_visible()
        page.click(f'#insure-hand .card[data-card="{pick[1]}"]')
        assert page.is_enabled("#insure-confirm")
        assert page.locator("#insure-why").count() == 0
        page.click("#insure-confirm")
    else:
        page.click("#insure-none")
    wait_log_grows(page, before)


def choose_token(page, i: int) -> None:
    before = log_count(page)
    page.locator("dialog[open] .token-btn").nth(i % 4).click()
    wait_log_grows(page, before)


def put_aside(page) -> None:
    """Put the open decision's dialog aside (Escape), as a player who wants the page's other
    controls; `take_up` brings it back."""
    if page.locator("#decision[open]").count():
        page.keyboard.press("Escape")
        page.wait_for_selector("#decision[open]", state="detached")


def take_up(page) -> None:
    """Bring back a decision put aside ("Decide…", #btn-decide), if there is one."""
    if page.locator("#btn-decide").count() and page.locator("#btn-decide").is_visible():
        page.click("#btn-decide")
        page.wait_for_selector("#decision[open]")


def decide(page, phase: str, step: int, insurance_shot=None) -> None:
    """Make the decision `phase` (wait_acting) on `page` through the UI, as a player would: a
    token in the draft (the `step`-th of four), insurance through the dialog, pass, buy with the
    suggest button, else take; returns once the log shows it."""
    if phase == "draft":
        choose_token(page, step)
    elif phase == "insurance":
        insure_something(page, shot=insurance_shot)
    elif page.locator("#btn-pass").count():
        before = log_count(page)
        page.click("#btn-pass")
        wait_log_grows(page, before)
    elif page.is_enabled("#btn-suggest") and any(not m["other"] for m in market(page)):
        do_buy_suggest(page)
    else:
        do_take(page)


def play_to_the_end(pages, on_step=None, insurance_shot=None, max_steps: int = 400) -> None:
    """Play a started game through the UI until the result shows: each page decides when it is
    its turn (`decide`). `on_step(step)` runs after each decision; `insurance_shot`: a path
    prefix for screenshots of the insurance dialog (insure_something)."""
    for step in range(max_steps):
        acting = wait_acting(pages, timeout_s=30)
        if acting is None:
            return
        page, phase = acting
        decide(page, phase, step, insurance_shot)
        if on_step:
            on_step(step)
    raise AssertionError(f"no result after {max_steps} decisions")


# axe-core's rules that are off unless asked for: WCAG 2.5.3 "label in name" (a control's
# accessible name contains its visible text) is one of its experimental rules.
AXE_OPTIONS = {"resultTypes": ["violations"], "rules": {"label-content-name-mismatch": {"enabled": True}}}

# The controls named by aria-label or aria-labelledby whose visible words (innerText: what a
# sighted player reads, CSS pictures aside) do not appear, as whole words in that order, in
# their accessible name: axe's own check compares letters ("EN" passes inside "English"), a
# player who speaks the visible label to voice control says words.
LABEL_WORDS = """() => {
  const words = (s) => (s.toLowerCase().match(/[\\p{L}\\p{N}]+/gu) || []);
  const named = (e) => e.getAttribute('aria-label') || (e.getAttribute('aria-labelledby') || '').split(/\\s+/)
    .map((id) => document.getElementById(id)).filter(Boolean).map((x) => x.textContent).join(' ');
  const out = [];
  for (const e of document.querySelectorAll('button, a[href], [role=button], [role=link], [role=switch]')) {
    const name = named(e);
    if (!name || !e.getClientRects().length) continue;
    const seen = words(e.innerText), said = words(name);
    if (!seen.length) continue;
    const hit = said.some((_, i) => seen.every((w, k) => said[i + k] === w));
    if (!hit) out.push([e.outerHTML.slice(0, 160), e.innerText, name]);
  }
  return out;
}"""


def audit(page, where: str) -> list[dict]:
    """Run axe-core (bundled by the test-only package axe-playwright-python, never served by
    the app) on the page as it is now, with WCAG 2.5.3's label-in-name rule switched on; fail
    on any serious or critical violation, and on a control whose visible words are not words
    of its accessible name (LABEL_WORDS). Returns all violations (minor and moderate ones are
    printed)."""
    from axe_playwright_python.sync_playwright import Axe
    violations = Axe().run(page, options=AXE_OPTIONS).response["violations"]
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:4]) for v in violations
           if v["impact"] in ("serious", "critical")]
    for v in violations:
        print(f"axe {where}: {v['impact']} {v['id']} ({len(v['nodes'])} nodes)")
    assert not bad, f"{where}: {bad}"
    mismatched = page.evaluate(LABEL_WORDS)
    assert not mismatched, f"{where}: visible words not in the accessible name: {mismatched}"
    return violations


FOCUS_WATCH = """() => {
  // Count the times keyboard focus falls back to <body> right after the page drew a new
  // state (a server update) — a player who does not use a mouse would lose their place.
  window.__focusLost = 0; window.__updates = 0; window.__lostAt = [];
  new MutationObserver(() => {
    window.__updates++;
    const v = document.body.dataset.version;
    setTimeout(() => { if (document.activeElement === document.body || !document.activeElement) { window.__focusLost++; window.__lostAt.push(v + ':' + document.body.dataset.decision); } }, 60);
  }).observe(document.body, {attributes: true, attributeFilter: ['data-version']});
}"""


def focus_on_body(page) -> bool:
    return page.evaluate("document.activeElement === document.body || !document.activeElement")
