"""The app behind a real reverse proxy under a path prefix (issue 16; docs/deploy.md "Under a
path"): Debian's Caddy serves it at http://127.0.0.1:PORT/osaka/ (prefix stripped by
`handle_path`, the app started with ROOT_PATH=/osaka) and at /games/osaka/ (no ROOT_PATH
needed: Caddy sends X-Forwarded-Prefix). Two people play a whole game through it in Chromium,
and every request their pages make (documents, scripts, styles, images, the QR code, the API,
the WebSockets, the manifest and its icons) stays under the prefix.

Caddy comes from Debian (`make test` installs it: TEST_DEBS in the Makefile); without it this
module is skipped, saying so."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from app.testing.launcher import free_port

from .conftest import E2EServer
from .helpers import create_room, goto, join_room, my_seat, play_to_the_end

CADDY = shutil.which("caddy")
pytestmark = pytest.mark.skipif(
    CADDY is None, reason="Debian's caddy is not installed (make test installs it: apt-get install caddy)")

CADDYFILE = """\
{{
	admin off
	auto_https off
	storage file_system {data}
}}
http://127.0.0.1:{port} {{
	redir /osaka /osaka/ 308
	handle_path /osaka/* {{
		reverse_proxy 127.0.0.1:{app}
	}}
	handle_path /games/osaka/* {{
		reverse_proxy 127.0.0.1:{app} {{
			header_up X-Forwarded-Prefix /games/osaka
		}}
	}}
	handle {{
		respond "not the app" 404
	}}
}}
"""


class Caddy:
    """`caddy run` on 127.0.0.1:`port` with CADDYFILE in front of the app on `app_port`: no
    admin endpoint, no automatic HTTPS, its config and data in `tmp`."""

    def __init__(self, tmp, app_port: int):
        self.port = free_port()
        self.origin = f"http://127.0.0.1:{self.port}"
        (tmp / "Caddyfile").write_text(CADDYFILE.format(port=self.port, app=app_port, data=tmp / "data"))
        env = {**os.environ, "HOME": str(tmp), "XDG_CONFIG_HOME": str(tmp / "config"),
               "XDG_DATA_HOME": str(tmp / "data")}
        self.log = open(tmp / "caddy.log", "wb")  # noqa: SIM115 (closed in stop)
        self.proc = subprocess.Popen([CADDY, "run", "--config", str(tmp / "Caddyfile"), "--adapter", "caddyfile"],
                                     env=env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(self.origin + "/osaka/healthz", timeout=1) as answer:
                    if answer.status == 200:
                        return
            except (OSError, urllib.error.URLError):
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"caddy did not come up: {(tmp / 'caddy.log').read_text()[-2000:]}")
            time.sleep(0.2)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()


@pytest.fixture(scope="module")
def proxied(tmp_path_factory):
    """(the app with ROOT_PATH=/osaka, Caddy in front of it)."""
    app = E2EServer(tmp_path_factory.mktemp("prefix-app"), env={"ROOT_PATH": "/osaka"})
    try:
        caddy = Caddy(tmp_path_factory.mktemp("caddy"), app.port)
        yield app, caddy
        caddy.stop()
    finally:
        app.stop()


def _recording(new_page):
    """A page that records the URL of every request and WebSocket it makes in `page.urls`."""
    page = new_page()
    page.urls = []
    page.context.on("request", lambda r: page.urls.append(r.url))
    page.on("websocket", lambda ws: page.urls.append(ws.url))
    return page


def _outside(pages, *prefixes: str) -> list[str]:
    urls = [u for p in pages for u in p.urls if not u.startswith(("data:", "blob:"))]
    assert urls
    print(f"{len(urls)} requests and WebSockets recorded, expected under {prefixes}")
    return [u for u in urls if not u.startswith(prefixes)]


def test_a_game_through_caddy_under_a_prefix(proxied, new_page, shots):
    _, caddy = proxied
    base = caddy.origin + "/osaka"
    inside = (base + "/", f"ws://127.0.0.1:{caddy.port}/osaka/")
    host, guest = _recording(new_page), _recording(new_page)
    code = create_room(host, base, "Hana", public=True)
    assert host.url == f"{base}/r/{code}"
    # the room link to copy and the QR code (whose image loads through the proxy)
    assert host.evaluate("document.documentElement.dataset.root") == "/osaka"
    host.wait_for_function("() => { const q = document.querySelector('img.qr'); return q && q.naturalWidth > 0; }")
    assert host.get_attribute("img.qr", "src") == f"/osaka/r/{code}/qr.svg"
    # another spelling of the code is redirected under the prefix
    goto(guest, f"{base}/r/{code.lower()}")
    assert guest.url == f"{base}/r/{code}"
    join_room(guest, base, code, "Gus")
    for page in (host, guest):  # each seat cookie belongs to the prefix only
        cookies = [c for c in page.context.cookies() if c["name"].startswith("osaka_")]
        assert cookies and all(c["path"] == "/osaka" for c in cookies), cookies
    # the manifest and its icons resolve under the prefix
    icons = host.evaluate("""async () => {
        const href = document.querySelector('link[rel=manifest]').href;
        const m = await (await fetch(href)).json();
        const urls = m.icons.map((i) => new URL(i.src, href).href);
        for (const u of urls) { if (!(await fetch(u)).ok) throw new Error(u); }
        return [new URL(m.start_url, href).href, ...urls];
    }""")
    assert icons[0] == base + "/" and all(u.startswith(base + "/static/") for u in icons[1:])
    assert host.evaluate("async (u) => (await (await fetch(u)).json()).servers", base + "/openapi.json") == [{"url": "/osaka"}]

    host.click("#start-btn")
    for page in (host, guest):
        page.wait_for_selector("#players .player")
    pages = [host, guest]
    reloaded = []

    def reload_once(step: int) -> None:  # a reload finds the same seat: the cookie under the prefix
        if step == 12:
            seat = my_seat(guest)
            guest.reload()
            guest.wait_for_selector("#players .player")
            assert my_seat(guest) == seat
            reloaded.append(step)

    play_to_the_end(pages, on_step=reload_once)
    assert reloaded
    for page in pages:
        page.locator(".result").wait_for()
        assert "Game over" in page.locator(".result").inner_text()
    host.screenshot(path=str(shots / "prefix-result.png"))
    # home and how-to-play from the top bar, still under the prefix
    host.click(".topbar .brand")
    host.wait_for_url(base + "/")
    host.wait_for_selector("html[data-ready]", state="attached")
    goto(guest, base + "/how-to-play")
    outside = _outside(pages, *inside)
    assert not outside, outside
    sockets = [u for p in pages for u in p.urls if u.startswith("ws")]
    assert f"ws://127.0.0.1:{caddy.port}/osaka/ws/rooms/{code}" in sockets
    assert f"ws://127.0.0.1:{caddy.port}/osaka/ws/lobby" in sockets


def test_the_prefix_from_x_forwarded_prefix(proxied, new_page):
    """Caddy strips /games/osaka and says so in X-Forwarded-Prefix: the app (whose ROOT_PATH is
    /osaka) follows the trusted header."""
    _, caddy = proxied
    base = caddy.origin + "/games/osaka"
    page = _recording(new_page)
    code = create_room(page, base, "Ida", public=False)
    assert page.url == f"{base}/r/{code}"
    assert page.evaluate("document.documentElement.dataset.root") == "/games/osaka"
    page.wait_for_selector(".seat.mine")
    cookies = [c for c in page.context.cookies() if c["name"].startswith("osaka_")]
    assert [c["path"] for c in cookies] == ["/games/osaka"]
    outside = _outside([page], base + "/", f"ws://127.0.0.1:{caddy.port}/games/osaka/")
    assert not outside, outside
