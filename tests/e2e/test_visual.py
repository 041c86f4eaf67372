"""The table's look, checked in a real browser on a real server (issue 15): the goods stay
apart in greyscale, opponents' merchandise is readable, the insured mark leaves the symbol
free, reserved cards keep their colours, a phone (360×640) shows the board, the hand and
the actions without sideways scrolling and with 44 px touch targets, reduced motion stops
the animations, the web app manifest and icons are served. The game is played by
tests/e2e/driver.py; a browser page sits in seat 0."""
from __future__ import annotations

import json

import httpx
import pytest

from .driver import Table, greedy
from .helpers import audit, goto

PHONE_S = {"width": 360, "height": 640}


def _sync(page, table: Table) -> None:
    page.wait_for_function("v => +(document.body.dataset.version || -1) >= v", arg=table.seats[0].version)


def _seat(new_page, table: Table, seat: int = 0, **opts):
    page = new_page(**opts)
    page.context.add_cookies([table.cookie(seat)])
    goto(page, f"{table.base}/r/{table.code}")
    page.wait_for_selector("#players .player")
    _sync(page, table)
    return page


def _box(page, selector: str) -> list[dict]:
    return page.eval_on_selector_all(selector, "els => els.filter(e => e.getClientRects().length).map(e => {"
                                     " const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height,"
                                     " name: e.id || e.className || e.tagName}; })")


@pytest.fixture(scope="module")
def midgame(e2e_server):
    """A three-player game after some turns: opponents hold merchandise, some of it insured
    after a Black Tide, it is seat 0's turn and seat 0 holds cards."""
    for _ in range(6):
        table = Table(e2e_server.base_url, ["Ann", "Ben", "Cleo"])
        table.start()
        try:
            table.play_until(lambda ev, v: any(g["insured"] for p in v["players"][1:] for g in p["goods"])
                             and v["phase"] == "turn" and v["to_act"] == 0 and len(v["players"][0]["hand"]) >= 2
                             and sum(len(p["goods"]) for p in v["players"][1:]) >= 3)
            yield table
            table.close()
            return
        except AssertionError:
            table.close()
    raise AssertionError("no game reached a Black Tide with insured goods of an opponent")


def test_goods_illustrations_stay_apart_in_greyscale(midgame, new_page):
    """Each colour has its own illustration (its own file), and drawn in greyscale on its
    card colour the four differ in a large share of their pixels (shape, not only hue)."""
    page = _seat(new_page, midgame)
    shares = page.evaluate("""async () => {
        const colors = ["red", "blue", "yellow", "green"];
        const urls = {}, bgs = {};
        for (const c of colors) {
            const card = document.createElement("div");
            card.className = "card c-" + c;
            card.innerHTML = '<span class="sym">x</span>';
            document.body.appendChild(card);
            urls[c] = getComputedStyle(card.querySelector(".sym")).backgroundImage;
            bgs[c] = getComputedStyle(card).backgroundColor;
            card.remove();
        }
        const N = 48, grey = {};
        for (const c of colors) {
            const img = new Image();
            img.src = urls[c].slice(5, -2);
            await img.decode();
            const cv = document.createElement("canvas");
            cv.width = cv.height = N;
            const g = cv.getContext("2d");
            g.filter = "grayscale(1)";
            g.fillStyle = bgs[c]; g.fillRect(0, 0, N, N);
            g.drawImage(img, 0, 0, N, N);
            grey[c] = g.getImageData(0, 0, N, N).data;
        }
        const out = {urls};
        for (let i = 0; i < 4; i++) for (let j = i + 1; j < 4; j++) {
            const a = grey[colors[i]], b = grey[colors[j]];
            let diff = 0;
            for (let k = 0; k < a.length; k += 4) if (Math.abs(a[k] - b[k]) > 48) diff++;
            out[colors[i] + "-" + colors[j]] = diff / (N * N);
        }
        return out;
    }""")
    urls = shares.pop("urls")
    assert len(set(urls.values())) == 4 and all("goods-" in u for u in urls.values()), urls
    for pair, share in shares.items():
        assert share >= 0.2, (pair, share)


def test_opponents_merchandise_readable_and_insured_mark_clear(midgame, new_page):
    for size in ({"width": 1366, "height": 768}, PHONE_S):
        page = _seat(new_page, midgame, viewport=size)
        syms = _box(page, ".player:not(.mine) .card .sym")
        assert len(syms) >= 3
        for b in syms:
            assert b["w"] >= 14 and b["h"] >= 14, (size, b)
        insured = page.locator(".player:not(.mine) .card.insured")
        assert insured.count() >= 1
        for i in range(insured.count()):
            card = insured.nth(i)
            mark = card.locator(".ins-mark").bounding_box()
            sym = card.locator(".sym").bounding_box()
            overlap_x = min(mark["x"] + mark["width"], sym["x"] + sym["width"]) - max(mark["x"], sym["x"])
            overlap_y = min(mark["y"] + mark["height"], sym["y"] + sym["height"]) - max(mark["y"], sym["y"])
            assert overlap_x <= 0 or overlap_y <= 0, (size, mark, sym)


def test_the_insured_mark_says_so_on_hover_and_to_screen_readers(midgame, new_page, shots):
    """The ✓ of an insured good has a tooltip and an accessible name, in English and German."""
    for locale, word in (("en-US", "insured"), ("de-DE", "versichert")):
        # At 1366x768 the players' panel scrolls: it takes the focus, so a keyboard can scroll it
        # (axe: scrollable-region-focusable).
        page = _seat(new_page, midgame, locale=locale, viewport={"width": 1366, "height": 768})
        mark = page.locator(".player:not(.mine) .card.insured .ins-mark").first
        assert mark.get_attribute("title") == word
        assert mark.get_attribute("role") == "img" and mark.get_attribute("aria-label") == word
        audit(page, "insured goods " + locale)
        mark.hover()
        page.locator(".player:not(.mine) .card.insured").first.screenshot(path=str(shots / f"insured-mark-{locale}.png"))


def test_reserved_cards_keep_their_colours(e2e_server, new_page):
    """A card reserved by another player is marked by a frame, not faded or desaturated."""
    table = Table(e2e_server.base_url, ["Ann", "Ben"])
    table.start()

    def ben_reserves(view: dict) -> dict:
        me = view["players"][view["seat"]]
        free = [m["card"] for m in view["market"] if m["reserved_by"] is None]
        if view["seat"] == 1 and view["phase"] == "turn" and me["reservation_free"] and free:
            return {"type": "reserve", "card": free[0]}
        return greedy(view)

    table.play_until(lambda ev, v: any(m["reserved_by"] == 1 for m in v["market"]), policy=ben_reserves)
    page = _seat(new_page, table)
    card = page.locator("#market .card.dim").first
    style = card.evaluate("e => { const s = getComputedStyle(e); return {f: s.filter, o: s.opacity, bg: s.backgroundColor, ol: s.outlineStyle}; }")
    assert style["f"] == "none" and style["o"] == "1" and style["ol"] == "dashed", style
    cid = int(card.get_attribute("data-card"))
    colour = ["rgb(213, 94, 0)", "rgb(0, 114, 178)", "rgb(240, 228, 66)", "rgb(0, 158, 115)"][cid // 27]
    assert style["bg"] == colour, style
    table.close()


def test_phone_fits_board_hand_and_actions_with_44px_targets(midgame, new_page):
    page = _seat(new_page, midgame, viewport=PHONE_S, has_touch=True, is_mobile=True)
    page.evaluate("window.scrollTo(0, 0)")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_S["width"]
    # Everything one can tap is at least 44×44 CSS px.
    small = [b for b in _box(page, "button, a[href], select, input, summary")
             if b["w"] < 44 or b["h"] < 44]
    assert not small, small
    # Without scrolling: the route, the Market, the Farm, the first row of the hand and the
    # action bar are on screen, and the pinned action bar does not cover the hand.
    bar = page.locator("#actionbar").bounding_box()
    assert bar["y"] + bar["height"] <= PHONE_S["height"] + 1
    for sel in (".route", "#market .card", "#farm .card", "#hand .card"):
        b = page.locator(sel).first.bounding_box()
        assert b["y"] >= 0 and b["y"] + b["height"] <= bar["y"] + 1, (sel, b, bar)


def test_reduced_motion_stops_the_animations(midgame, new_page):
    moving = _seat(new_page, midgame)
    still = _seat(new_page, midgame, reduced_motion="reduce")
    js = "() => getComputedStyle(document.querySelector('.route .ship')).transitionDuration"
    assert moving.evaluate(js) not in ("0s", "")
    assert still.evaluate(js) == "0s"


def test_web_app_manifest_and_icons(e2e_server, new_page):
    base = e2e_server.base_url
    page = new_page()
    goto(page, base + "/")
    href = page.eval_on_selector("link[rel=manifest]", "l => l.href")
    manifest = httpx.get(href)
    assert manifest.status_code == 200
    data = json.loads(manifest.text)
    assert data["display"] == "standalone" and data["name"] == "Traders of Osaka"
    assert httpx.get(httpx.URL(href).join(data["start_url"])).status_code == 200
    sizes = set()
    for icon in data["icons"]:
        r = httpx.get(httpx.URL(href).join(icon["src"]))
        assert r.status_code == 200 and r.headers["content-type"].startswith(icon["type"]), icon
        sizes.add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes
    assert any(i.get("purpose") == "maskable" for i in data["icons"])
    for rel in ("icon", "apple-touch-icon"):
        url = page.eval_on_selector(f"link[rel={rel}]", "l => l.href")
        assert httpx.get(url).status_code == 200, rel


def _expected_changes(events: list[dict], view: dict, seat: int) -> dict:
    """What changed since `seat`'s last turn ended, from the events (the oracle for
    static/js/changes.js): Market/Farm cards drawn since and still there, ships that moved
    (colour → where from), goods bought since, tokens gained per seat."""
    acts = [i for i, e in enumerate(events) if e["type"] in ("take", "reserve", "buy", "pass") and e.get("seat") == seat]
    start = 0
    if acts:
        start = next((i for i in range(acts[-1], len(events)) if events[i]["type"] == "turn_started"), len(events))
    on_table = {m["card"] for m in view["market"] + view["farm"]}
    out = {"fresh": set(), "moved": {}, "bought": set(), "tokens": {}}
    for e in events[start:]:
        if e["type"] == "refresh":
            out["fresh"] |= {c for c in e["market"] + e["farm"] if c in on_table}
        elif e["type"] in ("ship_moved", "ship_returned"):
            out["moved"].setdefault(e["color"], e["from"])
        elif e["type"] == "buy":
            out["bought"] |= set(e["goods"])
        elif e["type"] == "token_gained":
            out["tokens"].setdefault(e["seat"], set()).add(e["color"])
    out["moved"] = {c: f for c, f in out["moved"].items() if view["ships"][c] != f}
    return out


def test_what_changed_since_your_last_turn_is_marked(e2e_server, new_page):
    table = Table(e2e_server.base_url, ["Ann", "Ben", "Cleo"])
    table.start()

    def worth_a_look(events, view):
        if view["phase"] != "turn" or view["to_act"] != 0:
            return False
        ch = _expected_changes(table.seats[0].events, view, 0)
        return bool(ch["fresh"] and ch["moved"] and ch["bought"])

    table.play_until(worth_a_look)
    ch = _expected_changes(table.seats[0].events, table.view, 0)
    page = _seat(new_page, table)
    fresh = page.eval_on_selector_all("#market .card.fresh, #farm .card.fresh", "els => els.map(e => +e.dataset.card)")
    assert set(fresh) == ch["fresh"]
    moved = page.eval_on_selector_all(".route .ship.moved", "els => els.map(e => e.dataset.color)")
    assert set(moved) == set(ch["moved"])
    for c in ch["moved"]:
        assert page.get_attribute(f".route .trail-{c}", "d"), c
    owned = {g["card"] for p in table.view["players"] for g in p["goods"]}
    bought = page.eval_on_selector_all(".player .card.fresh", "els => els.map(e => +e.dataset.card)")
    assert set(bought) == ch["bought"] & owned
    for seat, colours in ch["tokens"].items():
        assert page.locator(f'.player[data-seat="{seat}"] .tok.gained').count() == len(colours)
    assert "new since your last turn" in page.inner_text(".piles")
    assert "new since your last turn" in page.get_attribute("#market .card.fresh, #farm .card.fresh >> nth=0", "aria-label")
    # Marked cards pulse, and the moved ships rock, except with reduced motion.
    anim = "() => [getComputedStyle(document.querySelector('.card.fresh')).animationName," \
           " getComputedStyle(document.querySelector('.ship.moved .ship-body')).animationName]"
    assert page.evaluate(anim) == ["fresh", "bob"]
    still = _seat(new_page, table, reduced_motion="reduce")
    assert still.evaluate(anim) == ["none", "none"]

    # The log: one entry per turn, led by that turn's player; no "X's turn." lines.
    # Each entry's first line as read out (the swatch before a name is aria-hidden).
    entries = page.eval_on_selector_all(
        "#log > li.turn-entry:not(.start)",
        "els => els.map(e => { const c = e.querySelector('.turn-lines > li').cloneNode(true);"
        " c.querySelectorAll('[aria-hidden=true]').forEach(x => x.remove()); return c.textContent; })")
    events = table.seats[0].events
    starts = [i for i, e in enumerate(events) if e["type"] == "turn_started"]
    with_lines = [i for k, i in enumerate(starts) if (starts[k + 1] if k + 1 < len(starts) else len(events)) > i + 1]
    assert len(entries) == len(with_lines)
    for i, text in zip(with_lines, entries):
        assert text.startswith(["Ann", "Ben", "Cleo"][events[i]["seat"]]), (text, events[i])
    assert not [t for t in page.eval_on_selector_all("#log .turn-lines > li", "els => els.map(e => e.textContent)") if t.endswith("'s turn.")]
    table.close()
