"""The service worker of the turn notifications (static/sw.js, app/routes/static.py) is served at
the app's root, so its scope can be the whole app, under a URL prefix too: `Service-Worker-Allowed`
names the prefix, it is always revalidated (`no-cache`, never a versioned URL) and it is
JavaScript. Its handlers: tests/js/sw.test.js; in a browser: tests/e2e/test_notify_panel.py."""
from __future__ import annotations

import httpx

from app.prefix import normalize_prefix


def _check(response: httpx.Response, allowed: str) -> None:
    assert response.status_code == 200
    assert response.headers["service-worker-allowed"] == allowed
    assert response.headers["cache-control"] == "no-cache"
    assert response.headers["content-type"].startswith("text/javascript")
    assert "notificationclick" in response.text and "showNotification" in response.text


def test_the_service_worker_is_served_at_the_root_with_its_scope(server):
    r = httpx.get(server.base_url + "/sw.js")
    _check(r, "/")
    again = httpx.get(server.base_url + "/sw.js", headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304


def test_under_a_prefix_its_scope_is_the_prefix(server_factory):
    srv = server_factory(ROOT_PATH="/osaka")
    for base in (srv.base_url, srv.base_url + "/osaka"):  # the proxy strips the prefix or not
        _check(httpx.get(base + "/sw.js"), "/osaka/")


def test_no_prefix_can_hide_the_service_worker():
    assert normalize_prefix("/sw.js") is None
    assert normalize_prefix("/osaka") == "/osaka"
