"""The static files under `/static/` (app/assets.py: minified, compressed, versioned URLs), and
the service worker of the turn notifications at `/sw.js` (static/sw.js, docs/ui.md "Notifications")."""
from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ..prefix import root_of

router = APIRouter(include_in_schema=False)


@router.get("/static/{path:path}")
async def static_file(request: Request, path: str) -> Response:
    """A file of static/: `?v=<version>` (as pages name it) makes it cacheable for a year
    (immutable); brotli or gzip as the browser accepts. 404 for no such file."""
    return await request.app.state.assets.respond(request, path)


@router.get("/sw.js")
async def service_worker(request: Request) -> Response:
    """static/sw.js at the app's root, so that its scope may be the whole app: `{ROOT_PATH}/sw.js`
    with `Service-Worker-Allowed: {ROOT_PATH}/` (W3C Service Workers §"Service-Worker-Allowed"),
    `Cache-Control: no-cache` (never a versioned URL: the browser checks it for updates) and
    `text/javascript`; 304 by its ETag as the other static files."""
    response = await request.app.state.assets.respond(request, "sw.js")
    response.headers["Service-Worker-Allowed"] = root_of(request) + "/"
    return response
