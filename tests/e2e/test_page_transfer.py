"""What the browser downloads (issue 14, "The browser's share"; app/assets.py): the table
page's scripts and style sheet arrive minified and brotli-compressed, under versioned URLs
cached as immutable, so the first visit transfers at most 45 KB of JS+CSS and the next one
nothing at all. The figures (printed with `-s`) are the ones in docs/performance.md:

    .venv/bin/pytest -s -q tests/e2e/test_page_transfer.py
"""
from __future__ import annotations

from urllib.parse import urlsplit

from .conftest import ROOT
from .helpers import create_room, goto

# Encoded bytes of JS+CSS (response bodies): 40 KB until issue 30 added 0.4 KB, 42 KB until issue 31's
# openers (42.3 KB then), 43 KB until issues 32/33's (43.9 KB then), 44.5 KB until the top bar's and the
# player rows' fit (44.8 KB then; docs/ui.md "Page weight").
FIRST_LOAD_BUDGET = 45_000

ENTRIES = """() => performance.getEntriesByType('resource')
    .filter((e) => /\\.(js|css)$/.test(new URL(e.name).pathname))
    .map((e) => ({url: e.name, transfer: e.transferSize, encoded: e.encodedBodySize, decoded: e.decodedBodySize}))"""


def _load(page, url: str) -> tuple[list[dict], dict[str, dict], int]:
    """Open the table page at `url`; → (resource timing entries of its JS+CSS, the response
    headers of each JS+CSS URL, the bytes of the response headers that came over the network)."""
    responses = []

    def seen(response):
        if urlsplit(response.url).path.endswith((".js", ".css")):
            responses.append(response)
    page.on("response", seen)
    goto(page, url)
    page.wait_for_selector("#players .player")
    page.wait_for_load_state("networkidle")
    page.remove_listener("response", seen)
    entries = page.evaluate(ENTRIES)
    fetched = {e["url"] for e in entries if e["transfer"]}  # not from the cache
    header_bytes = sum(r.request.sizes()["responseHeadersSize"] for r in responses if r.url in fetched)
    return entries, {r.url: r.all_headers() for r in responses}, header_bytes


def _figures(entries: list[dict], header_bytes: int) -> dict[str, int]:
    """Sums over a load: the source files' bytes, the bytes served (minified) and sent (encoded
    bodies that came over the network, not from the cache), the response headers' bytes, and
    Resource Timing's `transferSize` (the bodies + 300 bytes per response, as the W3C Resource
    Timing spec counts headers)."""
    source = sum((ROOT / urlsplit(e["url"]).path.lstrip("/")).stat().st_size for e in entries)
    return {"files": len(entries), "source": source, "served": sum(e["decoded"] for e in entries),
            "sent": sum(e["encoded"] for e in entries if e["transfer"]), "headers": header_bytes,
            "transfer": sum(e["transfer"] for e in entries)}


def test_the_table_page_transfers_at_most_40_kb_then_nothing(e2e_server, new_page):
    host = new_page(locale="de-DE")
    code = create_room(host, e2e_server.base_url, "Mia")
    host.click("#add-bot")
    host.wait_for_function("document.querySelectorAll('.seat:not(.empty)').length === 2")
    host.click("#start-btn")
    host.wait_for_selector("#players .player")
    seat_cookie = [c for c in host.context.cookies() if c["name"] == f"osaka_{code}"]
    url = f"{e2e_server.base_url}/r/{code}"
    print("\nlanguage  load   files  source B  served B  sent B  headers B  transferSize B")
    for locale in ("de-DE", "en-US"):
        page = new_page(locale=locale)  # a new browser context: an empty cache
        page.context.add_cookies(seat_cookie)
        first, headers, first_headers = _load(page, url)
        paths = {urlsplit(e["url"]).path for e in first}
        assert {"/static/js/table.js", "/static/vendor/preact.js", "/static/css/app.css",
                f"/static/js/i18n/{locale[:2]}.js"} <= paths, paths
        assert set(headers) == {e["url"] for e in first}  # every module came by its versioned URL
        for u, h in headers.items():
            assert "?v=" in u and h["cache-control"] == "public, max-age=31536000, immutable", (u, h)
            assert h["content-encoding"] == "br" and h["vary"] == "Accept-Encoding", (u, h)
        page.evaluate("performance.clearResourceTimings()")
        again, _, again_headers = _load(page, url)  # the next visit
        figures = {"first": _figures(first, first_headers), "next": _figures(again, again_headers)}
        for name, f in figures.items():
            print(f"{locale[:2]:9} {name:6} {f['files']:5} {f['source']:9} {f['served']:9} {f['sent']:7} "
                  f"{f['headers']:9} {f['transfer']:9}")
        assert figures["first"]["sent"] <= FIRST_LOAD_BUDGET, figures
        assert {urlsplit(e["url"]).path for e in again} == paths
        # the next visit: everything from the browser's cache, not even a 304
        assert figures["next"]["transfer"] == figures["next"]["sent"] == figures["next"]["headers"] == 0, again
